/* stats.h - qqbench statistics: robust summaries, the change interval, the verdict.
 *
 * Pure functions: no I/O, no globals, inputs are never modified. The method and
 * its small-n rules are in docs/STATISTICS.md.
 *
 * A "sample" is one number per launch of a benchmark (cycles of a state key per
 * launch, cycles per hit, ...). Lower is better: more cycles means regressed.
 */
#ifndef QQB_STATS_H
#define QQB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------
 * Summaries. x is read, never reordered. Any NaN in x gives NaN.
 * n = 0: every summary is NaN (undefined).
 * n = 1: median/min/max/mean/quantile are x[0]; qqb_mad_raw and
 *        qqb_mad_scaled are 0 (the one value is its own median);
 *        qqb_noise_pct is NaN (a spread needs 2 launches).
 * Functions that need scratch space return NaN if allocation fails.
 * --------------------------------------------------------------------- */

double qqb_median(const double *x, size_t n);
double qqb_min(const double *x, size_t n);
double qqb_max(const double *x, size_t n);
double qqb_mean(const double *x, size_t n);
/* Quantile q in [0,1] by linear interpolation between order statistics
 * (Hyndman-Fan type 7, as gsl_stats_quantile_from_sorted_data and R's
 * default); NaN if q is outside [0,1]. q = 0.5 is the median. */
double qqb_quantile(const double *x, size_t n, double q);
/* Median absolute deviation from the median, unscaled: median |x - median(x)|. */
double qqb_mad_raw(const double *x, size_t n);
/* The same times QQB_MAD_SCALE, so it estimates the standard deviation of
 * normal data. */
#define QQB_MAD_SCALE 1.4826
double qqb_mad_scaled(const double *x, size_t n);

/* Robust relative spread in percent, the number a baseline stores:
 * 100 * qqb_mad_scaled(x) / qqb_median(x). NaN when n < 2 or the median is
 * not positive. */
double qqb_noise_pct(const double *x, size_t n);

/* The summaries of one metric's launches that the reports give, made once
 * (judge/judge_figures.c): qqb_median, qqb_mad_scaled, qqb_min and
 * qqb_noise_pct of X, with their rules for n = 0, 1 and NaN. */
struct qqb_summary {
    double median, mad, min, noise_pct;
};
void qqb_summarize(const double *x, size_t n, struct qqb_summary *out);

/* Level-shift indicator of one side: sort x and return the largest ratio
 * x(s+1)/x(s) of adjacent order statistics that leaves at least 2 launches on
 * each side of the gap (a single outlier is not a level). 1.0 when n < 4 or no
 * gap; NaN on invalid input (n = 0, NaN, non-positive values). A value at or
 * above QQB_LEVEL_SHIFT_RATIO means the launches fall into two groups
 * (a level shift of the machine or a bimodal program). Advisory only. */
#define QQB_LEVEL_SHIFT_RATIO 1.10
double qqb_level_shift(const double *x, size_t n);

/* ---------------------------------------------------------------------
 * Mann-Whitney null distribution (no ties), exact.
 * U counts the pairs (i, j) with y_j > x_i for n1 x's and n2 y's;
 * 0 <= U <= n1*n2, symmetric about n1*n2/2.
 * --------------------------------------------------------------------- */

/* Fill pmf[0 .. n1*n2] with P(U = u) under H0, by the recurrence
 * p(u; i, j) = i/(i+j) p(u; i-1, j) + j/(i+j) p(u - i; i, j-1).
 * pmf must hold n1*n2 + 1 doubles. Returns 0, or -1 if n1 or n2 is 0, the
 * product overflows, or allocation fails. Cost O((n1*n2)^2 / 4) time,
 * O(min(n1,n2) * n1*n2 / 2) memory: meant for n1*n2 up to a few thousand. */
int qqb_mw_pmf(size_t n1, size_t n2, double *pmf);

