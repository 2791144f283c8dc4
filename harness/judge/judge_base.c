/* judge_base.c - judge: the rows against the stored baseline (set up here, judged by runs in
 * judge_runs.c), with the threshold, resolution, counts and completeness every row shares. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_rows.h"
#include "qq_file.h"
#include "match.h"
#include "judge_runs.h"
#include "sequential.h"

const struct qqb_bench *qqb_judge_bench_of(const struct qqb_plan *p, size_t ci)
{
    return &p->suite->bench[p->cases[ci].bench];
}

/* The nominal level of ROW at family level A: A itself, or the boundary
 * of its look. */
double qqb_judge_row_level(const struct qqb_cmp *row, double a)
{
    return row->looks > 1 ? qqb_gs_nominal(a, row->look, row->looks) : a;
}

/* ---------------------------------------------------------------------
 * Thresholds.
 * --------------------------------------------------------------------- */

/* The threshold is the benchmark's own: the minimum effect of interest,
 * which noise never grows (docs/STATISTICS.md section 13). What
 * noise_multiple x the key's noise asks for, held at the bound, is the
 * change its noise hides (hide_pct), where it is above the threshold. */
void qqb_judge_set_threshold(struct qqb_cmp *row, const struct qqb_settings *s, double noise_pct)
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
int qqb_judge_baseline_key(const struct qqb_bench *b, const char *key)
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
void qqb_judge_counts(struct qqb_cmp *row, const struct qqb_case_result *cur,
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
void qqb_judge_resolution(struct qqb_cmp *row, const struct qqb_case_result *a,
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
void qqb_judge_completeness(struct qqb_cmp *row, const struct qqb_settings *s,
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
int qqb_judge_baseline_row(size_t ci, size_t mi, const struct qqb_case_result *c,
                           const struct qqb_case_result *bc, size_t bi, struct qqb_cmp *row,
                           int *few)
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
