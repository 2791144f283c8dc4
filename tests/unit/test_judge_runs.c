/* test_judge_runs.c - the run as the unit (docs/STATISTICS.md section 17): the shrinkage of
 * run-to-run variances, the group-sequential boundary against published values, the sign test
 * against a minimum effect, and simulations of the judge that runs (qqb_judge_with, with its
 * Holm family and the plan) on suites of 20 keys. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_psi.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge_plan.h"
#include "judge_fixture.h"
#include "judge_runs.h"
#include "measure.h"
#include "plan.h"
#include "results.h"
#include "runlevel.h"
#include "runner.h"
#include "sequential.h"
#include "stats.h"
#include "suite.h"
#include "test.h"

/* ---------------------------------------------------------------------
 * The pieces, against values that do not come from the harness.
 * --------------------------------------------------------------------- */

/* O'Brien-Fleming's constants C_B(K) for a two-sided 5% test (Jennison and
 * Turnbull, "Group Sequential Methods", 2000, Table 2.3): the last look's
 * nominal level is 2 (1 - Phi(C_B)), look k's is 2 (1 - Phi(C_B sqrt(K/k))). */
static void test_obrien_fleming_published(void)
{
    static const double cb[] = {0, 1.960, 1.977, 2.004, 2.024, 2.040, 2.053, 2.063, 2.072};
    for (size_t k = 1; k <= 8; k++) {
        double last = qqb_gs_nominal(0.05, k, k);
        double c = gsl_cdf_ugaussian_Qinv(last / 2);
        printf("  K=%zu: C_B %.4f (published %.3f), first look %.3g, last %.4f\n", k, c, cb[k],
               qqb_gs_nominal(0.05, 1, k), last);
        CHECK(fabs(c - cb[k]) < 0.003);
        if (k == 8) {
            printf("TABLE obf | look | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\nTABLE obf "
                   "|---|---|---|---|---|---|---|---|---|\nTABLE obf | level |");
            for (size_t at = 1; at <= 8; at++)
                printf(" %.2g |", qqb_gs_nominal(0.05, at, 8));
            printf("\n");
        }
        for (size_t at = 1; at <= k; at++)
            CHECK_DBL_NEAR(qqb_gs_nominal(0.05, at, k),
                           2 * gsl_cdf_ugaussian_Q(c * sqrt((double)k / (double)at)), 1e-9);
    }
    /* One look is the plain level; a nonsense argument is NaN. */
    CHECK_DBL_NEAR(qqb_gs_nominal(0.01, 1, 1), 0.01, 0);
    CHECK(isnan(qqb_gs_nominal(0.05, 0, 3)));
    CHECK(isnan(qqb_gs_nominal(0.05, 4, 3)));
    CHECK(isnan(qqb_gs_nominal(1.5, 1, 3)));
    /* The crossing probability of one look is the normal tail. */
    CHECK(fabs(qqb_gs_crossing(1.959964, 1) - 0.05) < 2e-4);
}

/* A random walk of 8 looks crosses the boundary qqb_gs_nominal gives, at
 * any look, with probability 0.05: 200,000 walks (seeded). The count is
 * Binomial(200000, 0.05): its 1e-4 two-sided range is 0.05 +/- 0.0019. */
static void test_obrien_fleming_walks(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 20261126);
    double z[8];
    for (size_t k = 1; k <= 8; k++)
        z[k - 1] = gsl_cdf_ugaussian_Qinv(qqb_gs_nominal(0.05, k, 8) / 2);
    unsigned cross = 0, n = 200000;
    for (unsigned t = 0; t < n; t++) {
        double s = 0;
        for (size_t k = 1; k <= 8; k++) {
            s += gsl_ran_gaussian(g, 1.0);
            if (fabs(s) / sqrt((double)k) >= z[k - 1]) {
                cross++;
                break;
            }
        }
    }
    gsl_rng_free(g);
    printf("  8 looks: %u of %u walks crossed (%.4f)\n", cross, n, (double)cross / n);
    CHECK(fabs((double)cross / n - 0.05) < 0.0019);
}

static void test_trigamma_inverse(void)
{
    static const double x[] = {0.05, 0.3, 1.0, 2.5, 10.0, 400.0};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        double y = gsl_sf_psi_1(x[i]);
        CHECK(fabs(qqb_trigamma_inverse(y) - x[i]) < 1e-6 * x[i] + 1e-9);
    }
    CHECK(isnan(qqb_trigamma_inverse(0)));
}

/* Sample variances of M keys with 4 degrees of freedom each (5 runs),
 * sigma^2 chi2_4 / 4: alike, the prior's degrees of freedom are large and
 * its variance close to sigma^2; two kinds 25x apart, they are small (the
 * keys keep their own variances). */
static void test_shrink_prior(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 7);
    enum { M = 400 };
    static double s2[M], df[M];
    for (int i = 0; i < M; i++) {
        s2[i] = 0.0004 * gsl_ran_chisq(g, 4.0) / 4.0;
        df[i] = 4;
    }
    double s0, d0;
    CHECK_INT_EQ(qqb_shrink_prior(s2, df, M, &s0, &d0), 0);
    printf("  alike: s0^2 %.3g (sigma^2 4e-4), d0 %.1f\n", s0, d0);
    CHECK(d0 > 30);
    CHECK(fabs(s0 / 0.0004 - 1) < 0.1);
    for (int i = 0; i < M; i++)
        s2[i] = (i % 2 ? 0.0001 : 0.0025) * gsl_ran_chisq(g, 4.0) / 4.0;
    CHECK_INT_EQ(qqb_shrink_prior(s2, df, M, &s0, &d0), 0);
    printf("  two kinds 25x apart: d0 %.2f\n", d0);
    CHECK(d0 < 4);
    /* Too few usable entries: no shrinkage. */
    double two[2] = {0.1, 0.2}, dd[2] = {4, 4};
    CHECK_INT_EQ(qqb_shrink_prior(two, dd, 2, &s0, &d0), 0);
    CHECK(d0 == 0 && isnan(s0));
    CHECK_DBL_NEAR(qqb_shrunk_var(0.3, 4, s0, d0), 0.3, 0);
    CHECK_DBL_NEAR(qqb_shrunk_var(0.3, 4, 0.1, 4), 0.2, 1e-12);
    /* Three rows that agree exactly beyond their degrees of freedom: limma
     * would take d0 to its bound; it is held at the rows' 12 together. */
    double alike[3] = {0.0004, 0.0004, 0.0004}, a_df[3] = {4, 4, 4};
    CHECK_INT_EQ(qqb_shrink_prior(alike, a_df, 3, &s0, &d0), 0);
    printf("  three rows alike: d0 %.1f (cap 12)\n", d0);
    CHECK(d0 > 0 && d0 <= 12);
    gsl_rng_free(g);
}

