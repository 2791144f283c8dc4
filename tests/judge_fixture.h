/* judge_fixture.h - the judge tests' suite and results, made without launching anything: one
 * benchmark k whose kernel is /bin/true, and results sized from its plan; the rounds of a
 * simulated --against measurement; goals asserted on a simulation's estimate. Header-only: each
 * test is one executable. */
#ifndef QQB_TEST_JUDGE_FIXTURE_H
#define QQB_TEST_JUDGE_FIXTURE_H

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge_plan.h"
#include "plan.h"
#include "results.h"
#include "suite.h"
#include "test.h"

/* A suite of one benchmark k; BODY is the rest of the benchmark's mapping
 * (variants, threshold, repetitions ...). NULL where it does not load (the
 * reason on stderr). */
static inline struct qqb_suite *fixture_suite(const char *body)
{
    static int serial;
    char path[64], err[512];
    snprintf(path, sizeof path, "judge-%ld-%d.yaml", (long)getpid(), serial++);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f, "suite: j\nbenchmarks:\n  - name: k\n    kernel: /bin/true\n%s", body);
    fclose(f);
    struct qqb_suite *s = NULL;
    if (qqb_suite_load(path, NULL, &s, err, sizeof err) != 0)
        fprintf(stderr, "%s\n", err);
    unlink(path);
    return s;
}

/* Results sized from PLAN, each case of benchmark k on one node at MHZ, by
 * one qqbench build (version "fixture": the figure per machine reference
 * is refused across builds, docs/STATISTICS.md section 19). */
static inline void fixture_results(const struct qqb_plan *p, struct qqb_results *r, double mhz)
{
    memset(r, 0, sizeof *r);
    const char **names = qqb_plan_names(p);
    CHECK_INT_EQ(qqb_results_init(r, names, p->ncases), 0);
    free(names);
    r->version = strdup("fixture");
    for (size_t i = 0; i < p->ncases; i++) {
        r->cases[i]->bench = strdup("k");
        r->cases[i]->nodes = 1;
        r->cases[i]->mhz = mhz;
    }
}

/* Key K's name in the simulations: k00, k01, ... */
static inline const char *fixture_key(int k)
{
    static char names[100][8];
    if (k < 0 || k >= 100)
        return "k??";
    if (!names[k][0])
        snprintf(names[k], sizeof names[k], "k%02d", k);
    return names[k];
}

/* One measurement against a reference build (--against), as the measurement takes it, into
 * R (sized from P: case 0 the change build, case 1 the reference build). Each round's
 * weather (a slow period with probability 0.3, factor U[1.3, 1.9]) hits both builds alike and
 * cancels in the pairs; each launch of each of KEYS keys (fixture_key) has its own lognormal
 * noise SIGMA; key 0 is CHANGE x slower in the change build. With BATCH > 0 the rounds come
 * BATCH at a time while qqb_judge_ab_undecided says group 0 is undecided, up to MOST; with
 * BATCH 0, MOST rounds. The draws of a round do not depend on SIGMA, CHANGE or MOST (the
 * noise is SIGMA x a standard normal): runs from one seed are common random numbers. The
 * rounds taken. */
static inline int fixture_against(gsl_rng *g, const struct qqb_plan *p, struct qqb_results *r,
                                  int keys, double change, double sigma, int batch, int most)
{
    int i = 0;
    for (; i < most; i++) {
        if (batch > 0 && i > 0 && i % batch == 0 && !qqb_judge_ab_undecided(p, 0, r, NULL))
            break;
        double w = gsl_rng_uniform(g) < 0.3 ? gsl_ran_flat(g, 1.3, 1.9) : 1.0;
        for (int k = 0; k < keys; k++) {
            double level = 1000.0 * (1 + k), f = k == 0 ? change : 1.0;
            qqb_metric_add_at(qqb_case_metric(r->cases[0], fixture_key(k), QQB_VERDICT_METRIC),
                              level * f * w * exp(gsl_ran_gaussian(g, sigma)), 0, (uint32_t)i);
            qqb_metric_add_at(qqb_case_metric(r->cases[1], fixture_key(k), QQB_VERDICT_METRIC),
                              level * w * exp(gsl_ran_gaussian(g, sigma)), 0, (uint32_t)i);
        }
        r->cases[0]->launches++;
        r->cases[1]->launches++;
    }
    return i;
}

