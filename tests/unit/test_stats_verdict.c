/* test_stats_verdict.c - the verdicts (harness/stats/stats_verdict.c): the
 * rule at its boundaries, the guarded verdict, the names, the threshold and
 * the exact memory verdict. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "test.h"

/* ------------------------------------------------------------------ */

static struct qqb_change mk(double lo, double hi)
{
    struct qqb_change c;
    memset(&c, 0, sizeof c);
    c.status = QQB_CHANGE_OK;
    c.ci_ok = 1;
    c.lo = lo;
    c.hi = hi;
    c.pct = (lo + hi) / 2;
    c.level_shift = 1.0;
    return c;
}

static void test_verdict_boundaries(void)
{
    struct qqb_change c;
    c = mk(2.0001, 9);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_REGRESSED);
    c = mk(2.0, 9); /* touches +t: not wholly above */
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(-9, -2.0001);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_IMPROVED);
    c = mk(-9, -2.0);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(-2.0, 2.0); /* inside, bounds included */
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_UNCHANGED);
    c = mk(-0.5, 0.5);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_UNCHANGED);
    CHECK_INT_EQ(qqb_verdict_of(&c, -2.0), QQB_UNCHANGED); /* |threshold| */
    c = mk(-2.0001, 1);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(1, 2.0001);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(-30, 30);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(0, 0);
    CHECK_INT_EQ(qqb_verdict_of(&c, 0.0), QQB_UNCHANGED);
    c = mk(0.1, 0.2);
    CHECK_INT_EQ(qqb_verdict_of(&c, 0.0), QQB_REGRESSED);
    CHECK_INT_EQ(qqb_verdict_of(&c, NAN), QQB_NOISY);
    c = mk(5, 9);
    c.ci_ok = 0;
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(5, 9);
    c.status = QQB_CHANGE_TOO_FEW;
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    c = mk(NAN, 9);
    CHECK_INT_EQ(qqb_verdict_of(&c, 2.0), QQB_NOISY);
    CHECK_INT_EQ(qqb_verdict_of(NULL, 2.0), QQB_NOISY);

    /* The guarded verdict: the same unless a side has a level shift. */
    c = mk(5, 9);
    c.level_shift = 1.02;
    CHECK_INT_EQ(qqb_verdict_guarded(&c, 2.0), QQB_REGRESSED);
    c.level_shift = QQB_LEVEL_SHIFT_RATIO;
    CHECK_INT_EQ(qqb_verdict_guarded(&c, 2.0), QQB_NOISY);
    c = mk(-1, 1);
    c.level_shift = 1.7;
    CHECK_INT_EQ(qqb_verdict_guarded(&c, 2.0), QQB_NOISY);
    c.level_shift = NAN;
    CHECK_INT_EQ(qqb_verdict_guarded(&c, 2.0), QQB_NOISY);
    CHECK_INT_EQ(qqb_verdict_guarded(NULL, 2.0), QQB_NOISY);

    CHECK_STR_EQ(qqb_verdict_name(QQB_UNCHANGED), "unchanged");
    CHECK_STR_EQ(qqb_verdict_name(QQB_IMPROVED), "improved");
    CHECK_STR_EQ(qqb_verdict_name(QQB_REGRESSED), "regressed");
    CHECK_STR_EQ(qqb_verdict_name(QQB_NOISY), "noisy");
    CHECK_STR_EQ(qqb_verdict_name((enum qqb_verdict)99), "?");
}

static void test_threshold(void)
{
    CHECK_DBL_NEAR(qqb_threshold(2.0, 0.0, 5.0), 2.0, 0);     /* multiple off */
    CHECK_DBL_NEAR(qqb_threshold(2.0, 3.0, 1.0), 3.0, 1e-15); /* 3 x 1% */
    CHECK_DBL_NEAR(qqb_threshold(2.0, 3.0, 0.5), 2.0, 0);     /* floor wins */
    CHECK_DBL_NEAR(qqb_threshold(2.0, 3.0, NAN), 2.0, 0);     /* no stored noise */
    CHECK_DBL_NEAR(qqb_threshold(2.0, 3.0, -1.0), 2.0, 0);
    CHECK_DBL_NEAR(qqb_threshold(0.0, 2.0, 1.5), 3.0, 1e-15);
    CHECK_DBL_NEAR(qqb_threshold(-1.0, 0.0, 1.0), 0.0, 0);
    CHECK_DBL_NEAR(qqb_threshold(NAN, 0.0, 1.0), 0.0, 0);
    CHECK_DBL_NEAR(qqb_threshold(1.0, -2.0, 1.0), 1.0, 0);
}

static void test_mem_verdict(void)
{
    CHECK_INT_EQ(qqb_mem_verdict(1000, 1000, 0), 0);
    CHECK_INT_EQ(qqb_mem_verdict(1000, 1001, 0), 1);
    CHECK_INT_EQ(qqb_mem_verdict(1000, 999, 0), -1);
    CHECK_INT_EQ(qqb_mem_verdict(1000, 1064, 64), 0);
    CHECK_INT_EQ(qqb_mem_verdict(1000, 1065, 64), 1);
    CHECK_INT_EQ(qqb_mem_verdict(1000, 936, 64), 0);
    CHECK_INT_EQ(qqb_mem_verdict(1000, 935, 64), -1);
    CHECK_INT_EQ(qqb_mem_verdict(0, UINT64_MAX, UINT64_MAX), 0);
    CHECK_INT_EQ(qqb_mem_verdict(0, UINT64_MAX, UINT64_MAX - 1), 1);
    CHECK_INT_EQ(qqb_mem_verdict(UINT64_MAX, 0, 5), -1);
    CHECK_INT_EQ(qqb_mem_verdict(UINT64_MAX - 3, UINT64_MAX, 5), 0);
}

int main(void)
{
    RUN(test_verdict_boundaries);
    RUN(test_threshold);
    RUN(test_mem_verdict);
    return TEST_DONE();
}
