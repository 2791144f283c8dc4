/* cmd_run.c - qqbench run: measure a suite interleaved, compare with the baseline and between variants, give verdicts. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "cmds.h"
#include "output.h"
#include "qq_file.h"
#include "runner.h"
#include "stats.h"
#include "suite.h"

struct run_opts {
    const char *suite_path;
    const char *baselines_dir;
    const char *baseline_from;
    const char *kernel_dir;
    const char *record;
    const char *json, *junit;
    const char *work_parent;
    int update, quiet, verbose, confirm, keep, reps, max_reps;
    char **only;
    size_t nonly;
};

struct ctx {
    const struct run_opts *o;
    const struct qqb_suite *suite;
    char workdir[4096];
    size_t done, total; /* launches, for progress */
    size_t case_at, ncases; /* the group's first case, of all cases */
    size_t files;           /* launch files are run<N>.qq/.log, N < files */
    double ref_scale;       /* QQBENCH_REFERENCE_SCALE: tests pretend the
                             * machine is that much slower; 1 otherwise */
    double t0;
    int tty;
    size_t kernel_failures;
};

static void run_usage(FILE *fp)
{
    fprintf(fp,
        "usage: qqbench run [options] SUITE.yaml\n\n"
        "Run every benchmark of a suite (docs/SUITE.md): each case (benchmark x\n"
        "variant x node count x parameter point) is launched `warmup` times, then\n"
        "`repetitions` times, variants interleaved with a rotating lead. Each\n"
        "launch is one sample (docs/STATISTICS.md). Compares cycles per hit of\n"
        "every state key, and memory per key, against this machine's baseline,\n"
        "and every variant against the first variant; a regression is measured\n"
        "again before it counts.\n\n"
        "options:\n"
        "  --update-baseline   write the results as this machine's baseline\n"
        "  --record LABEL      also keep a labelled snapshot (history for reports)\n"
        "  --baselines DIR     where baselines live (default: baselines)\n"
        "  --baseline-from ID  compare against another machine's baseline (loud)\n"
        "  --kernels DIR       where bare kernel names are found\n"
        "                      (default: $QQBENCH_KERNELS, else next to qqbench)\n"
        "  --only NAME         run only this benchmark (repeatable)\n"
        "  --repetitions N     override every benchmark's repetitions\n"
        "  --max-repetitions N while a variant's A/B comparison is noisy, measure\n"
        "                      more rounds, up to N (default: no more)\n"
        "  --no-confirm        do not re-measure regressions before failing\n"
        "  --json FILE         write every number as JSON\n"
        "  --junit FILE        write a JUnit XML report (a test case per case and key)\n"
        "  --work DIR          where launches write (default: $TMPDIR)\n"
        "  --keep              keep the launches' files and logs\n"
        "  -q, --quiet         no progress, only the table and summary\n"
        "  -v, --verbose       a line per launch\n"
        "  -h, --help          this text\n\n"
        "Exit: 0 nothing regressed; 1 a regression (timing or memory); 2 bad\n"
        "input or usage; 3 a kernel failed (crash, non-zero exit, timeout, no or\n"
        "damaged output); the other cases' results are still shown.\n");
}

/* ---------------------------------------------------------------------
 * Progress on stderr: a rewritten line on a terminal, plain lines elsewhere.
 * --------------------------------------------------------------------- */

static void progress(struct ctx *c, size_t j, const char *name, int rep, int reps,
                     int warm)
{
    if (c->o->quiet)
        return;
    double el = qqb_now() - c->t0;
    if (c->tty) {
        fprintf(stderr, "\r\033[Kcase %zu/%zu %s, %s %d/%d, launch %zu/%zu, %.1fs",
                c->case_at + j + 1, c->ncases, name, warm ? "warmup" : "rep", rep + 1,
                reps, c->done + 1, c->total, el);
        fflush(stderr);
    } else if (c->o->verbose) {
        fprintf(stderr, "qqbench: case %zu/%zu %s %s %d/%d (launch %zu/%zu, %.1fs)\n",
                c->case_at + j + 1, c->ncases, name, warm ? "warmup" : "rep", rep + 1,
                reps, c->done + 1, c->total, el);
    }
}

static void progress_case_done(struct ctx *c, const struct qqb_case_result *r)
{
    if (c->o->quiet)
        return;
    if (c->tty) {
        fprintf(stderr, "\r\033[K");
    }
    if (r->failures)
        fprintf(stderr, "qqbench: %s: FAILED: %s\n", r->name,
                r->failure ? r->failure : "?");
    else if (!c->tty || c->o->verbose)
        fprintf(stderr, "qqbench: %s: %zu launches (%.1fs elapsed)\n", r->name,
                r->launches, qqb_now() - c->t0);
}

