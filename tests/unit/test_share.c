/* test_share.c - harness/trace/share.c: one node's states per column on a hand-made file, each
 * column's seconds per slot and its on/off count worked out by hand: the innermost state takes the
 * time, an uncounted state still hides the ones under it, a second "on" is no change, a state left
 * on runs to the node's last entry, the window clips; no column, an empty window, an empty node, a
 * deselected key, a slot out of range and a node the file does not have. */
#define QQ_ENABLE 1
#include <string.h>

#include "craft.h"
#include "qq.h"
#include "qq_file.h"
#include "share.h"
#include "test.h"
#include "trace.h"

static int ka, kb, kc, km;

#define US        1e-6
#define TICKS(us) ((uint64_t)((us)*2100.0 + 0.5)) /* at 2100 MHz */

/* Node 0 (microseconds): A on 1.5, B on 2.5, C on 4.5, C off 5.5, B off
 * 6.5, A on again 7 (a second on), A off 8.5, B on 8.75 (never off), a
 * mark 9.25 (the last entry). Node 1 empty. */
static void make_file(const char *path)
{
    const struct {
        int *key;
        double us;
        int on;
    } in[] = {{&ka, 1.5, 1}, {&kb, 2.5, 1}, {&kc, 4.5, 1},  {&kc, 5.5, 0}, {&kb, 6.5, 0},
              {&ka, 7.0, 1}, {&ka, 8.5, 0}, {&kb, 8.75, 1}, {&km, 9.25, 0}};
    struct qq_event e[9];
    memset(e, 0, sizeof e);
    for (size_t i = 0; i < 9; i++) {
        e[i].key = (uint32_t)*in[i].key;
        e[i].tick = TICKS(in[i].us);
        e[i].info.i = in[i].on;
    }
    const struct qq_event *const ev[2] = {e, NULL};
    const uint64_t n[2] = {9, 0};
    CHECK_INT_EQ(craft_file(path, 2, ev, n), 0);
}

static struct qqb_trace t;
static uint32_t slot_of[4];

/* SEC (NCOLS x 2) equals WANT_A and WANT_B (microseconds per column), and
 * CHANGES equals WANT_CH. */
static void expect(size_t ncols, const double *sec, const uint32_t *changes, const double *want_a,
                   const double *want_b, const uint32_t *want_ch)
{
    for (size_t c = 0; c < ncols; c++) {
        CHECK_DBL_NEAR(sec[c * 2 + 0], want_a[c] * US, 1e-15);
        CHECK_DBL_NEAR(sec[c * 2 + 1], want_b[c] * US, 1e-15);
        CHECK_INT_EQ((int)changes[c], (int)want_ch[c]);
    }
}

/* Ten columns of 1 us over [0, 10 us]. */
static void test_whole_window(void)
{
    double sec[20];
    uint32_t ch[10];
    const double a[10] = {0, .5, .5, 0, 0, 0, .5, 1, .5, 0};
    const double b[10] = {0, 0, .5, 1, .5, .5, .5, 0, .25, .25};
    const uint32_t want[10] = {0, 1, 1, 0, 1, 1, 1, 0, 2, 0};
    CHECK_INT_EQ(qqb_share_node(&t, 0, QQB_SHARE_ALL_THREADS, 0, 10 * US, 10, slot_of, 2, sec, ch),
                 0);
    expect(10, sec, ch, a, b, want);
    /* The one thread of a file without a thread table: the same. */
    CHECK_INT_EQ(qqb_share_node(&t, 0, 0, 0, 10 * US, 10, slot_of, 2, sec, ch), 0);
    expect(10, sec, ch, a, b, want);
}

/* [3, 7 us] in four columns: the time before and after clipped, the
 * changes outside not counted. */
