/* test_judge_stop.c - the stop rule of the rounds against a reference build and the final
 * judgement ask one question (docs/STATISTICS.md section 17, "One rule to stop and to
 * judge"): simulated on the real judge (qqb_judge_ab_undecided, qqb_judge) with suites of
 * 20 keys, one of them planted. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"
#include "judge_fixture.h"
#include "plan.h"
#include "results.h"
#include "sequential.h"
#include "stats.h"
#include "suite.h"
#include "test.h"

/*
 * --against with the shipped defaults (threshold 2%, 95%, 10 rounds a
 * look), one case of SIM_KEYS keys: SIM_KEYS rows in the family. Each
 * round's weather (a slow period with probability 0.3, factor U[1.3,
 * 1.9]) hits both builds alike and cancels in the pairs; each launch has
 * its own lognormal noise sigma ("launch noise"). The rounds are taken
 * as the measurement takes them: SIM_BATCH at a time while
 * qqb_judge_ab_undecided says the group is undecided, up to the most
 * --max-repetitions allows; then qqb_judge gives the verdicts.
 *
 * The goal lines run SIM_TRIALS suites each, the lines of power against
 * noise and rounds a quarter of that (a suite of 20 rows at up to 160
 * rounds costs a judgement of the suite at every look); QQ_SIM_SCALE=k
 * (the sanitizer build sets it) runs 1/k of each, and every bound is
 * computed from the binomial for the count actually run. A bound is the 1e-4 / SIM_CHECKS
 * quantile of Binomial(N, goal) on the side the goal is on, so a judge
 * that meets every goal exactly fails one of the SIM_CHECKS checks
 * together for fewer than 1 seed in 10,000 (Bonferroni over the checks).
 * Power monotone: a rate that falls from one line to the next by more
 * than the normal quantile of 1e-4 / SIM_CHECKS in the standard errors
 * of the difference of two binomial counts fails (the same seed-flip
 * bound for two lines of equal power).
 * --------------------------------------------------------------------- */

#define SIM_KEYS   20
#define SIM_BATCH  10
#define SIM_CHECKS 17
#ifndef SIM_TRIALS
#define SIM_TRIALS 2000
#endif

static unsigned trials(void)
{
    const char *s = getenv("QQ_SIM_SCALE");
    long k = s ? strtol(s, NULL, 10) : 1;
    return k > 1 && k <= 100 ? SIM_TRIALS / (unsigned)k : SIM_TRIALS;
}

static struct qqb_suite *sim_suite(void)
{
    char body[64];
    snprintf(body, sizeof body, "    threshold: 2\n    repetitions: %d\n", SIM_BATCH);
    return fixture_suite(body);
}

static const char *key_name(int k)
{
    static char names[SIM_KEYS][8];
    if (!names[k][0])
        snprintf(names[k], sizeof names[k], "k%02d", k);
    return names[k];
}

static void sim_results(const struct qqb_plan *p, struct qqb_results *r)
{
    fixture_results(p, r, 1000);
}

struct tally {
    unsigned n;      /* suites */
    unsigned caught; /* the planted row regressed */
    unsigned false_; /* suites with another row regressed or improved */
    double rounds;   /* rounds taken, summed */
};

/* N suites with key 0 CHANGE x slower in the change build (case 0), launch
 * noise SIGMA, up to MOST rounds. */
static void sim(const struct qqb_plan *p0, double change, double sigma, int most,
                unsigned long seed, unsigned n, struct tally *t)
{
    struct qqb_plan p = *p0;
    p.max_reps = most;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    memset(t, 0, sizeof *t);
    t->n = n;
    for (unsigned s = 0; s < n; s++) {
        struct qqb_results cur;
        struct qqb_judgement j;
        sim_results(&p, &cur);
        int i = 0;
        for (; i < most; i++) {
            if (i > 0 && i % SIM_BATCH == 0 && !qqb_judge_ab_undecided(&p, 0, &cur, NULL))
                break;
            double w = gsl_rng_uniform(g) < 0.3 ? gsl_ran_flat(g, 1.3, 1.9) : 1.0;
            for (int k = 0; k < SIM_KEYS; k++) {
                double level = 1000.0 * (1 + k), f = k == 0 ? change : 1.0;
                qqb_metric_add_at(qqb_case_metric(cur.cases[0], key_name(k), QQB_VERDICT_METRIC),
                                  level * f * w * exp(gsl_ran_gaussian(g, sigma)), 0, (uint32_t)i);
                qqb_metric_add_at(qqb_case_metric(cur.cases[1], key_name(k), QQB_VERDICT_METRIC),
                                  level * w * exp(gsl_ran_gaussian(g, sigma)), 0, (uint32_t)i);
            }
            cur.cases[0]->launches++;
            cur.cases[1]->launches++;
        }
        t->rounds += i;
        CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
        int fa = 0;
        for (size_t r = 0; r < j.ncmp; r++) {
            const struct qqb_cmp *row = &j.cmp[r];
            if (row->ab != QQB_CMP_BUILD)
                continue;
            int decided = row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED;
            if (change != 1.0 && !strcmp(row->key, key_name(0)))
                t->caught += row->verdict == QQB_REGRESSED;
            else
                fa |= decided;
        }
        t->false_ += (unsigned)fa;
        qqb_judgement_free(&j);
        qqb_results_free(&cur);
    }
    gsl_rng_free(g);
}