/* ---------------------------------------------------------------------
 * Measuring.
 * --------------------------------------------------------------------- */

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The full argv of a launch: the launcher for more than one node. */
static char **launch_argv(const struct qqb_bench *b, const struct qqb_case *k)
{
    char **pre = NULL;
    size_t npre = 0;
    if (k->nodes > 1 && qqb_launcher_argv(b->s.launcher, k->nodes, &pre, &npre) != 0)
        return NULL;
    char **argv = calloc(npre + k->argc + 1, sizeof *argv);
    if (!argv) {
        qqb_argv_free(pre);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < npre; i++)
        argv[n++] = strdup(pre[i]);
    for (size_t i = 0; i < k->argc; i++)
        argv[n++] = strdup(k->argv[i]);
    argv[n] = NULL;
    qqb_argv_free(pre);
    for (size_t i = 0; i < n; i++)
        if (!argv[i]) {
            qqb_argv_free(argv);
            return NULL;
        }
    return argv;
}

/* One launch of case K; on success its samples go into R (unless WARM). */
static int launch_once(struct ctx *c, const struct qqb_bench *b,
                       const struct qqb_case *k, size_t file,
                       struct qqb_case_result *r, int warm)
{
    char out[4200], log[4200];
    snprintf(out, sizeof out, "%s/run%zu.qq", c->workdir, file);
    snprintf(log, sizeof log, "%s/run%zu.log", c->workdir, file);
    char **argv = launch_argv(b, k);
    if (!argv) {
        free(r->failure);
        r->failure = strdup("out of memory building the command line");
        r->failures++;
        return -1;
    }
    struct qqb_launch l = {argv, b->s.timeout, out, log, b->s.events};
    struct qqb_launch_result lr;
    /* The machine's speed just before the launch: the same weather. */
    double ref = warm ? 0 : qqb_reference_ticks() * c->ref_scale;
    int rc = qqb_launch_run(&l, &lr);
    qqb_argv_free(argv);
    c->done++;
    if (rc == 0 && !warm) {
        char err[600];
        rc = qqb_collect(out, b->keys, b->nkeys, r, err, sizeof err);
        if (rc != 0) {
            lr.status = QQB_LAUNCH_BADFILE;
            snprintf(lr.reason, sizeof lr.reason, "damaged QQ file: %.480s", err);
        } else {
            struct qqb_metric *m =
                qqb_case_metric(r, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
            if (m)
                qqb_metric_add(m, ref);
            r->launches++;
        }
    } else if (rc == 0) {
        /* A warmup's file must still be readable: a kernel that writes a
         * damaged file fails before it is measured. */
        struct qq_file *f;
        if (qq_file_open(out, &f) != 0) {
            rc = -1;
            lr.status = QQB_LAUNCH_BADFILE;
            snprintf(lr.reason, sizeof lr.reason, "damaged QQ file: %s",
                     qq_file_errmsg(f));
        }
        qq_file_close(f);
    }
    if (rc != 0) {
        free(r->failure);
        r->failure = strdup(lr.reason);
        r->failures++;
        if (c->o->keep || c->o->verbose)
            fprintf(stderr, "qqbench: %s: launch log kept in %s\n", k->name, log);
    }
    if (!c->o->keep)
        unlink(out);
    return rc;
}

static char *point_string(const struct qqb_bench *b, const struct qqb_case *k)
{
    if (b->nparams == 0)
        return NULL;
    size_t len = 1;
    for (size_t i = 0; i < b->nparams; i++)
        len += strlen(b->params[i].name) + strlen(k->values[i]) + 2;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < b->nparams; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, b->params[i].name);
        strcat(s, "=");
        strcat(s, k->values[i]);
    }
    return s;
}

static void compare_one(struct qqb_cmp *row, const struct qqb_metric *base,
                        const struct qqb_metric *cur, const struct qqb_bench *b,
                        int paired);

/* 1 when some variant's per_hit against the first variant is still noisy,
 * judged exactly as the A/B rows of the report will be (compare_one). */
static int ab_undecided(const struct qqb_bench *b, struct qqb_case_result **rs,
                        size_t nv)
{
    for (size_t j = 1; j < nv; j++) {
        if (rs[j]->failures || rs[0]->failures)
            return 0;
        for (size_t m = 0; m < rs[j]->nmetrics; m++) {
            const struct qqb_metric *cm = &rs[j]->metrics[m];
            if (strcmp(cm->what, QQB_VERDICT_METRIC))
                continue;
            const struct qqb_metric *am =
                qqb_case_find_metric(rs[0], cm->key, QQB_VERDICT_METRIC);
            if (!am)
                continue;
            struct qqb_cmp row = {0};
            compare_one(&row, am, cm, b, 1);
            if (row.ch.status == QQB_CHANGE_OK && row.verdict == QQB_NOISY)
                return 1;
        }
    }
    return 0;
}

/*
 * Measure one group: the variants of one parameter point and node count
 * (cases FIRST .. FIRST+NV-1), warmups then repetitions, interleaved with a
 * rotating lead (rep r starts with variant r mod NV), so the machine's drift
 * and order effects fall on every variant alike. Results go into INTO; a
 * case whose launch fails stops there, the others go on.
 */
