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

#include "judge_plan.h"
#include "judge_fixture.h"
#include "plan.h"
#include "results.h"
#include "sequential.h"
#include "stats.h"
#include "suite.h"
#include "test.h"

/*
 * --against with the shipped defaults (threshold 2%, 95%, 10 rounds a
 * look), one case of SIM_KEYS keys: SIM_KEYS rows in the family. The
 * rounds are fixture_against's (judge_fixture.h): the weather of a round
 * hits both builds alike, each launch has its own lognormal noise sigma
 * ("launch noise"); SIM_BATCH rounds at a time while
 * qqb_judge_ab_undecided says the group is undecided, up to the most
 * --max-repetitions allows; then qqb_judge gives the verdicts.
 *
 * Suite S of a line is drawn from its own seed (the line family's seed
 * and S), so the lines a property compares (noise 2%, 1% and 0.5%; 40, 80
 * and 160 rounds) see common random numbers: the same weather and the
 * same standard normals, scaled by the noise, round by round. The goal
 * lines run SIM_TRIALS suites each and assert the goal on the estimate
 * (fixture_goal: ">= 99%" is 1980 of 2000, "<= 1%" is 20 of 2000), with
 * the chance another seed flips the verdict printed. Power monotone is
 * asserted on the paired suites: of the suites one line catches and the
 * other does not, the easier line (less noise, more rounds allowed) must
 * have at least as many: its power estimate is not below the harder
 * line's. Under a sanitizer each line runs an eighth of its suites
 * (fixture_trials) and its rates are printed, not asserted: that pass
 * checks memory, not rates.
 * --------------------------------------------------------------------- */

#define SIM_KEYS   20
#define SIM_BATCH  10
#define SIM_TRIALS 2000 /* a goal line's suites */
#define SIM_PAIRED 150  /* a paired line's suites (power monotone) */
#define SIM_T3     600  /* the threshold-3% planted line's suites */
#define SIM_T3_AA  1400 /* and its A/A line's */

static struct qqb_suite *sim_suite(void)
{
    char body[64];
    snprintf(body, sizeof body, "    threshold: 2\n    repetitions: %d\n", SIM_BATCH);
    return fixture_suite(body);
}

static void sim_results(const struct qqb_plan *p, struct qqb_results *r)
{
    fixture_results(p, r, 1000);
}

struct tally {
    unsigned n;          /* suites */
    unsigned caught;     /* the planted row regressed */
    unsigned false_;     /* suites with another row regressed or improved */
    double rounds;       /* rounds taken, summed */
    unsigned char *each; /* per suite: the planted row caught (N of them) */
};

/* N suites with key 0 CHANGE x slower in the change build (case 0), launch
 * noise SIGMA, up to MOST rounds; suite S drawn from seed SEED * 100003 +
 * S (common random numbers across lines of one SEED). */
static void sim(const struct qqb_plan *p0, double change, double sigma, int most,
                unsigned long seed, unsigned n, struct tally *t)
{
    struct qqb_plan p = *p0;
    p.max_reps = most;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    memset(t, 0, sizeof *t);
    t->n = n;
    t->each = calloc(n ? n : 1, 1);
    CHECK(t->each != NULL);
    for (unsigned s = 0; s < n && t->each; s++) {
        struct qqb_results cur;
        struct qqb_judgement j;
        gsl_rng_set(g, seed * 100003UL + s);
        sim_results(&p, &cur);
        t->rounds += fixture_against(g, &p, &cur, SIM_KEYS, change, sigma, SIM_BATCH, most);
        CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
        int fa = 0;
        for (size_t r = 0; r < j.ncmp; r++) {
            const struct qqb_cmp *row = &j.cmp[r];
            if (row->ab != QQB_CMP_BUILD)
                continue;
            int decided = row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED;
            if (change != 1.0 && !strcmp(row->key, fixture_key(0)))
                t->each[s] = row->verdict == QQB_REGRESSED;
            else
                fa |= decided;
        }
        t->caught += t->each[s];
        t->false_ += (unsigned)fa;
        qqb_judgement_free(&j);
        qqb_results_free(&cur);
    }
    gsl_rng_free(g);
}

/* Power does not fall from A (the harder line: more noise, or fewer
 * rounds allowed) to B, on the paired suites: of the suites caught by one
 * line alone, B's are at least A's. The chance another seed flips it is
 * printed at the 95% Clopper-Pearson upper bound of A's share of them. */
