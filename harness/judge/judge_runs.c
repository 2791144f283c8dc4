/* judge_runs.c - baseline rows judged by runs (docs/STATISTICS.md section 17): the current run's
 * figure against the stored runs' figures, their variance shrunk across the suite's keys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "judge.h"
#include "judge_runs.h"
#include "match.h"
#include "runlevel.h"
#include "words.h"

/* The largest number of launches or baseline runs a blind or noisy row's
 * note names; beyond it the note names --against. */
#define RUNS_MAX_LAUNCHES 1000
#define RUNS_MAX_RUNS     50

/* The figure per machine reference is taken for a group only where its
 * baseline's runs spread clearly less so (section 19): their variance
 * ratio, per reference over as measured, below this. */
#define QQB_REF_GAIN        0.5
/* The confidence of the machine reference's own prediction bound: beyond
 * it in this run, the machine moved (section 19, "Guards"). */
#define QQB_REF_MOVED_LEVEL 0.99

/* The standard error at which a row with no change reads unchanged at
 * THRESHOLD (percent) nine times in ten: its interval's half-width q se
 * plus 1.28 se (the 90% quantile of the estimate) within the threshold. */
static double target_se(double threshold_pct, double q)
{
    return log1p(threshold_pct / 100.0) / (q + 1.2816);
}

