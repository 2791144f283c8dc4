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

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int qqb_common_effect(size_t n, const size_t *nruns, const double *const *figs,
                      const uint32_t *const *ids, const double *mean, double *s2, double *df,
                      double *sc2, double *scdf, double *const *resid)
{
    *sc2 = 0;
    *scdf = 0;
    size_t total = 0, rows = 0;
    for (size_t i = 0; i < n; i++) {
        s2[i] = NAN;
        df[i] = 0;
        if (nruns[i] >= 2) {
            total += nruns[i];
            rows++;
        }
    }
    uint32_t *u = malloc((total ? total : 1) * sizeof *u);
    double *c = malloc((total ? total : 1) * sizeof *c), *dev = malloc((n ? n : 1) * sizeof *dev);
    int rc = u && c && dev ? 0 : -1;
    size_t nu = 0, k = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        for (size_t r = 0; nruns[i] >= 2 && r < nruns[i]; r++)
            u[nu++] = ids[i][r];
    if (rc == 0)
        qsort(u, nu, sizeof *u, cmp_u32);
    /* The distinct stamps, each with the median over the rows that have
     * it of their run's deviation from their mean (3 rows at least; else
     * no common effect there, 0). */
    for (size_t a = 0; rc == 0 && a < nu; a++) {
        if (a > 0 && u[a] == u[a - 1])
            continue;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t r = 0; nruns[i] >= 2 && r < nruns[i]; r++)
                if (ids[i][r] == u[a])
                    dev[m++] = figs[i][r] - mean[i];
        u[k] = u[a];
        c[k++] = m >= 3 && rows >= 3 ? qqb_median(dev, m) : NAN;
    }
    size_t used = 0;
    double cm = 0;
    for (size_t a = 0; rc == 0 && a < k; a++)
        if (isfinite(c[a])) {
            cm += c[a];
            used++;
        }
    if (used >= 3) {
        cm /= (double)used;
        double ss = 0;
        for (size_t a = 0; a < k; a++)
            if (isfinite(c[a]))
                ss += (c[a] - cm) * (c[a] - cm);
        *sc2 = ss / (double)(used - 1);
        *scdf = (double)(used - 1);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (nruns[i] < 2)
            continue;
        double ss = 0;
        for (size_t r = 0; r < nruns[i]; r++) {
            double e = figs[i][r] - mean[i];
            if (used >= 3)
                for (size_t a = 0; a < k; a++)
                    if (u[a] == ids[i][r] && isfinite(c[a]))
                        e -= c[a] - cm;
            ss += e * e;
            if (resid)
                resid[i][r] = e;
        }
        s2[i] = ss / (double)(nruns[i] - 1);
        df[i] = (double)(nruns[i] - 1);
    }
    free(u);
    free(c);
    free(dev);
    return rc;
}

double qqb_tails_seen(size_t n, const size_t *nruns, const double *const *resid, double s0sq,
                      double d0)
{
    size_t cases = 0;
    double least = 1;
    for (size_t i = 0; i < n; i++) {
        size_t r = nruns[i];
        if (r < 3)
            continue;
        double sum = 0;
        for (size_t k = 0; k < r; k++)
            sum += resid[i][k];
        for (size_t k = 0; k < r; k++) {
            double mo = (sum - resid[i][k]) / (double)(r - 1), ss = 0;
            for (size_t o = 0; o < r; o++)
                if (o != k)
                    ss += (resid[i][o] - mo) * (resid[i][o] - mo);
            double dfo = (double)(r - 2), v = qqb_shrunk_var(ss / dfo, dfo, s0sq, d0);
            double dft = dfo + (d0 > 0 && isfinite(s0sq) ? d0 : 0);
            if (!(v > 0) || !isfinite(v))
                continue;
            double t = (resid[i][k] - mo) / sqrt(v * (1.0 + 1.0 / (double)(r - 1)));
            double pv = 2.0 * gsl_cdf_tdist_Q(fabs(t), dft);

            if (pv < least)
                least = pv;
            cases++;
        }
    }
    /* Sidak over the cases: the chance that runs of normal shifts show one
     * so far out. */
    return cases ? 1.0 - pow(1.0 - least, (double)cases) : 1.0;
}