/* 1 in a sanitizer build: its pass checks memory and races, not rates. */
#define FIXTURE_RATES_UNCHECKED (TEST_ASAN || TEST_TSAN)

/* The simulations' count in this build: N, or an eighth of it under a sanitizer (whose rates
 * are printed, not asserted: at an eighth of the suites a goal met with room in the plain
 * pass may be missed by chance). */
static inline unsigned fixture_trials(unsigned n)
{
    return FIXTURE_RATES_UNCHECKED ? (n + 7) / 8 : n;
}

/*
 * A goal asserted on the simulation's estimate itself (issue 34): COUNT of N meets "at least
 * GOAL" (AT_LEAST 1) or "at most GOAL" (0) when COUNT / N does, with the seed fixed. The chance
 * that another seed flips a met goal is printed, at the rate's one-sided 95% Clopper-Pearson
 * bound on the goal's side (the worst rate the count leaves likely): P(Binomial(N, bound)
 * lands on the goal's other side). 1 where met. Not asserted under a sanitizer
 * (fixture_trials).
 */
/* The one-sided 95% Clopper-Pearson bound of a rate seen COUNT times in N: the upper (UPPER
 * 1) or lower one, by bisection on the binomial (GSL's beta quantile does not converge at
 * every count). */
static inline double fixture_cp(unsigned count, unsigned n, int upper)
{
    if (upper ? count >= n : count == 0)
        return upper ? 1 : 0;
    double lo = 0, hi = 1;
    for (int it = 0; it < 60; it++) {
        double mid = (lo + hi) / 2;
        /* the upper bound: P(B(n, p) <= count) = 0.05; the lower: P(B(n, p) >= count) = 0.05 */
        int above = upper ? gsl_cdf_binomial_P(count, mid, n) < 0.05
                          : gsl_cdf_binomial_Q(count - 1, mid, n) > 0.05;
        if (above)
            hi = mid;
        else
            lo = mid;
    }
    return upper ? hi : lo;
}

static inline double fixture_flip(unsigned count, unsigned n, double goal, int at_least)
{
    unsigned need = at_least ? (unsigned)ceil(goal * n - 1e-9) : (unsigned)floor(goal * n + 1e-9);
    if (at_least)
        return need == 0 ? 0 : gsl_cdf_binomial_P(need - 1, fixture_cp(count, n, 0), n);
    return gsl_cdf_binomial_Q(need, fixture_cp(count, n, 1), n);
}

static inline int fixture_goal(const char *what, unsigned count, unsigned n, double goal,
                               int at_least)
{
    int met = at_least ? count >= goal * n - 1e-9 : count <= goal * n + 1e-9;
    printf("  %-50s %4u of %u = %5.1f%% (goal %s %g%%): ", what, count, n, 100.0 * count / n,
           at_least ? ">=" : "<=", 100 * goal);
    if (met)
        printf("met; another seed misses it with chance <= %.2g\n",
               fixture_flip(count, n, goal, at_least));
    else
        printf("MISSED%s\n", FIXTURE_RATES_UNCHECKED ? " (a sanitizer's pass: not asserted)" : "");
    if (!met && !FIXTURE_RATES_UNCHECKED)
        TEST_FAIL_AT("%s: %u of %u, goal %s %g%%", what, count, n,
                     at_least ? ">=" : "<=", 100 * goal);
    return met;
}

/* A goal line the judge is known to miss, said as missed and held where it
 * stands: COUNT of N against "at most GOAL" is printed MISSED while it is
 * over GOAL, and fails the test beyond GUARD (where today's judge is), so
 * that it cannot get worse unseen. A judge that meets the goal prints
 * "met: assert it with fixture_goal" and the line goes back to that. */
static inline void fixture_goal_missed(const char *what, unsigned count, unsigned n, double goal,
                                       double guard)
{
    int met = count <= goal * n + 1e-9;
    printf("  %-50s %4u of %u = %5.1f%% (goal <= %g%%): %s\n", what, count, n, 100.0 * count / n,
           100 * goal,
           met ? "met: assert it with fixture_goal" : "MISSED, a known miss held to its guard");
    if (!FIXTURE_RATES_UNCHECKED && !(count <= guard * n + 1e-9))
        TEST_FAIL_AT("%s: %u of %u, beyond the known miss's guard of %g%%", what, count, n,
                     100 * guard);
}

#endif