/* The run stamps of M (NULL on out of memory). */
static uint32_t *stamps_of(const struct qqb_metric *m)
{
    uint32_t *r = malloc((m->n ? m->n : 1) * sizeof *r);
    for (size_t i = 0; r && i < m->n; i++) {
        uint32_t l;
        qqb__stamp_of(m, i, &r[i], &l);
    }
    return r;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int qqb_judge_run_count(const struct qqb_metric *bm, size_t *nruns)
{
    *nruns = 0;
    for (size_t i = 0; i < bm->n; i++)
        if (!(bm->samples[i] > 0) || !isfinite(bm->samples[i]))
            return -1;
    uint32_t *runs = stamps_of(bm);
    if (!runs)
        return -1;
    qsort(runs, bm->n, sizeof *runs, cmp_u32);
    for (size_t i = 0; i < bm->n; i++)
        *nruns += i == 0 || runs[i] != runs[i - 1];
    free(runs);
    return 0;
}

int qqb_judge_runs_of(const struct qqb_metric *bm, int passes, int reps, struct qqb_baseruns *out)
{
    uint32_t *runs = stamps_of(bm);
    if (!runs)
        return -1;
    int rc = qqb_baseruns_of(bm->samples, runs, bm->n, passes, reps, out);
    free(runs);
    return rc;
}

/* The threshold of a baseline row: the benchmark's own, the minimum effect
 * of interest; neither launch noise nor run-to-run noise grows it (the
 * latter is in the test). noise_multiple times the baseline's launch noise,
 * held at the bound, is the change the noise hides (hide_pct) where it is
 * above the threshold: an undecided interval within it is blind. */
static void runs_threshold(struct qqb_cmp *row, const struct qqb_settings *s, double within_pct)
{
    double fixed = s->threshold > 0 ? s->threshold : 0;
    double noise =
        s->noise_multiple > 0 && isfinite(within_pct) ? s->noise_multiple * within_pct : 0;
    double cap = s->threshold_bound > 0 ? s->threshold_bound : QQB_THRESHOLD_BOUND;
    double bound = fixed > cap ? fixed : cap;
    row->noise_pct = within_pct;
    row->suite_threshold = fixed;
    row->threshold = fixed;
    row->threshold_from = QQB_THR_FIXED;
    row->hide_pct = noise > fixed ? (noise > bound ? bound : noise) : 0;
}

/* Fill ROW->ch from the test T at LEVEL: the interval, the estimate, the
 * sides' medians, and "ci_ok" (the t interval exists at any level). */
static void fill_change(struct qqb_cmp *row, const struct qqb_runtest *t, double level, size_t nb,
                        size_t nc)
{
    struct qqb_change *ch = &row->ch;
    memset(ch, 0, sizeof *ch);
    ch->status = QQB_CHANGE_OK;
    ch->reason = "";
    ch->nb = nb;
    ch->nc = nc;
    ch->confidence = ch->achieved = level;
    ch->ci_ok = 1;
    ch->pct = t->pct;
    qqb_runtest_interval(t, level, &ch->lo, &ch->hi);
    ch->median_base = row->base_median;
    ch->median_cur = row->cur_median;
    ch->ratio_pct = 100.0 * (row->cur_median / row->base_median - 1.0);
    ch->spread = 1;
    row->level = level;
}

/* What would see a row at the benchmark's threshold T_S, into W: more
 * launches of this run (the launch part of se shrinks as 1/n), else more
 * baseline runs (the baseline's mean sharpens as 1/R), else --against (the
 * run shift itself is beyond what any number of runs averages away). */
static void seen(struct qqb_cmp *row, const struct qqb_runtest *t, double var, double t_s, double q,
                 double sd, char *w, size_t len)
{
    double want = target_se(t_s, q);
    size_t n = qqb_runtest_launches(t, sd, want, RUNS_MAX_LAUNCHES);
    size_t r = n ? 0 : qqb_runtest_runs(t, var, want, RUNS_MAX_RUNS);
    row->need_launches = n;
    row->need_runs = r;
    if (n) {
        row->seen_by = "more launches";
        snprintf(w, len, "about %zu launches would see %.1f%%", n, t_s);
    } else if (r) {
        row->seen_by = "more baseline runs";
        snprintf(w, len, "about %zu baseline runs would see %.1f%%", r, t_s);
    } else {
        row->seen_by = "--against";
        snprintf(w, len,
                 "no number of runs would see %.1f%% (run shifts %.1f%%): --against (qqbench ci) "
                 "or a pinned machine",
                 t_s, 100.0 * (exp(sqrt(t->tau2)) - 1.0));
    }
}

/*
 * One baseline row by runs (section 17). With the interval [lo, hi] of the
 * test at the benchmark's confidence and t the benchmark's threshold (t_s,
 * the same: noise never grows it), in this order:
 *   blind, not judged   the interval's floor (infinitely many launches)
 *                       is wider than the bound, and the interval (which
 *                       holds the runs' spread) is not beyond +/-t;
 *   regressed/improved  beyond +/-t (symmetric), however noisy the key;
 *   unchanged           within +/-t;
 *   blind               across +/-t and within +/-hide_pct (the change the
 *                       key's noise hides, qqb_verdict_hidden); or not
 *                       decided while no number of launches brings se
 *                       under the plan's target at t;
 *   noisy               otherwise: the plan wanted more launches than it got.
 */
int qqb_judge_run_row(const struct qqb_settings *s, size_t nb, const double *cur, size_t nc,
                      const struct qqb_baseruns *b, const struct qqb_baseruns *shown, double var,
                      double df, int passes, int reps, struct qqb_cmp *row)
{
    struct qqb_runtest t;
    runs_threshold(row, s, isfinite(shown->within_sd) ? 100.0 * shown->within_sd : NAN);
    row->base_median = exp(shown->mean);
    row->cur_median = nc ? qqb_median(cur, nc) : NAN;
    row->run_pct = isfinite(b->s2) ? 100.0 * (exp(sqrt(b->s2)) - 1.0) : NAN;
    row->run_var = var;
    row->run_df = df;
    if (qqb_runtest(b, var, df, cur, nc, passes, reps, &t) != 0) {
        memset(&row->ch, 0, sizeof row->ch);
        row->ch.status = QQB_CHANGE_BAD_VALUE;
        row->ch.reason = "a figure is not a positive number";
        row->verdict = row->alone = QQB_NOISY;
        row->p_value = 1;
        return 0;
    }
    row->cur_median = exp(shown->mean + t.est); /* this run's figure, as the runs' */
    double level = s->confidence, q = gsl_cdf_tdist_Pinv((1.0 + level) / 2.0, df);
    fill_change(row, &t, level, nb, nc);
    row->se_log = t.se;
    row->se_df = df;
    row->run_bound_pct = 100.0 * (exp(q * t.floor_se) - 1.0);
    double up, down;
    qqb_runtest_p(&t, row->threshold, &up, &down);
    row->p_value = 2.0 * (up < down ? up : down);
    if (row->p_value > 1)
        row->p_value = 1;
    double cap = s->threshold_bound > 0 ? s->threshold_bound : QQB_THRESHOLD_BOUND;
    double bound = row->suite_threshold > cap ? row->suite_threshold : cap;
    /* The launch noise the plan assumes: the baseline's, from all its
     * runs' launches, where it has it (the plan is made before this run's
     * launches, qqb_judge_plan_start); else this run's. */
    double sd = isfinite(b->within_sd) ? b->within_sd
                : nc >= 2              ? sqrt(t.wc * (double)nc / 1.5707963267948966)
                                       : NAN;
    int k = 0;
    /* The plan: the launches at which a row with no change reads unchanged
     * nine times in ten. From the spread alone, never the estimate, so
     * taking them does not spend the test's level (qqb_judge_plan_start). */
    row->plan_launches =
        qqb_runtest_launches(&t, sd, target_se(row->suite_threshold, q), RUNS_MAX_LAUNCHES);
    row->verdict = qqb_verdict_sym(&row->ch, row->threshold);
    if (row->run_bound_pct > bound && row->verdict != QQB_REGRESSED &&
        row->verdict != QQB_IMPROVED) {
        k = snprintf(row->why, sizeof row->why, "runs move +/-%.1f%%: not judged; ",
                     row->run_bound_pct);
        row->verdict = QQB_BLIND;
        row->not_judged = 1;
    } else if (qqb_verdict_hidden(&row->ch, row->threshold, row->hide_pct) == QQB_BLIND) {
        k = snprintf(row->why, sizeof row->why, "within +/-%.1f%%: this key's noise hides less; ",
                     row->hide_pct);
        row->verdict = QQB_BLIND;
    } else if (row->verdict == QQB_NOISY && !(t.floor_se < target_se(row->suite_threshold, q))) {
        /* The plan cannot reach a decision at t_s with any launches. */
        k = snprintf(row->why, sizeof row->why, "within +/-%.1f%% at best: ", row->run_bound_pct);
        row->verdict = QQB_BLIND;
    }
    if (row->verdict == QQB_BLIND && k > 0 && (size_t)k < sizeof row->why)
        seen(row, &t, var, row->suite_threshold, q, sd, row->why + k, sizeof row->why - (size_t)k);
    else if (row->verdict == QQB_NOISY) /* what the plan wanted: more than it got */
        row->need_launches = row->plan_launches;
    row->alone = row->verdict;
    return 0;
}

int qqb_per_reference(const struct qqb_metric *m, const struct qqb_metric *ref, double **x,
                      uint32_t **run, size_t *n)
{
    *n = 0;
    *x = malloc((m->n ? m->n : 1) * sizeof **x);
    if (run)
        *run = malloc((m->n ? m->n : 1) * sizeof **run);
    if (!*x || (run && !*run)) {
        free(*x);
        *x = NULL;
        if (run) {
            free(*run);
            *run = NULL;
        }
        return -1;
    }
    for (size_t i = 0; i < m->n; i++) {
        uint32_t r, launch;
        qqb__stamp_of(m, i, &r, &launch);
        long k = ref ? qqb_metric_at(ref, r, launch) : -1;
        if (k >= 0 && ref->samples[k] > 0 && isfinite(ref->samples[k])) {
            if (run)
                (*run)[*n] = r;
            (*x)[(*n)++] = m->samples[i] / ref->samples[k];
        }
    }
    return 0;
}

/*
 * Against a stored baseline there are no pairs: the baseline was measured
 * minutes or months ago, and this machine's speed moves in steps that last
 * seconds. So a regressed or improved verdict must also hold for the
 * samples divided by the machine reference measured just before each
 * launch (matched by launch, not by position); when it does not, the
 * machine moved, not the code: noisy. When the check cannot be made, the
 * row says so.
 */
void qqb_machine_check(struct qqb_cmp *row, const struct qqb_metric *bm,
                       const struct qqb_metric *cm, const struct qqb_metric *bref,
                       const struct qqb_metric *cref)
{
    row->machine_pct = row->norm_pct = NAN;
    row->machine_why = NULL;
    if (bref && cref && bref->n >= 1 && cref->n >= 1)
        row->machine_pct =
            100.0 * (qqb_median(cref->samples, cref->n) / qqb_median(bref->samples, bref->n) - 1.0);
    if (row->by_reference) { /* the figure is per reference already */
        row->machine = QQB_MC_IN_FIGURE;
        row->norm_pct = row->ch.pct;
        return;
    }
    if (row->verdict != QQB_REGRESSED && row->verdict != QQB_IMPROVED) {
        row->machine = QQB_MC_NOT_NEEDED;
        if (row->ref_guard == QQB_RG_MOVED)
            row->machine_why = "the machine moved: its reference beyond its baseline runs' "
                               "bound, the row judged as measured";
        return;
    }
    row->machine = QQB_MC_SKIPPED;
    if (!bref) {
        row->machine_why = "the baseline has no machine reference (@machine)";
        return;
    }
    if (!cref) {
        row->machine_why = "this run has no machine reference";
        return;
    }
    size_t nb = 0, nc = 0;
    double *vb = NULL, *vc = NULL;
    if (qqb_per_reference(bm, bref, &vb, NULL, &nb) != 0 ||
        qqb_per_reference(cm, cref, &vc, NULL, &nc) != 0) {
        row->machine_why = "out of memory";
    } else if (nb < QQB_MIN_REPS || nc < QQB_MIN_REPS) {
        row->machine_why = "fewer than 2 launches have both the key and a machine "
                           "reference";
    } else {
        struct qqb_change ch;
        if (qqb_change(vb, nb, vc, nc, row->level, 1, &ch) == 0) {
            row->norm_pct = ch.pct;
            if (qqb_verdict_sym(&ch, row->threshold) == row->verdict) {
                row->machine = QQB_MC_HELD;
            } else {
                row->machine = QQB_MC_MOVED;
                row->verdict = QQB_NOISY;
            }
        } else {
            row->machine_why = ch.reason;
        }
    }
    free(vb);
    free(vc);
}

/* One baseline row's two figures: its runs as measured, and per machine
 * reference where every launch of both runs has one (has_ref), with this
 * run's launches so (cx); use_ref: judged per reference; moved: its
 * case's reference moved beyond its baseline runs' bound (move its change,
 * log); meas: this run's change as measured (log, NaN: none). */
struct runrow {
    struct qqb_baseruns raw, ref;
    int has_raw, has_ref, use_ref, moved;
    double move, meas;
    double *cx;
    size_t ncx;
    double *fig; /* the baseline runs' figures as measured, by run stamp (NULL: none) */
    size_t nfig;
};

/* The most run stamps a row's figures are kept for (the common gate's, section 20); a
 * baseline stamped beyond it has no common test. */
#define RUNS_MAX_STAMPS 1024

/* The baseline runs' figures of BM by run stamp into RR (fig, nfig). 0 or -1. */
static int row_figures(const struct qqb_metric *bm, int passes, int reps, struct runrow *rr)
{
    uint32_t *runs = stamps_of(bm), most = 0;
    if (!runs)
        return -1;
    for (size_t i = 0; i < bm->n; i++)
        most = runs[i] > most ? runs[i] : most;
    int rc = 0;
    if (most < RUNS_MAX_STAMPS) {
        rr->nfig = (size_t)most + 1;
        rr->fig = malloc(rr->nfig * sizeof *rr->fig);
        rc = rr->fig ? qqb_run_figures(bm->samples, runs, bm->n, passes, reps, rr->fig, rr->nfig)
                     : -1;
    }
    free(runs);
    return rc;
}

/* Row ROW's runs into RR: as measured, then per reference. 0 or -1. */
static int row_runs(const struct qqb_plan *p, const struct qqb_results *cur,
                    const struct qqb_results *base, const struct qqb_cmp *row, struct runrow *rr)
{
    const struct qqb_case_result *bc = base->cases[row->base_idx], *c = cur->cases[row->case_idx];
    const struct qqb_metric *bm = &bc->metrics[row->base_metric], *cm = &c->metrics[row->metric];
    size_t g = p->cases[row->case_idx].group;
    int passes = qqb_plan_group_passes(p, g), reps = p->groups[g].reps;
    rr->has_raw = qqb_judge_runs_of(bm, passes, reps, &rr->raw) == 0 && rr->raw.nruns >= 2;
    if (!rr->has_raw)
        return 0;
    if (row_figures(bm, passes, reps, rr) != 0)
        return -1;
    const struct qqb_metric *bref = qqb_case_find_metric(bc, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
    const struct qqb_metric *cref = qqb_case_find_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
    if (!bref || !cref)
        return 0;
    double *bx = NULL;
    uint32_t *br = NULL;
    if (qqb_per_reference(bm, bref, &bx, &br, &rr->ncx) != 0)
        return -1;
    size_t nb = rr->ncx;
    if (qqb_per_reference(cm, cref, &rr->cx, NULL, &rr->ncx) != 0) {
        free(bx);
        free(br);
        return -1;
    }
    /* Every launch, or the passes would split them otherwise. */
    rr->has_ref = nb == bm->n && rr->ncx == cm->n && cm->n > 0 &&
                  qqb_baseruns_of(bx, br, nb, passes, reps, &rr->ref) == 0 &&
                  rr->ref.nruns == rr->raw.nruns && isfinite(rr->ref.s2) && rr->ref.s2 > 0;
    free(bx);
    free(br);
    return 0;
}

/* qqbench's own build (its version, compiler and flags: the machine
 * reference is its loop) is the baseline's: 1. A baseline that does not
 * say its version differs, for this purpose. */
static int same_build(const struct qqb_results *cur, const struct qqb_results *base)
{
    return base->version && cur->version && !strcmp(base->version, cur->version) &&
           !strcmp(base->fp.compiler, cur->fp.compiler) && !strcmp(base->fp.flags, cur->fp.flags);
}

/* The choice of section 19 (the suite's run_figure: AUTO), group by group:
 * per reference where every row of the group that has runs has them per
 * reference too, and their run-to-run variances are clearly smaller so
 * (the geometric mean of the ratios, weighted by degrees of freedom, below
 * QQB_REF_GAIN, on at least 4 degrees of freedom). From the baseline alone:
 * the plan, made before this run's first launch, makes the same choice as
 * the judgement after it. MEASURED never takes it; REFERENCE takes it in
 * every group where every row has it. Neither, where qqbench's own build
 * differs from the baseline's (SAME 0): its rows say so. */
static void choose_figure(const struct qqb_plan *p, struct runrow *rr, enum qqb_run_figure want,
                          int same, struct qqb_judgement *j)
{
    double sum = 0, w = 0;
    size_t rows = 0, lacking = 0;
    for (size_t g = 0; g < p->ngroups; g++) {
        double gs = 0, gw = 0;
        size_t grows = 0, glack = 0;
        for (size_t i = 0; i < j->ncmp; i++) {
            if (p->cases[j->cmp[i].case_idx].group != g || !rr[i].has_raw ||
                !isfinite(rr[i].raw.s2) || !(rr[i].raw.s2 > 0))
                continue;
            if (!rr[i].has_ref) {
                glack++;
                continue;
            }
            double df = (double)(rr[i].raw.nruns - 1);
            gs += df * log(rr[i].ref.s2 / rr[i].raw.s2);
            gw += df;
            grows++;
        }
        int take = want == QQB_FIGURE_REFERENCE ? glack == 0 && grows > 0
                   : want == QQB_FIGURE_AUTO
                       ? glack == 0 && grows > 0 && gw >= 4 && exp(gs / gw) < QQB_REF_GAIN
                       : 0;
        for (size_t i = 0; i < j->ncmp; i++) {
            if (p->cases[j->cmp[i].case_idx].group != g)
                continue;
            rr[i].use_ref = take && same && rr[i].has_ref;
            if (take && !same && rr[i].has_ref)
                j->cmp[i].ref_guard = QQB_RG_BUILD;
            j->by_reference |= rr[i].use_ref;
        }
        j->ref_build_differs |= take && !same;
        sum += gs;
        w += gw;
        rows += grows;
        lacking += glack;
    }
    j->ref_rows = rows;
    j->ref_lacking = lacking;
    j->ref_ratio = w > 0 ? exp(sum / w) : NAN;
    j->ref_refused = want == QQB_FIGURE_REFERENCE && lacking > 0;
}

/* The first guard (section 19): a case whose machine reference moved in
 * this run beyond its prediction bound from the baseline's runs of it (at
 * QQB_REF_MOVED_LEVEL) is judged as measured, and its rows say the machine
 * moved (whichever figure their group chose: guard_rows then judges them
 * relative to their keys' common move). 0 or -1. */
static int reference_moved(const struct qqb_plan *p, const struct qqb_results *cur,
                           const struct qqb_results *base, struct runrow *rr,
                           struct qqb_judgement *j)
{
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *row = &j->cmp[i];
        if (!rr[i].has_ref || rr[i].moved)
            continue;
        size_t g = p->cases[row->case_idx].group;
        int passes = qqb_plan_group_passes(p, g), reps = p->groups[g].reps;
        const struct qqb_metric *bref =
            qqb_case_find_metric(base->cases[row->base_idx], QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
        const struct qqb_metric *cref =
            qqb_case_find_metric(cur->cases[row->case_idx], QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
        struct qqb_baseruns b;
        struct qqb_runtest t;
        double lo, hi;
        if (qqb_judge_runs_of(bref, passes, reps, &b) != 0)
            return -1;
        if (b.nruns < 2 || !isfinite(b.s2) ||
            qqb_runtest(&b, b.s2, (double)(b.nruns - 1), cref->samples, cref->n, passes, reps,
                        &t) != 0)
            continue;
        qqb_runtest_interval(&t, QQB_REF_MOVED_LEVEL, &lo, &hi);
        if (!(lo > 0 || hi < 0))
            continue;
        j->ref_moved_cases++;
        for (size_t k = i; k < j->ncmp; k++) /* every row of the case */
            if (j->cmp[k].case_idx == row->case_idx && rr[k].has_ref) {
                rr[k].use_ref = 0;
                rr[k].moved = 1;
                rr[k].move = t.est;
            }
    }
    j->by_reference = 0;
    for (size_t i = 0; i < j->ncmp; i++)
        j->by_reference |= rr[i].use_ref;
    return 0;
}

/* The prior over the rows of one figure (BYREF: per reference, or as
 * measured) into S0SQ and D0. */
static int prior_of(const struct runrow *rr, size_t n, int byref, double *s2, double *df,
                    double *s0sq, double *d0)
{
    for (size_t i = 0; i < n; i++) {
        int mine = rr[i].has_raw && (rr[i].use_ref != 0) == byref;
        const struct qqb_baseruns *b = rr[i].use_ref ? &rr[i].ref : &rr[i].raw;
        s2[i] = mine ? b->s2 : NAN;
        df[i] = mine ? (double)(b->nruns - 1) : 0;
    }
    return qqb_shrink_prior(s2, df, n, s0sq, d0);
}

/* Row I of J on its runs RR[I] (the figure chosen for it), with the prior
 * (S0SQ, D0) of its figure's rows: the row's variance S2 on DF. */
static int judge_one(const struct qqb_plan *p, const struct qqb_results *cur,
                     const struct qqb_results *base, struct runrow *rr, double s2, double df,
                     double s0sq, double d0, struct qqb_cmp *row)
{
    const struct qqb_bench *b = &p->suite->bench[p->cases[row->case_idx].bench];
    const struct qqb_metric *bm = &base->cases[row->base_idx]->metrics[row->base_metric];
    const struct qqb_metric *cm = &cur->cases[row->case_idx]->metrics[row->metric];
    int ref = rr->use_ref;
    double var = qqb_shrunk_var(s2, df, s0sq, d0);
    double dfs = (isfinite(s2) ? df : 0) + (d0 > 0 && isfinite(s0sq) ? d0 : 0);
    if (!(dfs > 0) || !isfinite(var)) {
        var = s2;
        dfs = df;
    }
    size_t g = p->cases[row->case_idx].group;
    int passes = qqb_plan_group_passes(p, g), reps = p->groups[g].reps;
    int rc = qqb_judge_run_row(&b->s, bm->n, ref ? rr->cx : cm->samples, ref ? rr->ncx : cm->n,
                               ref ? &rr->ref : &rr->raw, &rr->raw, var, dfs, passes, reps, row);
    row->by_reference = ref;
    struct qqb_runtest t; /* the change as measured, for the sign guard */
    rr->meas = qqb_runtest(&rr->raw, rr->raw.s2, (double)(rr->raw.nruns - 1), cm->samples, cm->n,
                           passes, reps, &t) == 0
                   ? t.est
                   : NAN;
    return rc;
}

/* Judge the rows of J on the runs RR (the figure chosen for each), each
 * figure's rows with a prior of their own. 0 or -1. */
static int judge_rows(const struct qqb_plan *p, const struct qqb_results *cur,
                      const struct qqb_results *base, struct runrow *rr, struct qqb_judgement *j)
{
    size_t n = j->ncmp;
    double *s2 = calloc(n ? n : 1, sizeof *s2), *df = calloc(n ? n : 1, sizeof *df);
    double *s2r = calloc(n ? n : 1, sizeof *s2r), *dfr = calloc(n ? n : 1, sizeof *dfr);
    int rc = s2 && df && s2r && dfr ? 0 : -1;
    /* The priors: every baseline row's run-to-run variance, on R - 1
     * degrees of freedom, from the baseline's runs, one for each figure. */
    double s0[2] = {NAN, NAN}, d0[2] = {0, 0};
    if (rc == 0)
        rc = prior_of(rr, n, 0, s2, df, &s0[0], &d0[0]) |
             prior_of(rr, n, 1, s2r, dfr, &s0[1], &d0[1]);
    int shown = j->by_reference ? 1 : 0; /* the prior the output names */
    j->shrink_s0 = isfinite(s0[shown]) ? 100.0 * (exp(sqrt(s0[shown])) - 1.0) : NAN;
    j->shrink_d0 = d0[shown];
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (row->ab || row->base_metric == QQB_NO_MATCH)
            continue;
        int r = rr[i].use_ref != 0;
        rc = judge_one(p, cur, base, &rr[i], r ? s2r[i] : s2[i], r ? dfr[i] : df[i], s0[r], d0[r],
                       row);
        if (rr[i].moved) {
            row->ref_guard = QQB_RG_MOVED;
            row->guard_pct = 100.0 * expm1(rr[i].move);
        }
    }
    free(s2);
    free(df);
    free(s2r);
    free(dfr);
    return rc;
}

/* A row's verdict per reference not taken: noisy, the guard G said. */
static void not_taken(struct qqb_cmp *row, enum qqb_ref_guard g, double pct)
{
    row->verdict = row->alone = QQB_NOISY;
    row->p_value = 1;
    row->ref_guard = g;
    row->guard_pct = pct;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Row ROW's kind for the common-move guard (R its runs): 1 judged per
 * reference, 2 as measured because its reference moved, 0 as measured, -1
 * not a row judged by runs. */
static int common_kind(const struct qqb_cmp *row, const struct runrow *r)
{
    if (row->ab || row->base_metric == QQB_NO_MATCH || !r->has_raw)
        return -1;
    return row->by_reference ? 1 : row->ref_guard == QQB_RG_MOVED ? 2 : 0;
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Whether group G's common shift C (log; the median of its rows' estimates
 * as measured) stands on the baseline's own runs (section 20): each run's
 * common effect is the median over the group's rows of that run's figure
 * less the row's mean; their spread, on R - 1 degrees of freedom, is what
 * the machine's weather does to every key at once, which a suite of rows
 * shrunk together cannot see. The shift stands where it is beyond the
 * largest threshold at Holm's first level over the group's M rows. BUF
 * room for a value per row. */
static int common_stands(const struct qqb_plan *p, const struct runrow *rr,
                         const struct qqb_judgement *j, size_t g, double c, double *buf)
{
    size_t most = 0, m = 0, runs = 0;
    double thr = 0, conf = 0, sum = 0, sq = 0;
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *row = &j->cmp[i];
        if (common_kind(row, &rr[i]) != 0 || p->cases[row->case_idx].group != g || !rr[i].fig)
            continue;
        const struct qqb_settings *s = &p->suite->bench[p->cases[row->case_idx].bench].s;
        most = rr[i].nfig > most ? rr[i].nfig : most;
        thr = row->threshold > thr ? row->threshold : thr;
        conf = s->confidence > conf ? s->confidence : conf;
        m++;
    }
    for (size_t r = 0; m >= 3 && r < most; r++) {
        size_t k = 0;
        for (size_t i = 0; i < j->ncmp; i++)
            if (common_kind(&j->cmp[i], &rr[i]) == 0 && p->cases[j->cmp[i].case_idx].group == g &&
                rr[i].fig && r < rr[i].nfig && isfinite(rr[i].fig[r]))
                buf[k++] = rr[i].fig[r] - rr[i].raw.mean;
        if (k * 2 <= m) /* a run most rows lack */
            continue;
        double cr = median_of(buf, k);
        sum += cr;
        sq += cr * cr;
        runs++;
    }
    if (runs < QQB_MIN_BASE_RUNS || !(conf > 0 && conf < 1))
        return 0;
    double mean = sum / (double)runs, var = (sq - (double)runs * mean * mean) / (double)(runs - 1);
    double se = sqrt((var > 0 ? var : 0) * (1.0 + 1.0 / (double)runs));
    double q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - conf) / (2.0 * (double)m), (double)(runs - 1));
    return fabs(c) - log1p(thr / 100.0) > q * se;
}

