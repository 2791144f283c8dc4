/* runlevel.c - a current run against a stored baseline's runs (docs/STATISTICS.md section 17):
 * Kalibera and Jones's two levels, the run-to-run variance shrunk across keys. */
#include "runlevel.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>

#include "stats.h"

/* A standard deviation from the median of successive differences: for
 * independent normal launches |x(i+1) - x(i)| has median 0.67449 sqrt(2)
 * sigma. Successive launches share the stretch of time they ran in, so a
 * shift of the machine between passes, or a slow drift, stays out of the
 * launch part (a few differences across a pass's border move the median
 * little). */
#define QQB_SUCC_SCALE 1.0483579

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
    double tri = 0, dfsum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(s2[i] > 0) || !isfinite(s2[i]) || !(df[i] > 0) || !isfinite(df[i]))
            continue;
        dfsum += df[i];
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
        /* The prior is known no better than the rows it came from: its
         * degrees of freedom are at most theirs together (limma has
         * thousands of rows and needs no such cap; a suite has tens). */
        if (d > dfsum)
            d = dfsum;
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

int qqb_pass_rounds(int first, int total, int passes, int pass, int *from, int *to)
{
    if (passes < 1 || pass < 0 || pass >= passes || first < 1 || total < first ||
        (passes == 1 && first != total))
        return -1;
    if (pass == 0) {
        *from = 0;
        *to = first;
        return 0;
    }
    long long rest = total - first;
    *from = first + (int)(rest * (pass - 1) / (passes - 1));
    *to = first + (int)(rest * pass / (passes - 1));
    return 0;
}

/* The variance factor of the Hodges-Lehmann location of K normal draws,
 * over sigma^2 / K: 1 for one or two (it is their mean), pi/3 from three
 * (its efficiency against the mean is 3/pi). */
#define HL_FACTOR 1.04719755119659775 /* pi / 3 */
static double hl_factor(size_t k)
{
    return k <= 2 ? 1.0 : HL_FACTOR;
}

/* One run's launches L[0..N-1] (logs, in the order they ran) in PASSES
 * passes, its first pass REPS / PASSES of them (REPS <= 0: N; the
 * measurement's first pass takes the repetitions' share, and the plan's
 * rounds go to the others): its figure (the Hodges-Lehmann location of all its launches,
 * *FIG), the factor K of its launch part (sigma^2 K), and the successive
 * differences within each pass appended to DEV[*NDEV] (all of them, when
 * each pass has one launch). Hodges-Lehmann, not
 * the median: the passes' shifts average in it almost as in a mean (its
 * efficiency is 0.955 where the median's is 0.64), and an outlying launch
 * moves it little (measured on real runs, docs/STATISTICS.md section 18). */
static int run_figure(const double *l, size_t n, int passes, int reps, double *fig, double *k,
                      double *dev, size_t *ndev)
{
    int base = reps > 0 && reps < (int)n ? reps : (int)n;
    int np = passes < 1 ? 1 : passes > base ? base : passes;
    /* A pass of one launch has no difference within it: where every pass
     * has one (no more repetitions than passes), the run's successive
     * launches across passes are its noise, a pass's shift with it. */
    if (np == base)
        np = 1;
    int first = np > 1 ? base / np : (int)n;
    for (int p = 0; p < np; p++) {
        int from = 0, to = (int)n;
        if (qqb_pass_rounds(first, (int)n, np, p, &from, &to) != 0 || from < 0 || to > (int)n)
            continue;
        for (int i = from + 1; i < to; i++)
            dev[(*ndev)++] = fabs(l[i] - l[i - 1]);
    }
    *fig = qqb_hl_location(l, n);
    *k = hl_factor(n) / (double)n;
    return isfinite(*fig) ? 0 : -1;
}

