/* pictures.c - the run report: pictures (gnuplot) and index.html drawn from a `qqbench run --json`
 * file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pictures.h"
#include "pic.h"
#include "profile.h"

/* ======================================================================
 * The run as the pictures see it, from the run JSON's structs
 * (run_json.h, which validated the names): display defaults, finite
 * samples, cases found by name.
 * ====================================================================== */

/* An integer field as the pictures take it: DFLT past a billion. */
static long lim(long long v, long dflt)
{
    return v >= -1000000000LL && v <= 1000000000LL ? (long)v : dflt;
}

static double count(long long v)
{
    return v == QQB_RJ_ABSENT ? NAN : (double)v;
}

static struct rmem rmem_of(const struct qqb_run_mem *m)
{
    return (struct rmem){m->key, count(m->created), count(m->obj_bytes) + count(m->alloc_bytes),
                         count(m->peak_bytes)};
}

/* The finite numbers of V (NULL and 0 when there are none). */
static double *finite(const double *v, size_t n, size_t *out)
{
    *out = 0;
    if (!v || n == 0)
        return NULL;
    double *f = malloc(n * sizeof *f);
    if (!f)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            f[(*out)++] = v[i];
    return f;
}

static int view_case(struct rep *r, const struct qqb_run_case *jc, struct rcase *c)
{
    c->name = jc->name ? jc->name : ""; /* never NULL: the reader refuses a case without */
    c->bench = jc->bench ? jc->bench : c->name;
    c->variant = jc->variant;
    c->point = jc->point;
    c->note = jc->note;
    c->nodes = lim(jc->nodes, 1);
    c->mhz = jc->tick_mhz;
    c->launches = lim(jc->launches, 0);
    c->failed = jc->failed;
    if (!(r->mhz > 0) && c->mhz > 0)
        r->mhz = c->mhz;
    c->m = calloc(jc->n_metrics + 1, sizeof *c->m);
    c->mem = calloc(jc->n_memory + 1, sizeof *c->mem);
    if (!c->m || !c->mem)
        return pic_fail(r, "out of memory");
    for (size_t k = 0; k < jc->n_metrics; k++) {
        const struct qqb_run_metric *jm = &jc->metrics[k];
        struct rmetric *m = &c->m[c->nm++];
        m->key = jm->key;
        m->what = jm->what;
        m->v = finite(jm->samples, jm->n_samples, &m->n);
    }
    for (size_t k = 0; k < jc->n_memory; k++)
        c->mem[c->nmem++] = rmem_of(&jc->memory[k]);
    return 0;
}

static void view_cmp(struct rep *r, const struct qqb_run_cmp *j)
{
    struct rcmp *c = &r->cmps[r->ncmps];
    c->case_name = j->case_name;
    c->key = j->key;
    c->kind = j->kind ? j->kind : "other";
    c->ref = j->reference;
    c->verdict = j->verdict;
    c->note = j->note;
    c->reason = j->reason;
    c->why = j->why;
    c->base = j->baseline_cycles;
    c->cur = j->current_cycles;
    c->base_ns = j->baseline_ns;
    c->cur_ns = j->current_ns;
    c->pct = j->change_pct;
    c->lo = j->lo_pct;
    c->hi = j->hi_pct;
    if (isfinite(c->pct) && !isfinite(c->lo))
        c->lo = c->pct;
    if (isfinite(c->pct) && !isfinite(c->hi))
        c->hi = c->pct;
    c->thr = j->threshold_pct;
    c->conf = j->confidence;
    c->machine_pct = j->machine_pct;
    c->norm_pct = j->norm_pct;
    c->machine_moved = j->machine_moved;
    c->ci = pic_find_case(r, c->case_name);
    c->ri = pic_find_case(r, c->ref);
    if (c->ci >= 0 && !strcmp(c->kind, "baseline"))
        r->cases[c->ci].vs_baseline = 1;
    size_t k = 0;
    while (k < r->nkinds && strcmp(r->kinds[k], c->kind))
        k++;
    if (k == r->nkinds) {
        if (r->nkinds == sizeof r->kinds / sizeof r->kinds[0])
            return; /* more kinds than any run writes: left out */
        r->kinds[r->nkinds++] = c->kind;
    }
    c->bs = finite(j->baseline_samples, j->n_baseline_samples, &c->nbs);
    r->ncmps++;
}