/* The common-move guard on the rows of group G of kind KIND (common_kind),
 * EST and HALF room for every row: where 3 or more moved together beyond
 * their intervals' half-width (the median of their estimates, C, against
 * the median half-width, log scale), a verdict stands only relative to C,
 * or where C itself is beyond the benchmark's threshold bound (no weather
 * of a machine: a build that moved every key, a -O0 build), or, as
 * measured, where C stands on the baseline runs' own common shifts
 * (common_stands). */
static void common_move(const struct qqb_plan *p, const struct runrow *rr, struct qqb_judgement *j,
                        size_t g, int kind, double *est, double *half)
{
    size_t m = 0;
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *row = &j->cmp[i];
        if (common_kind(row, &rr[i]) != kind || p->cases[row->case_idx].group != g ||
            row->ch.status != QQB_CHANGE_OK)
            continue;
        est[m] = log1p(row->ch.pct / 100.0);
        half[m++] = (log1p(row->ch.hi / 100.0) - log1p(row->ch.lo / 100.0)) / 2;
    }
    if (m < 3)
        return;
    double c = median_of(est, m), h = median_of(half, m);
    if (!(fabs(c) > h) || (kind == 0 && common_stands(p, rr, j, g, c, est)))
        return;
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (common_kind(row, &rr[i]) != kind || p->cases[row->case_idx].group != g)
            continue;
        const struct qqb_settings *s = &p->suite->bench[p->cases[row->case_idx].bench].s;
        double cap = s->threshold_bound > 0 ? s->threshold_bound : QQB_THRESHOLD_BOUND;
        double t = log1p(row->threshold / 100.0);
        double lo = log1p(row->ch.lo / 100.0) - c, hi = log1p(row->ch.hi / 100.0) - c;
        if (fabs(c) > log1p((row->threshold > cap ? row->threshold : cap) / 100.0))
            continue;
        if ((row->alone == QQB_REGRESSED && !(lo > t)) ||
            (row->alone == QQB_IMPROVED && !(hi < -t)))
            not_taken(row, kind == 0 ? QQB_RG_RUNS : QQB_RG_COMMON, 100.0 * expm1(c));
    }
}

