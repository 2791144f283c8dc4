/* test_mde.c - the minimum detectable change (stats/mde.h), against a simulation of the test
 * it stands for: pairs whose log ratios are normal with a known sd, shifted by the MDE, pass
 * the sign test's count at least nine times in ten (and the MDE's safety margin is not so wide
 * that they pass nearly always); it shrinks with more pairs and grows with the noise; no figure
 * where no count reaches the level. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "mde.h"
#include "test.h"

/* How often N normal pairs of SD shifted by log(1 + MDE) put at least K beyond log(1 + T), in
 * TRIALS draws. */
static double sign_power(double t_pct, double mde_pct, double sd, unsigned n, unsigned k,
                         unsigned trials, gsl_rng *g)
{
    double t = log1p(t_pct / 100.0), mu = log1p(mde_pct / 100.0);
    unsigned pass = 0;
    for (unsigned i = 0; i < trials; i++) {
        unsigned beyond = 0;
        for (unsigned p = 0; p < n; p++)
            beyond += mu + gsl_ran_gaussian(g, sd) > t;
        pass += beyond >= k;
    }
    return (double)pass / trials;
}

static void test_sign_power(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 20261129);
    /* 40 pairs at the level of the last of 4 looks for alpha 0.05 (about 0.04): the count the
     * level needs, found here by the binomial directly. */
    const unsigned n = 40;
    const double level = 0.04;
    unsigned k = 1;
    while (gsl_cdf_binomial_Q(k - 1, 0.5, n) > level / 2)
        k++;
    for (double sd_pct = 0.5; sd_pct <= 4.0; sd_pct *= 2) {
        double mde = qqb_mde_sign(2.0, sd_pct, n, level);
        double power = sign_power(2.0, mde, sd_pct / 100.0, n, k, 20000, g);
        printf("  noise %.1f%%: MDE %+.2f%%, k %u of %u, simulated power %.3f\n", sd_pct, mde, k, n,
               power);
        /* At 20000 draws the power's sd is about 0.002: 0.9 and 0.99 are each over ten sds from
         * the figure the margin gives (about 0.95). */
        CHECK(power >= 0.9);
        CHECK(power <= 0.99);
    }
    gsl_rng_free(g);
}

static void test_monotone(void)
{
    double prev = INFINITY;
    for (unsigned n = 10; n <= 160; n *= 2) {
        double m = qqb_mde_sign(2.0, 1.0, n, 0.04);
        CHECK(m < prev);
        prev = m;
    }
    CHECK(qqb_mde_sign(2.0, 2.0, 40, 0.04) > qqb_mde_sign(2.0, 1.0, 40, 0.04));
    CHECK(qqb_mde_sign(2.0, 1.0, 40, 0.001) > qqb_mde_sign(2.0, 1.0, 40, 0.04));
    CHECK(qqb_mde_t(2.0, 0.02, 4, 0.05) > qqb_mde_t(2.0, 0.01, 4, 0.05));
    CHECK(qqb_mde_t(2.0, 0.01, 2, 0.05) > qqb_mde_t(2.0, 0.01, 20, 0.05));
    /* Always beyond the threshold itself: it is what is caught beyond it. */
    CHECK(qqb_mde_sign(2.0, 0.01, 40, 0.04) > 2.0);
    CHECK(qqb_mde_t(2.0, 1e-6, 20, 0.05) > 2.0);
}

static void test_t_formula(void)
{
    /* log(1 + t) + (q + z(0.9)) se, q the t quantile: se 0.01, 4 df, level 0.05 (q 2.776). */
    double want = 100.0 * expm1(log1p(0.02) + (2.7764451 + 1.2815516) * 0.01);
    CHECK(fabs(qqb_mde_t(2.0, 0.01, 4, 0.05) - want) < 1e-4);
}

static void test_trim_formula(void)
{
    /* The t formula with se at its 70% upper bound: 4 df, chi2_0.3(4) = 2.1947 (tables):
     * se 0.01 x sqrt(4 / 2.1947). */
    double se = 0.01 * sqrt(4.0 / 2.1946984);
    double want = 100.0 * expm1(log1p(0.02) + (2.7764451 + 1.2815516) * se);
    CHECK(fabs(qqb_mde_trim(2.0, 0.01, 4, 0.05) - want) < 1e-4);
    CHECK(isnan(qqb_mde_trim(2.0, 0.01, 0, 0.05)));
    CHECK(isnan(qqb_mde_trim(2.0, NAN, NAN, 0.05)));
}

static void test_none(void)
{
    CHECK(isnan(qqb_mde_sign(2.0, 1.0, 1, 0.04)));  /* one pair */
    CHECK(isnan(qqb_mde_sign(2.0, 0.0, 40, 0.04))); /* no spread */
    CHECK(isnan(qqb_mde_sign(2.0, 1.0, 5, 0.001))); /* 5 pairs never reach 0.001 */
    CHECK(isnan(qqb_mde_sign(2.0, 1.0, 40, 0.0)));  /* no level */
    CHECK(isnan(qqb_mde_t(2.0, 0.0, 4, 0.05)));
    CHECK(isnan(qqb_mde_t(2.0, 0.01, 0, 0.05)));
}

int main(void)
{
    test_sign_power();
    test_monotone();
    test_t_formula();
    test_trim_formula();
    test_none();
    return TEST_DONE();
}
