/* judge.c - judge: samples + baseline -> comparisons and verdicts, with the machine check,
 * family-wise control and the reasons. */
#include <math.h>
#include <gsl/gsl_cdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "judge.h"
#include "judge_model.h"
#include "judge_runs.h"
#include "match.h"
#include "mde.h"
#include "sequential.h"
#include "qq_file.h"
#include "words.h"

const char *qqb_threshold_from_name(enum qqb_threshold_from f)
{
    switch (f) {
    case QQB_THR_FIXED:
        return "fixed";
    case QQB_THR_NOISE:
        return "noise";
    case QQB_THR_RUNS:
        return "runs";
    case QQB_THR_BOUNDED:
        return "bounded";
    }
    return "?";
}

const char *qqb_machine_check_name(enum qqb_machine_check m)
{
    switch (m) {
    case QQB_MC_NOT_NEEDED:
        return "not needed";
    case QQB_MC_HELD:
        return "held";
    case QQB_MC_MOVED:
        return "machine moved";
    case QQB_MC_SKIPPED:
        return "skipped";
    case QQB_MC_IN_FIGURE:
        return "in the figure";
    }
    return "?";
}

static double row_level(const struct qqb_cmp *row, double a);

static const struct qqb_bench *bench_of(const struct qqb_plan *p, size_t ci)
{
    return &p->suite->bench[p->cases[ci].bench];
}

static int push_row(struct qqb_judgement *j, const struct qqb_cmp *row)
{
    struct qqb_cmp *v = qqb_grow(j->cmp, j->ncmp, &j->capcmp, sizeof *v, 32);
    if (!v)
        return -1;
    j->cmp = v;
    j->cmp[j->ncmp++] = *row;
    return 0;
}

static int push_mem(struct qqb_judgement *j, const struct qqb_memcmp *m)
{
    if (j->nmem == j->capmem) {
        size_t cap = j->capmem ? 2 * j->capmem : 32;
        struct qqb_memcmp *v = realloc(j->mem, cap * sizeof *v);
        if (!v)
            return -1;
        j->mem = v;
        j->capmem = cap;
    }
    j->mem[j->nmem++] = *m;
    return 0;
}

/* ---------------------------------------------------------------------
 * Thresholds.
 * --------------------------------------------------------------------- */

/* The threshold is the benchmark's own: the minimum effect of interest,
 * which noise never grows (docs/STATISTICS.md section 13). What
 * noise_multiple x the key's noise asks for, held at the bound, is the
 * change its noise hides (hide_pct), where it is above the threshold. */
static void set_threshold(struct qqb_cmp *row, const struct qqb_settings *s, double noise_pct)
{
    double fixed = s->threshold > 0 ? s->threshold : 0;
    double noise = s->noise_multiple > 0 && isfinite(noise_pct) ? s->noise_multiple * noise_pct : 0;
    double cap = s->threshold_bound > 0 ? s->threshold_bound : QQB_THRESHOLD_BOUND;
    double bound = fixed > cap ? fixed : cap;
    row->noise_pct = noise_pct;
    row->threshold = fixed;
    row->threshold_from = QQB_THR_FIXED;
    row->suite_threshold = fixed;
    row->hide_pct = noise > fixed ? (noise > bound ? bound : noise) : 0;
}

/* ---------------------------------------------------------------------
 * Against the baseline.
 * --------------------------------------------------------------------- */

/* Is KEY judged against the baseline (baseline_keys, default all)? */
static int baseline_key(const struct qqb_bench *b, const char *key)
{
    if (b->nbaseline_keys == 0)
        return 1;
    for (size_t i = 0; i < b->nbaseline_keys; i++)
        if (!strcmp(b->baseline_keys[i], key))
            return 1;
    return 0;
}

/* The counter step of a case: the median of its launches' calibrated
 * steps (runner.h, QQB_TIMER_KEY); 0 when unknown. */
static double step_of(const struct qqb_case_result *c)
{
    const struct qqb_metric *m = c ? qqb_case_find_metric(c, QQB_TIMER_KEY, "step") : NULL;
    double s = m && m->n ? qqb_median(m->samples, m->n) : 0;
    return s > 0 ? s : 0;
}

/* Do KEY's net figures in C (each launch's raw figure less that launch's
 * empty state) stand clear of zero across the launches? Each launch's
 * figure is resolved or not against its own calibration (collect.c), but
 * the empty state a calibration measures moves from launch to launch more
 * than a counter step where the reads themselves jitter: on the clock path
 * an empty chain's net read -2.7 to +0.9 ticks over 6 launches, each
 * "resolved" within its launch. The median net is resolved beyond a step
 * (2 LIM: quantised reads err by one) and 2 standard errors of the spread
 * (MAD / sqrt n); -1 where C lacks the figures (under 3 launches, none). */
static int nets_clear(const struct qqb_case_result *c, const char *key, double lim)
{
    const struct qqb_metric *raw = qqb_case_find_metric(c, key, "per_hit_raw");
    const struct qqb_metric *empty = qqb_case_find_metric(c, QQB_TIMER_KEY, "empty");
    if (!raw || !empty || raw->n != empty->n || raw->n < 3)
        return -1;
    double *net = malloc(raw->n * sizeof *net);
    if (!net)
        return -1;
    for (size_t i = 0; i < raw->n; i++)
        net[i] = raw->samples[i] - empty->samples[i];
    double med = qqb_median(net, raw->n);
    double se = qqb_mad_scaled(net, raw->n) / sqrt((double)raw->n);
    free(net);
    return isfinite(med) && fabs(med) > 2.0 * lim && fabs(med) > 2.0 * se;
}

