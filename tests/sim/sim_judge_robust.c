/* sim_judge_robust.c - the stored-baseline judge (docs/STATISTICS.md section 20) under the run
 * shifts real machines have: heavy tails (Student t5), a shift common to every key of a run that
 * the machine reference does not see, and bimodal launches. Simulated on the judge that runs
 * (qqb_judge_plan_start, then qqb_judge with its shrinkage, Holm family and blind rules), 2000
 * suites of 20 rows a line, fixed seeds.
 *
 * The goal lines (sim_judge_robust, no argument: 10 lines of 2000 suites, about 30 s of one
 * core) are not part of make test: label sim, run by make conformance and by
 * `ctest -L '^sim$'`. Each goal is asserted on the estimate (fixture_goal: "<= 1%" is at most
 * 20 of 2000 false suites); the chance another seed flips it is printed per line at the
 * rate's one-sided 95% Clopper-Pearson bound.
 *
 * make test keeps a reduced check (sim_judge_robust --reduced, test sim_judge_robust_reduced,
 * about 2 s of one core): the common lines at R = 3, shifts of 2% and 5%, 500 suites each,
 * every count held to the upper 1e-4/2 quantile of Binomial(500, 1%) (16): a judge at the
 * goal fails it for fewer than 1 seed in 10,000; the judge before the common gate (2.8% and
 * 4.1% false suites at 2000, about 14 and 20 of 500) fails the 5% line.
 *
 * With other arguments (a line's name, or all, and a number of suites) it runs those lines
 * and asserts nothing: the figures of a commit's body. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_fixture.h"
#include "judge_plan.h"
#include "plan.h"
#include "results.h"
#include "runlevel.h"
#include "suite.h"
#include "test.h"

#define ROB_KEYS   20
#define ROB_N      10 /* repetitions: launches a run takes before the plan's */
#define ROB_MOST   80
#define ROB_PASSES 5

/* One line of the simulation. Every shift is on the log scale. */
struct robcase {
    const char *name;
    double sl;     /* a launch's own noise (sd) */
    double si;     /* a key's own run shift (sd), kept by the run */
    int tails;     /* 0: normal run shifts; else Student t on this many df, scaled to the sd */
    double sc;     /* a run's shift common to every key, not the reference (sd) */
    double bp, bf; /* a key's launch is BF slower with chance BP */
    double sw;     /* a key's shift for one pass (sd): the minutes a pass takes */
    size_t runs;   /* baseline runs */
    double change; /* factor planted in key 0 of the current run (1: none) */
    double goal;   /* the goal: at most this share of false suites, or (change) at least this
                      share caught; 0: none (the figures printed, nothing asserted) */
    double guard;  /* > 0: a known miss of an "at most" goal, held to this share
                      (fixture_goal_missed) */
};

struct robtally {
    unsigned suites_false; /* a regressed or improved row other than the planted one */
    unsigned caught;       /* the planted row read regressed */
    unsigned rows, unchanged, noisy, blind;
    unsigned blind_against; /* blind rows that name --against as their remedy: no number of
                               runs or launches would see the threshold */
    double launches;
};

/* A run shift of sd SD: normal, or Student t on TAILS df scaled to it. */
static double shift_of(gsl_rng *g, double sd, int tails)
{
    if (!(sd > 0))
        return 0;
    if (tails <= 2)
        return gsl_ran_gaussian(g, sd);
    return sd * gsl_ran_tdist(g, tails) * sqrt((tails - 2.0) / tails);
}

/* Run RUN of SC into INTO: ROB_N launches, or WANT where more (up to
 * ROB_MOST), in ROB_PASSES passes as the measurement takes them; CUR: the
 * current run (the change). The machine reference (its own launch noise
 * 1%) is timed before every launch and sees none of the shifts. */