static int read_run(struct rep *r)
{
    if (qqb_run_read(r->path, &r->run, r->err, r->errlen) != 0)
        return -1;
    const struct qqb_run *run = &r->run;
    /* The machine profiles' figures in their ranges, the field named (one
     * out of range reached gnuplot, whose warning named none). */
    const json_t *profs[] = {run->profile, run->baseline_profile};
    static const char *const pname[] = {"profile", "baseline_profile"};
    for (size_t i = 0; i < 2; i++) {
        struct qqb_profile p;
        char why[256];
        if (qqb_profile_from_json(profs[i], &p, why, sizeof why) < 0)
            return pic_fail(r, "%s: error: %s.%s", r->path, pname[i], why);
    }
    r->suite = run->suite;
    r->date = run->date;
    r->baseline = run->baseline;
    r->baseline_other = run->baseline_other;
    r->baseline_other_build = run->baseline_other_build;
    r->version = run->version;
    r->commit = run->commit;
    r->fp_id = run->fingerprint.id;
    r->fp_cpu = run->fingerprint.cpu;
    r->fp_compiler = run->fingerprint.compiler;
    r->fp_flags = run->fingerprint.flags;
    r->mhz = run->fingerprint.tick_mhz;
    r->kernel_failures = lim(run->kernel_failures, 0);
    r->exit_code = lim(run->exit_code, -1);
    r->cases = calloc(run->n_cases + 1, sizeof *r->cases);
    r->cmps = calloc(run->n_comparisons + 1, sizeof *r->cmps);
    r->mch = calloc(run->n_memory_changes + 1, sizeof *r->mch);
    if (!r->cases || !r->cmps || !r->mch)
        return pic_fail(r, "out of memory");
    r->ncases = r->ncmps = r->nmch = 0;
    for (size_t i = 0; i < run->n_cases; i++) {
        struct rcase *c = &r->cases[i];
        r->ncases = i + 1; /* freed with the rest, whole or not */
        if (view_case(r, &run->cases[i], c) != 0)
            return -1;
    }
    for (size_t i = 0; i < run->n_comparisons; i++)
        view_cmp(r, &run->comparisons[i]);
    for (size_t i = 0; i < run->n_memory_changes; i++) {
        const struct qqb_run_memchg *j = &run->memory_changes[i];
        r->mch[r->nmch++] = (struct rmemchg){j->case_name,
                                             j->key,
                                             j->kind ? j->kind : "other",
                                             j->reference,
                                             rmem_of(&j->before),
                                             rmem_of(&j->after),
                                             j->has_before,
                                             lim(j->verdict, 0),
                                             j->unchanged};
    }
    return 0;
}

static void free_rep(struct rep *r)
{
    for (size_t i = 0; r->cases && i < r->ncases; i++) {
        for (size_t k = 0; k < r->cases[i].nm; k++)
            free(r->cases[i].m[k].v);
        free(r->cases[i].m);
        free(r->cases[i].mem);
    }
    free(r->cases);
    for (size_t i = 0; r->cmps && i < r->ncmps; i++)
        free(r->cmps[i].bs);
    free(r->cmps);
    free(r->mch);
    qqb_run_free(&r->run);
}

/* ======================================================================
 * Benchmarks and their keys, in the order of the run.
 * ====================================================================== */

static void free_benches(struct bench *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(b[i].cases);
        free(b[i].keys);
    }
    free(b);
}

static struct bench *benches(const struct rep *r, size_t *nb)
{
    struct bench *b = calloc(r->ncases ? r->ncases : 1, sizeof *b);
    *nb = 0;
    if (!b)
        return NULL;
    for (size_t i = 0; i < r->ncases; i++) {
        const struct rcase *c = &r->cases[i];
        size_t k = 0;
        while (k < *nb && strcmp(b[k].name, c->bench))
            k++;
        if (k == *nb) {
            b[k].name = c->bench;
            b[k].cases = calloc(r->ncases, sizeof *b[k].cases);
            size_t nkeys = 0;
            for (size_t j = 0; j < r->ncases; j++)
                if (!strcmp(r->cases[j].bench, c->bench))
                    nkeys += r->cases[j].nm;
            b[k].keys = calloc(nkeys ? nkeys : 1, sizeof *b[k].keys);
            (*nb)++;
            if (!b[k].cases || !b[k].keys) {
                free_benches(b, *nb);
                return NULL;
            }
        }
        b[k].cases[b[k].ncases++] = i;
        for (size_t m = 0; m < c->nm; m++) {
            const struct rmetric *mt = &c->m[m];
            if (strcmp(mt->what, "per_hit") || mt->key[0] == '@' || mt->n == 0)
                continue;
            size_t q = 0;
            while (q < b[k].nkeys && strcmp(b[k].keys[q], mt->key))
                q++;
            if (q == b[k].nkeys)
                b[k].keys[b[k].nkeys++] = mt->key;
        }
    }
    return b;
}

/* ======================================================================
 * The whole report.
 * ====================================================================== */

int qqb_report_write(const char *json_path, const char *outdir, int no_plot, char *err,
                     size_t errlen)
{
    struct rep *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->path = json_path;
    r->dir = outdir;
    r->no_plot = no_plot;
    r->err = err;
    r->errlen = errlen;
    int rc = read_run(r);
    if (rc == 0)
        rc = qqb_plot_mkdir(outdir, err, errlen);
    size_t nb = 0;
    struct bench *b = NULL;
    if (rc == 0) {
        b = benches(r, &nb);
        if (!b)
            rc = pic_fail(r, "out of memory");
    }
    for (size_t k = 0; rc == 0 && k < r->nkinds; k++)
        rc = pic_change(r, r->kinds[k]);
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = pic_samples(r, &b[i]);
    if (rc == 0)
        rc = pic_memory(r);
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = pic_scaling(r, &b[i]);
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = pic_ab(r, &b[i]);
    if (rc == 0)
        rc = pic_index(r);
    if (b)
        free_benches(b, nb);
    free_rep(r);
    free(r);
    return rc;
}