/* Was KEY's figure in C not resolved: in most of its launches
 * (collect.c: per_hit_floored), or across them (nets_clear)? Where C has
 * no such record (a baseline from before it), a figure MEDIAN at or below
 * the resolution LIM was. */
static int floored(const struct qqb_case_result *c, const char *key, double median, double lim)
{
    if (nets_clear(c, key, lim) == 0)
        return 1;
    const struct qqb_metric *m = qqb_case_find_metric(c, key, "per_hit_floored");
    if (!m || m->n == 0)
        return median <= lim;
    return qqb_median(m->samples, m->n) >= 0.5;
}

/* Intervals per launch of KEY in C when every launch read the same
 * (qqb_cmp.count_*); NaN otherwise. */
static double exact_count(const struct qqb_case_result *c, const char *key)
{
    const struct qqb_metric *m = qqb_case_find_metric(c, key, "intervals");
    if (!m || m->n == 0)
        return NAN;
    for (size_t i = 1; i < m->n; i++)
        if (m->samples[i] != m->samples[0])
            return NAN;
    return m->samples[0];
}

/* Count and cost apart: CUR against BASE (the baseline's case or the
 * reference). */
static void counts(struct qqb_cmp *row, const struct qqb_case_result *cur,
                   const struct qqb_case_result *base)
{
    row->count_cur = exact_count(cur, row->key);
    row->count_base = exact_count(base, row->key);
    row->count_pct = row->count_base > 0 && isfinite(row->count_cur)
                         ? 100.0 * (row->count_cur / row->count_base - 1.0)
                         : NAN;
}

/* Net figures near zero: both at or below the counter's resolution make
 * the row unresolved (no ratio of them means anything); one of them is
 * noted, its verdict stands (70 -> 1.5 ticks is still an improvement, of
 * at least 70 minus the resolution). */
static void resolution(struct qqb_cmp *row, const struct qqb_case_result *a,
                       const struct qqb_case_result *b)
{
    double sa = step_of(a), sb = step_of(b);
    row->step = sa > sb ? sa : sb;
    if (!(row->step > 0) || strcmp(a->metrics[row->metric].what, QQB_VERDICT_METRIC))
        return;
    double lim = qq_resolution_ticks(row->step);
    row->below_step =
        floored(b, row->key, row->base_median, lim) + floored(a, row->key, row->cur_median, lim);
    if (row->below_step == 2)
        row->verdict = row->alone = QQB_UNRESOLVED;
}

/* Events the launches of C lost to a full buffer (runner.h). */
double qqb_case_dropped(const struct qqb_case_result *c)
{
    const struct qqb_metric *m = c ? qqb_case_find_metric(c, QQB_EVENTS_KEY, "dropped") : NULL;
    double sum = 0;
    for (size_t i = 0; m && i < m->n; i++)
        sum += m->samples[i];
    return sum;
}

/* A figure from a launch that dropped events undercounts: the row says
 * incomplete instead of any verdict, unless the benchmark allows it. */
static void completeness(struct qqb_cmp *row, const struct qqb_settings *s,
                         const struct qqb_case_result *a, const struct qqb_case_result *b)
{
    row->dropped = qqb_case_dropped(a) + qqb_case_dropped(b);
    if (row->dropped > 0 && !s->allow_dropped)
        row->verdict = row->alone = QQB_INCOMPLETE;
}

/* A baseline row of plan case CI's metric MI, set up for qqb_judge_runs
 * (which judges every baseline row at once: the run-to-run variances are
 * shrunk across them). 1 made, 0 none (the baseline lacks the key, or holds
 * fewer than QQB_MIN_BASE_RUNS runs of it: *FEW set), -1 out of memory. */
static int baseline_row(size_t ci, size_t mi, const struct qqb_case_result *c,
                        const struct qqb_case_result *bc, size_t bi, struct qqb_cmp *row, int *few)
{
    const struct qqb_metric *cm = &c->metrics[mi];
    const struct qqb_metric *bm = qqb_case_find_metric(bc, cm->key, cm->what);
    size_t nruns = 0;
    if (!bm)
        return 0;
    /* Only the number of runs here: their figures are qqb_judge_runs'. */
    if (qqb_judge_run_count(bm, &nruns) != 0 && bm->n > 0)
        nruns = 0; /* a bad value: judged (and said) by qqb_judge_runs */
    else if (nruns < QQB_MIN_BASE_RUNS) {
        *few = 1;
        return 0;
    }
    memset(row, 0, sizeof *row);
    row->count_base = row->count_cur = row->count_pct = NAN;
    row->case_idx = ci;
    row->metric = mi;
    row->base_idx = bi;
    row->base_metric = (size_t)(bm - bc->metrics);
    row->case_name = c->name;
    row->key = cm->key;
    row->mhz = c->mhz;
    row->base_mhz = bc->mhz;
    row->holm_held = -1;
    row->p_value = 1;
    row->machine_pct = row->norm_pct = NAN;
    row->base_runs = nruns;
    row->command_differs = qqb_case_command_differs(bc, c);
    row->noise_from = "baseline";
    return 1;
}

