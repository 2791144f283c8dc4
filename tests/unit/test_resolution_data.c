/* test_resolution_data.c - a state's net figure below half a counter step is resolved by its own
 * data (docs/STATISTICS.md section 16, "Resolution from the data"): intervals on two quantisation
 * levels at a random phase give an unbiased mean, kept as it is (qq_hit_stat se and locked, the
 * harness's collect); every interval on one level is a locked phase, floored as before. */
#define QQ_ENABLE 1
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "craft.h"
#include "qq.h"
#include "qq_file.h"
#include "results.h"
#include "runner.h"
#include "test.h"

static int kline;

/* xorshift: deterministic phases. */
static uint64_t rng = 0x2545f4914f6cdd1dull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* N intervals of TRUE ticks on a counter of step STEP read at a random
 * phase (LOCKED: every one at phase 0), written with a calibration whose
 * empty state is EMPTY (its own quantised mean) into PATH. */
static void write_line(const char *path, size_t n, double truth, double step, int locked,
                       double empty)
{
    struct qq_event *e = calloc(2 * n, sizeof *e);
    uint64_t t = 1000;
    for (size_t i = 0; i < n; i++) {
        double p = locked ? 0 : uniform() * step;
        uint64_t len = (uint64_t)(step * (floor((p + truth) / step) - floor(p / step)));
        e[2 * i] = (struct qq_event){(uint32_t)kline, 0, {.i = 1}, t};
        e[2 * i + 1] = (struct qq_event){(uint32_t)kline, 0, {.i = 0}, t + len};
        t += len + 500;
    }
    const struct qq_event *evs[] = {e};
    const uint64_t cnt[] = {2 * n};
    struct qq_calib cal = {.ordered = 1,
                           .samples = 4096,
                           .empty_min = 21,
                           .empty_typical = empty,
                           .empty_median = 42,
                           .step = step};
    CHECK_INT_EQ(craft_file_calib(path, 1, evs, cnt, &cal), 0);
    free(e);
}

/* The judged figure of the key, and whether it was floored, through the
 * harness's reader. */
static void collected(const char *path, double *per_hit, double *floored)
{
    struct qqb_case_result c;
    memset(&c, 0, sizeof c);
    c.name = "line";
    char err[256];
    struct qq_file *f = NULL;
    CHECK_INT_EQ(qq_file_open(path, &f), 0);
    CHECK_INT_EQ(qqb_collect(f, NULL, 0, &c, err, sizeof err), 0);
    qq_file_close(f);
    const struct qqb_metric *m = qqb_case_find_metric(&c, "line", "per_hit");
    const struct qqb_metric *fl = qqb_case_find_metric(&c, "line", "per_hit_floored");
    CHECK(m && m->n == 1 && fl && fl->n == 1);
    *per_hit = m && m->n ? m->samples[0] : NAN;
    *floored = fl && fl->n ? fl->samples[0] : NAN;
    for (size_t i = 0; i < c.nmetrics; i++) {
        free(c.metrics[i].key);
        free(c.metrics[i].what);
        free(c.metrics[i].samples);
        free(c.metrics[i].run);
        free(c.metrics[i].launch);
    }
    free(c.metrics);
}

/* The Km line of the issue: pow at 61.8 net ticks, direct at 7.3, on a
 * 21-tick counter whose empty state is 40.3 ticks: the direct figure is
 * below half a step (10.5) but its intervals sit on two levels. */
static void test_below_half_a_step(void)
{
    const double step = 21, empty = 40.3;
    double pow_hit, pow_fl, dir_hit, dir_fl;
    write_line("pow.qq", 20000, empty + 61.8, step, 0, empty);
    write_line("direct.qq", 20000, empty + 7.3, step, 0, empty);
    struct qq_file *f = NULL;
    struct qq_hit_stat h[8];
    CHECK_INT_EQ(qq_file_open("direct.qq", &f), 0);
    CHECK_INT_EQ(qq_file_hit_stats(f, 0, h), 0);
    uint32_t k = (uint32_t)kline;
    printf("  direct: raw %.3f net %.3f se %.3f locked %d (rule %d)\n", h[k].raw, h[k].net, h[k].se,
           h[k].locked, h[k].rule);
    CHECK_INT_EQ(h[k].rule, QQ_HIT_MEAN);
    CHECK_INT_EQ(h[k].locked, 0);
    /* Intervals of 42 or 63 ticks: sd at most 10.5, se at most 0.075. */
    CHECK(h[k].se > 0 && h[k].se < 0.08);
    qq_file_close(f);
    collected("pow.qq", &pow_hit, &pow_fl);
    collected("direct.qq", &dir_hit, &dir_fl);
    double delta = dir_hit - pow_hit;
    printf("  pow %.2f, direct %.2f (floored %.0f): delta %.2f against -54.5\n", pow_hit, dir_hit,
           dir_fl, delta);
    CHECK_DBL_NEAR(dir_fl, 0, 0);
    CHECK_DBL_NEAR(pow_fl, 0, 0);
    /* Within 5% of the true delta; the mean's error is 5 standard errors
     * inside that (0.4 ticks of 2.7). */
    CHECK(fabs(delta / -54.5 - 1) < 0.05);
    /* Floored, as before, the delta was -51.3 (10.5 - 61.8): 6% off. */
}

/* Every interval one length (the phase locked to the code): the mean is a
 * quantisation level, so a figure below half a step stays floored. */
static void test_locked_phase(void)
{
    double hit, fl;
    write_line("locked.qq", 5000, 40.3 + 7.3, 21, 1, 40.3);
    struct qq_file *f = NULL;
    struct qq_hit_stat h[8];
    CHECK_INT_EQ(qq_file_open("locked.qq", &f), 0);
    CHECK_INT_EQ(qq_file_hit_stats(f, 0, h), 0);
    CHECK_INT_EQ(h[kline].locked, 1);
    qq_file_close(f);
    collected("locked.qq", &hit, &fl);
    printf("  locked: per_hit %.2f, floored %.0f\n", hit, fl);
    CHECK_DBL_NEAR(fl, 1, 0);
    CHECK_DBL_NEAR(hit, qq_resolution_ticks(21), 1e-9);
}

/* An empty line: net about 0, never resolved (2 standard errors of the
 * difference with the calibration's empty mean). 200 launches, seeded. */
static void test_empty_unresolved(void)
{
    int resolved = 0;
    for (int i = 0; i < 200; i++) {
        double hit, fl;
        write_line("empty.qq", 2000, 40.3, 21, 0, 40.3);
        collected("empty.qq", &hit, &fl);
        resolved += fl == 0;
    }
    /* One-sided 2 standard errors: 2.3% each at most (the calibration's
     * part is an upper bound), so at most 17 of 200 with probability
     * 1 - 1e-4. */
    printf("  empty line: resolved in %d of 200 launches\n", resolved);
    CHECK(resolved <= 17);
}

int main(void)
{
    QQInit(10);
    kline = QQAddState("line");
    RUN(test_below_half_a_step);
    RUN(test_locked_phase);
    RUN(test_empty_unresolved);
    return TEST_DONE();
}