static void rob_run(gsl_rng *g, const struct robcase *sc, struct qqb_results *into, uint32_t run,
                    size_t want, int cur)
{
    int total = want > ROB_MOST ? ROB_MOST : want > ROB_N ? (int)want : ROB_N;
    int first = ROB_N / ROB_PASSES;
    double own[ROB_KEYS];
    for (int k = 0; k < ROB_KEYS; k++)
        own[k] = shift_of(g, sc->si, sc->tails);
    double common = shift_of(g, sc->sc, sc->tails);
    struct qqb_case_result *c = into->cases[0];
    for (int pass = 0; pass < ROB_PASSES; pass++) {
        int from, to;
        CHECK_INT_EQ(qqb_pass_rounds(first, total, ROB_PASSES, pass, &from, &to), 0);
        double pshift[ROB_KEYS];
        for (int k = 0; k < ROB_KEYS; k++)
            pshift[k] = sc->sw > 0 ? gsl_ran_gaussian(g, sc->sw) : 0;
        for (int i = from; i < to; i++) {
            qqb_metric_add_at(qqb_case_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                              500 * exp(gsl_ran_gaussian(g, 0.01)), run, (uint32_t)i);
            for (int k = 0; k < ROB_KEYS; k++) {
                double slow = sc->bp > 0 && gsl_rng_uniform(g) < sc->bp ? log(sc->bf) : 0;
                double f = cur && k == 0 ? log(sc->change) : 0;
                qqb_metric_add_at(qqb_case_metric(c, fixture_key(k), QQB_VERDICT_METRIC),
                                  1000 * exp(f + slow + common + own[k] + pshift[k] +
                                             gsl_ran_gaussian(g, sc->sl)),
                                  run, (uint32_t)i);
            }
            c->launches++;
        }
    }
}

static void rob_suites(const struct qqb_plan *plan, const struct robcase *sc, unsigned trials,
                       unsigned long seed, struct robtally *t)
{
    struct qqb_plan pp = *plan;
    pp.passes = ROB_PASSES;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    memset(t, 0, sizeof *t);
    for (unsigned s = 0; s < trials; s++) {
        struct qqb_results base, cur;
        fixture_results(&pp, &base, 1000);
        fixture_results(&pp, &cur, 1000);
        for (uint32_t r = 0; r < sc->runs; r++)
            rob_run(g, sc, &base, r, 0, 0);
        base.cases[0]->runs = sc->runs;
        size_t want = 0;
        CHECK_INT_EQ(qqb_judge_plan_start(&pp, &base, &want), 0);
        rob_run(g, sc, &cur, 0, want, 1);
        t->launches += (double)cur.cases[0]->launches / trials;
        struct qqb_judgement j;
        CHECK_INT_EQ(qqb_judge(&pp, &cur, &base, &j), 0);
        int falsev = 0;
        for (size_t i = 0; i < j.ncmp; i++) {
            const struct qqb_cmp *row = &j.cmp[i];
            if (sc->change != 1.0 && !strcmp(row->key, fixture_key(0))) {
                t->caught += row->verdict == QQB_REGRESSED;
                continue;
            }
            t->rows++;
            falsev |= row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED;
            t->unchanged += row->verdict == QQB_UNCHANGED;
            t->noisy += row->verdict == QQB_NOISY;
            t->blind += row->verdict == QQB_BLIND;
            t->blind_against +=
                row->verdict == QQB_BLIND && row->seen_by && !strcmp(row->seen_by, "--against");
        }
        t->suites_false += (unsigned)falsev;
        qqb_judgement_free(&j);
        qqb_results_free(&base);
        qqb_results_free(&cur);
    }
    gsl_rng_free(g);
}

/* The lines: name, launch noise, own run shift, tails, common shift,
 * bimodal chance and factor, pass shift, baseline runs, change, goal. */