/* ---------------------------------------------------------------------
 * Between variants: pairs of one round.
 * --------------------------------------------------------------------- */

/* The pairs (A, B) of two metrics with the same (run, launch), in B's
 * order; *N the count. */
static int pairs_of(const struct qqb_metric *a, const struct qqb_metric *bm, double **pa,
                    double **pb, size_t *n)
{
    *pa = malloc((bm->n ? bm->n : 1) * sizeof **pa);
    *pb = malloc((bm->n ? bm->n : 1) * sizeof **pb);
    *n = 0;
    if (!*pa || !*pb) {
        free(*pa);
        free(*pb);
        *pa = *pb = NULL;
        return -1;
    }
    for (size_t i = 0; i < bm->n; i++) {
        uint32_t run, launch;
        qqb__stamp_of(bm, i, &run, &launch);
        long k = qqb_metric_at(a, run, launch);
        if (k >= 0) {
            (*pa)[*n] = a->samples[k];
            (*pb)[*n] = bm->samples[i];
            (*n)++;
        }
    }
    return 0;
}

/* 100 x 1.4826 x MAD of the log ratios of the pairs of A and B; NaN with
 * fewer than 2 pairs. */
static double pair_noise(const struct qqb_metric *a, const struct qqb_metric *b)
{
    double *pa, *pb;
    size_t n;
    if (pairs_of(a, b, &pa, &pb, &n) != 0)
        return NAN;
    double noise = NAN;
    if (n >= 2) {
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            ok &= pa[i] > 0 && pb[i] > 0;
            pa[i] = ok ? log(pb[i] / pa[i]) : 0;
        }
        if (ok)
            noise = qqb_pair_noise_pct(pa, n);
    }
    free(pa);
    free(pb);
    return noise;
}

/* Distinct launches (rounds) in which either metric has a sample. */
static size_t rounds_of(const struct qqb_metric *a, const struct qqb_metric *b)
{
    size_t n = a->n;
    for (size_t i = 0; i < b->n; i++) {
        uint32_t run, launch;
        qqb__stamp_of(b, i, &run, &launch);
        n += qqb_metric_at(a, run, launch) < 0;
    }
    return n;
}

/* Where the key's noise hides a change (hide_pct above the threshold), an
 * interval across the threshold and within +/-hide_pct is blind
 * (qqb_verdict_hidden) once no more rounds will come (the plan's last
 * look): it says how many pairs would see the threshold (the interval's
 * width goes as 1/sqrt(n)). Before the last look it is noisy, and the
 * rounds go on. */
static void hidden_pairs(struct qqb_cmp *row)
{
    const struct qqb_change *ch = &row->ch;
    double fixed = row->threshold;
    if (row->verdict != QQB_NOISY || row->look < row->looks ||
        qqb_verdict_hidden(ch, fixed, row->hide_pct) != QQB_BLIND)
        return;
    row->verdict = row->alone = QQB_BLIND;
    double half = (ch->hi - ch->lo) / 2, room = fixed - fabs(ch->pct);
    double need = room > 0 ? (double)row->npairs * (half / room) * (half / room) : INFINITY;
    row->seen_by = "more pairs";
    if (need <= 1000) {
        row->need_launches = (size_t)ceil(need);
        snprintf(row->why, sizeof row->why,
                 "within +/-%.1f%%: this key's noise hides less; about %zu pairs would see %.1f%%",
                 row->hide_pct, row->need_launches, fixed);
    } else {
        snprintf(row->why, sizeof row->why,
                 "within +/-%.1f%%: this key's noise hides less; no number of pairs within reach "
                 "would see %.1f%% (its estimate is at it)",
                 row->hide_pct, fixed);
    }
}

