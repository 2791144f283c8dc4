/* measure.c - measure: run the plan's groups, interleaved, and turn each launch into stamped
 * samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "clock.h"
#include "nearest.h"
#include "qq_file.h"
#include "runner.h"
#include "trace.h"

/* ---------------------------------------------------------------------
 * Progress on stderr: a rewritten line on a terminal, plain lines elsewhere.
 * --------------------------------------------------------------------- */

static void progress(struct qqb_measure *m, size_t j, const char *name, int rep, int reps, int warm)
{
    if (m->quiet)
        return;
    double el = qqb_now() - m->t0;
    if (m->tty) {
        fprintf(stderr, "\r\033[Kcase %zu/%zu %s, %s %d/%d, launch %zu/%zu, %.1fs",
                m->case_at + j + 1, m->ncases, name, warm ? "warmup" : "rep", rep + 1, reps,
                m->done + 1, m->total, el);
        fflush(stderr);
    } else if (m->verbose) {
        fprintf(stderr, "qqbench: case %zu/%zu %s %s %d/%d (launch %zu/%zu, %.1fs)\n",
                m->case_at + j + 1, m->ncases, name, warm ? "warmup" : "rep", rep + 1, reps,
                m->done + 1, m->total, el);
    }
}

static void progress_case_done(struct qqb_measure *m, const struct qqb_case_result *r)
{
    if (m->quiet)
        return;
    if (m->tty)
        fprintf(stderr, "\r\033[K");
    if (r->failures)
        fprintf(stderr, "qqbench: %s: FAILED: %s\n", r->name, r->failure ? r->failure : "?");
    else if (!m->tty || m->verbose)
        fprintf(stderr, "qqbench: %s: %zu launches (%.1fs elapsed)\n", r->name, r->launches,
                qqb_now() - m->t0);
}

int qqb_measure_init(struct qqb_measure *m)
{
    m->t0 = qqb_now();
    m->recorded = calloc(m->plan->ncases ? m->plan->ncases : 1, sizeof *m->recorded);
    return m->recorded ? 0 : -1;
}

void qqb_measure_free(struct qqb_measure *m)
{
    for (size_t i = 0; m->recorded && i < m->plan->ncases; i++)
        qqb_argv_free(m->recorded[i]);
    free(m->recorded);
    m->recorded = NULL;
}

/* The keys a kernel's file names, once per case (for checking `keys:`). */
static void note_keys(struct qqb_measure *m, size_t ci, const struct qq_file *f)
{
    if (m->recorded[ci])
        return;
    uint32_t nk = qq_file_nkeys(f);
    char **v = calloc((size_t)nk + 1, sizeof *v);
    if (!v)
        return;
    for (uint32_t k = 0; k < nk; k++)
        if (!(v[k] = strdup(qq_file_key(f, k)->name))) {
            qqb_argv_free(v);
            return;
        }
    m->recorded[ci] = v;
}

static void fail_case(struct qqb_case_result *r, const char *why)
{
    free(r->failure);
    r->failure = strdup(why);
    r->failures++;
}

/* One launch of plan case CI into R (samples stamped LAUNCH) or, WARM, a
 * warmup whose file must still be readable. */