static int measure_group(struct ctx *c, const struct qqb_bench *b, size_t first,
                         size_t nv, struct qqb_results *into)
{
    struct qqb_case *ks = calloc(nv, sizeof *ks);
    struct qqb_case_result **rs = calloc(nv, sizeof *rs);
    int rc = 0;
    if (!ks || !rs) {
        free(ks);
        free(rs);
        return -1;
    }
    /* Each case of the run has its own launch files, so --keep keeps one
     * log per case (the last launch's), confirmations included. */
    size_t file0 = c->files;
    c->files += nv;
    for (size_t j = 0; j < nv; j++) {
        if (qqb_bench_case(b, first + j, &ks[j]) != 0) {
            rc = -1;
            goto out;
        }
    }
    for (size_t j = 0; j < nv; j++) {
        /* The case may exist already (a confirmation re-measures into a
         * fresh results set, so it does not). */
        rs[j] = qqb_results_case(into, ks[j].name);
        if (!rs[j]) {
            rc = -1;
            goto out;
        }
        struct qqb_case_result *r = rs[j];
        r->nodes = ks[j].nodes;
        if (!r->bench)
            r->bench = strdup(b->name);
        if (!r->variant && ks[j].variant >= 0)
            r->variant = strdup(b->variants[ks[j].variant].name);
        if (!r->point)
            r->point = point_string(b, &ks[j]);
    }
    int reps = c->o->reps > 0 ? c->o->reps : b->s.repetitions;
    for (int w = 0; w < b->s.warmup; w++)
        for (size_t j = 0; j < nv; j++) {
            if (rs[j]->failures)
                continue;
            progress(c, j, ks[j].name, w, b->s.warmup, 1);
            launch_once(c, b, &ks[j], file0 + j, rs[j], 1);
        }
    /* --max-repetitions: while an A/B comparison is still noisy, measure
     * more rounds (as many again each time) up to the maximum: a stretch of
     * machine noise then costs time instead of a verdict. */
    int upto = reps, most = c->o->max_reps > reps ? c->o->max_reps : reps;
    for (int rep = 0; rep < upto; rep++) {
        for (size_t i = 0; i < nv; i++) {
            size_t j = (i + (size_t)rep) % nv;
            if (rs[j]->failures)
                continue;
            progress(c, j, ks[j].name, rep, upto, 0);
            launch_once(c, b, &ks[j], file0 + j, rs[j], 0);
        }
        if (rep + 1 == upto && upto < most && nv > 1 && ab_undecided(b, rs, nv)) {
            int more = upto + reps > most ? most - upto : reps;
            upto += more;
            c->total += (size_t)more * nv;
            if (!c->o->quiet && (c->o->verbose || !c->tty))
                fprintf(stderr, "qqbench: %s: A/B still noisy after %d rounds: "
                        "%d more\n", b->name, rep + 1, more);
        }
    }
    for (size_t j = 0; j < nv; j++) {
        progress_case_done(c, rs[j]);
        if (rs[j]->failures)
            c->kernel_failures++;
    }
    c->case_at += nv;
out:
    for (size_t j = 0; j < nv; j++)
        qqb_case_free(&ks[j]);
    free(ks);
    free(rs);
    return rc;
}

static int bench_selected(const struct run_opts *o, const struct qqb_bench *b)
{
    if (o->nonly == 0)
        return 1;
    for (size_t i = 0; i < o->nonly; i++)
        if (!strcmp(o->only[i], b->name))
            return 1;
    return 0;
}

static size_t group_size(const struct qqb_bench *b)
{
    return b->nvariants ? b->nvariants : 1;
}

static int measure_suite(struct ctx *c, struct qqb_results *into)
{
    for (size_t i = 0; i < c->suite->nbench; i++) {
        const struct qqb_bench *b = &c->suite->bench[i];
        if (!bench_selected(c->o, b))
            continue;
        size_t n = qqb_bench_ncases(b), nv = group_size(b);
        for (size_t first = 0; first < n; first += nv)
            if (measure_group(c, b, first, nv, into) != 0)
                return -1;
    }
    return 0;
}

/* Find the benchmark and the first case index of the group holding NAME. */
static int find_group(const struct qqb_suite *s, const char *name,
                      const struct qqb_bench **bench, size_t *first)
{
    for (size_t i = 0; i < s->nbench; i++) {
        const struct qqb_bench *b = &s->bench[i];
        size_t n = qqb_bench_ncases(b), nv = group_size(b);
        for (size_t k = 0; k < n; k++) {
            struct qqb_case cs;
            if (qqb_bench_case(b, k, &cs) != 0)
                continue;
            int hit = !strcmp(cs.name, name);
            qqb_case_free(&cs);
            if (hit) {
                *bench = b;
                *first = k - k % nv;
                return 0;
            }
        }
    }
    return -1;
}

static const struct qqb_bench *bench_of(const struct qqb_suite *s, const char *name)
{
    for (size_t i = 0; i < s->nbench; i++)
        if (!strcmp(s->bench[i].name, name))
            return &s->bench[i];
    return NULL;
}

/* ---------------------------------------------------------------------
 * Comparing.
 * --------------------------------------------------------------------- */

