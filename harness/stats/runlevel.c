/* runlevel.c - a current run against a stored baseline's runs (docs/STATISTICS.md section 17):
 * Kalibera and Jones's two levels, the run-to-run variance shrunk across keys. */
#include "runlevel.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>

#include "stats.h"

/* pi/2: the variance of a median of n normal draws is (pi/2) sigma^2 / n. */
#define HALF_PI 1.57079632679489661923

double qqb_trigamma_inverse(double y)
{
    if (!(y > 0))
        return NAN;
    if (y > 1e7)
        return 1.0 / sqrt(y);
    if (y < 1e-6)
        return 1.0 / y;
    double x = 0.5 + 1.0 / y;
    for (int i = 0; i < 50; i++) {
        double tri = gsl_sf_psi_1(x);
        double dif = tri * (1.0 - tri / y) / gsl_sf_psi_n(2, x);
        x += dif;
        if (-dif / x < 1e-8)
            break;
    }
    return x;
}

int qqb_shrink_prior(const double *s2, const double *df, size_t n, double *s0sq, double *d0)
{
    if (!s0sq || !d0 || (n && (!s2 || !df)))
        return -1;
    *s0sq = NAN;
    *d0 = 0;
    double *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        return -1;
    size_t k = 0;
    double tri = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(s2[i] > 0) || !isfinite(s2[i]) || !(df[i] > 0) || !isfinite(df[i]))
            continue;
        double h = df[i] / 2.0;
        e[k++] = log(s2[i]) - gsl_sf_psi(h) + log(h);
        tri += gsl_sf_psi_1(h);
    }
    if (k >= 3) {
        double mean = 0, ss = 0;
        for (size_t i = 0; i < k; i++)
            mean += e[i];
        mean /= (double)k;
        for (size_t i = 0; i < k; i++)
            ss += (e[i] - mean) * (e[i] - mean);
        double excess = ss / (double)(k - 1) - tri / (double)k;
        double d = excess > 0 ? 2.0 * qqb_trigamma_inverse(excess) : QQB_SHRINK_D0_MAX;
        if (!(d < QQB_SHRINK_D0_MAX))
            d = QQB_SHRINK_D0_MAX;
        *d0 = d;
        *s0sq = exp(mean + gsl_sf_psi(d / 2.0) - log(d / 2.0));
    }
    free(e);
    return 0;
}

double qqb_shrunk_var(double s2, double df, double s0sq, double d0)
{
    if (!(d0 > 0) || !isfinite(s0sq))
        return s2;
    if (!isfinite(s2) || !(df > 0))
        return s0sq;
    return (d0 * s0sq + df * s2) / (d0 + df);
}

int qqb_baseruns_of(const double *x, const uint32_t *run, size_t n, struct qqb_baseruns *out)
{
    out->nruns = 0;
    out->mean = out->s2 = out->within_sd = out->within_var = NAN;
    if (!x || !run || n == 0)
        return -1;
    uint32_t maxrun = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(x[i]))
            return -1;
        if (run[i] > maxrun)
            maxrun = run[i];
    }
    size_t nr = (size_t)maxrun + 1;
    double *med = malloc(nr * sizeof *med), *buf = malloc(n * sizeof *buf),
           *dev = malloc(n * sizeof *dev);
    int rc = med && buf && dev ? 0 : -1;
    size_t ndev = 0, used = 0;
    for (size_t r = 0; rc == 0 && r < nr; r++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (run[i] == r)
                buf[k++] = log(x[i]);
        if (k == 0)
            continue;
        double m = qqb_median(buf, k);
        med[used++] = m;
        if (k >= 2)
            for (size_t i = 0; i < k; i++)
                dev[ndev++] = fabs(buf[i] - m);
    }
    if (rc == 0) {
        out->nruns = used;
        out->mean = qqb_mean(med, used);
        if (used >= 2) {
            double ss = 0;
            for (size_t r = 0; r < used; r++)
                ss += (med[r] - out->mean) * (med[r] - out->mean);
            out->s2 = ss / (double)(used - 1);
        }
        if (ndev >= 2) {
            out->within_sd = QQB_MAD_SCALE * qqb_median(dev, ndev);
            out->within_var =
                HALF_PI * out->within_sd * out->within_sd / ((double)n / (double)used);
        }
    }
    free(med);
    free(buf);
    free(dev);
    return rc;
}

/* The log median of CUR and the launch part of its variance. */
static int current_of(const double *cur, size_t nc, double *lmed, double *wc, double *sd)
{
    double *l = malloc((nc ? nc : 1) * sizeof *l);
    if (!l)
        return -1;
    for (size_t i = 0; i < nc; i++) {
        if (!(cur[i] > 0) || !isfinite(cur[i])) {
            free(l);
            return -1;
        }
        l[i] = log(cur[i]);
    }
    *lmed = qqb_median(l, nc);
    *sd = nc >= 2 ? qqb_mad_scaled(l, nc) : 0;
    *wc = HALF_PI * *sd * *sd / (double)nc;
    free(l);
    return 0;
}

int qqb_runtest(const struct qqb_baseruns *b, double var, double df, const double *cur, size_t nc,
                struct qqb_runtest *out)
{
    out->est = out->se = out->floor_se = out->df = out->tau2 = out->wc = out->pct = NAN;
    if (!b || !cur || nc == 0 || b->nruns < 2 || !(var >= 0) || !isfinite(var) || !(df > 0))
        return -1;
    double lmed, sd;
    if (current_of(cur, nc, &lmed, &out->wc, &sd) != 0)
        return -1;
    double within = isfinite(b->within_var) ? b->within_var : 0;
    out->tau2 = var > within ? var - within : 0;
    double fl = out->tau2 + var / (double)b->nruns;
    out->est = lmed - b->mean;
    out->floor_se = sqrt(fl);
    out->se = sqrt(fl + out->wc);
    out->df = df;
    out->pct = 100.0 * (exp(out->est) - 1.0);
    return 0;
}

void qqb_runtest_interval(const struct qqb_runtest *t, double confidence, double *lo, double *hi)
{
    double q = gsl_cdf_tdist_Pinv((1.0 + confidence) / 2.0, t->df);
    *lo = 100.0 * (exp(t->est - q * t->se) - 1.0);
    *hi = 100.0 * (exp(t->est + q * t->se) - 1.0);
}

void qqb_runtest_p(const struct qqb_runtest *t, double threshold_pct, double *up, double *down)
{
    double l = log1p(fabs(threshold_pct) / 100.0);
    if (!(t->se > 0)) {
        *up = t->est > l ? 0.0 : 1.0;
        *down = t->est < -l ? 0.0 : 1.0;
        return;
    }
    *up = gsl_cdf_tdist_Q((t->est - l) / t->se, t->df);
    *down = gsl_cdf_tdist_P((t->est + l) / t->se, t->df);
}

size_t qqb_runtest_launches(const struct qqb_runtest *t, double sd_log, double target_se,
                            size_t max)
{
    double room = target_se * target_se - t->floor_se * t->floor_se;
    if (!(room > 0) || !isfinite(sd_log))
        return 0;
    double n = ceil(HALF_PI * sd_log * sd_log / room);
    if (n < 1)
        n = 1;
    return n <= (double)max ? (size_t)n : 0;
}

size_t qqb_runtest_runs(const struct qqb_runtest *t, double var, double target_se, size_t max)
{
    for (size_t r = QQB_MIN_BASE_RUNS; r <= max; r++)
        if (t->tau2 + var / (double)r < target_se * target_se)
            return r;
    return 0;
}