static int launch_once(struct qqb_measure *m, size_t ci, size_t file, struct qqb_case_result *r,
                       int warm, uint32_t launch)
{
    const struct qqb_plan_case *pc = &m->plan->cases[ci];
    const struct qqb_bench *b = &m->plan->suite->bench[pc->bench];
    char out[4200], log[4200];
    snprintf(out, sizeof out, "%s/run%zu.qq", m->workdir, file);
    snprintf(log, sizeof log, "%s/run%zu.log", m->workdir, file);
    struct qqb_launch l = {pc->argv, b->s.timeout, out, log, b->s.events};
    struct qqb_launch_result lr;
    /* The machine's speed just before the launch: the same weather. */
    double ref = warm ? 0 : qqb_reference_ticks() * m->ref_scale;
    int rc = qqb_launch_run(&l, &lr);
    m->done++;
    if (rc == 0) {
        /* One streamed read of the file, every entry checked: a warmup's
         * figures go to a scratch case and are dropped, so a damaged file
         * is caught there too. */
        struct qq_file *f;
        struct qqb_case_result scratch;
        char err[600];
        const char *what = "damaged QQ file: ";
        memset(&scratch, 0, sizeof scratch);
        if (qq_file_open_stream(out, &f) != 0) {
            rc = -1;
            snprintf(err, sizeof err, "%s", qq_file_errmsg(f));
        } else if (qqb_ticks_judgeable(f, b->kernel, err, sizeof err) != 0) {
            rc = -1;
            what = "";
        } else {
            note_keys(m, ci, f);
            rc = qqb_collect(f, b->keys, b->nkeys, warm ? &scratch : r, err, sizeof err);
        }
        qq_file_close(f);
        qqb_case_result_free(&scratch);
        if (rc != 0) {
            lr.status = QQB_LAUNCH_BADFILE;
            snprintf(lr.reason, sizeof lr.reason, "%s%.480s", what, err);
        }
    }
    if (rc == 0 && !warm) {
        struct qqb_metric *mt = qqb_case_metric(r, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
        if (!mt || qqb_metric_add(mt, ref) != 0 || qqb_case_stamp(r, 0, launch) != 0) {
            rc = -1;
            snprintf(lr.reason, sizeof lr.reason, "out of memory");
        } else {
            r->launches++;
        }
    }
    if (rc != 0) {
        fail_case(r, lr.reason);
        if (m->keep || m->verbose)
            fprintf(stderr, "qqbench: %s: launch log kept in %s\n", pc->name, log);
    }
    if (!m->keep)
        unlink(out);
    return rc;
}

int qqb_measure_group(struct qqb_measure *m, size_t g, struct qqb_results *into)
{
    const struct qqb_plan_group *gr = &m->plan->groups[g];
    const struct qqb_suite *s = m->plan->suite;
    const struct qqb_bench *b = &s->bench[gr->bench];
    size_t nv = gr->n;
    size_t *order = calloc(nv, sizeof *order);
    if (!order)
        return -1;
    /* Each case has its own launch files, so --keep keeps one log per case
     * (the last launch's), confirmations included. */
    size_t file0 = m->files;
    m->files += nv;
    for (size_t j = 0; j < nv; j++) {
        const struct qqb_plan_case *pc = &m->plan->cases[gr->first + j];
        struct qqb_case_result *r = into->cases[gr->first + j];
        r->nodes = pc->nodes;
        if ((!r->bench && !(r->bench = strdup(b->name))) ||
            (!r->variant && pc->variant >= 0 &&
             !(r->variant = strdup(b->variants[pc->variant].name))) ||
            (!r->point && pc->point && !(r->point = strdup(pc->point))) ||
            (!r->command && qqb_strv_dup(pc->command, &r->command) != 0)) {
            free(order);
            return -1;
        }
    }
#define CASE(j) into->cases[gr->first + (j)]
    /* A reference build without the kernel fails its cases at once, with
     * the reason; the change build's cases still run. */
    for (size_t j = 0; j < nv; j++) {
        char why[600];
        if (!CASE(j)->failures &&
            qqb_plan_reference_missing(m->plan, gr->first + j, why, sizeof why))
            fail_case(CASE(j), why);
    }
    for (int w = 0; w < gr->warmup; w++)
        for (size_t j = 0; j < nv; j++) {
            if (CASE(j)->failures)
                continue;
            progress(m, j, CASE(j)->name, w, gr->warmup, 1);
            launch_once(m, gr->first + j, file0 + j, CASE(j), 1, 0);
        }
    /* --max-repetitions: while an A/B comparison is still noisy, measure
     * more rounds (as many again each time) up to the maximum. */
    int upto = gr->reps, most = m->max_reps > gr->reps ? m->max_reps : gr->reps;
    for (int rep = 0; rep < upto; rep++) {
        qqb_round_order(nv, (size_t)rep, m->seed ^ (uint64_t)g, order);
        for (size_t i = 0; i < nv; i++) {
            size_t j = order[i];
            if (CASE(j)->failures)
                continue;
            progress(m, j, CASE(j)->name, rep, upto, 0);
            launch_once(m, gr->first + j, file0 + j, CASE(j), 0, (uint32_t)rep);
        }
        if (rep + 1 == upto && upto < most && nv > 1 && m->undecided &&
            m->undecided(m->ctx, g, into)) {
            int more = upto + gr->reps > most ? most - upto : gr->reps;
            upto += more;
            m->total += (size_t)more * nv;
            if (!m->quiet && (m->verbose || !m->tty))
                fprintf(stderr,
                        "qqbench: %s: A/B still noisy after %d rounds: "
                        "%d more\n",
                        b->name, rep + 1, more);
        }
    }
    for (size_t j = 0; j < nv; j++) {
        progress_case_done(m, CASE(j));
        if (CASE(j)->failures)
            m->kernel_failures++;
    }
#undef CASE
    m->case_at += nv;
    free(order);
    return 0;
}

int qqb_measure_all(struct qqb_measure *m, struct qqb_results *into)
{
    m->ncases = m->plan->ncases;
    m->total = m->plan->launches;
    for (size_t g = 0; g < m->plan->ngroups; g++)
        if (qqb_measure_group(m, g, into) != 0)
            return -1;
    return 0;
}

size_t qqb_measure_check_keys(const struct qqb_measure *m, const struct qqb_results *r, FILE *fp)
{
    const struct qqb_plan *p = m->plan;
    const struct qqb_suite *s = p->suite;
    size_t errors = 0;
    (void)r;
    for (size_t bi = 0; bi < s->nbench; bi++) {
        const struct qqb_bench *b = &s->bench[bi];
        if (b->nkeys == 0)
            continue;
        /* Every key any case of the bench recorded. */
        const char **seen = NULL;
        size_t nseen = 0, ran = 0;
        for (size_t ci = 0; ci < p->ncases; ci++) {
            if (p->cases[ci].bench != bi || !m->recorded[ci])
                continue;
            ran++;
            for (size_t k = 0; m->recorded[ci][k]; k++) {
                size_t j = 0;
                while (j < nseen && strcmp(seen[j], m->recorded[ci][k]))
                    j++;
                if (j < nseen)
                    continue;
                const char **v = realloc(seen, (nseen + 1) * sizeof *v);
                if (!v)
                    break;
                seen = v;
                seen[nseen++] = m->recorded[ci][k];
            }
        }
        for (size_t k = 0; ran && k < b->nkeys; k++) {
            size_t j = 0;
            while (j < nseen && strcmp(seen[j], b->keys[k]))
                j++;
            if (j < nseen)
                continue;
            const char *near = qqb_nearest(b->keys[k], seen, nseen);
            fprintf(fp,
                    "%s:%d:%d: error: key '%s' in 'keys' of benchmark '%s' was "
                    "recorded by none of its launches%s%s%s\n",
                    s->path, b->keys_line ? b->keys_line : b->line,
                    b->keys_col ? b->keys_col : b->col, b->keys[k], b->name,
                    near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
            if (!near && nseen) {
                fprintf(fp, "%s: note: its launches recorded:", s->path);
                for (size_t i = 0; i < nseen && i < 12; i++)
                    fprintf(fp, " %s", seen[i]);
                fprintf(fp, "%s\n", nseen > 12 ? " ..." : "");
            }
            errors++;
        }
        free(seen);
    }
    return errors;
}
