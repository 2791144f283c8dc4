/* mde.h - the minimum detectable change of a comparison (docs/STATISTICS.md,
 * "The minimum detectable change"): the change, in percent, its test reads
 * beyond the threshold nine times in ten at a given level. NaN where no
 * change reaches the level (no spread, too few pairs). */
#ifndef QQB_MDE_H
#define QQB_MDE_H

#include <stddef.h>

/* Student's t on log figures, with the estimate's SE_LOG and DF: log(1 +
 * t) + (q + z(0.9)) se_log, q the two-sided quantile of LEVEL. */
double qqb_mde_t(double threshold_pct, double se_log, double df, double level);

/* A paired row's MDE (its trimmed mean's t, docs/STATISTICS.md section
 * 12): qqb_mde_t with SE_LOG at its 70% upper confidence bound, se
 * sqrt(df / chi2_0.3(df)), so that the change is caught nine times in ten
 * on the estimate, not only for the true noise; NaN as qqb_mde_t. */
double qqb_mde_trim(double threshold_pct, double se_log, double df, double level);

/* The sign test of NPAIRS pairs whose log ratios scatter by NOISE_PCT (a
 * scaled MAD): the count k of pairs beyond the threshold LEVEL needs
 * (P(B(n, 1/2) >= k) <= LEVEL/2), the chance pi a pair must be beyond it
 * for P(B(n, pi) >= k) >= 0.9, and log(1 + t) + sd z(pi), with sd the
 * noise at its 70% upper confidence bound (the scaled MAD has the
 * efficiency of 0.37 (n - 1) degrees of freedom): at 40 pairs the MAD
 * runs low, and an MDE exact for the noise it reads would be caught only
 * about as often as not nine times in ten. */
double qqb_mde_sign(double threshold_pct, double noise_pct, size_t npairs, double level);

#endif