/* The sign test against a minimum effect, by hand: of 10 ratios, 9 beyond
 * +2%: P(Bin(10, 1/2) >= 9) = 11/1024. */
static void test_sign_beyond(void)
{
    double d[10];
    for (int i = 0; i < 10; i++)
        d[i] = i < 9 ? log(1.05) : log1p(0.02); /* exactly at the threshold: H0 */
    double up, down;
    qqb_sign_p_beyond(d, 10, 2.0, &up, &down);
    CHECK_DBL_NEAR(up, 11.0 / 1024, 1e-12);
    CHECK_DBL_NEAR(down, 1.0, 0);
    qqb_sign_p_beyond(d, 0, 2.0, &up, &down);
    CHECK(up == 1 && down == 1);
}

/* The two-level test by hand: three runs with log medians 0, 0.02, 0.04
 * (mean 0.02, s^2 4e-4), launches without spread; the current run's
 * launches all e^0.1. est = 0.08, se^2 = tau2 + s^2 / 3 with tau2 = s^2
 * (no launch part): se = 0.02 sqrt(4/3). */
static void test_runtest_by_hand(void)
{
    double x[9];
    uint32_t run[9];
    for (int i = 0; i < 9; i++) {
        x[i] = exp(0.02 * (i / 3));
        run[i] = (uint32_t)(i / 3);
    }
    struct qqb_baseruns b;
    CHECK_INT_EQ(qqb_baseruns_of(x, run, 9, 1, 0, &b), 0);
    CHECK_U64_EQ(b.nruns, 3);
    CHECK_DBL_NEAR(b.mean, 0.02, 1e-12);
    CHECK_DBL_NEAR(b.s2, 4e-4, 1e-12);
    double cur[5] = {exp(0.1), exp(0.1), exp(0.1), exp(0.1), exp(0.1)};
    struct qqb_runtest t;
    CHECK_INT_EQ(qqb_runtest(&b, b.s2, 2, cur, 5, 1, 0, &t), 0);
    CHECK_DBL_NEAR(t.est, 0.08, 1e-12);
    CHECK_DBL_NEAR(t.se, 0.02 * sqrt(4.0 / 3.0), 1e-12);
    double lo, hi, up, down;
    qqb_runtest_interval(&t, 0.95, &lo, &hi);
    double q = gsl_cdf_tdist_Pinv(0.975, 2);
    CHECK_DBL_NEAR(lo, 100 * (exp(0.08 - q * t.se) - 1), 1e-9);
    CHECK_DBL_NEAR(hi, 100 * (exp(0.08 + q * t.se) - 1), 1e-9);
    qqb_runtest_p(&t, 2.0, &up, &down);
    CHECK_DBL_NEAR(up, gsl_cdf_tdist_Q((0.08 - log(1.02)) / t.se, 2), 1e-12);
    CHECK(down > 0.95); /* t on 2 df: P(T < 4.3) = 0.975 */
    /* More launches cannot bring se under its floor; more runs can, down
     * to tau: tau2 + s2/R < 0.021^2 needs R > 4e-4 / 0.41e-4, R = 10. */
    CHECK_U64_EQ(qqb_runtest_launches(&t, 0.01, t.floor_se * 0.99, 1000), 0);
    CHECK_U64_EQ(qqb_runtest_runs(&t, b.s2, 0.021, 50), 10);
    /* A non-positive figure is refused. */
    cur[2] = 0;
    CHECK_INT_EQ(qqb_runtest(&b, b.s2, 2, cur, 5, 1, 0, &t), -1);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A run's figure is the Hodges-Lehmann location of its logs, found without
 * making the Walsh averages: against the median of all of them made by
 * hand, for odd and even counts of averages, ties, and a run of 20,000
 * launches (200 million averages: made by hand it would take 1.6 GB). */
static void test_hl_figure(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 7);
    for (size_t n = 1; n <= 40; n++) {
        double x[40], l[40], w[820];
        uint32_t run[40] = {0};
        for (size_t i = 0; i < n; i++) {
            /* every third launch repeats one before it: ties */
            x[i] = i % 3 == 2 ? x[i - 1] : exp(gsl_ran_gaussian(g, 0.05)) * (i % 7 ? 1.0 : 1.3);
            l[i] = log(x[i]);
        }
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i; j < n; j++)
                w[m++] = 0.5 * (l[i] + l[j]);
        qsort(w, m, sizeof *w, cmp_d);
        double want = m % 2 ? w[m / 2] : 0.5 * (w[m / 2 - 1] + w[m / 2]);
        struct qqb_baseruns b;
        CHECK_INT_EQ(qqb_baseruns_of(x, run, n, 1, 0, &b), 0);
        CHECK_DBL_NEAR(b.mean, want, 1e-12);
    }
    /* 20,000 launches, half at e^0 and half at e^0.1: the Walsh averages
     * are 0 (n(n+2)/8 of them, fewer than half), 0.05 and 0.1: 0.05. */
    enum { BIG = 20000 };
    double *x = malloc(BIG * sizeof *x);
    uint32_t *run = calloc(BIG, sizeof *run);
    CHECK(x && run);
    for (size_t i = 0; x && run && i < BIG; i++)
        x[i] = exp(i % 2 ? 0.1 : 0.0);
    struct qqb_baseruns b;
    if (x && run) {
        CHECK_INT_EQ(qqb_baseruns_of(x, run, BIG, 1, 0, &b), 0);
        CHECK_DBL_NEAR(b.mean, 0.05, 1e-12);
    }
    free(x);
    free(run);
    gsl_rng_free(g);
}

