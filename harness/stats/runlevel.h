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
 * D0 large (QQB_SHRINK_D0_MAX) when the variances agree beyond what their
 * degrees of freedom explain, small when they differ. With fewer than 3
 * usable entries, *D0 = 0 (no shrinkage) and *S0SQ NaN. Returns 0, or -1 on
 * an argument not usable (NULL).
 */
#define QQB_SHRINK_D0_MAX 1000.0
int qqb_shrink_prior(const double *s2, const double *df, size_t n, double *s0sq, double *d0);

/* The shrunk variance (D0 S0SQ + DF S2) / (D0 + DF); with D0 = 0, S2. */
double qqb_shrunk_var(double s2, double df, double s0sq, double d0);

/* The inverse of the trigamma function (Smyth's Newton iteration), y > 0. */
double qqb_trigamma_inverse(double y);

/* A baseline's runs of one key: each run's log median and the pooled
 * launch-level variance of one run's log median. */
struct qqb_baseruns {
    size_t nruns;      /* runs with a sample */
    double mean;       /* mean of the runs' log medians */
    double s2;         /* sample variance of the runs' log medians (NaN: < 2 runs) */
    double within_sd;  /* launch noise on the log scale: 1.4826 x the median
                        * |log x - log(its run's median)| over all runs */
    double within_var; /* the launch part of one run's log-median variance,
                        * (pi/2) within_sd^2 / (launches per run, their mean) */
};

/* The runs of samples X (> 0, finite) stamped with RUN. 0, or -1 (bad
 * input, out of memory). */
int qqb_baseruns_of(const double *x, const uint32_t *run, size_t n, struct qqb_baseruns *out);

/*
 * One current run (launches CUR, > 0) against a baseline's runs B, with
 * the run-to-run variance S2 shrunk to VAR on DF degrees of freedom
 * (qqb_shrunk_var; DF = nruns - 1 unshrunk). The current run's figure is
 * its log median; under no change it differs from the runs' mean by
 *
 *     est ~ N(0, tau2 + wc + VAR / R),   tau2 = max(0, VAR - B.within_var)
 *
 * tau2 the run shift's variance, wc the launch part of the current run's
 * log-median variance ((pi/2) sd^2 / n, sd 1.4826 x MAD of its logs), VAR/R
 * the uncertainty of the baseline's mean. The test is Student's t on DF.
 */
struct qqb_runtest {
    double est;      /* log(current median) - mean of the runs' log medians */
    double se;       /* its standard error */
    double floor_se; /* se with infinitely many current launches */
    double df;       /* degrees of freedom */
    double tau2, wc; /* the parts above */
    double pct;      /* 100 (exp(est) - 1) */
};
int qqb_runtest(const struct qqb_baseruns *b, double var, double df, const double *cur, size_t nc,
                struct qqb_runtest *out);

/* The interval of T at CONFIDENCE (two-sided), in percent. */
void qqb_runtest_interval(const struct qqb_runtest *t, double confidence, double *lo, double *hi);

/* One-sided p-values against the minimum effect THRESHOLD_PCT (> 0, on the
 * log scale +/- log(1 + t/100)): *UP for "slower by more than t" (H0: the
 * change <= +t), *DOWN for "faster by more than t" (H0: >= -t). */
void qqb_runtest_p(const struct qqb_runtest *t, double threshold_pct, double *up, double *down);

/* The launches of the current run that bring se down to TARGET_SE, given
 * the current run's launch sd SD_LOG and the parts of T that more launches
 * do not shrink: the least n in [1, MAX], 0 when none does (floor_se at or
 * above TARGET_SE). */
size_t qqb_runtest_launches(const struct qqb_runtest *t, double sd_log, double target_se,
                            size_t max);

/* The baseline runs R that bring the floor of se (tau2 + VAR / R, with
 * infinitely many current launches) under TARGET_SE: least R in
 * [QQB_MIN_BASE_RUNS, MAX], 0 when none. */
size_t qqb_runtest_runs(const struct qqb_runtest *t, double var, double target_se, size_t max);

#endif