/* The last two guards (section 19), on the verdicts alone (Holm follows):
 * a verdict per reference stands only where the figure as measured moved
 * the same way (its estimate's sign); and where a group's rows per
 * reference, or as measured in a case whose reference moved, moved
 * together beyond their intervals (common_move: the reference alone moved,
 * or the keys alone, a machine the reference does not feel), a verdict
 * stands only relative to that common move. 0 or -1. */
static int guard_rows(const struct qqb_plan *p, const struct runrow *rr, struct qqb_judgement *j)
{
    size_t n = j->ncmp;
    double *est = malloc((n ? n : 1) * sizeof *est), *half = malloc((n ? n : 1) * sizeof *half);
    if (!est || !half) {
        free(est);
        free(half);
        return -1;
    }
    for (size_t g = 0; g < p->ngroups; g++)
        for (int kind = 0; kind <= 2; kind++)
            common_move(p, rr, j, g, kind, est, half);
    for (size_t i = 0; i < n; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        double ms = rr[i].meas;
        if (row->by_reference && ((row->alone == QQB_REGRESSED && !(ms > 0)) ||
                                  (row->alone == QQB_IMPROVED && !(ms < 0))))
            not_taken(row, QQB_RG_SIGN, 100.0 * expm1(ms));
    }
    free(est);
    free(half);
    return 0;
}