static const struct robcase lines[] = {
    /* issue 34's t5 goal (<= 1%) is not met: known misses, each held to its
     * guard a little above where the judge stands (docs/STATISTICS.md
     * section 20 says what meeting it cost) */
    {"t5-2-R5", 0.02, 0.02, 5, 0, 0, 1, 0, 5, 1.0, 0.01, 0.065},
    {"t5-5-R5", 0.02, 0.05, 5, 0, 0, 1, 0, 5, 1.0, 0.01, 0.115},
    {"t5-2-R3", 0.02, 0.02, 5, 0, 0, 1, 0, 3, 1.0, 0.01, 0.05},
    {"t5-5-R3", 0.02, 0.05, 5, 0, 0, 1, 0, 3, 1.0, 0.01, 0.095},
    {"common-2-R3", 0.02, 0, 0, 0.02, 0, 1, 0, 3, 1.0, 0.01, 0},
    {"common-5-R3", 0.02, 0, 0, 0.05, 0, 1, 0, 3, 1.0, 0.01, 0},
    {"common-t5-5-R3", 0.02, 0.01, 5, 0.05, 0, 1, 0, 3, 1.0, 0.01, 0},
    {"bimodal-aa", 0.02, 0, 0, 0, 0.3, 1.15, 0, 5, 1.0, 0.01, 0},
    /* issue 34's goal is 90%: not met (docs/STATISTICS.md section 20) */
    {"bimodal+10", 0.02, 0, 0, 0, 0.3, 1.15, 0, 5, 1.10, 0, 0},
    /* no goal: a common shift of 2% the reference does not see holds most rows blind */
    {"common-2-R3+10", 0.02, 0, 0, 0.02, 0, 1, 0, 3, 1.10, 0, 0},
    /* section 17's power lines (test_judge_runs asserts them too): what the
     * tails must not cost where the launches or the passes hold the variance */
    {"launch+5", 0.02, 0, 0, 0, 0, 1, 0, 5, 1.05, 0.90, 0},
    {"pass2+10", 0.02, 0, 0, 0, 0, 1, 0.02, 5, 1.10, 0.99, 0},
    {"pass5-R3", 0.02, 0, 0, 0, 0, 1, 0.05, 3, 1.0, 0.01, 0},
};
#define NLINES (sizeof lines / sizeof lines[0])

static void report(const struct robcase *sc, const struct robtally *t, unsigned n)
{
    printf("  %-15s R=%zu: %u of %u suites false (%.2f%%); caught %u (%.1f%%); rows %.1f%% "
           "unchanged, %.1f%% noisy, %.1f%% blind (%u name --against); %.0f launches\n",
           sc->name, sc->runs, t->suites_false, n, 100.0 * t->suites_false / n, t->caught,
           100.0 * t->caught / n, 100.0 * t->unchanged / t->rows, 100.0 * t->noisy / t->rows,
           100.0 * t->blind / t->rows, t->blind_against, t->launches);
}

int main(int argc, char **argv)
{
    char err[256], body[64];
    struct qqb_plan p;
    snprintf(body, sizeof body, "    threshold: 2\n    repetitions: %d\n", ROB_N);
    struct qqb_suite *s = fixture_suite(body);
    CHECK(s != NULL);
    if (!s || qqb_plan_make(s, NULL, 0, 0, &p, err, sizeof err) != 0) {
        CHECK(!"the simulations' plan");
        return TEST_DONE();
    }
    struct robtally t;
    if (argc == 2 && !strcmp(argv[1], "--reduced")) {
        static const char *reduced[2] = {"common-2-R3", "common-5-R3"};
        unsigned rn = fixture_trials(500), most = 0;
        while (most < rn && gsl_cdf_binomial_Q(most, 0.01, rn) > 1e-4 / 2)
            most++;
        for (size_t i = 0; i < NLINES; i++)
            for (int k = 0; k < 2; k++)
                if (!strcmp(lines[i].name, reduced[k])) {
                    rob_suites(&p, &lines[i], rn, 3400 + i, &t);
                    report(&lines[i], &t, rn);
                    printf("  %s: %u of %u false suites, at most %u (a 1%% judge passes with "
                           "chance > 1 - 1e-4/2)\n",
                           lines[i].name, t.suites_false, rn, most);
                    CHECK(FIXTURE_RATES_UNCHECKED || t.suites_false <= most);
                }
        qqb_plan_free(&p);
        qqb_suite_free(s);
        return TEST_DONE();
    }
    unsigned n = fixture_trials(argc >= 3 ? (unsigned)atoi(argv[2]) : 2000);
    for (size_t i = 0; i < NLINES; i++) {
        const struct robcase *sc = &lines[i];
        if (argc >= 2 && strcmp(argv[1], sc->name) && strcmp(argv[1], "all"))
            continue;
        rob_suites(&p, sc, n, 3400 + i, &t);
        report(sc, &t, n);
        if (argc >= 2 || !(sc->goal > 0))
            continue;
        char what[96];
        snprintf(what, sizeof what, "%s: %s", sc->name,
                 sc->change != 1.0 ? "caught" : "false suites");
        if (sc->change != 1.0)
            fixture_goal(what, t.caught, n, sc->goal, 1);
        else if (sc->guard > 0)
            fixture_goal_missed(what, t.suites_false, n, sc->goal, sc->guard);
        else
            fixture_goal(what, t.suites_false, n, sc->goal, 0);
    }
    qqb_plan_free(&p);
    qqb_suite_free(s);
    return TEST_DONE();
}