static void check_not_below(const char *what, const struct tally *a, const struct tally *b)
{
    unsigned only_a = 0, only_b = 0;
    for (unsigned s = 0; s < a->n && s < b->n; s++) {
        only_a += a->each[s] && !b->each[s];
        only_b += !a->each[s] && b->each[s];
    }
    unsigned m = only_a + only_b;
    printf("  %-50s %.3f -> %.3f (caught by one alone: %u by the first, %u by the second", what,
           (double)a->caught / a->n, (double)b->caught / b->n, only_a, only_b);
    if (only_a <= only_b && m > 0) {
        double q = fixture_cp(only_a, m, 1);
        printf("; another seed flips it with chance <= %.2g)\n", gsl_cdf_binomial_Q(m / 2, q, m));
    } else
        printf(")\n");
    if (only_a > only_b && !FIXTURE_RATES_UNCHECKED)
        TEST_FAIL_AT("%s: power fell %.3f -> %.3f (%u suites caught by the first alone, %u by "
                     "the second)",
                     what, (double)a->caught / a->n, (double)b->caught / b->n, only_a, only_b);
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
    unsigned n = fixture_trials(SIM_TRIALS);
    static const double noise[3] = {0.02, 0.01, 0.005};
    struct tally planted[3], aa[3];
    char what[96];
    printf("  %u suites a goal line, %d keys, threshold 2%%, 10 rounds a look\n", n, SIM_KEYS);
    /* +5% in 1 of 20 rows, within 80 rounds: caught >= 99% at each noise;
     * A/A: <= 1% false suites. At this seed the planted lines catch all
     * 2000 and no line has a false suite: another seed misses a goal with
     * chance below 1e-6 (printed, at the Clopper-Pearson bound). */
    for (int i = 0; i < 3; i++) {
        sim(&p, 1.05, noise[i], 80, 1129, n, &planted[i]);
        snprintf(what, sizeof what, "+5%%, noise %.1f%%, 80 rounds: caught", 100 * noise[i]);
        fixture_goal(what, planted[i].caught, n, 0.99, 1);
        printf("    mean rounds %.1f\n", planted[i].rounds / n);
        snprintf(what, sizeof what, "+5%%, noise %.1f%%: false suites (other rows)",
                 100 * noise[i]);
        fixture_goal(what, planted[i].false_, n, 0.01, 0);
        sim(&p, 1.0, noise[i], 80, 1130, n, &aa[i]);
        snprintf(what, sizeof what, "A/A, noise %.1f%%, 80 rounds: false suites", 100 * noise[i]);
        fixture_goal(what, aa[i].false_, n, 0.01, 0);
        printf("    mean rounds %.1f\n", aa[i].rounds / n);
    }
    /* Power never falls as the noise falls: the goal lines, paired. */
    check_not_below("+5%: power from noise 2% to 1%", &planted[0], &planted[1]);
    check_not_below("+5%: power from noise 1% to 0.5%", &planted[1], &planted[2]);
    /* A change near the threshold, where power is below 1, so a fall
     * shows: +3.5% at noise 2%, 1% and 0.5% (power must not fall as the
     * noise falls), and at 40, 80 and 160 rounds (nor as the rounds
     * allowed rise); the line at noise 2% and 80 rounds is both. */
    struct tally near[3], most[2];
    unsigned m = fixture_trials(SIM_PAIRED);
    for (int i = 0; i < 3; i++)
        sim(&p, 1.035, noise[i], 80, 1131, m, &near[i]);
    check_not_below("+3.5%: power from noise 2% to 1%", &near[0], &near[1]);
    check_not_below("+3.5%: power from noise 1% to 0.5%", &near[1], &near[2]);
    sim(&p, 1.035, 0.02, 40, 1131, m, &most[0]);
    sim(&p, 1.035, 0.02, 160, 1131, m, &most[1]);
    printf("    +3.5%%, noise 2%%: mean rounds %.1f, %.1f and %.1f at most 40, 80 and 160\n",
           most[0].rounds / m, near[0].rounds / m, most[1].rounds / m);
    check_not_below("+3.5%, noise 2%: power from 40 to 80 rounds", &most[0], &near[0]);
    check_not_below("+3.5%, noise 2%: power from 80 to 160 rounds", &near[0], &most[1]);
    for (int i = 0; i < 3; i++) {
        free(planted[i].each);
        free(aa[i].each);
        free(near[i].each);
    }
    free(most[0].each);
    free(most[1].each);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* Every look can decide: +5% in every one of 10 pairs (one key, spread
 * 0.01%) decides at look 1 of 8 (level 4.6e-9). The sign test's smallest
 * p at 10 pairs, 2^-9, could not reach that level, and the row read noisy
 * until look 2; the trimmed t has no floor. Its interval is printed at
 * the level it was judged at (row->level, 1 - 4.6e-9): wide, and still
 * wholly above the threshold. */
static void test_first_look(void)
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
    for (int look = 1; look <= 1; look++) {
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
            printf("  look %zu of %zu: %s [%+.2f, %+.2f] at %.9f (%s)\n", row->look, row->looks,
                   qqb_verdict_name(row->verdict), row->ch.lo, row->ch.hi, row->level, row->why);
            CHECK_INT_EQ(row->look, (size_t)look);
            CHECK_INT_EQ(row->verdict, QQB_REGRESSED);
            CHECK(row->level > 1 - 1e-8 && row->level < 1);
            CHECK(row->ch.lo > 2.0 && row->ch.lo < row->ch.pct && row->ch.hi > row->ch.pct);
        }
        CHECK_INT_EQ(qqb_judge_ab_undecided(&p, 0, &cur, NULL), 0);
        qqb_judgement_free(&j);
    }
    qqb_results_free(&cur);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* Each row at its own MDE (issue 34): one key, launch noise SIGMA, 40
 * rounds judged once (look 4 of 4). 200 A/A suites give the rows' mean
 * MDE; of N suites with that change planted at least 90% must read
 * regressed, on the estimate (fixture_goal). An MDE exact for the true
 * noise is caught 90% of the time, so meeting the goal on the estimate
 * takes an MDE that errs on the safe side: from the scaled MAD of 40 pair
 * ratios (1.7% low) it is caught 89.2% (noise 1%) and 87.3% (2%) at this
 * seed (issue 34 item 4, open). */
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
        fixture_against(g, &p, &cur, 1, f, sigma, 0, 40);
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
    fixture_goal(what, caught, n, 0.90, 1);
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
    unsigned n = fixture_trials(SIM_TRIALS);
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

