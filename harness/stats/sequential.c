/* sequential.c - O'Brien-Fleming boundaries by numerical integration, and the sign test
 * against a minimum effect. */
#include "sequential.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#define M_PI_VAL 3.14159265358979323846

/* Grid points a unit of the walk; the density is smooth, so the trapezoid
 * rule on this grid is exact to about 1e-6 in the crossing probability. */
#define GS_PER_UNIT 24

double qqb_gs_crossing(double b, size_t k)
{
    if (!(b > 0) || k == 0)
        return NAN;
    double h = 1.0 / GS_PER_UNIT;
    size_t m = (size_t)ceil(b / h);
    size_t npts = 2 * m + 1;
    double *f = malloc(npts * sizeof *f), *g = malloc(npts * sizeof *g);
    double *w = malloc(npts * sizeof *w), *kern = malloc(npts * sizeof *kern);
    if (!f || !g || !w || !kern) {
        free(f);
        free(g);
        free(w);
        free(kern);
        return NAN;
    }
    /* Points x_i = -b + step i, the ends on the boundary; the density after
     * look 1 is the normal's, cut at the boundary; each further look
     * convolves it with the normal (KERN, by distance in points). */
    double step = 2.0 * b / (double)(npts - 1), stay = 0, norm = 1.0 / sqrt(2.0 * M_PI_VAL);
    for (size_t i = 0; i < npts; i++) {
        double x = -b + step * (double)i, d = step * (double)i;
        f[i] = exp(-0.5 * x * x) * norm;
        w[i] = (i == 0 || i == npts - 1 ? 0.5 : 1.0) * step;
        kern[i] = d < 9.0 ? exp(-0.5 * d * d) * norm : 0.0;
    }
    for (size_t look = 2; look <= k; look++) {
        for (size_t i = 0; i < npts; i++) {
            double s = 0;
            for (size_t j = 0; j < npts; j++)
                s += w[j] * f[j] * kern[i > j ? i - j : j - i];
            g[i] = s;
        }
        double *t = f;
        f = g;
        g = t;
    }
    for (size_t i = 0; i < npts; i++)
        stay += w[i] * f[i];
    free(f);
    free(g);
    free(w);
    free(kern);
    return 1.0 - stay;
}

/* One boundary per (alpha, k): bisection costs milliseconds, a judgement
 * asks for the same few many times. */
struct gs_memo {
    double alpha;
    size_t k;
    double c;
};
#define GS_MEMO 512
static struct gs_memo gs_memo[GS_MEMO];
static size_t gs_nmemo;

/* The constant C of the boundary |S_j| >= C sqrt(K) (|Z_j| >= C sqrt(K/j)). */
static double gs_constant(double alpha, size_t k)
{
    for (size_t i = 0; i < gs_nmemo; i++)
        if (gs_memo[i].alpha == alpha && gs_memo[i].k == k)
            return gs_memo[i].c;
    double lo = gsl_cdf_ugaussian_Qinv(alpha / 2.0), hi = lo + 3.0;
    double sk = sqrt((double)k);
    for (int it = 0; it < 60 && hi - lo > 1e-7; it++) {
        double mid = (lo + hi) / 2, p = qqb_gs_crossing(mid * sk, k);
        if (!isfinite(p))
            return NAN;
        if (p > alpha)
            lo = mid;
        else
            hi = mid;
    }
    double c = hi;
    if (gs_nmemo < GS_MEMO)
        gs_memo[gs_nmemo++] = (struct gs_memo){alpha, k, c};
    return c;
}

double qqb_gs_nominal(double alpha, size_t k_at, size_t k)
{
    if (!(alpha > 0 && alpha < 1) || k == 0 || k_at == 0 || k_at > k)
        return NAN;
    if (k == 1)
        return alpha;
    double c = gs_constant(alpha, k);
    if (!isfinite(c))
        return NAN;
    return 2.0 * gsl_cdf_ugaussian_Q(c * sqrt((double)k / (double)k_at));
}

void qqb_sign_p_beyond(const double *d, size_t n, double threshold_pct, double *up, double *down)
{
    double l = log1p(fabs(threshold_pct) / 100.0);
    unsigned nu = 0, nd = 0;
    for (size_t i = 0; i < n; i++) {
        nu += d[i] > l;
        nd += d[i] < -l;
    }
    /* P(X >= k) = Q(k - 1) for k >= 1; 1 for k = 0. */
    *up = nu ? gsl_cdf_binomial_Q(nu - 1, 0.5, (unsigned)n) : 1.0;
    *down = nd ? gsl_cdf_binomial_Q(nd - 1, 0.5, (unsigned)n) : 1.0;
}