static const double TAIL = 1e-4 / SIM_CHECKS;

/* At least GOAL of the suites caught: the count must not fall below the
 * lower TAIL quantile of Binomial(n, GOAL). */
static void check_at_least(const char *what, unsigned count, unsigned n, double goal)
{
    unsigned k = 0;
    while (k < n && gsl_cdf_binomial_P(k, goal, n) <= TAIL)
        k++;
    printf("  %-48s %4u of %u (goal >= %.0f%%: >= %u)\n", what, count, n, 100 * goal, k);
    if (count < k)
        TEST_FAIL_AT("%s: %u of %u, below %u", what, count, n, k);
}

/* At most GOAL of the suites false: above the upper TAIL quantile fails. */
static void check_at_most(const char *what, unsigned count, unsigned n, double goal)
{
    unsigned k = n;
    while (k > 0 && gsl_cdf_binomial_Q(k - 1, goal, n) <= TAIL)
        k--;
    printf("  %-48s %4u of %u (goal <= %.0f%%: <= %u)\n", what, count, n, 100 * goal, k);
    if (count > k)
        TEST_FAIL_AT("%s: %u of %u, above %u", what, count, n, k);
}

/* Power does not fall from A (the easier line: less noise, or fewer
 * rounds allowed) to B beyond chance. */
static void check_not_below(const char *what, const struct tally *a, const struct tally *b)
{
    double pa = (double)a->caught / a->n, pb = (double)b->caught / b->n;
    double pm = (pa + pb) / 2;
    double se = sqrt(pm * (1 - pm) * (1.0 / a->n + 1.0 / b->n));
    double slack = gsl_cdf_ugaussian_Qinv(TAIL) * (se > 0 ? se : 1.0 / a->n);
    printf("  %-48s %.3f -> %.3f (a fall of at most %.3f)\n", what, pa, pb, slack);
    if (pb < pa - slack)
        TEST_FAIL_AT("%s: power fell %.3f -> %.3f", what, pa, pb);
}

