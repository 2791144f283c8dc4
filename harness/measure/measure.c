/* measure.c - measure: run the plan's groups, interleaved, and turn each launch into stamped
 * samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "clock.h"
#include "nearest.h"
#include "qq_file.h"
#include "runlevel.h"
#include "runner.h"
#include "strbuf.h"
#include "strv.h"
#include "trace.h"
#include "words.h"

/* ---------------------------------------------------------------------
 * Progress on stderr: a rewritten line on a terminal, plain lines elsewhere.
 * --------------------------------------------------------------------- */

static void progress(struct qqb_measure *m, size_t j, const char *name, int rep, int reps, int warm)
{
    if (m->quiet)
        return;
    double el = qqb_now() - m->t0;
    if (m->tty) {
        char pass[32] = "";
        if (m->passes > 1)
            snprintf(pass, sizeof pass, "pass %d/%d, ", m->pass + 1, m->passes);
        fprintf(stderr, "\r\033[K%scase %zu/%zu %s, %s %d/%d, launch %zu/%zu, %.1fs", pass,
                m->case_at + j + 1, m->ncases, name, warm ? "warmup" : "rep", rep + 1, reps,
                m->done + 1, m->total, el);
        fflush(stderr);
    } else if (m->verbose) {
        fprintf(stderr, "qqbench: case %zu/%zu %s %s %d/%d (pass %d, launch %zu/%zu, %.1fs)\n",
                m->case_at + j + 1, m->ncases, name, warm ? "warmup" : "rep", rep + 1, reps,
                m->pass + 1, m->done + 1, m->total, el);
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
        fprintf(stderr, "qqbench: %s: %s (%.1fs elapsed)\n", r->name,
                QQB_COUNT(r->launches, "launch"), qqb_now() - m->t0);
}

/* A group whose comparison is still noisy gets MORE rounds after ROUNDS:
 * said with its cases named as the verdict table names them (benchmark,
 * variant, parameters, nodes), e.g. "lookup[base]@4, lookup[fast]@4". */
static void progress_noisy(const struct qqb_measure *m, const struct qqb_plan_group *gr, int rounds,
                           int more)
{
    if (m->quiet || !(m->verbose || !m->tty))
        return;
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    size_t named = 0;
    for (size_t j = 0; j < gr->n; j++) {
        const struct qqb_plan_case *pc = &m->plan->cases[gr->first + j];
        if (pc->build == QQB_BUILD_REFERENCE)
            continue;
        qqb_strbuf_printf(&b, "%s%s", named++ ? ", " : "", pc->name);
    }
    if (m->plan->against)
        qqb_strbuf_str(&b, named > 1 ? " (each also vs reference build)" : " vs reference build");
    fprintf(stderr, "qqbench: %s: still noisy after %d rounds: %d more\n",
            qqb_strbuf_failed(&b) ? "?" : qqb_strbuf_str_of(&b), rounds, more);
    qqb_strbuf_free(&b);
}

int qqb_measure_init(struct qqb_measure *m)
{
    m->t0 = qqb_now();
    size_t nb = m->plan->suite->nbench;
    m->keys_checked = calloc(nb ? nb : 1, sizeof *m->keys_checked);
    return m->keys_checked ? 0 : -1;
}

/* Forget what the first pass over a group saw of its keys. */
static void keys_pass_end(struct qqb_measure *m, size_t nkeys)
{
    for (size_t k = 0; m->keys_why && k < nkeys; k++)
        free(m->keys_why[k]);
    free(m->keys_why);
    free(m->keys_missing);
    m->keys_why = NULL;
    m->keys_missing = NULL;
    m->keys_launches = 0;
}

void qqb_measure_free(struct qqb_measure *m)
{
    free(m->keys_checked);
    m->keys_checked = NULL;
    keys_pass_end(m, 0);
}

/* The error for KEY (the K-th of the benchmark's `keys:`) missing from F:
 * where the suite wrote it, and the file's nearest key. NULL: no memory. */
static char *missing_key(const struct qqb_suite *s, const struct qqb_bench *b, size_t k,
                         const char **names, uint32_t nk)
{
    char err[1400];
    const char *near = qqb_nearest(b->keys[k], names, nk);
    int n = snprintf(err, sizeof err,
                     "%s:%d:%d: error: key '%s' of benchmark '%s' is not in the kernel's file",
                     s->path, b->keys_at ? b->keys_at[k].line : b->line,
                     b->keys_at ? b->keys_at[k].col : b->col, b->keys[k], b->name);
    size_t at = n < 0 ? 0 : (size_t)n < sizeof err ? (size_t)n : sizeof err;
    if (near) {
        snprintf(err + at, sizeof err - at, " (did you mean '%s'?)", near);
    } else if (nk) {
        /* Nothing close: the names it has, so the right one is seen. */
        for (uint32_t i = 0; i < nk && i < 12 && at < sizeof err; i++) {
            n = snprintf(err + at, sizeof err - at, "%s%s", i ? " " : " (it names: ", names[i]);
            at += n < 0 ? 0 : (size_t)n;
        }
        if (at < sizeof err)
            snprintf(err + at, sizeof err - at, "%s)", nk > 12 ? " ..." : "");
    }
    return strdup(err);
}

/* The benchmark's `keys:` against a launch's file F, during the first pass
 * over its first group: count, per key, the launches that lacked it, and
 * keep the first such launch's error. 0, or -1 out of memory. */
static int note_keys(struct qqb_measure *m, const struct qqb_bench *b, const struct qq_file *f)
{
    uint32_t nk = qq_file_nkeys(f);
    const char **names = calloc((size_t)nk + 1, sizeof *names);
    if (!names)
        return -1;
    for (uint32_t k = 0; k < nk; k++)
        names[k] = qq_file_key(f, k)->name;
    int rc = 0;
    m->keys_launches++;
    for (size_t k = 0; rc == 0 && k < b->nkeys; k++) {
        size_t j = 0;
        while (j < nk && strcmp(names[j], b->keys[k]))
            j++;
        if (j < nk)
            continue;
        m->keys_missing[k]++;
        if (!m->keys_why[k] && !(m->keys_why[k] = missing_key(m->plan->suite, b, k, names, nk)))
            rc = -1;
    }
    free(names);
    return rc;
}

/* After the first pass over the benchmark's first group: a key that no
 * launch of the change build named is a mistake in the suite (-1, ERR the
 * first such key's error); a key some variant names is kept, as a variant
 * may record keys the others do not. The reference build's launches do not
 * count: a key the change adds is not in it. */
static int keys_verdict(struct qqb_measure *m, const struct qqb_bench *b, char *err, size_t errlen)
{
    int rc = 0;
    for (size_t k = 0; m->keys_launches && k < b->nkeys; k++)
        if (m->keys_missing[k] == m->keys_launches) {
            snprintf(err, errlen, "%s", m->keys_why[k] ? m->keys_why[k] : "out of memory");
            rc = -1;
            break;
        }
    keys_pass_end(m, b->nkeys);
    return rc;
}

static void fail_case(struct qqb_case_result *r, const char *why)
{
    free(r->failure);
    r->failure = strdup(why);
    r->failures++;
}

/* One launch of plan case CI into R (samples stamped LAUNCH) or, WARM, a
 * warmup whose file must still be readable. A launch that fails fails the
 * case, and returns 0. The benchmark's first launch that completes checks
 * its `keys:` against the file: -1 with ERR when one is not there (the run
 * stops). */
static int launch_once(struct qqb_measure *m, size_t ci, size_t file, struct qqb_case_result *r,
                       int warm, uint32_t launch, char *err, size_t errlen)
{
    const struct qqb_plan_case *pc = &m->plan->cases[ci];
    const struct qqb_bench *b = &m->plan->suite->bench[pc->bench];
    char out[4200], log[4200];
    snprintf(out, sizeof out, "%s/run%zu.qq", m->workdir, file);
    snprintf(log, sizeof log, "%s/run%zu.log", m->workdir, file);
    struct qqb_launch l = {pc->argv, b->s.timeout, out, log, b->s.events, NULL};
    struct qqb_launch_result lr;
    /* The machine's speed just before the launch: the same weather. */
    double ref =
        warm ? 0 : (m->ref_ticks > 0 ? m->ref_ticks : qqb_reference_ticks()) * m->ref_scale;
    int rc = qqb_launch_run(&l, &lr), stop = 0;
    m->done++;
    if (rc == 0) {
        /* One streamed read of the file, every entry checked: a warmup's
         * figures go to a scratch case and are dropped, so a damaged file
         * is caught there too. */
        struct qq_file *f;
        struct qqb_case_result scratch;
        char why[600];
        const char *what = "damaged QQ file: ";
        memset(&scratch, 0, sizeof scratch);
        if (qq_file_open_stream(out, &f) != 0) {
            rc = -1;
            snprintf(why, sizeof why, "%s", qq_file_errmsg(f));
        } else if (qqb_ticks_judgeable(f, b->kernel, why, sizeof why) != 0) {
            rc = -1;
            what = "";
        } else {
            rc = qqb_collect(f, b->keys, b->nkeys, warm ? &scratch : r, why, sizeof why);
            if (rc == 0 && m->keys_missing && pc->build == QQB_BUILD_CHANGE &&
                note_keys(m, b, f) != 0) {
                snprintf(err, errlen, "qqbench run: error: out of memory");
                stop = 1;
            }
        }
        qq_file_close(f);
        qqb_case_result_free(&scratch);
        if (rc != 0) {
            lr.status = QQB_LAUNCH_BADFILE;
            snprintf(lr.reason, sizeof lr.reason, "%s%.480s", what, why);
        }
    }
    if (stop) {
        if (!m->keep)
            unlink(out);
        return -1;
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
    return 0;
}

/* The end of the first pass over a benchmark's first group: its keys are
 * judged, once. 0, or -1 with ERR (the run stops). */
static int first_pass_done(struct qqb_measure *m, size_t bench, const struct qqb_bench *b,
                           char *err, size_t errlen)
{
    m->keys_checked[bench] = 1;
    return keys_verdict(m, b, err, errlen);
}

double qqb_budget_factor(double left, double must, double extra)
{
    if (!(extra > 0) || must + extra <= left)
        return 1;
    return left > must ? (left - must) / extra : 0;
}

int qqb_plan_rounds(size_t want, int upto, int most)
{
    if (most < upto)
        most = upto;
    int more = want > (size_t)upto ? (int)(want < (size_t)most ? want : (size_t)most) - upto : 0;
    return more > 0 ? more : 0;
}

/* How a line names group G: its benchmark, parameters and node count, as
 * the verdict table names its cases less the variant ("msg_pack@2",
 * "km[size=200]@4"). */
static const char *group_label(const struct qqb_measure *m, size_t g, char *buf, size_t len)
{
    const struct qqb_plan_group *gr = &m->plan->groups[g];
    const struct qqb_plan_case *pc = &m->plan->cases[gr->first];
    const char *name = m->plan->suite->bench[gr->bench].name;
    if (pc->point)
        snprintf(buf, len, "%s[%s]@%d", name, pc->point, pc->nodes);
    else
        snprintf(buf, len, "%s@%d", name, pc->nodes);
    return buf;
}

/* What the measurement keeps of a group between its passes. */
struct qqb_group_state {
    size_t *order;  /* this round's order of the group's cases */
    size_t file0;   /* the group's first run<N> file */
    int upto, most; /* rounds to take, and the most --max-repetitions allows */
    int done;       /* rounds taken */
    int first;      /* rounds of its first pass: the repetitions' share */
    int passes;     /* its passes, and a second for the plan's rounds
                       where it has one pass and the plan wants more */
    double spent;   /* seconds the rounds took */
};

/*
 * The plan against a stored baseline (docs/STATISTICS.md sections 17 and
 * 18), before the first launch: the rounds each group's rows want to
 * decide at their threshold (m->planned, from the baseline's spread), up
 * to m->max_planned (else 8x the group's repetitions). The first pass
 * takes the repetitions' share, as a baseline run's did; --budget is
 * checked after it (budget_cut), and the other passes share the rest. One
 * line a group that takes more.
 */
static int plan_start(struct qqb_measure *m, struct qqb_group_state *st)
{
    size_t ng = m->plan->ngroups;
    size_t *want = calloc(ng ? ng : 1, sizeof *want);
    if (!want)
        return -1;
    m->planned(m, want);
    for (size_t g = 0; g < ng; g++) {
        const struct qqb_plan_group *gr = &m->plan->groups[g];
        int most = m->max_planned > 0 ? m->max_planned : 8 * gr->reps;
        int more = qqb_plan_rounds(want[g], gr->reps, most);
        char label[300];
        st[g].upto = gr->reps + more;
        m->total += (size_t)more * gr->n;
        if (!m->quiet && more > 0)
            fprintf(stderr,
                    "qqbench: %s: the plan wants %zu launches a case to decide at the threshold: "
                    "%d more\n",
                    group_label(m, g, label, sizeof label), want[g], more);
    }
    free(want);
    return 0;
}

/* Group G's rounds cut by --budget to KEEP, and a line says so. */
static void cut_to(struct qqb_measure *m, struct qqb_group_state *st, size_t g, int keep)
{
    char label[300];
    m->total -= (size_t)(st[g].upto - keep) * m->plan->groups[g].n;
    if (!m->quiet)
        fprintf(stderr, "qqbench: %s: the plan's rounds cut to the budget's share: %d, not %d\n",
                group_label(m, g, label, sizeof label), keep, st[g].upto);
    st[g].upto = keep;
    if (st[g].most > keep) /* --max-repetitions does not take back what the budget cut */
        st[g].most = keep;
}

/* After the first pass: when the rounds still to take, at what each
 * group's rounds cost so far, do not fit in what is left of --budget, the
 * plan's rounds beyond each group's repetitions shrink alike, and a line
 * names each group cut. */
static void budget_cut(struct qqb_measure *m, struct qqb_group_state *st)
{
    const struct qqb_plan *p = m->plan;
    if (!(m->budget > 0))
        return;
    /* After the first pass a group has taken at most its repetitions
     * (their share, or all of them with one pass): what it must still
     * take is the rest of them, the plan's are the rounds beyond. */
    double left = m->budget - (qqb_now() - m->t0), must = 0, extra = 0;
    for (size_t g = 0; g < p->ngroups; g++) {
        double per = st[g].done > 0 ? st[g].spent / st[g].done : 0;
        int reps = p->groups[g].reps;
        must += (reps - st[g].done) * per;
        extra += (st[g].upto > reps ? st[g].upto - reps : 0) * per;
    }
    double f = qqb_budget_factor(left, must, extra);
    if (!(f < 1))
        return;
    for (size_t g = 0; g < p->ngroups; g++) {
        int reps = p->groups[g].reps;
        if (st[g].upto > reps)
            cut_to(m, st, g, reps + (int)floor((st[g].upto - reps) * f));
    }
}

#define CASE(j) into->cases[gr->first + (j)]

int qqb_measure_case_named(struct qqb_case_result *r, const struct qqb_plan *p, size_t ci)
{
    const struct qqb_plan_case *pc = &p->cases[ci];
    const struct qqb_bench *b = &p->suite->bench[pc->bench];
    r->nodes = pc->nodes;
    if ((!r->bench && !(r->bench = strdup(b->name))) ||
        (!r->variant && pc->variant >= 0 &&
         !(r->variant = strdup(b->variants[pc->variant].name))) ||
        (!r->point && pc->point && !(r->point = strdup(pc->point))) ||
        (!r->command && qqb_strv_dup(pc->command, &r->command) != 0))
        return -1;
    return 0;
}

/* A group's first pass begins: its cases named, a reference build without
 * the kernel failing its cases at once (the change build's still run),
 * the benchmark's `keys:` pass opened, and the warmups. 0, or -1 with ERR. */
static int group_begin(struct qqb_measure *m, size_t g, struct qqb_results *into,
                       struct qqb_group_state *st, char *err, size_t errlen)
{
    const struct qqb_plan_group *gr = &m->plan->groups[g];
    const struct qqb_bench *b = &m->plan->suite->bench[gr->bench];
    size_t nv = gr->n;
    /* Each case has its own launch files, so --keep keeps one log per case
     * (the last launch's). */
    st->file0 = m->files;
    m->files += nv;
    for (size_t j = 0; j < nv; j++) {
        if (qqb_measure_case_named(CASE(j), m->plan, gr->first + j) != 0) {
            snprintf(err, errlen, "qqbench run: error: out of memory");
            return -1;
        }
    }
    for (size_t j = 0; j < nv; j++) {
        char why[600];
        if (!CASE(j)->failures &&
            qqb_plan_reference_missing(m->plan, gr->first + j, why, sizeof why))
            fail_case(CASE(j), why);
    }
    /* The benchmark's `keys:` are checked against the files of the first
     * pass over its first group (the first warmup, else the first round):
     * a misspelt key stops the run there, not after every launch. */
    if (!m->keys_checked[gr->bench] && b->nkeys) { /* keys_missing: the pass is on */
        m->keys_missing = calloc(b->nkeys, sizeof *m->keys_missing);
        m->keys_why = calloc(b->nkeys, sizeof *m->keys_why);
        m->keys_launches = 0;
        if (!m->keys_missing || !m->keys_why) {
            keys_pass_end(m, b->nkeys);
            snprintf(err, errlen, "qqbench run: error: out of memory");
            return -1;
        }
    }
    m->case_at = gr->first;
    for (int w = 0; w < gr->warmup; w++) {
        for (size_t j = 0; j < nv; j++) {
            if (CASE(j)->failures)
                continue;
            progress(m, j, CASE(j)->name, w, gr->warmup, 1);
            if (launch_once(m, gr->first + j, st->file0 + j, CASE(j), 1, 0, err, errlen) != 0)
                return -1;
        }
        if (m->keys_missing && first_pass_done(m, gr->bench, b, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Rounds FROM..TO-1 of group G, in qqb_round_order. 0, or -1 with ERR
 * (the run stops). */
static int rounds(struct qqb_measure *m, size_t g, struct qqb_results *into,
                  struct qqb_group_state *st, int from, int to, char *err, size_t errlen)
{
    const struct qqb_plan_group *gr = &m->plan->groups[g];
    const struct qqb_bench *b = &m->plan->suite->bench[gr->bench];
    size_t nv = gr->n;
    m->case_at = gr->first;
    double t0 = qqb_now();
    for (int rep = from; rep < to; rep++) {
        qqb_round_order(nv, (size_t)rep, m->seed ^ (uint64_t)g, st->order);
        for (size_t i = 0; i < nv; i++) {
            size_t j = st->order[i];
            if (CASE(j)->failures)
                continue;
            progress(m, j, CASE(j)->name, rep, st->upto, 0);
            if (launch_once(m, gr->first + j, st->file0 + j, CASE(j), 0, (uint32_t)rep, err,
                            errlen) != 0)
                return -1;
        }
        st->done = rep + 1;
        if (m->keys_missing && first_pass_done(m, gr->bench, b, err, errlen) != 0)
            return -1;
    }
    st->spent += qqb_now() - t0;
    return 0;
}

/* After every group's last pass, while a comparison against a reference
 * variant or build is still noisy in the judgement of the whole suite (one
 * question to stop and to judge: Holm over the family, each row at its
 * look's level; docs/STATISTICS.md section 17), the groups that hold one
 * take more rounds (as many again each time), up to the most
 * --max-repetitions allows (held at --budget's cut). Sweeps over the
 * groups until none takes more: a row whose Holm level moved because
 * another group's rows moved is asked again. 0, or -1 with ERR. */
static int extend(struct qqb_measure *m, struct qqb_results *into, struct qqb_group_state *st,
                  char *err, size_t errlen)
{
    const struct qqb_plan *p = m->plan;
    int rc = 0, more_taken = 1;
    while (rc == 0 && more_taken && m->undecided) {
        more_taken = 0;
        for (size_t g = 0; rc == 0 && g < p->ngroups; g++) {
            const struct qqb_plan_group *gr = &p->groups[g];
            if (st[g].upto >= st[g].most || gr->n < 2 || !m->undecided(m, g, into))
                continue;
            int more = st[g].upto + gr->reps > st[g].most ? st[g].most - st[g].upto : gr->reps;
            progress_noisy(m, gr, st[g].upto, more);
            st[g].upto += more;
            m->total += (size_t)more * gr->n;
            rc = rounds(m, g, into, &st[g], st[g].upto - more, st[g].upto, err, errlen);
            more_taken = 1;
        }
    }
    return rc;
}

/* A group's last pass is over: its cases said done, failures counted. */
static void group_end(struct qqb_measure *m, size_t g, struct qqb_results *into)
{
    const struct qqb_plan_group *gr = &m->plan->groups[g];
    for (size_t j = 0; j < gr->n; j++) {
        progress_case_done(m, CASE(j));
        if (CASE(j)->failures)
            m->kernel_failures++;
    }
}

#undef CASE

static void states_free(struct qqb_group_state *st, size_t n)
{
    for (size_t g = 0; st && g < n; g++)
        free(st[g].order);
    free(st);
}

int qqb_measure_all(struct qqb_measure *m, struct qqb_results *into, char *err, size_t errlen)
{
    const struct qqb_plan *p = m->plan;
    m->ncases = p->ncases;
    m->total = p->launches;
    struct qqb_group_state *st = calloc(p->ngroups ? p->ngroups : 1, sizeof *st);
    int most = 1, rc = 0;
    for (size_t g = 0; st && g < p->ngroups; g++) {
        st[g].order = calloc(p->groups[g].n ? p->groups[g].n : 1, sizeof *st[g].order);
        if (!st[g].order) {
            states_free(st, g);
            st = NULL;
        }
    }
    if (!st || (m->planned && plan_start(m, st) != 0)) {
        states_free(st, st ? p->ngroups : 0);
        snprintf(err, errlen, "qqbench run: error: out of memory");
        return -1;
    }
    /* Pass by pass over the whole suite: each group takes its share of
     * its rounds in every pass, so a case's launches are spread over the
     * run, not bunched in one stretch of the machine's weather
     * (docs/STATISTICS.md section 18). The first pass takes the
     * repetitions' share; --budget is checked after it; the plan's rounds
     * are shared by the others (a group of one pass takes them in a
     * second). */
    for (size_t g = 0; g < p->ngroups; g++) {
        int np = qqb_plan_group_passes(p, g), reps = p->groups[g].reps;
        if (st[g].upto < reps) /* the plan may have set more */
            st[g].upto = reps;
        st[g].most = m->max_reps > reps ? m->max_reps : reps;
        st[g].first = reps / np;
        st[g].passes = np == 1 && st[g].upto > reps ? 2 : np;
        if (st[g].passes > most)
            most = st[g].passes;
    }
    m->passes = most;
    for (int pass = 0; rc == 0 && pass < most; pass++) {
        m->pass = pass;
        for (size_t g = 0; rc == 0 && g < p->ngroups; g++) {
            const struct qqb_plan_group *gr = &p->groups[g];
            int np = st[g].passes, from, to;
            if (pass >= np)
                continue;
            if (pass == 0)
                rc = group_begin(m, g, into, &st[g], err, errlen);
            if (rc == 0 && qqb_pass_rounds(st[g].first, st[g].upto, np, pass, &from, &to) != 0) {
                snprintf(err, errlen, "qqbench run: error: the passes of group %zu", g);
                rc = -1;
            }
            if (rc == 0)
                rc = rounds(m, g, into, &st[g], from, to, err, errlen);
            if (rc != 0 && m->keys_missing)
                keys_pass_end(m, p->suite->bench[gr->bench].nkeys);
        }
        if (pass == 0 && rc == 0)
            budget_cut(m, st);
    }
    if (rc == 0)
        rc = extend(m, into, st, err, errlen);
    for (size_t g = 0; rc == 0 && g < p->ngroups; g++)
        group_end(m, g, into);
    if (rc != 0 && m->tty && !m->quiet)
        fprintf(stderr, "\r\033[K");
    states_free(st, p->ngroups);
    return rc;
}