/* Two-sided critical value: the largest u with P(U <= u) <= alpha/2 under the
 * exact null distribution (reject "no shift" when min(U, n1*n2-U) <= u), as in
 * the printed tables (n1 = n2 = 5, alpha 0.05 -> 2; 10/10 -> 23). Returns -1
 * when no such u exists (too few samples for that alpha, e.g. 2 vs 2) and -2
 * on invalid input or allocation failure. */
long qqb_mw_critical(size_t n1, size_t n2, double alpha);

/* Above this many pairs (nb*nc), qqb_change uses the normal approximation. */
#define QQB_MW_EXACT_MAX 2500

/* ---------------------------------------------------------------------
 * The change of cur against base.
 * --------------------------------------------------------------------- */

enum qqb_change_status {
    QQB_CHANGE_OK = 0,
    QQB_CHANGE_TOO_FEW,        /* a side has fewer than QQB_MIN_REPS samples */
    QQB_CHANGE_BAD_VALUE,      /* a sample is non-finite or <= 0 */
    QQB_CHANGE_BAD_CONFIDENCE, /* confidence not strictly between 0 and 1 */
    QQB_CHANGE_NOMEM           /* allocation failed */
};

/* Fewest launches a side may have for any comparison (Google Benchmark's
 * rule: no aggregate from fewer than 2 good runs). */
#define QQB_MIN_REPS 2

struct qqb_change {
    enum qqb_change_status status;
    const char *reason; /* static text; "" when status is OK */
    size_t nb, nc;      /* launches per side */

    /* Relative change of cur vs base in percent: +5 means cur is 5% slower
     * (more cycles). pct is the Hodges-Lehmann estimate of the ratio
     * (exp of the median of all log(cur_j) - log(base_i)); [lo, hi] its
     * distribution-free interval from the Mann-Whitney distribution. */
    double pct, lo, hi;
    double confidence; /* requested level, e.g. 0.95 */
    double achieved;   /* coverage of [lo, hi] under the model, >= confidence
                        * when ci_ok (slightly below it is possible only
                        * with the normal approximation) */
    int ci_ok;         /* 0: too few launches for the requested level; [lo, hi]
                        * is then the widest interval (smallest and largest
                        * pairwise ratio) and qqb_verdict_of says noisy */
    long k;            /* [lo, hi] = [D(k), D(N+1-k)] of the N = nb*nc sorted
                        * pairwise log differences D (1-based) */
    int exact;         /* 1: k from the exact null distribution (nb*nc <=
                        * QQB_MW_EXACT_MAX); 0: from the normal approx. */

    double u;       /* Mann-Whitney U: pairs with cur > base, ties count 1/2 */
    double p_value; /* two-sided Mann-Whitney p for "no change" (exact when
                     * exact and no ties; else normal with tie and
                     * continuity corrections) */
    int ties;       /* 1 when some cur value equals some base value */

    double median_base, median_cur;
    double ratio_pct;   /* 100 * (median_cur / median_base - 1), for reports */
    double spread;      /* max/min of the pooled samples (>= 1) */
    double level_shift; /* max of qqb_level_shift over the two sides */
    int paired;         /* 1: from qqb_change_paired (then k, exact, u,
                         * p_value and ties refer to the signed-rank
                         * method, see there); 0: from qqb_change */
};

/* Compute the change of cur against base at the given confidence (e.g. 0.95).
 * Samples must be finite and > 0 (the method works on their logarithms).
 * seed: accepted for interface stability; the Hodges-Lehmann/Mann-Whitney
 * method is deterministic, so the result never depends on it.
 * Returns 0 on success; -1 on error with out->status and out->reason set
 * (and every number NaN). out must not be NULL. */
int qqb_change(const double *base, size_t nb, const double *cur, size_t nc, double confidence,
               uint64_t seed, struct qqb_change *out);

/* ---------------------------------------------------------------------
 * Paired comparison (interleaved A/B: launch i of base and launch i of cur
 * ran adjacent in time). docs/STATISTICS.md, "Paired comparisons".
 * --------------------------------------------------------------------- */