int qqb_baseruns_of(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                    struct qqb_baseruns *out)
{
    out->nruns = out->ndiff = 0;
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
    double *med = malloc(nr * sizeof *med), *l = malloc(n * sizeof *l),
           *dev = malloc(n * sizeof *dev);
    int rc = med && l && dev ? 0 : -1;
    size_t ndev = 0, used = 0;
    double ksum = 0;
    for (size_t r = 0; rc == 0 && r < nr; r++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (run[i] == r)
                l[k++] = log(x[i]);
        if (k == 0)
            continue;
        double kr;
        if (run_figure(l, k, passes, reps, &med[used++], &kr, dev, &ndev) != 0)
            rc = -1;
        ksum += kr;
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
        out->ndiff = ndev;
        if (ndev >= 1) {
            out->within_sd = QQB_SUCC_SCALE * qqb_median(dev, ndev);
            out->within_var = out->within_sd * out->within_sd * ksum / (double)used;
        }
    }
    free(med);
    free(l);
    free(dev);
    return rc;
}

int qqb_run_figures(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                    double *fig, size_t nfig)
{
    if (!x || !run || !fig)
        return -1;
    double *l = malloc((n ? n : 1) * sizeof *l), *dev = malloc((n ? n : 1) * sizeof *dev);
    int rc = l && dev ? 0 : -1;
    for (size_t r = 0; rc == 0 && r < nfig; r++) {
        size_t k = 0, ndev = 0;
        double kr;
        for (size_t i = 0; i < n; i++)
            if (run[i] == r)
                l[k++] = x[i] > 0 && isfinite(x[i]) ? log(x[i]) : NAN;
        fig[r] = NAN;
        for (size_t i = 0; i < k; i++)
            if (!isfinite(l[i]))
                rc = -1;
        if (rc == 0 && k > 0 && run_figure(l, k, passes, reps, &fig[r], &kr, dev, &ndev) != 0)
            rc = -1;
    }
    free(l);
    free(dev);
    return rc;
}

/* The figure of the current run CUR (in the order it ran, PASSES passes)
 * and the launch part of its variance, from its launch noise pooled with
 * the baseline's B (*SD): a run of ten launches has six differences within
 * its passes, too few to know its noise alone. */
static int current_of(const struct qqb_baseruns *b, const double *cur, size_t nc, int passes,
                      int reps, double *fig, double *wc, double *sd)
{
    size_t sz = nc ? nc : 1;
    double *l = malloc(sz * sizeof *l), *dev = malloc(sz * sizeof *dev);
    int rc = l && dev ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nc; i++) {
        if (!(cur[i] > 0) || !isfinite(cur[i]))
            rc = -1;
        else
            l[i] = log(cur[i]);
    }
    if (rc == 0) {
        size_t ndev = 0;
        double k;
        if (run_figure(l, nc, passes, reps, fig, &k, dev, &ndev) != 0)
            rc = -1;
        double own = ndev >= 1 ? QQB_SUCC_SCALE * qqb_median(dev, ndev) : 0;
        double nb = isfinite(b->within_sd) ? (double)b->ndiff : 0;
        *sd = sqrt((nb * (nb > 0 ? b->within_sd * b->within_sd : 0) + (double)ndev * own * own) /
                   (nb + (double)ndev > 0 ? nb + (double)ndev : 1));
        *wc = *sd * *sd * k;
    }
    free(l);
    free(dev);
    return rc;
}

int qqb_runtest(const struct qqb_baseruns *b, double var, double df, const double *cur, size_t nc,
                int passes, int reps, struct qqb_runtest *out)
{
    out->est = out->se = out->floor_se = out->df = out->tau2 = out->wc = out->pct = NAN;
    if (!b || !cur || nc == 0 || b->nruns < 2 || !(var >= 0) || !isfinite(var) || !(df > 0))
        return -1;
    double lmed, sd;
    if (current_of(b, cur, nc, passes, reps, &lmed, &out->wc, &sd) != 0)
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
    double n = ceil(HL_FACTOR * sd_log * sd_log / room);
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
