/* runlevel.h - the run as the unit: a current run against a stored baseline's runs, with the
 * run-to-run variance shrunk across a suite's keys (docs/STATISTICS.md section 17). Pure maths. */
#ifndef QQB_RUNLEVEL_H
#define QQB_RUNLEVEL_H

#include <stddef.h>
#include <stdint.h>

/* Below this many baseline runs, timing is not gated against a stored
 * baseline: the run-to-run variance is not known well enough. */
#define QQB_MIN_BASE_RUNS 3

/*
 * The prior of an empirical-Bayes shrinkage of variances (Smyth 2004, the
 * moment estimator of limma's squeezeVar): S2[i] > 0 sample variances with
 * DF[i] > 0 degrees of freedom each (entries with S2 <= 0, NaN or DF <= 0
 * are left out). *S0SQ the prior variance and *D0 its degrees of freedom:
 * D0 large (at most the entries' DF together, and QQB_SHRINK_D0_MAX) when
 * the variances agree beyond what their degrees of freedom explain, small
 * when they differ. With fewer than 3
 * usable entries, *D0 = 0 (no shrinkage) and *S0SQ NaN. Returns 0, or -1 on
 * an argument not usable (NULL).
 */
#define QQB_SHRINK_D0_MAX 1000.0
int qqb_shrink_prior(const double *s2, const double *df, size_t n, double *s0sq, double *d0);

/* The suite's common run effect (docs/STATISTICS.md section 20): N rows,
 * row i with NRUNS[i] runs (fewer than 2: left out), their figures
 * FIGS[i][r] stamped IDS[i][r] and their mean MEAN[i]. A stamp's common
 * effect is the median over the rows that have it (3 at least) of their
 * run's figure less their mean; with 3 such stamps or more, *SC2 is those
 * effects' sample variance on *SCDF = stamps - 1 degrees of freedom, and
 * each row's S2[i] its runs' variance once its stamps' effects are taken
 * out, on DF[i] = NRUNS[i] - 1 (else *SC2 = 0 and S2[i] the runs' own).
 * S2 NaN and DF 0 for the rows left out. 0, or -1 out of memory. */
int qqb_common_effect(size_t n, const size_t *nruns, const double *const *figs,
                      const uint32_t *const *ids, const double *mean, double *s2, double *df,
                      double *sc2, double *scdf, double *const *resid);

/* Whether the baseline's run shifts are heavier-tailed than normal: each
 * run of each row (its residual RESID[i][r] once the common effect is out,
 * NRUNS[i] >= 3 of them) judged against the row's other runs as a current
 * run is (their mean, their variance shrunk to the prior S0SQ on D0,
 * Student's t). Returns the chance that normal shifts put one of them as
 * far out as the farthest (Sidak over the cases): below 0.05, the judge
 * takes the shifts' tails as Student's t on QQB_TAIL_DF. */
double qqb_tails_seen(size_t n, const size_t *nruns, const double *const *resid, double s0sq,
                      double d0);

/* The degrees of freedom of the test of a row whose run-to-run variance
 * is known on DF, its standard error SE holding the run-level part FLOOR_SE
 * (the shift this run keeps and the baseline mean's error) and a launch
 * part known on LAUNCH_DF (the successive differences it is from; 0:
 * exactly), KEPT of SE^2 the run shifts' own (this run's and the baseline
 * runs' mean's: tau2 (1 + 1/R)) (docs/STATISTICS.md section 20):
 *   d = SE^4 / (FLOOR^4 / DF + (SE^2 - FLOOR^2)^2 / LAUNCH_DF)
 *       (Welch-Satterthwaite), then, with TAILS (the baseline's runs
 *       showed heavy tails, qqb_tails_seen),
 *   1 / (1/d + f^2 / QQB_TAIL_DF),      f = KEPT / FLOOR_SE^2:
 * run shifts as heavy-tailed as Student's t on QQB_TAIL_DF (a neighbour,
 * a throttle), of which this run's is one draw. */
#define QQB_TAIL_DF 5.0
double qqb_test_df(double df, double kept, double floor_se, double se, double launch_df, int tails);

/* The shrunk variance (D0 S0SQ + DF S2) / (D0 + DF); with D0 = 0, S2. */
double qqb_shrunk_var(double s2, double df, double s0sq, double d0);

/* The inverse of the trigamma function (Smyth's Newton iteration), y > 0. */
double qqb_trigamma_inverse(double y);

/* A baseline's runs of one key: each run's figure and the pooled launch
 * part of a run figure's variance. */