/* Wilcoxon signed-rank null distribution (no zeros, no ties): W+ is the sum
 * of the ranks of |d_i| over the positive d_i; 0 <= W+ <= n(n+1)/2,
 * symmetric about n(n+1)/4. Fill pmf[0 .. n(n+1)/2] with P(W+ = w) by the
 * recurrence p(w; i) = (p(w; i-1) + p(w-i; i-1)) / 2, p(w; 0) = [w == 0]
 * (rank i is positive or not with probability 1/2 each). pmf must hold
 * n(n+1)/2 + 1 doubles. Returns 0, or -1 if n is 0, the size overflows or
 * allocation fails. Cost O(n^3 / 4) time, O(n^2 / 4) scratch. */
int qqb_signrank_pmf(size_t n, double *pmf);

/* Two-sided critical value: the largest w with P(W+ <= w) <= alpha/2 under
 * the exact null distribution (reject "no shift" when min(W+, n(n+1)/2 - W+)
 * <= w), as in the printed tables (alpha 0.05: n = 6 -> 0, 8 -> 3, 10 -> 8,
 * 20 -> 52). Returns -1 when no such w exists (n <= 5 at alpha 0.05) and -2
 * on invalid input or allocation failure. Exact for every n. */
long qqb_signrank_critical(size_t n, double alpha);

/* Up to this many pairs, qqb_change_paired uses the exact signed-rank
 * distribution; above it, the normal approximation. */
#define QQB_SR_EXACT_MAX 300

/* The K-th smallest (K from 1) of the N(N+1)/2 Walsh averages
 * (X[i] + X[j]) / 2, i <= j, of SORTED X[0..N-1] (ascending, N >= 1, K
 * at most N(N+1)/2, every value finite and below DBL_MAX / 4 in size: the
 * callers pass logs of checked samples), found without making them: O(N)
 * memory, O(N) time a step of a bisection on the value. */
double qqb_walsh_kth(const double *sorted, size_t n, size_t k);

/* The Hodges-Lehmann location of X[0..N-1] (any order, finite as above):
 * the median of its Walsh averages. NaN on N = 0, N too large to count
 * its averages, or out of memory. */
double qqb_hl_location(const double *x, size_t n);

/* Change of cur against base from n PAIRS (base[i], cur[i] measured adjacent
 * in time). With d_i = log(cur[i] / base[i]):
 *   pct     Hodges-Lehmann estimate: 100 (exp(median of the n(n+1)/2 Walsh
 *           averages (d_i + d_j)/2, i <= j) - 1);
 *   lo, hi  the distribution-free interval [A(k), A(M+1-k)] of the M sorted
 *           Walsh averages A (1-based), k = signed-rank critical value + 1
 *           (exact when n <= QQB_SR_EXACT_MAX, else normal approximation);
 *           with too few pairs for the level (n <= 5 at 95%) the widest
 *           interval [min d, max d] (k = 1) with ci_ok = 0;
 *   achieved, ci_ok, k, exact: as in qqb_change, for the signed-rank
 *           distribution of n pairs;
 *   u       W+ of the Wilcoxon signed-rank test: zero differences dropped,
 *           tied |d| given mid-ranks;
 *   p_value two-sided signed-rank p for "no change": exact (distribution of
 *           the n' nonzero differences) when there are no tied |d| and
 *           n' <= QQB_SR_EXACT_MAX, else normal with tie and continuity
 *           corrections; 1 when every difference is 0;
 *   ties    1 when some d_i is 0 or two nonzero |d_i| are equal;
 *   nb = nc = n; paired = 1; medians, ratio_pct, spread and level_shift
 *           of the two sides exactly as in qqb_change.
 * Zero differences stay in the interval (as Walsh averages they are
 * ordinary values). Errors as qqb_change: -1 with status and reason when n <
 * QQB_MIN_REPS, a value is non-finite or <= 0, the confidence is not
 * strictly between 0 and 1, or memory runs out. Deterministic.
 * qqb_verdict_guarded does not apply its level-shift rule to a paired
 * result: a level shift that hits both members of a pair cancels in d. */