static void test_stop_and_judge(void)
{
    struct qqb_suite *s = sim_suite();
    struct qqb_plan p;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(
        qqb_plan_make_against(s, NULL, 0, 0, "/nonexistent-ref", NULL, &p, err, sizeof err), 0);
    CHECK_INT_EQ(p.ncases, 2);
    unsigned n = trials();
    static const double noise[3] = {0.005, 0.01, 0.02};
    struct tally planted[3], aa[3];
    unsigned long seed = 20261129;
    char what[96];
    printf("  %u suites a goal line, %d keys, threshold 2%%, 10 rounds a look\n", n, SIM_KEYS);
    /* +5% in 1 of 20 rows, within 80 rounds: caught >= 99% at each noise;
     * A/A: <= 1% false suites. */
    for (int i = 0; i < 3; i++) {
        sim(&p, 1.05, noise[i], 80, seed++, n, &planted[i]);
        snprintf(what, sizeof what, "+5%%, noise %.1f%%, 80 rounds: caught", 100 * noise[i]);
        check_at_least(what, planted[i].caught, n, 0.99);
        printf("    mean rounds %.1f\n", planted[i].rounds / n);
        sim(&p, 1.0, noise[i], 80, seed++, n, &aa[i]);
        snprintf(what, sizeof what, "A/A, noise %.1f%%, 80 rounds: false suites", 100 * noise[i]);
        check_at_most(what, aa[i].false_, n, 0.01);
        snprintf(what, sizeof what, "+5%%, noise %.1f%%: false suites (other rows)",
                 100 * noise[i]);
        check_at_most(what, planted[i].false_, n, 0.01);
    }
    check_not_below("+5%: power from noise 0.5% to 1%", &planted[0], &planted[1]);
    check_not_below("+5%: power from noise 1% to 2%", &planted[1], &planted[2]);
    /* A change near the threshold, where power is below 1, so a fall
     * shows: +3.5% at noise 2%, 1% and 0.5% (power must not fall as the
     * noise falls), and at 40, 80 and 160 rounds (nor as the rounds
     * allowed rise). */
    struct tally near[3], most[3];
    n /= 4;
    for (int i = 0; i < 3; i++)
        sim(&p, 1.035, noise[2 - i], 80, seed++, n, &near[i]);
    check_not_below("+3.5%: power from noise 2% to 1%", &near[0], &near[1]);
    check_not_below("+3.5%: power from noise 1% to 0.5%", &near[1], &near[2]);
    static const int mosts[3] = {40, 80, 160};
    for (int i = 0; i < 3; i++) {
        sim(&p, 1.035, 0.02, mosts[i], seed++, n, &most[i]);
        printf("    +3.5%%, noise 2%%, %d rounds: %u of %u, mean rounds %.1f\n", mosts[i],
               most[i].caught, n, most[i].rounds / n);
    }
    check_not_below("+3.5%, noise 2%: power from 40 to 80 rounds", &most[0], &most[1]);
    check_not_below("+3.5%, noise 2%: power from 80 to 160 rounds", &most[1], &most[2]);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* A look the sign test cannot reach is skipped: +5% in every one of 10
 * pairs (one key) is beyond the threshold at 95%, but look 1 of 8's level
 * (4.6e-9) is below the smallest p of 10 pairs (2^-9): noisy, the note
 * says the next look can, and the stop rule asks for it; at 20 pairs
 * (level 3.4e-5, smallest p 1.9e-6) it decides and the looking stops. */
static void test_unreachable_look(void)
{
    struct qqb_suite *s = sim_suite();
    struct qqb_plan p;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(
        qqb_plan_make_against(s, NULL, 0, 0, "/nonexistent-ref", NULL, &p, err, sizeof err), 0);
    p.max_reps = 80;
    struct qqb_results cur;
    sim_results(&p, &cur);
    for (int look = 1; look <= 2; look++) {
        for (uint32_t i = (uint32_t)(look - 1) * SIM_BATCH; i < (uint32_t)look * SIM_BATCH; i++) {
            double w = 1.0 + 0.01 * (double)(i % 7);
            qqb_metric_add_at(qqb_case_metric(cur.cases[0], "k00", QQB_VERDICT_METRIC),
                              1050.0 * w * (1 + 1e-4 * (double)(i % 3)), 0, i);
            qqb_metric_add_at(qqb_case_metric(cur.cases[1], "k00", QQB_VERDICT_METRIC), 1000.0 * w,
                              0, i);
            cur.cases[0]->launches++;
            cur.cases[1]->launches++;
        }
        struct qqb_judgement j;
        CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
        CHECK_INT_EQ(j.ncmp, 1);
        if (j.ncmp == 1) {
            const struct qqb_cmp *row = &j.cmp[0];
            printf("  look %zu of %zu: %s (%s)\n", row->look, row->looks,
                   qqb_verdict_name(row->verdict), row->why);
            CHECK_INT_EQ(row->look, (size_t)look);
            CHECK_INT_EQ(row->verdict, look == 1 ? QQB_NOISY : QQB_REGRESSED);
            if (look == 1)
                CHECK(strstr(row->why, "10 pairs cannot reach it: the next look can") != NULL);
        }
        CHECK_INT_EQ(qqb_judge_ab_undecided(&p, 0, &cur, NULL), look == 1);
        qqb_judgement_free(&j);
    }
    qqb_results_free(&cur);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* Each row at its own MDE (issue 34): one key, launch noise SIGMA, 40
 * rounds judged once (look 4 of 4). 200 A/A suites give the rows' mean
 * MDE; N suites with that change planted must read regressed at least 90%
 * of the time (the lower 1e-4 quantile of Binomial(N, 0.9)). */
static void mde_line(const struct qqb_plan *p0, double sigma, unsigned long seed, unsigned n)
{
    struct qqb_plan p = *p0;
    p.max_reps = 40;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    double mde = 0;
    unsigned caught = 0, pilots = 200;
    for (unsigned s = 0; s < pilots + n; s++) {
        double f = s < pilots ? 1.0 : 1.0 + mde / 100.0;
        struct qqb_results cur;
        struct qqb_judgement j;
        sim_results(&p, &cur);
        for (uint32_t i = 0; i < 40; i++) {
            double w = gsl_rng_uniform(g) < 0.3 ? gsl_ran_flat(g, 1.3, 1.9) : 1.0;
            qqb_metric_add_at(qqb_case_metric(cur.cases[0], "k00", QQB_VERDICT_METRIC),
                              1000.0 * f * w * exp(gsl_ran_gaussian(g, sigma)), 0, i);
            qqb_metric_add_at(qqb_case_metric(cur.cases[1], "k00", QQB_VERDICT_METRIC),
                              1000.0 * w * exp(gsl_ran_gaussian(g, sigma)), 0, i);
            cur.cases[0]->launches++;
            cur.cases[1]->launches++;
        }
        CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
        if (j.ncmp == 1 && s < pilots)
            mde += j.cmp[0].mde_pct / pilots;
        else if (j.ncmp == 1)
            caught += j.cmp[0].verdict == QQB_REGRESSED;
        qqb_judgement_free(&j);
        qqb_results_free(&cur);
    }
    gsl_rng_free(g);
    char what[96];
    snprintf(what, sizeof what, "noise %.1f%%: at its MDE (%+.2f%%) caught", 100 * sigma, mde);
    check_at_least(what, caught, n, 0.90);
}

static void test_mde(void)
{
    struct qqb_suite *s = sim_suite();
    struct qqb_plan p;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(
        qqb_plan_make_against(s, NULL, 0, 0, "/nonexistent-ref", NULL, &p, err, sizeof err), 0);
    unsigned n = trials() / 2;
    mde_line(&p, 0.01, 20261130, n);
    mde_line(&p, 0.02, 20261131, n);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* An undecided row at the plan's last look whose MDE is beyond (1 + t)^2 -
 * 1 (it cannot tell no change from t) is blind, with the change it does
 * catch: 10 pairs of one key scattered by about 10%, one look. */
static void test_blind_by_mde(void)
{
    struct qqb_suite *s = sim_suite();
    struct qqb_plan p;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(
        qqb_plan_make_against(s, NULL, 0, 0, "/nonexistent-ref", NULL, &p, err, sizeof err), 0);
    p.max_reps = SIM_BATCH; /* one look: the last */
    static const double jit[10] = {1.00, 1.12, 0.91, 1.05, 0.93, 1.10, 0.89, 1.03, 1.08, 0.95};
    struct qqb_results cur;
    struct qqb_judgement j;
    sim_results(&p, &cur);
    for (uint32_t i = 0; i < SIM_BATCH; i++) {
        qqb_metric_add_at(qqb_case_metric(cur.cases[0], "k00", QQB_VERDICT_METRIC), 1000.0 * jit[i],
                          0, i);
        qqb_metric_add_at(qqb_case_metric(cur.cases[1], "k00", QQB_VERDICT_METRIC),
                          1000.0 * jit[SIM_BATCH - 1 - i], 0, i);
        cur.cases[0]->launches++;
        cur.cases[1]->launches++;
    }
    CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
    CHECK_INT_EQ(j.ncmp, 1);
    if (j.ncmp == 1) {
        const struct qqb_cmp *row = &j.cmp[0];
        printf("  %s [%+.1f, %+.1f], MDE %+.1f%% (%s)\n", qqb_verdict_name(row->verdict),
               row->ch.lo, row->ch.hi, row->mde_pct, row->why);
        CHECK(row->mde_pct > 4.04);
        CHECK_INT_EQ(row->verdict, QQB_BLIND);
        CHECK(strstr(row->why, "nine times in ten, not 2.0%") != NULL);
    }
    CHECK_INT_EQ(j.build_blind, 1);
    qqb_judgement_free(&j);
    qqb_results_free(&cur);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

int main(void)
{
    RUN(test_blind_by_mde);
    RUN(test_mde);
    RUN(test_unreachable_look);
    RUN(test_stop_and_judge);
    return TEST_DONE();
}