/* The passes' rounds, and a run's figure from its passes: the
 * Hodges-Lehmann location of its launches' logs, with the launch noise from
 * successive launches within a pass, so a shift between passes is left to
 * the runs' spread. */
static void test_pass_figures(void)
{
    int from, to;
    static const int want[4][2] = {{0, 2}, {2, 4}, {4, 7}, {7, 10}};
    for (int p = 0; p < 4; p++) {
        CHECK_INT_EQ(qqb_pass_rounds(2, 10, 4, p, &from, &to), 0);
        CHECK_INT_EQ(from, want[p][0]);
        CHECK_INT_EQ(to, want[p][1]);
    }
    CHECK_INT_EQ(qqb_pass_rounds(9, 9, 1, 0, &from, &to), 0);
    CHECK_INT_EQ(to, 9);
    CHECK_INT_EQ(qqb_pass_rounds(2, 9, 1, 0, &from, &to), -1); /* one pass takes all */
    CHECK_INT_EQ(qqb_pass_rounds(2, 10, 4, 4, &from, &to), -1);
    CHECK_INT_EQ(qqb_pass_rounds(0, 10, 4, 0, &from, &to), -1);
    /* Run 0: passes at log 0 and 0.1 (figure 0.05); run 1: all at 0.02;
     * run 2: passes at 0.04 and 0.06 (0.05). No launch noise within a
     * pass: within_sd 0, and the spread of the runs' figures is s2. */
    double l[12] = {0, 0, 0.1, 0.1, 0.02, 0.02, 0.02, 0.02, 0.04, 0.04, 0.06, 0.06}, x[12];
    uint32_t run[12];
    for (int i = 0; i < 12; i++) {
        x[i] = exp(l[i]);
        run[i] = (uint32_t)(i / 4);
    }
    struct qqb_baseruns b;
    CHECK_INT_EQ(qqb_baseruns_of(x, run, 12, 2, 0, &b), 0);
    CHECK_DBL_NEAR(b.mean, 0.04, 1e-12);
    CHECK_DBL_NEAR(b.s2, 3e-4, 1e-12); /* (0.01^2 + 0.02^2 + 0.01^2) / 2 */
    CHECK_DBL_NEAR(b.within_sd, 0, 1e-12);
    /* No more launches than passes (4 of each): no pass has a difference
     * within it, so each run's successive launches across its passes are
     * its noise: 3 differences a run, 9 in all, where they would be none. */
    CHECK_INT_EQ(qqb_baseruns_of(x, run, 12, 4, 0, &b), 0);
    CHECK_U64_EQ(b.ndiff, 9);
    CHECK_INT_EQ(qqb_baseruns_of(x, run, 12, 2, 0, &b), 0);
    CHECK_U64_EQ(b.ndiff, 6); /* 2 passes of 2: one difference each */
    /* The current run in 2 passes at 0.1 and 0.2: figure 0.15. */
    double cur[4] = {exp(0.1), exp(0.1), exp(0.2), exp(0.2)};
    struct qqb_runtest t;
    CHECK_INT_EQ(qqb_baseruns_of(x, run, 12, 2, 0, &b), 0);
    CHECK_INT_EQ(qqb_runtest(&b, b.s2, 2, cur, 4, 2, 0, &t), 0);
    CHECK_DBL_NEAR(t.est, 0.11, 1e-12);
    CHECK_DBL_NEAR(t.wc, 0, 1e-12);
}

/* qqb_per_reference matches a launch's reference by its stamp, not its
 * position: a launch without one is left out, and the others keep their
 * own reference. */
static void test_per_reference(void)
{
    struct qqb_results res;
    memset(&res, 0, sizeof res);
    const char *names[1] = {"c"};
    CHECK_INT_EQ(qqb_results_init(&res, names, 1), 0);
    struct qqb_case_result *c = res.cases[0];
    CHECK(qqb_case_metric(c, "k", "per_hit") != NULL);
    CHECK(qqb_case_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT) != NULL);
    /* Both made: the metrics array no longer moves. */
    struct qqb_metric *m = qqb_case_metric(c, "k", "per_hit");
    struct qqb_metric *ref = qqb_case_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT);
    static const double x[5] = {100, 200, 300, 400, 500};
    static const uint32_t run[5] = {0, 0, 0, 1, 1}, launch[5] = {0, 1, 2, 0, 1};
    for (int i = 0; m && i < 5; i++)
        CHECK_INT_EQ(qqb_metric_add_at(m, x[i], run[i], launch[i]), 0);
    /* References for every launch but (0, 1), recorded in another order. */
    static const double rv[4] = {4, 10, 3, 8};
    static const uint32_t rrun[4] = {1, 0, 0, 1}, rlaunch[4] = {1, 0, 2, 0};
    for (int i = 0; ref && i < 4; i++)
        CHECK_INT_EQ(qqb_metric_add_at(ref, rv[i], rrun[i], rlaunch[i]), 0);
    double *v = NULL;
    uint32_t *r = NULL;
    size_t n = 0;
    if (m && ref) {
        CHECK_INT_EQ(qqb_per_reference(m, ref, &v, &r, &n), 0);
        CHECK_INT_EQ(n, 4);
        static const double want[4] = {10, 100, 50, 125};
        static const uint32_t want_run[4] = {0, 0, 1, 1};
        for (size_t i = 0; v && r && i < n && i < 4; i++) {
            CHECK_DBL_NEAR(v[i], want[i], 1e-12);
            CHECK_INT_EQ(r[i], want_run[i]);
        }
        free(v);
        free(r);
        CHECK_INT_EQ(qqb_per_reference(m, NULL, &v, NULL, &n), 0); /* no reference: none */
        CHECK_INT_EQ(n, 0);
        free(v);
    }
    qqb_results_free(&res);
}