int qqb_judge_runs(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, struct qqb_judgement *j)
{
    size_t n = j->ncmp;
    struct runrow *rr = calloc(n ? n : 1, sizeof *rr);
    int rc = rr ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const struct qqb_cmp *row = &j->cmp[i];
        j->cmp[i].ref_guard = QQB_RG_NONE;
        j->cmp[i].guard_pct = NAN;
        if (!row->ab && row->base_metric != QQB_NO_MATCH)
            rc = row_runs(p, cur, base, row, &rr[i]);
    }
    if (rc == 0) {
        choose_figure(p, rr, p->suite->run_figure, same_build(cur, base), j);
        rc = reference_moved(p, cur, base, rr, j);
    }
    if (rc == 0)
        rc = judge_rows(p, cur, base, rr, j);
    if (rc == 0)
        rc = guard_rows(p, rr, j);
    for (size_t i = 0; rr && i < n; i++) {
        free(rr[i].cx);
        free(rr[i].fig);
    }
    free(rr);
    return rc;
}

void qqb_ref_guard_note(struct qqb_cmp *row)
{
    size_t k = strlen(row->why);
    char *w = row->why + k;
    size_t len = sizeof row->why - k;
    const char *sep = k ? "; " : "";
    struct qqb_signed a;
    switch (row->ref_guard) {
    case QQB_RG_NONE:
        return;
    case QQB_RG_MOVED:
        snprintf(w, len,
                 "%sthe machine moved: its reference %s%%, beyond its runs' bound; judged as "
                 "measured",
                 sep, qqb_signed(&a, row->guard_pct, 1));
        return;
    case QQB_RG_BUILD:
        snprintf(w, len,
                 "%sqqbench's own build differs from the baseline's (or it does not say): not "
                 "per reference",
                 sep);
        return;
    case QQB_RG_COMMON:
        snprintf(w, len,
                 "%s%s alone, but the group's keys moved %s%% together (against the machine "
                 "reference, or with a machine that moved): not decided so",
                 sep, qqb_verdict_name(row->ch.pct > 0 ? QQB_REGRESSED : QQB_IMPROVED),
                 qqb_signed(&a, row->guard_pct, 1));
        return;
    case QQB_RG_RUNS:
        snprintf(w, len,
                 "%s%s alone, but the group's keys moved %s%% together, which its baseline runs "
                 "do not tell from the machine's weather: not decided so; more baseline runs, "
                 "a machine reference that sees it, or --against",
                 sep, qqb_verdict_name(row->ch.pct > 0 ? QQB_REGRESSED : QQB_IMPROVED),
                 qqb_signed(&a, row->guard_pct, 1));
        return;
    case QQB_RG_SIGN:
        snprintf(w, len,
                 "%s%s per reference, but %s%% as measured: the signs differ, not decided per "
                 "reference",
                 sep, qqb_verdict_name(row->ch.pct > 0 ? QQB_REGRESSED : QQB_IMPROVED),
                 qqb_signed(&a, row->guard_pct, 1));
        return;
    }
}