static int ab_row(const struct qqb_plan *p, size_t ci, size_t ri, size_t mi,
                  const struct qqb_case_result *c, const struct qqb_case_result *ref,
                  const struct qqb_case_result *bc, const struct qqb_case_result *br, int kind,
                  struct qqb_cmp *row)
{
    const struct qqb_bench *b = bench_of(p, ci);
    const struct qqb_metric *cm = &c->metrics[mi];
    const struct qqb_metric *rm = qqb_case_find_metric(ref, cm->key, cm->what);
    if (!rm)
        return 0;
    memset(row, 0, sizeof *row);
    row->count_base = row->count_cur = row->count_pct = NAN;
    row->case_idx = ci;
    row->ref_idx = ri;
    row->metric = mi;
    row->case_name = c->name;
    row->key = cm->key;
    row->ref_name = ref->name;
    row->ab = kind;
    row->base_idx = row->base_metric = QQB_NO_MATCH;
    row->mhz = c->mhz;
    row->base_mhz = ref->mhz;
    row->holm_held = -1;
    row->machine = QQB_MC_NOT_NEEDED;
    row->machine_pct = row->norm_pct = row->run_pct = row->run_bound_pct = NAN;
    row->se_log = row->se_df = row->mde_pct = NAN;
    /* The threshold's noise: the spread of the pair ratios in the stored
     * baseline (both cases BC and BR, paired by run and launch), so it does
     * not move with the run under test; without one, this run's pairs. */
    double noise = NAN;
    if (bc && br) {
        const struct qqb_metric *x = qqb_case_find_metric(br, cm->key, cm->what);
        const struct qqb_metric *y = qqb_case_find_metric(bc, cm->key, cm->what);
        if (x && y)
            noise = pair_noise(x, y);
        row->noise_from = "baseline pairs";
    }
    if (!isfinite(noise)) {
        noise = pair_noise(rm, cm);
        row->noise_from = "current pairs";
    }
    set_threshold(row, &b->s, noise);
    double *pa, *pb;
    size_t n;
    if (pairs_of(rm, cm, &pa, &pb, &n) != 0)
        return -1;
    row->paired = 1;
    row->npairs = n;
    row->rounds = rounds_of(rm, cm);
    /* The look this row is judged at: more rounds while noisy is a
     * group-sequential plan (O'Brien-Fleming), so each look has its level. */
    const struct qqb_plan_group *gr = &p->groups[p->cases[ci].group];
    size_t reps = gr->reps > 0 ? (size_t)gr->reps : 1;
    size_t most = p->max_reps > gr->reps ? (size_t)p->max_reps : reps;
    row->looks = (most + reps - 1) / reps;
    row->look = (row->rounds + reps - 1) / reps;
    row->look = row->look < 1 ? 1 : (row->look > row->looks ? row->looks : row->look);
    qqb_change_paired_sign(pa, pb, n, b->s.confidence, &row->ch);
    for (size_t i = 0; i < n; i++)
        pa[i] = pa[i] > 0 && pb[i] > 0 ? log(pb[i] / pa[i]) : 0;
    double up, down;
    qqb_sign_p_beyond(pa, n, row->threshold, &up, &down);

    row->p_value = 2.0 * (up < down ? up : down);
    row->p_value = row->p_value > 1 ? 1 : row->p_value;
    free(pa);
    free(pb);
    row->level = b->s.confidence;
    row->base_median = qqb_median(rm->samples, rm->n);
    row->cur_median = qqb_median(cm->samples, cm->n);
    row->verdict = row->alone = qqb_verdict_sym(&row->ch, row->threshold);
    /* Regressed or improved must also pass the look's boundary; unchanged
     * at a look is a futility stop, which never adds a false regressed. */
    if ((row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED) &&
        row->p_value > row_level(row, 1.0 - b->s.confidence)) {
        row->verdict = row->alone = QQB_NOISY;
        row->early = 1;
    }
    hidden_pairs(row);
    resolution(row, c, ref);
    completeness(row, &b->s, c, ref);
    counts(row, c, ref);
    return 1;
}

/* ---------------------------------------------------------------------
 * Memory.
 * --------------------------------------------------------------------- */

static const struct qqb_mem *mem_find(const struct qqb_case_result *c, const char *k)
{
    for (size_t i = 0; i < c->nmem; i++)
        if (!strcmp(c->mem[i].key, k))
            return &c->mem[i];
    return NULL;
}

/* Memory of CUR against BASE (the same case in the baseline, or the
 * reference variant); every key whose live or peak bytes moved beyond the
 * tolerance, or that appeared or vanished. Where several threads allocated
 * on a key at once the file gives the peak as bounds (docs/MEMORY.md):
 * peak_bytes is the upper one, and that is what is compared (the report
 * says so beside such a row). */