/* ---------------------------------------------------------------------
 * Simulations of the judge that runs: one benchmark whose case records
 * SIM_KEYS keys (so qqb_judge_with makes SIM_KEYS baseline rows, shrinks
 * their variances together and puts them in one Holm family). The
 * baseline holds R runs of SIM_N launches, each run in P passes over the
 * suite (qqb_pass_rounds, as the measurement takes them). A key's launches
 * are shifted on the log scale by N(0, SI) for the whole run of qqbench
 * (the part of the machine's weather a run keeps), by N(0, SW) for each
 * pass (the part that moves within minutes), and each launch by N(0, SL);
 * a shift of the whole machine for a run, N(0, SM), moves every key and
 * the machine reference alike, which has its own launch noise N(0, SR). A
 * line may add an outlier: a launch 30% slow with chance TAIL. The plan
 * (qqb_judge_plan_start, as the pipeline's measurement calls it) sets the
 * current run up to the launches it wants, up to 8x. A line with a goal
 * (docs/STATISTICS.md; issue 34's table) runs SIM_GOAL suites and asserts
 * the goal on its estimate (fixture_goal: "<= 1%" is at most 20 false
 * suites of 2000, ">= 99%" at least 1980 caught), the chance another seed
 * flips it printed. At this seed the A/A lines have 0 to 20 false suites
 * of 2000 (20: runs shifting 5% with R = 3, on the goal);
 * the power goals are met, +10% with passes shifting 2% and with 2%
 * shifts of the machine at 1987 and 1989 of 2000 against 1980, which
 * another seed misses with chance up to 0.5 (at the Clopper-Pearson
 * bound). A line without a goal runs
 * SIM_FLOOR suites and holds its count to a floor at the lower 1e-4 /
 * SIM_NCHECK quantile of Binomial(trials, floor). Rows are not independent
 * (one plan, one prior, one baseline a suite): their share is bounded by
 * the suites' mean and its standard error, at the normal quantile of the
 * same level.
 * --------------------------------------------------------------------- */

#define SIM_KEYS   20
#define SIM_N      10
#define SIM_MOST   80
#define SIM_NCHECK 20
#define SIM_GOAL   2000 /* a goal line's suites */
#define SIM_FLOOR  500  /* a line's suites where no goal is set */

struct simcase {
    double si, sw, sl; /* sigma (log) of a run's shift, a pass's shift, a launch */
    size_t runs;       /* baseline runs */
    double change;     /* factor planted in key 0 (1: none) */
    int passes;        /* passes over the suite a run takes */
    double tail;       /* the chance a launch is 30% slow (an outlier) */
    double sm;         /* sigma (log) of a run's shift of the whole machine: every
                          key's and the machine reference's alike */
    double sr;         /* sigma (log) of the reference's own launch noise; 0: the
                          runs record no reference */
    double refmove;    /* the current run's reference alone moved by this factor (0: 1) */
    double keymove;    /* the current run's keys alone moved by this factor (0: 1): a
                          memory-bound hit the reference's multiply chain does not feel */
};

static struct qqb_suite *sim_suite(void)
{
    char body[64];
    snprintf(body, sizeof body, "    threshold: 2\n    repetitions: %d\n", SIM_N);
    return fixture_suite(body);
}

/* The simulations' suite and its plan into P: the suite (free it after P),
 * or NULL, failed. */
static struct qqb_suite *sim_plan(struct qqb_plan *p)
{
    char err[256];
    struct qqb_suite *s = sim_suite();
    CHECK(s != NULL);
    if (s && qqb_plan_make(s, NULL, 0, 0, p, err, sizeof err) != 0) {
        CHECK(!"the simulations' plan");
        qqb_suite_free(s);
        return NULL;
    }
    return s;
}

static void sim_results(const struct qqb_plan *p, struct qqb_results *r)
{
    fixture_results(p, r, 1000);
}

/* Launches FROM..TO-1 of run RUN, every key shifted by SHIFT[key] and the
 * machine's MSHIFT, and, where SC has one, the machine reference shifted
 * by MSHIFT. */
static void sim_launches(gsl_rng *g, const struct simcase *sc, struct qqb_case_result *c,
                         const double *shift, double mshift, uint32_t run, size_t from, size_t to,
                         int planted)
{
    double rf = planted && sc->refmove > 0 ? sc->refmove : 1.0;
    double kf = planted && sc->keymove > 0 ? sc->keymove : 1.0;
    for (size_t i = from; i < to; i++) {
        if (sc->sr > 0)
            qqb_metric_add_at(qqb_case_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                              500 * rf * exp(mshift + gsl_ran_gaussian(g, sc->sr)), run,
                              (uint32_t)i);
        for (int k = 0; k < SIM_KEYS; k++) {
            double f = (planted && k == 0 ? sc->change : 1.0) * kf;
            if (sc->tail > 0 && gsl_rng_uniform(g) < sc->tail)
                f *= 1.3;
            qqb_metric_add_at(qqb_case_metric(c, fixture_key(k), QQB_VERDICT_METRIC),
                              1000 * f * exp(mshift + shift[k] + gsl_ran_gaussian(g, sc->sl)), run,
                              (uint32_t)i);
        }
        c->launches++;
    }
}

struct simtally {
    unsigned suites_false; /* suites with a regressed or improved row other than the planted one */
    unsigned rows, noisy, blind, unchanged;
    unsigned caught;            /* the planted row read regressed */
    double launches;            /* mean launches the plan took */
    unsigned by_ref;            /* suites judged on figures per machine reference */
    double noisy_sum, noisy_sq; /* of each suite's share of rows noisy */
    unsigned decide_notes;      /* noisy rows whose note names the launches that would decide */
    unsigned plan_notes;        /* ... that says they had the launches the plan wanted */
    unsigned wrong_notes;       /* notes at odds with the launches the run took */
};

