/* stats_change.c - the change of one sample against another: the Hodges-Lehmann
 * estimate with its Mann-Whitney interval, and the exact Mann-Whitney null
 * distribution. Method: docs/STATISTICS.md. */
#include "stats.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#include "stats_int.h"

/* ---------------------------------------------------------------------
 * Mann-Whitney null distribution
 * --------------------------------------------------------------------- */

/* P(U = u) for u = 0 .. floor(n1*n2/2) into low[] (the lower half; the rest
 * follows by symmetry). With i x's and j y's, the largest of all i+j values
 * is a y with probability j/(i+j) (it beats all i x's: U gains i) or an x
 * (U gains nothing):
 *     p(u; i, j) = i/(i+j) p(u; i-1, j) + j/(i+j) p(u-i; i, j-1),
 *     p(u; i, 0) = p(u; 0, j) = [u == 0].
 * Every term is a non-negative sum, so there is no cancellation, and only
 * u <= K is ever needed for u <= K. Rows over i are rolled; j runs over the
 * smaller size. */
static int qqb__mw_low(size_t n1, size_t n2, double *low)
{
    if (n1 == 0 || n2 == 0 || n1 > SIZE_MAX / n2)
        return -1;
    size_t a = n1 > n2 ? n1 : n2, b = n1 > n2 ? n2 : n1;
    size_t k = a * b / 2, w = k + 1;
    if (b + 1 > SIZE_MAX / w / 2 / sizeof(double))
        return -1;
    double *prev = calloc((b + 1) * w, sizeof *prev);
    double *cur = calloc((b + 1) * w, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return -1;
    }
    for (size_t j = 0; j <= b; j++)
        prev[j * w] = 1.0; /* i = 0 */
    for (size_t i = 1; i <= a; i++) {
        cur[0] = 1.0; /* j = 0; the rest of that row stays 0 */
        for (size_t j = 1; j <= b; j++) {
            double wx = (double)i / (double)(i + j), wy = (double)j / (double)(i + j);
            const double *px = prev + j * w, *py = cur + (j - 1) * w;
            double *pc = cur + j * w;
            size_t umax = i * j < k ? i * j : k;
            /* Entries above umax were never written (row i-2 had fewer). */
            for (size_t u = 0; u <= umax; u++) {
                double v = wx * px[u];
                if (u >= i)
                    v += wy * py[u - i];
                pc[u] = v;
            }
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    memcpy(low, prev + b * w, w * sizeof *low);
    free(prev);
    free(cur);
    return 0;
}

int qqb_mw_pmf(size_t n1, size_t n2, double *pmf)
{
    if (!pmf || n1 == 0 || n2 == 0 || n1 > SIZE_MAX / n2 || n1 * n2 >= SIZE_MAX / sizeof(double))
        return -1;
    size_t n = n1 * n2, k = n / 2;
    if (qqb__mw_low(n1, n2, pmf) != 0)
        return -1;
    for (size_t u = k + 1; u <= n; u++)
        pmf[u] = pmf[n - u];
    return 0;
}

/* Largest u with cdf(u) <= alpha/2 from the lower half pmf, or -1. A relative
 * slack of 1e-9 keeps probabilities equal to alpha/2 on the inclusive side. */
long qqb__critical_from_low(const double *low, size_t k, double alpha, double *cdf_at)
{
    double lim = alpha / 2.0 * (1.0 + 1e-9), c = 0.0;
    long crit = -1;
    for (size_t u = 0; u <= k; u++) {
        c += low[u];
        if (c > lim)
            break;
        crit = (long)u;
        if (cdf_at)
            *cdf_at = c;
    }
    return crit;
}

long qqb_mw_critical(size_t n1, size_t n2, double alpha)
{
    if (n1 == 0 || n2 == 0 || !(alpha > 0.0 && alpha < 1.0) || n1 > SIZE_MAX / n2 ||
        n1 * n2 / 2 >= (size_t)LONG_MAX / 2)
        return -2;
    size_t k = n1 * n2 / 2;
    double *low = malloc((k + 1) * sizeof *low);
    if (!low)
        return -2;
    if (qqb__mw_low(n1, n2, low) != 0) {
        free(low);
        return -2;
    }
    long crit = qqb__critical_from_low(low, k, alpha, NULL);
    free(low);
    return crit;
}

/* ---------------------------------------------------------------------
 * The change
 * --------------------------------------------------------------------- */

int qqb__fail(struct qqb_change *out, enum qqb_change_status st, const char *why)
{
    out->status = st;
    out->reason = why;
    return -1;
}

/* The side summaries both changes report. */
void qqb__side_summaries(const double *base, size_t nb, const double *cur, size_t nc,
                         struct qqb_change *out)
{
    out->median_base = qqb_median(base, nb);
    out->median_cur = qqb_median(cur, nc);
    out->ratio_pct = 100.0 * (out->median_cur / out->median_base - 1.0);
    double mn = fmin(qqb_min(base, nb), qqb_min(cur, nc));
    double mx = fmax(qqb_max(base, nb), qqb_max(cur, nc));
    out->spread = mx / mn;
    out->level_shift = fmax(qqb_level_shift(base, nb), qqb_level_shift(cur, nc));
}

/* Sum of t^3 - t over the groups of equal values in the pooled samples. */
static double qqb__tie_term(const double *base, size_t nb, const double *cur, size_t nc, int *fail)
{
    size_t n = nb + nc;
    double *p = malloc(n * sizeof *p);
    if (!p) {
        *fail = 1;
        return 0.0;
    }
    memcpy(p, base, nb * sizeof *p);
    memcpy(p + nb, cur, nc * sizeof *p);
    gsl_sort(p, 1, n);
    double t = qqb__tie_sum(p, n);
    free(p);
    return t;
}

/* The checks both change functions make: a confidence strictly between 0
 * and 1, every sample finite and positive (they work on logarithms). */
int qqb__check_samples(const double *base, size_t nb, const double *cur, size_t nc,
                       double confidence, struct qqb_change *out)
{
    if (!(confidence > 0.0 && confidence < 1.0))
        return qqb__fail(out, QQB_CHANGE_BAD_CONFIDENCE,
                         "confidence must be strictly between 0 and 1");
    for (size_t i = 0; i < nb; i++)
        if (!(base[i] > 0.0) || !isfinite(base[i]))
            return qqb__fail(out, QQB_CHANGE_BAD_VALUE,
                             "a baseline sample is not a finite positive number");
    for (size_t j = 0; j < nc; j++)
        if (!(cur[j] > 0.0) || !isfinite(cur[j]))
            return qqb__fail(out, QQB_CHANGE_BAD_VALUE,
                             "a current sample is not a finite positive number");
    return 0;
}

/* The rank k of the interval's bounds from an exact null distribution
 * (LOW: its lower half): the critical value plus one, or 1 (the widest
 * interval, ci_ok = 0) when no interval reaches the level. */
long qqb__exact_k(const double *low, size_t half, double alpha, struct qqb_change *out)
{
    double cdf = 0.0;
    long crit = qqb__critical_from_low(low, half, alpha, &cdf);
    out->exact = 1;
    out->ci_ok = crit >= 0;
    out->achieved = 1.0 - 2.0 * (crit >= 0 ? cdf : low[0]);
    return crit >= 0 ? crit + 1 : 1;
}

/* The rank k of the interval's bounds from the normal approximation of a
 * rank statistic with N pairs/averages and null sd SD0: the largest k with
 * Phi((k - 1/2 - N/2) / sd0) <= alpha/2, or 1 (and ci_ok = 0) when none. */
long qqb__normal_k(double n, double sd0, double alpha, struct qqb_change *out)
{
    double z = gsl_cdf_ugaussian_Qinv(alpha / 2.0);
    double kk = floor(n / 2.0 + 0.5 - z * sd0);
    long k = kk >= 1.0 ? (long)kk : 1;
    out->ci_ok = kk >= 1.0;
    out->exact = 0;
    out->achieved = 1.0 - 2.0 * gsl_cdf_ugaussian_P(((double)k - 0.5 - n / 2.0) / sd0);
    return k;
}

/* OUT empty: every figure NaN (not measured), the sizes and level set. */
void qqb__change_init(struct qqb_change *out, size_t nb, size_t nc, double confidence)
{
    memset(out, 0, sizeof *out);
    out->pct = out->lo = out->hi = NAN;
    out->achieved = out->u = out->p_value = NAN;
    out->median_base = out->median_cur = out->ratio_pct = NAN;
    out->spread = out->level_shift = NAN;
    out->nb = nb;
    out->nc = nc;
    out->confidence = confidence;
}

/* Of the differences: the first B[i] with C[j] - B[i] <= V, for each j.
 * Two pointers: O(NB + NC). */
static size_t diffs_at_most(const struct qqb__sorted_pairs *p, double v, double *top, double *above)
{
    size_t count = 0, i = 0;
    *top = -INFINITY;
    *above = INFINITY;
    for (size_t j = 0; j < p->nc; j++) {
        while (i < p->nb && p->c[j] - p->b[i] > v)
            i++;
        /* Above V: C[j] - B[i-1], the least of this j's; with none at most
         * V, C[j] - B[nb-1], the least of this and every later j's. */
        double up = i > 0 ? p->c[j] - p->b[i - 1] : INFINITY;
        if (up < *above)
            *above = up;
        if (i == p->nb)
            break;
        count += p->nb - i;
        if (p->c[j] - p->b[i] > *top)
            *top = p->c[j] - p->b[i];
    }
    return count;
}

/* The K-th smallest (1-based) pair of P, the least pair LO and the
 * greatest HI (finite), by bisection on the value and the count AT_MOST:
 * HI stays a pair with at least K at or below it (moved down to the
 * largest pair at most each bound that has them), LO a value with fewer;
 * it ends when no pair lies between them. O(count x log) time, no memory:
 * the pairs are never made. */
double qqb__kth_pair(qqb__pairs_at_most at_most, const struct qqb__sorted_pairs *p, double lo,
                     double hi, size_t k)
{
    double top, above;
    if (at_most(p, lo, &top, &above) >= k)
        return lo;
    for (int it = 0; it < 2200; it++) { /* 2200: adjacent doubles from any span */
        double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (at_most(p, mid, &top, &above) >= k) {
            hi = top;
        } else {
            lo = mid;
            if (above >= hi) /* no pair in (lo, hi): hi is the K-th */
                break;
        }
    }
    return hi;
}

/* The K-th smallest of the NB x NC differences C[j] - B[i]. */
static double diff_kth(const double *b, size_t nb, const double *c, size_t nc, size_t k)
{
    struct qqb__sorted_pairs p = {b, c, nb, nc};
    return qqb__kth_pair(diffs_at_most, &p, c[0] - b[nb - 1], c[nc - 1] - b[0], k);
}

/* Mann-Whitney's pairs of the sorted raw B and C: *GT with C[j] > B[i],
 * *EQ with C[j] == B[i]. Two pointers: O(NB + NC). */
static void pairs_above(const double *b, size_t nb, const double *c, size_t nc, size_t *gt,
                        size_t *eq)
{
    size_t below = 0, upto = 0; /* B[i] < C[j]: below; B[i] <= C[j]: upto */
    *gt = *eq = 0;
    for (size_t j = 0; j < nc; j++) {
        while (below < nb && b[below] < c[j])
            below++;
        if (upto < below)
            upto = below;
        while (upto < nb && b[upto] <= c[j])
            upto++;
        *gt += below;
        *eq += upto - below;
    }
}

int qqb_change(const double *base, size_t nb, const double *cur, size_t nc, double confidence,
               uint64_t seed, struct qqb_change *out)
{
    (void)seed; /* the method is deterministic */
    if (!out)
        return -1;
    qqb__change_init(out, nb, nc, confidence);
    out->reason = "";

    if (!base || !cur || nb < QQB_MIN_REPS || nc < QQB_MIN_REPS)
        return qqb__fail(out, QQB_CHANGE_TOO_FEW, "fewer than 2 launches on a side: no comparison");
    if (qqb__check_samples(base, nb, cur, nc, confidence, out) != 0)
        return -1;
    if (nb > SIZE_MAX / nc || nb * nc / 2 >= (size_t)LONG_MAX / 2)
        return qqb__fail(out, QQB_CHANGE_NOMEM, "too many samples");

    size_t n = nb * nc;
    /* The sides sorted, raw (for U: log could merge adjacent doubles) and
     * as logs (for the differences). */
    double *rb = malloc(nb * sizeof *rb), *rc = malloc(nc * sizeof *rc);
    double *lb = malloc(nb * sizeof *lb), *lc = malloc(nc * sizeof *lc);
    if (!rb || !rc || !lb || !lc) {
        free(rb);
        free(rc);
        free(lb);
        free(lc);
        return qqb__fail(out, QQB_CHANGE_NOMEM, "out of memory");
    }
    memcpy(rb, base, nb * sizeof *rb);
    memcpy(rc, cur, nc * sizeof *rc);
    gsl_sort(rb, 1, nb);
    gsl_sort(rc, 1, nc);
    size_t gt, eq;
    pairs_above(rb, nb, rc, nc, &gt, &eq);
    out->u = (double)gt + 0.5 * (double)eq;
    out->ties = eq > 0;
    for (size_t i = 0; i < nb; i++)
        lb[i] = log(rb[i]);
    for (size_t j = 0; j < nc; j++)
        lc[j] = log(rc[j]);
    free(rb);
    free(rc);
    double hl = n % 2
                    ? diff_kth(lb, nb, lc, nc, (n + 1) / 2)
                    : 0.5 * (diff_kth(lb, nb, lc, nc, n / 2) + diff_kth(lb, nb, lc, nc, n / 2 + 1));

    double alpha = 1.0 - confidence, nn = (double)n;
    double sd0 = sqrt(nn * (double)(nb + nc + 1) / 12.0);
    long k;
    double *low = NULL;
    size_t half = n / 2;
    if (n <= QQB_MW_EXACT_MAX) {
        low = malloc((half + 1) * sizeof *low);
        if (!low || qqb__mw_low(nb, nc, low) != 0) {
            free(low);
            free(lb);
            free(lc);
            return qqb__fail(out, QQB_CHANGE_NOMEM, "out of memory");
        }
        k = qqb__exact_k(low, half, alpha, out);
    } else {
        /* P(U <= k-1) ~ Phi((k - 1/2 - N/2) / sd0) <= alpha/2. */
        k = qqb__normal_k(nn, sd0, alpha, out);
    }
    out->k = k;
    out->pct = 100.0 * expm1(hl);
    out->lo = 100.0 * expm1(diff_kth(lb, nb, lc, nc, (size_t)k));
    out->hi = 100.0 * expm1(diff_kth(lb, nb, lc, nc, n - (size_t)k + 1));
    free(lb);
    free(lc);

    /* Two-sided p-value for "no change". */
    if (low && !out->ties) {
        size_t um = gt < n - gt ? gt : n - gt; /* <= half */
        double c = 0.0;
        for (size_t u = 0; u <= um; u++)
            c += low[u];
        out->p_value = fmin(1.0, 2.0 * c);
    } else {
        int fail = 0;
        double t = qqb__tie_term(base, nb, cur, nc, &fail);
        if (fail) {
            free(low);
            return qqb__fail(out, QQB_CHANGE_NOMEM, "out of memory");
        }
        double m = (double)(nb + nc);
        double var = nn / 12.0 * ((m + 1.0) - t / (m * (m - 1.0)));
        if (!(var > 0.0)) {
            out->p_value = 1.0;
        } else {
            double z = (fabs(out->u - nn / 2.0) - 0.5) / sqrt(var);
            out->p_value = z <= 0.0 ? 1.0 : fmin(1.0, 2.0 * gsl_cdf_ugaussian_Q(z));
        }
    }
    free(low);

    qqb__side_summaries(base, nb, cur, nc, out);
    out->status = QQB_CHANGE_OK;
    return 0;
}
