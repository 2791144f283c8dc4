/* test_judge_resolution.c - net figures near zero across launches: each launch resolved against
 * its own calibration, the launches' nets still straddling zero, is unresolved (the clock path's
 * empty state moves between launches by more than a counter step). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge_plan.h"
#include "judge_fixture.h"
#include "plan.h"
#include "results.h"
#include "suite.h"
#include "test.h"

/* Six launches of key work in C: the launch's empty state EMPTY[i], its raw
 * figure EMPTY[i] + NET[i], each resolved within its launch (per_hit_floored
 * 0, as collect.c stores a net above two of its own standard errors), the
 * figure stored as the net (at least half a step of 1 tick). */
static void launches(struct qqb_case_result *c, const double *net, const double *empty)
{
    for (uint32_t i = 0; i < 6; i++) {
        qqb_metric_add_at(qqb_case_metric(c, "work", QQB_VERDICT_METRIC),
                          net[i] > 0.5 ? net[i] : 0.5, 0, i);
        qqb_metric_add_at(qqb_case_metric(c, "work", "per_hit_raw"), empty[i] + net[i], 0, i);
        qqb_metric_add_at(qqb_case_metric(c, "work", "per_hit_floored"), 0, 0, i);
        qqb_metric_add_at(qqb_case_metric(c, QQB_TIMER_KEY, "empty"), empty[i], 0, i);
        qqb_metric_add_at(qqb_case_metric(c, QQB_TIMER_KEY, "step"), 1, 0, i);
        c->launches++;
    }
}

/* The figures of an empty chain at QQ_TICKS=clock@500 on an AMD EPYC guest:
 * each launch's net "resolved", the launches' -2.7 to +0.9. */
static const double empty_a[6] = {25.1, 26.12, 23.99, 25.18, 23.73, 24.37};
static const double net_a[6] = {0.18, -2.72, 0.61, 0.25, 0.92, -0.56};
static const double empty_b[6] = {25.31, 25.05, 26.33, 22.98, 23.48, 23.84};
static const double net_b[6] = {-0.39, 0.08, -1.82, 0.04, -0.06, 0.55};
/* A chain of 40 multiply-adds on the same clock: 35 ticks, 1 apart. */
static const double net_c[6] = {35.89, 36.04, 38.05, 35.62, 35.82, 35.48};

static void judge_ab(const double *na, const double *nb, int want)
{
    struct qqb_suite *s = fixture_suite("    variants:\n      a: []\n      b: []\n");
    CHECK(s != NULL);
    if (!s)
        return;
    struct qqb_plan p;
    char err[256];
    CHECK_INT_EQ(qqb_plan_make(s, NULL, 0, 0, &p, err, sizeof err), 0);
    struct qqb_results cur;
    fixture_results(&p, &cur, 500);
    launches(cur.cases[0], na, empty_a);
    launches(cur.cases[1], nb, empty_b);
    struct qqb_judgement j;
    CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
    const struct qqb_cmp *row = NULL;
    for (size_t i = 0; i < j.ncmp; i++)
        if (j.cmp[i].ab && !strcmp(j.cmp[i].key, "work"))
            row = &j.cmp[i];
    CHECK(row != NULL);
    if (row) {
        printf("a %s b: %s, %d figures below resolution\n", na == net_c ? "chain" : "empty",
               qqb_verdict_name(row->verdict), row->below_step);
        CHECK_STR_EQ(qqb_verdict_name(row->verdict), qqb_verdict_name(want));
    }
    qqb_judgement_free(&j);
    qqb_results_free(&cur);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

static void test_empty_against_empty(void)
{
    /* Before the launches' spread was read: "resolved" in every launch, so
     * the row was judged on ratios of near-zero figures (noisy, or a
     * verdict of -43% or +68%). */
    judge_ab(net_a, net_b, QQB_UNRESOLVED);
}

static void test_chain_against_empty(void)
{
    /* Empty against 35 ticks: the change stands, its size a bound. */
    judge_ab(net_a, net_c, QQB_REGRESSED);
}

int main(void)
{
    RUN(test_empty_against_empty);
    RUN(test_chain_against_empty);
    return TEST_DONE();
}
