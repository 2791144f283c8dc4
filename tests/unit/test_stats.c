/* test_stats.c - the robust summaries (harness/stats/stats.c): median, MAD,
 * min, max, mean, quantile, noise and the level-shift indicator on known
 * values. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "test.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */

static void test_median(void)
{
    double odd[] = {3, 1, 2};
    double even[] = {4, 1, 3, 2};
    double dup[] = {5, 5, 1, 5};
    double one[] = {7.5};
    CHECK_DBL_NEAR(qqb_median(odd, 3), 2.0, 0);
    CHECK_DBL_NEAR(qqb_median(even, 4), 2.5, 0);
    CHECK_DBL_NEAR(qqb_median(dup, 4), 5.0, 0);
    CHECK_DBL_NEAR(qqb_median(one, 1), 7.5, 0);
    CHECK(isnan(qqb_median(one, 0)));
    CHECK(isnan(qqb_median(NULL, 0)));
    /* The input is not reordered. */
    CHECK(odd[0] == 3 && odd[1] == 1 && odd[2] == 2);
    CHECK(even[0] == 4 && even[1] == 1 && even[2] == 3 && even[3] == 2);
    double withnan[] = {1, NAN, 3};
    CHECK(isnan(qqb_median(withnan, 3)));

    /* Above the stack buffer: 0..200 in a scrambled order. */
    double big[201];
    for (size_t i = 0; i < N_OF(big); i++)
        big[i] = (double)((i * 68) % 201); /* 68 is prime to 201 */
    CHECK_DBL_NEAR(qqb_median(big, 201), 100.0, 0);
    /* The first 200 leave out big[200] = 133: median (99 + 100) / 2. */
    CHECK_DBL_NEAR(qqb_median(big, 200), 99.5, 0);
    CHECK_DBL_NEAR(big[1], 68.0, 0);
}

static void test_mad(void)
{
    double a[] = {1, 2, 3, 4, 100}; /* median 3, deviations 2 1 0 1 97 */
    double b[] = {1, 2, 3, 4};      /* median 2.5, deviations 1.5 .5 .5 1.5 */
    double c[] = {5, 5, 5, 9};      /* median 5, deviations 0 0 0 4 */
    double one[] = {42};
    CHECK_DBL_NEAR(qqb_mad_raw(a, 5), 1.0, 0);
    CHECK_DBL_NEAR(qqb_mad_scaled(a, 5), 1.4826, 1e-12);
    CHECK_DBL_NEAR(qqb_mad_raw(b, 4), 1.0, 0);
    CHECK_DBL_NEAR(qqb_mad_raw(c, 4), 0.0, 0);
    CHECK_DBL_NEAR(qqb_mad_raw(one, 1), 0.0, 0);
    CHECK(isnan(qqb_mad_raw(one, 0)));
    CHECK(isnan(qqb_mad_scaled(one, 0)));
    CHECK(a[4] == 100 && a[0] == 1);
}

static void test_min_max_mean_quantile(void)
{
    double x[] = {4, 2, 5, 1, 3};
    CHECK_DBL_NEAR(qqb_min(x, 5), 1, 0);
    CHECK_DBL_NEAR(qqb_max(x, 5), 5, 0);
    CHECK_DBL_NEAR(qqb_mean(x, 5), 3, 1e-15);
    CHECK_DBL_NEAR(qqb_quantile(x, 5, 0.0), 1, 0);
    CHECK_DBL_NEAR(qqb_quantile(x, 5, 1.0), 5, 0);
    CHECK_DBL_NEAR(qqb_quantile(x, 5, 0.5), 3, 0);
    CHECK_DBL_NEAR(qqb_quantile(x, 5, 0.25), 2, 1e-15);
    CHECK_DBL_NEAR(qqb_quantile(x, 5, 0.1), 1.4, 1e-12); /* type 7 */
    CHECK(isnan(qqb_quantile(x, 5, 1.5)));
    CHECK(isnan(qqb_quantile(x, 5, NAN)));
    CHECK(isnan(qqb_min(x, 0)) && isnan(qqb_max(x, 0)) && isnan(qqb_mean(x, 0)));
    CHECK(isnan(qqb_quantile(x, 0, 0.5)));
    CHECK_DBL_NEAR(qqb_min(x, 1), 4, 0);
    CHECK_DBL_NEAR(qqb_quantile(x, 1, 0.9), 4, 0);
    CHECK(x[0] == 4 && x[3] == 1);
}

static void test_noise_and_level_shift(void)
{
    double flat[] = {100, 100, 100, 100};
    double spread[] = {110, 90, 100}; /* median 100, MAD 10 */
    double one[] = {100};
    double zero[] = {0, 0, 0};
    CHECK_DBL_NEAR(qqb_noise_pct(flat, 4), 0.0, 0);
    CHECK_DBL_NEAR(qqb_noise_pct(spread, 3), 14.826, 1e-9);
    CHECK(isnan(qqb_noise_pct(one, 1)));
    CHECK(isnan(qqb_noise_pct(zero, 3)));

    double two_levels[] = {1.00, 1.70, 1.01, 1.71, 1.02};
    double one_outlier[] = {1.00, 1.01, 1.02, 1.70};
    double quiet[] = {1.00, 1.01, 1.02, 1.03, 1.015};
    CHECK_DBL_NEAR(qqb_level_shift(two_levels, 5), 1.70 / 1.02, 1e-12);
    CHECK(qqb_level_shift(two_levels, 5) >= QQB_LEVEL_SHIFT_RATIO);
    CHECK(qqb_level_shift(one_outlier, 4) < QQB_LEVEL_SHIFT_RATIO);
    CHECK(qqb_level_shift(quiet, 5) < QQB_LEVEL_SHIFT_RATIO);
    CHECK_DBL_NEAR(qqb_level_shift(two_levels, 3), 1.0, 0);
    CHECK(isnan(qqb_level_shift(zero, 3)));
    CHECK(isnan(qqb_level_shift(quiet, 0)));
}

/* qqb_summarize is the four summaries, with their rules for n = 0, 1 and NaN. */
static void test_summarize(void)
{
    static const double x[] = {5, 1, 4, 2, 3, 9}, one[] = {7}, nan_[] = {1, NAN, 3};
    struct qqb_summary s;
    qqb_summarize(x, N_OF(x), &s);
    CHECK_DBL_NEAR(s.median, qqb_median(x, N_OF(x)), 0);
    CHECK_DBL_NEAR(s.median, 3.5, 0);
    CHECK_DBL_NEAR(s.mad, qqb_mad_scaled(x, N_OF(x)), 0);
    CHECK_DBL_NEAR(s.min, 1, 0);
    CHECK_DBL_NEAR(s.noise_pct, qqb_noise_pct(x, N_OF(x)), 0);
    qqb_summarize(one, 1, &s);
    CHECK(s.median == 7 && s.mad == 0 && s.min == 7 && isnan(s.noise_pct));
    qqb_summarize(nan_, 3, &s);
    CHECK(isnan(s.median) && isnan(s.mad) && isnan(s.min) && isnan(s.noise_pct));
    qqb_summarize(x, 0, &s);
    CHECK(isnan(s.median) && isnan(s.mad) && isnan(s.min) && isnan(s.noise_pct));
}

int main(void)
{
    RUN(test_median);
    RUN(test_mad);
    RUN(test_min_max_mean_quantile);
    RUN(test_noise_and_level_shift);
    RUN(test_summarize);
    return TEST_DONE();
}