static int compare_mem(struct qqb_judgement *j, size_t ci, const struct qqb_case_result *base,
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
            uint64_t bl = bm->obj_bytes + bm->alloc_bytes, cl = cm->obj_bytes + cm->alloc_bytes;
            int vl = qqb_mem_verdict(bl, cl, tol),
                vp = qqb_mem_verdict(bm->peak_bytes, cm->peak_bytes, tol),
                vo = qqb_mem_verdict(bm->created, cm->created, 0),
                vs = qqb_mem_verdict(bm->obj_size, cm->obj_size, 0);
            struct qqb_memcmp mc = {ci,
                                    cur->name,
                                    a->mem[i].key,
                                    ab,
                                    base->name,
                                    *bm,
                                    *cm,
                                    vl > 0 || vp > 0 ? 1 : (vl < 0 || vp < 0 ? -1 : 0),
                                    1};
            /* A key that holds nothing on either side (a `default` of
             * zeros, there or not there) is never listed. */
            if (bl == 0 && cl == 0 && bm->peak_bytes == 0 && cm->peak_bytes == 0 &&
                bm->created == 0 && cm->created == 0)
                continue;
            if (mc.verdict == 0 && vo == 0 && vs == 0 && m) {
                /* Unchanged: listed where the comparison gates. */
                mc.moved = 0;
                if (ab != QQB_CMP_VARIANT && push_mem(j, &mc) != 0)
                    return -1;
                continue;
            }
            if (mc.verdict == 0)
                mc.verdict = vo > 0 ? 1 : (vo < 0 ? -1 : 0);
            if (push_mem(j, &mc) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------
 * Family-wise control: Holm's step-down over the baseline rows.
 * --------------------------------------------------------------------- */

/*
 * One family (docs/STATISTICS.md section 14): the baseline rows judged (a
 * row blind and not judged tests nothing) and the rows against the
 * reference build, each with its one-sided p-value against its threshold
 * (p_value: 2 min(up, down), so "decisive at alpha'" is "p <= alpha'").
 * Holm's step-down: with m rows, a row decisive alone stands when its
 * p-value is at most alpha / m; with r standing, the others are judged at
 * alpha / (m - r), until no more stand. A row judged at a look of a
 * group-sequential plan (more rounds while noisy) has its level from the
 * boundary at that look for the level Holm gives it. A row decisive alone
 * that does not stand becomes noisy and says so. Rows between variants are
 * not in the family: they do not gate.
 */
/* The baseline metric a baseline row was judged against (NULL: none). */
static const struct qqb_metric *base_metric(const struct qqb_results *base,
                                            const struct qqb_cmp *row)
{
    if (!base || row->base_idx == QQB_NO_MATCH || row->base_metric == QQB_NO_MATCH)
        return NULL;
    return &base->cases[row->base_idx]->metrics[row->base_metric];
}

static int in_family(const struct qqb_cmp *row)
{
    return row->ab != QQB_CMP_VARIANT && row->ch.status == QQB_CHANGE_OK && !row->not_judged &&
           row->verdict != QQB_UNRESOLVED && row->verdict != QQB_INCOMPLETE;
}

/* The nominal level of ROW at family level A: A itself, or the boundary
 * of its look. */
static double row_level(const struct qqb_cmp *row, double a)
{
    return row->looks > 1 ? qqb_gs_nominal(a, row->look, row->looks) : a;
}

static void holm(const struct qqb_plan *p, struct qqb_judgement *j, struct qqb_model_judgement *mj)
{
    size_t m = 0, stood = 0, nm = mj ? mj->n : 0;
    for (size_t i = 0; i < j->ncmp; i++)
        m += (size_t)in_family(&j->cmp[i]);
    for (size_t i = 0; i < nm; i++)
        m += (size_t)(mj->rows[i].gated != 0);
    j->family = m;
    if (m == 0)
        return;
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (in_family(row) && (row->alone == QQB_REGRESSED || row->alone == QQB_IMPROVED))
            row->holm_held = 0;
        if (in_family(row) && j->family_alpha == 0)
            j->family_alpha = 1.0 - bench_of(p, row->case_idx)->s.confidence;
    }
    for (size_t i = 0; i < nm; i++) {
        struct qqb_model_row *r = &mj->rows[i];
        r->holm_held = r->gated && r->g.regressed ? 0 : -1;
        if (r->gated && j->family_alpha == 0)
            j->family_alpha = 1.0 - p->suite->bench[r->bench].s.confidence;
    }
    for (;;) {
        size_t newly = 0;
        for (size_t i = 0; i < j->ncmp; i++) {
            struct qqb_cmp *row = &j->cmp[i];
            if (row->holm_held != 0)
                continue;
            double alpha = 1.0 - bench_of(p, row->case_idx)->s.confidence;
            double a = row_level(row, alpha / (double)(m - stood));
            if (row->p_value <= a) {
                row->holm_held = 1;
                row->level = 1.0 - a;
                newly++;
            }
        }
        for (size_t i = 0; i < nm; i++) {
            struct qqb_model_row *r = &mj->rows[i];
            double alpha = 1.0 - p->suite->bench[r->bench].s.confidence;
            if (r->holm_held == 0 && r->g.p_row <= alpha / (double)(m - stood)) {
                r->holm_held = 1;
                newly++;
            }
        }
        if (newly == 0)
            break;
        stood += newly;
    }
    for (size_t i = 0; i < j->ncmp; i++)
        if (j->cmp[i].holm_held == 0)
            j->cmp[i].verdict = QQB_NOISY;
    for (size_t i = 0; i < nm; i++) {
        struct qqb_model_row *r = &mj->rows[i];
        if (r->holm_held != 0)
            continue;
        r->g.regressed = 0;
        memset(r->g.flagged, 0, sizeof r->g.flagged);
        mj->regressed--;
        snprintf(r->why, sizeof r->why,
                 "grew at %.0f%% alone (p %.2g), not after Holm over %zu comparisons",
                 100.0 * p->suite->bench[r->bench].s.confidence, r->g.p_row, m);
    }
}

/* ---------------------------------------------------------------------
 * Why a row is noisy, and what would decide it.
 * --------------------------------------------------------------------- */

static void explain(struct qqb_cmp *row, size_t family)
{
    const struct qqb_change *ch = &row->ch;
    char *w = row->why;
    size_t len = sizeof row->why;
    if (row->verdict == QQB_BLIND)
        return; /* said when judged (honest) */
    w[0] = '\0';
    if (row->verdict == QQB_INCOMPLETE) {
        snprintf(w, len,
                 "%.0f events dropped (buffer full): the figures undercount; raise "
                 "events: or QQ_EVENTS, or set allow_dropped: true",
                 row->dropped);
        return;
    }
    if (row->below_step == 2) {
        snprintf(w, len,
                 "both within the counter's resolution (%.0f ticks) of zero: "
                 "cannot be resolved",
                 qq_resolution_ticks(row->step));
        return;
    }
    if (row->below_step == 1 && row->verdict != QQB_NOISY) {
        snprintf(w, len,
                 "one figure within the counter's resolution (%.0f ticks) of "
                 "zero: the change's size is a bound",
                 qq_resolution_ticks(row->step));
        return;
    }
    if (row->verdict != QQB_NOISY || row->ref_guard >= QQB_RG_COMMON) /* qqb_ref_guard_note */
        return;
    if (row->machine == QQB_MC_MOVED) {
        snprintf(w, len, "the machine moved %s%%; relative to it %s%%",
                 QQB_SIGNED(row->machine_pct, 1), QQB_SIGNED(row->norm_pct, 2));
        return;
    }
    if (row->early) {
        /* The sign test's smallest p at n pairs is 2^(1-n): a look below it
         * is skipped (docs/STATISTICS.md section 17). */
        double at = row_level(row, 1.0 - ch->confidence);
        double least =
            row->paired ? ldexp(1.0, 1 - (int)(row->npairs < 1000 ? row->npairs : 1000)) : 0;
        int k = snprintf(
            w, len, "beyond %.1f%% at %.0f%%, not at look %zu of %zu's boundary (p %.2g > %.2g)",
            row->threshold, 100.0 * ch->confidence, row->look, row->looks, row->p_value, at);
        if (least > at && k > 0 && (size_t)k < len)
            snprintf(w + k, len - (size_t)k, "; %zu pairs cannot reach it: %s", row->npairs,
                     row->look < row->looks ? "the next look can" : "more --max-repetitions would");
        return;
    }
    if (row->holm_held == 0) {
        snprintf(w, len, "%s at %.0f%% alone, not after Holm over %zu comparisons",
                 qqb_verdict_name(row->alone), 100.0 * ch->confidence, family);
        return;
    }
    if (ch->status != QQB_CHANGE_OK) {
        snprintf(w, len, "%s", ch->reason ? ch->reason : "no valid change");
        return;
    }
    if (!ch->ci_ok) {
        snprintf(w, len, "too few %s for %.0f%% (%zu); add repetitions",
                 row->paired ? "pairs" : "launches", 100.0 * ch->confidence,
                 row->paired ? row->npairs : (ch->nb < ch->nc ? ch->nb : ch->nc));
        return;
    }
    if (!row->ab) { /* by runs: the plan's estimate (qqb_judge_run_row) */
        int k = snprintf(w, len, "interval %s%%..%s%% against a threshold of %.1f%%",
                         QQB_SIGNED(ch->lo, 1), QQB_SIGNED(ch->hi, 1), row->threshold);
        if (k > 0 && (size_t)k < len && row->need_launches > ch->nc)
            snprintf(w + k, len - (size_t)k, "; about %zu launches would decide",
                     row->need_launches);
        else if (k > 0 && (size_t)k < len) /* it had the plan's launches */
            snprintf(w + k, len - (size_t)k,
                     "; it had the %zu launches the plan wanted: the change is near the "
                     "threshold, or this run spread more than the baseline's",
                     ch->nc);
        return;
    }
    /* The interval must fit on one side of a threshold: estimate how many
     * launches would shrink it enough (width ~ 1/sqrt(n)). */
    double t = row->threshold, half = (ch->hi - ch->lo) / 2, est = ch->pct;
    double room = fabs(est) < t ? t - fabs(est) : fabs(est) - t;
    size_t n = row->paired ? row->npairs : (ch->nb < ch->nc ? ch->nb : ch->nc);
    double need = room > 0 ? (double)n * (half / room) * (half / room) : INFINITY;
    int k = snprintf(w, len, "interval +/-%.1f%% against a threshold of %.1f%%", half, t);
    if (k < 0 || (size_t)k >= len)
        return;
    if (need > 1000)
        snprintf(w + k, len - (size_t)k, "; the change is at the threshold");
    else
        snprintf(w + k, len - (size_t)k, "; about %.0f %s would decide", ceil(need),
                 row->paired ? "pairs" : "launches a side");
}

/* ---------------------------------------------------------------------
 * The whole judgement.
 * --------------------------------------------------------------------- */

int qqb_judge(const struct qqb_plan *p, const struct qqb_results *cur,
              const struct qqb_results *base, struct qqb_judgement *j)
{
    return qqb_judge_with(p, cur, base, base, j);
}

/* The rows of plan case CI: against its baseline case BC (index BI; NULL:
 * none), its memory baseline MC, the reference variant and the reference
 * build's twin (BASE_OF: each plan case's baseline case, for the pairs'
 * noise). 0 or -1 (out of memory). */
static int judge_case(const struct qqb_plan *p, const struct qqb_results *cur, size_t ci,
                      const struct qqb_results *base, const size_t *base_of,
                      const struct qqb_case_result *mc, struct qqb_judgement *j)
{
    const struct qqb_case_result *c = cur->cases[ci];
    const struct qqb_bench *b = bench_of(p, ci);
    const struct qqb_case_result *bc = qqb_matched(base, base_of, ci);
    if (bc) {
        int few = 0;
        int differs = qqb_case_command_differs(bc, c);
        j->command_changed += differs;
        for (size_t mi = 0; mi < c->nmetrics; mi++) {
            if (strcmp(c->metrics[mi].what, QQB_VERDICT_METRIC) ||
                !baseline_key(b, c->metrics[mi].key))
                continue;
            struct qqb_cmp row;
            int rc = baseline_row(ci, mi, c, bc, base_of[ci], &row, &few);
            if (rc < 0 || (rc > 0 && push_row(j, &row) != 0))
                return -1;
        }
        j->few_run_cases += (size_t)few;
    }
    /* Memory per key: against the memory baseline (any machine's). */
    if (mc && compare_mem(j, ci, mc, c, 0, (uint64_t)b->s.memory_tolerance) != 0)
        return -1;
    /* Against the reference variant of the group, then against the same
     * case of the reference build: indices, not names. */
    for (int kind = QQB_CMP_VARIANT; kind <= QQB_CMP_BUILD; kind++) {
        size_t ri = kind == QQB_CMP_VARIANT ? p->cases[ci].variant_ref : p->cases[ci].twin;
        if (ri == ci || ri == QQB_NO_CASE)
            continue;
        const struct qqb_case_result *ref = cur->cases[ri];
        if (ref->failures || ref->launches == 0)
            continue;
        const struct qqb_case_result *br = qqb_matched(base, base_of, ri);
        for (size_t mi = 0; mi < c->nmetrics; mi++) {
            if (strcmp(c->metrics[mi].what, QQB_VERDICT_METRIC))
                continue;
            struct qqb_cmp row;
            int rc = ab_row(p, ci, ri, mi, c, ref, bc, br, kind, &row);
            if (rc < 0 || (rc > 0 && push_row(j, &row) != 0))
                return -1;
        }
        if (compare_mem(j, ci, ref, c, kind,
                        kind == QQB_CMP_BUILD ? (uint64_t)b->s.memory_tolerance : 0) != 0)
            return -1;
    }
    return 0;
}

/* The minimum detectable change of ROW (stats/mde.h): the change its
 * test reads regressed nine times in ten at level A (its look's boundary
 * for A): a baseline row's t test, a paired row's sign test. */
static double mde_of(const struct qqb_cmp *row, double a)
{
    double level = row_level(row, a);
    return row->paired ? qqb_mde_sign(row->threshold, row->noise_pct, row->npairs, level)
                       : qqb_mde_t(row->threshold, row->se_log, row->se_df, level);
}

/* A row against a reference still noisy at the plan's last look whose MDE
 * is beyond (1 + t)^2 - 1 (what it catches nine times in ten is more than
 * the threshold beyond the threshold: it cannot tell no change from t) is
 * blind: these pairs do not see the threshold, and no more rounds will
 * come. */
static void blind_by_mde(struct qqb_cmp *row)
{
    double t = row->threshold / 100.0;
    if (!row->ab || row->verdict != QQB_NOISY || row->look < row->looks || row->early ||
        row->holm_held == 0 || !(row->mde_pct / 100.0 > (1 + t) * (1 + t) - 1))
        return;
    row->verdict = row->alone = QQB_BLIND;
    row->seen_by = "more pairs";
    /* The pairs at which the median's se, 1.2533 sd / sqrt(n) (the sign
     * test's efficiency 2/pi), is log(1 + t) / (z + z(0.9)). */
    double room = log1p(t) / (gsl_cdf_ugaussian_Qinv((1 - row->level) / 2) + 1.2815516);
    double sd = 1.2533 * row->noise_pct / 100.0;
    double need = room > 0 ? (sd / room) * (sd / room) : INFINITY;
    int k = snprintf(row->why, sizeof row->why,
                     "these pairs catch %+.1f%% nine times in ten, not %.1f%%", row->mde_pct,
                     row->threshold);
    if (k > 0 && (size_t)k < sizeof row->why && need <= 100000) {
        row->need_launches = (size_t)ceil(need);
        snprintf(row->why + k, sizeof row->why - (size_t)k, "; about %zu pairs would see it",
                 row->need_launches);
    }
}

/* After every row is made: the machine check of the baseline rows, each
 * row's explanation, and the tallies. */
static void finish(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, struct qqb_judgement *j)
{
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (row->ab || !base) /* baseline rows exist only with a baseline */
            continue;
        const struct qqb_case_result *c = cur->cases[row->case_idx];
        const struct qqb_case_result *bc = base->cases[row->base_idx];
        qqb_machine_check(row, base_metric(base, row), &c->metrics[row->metric],
                          qqb_case_find_metric(bc, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                          qqb_case_find_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT));
        j->missing_ref += row->machine == QQB_MC_SKIPPED;
    }
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        double a = 1.0 - bench_of(p, row->case_idx)->s.confidence;
        row->mde_pct = mde_of(row, in_family(row) && j->family > 1 ? a / (double)j->family : a);
        blind_by_mde(row);
        if (row->verdict != QQB_BLIND) /* made incomplete or unresolved since */
            row->seen_by = NULL;
        explain(row, j->family);
        qqb_ref_guard_note(row);
        j->incomplete += row->verdict == QQB_INCOMPLETE;
        if (!row->ab) {
            j->regressed += row->verdict == QQB_REGRESSED;
            j->noisy += row->verdict == QQB_NOISY;
            j->blind += row->verdict == QQB_BLIND;
            row->blind_fails =
                row->verdict == QQB_BLIND && bench_of(p, row->case_idx)->s.fail_on_blind;
            j->blind_failing += (size_t)row->blind_fails;
        } else if (row->ab == QQB_CMP_BUILD) {
            j->build_regressed += row->verdict == QQB_REGRESSED;
            j->build_noisy += row->verdict == QQB_NOISY;
            j->build_blind += row->verdict == QQB_BLIND;
            row->blind_fails =
                row->verdict == QQB_BLIND && bench_of(p, row->case_idx)->s.fail_on_blind;
            j->blind_failing += (size_t)row->blind_fails;
        }
    }
    for (size_t i = 0; i < j->nmem; i++) {
        j->mem_regressed += !j->mem[i].ab && j->mem[i].verdict > 0;
        j->build_mem_regressed += j->mem[i].ab == QQB_CMP_BUILD && j->mem[i].verdict > 0;
    }
}

