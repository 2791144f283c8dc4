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

/* The shrunk variance (D0 S0SQ + DF S2) / (D0 + DF); with D0 = 0, S2. */
double qqb_shrunk_var(double s2, double df, double s0sq, double d0);

/* The inverse of the trigamma function (Smyth's Newton iteration), y > 0. */
double qqb_trigamma_inverse(double y);

/* A baseline's runs of one key: each run's figure and the pooled launch
 * part of a run figure's variance. */
struct qqb_baseruns {
    size_t nruns;      /* runs with a sample */
    size_t ndiff;      /* successive differences within_sd is the median of */
    double mean;       /* mean of the runs' figures (a run's figure: the
                        * Hodges-Lehmann location of its launches' logs) */
    double s2;         /* sample variance of the runs' figures (NaN: < 2 runs) */
    double within_sd;  /* launch noise on the log scale: 1.0484 x the median
                        * |log x(i+1) - log x(i)| of successive launches of a
                        * run, over all runs (a shift between passes or a slow
                        * drift is left to the run-level part) */
    double within_var; /* the launch part of a run figure's variance,
                        * within_sd^2 x the mean over runs of c / n, c = pi/3
                        * (1 for a run of 1 or 2 launches) */
};

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

/* The figure of each run of X stamped RUN (as qqb_baseruns_of takes them)
 * into FIG[r] for r < NFIG: NaN where run r has no launch. 0, or -1 (bad
 * input, out of memory). */
int qqb_run_figures(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                    double *fig, size_t nfig);

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
 * variance (sd^2 c / n, as B.within_var; sd from its
 * successive launches, as B.within_sd, pooled with B's by their numbers of
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