/* One run RUN of SC into INTO (SIM_N launches, or WANT where more, up to
 * SIM_MOST, in SC->passes passes, each key shifted by the run's and the
 * pass's shifts), as the measurement takes it: the first pass takes the
 * repetitions' share, the others share the rest. */
static void sim_run(gsl_rng *g, const struct simcase *sc, struct qqb_results *into, uint32_t run,
                    size_t want, int cur)
{
    double inv[SIM_KEYS], shift[SIM_KEYS];
    int total = want > SIM_MOST ? SIM_MOST : want > SIM_N ? (int)want : SIM_N;
    int first = sc->passes > 1 ? SIM_N / sc->passes : total; /* the repetitions' share */
    for (int k = 0; k < SIM_KEYS; k++)
        inv[k] = gsl_ran_gaussian(g, sc->si);
    double machine = gsl_ran_gaussian(g, sc->sm);
    for (int pass = 0; pass < sc->passes; pass++) {
        int from, to;
        CHECK_INT_EQ(qqb_pass_rounds(first, total, sc->passes, pass, &from, &to), 0);
        for (int k = 0; k < SIM_KEYS; k++)
            shift[k] = inv[k] + gsl_ran_gaussian(g, sc->sw);
        sim_launches(g, sc, into->cases[0], shift, machine, run, (size_t)from, (size_t)to, cur);
    }
}

static void sim_suites(const struct qqb_plan *plan, const struct simcase *sc, unsigned trials,
                       unsigned long seed, struct simtally *t)
{
    struct qqb_plan pp = *plan; /* the run's passes, as the pipeline sets them */
    const struct qqb_plan *p = &pp;
    pp.passes = sc->passes;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    memset(t, 0, sizeof *t);
    for (unsigned s = 0; s < trials; s++) {
        struct qqb_results base, cur;
        unsigned noisy_before = t->noisy, rows_before = t->rows;
        sim_results(p, &base);
        sim_results(p, &cur);
        for (uint32_t r = 0; r < sc->runs; r++)
            sim_run(g, sc, &base, r, 0, 0);
        base.cases[0]->runs = sc->runs;
        size_t want = 0;
        CHECK_INT_EQ(qqb_judge_plan_start(p, &base, &want), 0);
        sim_run(g, sc, &cur, 0, want, 1);
        unsigned long taken = cur.cases[0]->launches;
        t->launches += (double)taken / trials;
        struct qqb_judgement j;
        CHECK_INT_EQ(qqb_judge(p, &cur, &base, &j), 0);
        t->by_ref += (unsigned)j.by_reference;
        int falsev = 0;
        for (size_t i = 0; i < j.ncmp; i++) {
            const struct qqb_cmp *row = &j.cmp[i];
            int planted = sc->change != 1.0 && !strcmp(row->key, fixture_key(0));
            if (planted) {
                t->caught += row->verdict == QQB_REGRESSED;
                continue;
            }
            t->rows++;
            falsev |= row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED;
            t->noisy += row->verdict == QQB_NOISY;
            /* A noisy row's note names more launches only where the run
             * was cut at the most the plan may take (SIM_MOST, below what
             * it wanted), more than the run had; and where it says it had
             * the launches the plan wanted, it names the launches the run
             * had (explain, judge.c). Both against the simulation's own
             * count, not the row's fields the note was written from. */
            /* A row a guard of the figure per reference acted on reads this
             * run, which the plan could not: its note says so instead. */
            int planned = row->ref_guard == QQB_RG_NONE;
            const char *at =
                planned && row->verdict == QQB_NOISY ? strstr(row->why, "; about ") : NULL;
            unsigned long said = 0;
            int wrong = 0;
            if (at && sscanf(at, "; about %lu launches would decide", &said) == 1) {
                t->decide_notes++;
                wrong = !(taken == SIM_MOST && want > SIM_MOST && said > taken);
            }
            at = planned && row->verdict == QQB_NOISY ? strstr(row->why, "; it had the ") : NULL;
            if (at && sscanf(at, "; it had the %lu launches the plan wanted", &said) == 1) {
                t->plan_notes++;
                wrong = said != taken;
            }
            if (wrong && t->wrong_notes++ < 3)
                TEST_FAIL_AT("a noisy row's note, the run taking %lu launches of %zu wanted (at "
                             "most %d): %s",
                             taken, want, SIM_MOST, row->why);
            t->blind += row->verdict == QQB_BLIND;
            t->unchanged += row->verdict == QQB_UNCHANGED;
        }
        t->suites_false += (unsigned)falsev;
        double share = (double)(t->noisy - noisy_before) / (double)(t->rows - rows_before);
        t->noisy_sum += share;
        t->noisy_sq += share * share;
        qqb_judgement_free(&j);
        qqb_results_free(&base);
        qqb_results_free(&cur);
    }
    gsl_rng_free(g);
}

/* The suites' mean share of rows noisy is within GOAL: below it by no
 * less than the normal quantile of 1e-4 / SIM_NCHECK in standard errors
 * of that mean over N suites (the suite is the unit: its rows share one
 * plan, prior and baseline). */
static int share_within(const struct simtally *t, unsigned n, double goal)
{
    double mean = t->noisy_sum / n, var = (t->noisy_sq - n * mean * mean) / (n - 1);
    double se = sqrt(var > 0 ? var / n : 0);
    return mean <= goal + gsl_cdf_ugaussian_Qinv(1e-4 / SIM_NCHECK) * se;
}

/* The lower 1e-4 / SIM_NCHECK quantile of Binomial(n, p): a count below it
 * fails a procedure whose rate is p. */
static unsigned lower(unsigned n, double p)
{
    unsigned k = 0;
    while (k < n && gsl_cdf_binomial_P(k, p, n) <= 1e-4 / SIM_NCHECK)
        k++;
    return k;
}