int qqb_judge_with(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, const struct qqb_results *membase,
                   struct qqb_judgement *j)
{
    return qqb_judge_all(p, cur, base, membase, NULL, j);
}

int qqb_judge_all(const struct qqb_plan *p, const struct qqb_results *cur,
                  const struct qqb_results *base, const struct qqb_results *membase,
                  struct qqb_model_judgement *models, struct qqb_judgement *j)
{
    memset(j, 0, sizeof *j);
    /* Case I of the plan is case I of CUR; the stored runs' cases are
     * matched to them once, by name, and found by index after. */
    size_t *base_of = NULL, *mem_of = NULL;
    int rc = qqb_match_cases(cur, p->ncases, base, &base_of) != 0 ||
                     qqb_match_cases(cur, p->ncases, membase, &mem_of) != 0
                 ? -1
                 : 0;
    for (size_t ci = 0; rc == 0 && ci < p->ncases; ci++) {
        const struct qqb_case_result *c = cur->cases[ci];
        /* The reference build's cases are references only: never judged
         * against the stored baseline (which holds the change build). */
        if (c->failures || c->launches == 0 || p->cases[ci].build == QQB_BUILD_REFERENCE)
            continue;
        rc = judge_case(p, cur, ci, base, base_of, qqb_matched(membase, mem_of, ci), j);
    }
    free(base_of);
    free(mem_of);
    if (rc != 0 || (base && qqb_judge_runs(p, cur, base, j) != 0))
        return -1;
    for (size_t i = 0; base && i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (row->ab)
            continue;
        resolution(row, cur->cases[row->case_idx], base->cases[row->base_idx]);
        completeness(row, &bench_of(p, row->case_idx)->s, cur->cases[row->case_idx],
                     base->cases[row->base_idx]);
        counts(row, cur->cases[row->case_idx], base->cases[row->base_idx]);
    }
    holm(p, j, models);
    finish(p, cur, base, j);
    return 0;
}