struct qqb_baseruns {
    size_t nruns;         /* runs with a sample */
    size_t ndiff;         /* successive differences within_sd is the median of */
    double mean;          /* mean of the runs' figures (a run's figure: the
                           * Hodges-Lehmann location of its launches' logs) */
    double s2;            /* sample variance of the runs' figures (NaN: < 2 runs) */
    double within_sd;     /* launch noise on the log scale: 1.0484 x the median
                           * |log x(i+1) - log x(i)| of successive launches of a
                           * run, over all runs (a shift between passes or a slow
                           * drift is left to the run-level part) */
    double launch_sd;     /* the launches' spread from the same differences: their
                           * root mean square, the largest 10% left out, over
                           * sqrt(2), scaled to sigma for normal launches (a
                           * bimodal key's two kinds are in it; docs/STATISTICS.md
                           * section 20); never below within_sd */
    double within_var;    /* the launch part of a run figure's variance,
                           * launch_factor x launch_sd^2 x the mean over runs of
                           * c / n, c = pi/3 (1 for a run of 1 or 2 launches) */
    double launch_factor; /* the figure's launch part from the data over the
                           * normal formula's (launch_sd^2 c / n): the runs'
                           * own launch_ratio, or the suite's (the judge sets
                           * it, qqb_baseruns_set_launch) */
    double launch_ratio;  /* the balanced half-samples of each run's passes
                           * (their variance of the run's figure, pooled over
                           * the runs) over launch_sd^2 c / n (NaN: no pass
                           * had two launches) */
};

/* qqb_baseruns_of, with each run's figure into FIGS[0..OUT->nruns-1] and
 * its stamp into IDS (each of room for N; NULL: not wanted), in the order
 * of the stamps. */
int qqb_baseruns_figs(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                      struct qqb_baseruns *out, double *figs, uint32_t *ids);

/* B's launch sd SD (> 0; else B's own) and launch factor RATIO (at
 * least 1: the normal formula is the floor), within_var with them: the
 * judge's, shrunk across the suite. */
void qqb_baseruns_set_launch(struct qqb_baseruns *b, double sd, double ratio);

/* The rounds of pass PASS of PASSES over a group: FROM..TO-1. The first
 * pass takes FIRST rounds, the other passes share the rest of TOTAL as
 * evenly as whole rounds allow (10 rounds in 4 passes from 2: 2, then 2,
 * 3, 3); with one pass, FIRST = TOTAL. The measurement takes its passes
 * so, and a run's figure splits its launches so (docs/STATISTICS.md
 * section 18). 0, or -1 on arguments that make no sense. */
int qqb_pass_rounds(int first, int total, int passes, int pass, int *from, int *to);

/* The runs of samples X (> 0, finite, in the order they ran within each
 * run) stamped with RUN, each run taken in PASSES passes of its REPS
 * repetitions (REPS <= 0: all its launches; the launches split as
 * qqb_pass_rounds from REPS / PASSES): a run's figure is the
 * Hodges-Lehmann location of its launches' logs (the median of their Walsh
 * averages), its launch noise from successive launches within a pass. 0,
 * or -1 (bad input, out of memory). */
int qqb_baseruns_of(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                    struct qqb_baseruns *out);

/*
 * One current run (launches CUR, > 0, in the order they ran, in PASSES
 * passes of REPS repetitions and the plan's rounds) against a baseline's runs B, with the
 * run-to-run variance S2 shrunk to VAR on DF degrees of freedom (qqb_shrunk_var; DF = nruns - 1
 * unshrunk). The current run's figure is the Hodges-Lehmann location of
 * its launches' logs, as the baseline's runs'; under no change it differs
 * from the runs' mean by
 *
 *     est ~ N(0, tau2 + wc + VAR / R),   tau2 = max(0, VAR - B.within_var)
 *
 * tau2 the run shift's variance (what the run keeps and what its passes
 * do not average away), wc the launch part of the current figure's
 * variance (B.launch_factor sd^2 c / n, as B.within_var; sd from its
 * successive launches, as B.launch_sd, pooled with B's by their numbers of
 * differences), VAR/R the uncertainty of the
 * baseline's mean. The test is Student's t on DF.
 */
struct qqb_runtest {
    double est;      /* the current figure - the mean of the runs' figures */
    double se;       /* its standard error */
    double floor_se; /* se with infinitely many current launches */
    double df;       /* degrees of freedom */
    double tau2, wc; /* the parts above */
    double pct;      /* 100 (exp(est) - 1) */
};
int qqb_runtest(const struct qqb_baseruns *b, double var, double df, const double *cur, size_t nc,
                int passes, int reps, struct qqb_runtest *out);

/* The interval of T at CONFIDENCE (two-sided), in percent. */
void qqb_runtest_interval(const struct qqb_runtest *t, double confidence, double *lo, double *hi);

/* One-sided p-values against the minimum effect THRESHOLD_PCT (> 0, on the
 * log scale +/- log(1 + t/100)): *UP for "slower by more than t" (H0: the
 * change <= +t), *DOWN for "faster by more than t" (H0: >= -t). */
void qqb_runtest_p(const struct qqb_runtest *t, double threshold_pct, double *up, double *down);

/* The launches of the current run that bring se down to TARGET_SE, given
 * the current run's launch sd SD_LOG (its launch part (pi/3) SD_LOG^2 / n,
 * as a Hodges-Lehmann figure's) and the parts of T that more launches do
 * not shrink: the least n in [1, MAX], 0 when none does (floor_se at or
 * above TARGET_SE). */
size_t qqb_runtest_launches(const struct qqb_runtest *t, double sd_log, double target_se,
                            size_t max);

/* The baseline runs R that bring the floor of se (tau2 + VAR / R, with
 * infinitely many current launches) under TARGET_SE: least R in
 * [QQB_MIN_BASE_RUNS, MAX], 0 when none. */
size_t qqb_runtest_runs(const struct qqb_runtest *t, double var, double target_se, size_t max);

#endif
