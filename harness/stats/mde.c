/* mde.c - the minimum detectable change of a comparison (mde.h). */
#include "mde.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

#define Z90 1.2815515655446004 /* the normal's 0.9 quantile */

double qqb_mde_t(double threshold_pct, double se_log, double df, double level)
{
    if (!(level > 0 && level < 1) || !(se_log > 0 && df > 0))
        return NAN;
    double q = gsl_cdf_tdist_Qinv(level / 2, df);
    return 100.0 * expm1(log1p(threshold_pct / 100.0) + (q + Z90) * se_log);
}

double qqb_mde_trim(double threshold_pct, double se_log, double df, double level)
{
    if (!(df > 0))
        return NAN;
    return qqb_mde_t(threshold_pct, se_log * sqrt(df / gsl_cdf_chisq_Pinv(0.3, df)), df, level);
}

double qqb_mde_sign(double threshold_pct, double noise_pct, size_t npairs, double level)
{
    unsigned n = npairs < 100000 ? (unsigned)npairs : 100000, k = 1;
    if (!(level > 0 && level < 1) || !(noise_pct > 0) || n < 2)
        return NAN;
    double df = 0.37 * (n - 1.0);
    double sd = noise_pct / 100.0 * sqrt(df / gsl_cdf_chisq_Pinv(0.3, df));
    while (k <= n && gsl_cdf_binomial_Q(k - 1, 0.5, n) > level / 2)
        k++;
    if (k > n)
        return NAN;
    double lo = 0.5, hi = 1.0;
    for (int it = 0; it < 60; it++) {
        double mid = (lo + hi) / 2;
        if (gsl_cdf_binomial_Q(k - 1, mid, n) >= 0.9)
            hi = mid;
        else
            lo = mid;
    }
    if (!(hi < 1.0))
        return NAN;
    return 100.0 * expm1(log1p(threshold_pct / 100.0) + sd * gsl_cdf_ugaussian_Pinv(hi));
}