/* The stop rule asks the final judgement's question (docs/STATISTICS.md
 * section 17, "One rule to stop and to judge"): the whole judgement of CUR
 * as it stands, Holm over the family with each row at its look's level,
 * and a row of group G against its reference variant or build still
 * noisy (beyond its threshold alone but not at its look's boundary, or
 * not after Holm, or an interval across the threshold) wants more rounds.
 * Out of memory reads undecided: more rounds, never a verdict taken
 * early. */
int qqb_judge_ab_undecided(const struct qqb_plan *p, size_t g, const struct qqb_results *cur,
                           const struct qqb_results *base)
{
    const struct qqb_plan_group *gr = &p->groups[g];
    struct qqb_model_judgement models;
    struct qqb_judgement j;
    memset(&j, 0, sizeof j);
    if (qqb_judge_models(p, cur, base, &models) != 0 ||
        qqb_judge_all(p, cur, base, base, &models, &j) != 0) {
        qqb_judgement_free(&j);
        qqb_model_judgement_free(&models);
        return 1;
    }
    int undecided = 0;
    for (size_t i = 0; i < j.ncmp && !undecided; i++) {
        const struct qqb_cmp *row = &j.cmp[i];
        undecided = row->ab != QQB_CMP_BASELINE && row->case_idx >= gr->first &&
                    row->case_idx < gr->first + gr->n && row->ch.status == QQB_CHANGE_OK &&
                    row->verdict == QQB_NOISY;
    }
    qqb_judgement_free(&j);
    qqb_model_judgement_free(&models);
    return undecided;
}

size_t qqb_judge_incomplete_case(const struct qqb_plan *p, const struct qqb_results *cur,
                                 size_t *first)
{
    size_t n = 0;
    for (size_t ci = 0; ci < p->ncases; ci++) {
        const struct qqb_case_result *c = cur->cases[ci];
        if (p->cases[ci].build == QQB_BUILD_REFERENCE || bench_of(p, ci)->s.allow_dropped ||
            !(qqb_case_dropped(c) > 0))
            continue;
        if (n++ == 0 && first)
            *first = ci;
    }
    return n;
}

void qqb_judgement_free(struct qqb_judgement *j)
{
    free(j->cmp);
    free(j->mem);
    memset(j, 0, sizeof *j);
}