static void test_sim_goals(void)
{
    struct qqb_plan p;
    struct qqb_suite *s = sim_plan(&p);
    if (!s)
        return;
    struct simtally t;
    unsigned N = fixture_trials(SIM_GOAL), decide_notes = 0, plan_notes = 0;
    char what[96];
    /* False verdicts: suites of 20 rows, shifts up to 5% (kept by the run,
     * or moving from pass to pass, or the whole machine's, which its
     * reference sees), R >= 3. The reference (its own launch noise 1%) is
     * recorded in every run. Where it sees the machine's shift the judge
     * takes the figure per reference; where it sees none it only adds a
     * little noise, the choice is near even, and taking it must cost no
     * false verdicts (section 19). */
    static const struct simcase aa[8] = {{0.0, 0.0, 0.02, 5, 1.0, 5, 0, 0, 0.01, 0, 0},
                                         {0.0, 0.02, 0.02, 5, 1.0, 5, 0, 0, 0.01, 0, 0},
                                         {0.02, 0.0, 0.02, 5, 1.0, 5, 0, 0, 0.01, 0, 0},
                                         {0.0, 0.05, 0.02, 3, 1.0, 5, 0, 0, 0.01, 0, 0},
                                         {0.05, 0.0, 0.02, 3, 1.0, 5, 0, 0, 0.01, 0, 0},
                                         {0.0, 0.02, 0.02, 5, 1.0, 5, 0.05, 0, 0.01, 0, 0},
                                         {0.0, 0.0, 0.02, 3, 1.0, 5, 0, 0.05, 0.01, 0, 0},
                                         {0.01, 0.0, 0.02, 5, 1.0, 5, 0, 0.02, 0.01, 0, 0}};
    unsigned long seed = 1126;
    printf("TABLE sim17 | machine (shift a run keeps, shift of a pass, the whole machine's shift "
           "its reference sees, launch noise), passes, baseline runs, change | suites with a "
           "false regressed or improved | rows unchanged / noisy / blind | planted row caught | "
           "launches taken | figure per reference |\n"
           "TABLE sim17 |---|---|---|---|---|---|\n");
    for (int c = 0; c < 8; c++) {
        sim_suites(&p, &aa[c], N, seed++, &t);
        printf("  A/A, run %.0f%%, pass %.0f%%, machine %.0f%%, launches %.0f%%, R %zu: %u of %u "
               "suites with a false verdict; rows %.1f%% unchanged, %.1f%% noisy, %.1f%% blind; "
               "%.0f launches; per reference in %u\n",
               100 * aa[c].si, 100 * aa[c].sw, 100 * aa[c].sm, 100 * aa[c].sl, aa[c].runs,
               t.suites_false, N, 100.0 * t.unchanged / t.rows, 100.0 * t.noisy / t.rows,
               100.0 * t.blind / t.rows, t.launches, t.by_ref);
        printf("TABLE sim17 | run %.0f%%, pass %.0f%%, machine %.0f%%, launch %.0f%%%s, %d passes, "
               "R = %zu, none | %u of %u (goal <= 1%%) | %.1f%% / %.1f%% / %.1f%% | - | %.0f | %u "
               "of %u |\n",
               100 * aa[c].si, 100 * aa[c].sw, 100 * aa[c].sm, 100 * aa[c].sl,
               aa[c].tail > 0 ? " (1 in 20 launches 30% slow)" : "", aa[c].passes, aa[c].runs,
               t.suites_false, N, 100.0 * t.unchanged / t.rows, 100.0 * t.noisy / t.rows,
               100.0 * t.blind / t.rows, t.launches, t.by_ref, N);
        snprintf(what, sizeof what, "A/A, line %d: false suites", c + 1);
        fixture_goal(what, t.suites_false, N, 0.01, 0);
        decide_notes += t.decide_notes;
        plan_notes += t.plan_notes;
        if (c == 0) /* launch noise only: the plan decides */
            CHECK(share_within(&t, N, 0.10));
        /* A reference that sees the machine's shifts is taken where its gain
         * is clear (a variance ratio below 0.5, section 19): with 5% shifts
         * of the machine in 95% of suites; with 2%, and 1% of each key's own
         * the reference does not see (a ratio near 0.3 on 4 degrees of
         * freedom), in 75%. Where it sees nothing, never. */
        if (aa[c].sm > 0)
            CHECK(t.by_ref >= lower(N, aa[c].sm >= 0.05 ? 0.95 : 0.75));
        else
            CHECK_U64_EQ(t.by_ref, 0);
    }
    /* Power: a change planted in 1 of 20 rows. The goals: +5% at launch
     * noise only, +10% where the machine's shifts move from pass to pass,
     * and where the whole machine shifts for a run (its reference sees
     * it); where a key's shift is its own and the run keeps it, no schedule
     * within one run averages it away, and the rate is quoted
     * (docs/STATISTICS.md sections 18 and 19). */
    static const struct simcase pw[5] = {{0.0, 0.0, 0.02, 5, 1.05, 5, 0, 0, 0.01, 0, 0},
                                         {0.0, 0.02, 0.02, 5, 1.10, 5, 0, 0, 0.01, 0, 0},
                                         {0.0, 0.0, 0.02, 5, 1.10, 5, 0, 0.02, 0.01, 0, 0},
                                         {0.01, 0.0, 0.02, 5, 1.10, 5, 0, 0.02, 0.01, 0, 0},
                                         {0.02, 0.0, 0.02, 5, 1.10, 5, 0, 0, 0.01, 0, 0}};
    static const double goal[5] = {0.90, 0.99, 0.99, 0.90, 0.30};
    static const char *said[5] = {
        "(goal >= 90%)", "(goal >= 99%)", "(goal >= 99%)",
        "(no goal: 1% of a key's own; a floor of 90% asserted)",
        "(no goal: a key's own shift the run keeps; a floor of 30% asserted, the bound 67%)"};
    for (int c = 0; c < 5; c++) {
        N = fixture_trials(c < 3 ? SIM_GOAL : SIM_FLOOR);
        sim_suites(&p, &pw[c], N, seed++, &t);
        decide_notes += t.decide_notes;
        plan_notes += t.plan_notes;
        printf("  %+.0f%%, run %.0f%%, pass %.0f%%, machine %.0f%%, launches %.0f%%, R %zu: caught "
               "in %u of %u suites; per reference in %u\n",
               100 * (pw[c].change - 1), 100 * pw[c].si, 100 * pw[c].sw, 100 * pw[c].sm,
               100 * pw[c].sl, pw[c].runs, t.caught, N, t.by_ref);
        printf("TABLE sim17 | run %.0f%%, pass %.0f%%, machine %.0f%%, launch %.0f%%, %d passes, "
               "R = %zu, %+.0f%% in 1 of 20 rows | %u of %u | %.1f%% / %.1f%% / %.1f%% | %u of %u "
               "%s | %.0f | %u of %u |\n",
               100 * pw[c].si, 100 * pw[c].sw, 100 * pw[c].sm, 100 * pw[c].sl, pw[c].passes,
               pw[c].runs, 100 * (pw[c].change - 1), t.suites_false, N,
               100.0 * t.unchanged / t.rows, 100.0 * t.noisy / t.rows, 100.0 * t.blind / t.rows,
               t.caught, N, said[c], t.launches, t.by_ref, N);
        snprintf(what, sizeof what, "%+.0f%%, line %d: caught", 100 * (pw[c].change - 1), c + 1);
        if (c < 3)
            fixture_goal(what, t.caught, N, goal[c], 1);
        else
            CHECK(t.caught >= lower(N, goal[c]));
    }
    /* Both notes of a noisy row turn up, so their checks (sim_suites) are made. */
    printf("  noisy rows' notes: %u name the launches that would decide, %u had the plan's\n",
           decide_notes, plan_notes);
    CHECK(decide_notes > 0 && plan_notes > 0);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* The guarded machine reference (docs/STATISTICS.md section 19, "Guards"):
 * the reference alone, or the keys alone (a memory-bound hit the
 * reference's multiply chain does not feel), move +3% in the current run,
 * on a machine whose whole-machine shifts of 2% the reference sees (so the
 * figure per reference is taken) and on one without them. Each at most 1%
 * of 2000 suites with a false verdict (fixture_goal, seed fixed). */
static void test_sim_reference(void)
{
    struct qqb_plan p;
    struct qqb_suite *s = sim_plan(&p);
    if (!s)
        return;
    static const struct simcase gl[3] = {{0.0, 0.0, 0.02, 5, 1.0, 5, 0, 0.02, 0.01, 1.03, 0},
                                         {0.0, 0.0, 0.02, 5, 1.0, 5, 0, 0.02, 0.01, 0, 1.03},
                                         {0.0, 0.0, 0.02, 5, 1.0, 5, 0, 0, 0.01, 1.03, 0}};
    static const char *name[3] = {"the reference alone +3%, machine 2%",
                                  "the keys alone +3%, machine 2%",
                                  "the reference alone +3%, machine 0%"};
    unsigned N = fixture_trials(SIM_GOAL);
    struct simtally t;
    char what[96];
    printf("TABLE sim19 | the current run (launch noise 2%%, 5 passes, R = 5, the reference's "
           "own noise 1%%) | suites with a false regressed or improved | rows unchanged / noisy / "
           "blind | figure per reference |\n"
           "TABLE sim19 |---|---|---|---|\n");
    for (int c = 0; c < 3; c++) {
        sim_suites(&p, &gl[c], N, 3401 + (unsigned long)c, &t);
        printf("  %s, R 5: %u of %u suites with a false verdict; rows %.1f%% unchanged, %.1f%% "
               "noisy, %.1f%% blind; per reference in %u\n",
               name[c], t.suites_false, N, 100.0 * t.unchanged / t.rows, 100.0 * t.noisy / t.rows,
               100.0 * t.blind / t.rows, t.by_ref);
        printf("TABLE sim19 | %s | %u of %u (goal <= 1%%) | %.1f%% / %.1f%% / %.1f%% | %u of %u "
               "|\n",
               name[c], t.suites_false, N, 100.0 * t.unchanged / t.rows, 100.0 * t.noisy / t.rows,
               100.0 * t.blind / t.rows, t.by_ref, N);
        snprintf(what, sizeof what, "%s: false suites", name[c]);
        fixture_goal(what, t.suites_false, N, 0.01, 0);
    }
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* Run RUN of the guards' suite into R: every key and the machine reference
 * moved by the machine's MACHINE, the reference by REF more, key 0 by KEY0
 * more; each launch a little apart (0.1% steps, deterministic). */
static void guard_run(struct qqb_results *r, uint32_t run, double machine, double ref, double key0)
{
    struct qqb_case_result *c = r->cases[0];
    for (uint32_t i = 0; i < SIM_N; i++) {
        double wob = 1 + 0.001 * (double)((i * 7 + run * 3) % 5) - 0.002;
        qqb_metric_add_at(qqb_case_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                          500 * machine * ref * wob, run, i);
        for (int k = 0; k < SIM_KEYS; k++) {
            double kw = 1 + 0.001 * (double)((i * 3 + (uint32_t)k * 5 + run) % 5) - 0.002;
            qqb_metric_add_at(qqb_case_metric(c, fixture_key(k), QQB_VERDICT_METRIC),
                              1000 * (k == 0 ? key0 : 1) * machine * wob * kw, run, i);
        }
        c->launches++;
    }
}

/* The guards of the figure per machine reference, one at a time, on a
 * baseline of 5 runs whose machine shifted -6% to +6% (every key and the
 * reference alike: the figure per reference taken): this run's machine 8%
 * faster with key 0 2% faster (per reference +6.5%: the signs differ, not
 * taken); the reference alone 60% slower (the machine moved: as measured);
 * a baseline by another qqbench build, or one that does not say (refused). */
static void test_reference_guards(void)
{
    static const double shifts[5] = {1.06, 0.94, 1.03, 0.97, 1.0};
    struct qqb_plan p;
    struct qqb_suite *s = sim_plan(&p);
    if (!s)
        return;
    for (int c = 0; c < 4; c++) {
        struct qqb_results base, cur;
        struct qqb_judgement j;
        sim_results(&p, &base);
        sim_results(&p, &cur);
        for (uint32_t r = 0; r < 5; r++)
            guard_run(&base, r, shifts[r], 1, 1);
        base.cases[0]->runs = 5;
        if (c == 2) { /* another build */
            free(base.version);
            base.version = strdup("0.0.9");
        } else if (c == 3) { /* an older baseline: no version */
            free(base.version);
            base.version = NULL;
        }
        guard_run(&cur, 0, c == 1 ? 1 : 0.92, c == 1 ? 1.6 : 1, c == 1 ? 1 : 0.98 / 0.92);
        CHECK_INT_EQ(qqb_judge(&p, &cur, &base, &j), 0);
        const struct qqb_cmp *k0 = NULL, *k1 = NULL;
        for (size_t i = 0; i < j.ncmp; i++) {
            if (!strcmp(j.cmp[i].key, fixture_key(0)))
                k0 = &j.cmp[i];
            if (!strcmp(j.cmp[i].key, fixture_key(1)))
                k1 = &j.cmp[i];
        }
        CHECK(k0 != NULL && k1 != NULL);
        if (!k0 || !k1) {
            qqb_judgement_free(&j);
            break;
        }
        printf("  guards %d: key 0 %s (%s), per reference %d, moved cases %zu, build differs "
               "%d\n",
               c, qqb_verdict_name(k0->verdict), k0->why, k0->by_reference, j.ref_moved_cases,
               j.ref_build_differs);
        if (c == 0) { /* per reference; key 0 +6.5% so, -2% as measured */
            CHECK(k1->by_reference);
            CHECK(k0->ch.pct > 2);
            CHECK_INT_EQ(k0->ref_guard, QQB_RG_SIGN);
            CHECK_INT_EQ(k0->verdict, QQB_NOISY);
            CHECK(strstr(k0->why, "the signs differ") != NULL);
        } else if (c == 1) { /* the reference alone moved: as measured */
            CHECK_U64_EQ(j.ref_moved_cases, 1);
            CHECK(!k0->by_reference && !k1->by_reference);
            CHECK_INT_EQ(k1->ref_guard, QQB_RG_MOVED);
            CHECK(strstr(k1->why, "the machine moved") != NULL);
            CHECK(k1->machine_why && strstr(k1->machine_why, "the machine moved"));
            CHECK(k1->verdict != QQB_REGRESSED && k1->verdict != QQB_IMPROVED);
        } else { /* another build, or not said: refused, and said */
            CHECK(j.ref_build_differs && !j.by_reference);
            CHECK_INT_EQ(k1->ref_guard, QQB_RG_BUILD);
            CHECK(strstr(k1->why, "qqbench's own build differs") != NULL);
        }
        qqb_judgement_free(&j);
        qqb_results_free(&base);
        qqb_results_free(&cur);
    }
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* The plan's rounds: up to the most. */
static void test_plan_rounds(void)
{
    CHECK_INT_EQ(qqb_plan_rounds(24, 3, 24), 21);
    CHECK_INT_EQ(qqb_plan_rounds(100, 3, 24), 21); /* at most 8x */
    CHECK_INT_EQ(qqb_plan_rounds(2, 3, 24), 0);    /* has enough */
    CHECK_INT_EQ(qqb_plan_rounds(24, 30, 24), 0);  /* already beyond the most */
    /* The budget after the first pass: 100 s left, 40 s the repetitions
     * must take, 120 s the plan's more: half of it is kept. */
    CHECK_DBL_NEAR(qqb_budget_factor(100, 40, 120), 0.5, 1e-12);
    CHECK_DBL_NEAR(qqb_budget_factor(200, 40, 120), 1.0, 1e-12); /* all fit */
    CHECK_DBL_NEAR(qqb_budget_factor(30, 40, 120), 0.0, 1e-12);  /* none does */
    CHECK_DBL_NEAR(qqb_budget_factor(30, 40, 0), 1.0, 1e-12);    /* nothing to cut */
}

/* qqb_judge_plan_start on a baseline whose runs agree (run shifts 0.1%) and
 * whose launches scatter by 3%: it wants more launches than the 10 taken;
 * with runs 10% apart no number of launches sees 2%: it wants none. */
static void test_planned(void)
{
    struct qqb_plan p;
    struct qqb_suite *s = sim_plan(&p);
    if (!s)
        return;
    for (int wide = 0; wide < 2; wide++) {
        gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(g, 99);
        struct qqb_results base;
        sim_results(&p, &base);
        struct simcase sc = {0, 0, 0.03, 5, 1.0, 1, 0, 0, 0, 0, 0};
        double shift[SIM_KEYS];
        for (uint32_t r = 0; r < 5; r++) {
            for (int k = 0; k < SIM_KEYS; k++)
                shift[k] = wide ? (r % 2 ? 0.1 : -0.1) : 0.001 * r;
            sim_launches(g, &sc, base.cases[0], shift, 0, r, 0, SIM_N, 0);
        }
        size_t want = 0;
        CHECK_INT_EQ(qqb_judge_plan_start(&p, &base, &want), 0);
        printf("  runs %s: the plan wants %zu launches\n", wide ? "10% apart" : "agreeing", want);
        if (wide)
            CHECK_U64_EQ(want, 0);
        else
            CHECK(want > SIM_N);
        qqb_results_free(&base);
        gsl_rng_free(g);
    }
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

int main(void)
{
    RUN(test_obrien_fleming_published);
    RUN(test_obrien_fleming_walks);
    RUN(test_trigamma_inverse);
    RUN(test_shrink_prior);
    RUN(test_sign_beyond);
    RUN(test_runtest_by_hand);
    RUN(test_plan_rounds);
    RUN(test_planned);
    RUN(test_pass_figures);
    RUN(test_hl_figure);
    RUN(test_per_reference);
    RUN(test_reference_guards);
    RUN(test_sim_goals);
    RUN(test_sim_reference);
    return TEST_DONE();
}