/* Samples divided by the machine reference of the same launch. */
static double *normalized(const struct qqb_metric *m, const struct qqb_metric *ref)
{
    if (!ref || ref->n != m->n)
        return NULL;
    double *v = malloc((m->n ? m->n : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        v[i] = ref->samples[i] > 0 ? m->samples[i] / ref->samples[i] : 0;
    return v;
}

/*
 * Against a stored baseline there are no pairs: the baseline was measured
 * minutes or months ago, and this machine's speed moves in steps that last
 * seconds (measured here: a stretch 5% slower, in which an A/A comparison
 * and its confirmation both said +5%). So the verdict must also hold for
 * the samples divided by the machine reference measured just before each
 * launch; when it does not, the machine moved, not the code: noisy.
 */
static void machine_check(struct qqb_cmp *row, const struct qqb_metric *base,
                          const struct qqb_metric *cur,
                          const struct qqb_metric *bref,
                          const struct qqb_metric *cref, double conf)
{
    row->machine_pct = NAN;
    row->norm_pct = NAN;
    if (!bref || !cref || bref->n < 2 || cref->n < 2)
        return;
    row->machine_pct = 100.0 * (qqb_median(cref->samples, cref->n) /
                                    qqb_median(bref->samples, bref->n) -
                                1.0);
    double *nb = normalized(base, bref), *nc = normalized(cur, cref);
    if (nb && nc) {
        struct qqb_change ch;
        if (qqb_change(nb, base->n, nc, cur->n, conf, 1, &ch) == 0) {
            row->norm_pct = ch.pct;
            enum qqb_verdict v = qqb_verdict_of(&ch, row->threshold);
            if ((row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED) &&
                v != row->verdict) {
                row->verdict = QQB_NOISY;
                row->machine_moved = 1;
            }
        }
    }
    free(nb);
    free(nc);
}

static void compare_one(struct qqb_cmp *row, const struct qqb_metric *base,
                        const struct qqb_metric *cur, const struct qqb_bench *b,
                        int paired)
{
    double conf = b ? b->s.confidence : QQB_DEFAULT_CONFIDENCE;
    double noise = qqb_noise_pct(base->samples, base->n);
    row->machine_pct = row->norm_pct = NAN;
    row->threshold = qqb_threshold(b ? b->s.threshold : QQB_DEFAULT_THRESHOLD,
                                   b ? b->s.noise_multiple : 0, noise);
    row->paired = paired && base->n == cur->n;
    if (row->paired)
        qqb_change_paired_sign(base->samples, cur->samples, cur->n, conf, &row->ch);
    else
        qqb_change(base->samples, base->n, cur->samples, cur->n, conf, 1, &row->ch);
    row->base_median = qqb_median(base->samples, base->n);
    row->cur_median = qqb_median(cur->samples, cur->n);
    row->verdict = qqb_verdict_of(&row->ch, row->threshold);
}

static int push_row(struct qqb_report *rep, const struct qqb_cmp *row)
{
    if (rep->ncmp == rep->capcmp) {
        size_t cap = rep->capcmp ? 2 * rep->capcmp : 32;
        struct qqb_cmp *v = realloc(rep->cmp, cap * sizeof *v);
        if (!v)
            return -1;
        rep->cmp = v;
        rep->capcmp = cap;
    }
    rep->cmp[rep->ncmp++] = *row;
    return 0;
}

static int push_mem(struct qqb_report *rep, const struct qqb_memcmp *m)
{
    if (rep->nmem == rep->capmem) {
        size_t cap = rep->capmem ? 2 * rep->capmem : 32;
        struct qqb_memcmp *v = realloc(rep->mem, cap * sizeof *v);
        if (!v)
            return -1;
        rep->mem = v;
        rep->capmem = cap;
    }
    rep->mem[rep->nmem++] = *m;
    return 0;
}

static const struct qqb_mem *mem_find(const struct qqb_case_result *c, const char *k)
{
    for (size_t i = 0; i < c->nmem; i++)
        if (!strcmp(c->mem[i].key, k))
            return &c->mem[i];
    return NULL;
}

/* Memory of CUR against BASE (the same case in the baseline, or the
 * reference variant); every key whose live or peak bytes moved beyond the
 * tolerance, or that appeared or vanished. */
static int compare_mem(struct qqb_report *rep, const struct qqb_case_result *base,
                       const struct qqb_case_result *cur, int ab, uint64_t tol)
{
    static const struct qqb_mem none;
    for (int pass = 0; pass < 2; pass++) {
        const struct qqb_case_result *a = pass ? cur : base, *o = pass ? base : cur;
        for (size_t i = 0; i < a->nmem; i++) {
            const struct qqb_mem *m = mem_find(o, a->mem[i].key);
            if (pass == 1 && m)
                continue; /* seen in the first pass */
            const struct qqb_mem *bm = pass ? (m ? m : &none) : &a->mem[i];
            const struct qqb_mem *cm = pass ? &a->mem[i] : (m ? m : &none);
            uint64_t bl = bm->obj_bytes + bm->alloc_bytes,
                     cl = cm->obj_bytes + cm->alloc_bytes;
            int vl = qqb_mem_verdict(bl, cl, tol),
                vp = qqb_mem_verdict(bm->peak_bytes, cm->peak_bytes, tol),
                vo = qqb_mem_verdict(bm->created, cm->created, 0);
            struct qqb_memcmp mc = {cur->name, a->mem[i].key, ab, base->name,
                                    *bm, *cm,
                                    vl > 0 || vp > 0 ? 1 : (vl < 0 || vp < 0 ? -1 : 0)};
            if (mc.verdict == 0 && vo == 0 && m)
                continue;
            if (mc.verdict == 0)
                mc.verdict = vo > 0 ? 1 : (vo < 0 ? -1 : 0);
            if (push_mem(rep, &mc) != 0)
                return -1;
        }
    }
    return 0;
}

/* Is KEY judged against the baseline (baseline_keys, default all)? */
static int baseline_key(const struct qqb_bench *b, const char *key)
{
    if (!b || b->nbaseline_keys == 0)
        return 1;
    for (size_t i = 0; i < b->nbaseline_keys; i++)
        if (!strcmp(b->baseline_keys[i], key))
            return 1;
    return 0;
}

static int compare_all(const struct qqb_suite *s, const struct qqb_results *base,
                       const struct qqb_results *cur, struct qqb_report *rep)
{
    for (size_t i = 0; i < cur->ncases; i++) {
        const struct qqb_case_result *c = &cur->cases[i];
        if (c->failures || c->launches == 0)
            continue;
        const struct qqb_bench *b = bench_of(s, c->bench);
        /* Against the baseline. */
        const struct qqb_case_result *bc = base ? qqb_results_find(base, c->name) : NULL;
        if (bc) {
            for (size_t m = 0; m < c->nmetrics; m++) {
                if (strcmp(c->metrics[m].what, QQB_VERDICT_METRIC) ||
                    !baseline_key(b, c->metrics[m].key))
                    continue;
                const struct qqb_metric *bm =
                    qqb_case_find_metric(bc, c->metrics[m].key, QQB_VERDICT_METRIC);
                if (!bm)
                    continue;
                struct qqb_cmp row = {0};
                row.case_name = c->name;
                row.key = c->metrics[m].key;
                row.ref_name = NULL;
                row.mhz = c->mhz;
                row.base_mhz = bc->mhz;
                row.confirmed = -1;
                compare_one(&row, bm, &c->metrics[m], b, 0);
                machine_check(&row, bm, &c->metrics[m],
                              qqb_case_find_metric(bc, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                              qqb_case_find_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                              b ? b->s.confidence : QQB_DEFAULT_CONFIDENCE);
                if (push_row(rep, &row) != 0)
                    return -1;
            }
            if (compare_mem(rep, bc, c, 0,
                            b ? (uint64_t)b->s.memory_tolerance : 0) != 0)
                return -1;
        }
        /* Against the reference variant of the same point and node count. */
        if (c->variant && b && b->nvariants > 1 &&
            strcmp(c->variant, b->variants[0].name) != 0) {
            const struct qqb_case_result *ref = NULL;
            for (size_t j = 0; j < cur->ncases; j++) {
                const struct qqb_case_result *o = &cur->cases[j];
                if (o->variant && !strcmp(o->bench, c->bench) &&
                    !strcmp(o->variant, b->variants[0].name) && o->nodes == c->nodes &&
                    ((!o->point && !c->point) ||
                     (o->point && c->point && !strcmp(o->point, c->point))))
                    ref = o;
            }
            if (ref && !ref->failures && ref->launches > 0) {
                for (size_t m = 0; m < c->nmetrics; m++) {
                    if (strcmp(c->metrics[m].what, QQB_VERDICT_METRIC))
                        continue;
                    const struct qqb_metric *rm =
                        qqb_case_find_metric(ref, c->metrics[m].key, QQB_VERDICT_METRIC);
                    if (!rm)
                        continue;
                    struct qqb_cmp row = {0};
                    row.case_name = c->name;
                    row.key = c->metrics[m].key;
                    row.ref_name = ref->name;
                    row.ab = 1;
                    row.mhz = c->mhz;
                    row.base_mhz = ref->mhz;
                    row.confirmed = -1;
                    compare_one(&row, rm, &c->metrics[m], b, 1);
                    if (push_row(rep, &row) != 0)
                        return -1;
                }
                if (compare_mem(rep, ref, c, 1, 0) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------
 * The command.
 * --------------------------------------------------------------------- */

static const char *default_kernel_dir(char *buf, size_t len)
{
    const char *env = getenv("QQBENCH_KERNELS");
    if (env && *env)
        return env;
    /* Next to the program: build/harness/qqbench -> build/kernels, or an
     * installed bin/qqbench -> libexec/qqbench/kernels. */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    snprintf(buf, len, "%.3900s/../kernels", exe);
    if (is_dir(buf))
        return buf;
    snprintf(buf, len, "%.3900s/../libexec/qqbench/kernels", exe);
    return is_dir(buf) ? buf : NULL;
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_ARG()                                                          \
    do {                                                                     \
        if (!next) {                                                         \
            fprintf(stderr, "qqbench run: error: %s needs an argument\n", a); \
            return -1;                                                       \
        }                                                                    \
        i++;                                                                 \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            return 1;
        } else if (!strcmp(a, "--update-baseline")) {
            o->update = 1;
        } else if (!strcmp(a, "--record")) {
            NEEDS_ARG();
            o->record = next;
        } else if (!strcmp(a, "--baselines")) {
            NEEDS_ARG();
            o->baselines_dir = next;
        } else if (!strcmp(a, "--baseline-from")) {
            NEEDS_ARG();
            o->baseline_from = next;
        } else if (!strcmp(a, "--kernels")) {
            NEEDS_ARG();
            o->kernel_dir = next;
        } else if (!strcmp(a, "--json")) {
            NEEDS_ARG();
            o->json = next;
        } else if (!strcmp(a, "--junit")) {
            NEEDS_ARG();
            o->junit = next;
        } else if (!strcmp(a, "--work")) {
            NEEDS_ARG();
            o->work_parent = next;
        } else if (!strcmp(a, "--only")) {
            NEEDS_ARG();
            char **v = realloc(o->only, (o->nonly + 1) * sizeof *v);
            if (!v)
                return -1;
            o->only = v;
            o->only[o->nonly++] = (char *)next;
        } else if (!strcmp(a, "--repetitions")) {
            NEEDS_ARG();
            char *end;
            long r = strtol(next, &end, 10);
            if (*end || r < QQB_MIN_REPS || r > 100000) {
                fprintf(stderr, "qqbench run: error: --repetitions takes a whole "
                        "number >= %d, not '%s'\n", QQB_MIN_REPS, next);
                return -1;
            }
            o->reps = (int)r;
        } else if (!strcmp(a, "--max-repetitions")) {
            NEEDS_ARG();
            char *end;
            long r = strtol(next, &end, 10);
            if (*end || r < QQB_MIN_REPS || r > 100000) {
                fprintf(stderr, "qqbench run: error: --max-repetitions takes a whole "
                        "number >= %d, not '%s'\n", QQB_MIN_REPS, next);
                return -1;
            }
            o->max_reps = (int)r;
        } else if (!strcmp(a, "--no-confirm")) {
            o->confirm = 0;
        } else if (!strcmp(a, "--keep")) {
            o->keep = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = 1;
        } else if (a[0] == '-' && a[1]) {
            static const char *const known[] = {
                "--update-baseline", "--record", "--baselines", "--baseline-from",
                "--kernels", "--json", "--junit", "--work", "--only",
                "--repetitions", "--max-repetitions", "--no-confirm", "--keep",
                "--quiet", "--verbose",
                "--help"};
            const char *near = qqb_nearest(a, known, sizeof known / sizeof known[0]);
            fprintf(stderr, "qqbench run: error: unknown option '%s'%s%s%s; see "
                    "'qqbench run --help'\n", a, near ? " (did you mean '" : "",
                    near ? near : "", near ? "'?)" : "");
            return -1;
        } else if (o->suite_path) {
            fprintf(stderr, "qqbench run: error: one suite at a time ('%s' and '%s')\n",
                    o->suite_path, a);
            return -1;
        } else {
            o->suite_path = a;
        }
#undef NEEDS_ARG
    }
    if (!o->suite_path) {
        run_usage(stderr);
        return -1;
    }
    return 0;
}

static void utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void remove_workdir(const char *dir, size_t files)
{
    char path[4300];
    /* Only the files this run made: run<N>.qq, run<N>.log. */
    for (size_t i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/run%zu.log", dir, i);
        unlink(path);
        snprintf(path, sizeof path, "%s/run%zu.qq", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

int cmd_run(int argc, char **argv)
{
    struct run_opts o = {0};
    o.confirm = 1;
    int prc = parse_opts(argc, argv, &o);
    if (prc != 0) {
        free(o.only);
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    }
    char kbuf[4096];
    if (!o.kernel_dir)
        o.kernel_dir = default_kernel_dir(kbuf, sizeof kbuf);

    int exit_code = QQB_EXIT_OK;
    char err[1024];
    struct qqb_suite *suite = NULL;
    struct qqb_results cur = {0}, base = {0}, conf = {0};
    struct qqb_report rep = {0};
    int have_base = 0;

    if (qqb_suite_load(o.suite_path, o.kernel_dir, &suite, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        free(o.only);
        return QQB_EXIT_USAGE;
    }
    for (size_t i = 0; i < o.nonly; i++)
        if (!bench_of(suite, o.only[i])) {
            fprintf(stderr, "qqbench run: error: --only %s: no such benchmark in %s\n",
                    o.only[i], o.suite_path);
            exit_code = QQB_EXIT_USAGE;
            goto done;
        }

    /* The baseline: this machine's, or another's when asked. */
    qqb_fingerprint_this(&cur.fp);
    const char *bdir = o.baselines_dir ? o.baselines_dir : "baselines";
    char bpath[4096], hpath[4096], own[4096];
    struct qqb_fingerprint from = cur.fp;
    if (o.baseline_from)
        snprintf(from.id, sizeof from.id, "%s", o.baseline_from);
    if (qqb_baseline_path(bdir, suite->name, &from, NULL, bpath, sizeof bpath) != 0 ||
        qqb_baseline_path(bdir, suite->name, &cur.fp, NULL, own, sizeof own) != 0 ||
        (o.record && qqb_baseline_path(bdir, suite->name, &cur.fp, o.record, hpath,
                                       sizeof hpath) != 0)) {
        fprintf(stderr, "qqbench run: error: cannot make a baseline path for "
                "suite '%s' (machine '%s'%s%s)\n", suite->name, from.id,
                o.record ? ", label " : "", o.record ? o.record : "");
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    if (access(bpath, F_OK) == 0) {
        if (qqb_baseline_read(bpath, &base, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            fprintf(stderr, "qqbench run: error: the baseline is damaged; fix it or "
                    "remove it (git checkout %s)\n", bpath);
            exit_code = QQB_EXIT_USAGE;
            goto done;
        }
        have_base = 1;
        if (o.baseline_from)
            fprintf(stderr,
                    "qqbench: WARNING: comparing against the baseline of ANOTHER "
                    "machine (%s; this one is %s).\n"
                    "qqbench: WARNING: cycle counts of different machines differ for "
                    "reasons that are not your change; treat verdicts with care.\n",
                    o.baseline_from, cur.fp.id);
    } else if (o.baseline_from) {
        fprintf(stderr, "qqbench run: error: no baseline of suite '%s' for machine "
                "'%s' (%s)\n", suite->name, o.baseline_from, bpath);
        exit_code = QQB_EXIT_USAGE;
        goto done;
    } else if (!o.quiet) {
        char **ids = NULL;
        size_t nids = 0;
        qqb_baseline_find_others(bdir, suite->name, cur.fp.id, &ids, &nids);
        fprintf(stderr, "qqbench: no baseline of suite '%s' for this machine (%s) "
                "at %s: this run records one.\n", suite->name, cur.fp.id, bpath);
        if (nids) {
            fprintf(stderr, "qqbench: baselines exist for other machines:");
            for (size_t i = 0; i < nids; i++)
                fprintf(stderr, " %s", ids[i]);
            fprintf(stderr, " (compare with --baseline-from ID)\n");
        }
        qqb_baseline_free_list(ids, nids);
    }

    struct ctx c = {0};
    c.o = &o;
    c.suite = suite;
    c.tty = isatty(STDERR_FILENO);
    c.ref_scale = 1.0;
    const char *scale = getenv("QQBENCH_REFERENCE_SCALE");
    if (scale && *scale) {
        char *end;
        double v = strtod(scale, &end);
        if (*end || !(v > 0) || !isfinite(v)) {
            fprintf(stderr, "qqbench run: error: QQBENCH_REFERENCE_SCALE='%s' is not "
                    "a positive number\n", scale);
            exit_code = QQB_EXIT_USAGE;
            goto done;
        }
        c.ref_scale = v;
    }
    c.t0 = qqb_now();
    snprintf(c.workdir, sizeof c.workdir, "%s/qqbench.XXXXXX",
             o.work_parent ? o.work_parent
                           : (getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR")
                                                                     : "/tmp"));
    if (!mkdtemp(c.workdir)) {
        fprintf(stderr, "qqbench run: error: cannot make a work folder %s: %s\n",
                c.workdir, strerror(errno));
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    qqb_runner_trap_signals(o.keep ? NULL : c.workdir); /* SIGINT & co: clean up */
    for (size_t i = 0; i < suite->nbench; i++) {
        const struct qqb_bench *b = &suite->bench[i];
        if (bench_selected(&o, b))
            c.ncases += qqb_bench_ncases(b);
        if (bench_selected(&o, b))
            c.total += qqb_bench_ncases(b) *
                       (size_t)(b->s.warmup + (o.reps > 0 ? o.reps : b->s.repetitions));
    }
    if (!o.quiet)
        fprintf(stderr, "qqbench: suite '%s': %zu launches on %s\n", suite->name,
                c.total, cur.fp.id);

    char date[64];
    utc_now(date, sizeof date);
    cur.suite = strdup(suite->name);
    cur.date = strdup(date);
    cur.version = strdup(QQB_VERSION);
    cur.label = o.record ? strdup(o.record) : NULL;
    char commit[64];
    if (qqb_git_commit(suite->dir, commit, sizeof commit) == 0)
        cur.commit = strdup(commit);

    if (measure_suite(&c, &cur) != 0) {
        fprintf(stderr, "qqbench run: error: out of memory\n");
        exit_code = QQB_EXIT_USAGE;
        goto cleanup;
    }
    if (compare_all(suite, have_base ? &base : NULL, &cur, &rep) != 0) {
        fprintf(stderr, "qqbench run: error: out of memory\n");
        exit_code = QQB_EXIT_USAGE;
        goto cleanup;
    }

    /* Confirmation: a regression against the baseline counts only if a
     * fresh interleaved measurement of its group says so too, which turns
     * a false-alarm rate p into about p^2 (docs/STATISTICS.md). */
    size_t flagged = 0;
    for (size_t i = 0; i < rep.ncmp; i++)
        flagged += !rep.cmp[i].ab && rep.cmp[i].verdict == QQB_REGRESSED;
    if (flagged && o.confirm) {
        if (!o.quiet)
            fprintf(stderr, "qqbench: %zu regression%s: confirming with a fresh "
                    "interleaved measurement\n", flagged, flagged == 1 ? "" : "s");
        conf.suite = strdup(suite->name);
        /* Progress of the confirmation counts its own cases and launches. */
        c.case_at = c.ncases = c.done = c.total = 0;
        for (size_t i = 0; i < rep.ncmp; i++) {
            const struct qqb_bench *b;
            size_t first;
            int seen = 0;
            if (rep.cmp[i].ab || rep.cmp[i].verdict != QQB_REGRESSED ||
                find_group(suite, rep.cmp[i].case_name, &b, &first) != 0)
                continue;
            for (size_t k = 0; k < i; k++) {
                const struct qqb_bench *b2;
                size_t first2;
                if (!rep.cmp[k].ab && rep.cmp[k].verdict == QQB_REGRESSED &&
                    find_group(suite, rep.cmp[k].case_name, &b2, &first2) == 0 &&
                    b2 == b && first2 == first)
                    seen = 1;
            }
            if (seen)
                continue;
            c.ncases += group_size(b);
            c.total += group_size(b) *
                       (size_t)(b->s.warmup + (o.reps > 0 ? o.reps : b->s.repetitions));
        }
        for (size_t i = 0; i < rep.ncmp; i++) {
            struct qqb_cmp *row = &rep.cmp[i];
            if (row->ab || row->verdict != QQB_REGRESSED)
                continue;
            if (qqb_results_find(&conf, row->case_name) == NULL) {
                const struct qqb_bench *b;
                size_t first;
                if (find_group(suite, row->case_name, &b, &first) == 0)
                    measure_group(&c, b, first, group_size(b), &conf);
            }
            const struct qqb_case_result *cc = qqb_results_find(&conf, row->case_name);
            const struct qqb_case_result *bc = qqb_results_find(&base, row->case_name);
            const struct qqb_metric *cm =
                cc ? qqb_case_find_metric(cc, row->key, QQB_VERDICT_METRIC) : NULL;
            const struct qqb_metric *bm =
                bc ? qqb_case_find_metric(bc, row->key, QQB_VERDICT_METRIC) : NULL;
            row->confirmed = 0;
            if (cm && bm && !cc->failures) {
                struct qqb_cmp again = *row;
                const struct qqb_bench *cb = bench_of(suite, cc->bench);
                compare_one(&again, bm, cm, cb, 0);
                machine_check(&again, bm, cm,
                              qqb_case_find_metric(bc, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                              qqb_case_find_metric(cc, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                              cb ? cb->s.confidence : QQB_DEFAULT_CONFIDENCE);
                row->confirmed = again.verdict == QQB_REGRESSED;
                row->confirm_pct = again.ch.pct;
            }
            if (!row->confirmed)
                row->verdict = QQB_NOISY; /* did not hold: not a verdict */
        }
    }

    rep.suite = suite->name;
    rep.baseline_path = have_base ? bpath : NULL;
    rep.baseline_other = o.baseline_from != NULL;
    rep.results = &cur;
    rep.kernel_failures = c.kernel_failures;
    rep.confirmed_run = flagged && o.confirm;
    rep.elapsed = qqb_now() - c.t0;
    qqb_report_print(stdout, &rep);

    int regressed = 0;
    for (size_t i = 0; i < rep.ncmp; i++)
        regressed |= !rep.cmp[i].ab && rep.cmp[i].verdict == QQB_REGRESSED;
    for (size_t i = 0; i < rep.nmem; i++)
        regressed |= !rep.mem[i].ab && rep.mem[i].verdict > 0;
    exit_code = c.kernel_failures ? QQB_EXIT_KERNEL
                                  : regressed ? QQB_EXIT_REGRESSION : QQB_EXIT_OK;
    rep.exit_code = exit_code;

    if (o.json && qqb_report_json(o.json, &rep, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit_code = QQB_EXIT_USAGE;
    }
    if (o.junit && qqb_report_junit(o.junit, &rep, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit_code = QQB_EXIT_USAGE;
    }

    /* Baselines: never touched by a run in which a kernel failed. */
    if (c.kernel_failures) {
        if (o.update || !have_base || o.record)
            fprintf(stderr, "qqbench: a kernel failed: the baseline was not written\n");
    } else if (o.update || (!have_base && !o.baseline_from)) {
        /* The main baseline carries no label: labels name history snapshots. */
        char *label = cur.label;
        cur.label = NULL;
        /* Always this machine's own file: --baseline-from only chooses what
         * to compare against, it never writes another machine's baseline. */
        int own_exists = access(own, F_OK) == 0;
        int urc = qqb_baseline_update(own, &cur, err, sizeof err);
        cur.label = label;
        if (urc != 0) {
            fprintf(stderr, "%s\n", err);
            exit_code = QQB_EXIT_USAGE;
        } else if (!o.quiet) {
            fprintf(stderr, "qqbench: baseline %s %s\n", own_exists ? "updated:" : "recorded:",
                    own);
        }
    }
    if (o.record && !c.kernel_failures) {
        if (qqb_baseline_write(hpath, &cur, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            exit_code = QQB_EXIT_USAGE;
        } else if (!o.quiet) {
            fprintf(stderr, "qqbench: snapshot '%s' recorded: %s\n", o.record, hpath);
        }
    }

cleanup:
    if (!o.keep)
        remove_workdir(c.workdir, c.files);
    else
        fprintf(stderr, "qqbench: launch files kept in %s\n", c.workdir);
done:
    qqb_runner_untrap_signals();
    qqb_report_free(&rep);
    qqb_results_free(&cur);
    qqb_results_free(&base);
    qqb_results_free(&conf);
    qqb_suite_free(suite);
    free(o.only);
    return exit_code;
}
