/* stats.c - qqbench statistics: the robust summaries (median, MAD, noise,
 * level shift) and the helpers the other stats_*.c files share (stats_int.h).
 * Method: docs/STATISTICS.md. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats_int.h"

/* ---------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------- */

static int qqb__has_nan(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(x[i]))
            return 1;
    return 0;
}

/* Room for n doubles: buf (if n <= QQB__STACK_N) or the heap. Returns NULL
 * if allocation fails; release with qqb__release(room, buf). */
double *qqb__room(size_t n, double *buf)
{
    return n > QQB__STACK_N ? malloc(n * sizeof *buf) : buf;
}

/* A sorted copy of x in qqb__room(n, buf). */
double *qqb__sorted_copy(const double *x, size_t n, double *buf)
{
    double *c = qqb__room(n, buf);
    if (!c)
        return NULL;
    memcpy(c, x, n * sizeof *c);
    gsl_sort(c, 1, n);
    return c;
}

void qqb__release(double *c, double *buf)
{
    if (c != buf)
        free(c);
}

/* The ties' correction of a rank test: the sum of g^3 - g over the runs of
 * g equal values in the sorted X. */
double qqb__tie_sum(const double *x, size_t n)
{
    double t = 0.0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && x[j] == x[i])
            j++;
        double g = (double)(j - i);
        t += g * g * g - g;
        i = j;
    }
    return t;
}

/* ---------------------------------------------------------------------
 * Summaries
 * --------------------------------------------------------------------- */

double qqb_quantile(const double *x, size_t n, double q)
{
    if (!x || n == 0 || !(q >= 0.0 && q <= 1.0) || qqb__has_nan(x, n))
        return NAN;
    double buf[QQB__STACK_N];
    double *s = qqb__sorted_copy(x, n, buf);
    if (!s)
        return NAN;
    double r = gsl_stats_quantile_from_sorted_data(s, 1, n, q);
    qqb__release(s, buf);
    return r;
}

double qqb_median(const double *x, size_t n)
{
    if (!x || n == 0 || qqb__has_nan(x, n))
        return NAN;
    double buf[QQB__STACK_N];
    double *s = qqb__sorted_copy(x, n, buf);
    if (!s)
        return NAN;
    double r = gsl_stats_median_from_sorted_data(s, 1, n);
    qqb__release(s, buf);
    return r;
}

double qqb_min(const double *x, size_t n)
{
    if (!x || n == 0 || qqb__has_nan(x, n))
        return NAN;
    return gsl_stats_min(x, 1, n);
}

double qqb_max(const double *x, size_t n)
{
    if (!x || n == 0 || qqb__has_nan(x, n))
        return NAN;
    return gsl_stats_max(x, 1, n);
}

double qqb_mean(const double *x, size_t n)
{
    if (!x || n == 0 || qqb__has_nan(x, n))
        return NAN;
    return gsl_stats_mean(x, 1, n);
}

double qqb_mad_raw(const double *x, size_t n)
{
    double m = qqb_median(x, n);
    if (isnan(m))
        return NAN;
    double buf[QQB__STACK_N];
    double *d = qqb__room(n, buf);
    if (!d)
        return NAN;
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(x[i] - m);
    gsl_sort(d, 1, n);
    double r = gsl_stats_median_from_sorted_data(d, 1, n);
    qqb__release(d, buf);
    return r;
}

double qqb_mad_scaled(const double *x, size_t n)
{
    return QQB_MAD_SCALE * qqb_mad_raw(x, n);
}

double qqb_noise_pct(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    double m = qqb_median(x, n);
    if (!(m > 0.0) || !isfinite(m))
        return NAN;
    return 100.0 * qqb_mad_scaled(x, n) / m;
}

void qqb_summarize(const double *x, size_t n, struct qqb_summary *out)
{
    out->median = qqb_median(x, n);
    out->mad = qqb_mad_scaled(x, n);
    out->min = qqb_min(x, n);
    out->noise_pct = qqb_noise_pct(x, n);
}

double qqb_level_shift(const double *x, size_t n)
{
    if (!x || n == 0)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0.0) || !isfinite(x[i]))
            return NAN;
    if (n < 4)
        return 1.0;
    double buf[QQB__STACK_N];
    double *s = qqb__sorted_copy(x, n, buf);
    if (!s)
        return NAN;
    double best = 1.0;
    /* s[i] is the lowest of the upper group: at least 2 below, 2 at or above. */
    for (size_t i = 2; i + 2 <= n; i++) {
        double r = s[i] / s[i - 1];
        if (r > best)
            best = r;
    }
    qqb__release(s, buf);
    return best;
}

double qqb_pair_noise_pct(const double *d, size_t n)
{
    if (n < 2)
        return NAN;
    return 100.0 * qqb_mad_scaled(d, n);
}