/* The conformance cell of issue 34 (docs/CONFORMANCE.md: threshold 3%,
 * the synth suites' own): +5% in 1 of 20 rows, launch noise 2%, up to 80
 * rounds. The goal, caught >= 99%, is printed; at this seed the trimmed t
 * catches 590 of 600 (98.3%; 988 of 1000 in a longer run): its power at
 * the last look, about 0.989, is at the goal (docs/STATISTICS.md section
 * 12), so the line holds a floor of 578 of 600 (96.3%). The sign test
 * caught 89.9% of 148 through the CLI (about 0.92 by its efficiency) and
 * fails it; at a power of 0.985 another seed falls below it with chance
 * 5.7e-5. A/A: <= 1% false suites of 1400, on the estimate (fixture_goal,
 * which prints the chance another seed flips it). About 4.5 s of CPU. */
static void test_threshold_3(void)
{
    struct qqb_suite *s = fixture_suite("    threshold: 3\n    repetitions: 10\n");
    struct qqb_plan p;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(
        qqb_plan_make_against(s, NULL, 0, 0, "/nonexistent-ref", NULL, &p, err, sizeof err), 0);
    unsigned n = fixture_trials(SIM_T3), naa = fixture_trials(SIM_T3_AA);
    struct tally planted, aa;
    sim(&p, 1.05, 0.02, 80, 1132, n, &planted);
    printf("  %-50s %4u of %u = %5.1f%% (goal >= 99%%: %s; floor 96.3%%)\n",
           "threshold 3%, +5%, noise 2%, 80 rounds: caught", planted.caught, n,
           100.0 * planted.caught / n, planted.caught >= 0.99 * n ? "met" : "missed");
    if (!FIXTURE_RATES_UNCHECKED)
        CHECK(planted.caught >= 0.963 * n);
    printf("    mean rounds %.1f\n", planted.rounds / n);
    sim(&p, 1.0, 0.02, 80, 1133, naa, &aa);
    fixture_goal("threshold 3%, A/A, noise 2%: false suites", aa.false_, naa, 0.01, 0);
    free(planted.each);
    free(aa.each);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

int main(void)
{
    RUN(test_threshold_3);
    RUN(test_blind_by_mde);
    RUN(test_mde);
    RUN(test_first_look);
    RUN(test_stop_and_judge);
    return TEST_DONE();
}