static void test_clipped(void)
{
    double sec[8];
    uint32_t ch[4];
    const double a[4] = {0, 0, 0, .5};
    const double b[4] = {1, .5, .5, .5};
    const uint32_t want[4] = {0, 1, 1, 1};
    CHECK_INT_EQ(
        qqb_share_node(&t, 0, QQB_SHARE_ALL_THREADS, 3 * US, 7 * US, 4, slot_of, 2, sec, ch), 0);
    expect(4, sec, ch, a, b, want);
}

/* C deselected: no longer a state here, so B is on top through it; A's
 * slot out of range: its time not counted, though it still hides B. */
static void test_deselected_and_out_of_range(void)
{
    double sec[20];
    uint32_t ch[10];
    t.key_on[kc] = 0;
    const double a0[10] = {0};
    const double b[10] = {0, 0, .5, 1, 1, 1, .5, 0, .25, .25};
    const uint32_t want[10] = {0, 1, 1, 0, 0, 0, 1, 0, 2, 0};
    CHECK_INT_EQ(qqb_share_node(&t, 0, QQB_SHARE_ALL_THREADS, 0, 10 * US, 10, slot_of, 2, sec, ch),
                 0);
    const double a[10] = {0, .5, .5, 0, 0, 0, .5, 1, .5, 0};
    expect(10, sec, ch, a, b, want);
    slot_of[ka] = 7;
    CHECK_INT_EQ(qqb_share_node(&t, 0, QQB_SHARE_ALL_THREADS, 0, 10 * US, 10, slot_of, 2, sec, ch),
                 0);
    expect(10, sec, ch, a0, b, want);
    slot_of[ka] = 0;
    t.key_on[kc] = 1;
}

/* Nothing to share: no column, an empty or reversed window, the empty
 * node: every figure zeroed (the buffers start dirty), 0 returned. A node
 * the file does not have: -2, the reader saying which. */
static void test_nothing_and_bad_node(void)
{
    double sec[20];
    uint32_t ch[10];
    const double z[10] = {0};
    const uint32_t zc[10] = {0};
    const double w[3][2] = {{0, 10 * US}, {5 * US, 5 * US}, {7 * US, 3 * US}};
    for (int i = 0; i < 3; i++) {
        memset(sec, 0x7f, sizeof sec);
        memset(ch, 0x7f, sizeof ch);
        uint32_t node = i == 0 ? 1 : 0;
        CHECK_INT_EQ(qqb_share_node(&t, node, QQB_SHARE_ALL_THREADS, w[i][0], w[i][1], 10, slot_of,
                                    2, sec, ch),
                     0);
        expect(10, sec, ch, z, z, zc);
    }
    sec[0] = 99;
    CHECK_INT_EQ(qqb_share_node(&t, 0, QQB_SHARE_ALL_THREADS, 0, 10 * US, 0, slot_of, 2, sec, ch),
                 0);
    CHECK(sec[0] == 99); /* no column: nothing written */
    CHECK_INT_EQ(qqb_share_node(&t, 5, QQB_SHARE_ALL_THREADS, 0, 10 * US, 10, slot_of, 2, sec, ch),
                 -2);
    CHECK_STR_CONTAINS(qq_file_errmsg(t.f), "no node 5");
}

int main(void)
{
    QQInit(10);
    ka = QQAddState("A");
    kb = QQAddState("B");
    kc = QQAddState("C");
    km = QQAddMark("M");
    make_file("share.qq");
    char err[512];
    CHECK_INT_EQ(qqb_trace_open(&t, "share.qq", err, sizeof err), 0);
    CHECK_INT_EQ((int)t.nkeys, 4);
    slot_of[ka] = 0;
    slot_of[kb] = 1;
    slot_of[kc] = QQB_SHARE_NONE;
    slot_of[km] = QQB_SHARE_NONE;
    RUN(test_whole_window);
    RUN(test_clipped);
    RUN(test_deselected_and_out_of_range);
    RUN(test_nothing_and_bad_node);
    qqb_trace_close(&t);
    return TEST_DONE();
}