double qqb_test_df(double df, double kept, double floor_se, double se, double launch_df, int tails)
{
    if (!(df > 0) || !(se > 0) || !isfinite(se))
        return df;
    double fl = floor_se * floor_se, s2 = se * se, w = s2 > fl ? s2 - fl : 0;
    /* Welch-Satterthwaite: the runs' part on DF, the launch part on
     * LAUNCH_DF. */
    double d = df;
    if (fl < s2)
        d = s2 * s2 / (fl * fl / df + (launch_df > 0 ? w * w / launch_df : 0));
    double f = kept > 0 && fl > 0 ? kept / fl : 0;
    if (!(f <= 1))
        f = 1;
    return 1.0 / (1.0 / d + (tails ? f * f / QQB_TAIL_DF : 0));
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

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A launch sd from N absolute successive differences DEV (sorted here):
 * the root mean square of the smallest 90% of them over sqrt(2), scaled to
 * sigma for normal launches (E d^2 / 2 over the 90% of |d| below its
 * quantile is 0.6231 sigma^2). All the launches' spread, two modes' too
 * (the median of the differences sits between a bimodal key's two kinds
 * and swings from run to run), but not a rare outlier's. */
#define TRIM_KEEP  0.9
#define TRIM_SCALE 0.6231
static double trimmed_sd(double *dev, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(dev, n, sizeof *dev, cmp_d);
    size_t keep = (size_t)ceil(TRIM_KEEP * (double)n);
    if (keep < 1)
        keep = 1;
    double ss = 0;
    for (size_t i = 0; i < keep; i++)
        ss += dev[i] * dev[i];
    return sqrt(ss / (2.0 * TRIM_SCALE * (double)keep));
}

/* The balanced repeated replication (half-sample) variance of the
 * Hodges-Lehmann location of L[0..N-1] (logs, in the order they ran), its
 * passes the strata: each pass's launches split in two halves by position
 * (alternately, the odd one out of a pass to the half the pass before did
 * not take), a replicate takes one half of every pass, and the variance
 * is the mean of (replicate - whole)^2 over up to 8 patterns (all of them
 * up to 4 passes of two or more, else 8 fixed pseudo-random ones; up to
 * 32 passes). A pass's shift is in both halves alike,
 * so the figure's launch part alone, whatever the launches' shape. NaN
 * where no pass has two launches. */
#define BRR_MOST     32 /* strata (passes) at most */
#define BRR_BITS     4  /* up to this many passes, every pattern (2^(h-1)) */
#define BRR_PATTERNS 8  /* beyond, this many */
static double brr_var(const double *l, size_t n, int np, int first)
{
    int from[BRR_MOST], to[BRR_MOST], h = 0;
    for (int p = 0; p < np && h < BRR_MOST; p++)
        if (qqb_pass_rounds(first, (int)n, np, p, &from[h], &to[h]) == 0 && to[h] - from[h] >= 2)
            h++;
    if (h == 0)
        return NAN;
    double *half = malloc(n * sizeof *half);
    if (!half)
        return NAN;
    double whole = qqb_hl_location(l, n), sum = 0;
    int patterns = h > BRR_BITS ? BRR_PATTERNS : 1 << (h - 1), k = 0;
    for (int s = 0; s < patterns; s++) {
        size_t m = 0;
        int odd = 0;
        for (int p = 0; p < h; p++) {
            /* pattern s picks the half of pass p; the first pass's half
             * is fixed beyond 6 passes' patterns by the bits' rotation */
            int pick = (int)(((unsigned)s * 2654435761u >> (p % 32)) & 1u);
            if (h <= BRR_BITS)
                pick = p == 0 ? 0 : (s >> (p - 1)) & 1;
            for (int i = from[p]; i < to[p]; i++) {
                int side = (i - from[p] + odd) % 2;
                if (side == pick)
                    half[m++] = l[i];
            }
            if ((to[p] - from[p]) % 2)
                odd ^= 1;
        }
        if (m == 0)
            continue;
        double d = qqb_hl_location(half, m) - whole;
        sum += d * d;
        k++;
    }
    free(half);
    return k ? sum / k : NAN;
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
                      double *dev, size_t *ndev, double *brr)
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
    if (brr)
        *brr = np > 1 ? brr_var(l, n, np, first) : NAN;
    return isfinite(*fig) ? 0 : -1;
}