int qqb_change_paired(const double *base, const double *cur, size_t n, double confidence,
                      struct qqb_change *out);

/* As qqb_change_paired, but the estimate is the median pair ratio and the
 * interval the sign test's: [d(k), d(n+1-k)] of the sorted log ratios, k the
 * largest with 2 P(B(n,1/2) <= k-1) <= 1 - confidence (n = 10 at 95%: k = 2,
 * coverage 97.9%; fewer than 6 pairs: no interval, ci_ok = 0). Robust to a
 * launch that a whole-launch slowdown hit alone: one wild pair on either side
 * moves neither bound, where it drags a bound of the signed-rank interval
 * (measured: +5% planted, one such pair in 10 -> [-27.1, +5.2] signed-rank,
 * sign test unaffected). The harness uses this for interleaved variants. The
 * p-value and u are the signed-rank test's. */
int qqb_change_paired_sign(const double *base, const double *cur, size_t n, double confidence,
                           struct qqb_change *out);

/* The share trimmed from each end, and the fewest pairs for an interval
 * of the trimmed mean (docs/STATISTICS.md section 12). */
#define QQB_TRIM           0.2
#define QQB_TRIM_MIN_PAIRS 6

/* The 20% trimmed mean TM of X[0..N-1] (any order; g = floor(0.2 N) cut
 * from each end, h = N - 2g kept, as R's mean(x, trim = 0.2)), Yuen's
 * standard error SE = sqrt(SS_w / (h (h - 1))) (SS_w the sum of squares of
 * the winsorized values about their mean) and DF = h - 1. 0, or -1 (all
 * three NaN) when h < 2 or memory runs out. */
int qqb_trimmed_t(const double *x, size_t n, double *tm, double *se, double *df);

/* The interval TM -/+ t(DF, (1 + LEVEL) / 2) SE of the log ratio, as
 * percent changes into LO and HI. */
void qqb_trim_interval(double tm, double se, double df, double level, double *lo, double *hi);

/* One-sided p-values of the trimmed t against +/-THRESHOLD_PCT on the log
 * ratios D: UP = P(T >= (tm - log(1 + t)) / se), DOWN = P(T <= (tm +
 * log(1 + t)) / se). 2 min(UP, DOWN) <= a exactly when the 1 - a interval
 * of qqb_trim_interval lies wholly beyond the threshold. Both 1 below
 * QQB_TRIM_MIN_PAIRS pairs. */
void qqb_trim_p_beyond(const double *d, size_t n, double threshold_pct, double *up, double *down);

/* As qqb_change_paired_sign, but the estimate is the 20% trimmed mean of
 * the log pair ratios and the interval its t interval at CONFIDENCE
 * (qqb_trimmed_t, qqb_trim_interval); *SE and *DF its standard error (log)
 * and degrees of freedom. Efficient under normal noise (about 0.94 of the
 * mean's) and robust to a launch a whole-launch slowdown hit alone: up to
 * 20% of the pairs a side are cut. Fewer than QQB_TRIM_MIN_PAIRS pairs: the
 * widest interval, ci_ok = 0, *SE and *DF NaN. The harness uses this for
 * interleaved variants and the reference build. */
int qqb_change_paired_trim(const double *base, const double *cur, size_t n, double confidence,
                           struct qqb_change *out, double *se, double *df);

/* Level-shift indicator of the pair ratios: qqb_level_shift of
 * cur[i]/base[i]. Near 1 when slow periods hit both members of a pair
 * (pairing cancels them); >= QQB_LEVEL_SHIFT_RATIO when a group of at least
 * two pairs has ratios at least 10% away from the rest, e.g. slow periods
 * that hit only one member of several pairs. Advisory (no verdict uses it);
 * NaN on invalid input, 1.0 when n < 4. */
double qqb_pair_level_shift(const double *base, const double *cur, size_t n);

/* ---------------------------------------------------------------------
 * Verdicts.
 * --------------------------------------------------------------------- */

