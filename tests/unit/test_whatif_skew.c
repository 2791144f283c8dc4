/* test_whatif_skew.c - qqbench whatif over collective waits when the nodes' clocks are a few ticks
 * apart: at scale 1 the prediction is the measurement on every node, and a faster key still ends
 * every node's wait when the last node arrives. */
#define QQ_ENABLE 1
#include <stdint.h>

#include "cmd_output.h"
#include "cmds.h"
#include "craft.h"
#include "qq.h"
#include "test.h"

static int kcompute, ksync;

static struct qq_event ev(int key, int64_t on, uint64_t tick)
{
    struct qq_event e;
    memset(&e, 0, sizeof e);
    e.key = (uint32_t)key;
    e.info.i = on;
    e.tick = tick;
    return e;
}

/*
 * Two nodes, one compute interval then one wait each. Node 0 arrives at
 * 1000 and leaves at 1100. Node 1 arrives at 500 and, by its own clock,
 * leaves at 950: before node 0 arrived, which only clocks a few ticks
 * apart can show (the wait cannot really end before the last arrival).
 */
static void skewed_file(const char *name)
{
    struct qq_event n0[] = {ev(kcompute, 1, 0), ev(kcompute, 0, 1000), ev(ksync, 1, 1000),
                            ev(ksync, 0, 1100)};
    struct qq_event n1[] = {ev(kcompute, 1, 0), ev(kcompute, 0, 500), ev(ksync, 1, 500),
                            ev(ksync, 0, 950)};
    const struct qq_event *evs[] = {n0, n1};
    const uint64_t n[] = {4, 4};
    CHECK_INT_EQ(craft_file(name, 2, evs, n), 0);
}

/* Run `qqbench whatif FILE --scale compute=F --waiting sync` with stdout into OUT. */
static int whatif(const char *file, const char *scale, char *out, size_t outlen)
{
    char *argv[] = {"whatif", (char *)file, "--scale", (char *)scale, "--waiting", "sync", NULL};
    return cmd_output(cmd_whatif, 6, argv, out, outlen);
}

/* The measured and predicted ticks of node row NODE ("0", "1", "all"). */
static int row(const char *out, const char *node, double *measured, double *predicted)
{
    char name[16];
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (sscanf(l, "%15s", name) != 1 || strcmp(name, node))
            continue;
        double a, b;
        if (!strcmp(node, "all")) {
            if (sscanf(l, "%*s %lf %lf", &a, &b) != 2)
                return -1;
        } else if (sscanf(l, "%*s %*f %*f %lf %lf", &a, &b) != 2) {
            return -1;
        }
        *measured = a;
        *predicted = b;
        return 0;
    }
    return -1;
}

static void test_identity_despite_skew(void)
{
    skewed_file("skew.qq");
    char out[8192];
    CHECK_INT_EQ(whatif("skew.qq", "compute=1", out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "collective");
    const char *rows[] = {"0", "1", "all"};
    const double want[] = {1100, 950, 1100};
    for (int i = 0; i < 3; i++) {
        double m = -1, p = -1;
        CHECK_INT_EQ(row(out, rows[i], &m, &p), 0);
        CHECK(m == want[i]);
        CHECK(p == m); /* was 1000 on node 1: the wait moved to node 0's arrival */
    }
}

static void test_faster_key_moves_the_release(void)
{
    skewed_file("skew.qq");
    char out[8192];
    /* compute at half its cost: node 0 arrives 500 earlier, so both waits end
     * 500 earlier than measured; node 1's own arrival (250) is not later. */
    CHECK_INT_EQ(whatif("skew.qq", "compute=0.5", out, sizeof out), 0);
    double m = -1, p = -1;
    CHECK_INT_EQ(row(out, "0", &m, &p), 0);
    CHECK(p < m);
    CHECK_INT_EQ(row(out, "1", &m, &p), 0);
    CHECK(p < m);
    CHECK(p >= 250); /* never before its own arrival */
}

int main(void)
{
    QQInit(10);
    kcompute = QQAddState("compute");
    ksync = QQAddState("sync");
    RUN(test_identity_despite_skew);
    RUN(test_faster_key_moves_the_release);
    return TEST_DONE();
}