int qqb_baseruns_of(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                    struct qqb_baseruns *out)
{
    return qqb_baseruns_figs(x, run, n, passes, reps, out, NULL, NULL);
}

int qqb_baseruns_figs(const double *x, const uint32_t *run, size_t n, int passes, int reps,
                      struct qqb_baseruns *out, double *figs, uint32_t *ids)
{
    out->nruns = out->ndiff = 0;
    out->mean = out->s2 = out->within_sd = out->within_var = out->launch_sd = NAN;
    out->launch_factor = 1;
    out->launch_ratio = NAN;
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
    size_t ndev = 0, used = 0, nbrr = 0;
    double ksum = 0, brrsum = 0, brrk = 0;
    for (size_t r = 0; rc == 0 && r < nr; r++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (run[i] == r)
                l[k++] = log(x[i]);
        if (k == 0)
            continue;
        double kr, brr;
        if (ids)
            ids[used] = (uint32_t)r;
        if (run_figure(l, k, passes, reps, &med[used++], &kr, dev, &ndev, &brr) != 0)
            rc = -1;
        if (figs)
            figs[used - 1] = med[used - 1];
        ksum += kr;
        if (isfinite(brr)) {
            brrsum += brr;
            brrk += kr;
            nbrr++;
        }
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
            out->launch_sd = trimmed_sd(dev, ndev);
            if (!(out->launch_sd >= out->within_sd))
                out->launch_sd = out->within_sd;
            out->within_var = out->launch_sd * out->launch_sd * ksum / (double)used;
            /* The launch part from the data where the passes give it: the
             * half-samples' variance over the normal formula's, pooled over
             * the runs (section 20). */
            double normal = out->launch_sd * out->launch_sd * brrk;
            out->launch_ratio = nbrr >= 2 && normal > 0 ? brrsum / normal : NAN;
            qqb_baseruns_set_launch(out, NAN, out->launch_ratio);
        }
    }
    free(med);
    free(l);
    free(dev);
    return rc;
}

void qqb_baseruns_set_launch(struct qqb_baseruns *b, double sd, double ratio)
{
    if (!isfinite(b->launch_sd) || b->nruns == 0)
        return;
    double k = isfinite(b->within_var) && b->launch_sd > 0
                   ? b->within_var / (b->launch_factor * b->launch_sd * b->launch_sd)
                   : NAN;
    if (sd > 0 && isfinite(sd))
        b->launch_sd = sd;
    b->launch_factor = ratio > 1 && isfinite(ratio) ? ratio : 1;
    if (isfinite(k))
        b->within_var = b->launch_factor * b->launch_sd * b->launch_sd * k;
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
        if (run_figure(l, nc, passes, reps, fig, &k, dev, &ndev, NULL) != 0)
            rc = -1;
        double own = ndev >= 1 ? QQB_SUCC_SCALE * qqb_median(dev, ndev) : 0;
        double trim = ndev >= 1 ? trimmed_sd(dev, ndev) : 0;
        own = trim > own ? trim : own;
        double nb = isfinite(b->launch_sd) ? (double)b->ndiff : 0;
        *sd = sqrt((nb * (nb > 0 ? b->launch_sd * b->launch_sd : 0) + (double)ndev * own * own) /
                   (nb + (double)ndev > 0 ? nb + (double)ndev : 1));
        *wc = b->launch_factor * *sd * *sd * k;
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