/* Lower is better: more cycles = regressed. */
/* UNRESOLVED: both figures are at or below the counter's resolution (qq_resolution_ticks) of
 * zero (net ticks per hit of a state around almost nothing): neither can be
 * told from zero, so no change between them means anything. Set by the
 * judge, never by qqb_verdict_of; like unchanged, it fails nothing. */
enum qqb_verdict {
    QQB_UNCHANGED,
    QQB_IMPROVED,
    QQB_REGRESSED,
    QQB_NOISY,
    QQB_UNRESOLVED,
    QQB_INCOMPLETE, /* a launch dropped events: the figures undercount */
    QQB_BLIND,      /* a baseline row this gate cannot see at the suite's threshold: the
                     * interval is within the grown threshold but not within the suite's,
                     * or the baseline's run-to-run bound is beyond threshold_bound (not
                     * judged). Set by the judge (docs/STATISTICS.md section 13). */
    QQB_NVERDICTS
};

/* "unchanged", "improved", "regressed", "noisy", "unresolved",
 * "incomplete", "blind"; "?" for other values. */
const char *qqb_verdict_name(enum qqb_verdict v);

/* With t = |threshold_pct|:
 *   regressed  when lo >  +t   (interval wholly above +t),
 *   improved   when hi <  -t   (interval wholly below -t),
 *   unchanged  when -t <= lo and hi <= +t,
 *   noisy      otherwise,
 * and noisy whenever c is NULL, c->status is not OK, !c->ci_ok, or a bound or
 * the threshold is NaN. */
enum qqb_verdict qqb_verdict_of(const struct qqb_change *c, double threshold_pct);

/* As qqb_verdict_of, but also noisy when either side shows a level shift
 * (c->level_shift >= QQB_LEVEL_SHIFT_RATIO): launches in two groups, so no
 * confident verdict of any kind, "unchanged" included. For a paired result
 * (c->paired) the level-shift rule is not applied: the same as
 * qqb_verdict_of. */
enum qqb_verdict qqb_verdict_guarded(const struct qqb_change *c, double threshold_pct);

/* The threshold in percent. fixed_pct is the floor. When noise_multiple > 0
 * and baseline_noise_pct is finite and >= 0, the result is
 * max(fixed_pct, noise_multiple * baseline_noise_pct); otherwise fixed_pct.
 * Negative or NaN fixed_pct counts as 0. */
double qqb_threshold(double fixed_pct, double noise_multiple, double baseline_noise_pct);

/* Exact comparison for memory (bytes, counts): +1 regressed when
 * cur > base + tolerance, -1 improved when cur < base - tolerance, else 0.
 * No overflow for any inputs. */
int qqb_mem_verdict(uint64_t base, uint64_t cur, uint64_t tolerance);

/* ---------------------------------------------------------------------
 * Verdicts symmetric on the log scale, run-to-run spread, pair noise
 * (docs/STATISTICS.md sections 13-15).
 * --------------------------------------------------------------------- */

/* As qqb_verdict_of, but `improved` needs hi below the mirror image of +t
 * on the log scale, 100 (1 / (1 + t/100) - 1) (-50% for t = 100%), so a
 * large threshold cannot make `improved` impossible. */
enum qqb_verdict qqb_verdict_sym(const struct qqb_change *c, double threshold_pct);

/* The verdict at the benchmark's threshold T, the minimum effect of
 * interest (docs/STATISTICS.md section 13): noise widens the interval,
 * never the threshold. qqb_verdict_sym at T: an interval wholly beyond +/-T
 * decides however noisy the key; except that an interval across +/-T that
 * lies within +/-HIDE (the change the key's noise hides: noise_multiple x
 * its noise, held at the bound; at most T, 0 or NaN: none) is blind. */
enum qqb_verdict qqb_verdict_hidden(const struct qqb_change *c, double t, double hide);

/* Noise of paired log ratios D (d_i = log(cur_i / base_i)): 100 x 1.4826 x
 * MAD(d), the spread that pairing leaves. NaN when n < 2. */
double qqb_pair_noise_pct(const double *d, size_t n);

#endif /* QQB_STATS_H */
