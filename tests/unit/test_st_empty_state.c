/* test_st_empty_state.c - qqbench st on calibrations of a coarse counter: an empty state at or
 * below the counter's resolution is said to be unresolved, not printed as a figure. */
#define QQ_ENABLE 1
#include <stdint.h>

#include "cmd_output.h"
#include "cmds.h"
#include "craft.h"
#include "qq.h"
#include "test.h"

static int kloop;

/* A calibration, and what st must and must not print for it. */
struct st_case {
    const char *what;
    struct qq_calib cal;
    const char *want[2];
    const char *absent;
};

static const struct st_case cases[] = {
    /* qemu-user's 62.5 MHz counter: nearly every empty state reads 0
     * ticks, a few 1. Was "empty state = 0.0 ticks". */
    {"below one step",
     {.ordered = 1, .samples = 4096, .empty_typical = 0.02, .step = 1},
     {"empty state: below the counter's resolution (1.0 ticks)",
      "counter step 1 ticks, ordered reads"},
     "empty state ="},
    {"every one 0 ticks",
     {.samples = 4096},
     {"empty state: below the counter's resolution",
      "no counter step seen (all read the same), unordered reads"},
     "empty state ="},
    /* half of a 26-tick step is no figure; the per-hit table is unchanged
     * (60 ticks raw, 48 net) */
    {"half a coarse step",
     {.ordered = 1, .samples = 4096, .empty_typical = 12, .step = 26},
     {"below the counter's resolution (13.0 ticks)", "60.0         48.0"},
     "empty state ="},
    {"resolved",
     {.ordered = 1,
      .samples = 4096,
      .empty_min = 48,
      .empty_typical = 52.5,
      .empty_median = 52,
      .step = 2},
     {"empty state = 52.5 ticks (min 48, median 52.0; 4096 timed), counter step 2 ticks",
      "ordered reads"},
     "below the counter's resolution"},
};

/* `qqbench st` of a one-node file with each case's calibration and two
 * intervals of 60 ticks. */
static void test_cases(void)
{
    uint32_t k = (uint32_t)kloop;
    struct qq_event e[] = {
        {k, 0, {.i = 1}, 100}, {k, 0, {.i = 0}, 160}, {k, 0, {.i = 1}, 200}, {k, 0, {.i = 0}, 260}};
    const struct qq_event *evs[] = {e};
    const uint64_t n[] = {4};
    char *argv[] = {"st", "cal.qq", NULL};
    char out[8192];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct st_case *c = &cases[i];
        printf("  %s\n", c->what);
        CHECK_INT_EQ(craft_file_calib("cal.qq", 1, evs, n, &c->cal), 0);
        CHECK_INT_EQ(cmd_output(cmd_st, 2, argv, out, sizeof out), 0);
        CHECK_STR_CONTAINS(out, c->want[0]);
        CHECK_STR_CONTAINS(out, c->want[1]);
        CHECK(strstr(out, c->absent) == NULL);
    }
}

int main(void)
{
    QQInit(10);
    kloop = QQAddState("loop");
    RUN(test_cases);
    return TEST_DONE();
}
