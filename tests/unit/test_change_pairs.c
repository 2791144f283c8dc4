/* test_change_pairs.c - qqb_change without its pairs: the Hodges-Lehmann shift, the Mann-Whitney
 * interval and U found by counting on the sorted sides (never making the nb x nc differences),
 * held against the differences made and sorted by hand, and a comparison of 30,000 launches a
 * side, whose 900 million differences would take 7.2 GB. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"
#include "test.h"

/* The change of BASE against CUR by hand, as qqb_change made it before it
 * stopped making the differences: every difference of the logs, sorted;
 * the median; the k-th from each end for qqb_change's own k; U on the raw
 * values. */
static void by_hand(const double *base, size_t nb, const double *cur, size_t nc,
                    const struct qqb_change *got)
{
    size_t n = nb * nc, gt = 0, eq = 0;
    double *d = malloc(n * sizeof *d);
    CHECK(d != NULL);
    if (!d)
        return;
    for (size_t i = 0; i < nb; i++)
        for (size_t j = 0; j < nc; j++) {
            d[i * nc + j] = log(cur[j]) - log(base[i]);
            gt += cur[j] > base[i];
            eq += cur[j] == base[i];
        }
    gsl_sort(d, 1, n);
    size_t k = (size_t)got->k;
    CHECK(k >= 1 && k <= n);
    CHECK_DBL_NEAR(got->pct, 100.0 * expm1(gsl_stats_median_from_sorted_data(d, 1, n)), 1e-9);
    if (k >= 1 && k <= n) {
        CHECK_DBL_NEAR(got->lo, 100.0 * expm1(d[k - 1]), 1e-9);
        CHECK_DBL_NEAR(got->hi, 100.0 * expm1(d[n - k]), 1e-9);
    }
    CHECK_DBL_NEAR(got->u, (double)gt + 0.5 * (double)eq, 0);
    CHECK_INT_EQ(got->ties, eq > 0);
    free(d);
}

/* 400 comparisons of 2-40 launches a side, on a grid coarse enough for
 * ties within and across the sides, shifted by -20% to +20%. */
static void test_against_hand(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 2611);
    double base[40], cur[40];
    for (int t = 0; t < 400; t++) {
        size_t nb = 2 + gsl_rng_uniform_int(g, 39), nc = 2 + gsl_rng_uniform_int(g, 39);
        double shift = 0.8 + 0.4 * gsl_rng_uniform(g), grid = t % 2 ? 1.0 : 0.01;
        for (size_t i = 0; i < nb; i++)
            base[i] = grid * round(1000 * exp(gsl_ran_gaussian(g, 0.03)) / grid);
        for (size_t j = 0; j < nc; j++)
            cur[j] = grid * round(1000 * shift * exp(gsl_ran_gaussian(g, 0.03)) / grid);
        struct qqb_change c;
        CHECK_INT_EQ(qqb_change(base, nb, cur, nc, 0.95, 0, &c), 0);
        CHECK_INT_EQ(c.status, QQB_CHANGE_OK);
        by_hand(base, nb, cur, nc, &c);
    }
    /* One side all alike, and both sides one value. */
    static const double same[4] = {5, 5, 5, 5}, more[3] = {4, 5, 6};
    struct qqb_change c;
    CHECK_INT_EQ(qqb_change(same, 4, more, 3, 0.95, 0, &c), 0);
    by_hand(same, 4, more, 3, &c);
    CHECK_INT_EQ(qqb_change(same, 4, same, 4, 0.95, 0, &c), 0);
    by_hand(same, 4, same, 4, &c);
    gsl_rng_free(g);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* qqb_walsh_kth at every k against the Walsh averages made and sorted by
 * hand: 1-25 values on a coarse grid about 0 (ties, and many answers
 * exactly 0, which the bisection must end on without crawling to it), and
 * one value alone. */
static void test_walsh_every_k(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 2612);
    double l[25], w[25 * 26 / 2];
    for (int t = 0; t < 300; t++) {
        size_t n = 1 + gsl_rng_uniform_int(g, 25), m = 0;
        for (size_t i = 0; i < n; i++)
            l[i] = 0.01 * (double)((long)gsl_rng_uniform_int(g, 7) - 3);
        qsort(l, n, sizeof *l, cmp_dbl);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i; j < n; j++)
                w[m++] = (l[i] + l[j]) / 2;
        qsort(w, m, sizeof *w, cmp_dbl);
        for (size_t k = 1; k <= m; k++)
            CHECK_DBL_NEAR(qqb_walsh_kth(l, n, k), w[k - 1], 1e-15);
    }
    gsl_rng_free(g);
}

/* 30,000 launches a side, the current side exactly 10% slower, each
 * launch's noise its own: the shift is +10% within the rounding of the
 * logs, the interval holds it, and the peak memory did not grow by the
 * pairs. */
static void test_many_launches(void)
{
    enum { N = 30000 };
    double *base = malloc(N * sizeof *base), *cur = malloc(N * sizeof *cur);
    CHECK(base && cur);
    if (base && cur) {
        gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(g, 7);
        for (size_t i = 0; i < N; i++) {
            base[i] = 1000 * exp(gsl_ran_gaussian(g, 0.02));
            cur[i] = 1.1 * base[i];
        }
        gsl_rng_free(g);
        struct qqb_change c;
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        CHECK_INT_EQ(qqb_change(base, N, cur, N, 0.95, 0, &c), 0);
        getrusage(RUSAGE_SELF, &after);
        /* The pairs' 7.2 GB, made, would be resident: the call's growth of
         * the peak is a few sorted copies (4 x 240 KB). */
        long grew = (after.ru_maxrss - before.ru_maxrss) * 1024L;
        printf("  %d launches a side: %+.4f%% [%+.4f, %+.4f]; peak grew %ld KB\n", N, c.pct, c.lo,
               c.hi, grew / 1024);
        CHECK(grew < 64L << 20);
        CHECK_DBL_NEAR(c.pct, 10.0, 1e-6);
        CHECK(c.lo <= 10.0 && c.hi >= 10.0 && c.hi - c.lo < 0.1);
    }
    free(base);
    free(cur);
}

int main(void)
{
    RUN(test_against_hand);
    RUN(test_walsh_every_k);
    RUN(test_many_launches);
    return TEST_DONE();
}
