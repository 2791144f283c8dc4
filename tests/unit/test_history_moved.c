/* test_history_moved.c - the rule behind qqbench history's '*': a label moved from the one before
 * beyond the larger of the two labels' noise, at least 1%; memory on any change. */
#include <math.h>

#include "history.h"
#include "test.h"

static void test_history_moved_cycles(void)
{
    /* No label before, or none measured: nothing moved. */
    CHECK_INT_EQ(qqb_history_moved(NAN, NAN, 200, 1), 0);
    CHECK_INT_EQ(qqb_history_moved(0, 1, 200, 1), 0);
    /* Quiet labels: the 1% floor decides. */
    CHECK_INT_EQ(qqb_history_moved(100, 0.1, 101.5, 0.1), 1);
    CHECK_INT_EQ(qqb_history_moved(100, 0.1, 100.9, 0.1), 0);
    CHECK_INT_EQ(qqb_history_moved(100, 0.1, 98.5, 0.1), 1); /* either way */
    /* The larger noise of the two, whichever label has it. */
    CHECK_INT_EQ(qqb_history_moved(100, 5, 104, 0.1), 0);
    CHECK_INT_EQ(qqb_history_moved(100, 0.1, 104, 5), 0);
    CHECK_INT_EQ(qqb_history_moved(100, 5, 106, 0.1), 1);
    /* A noise that is not known counts as none. */
    CHECK_INT_EQ(qqb_history_moved(100, NAN, 102, NAN), 1);
}

static void test_history_moved_memory(void)
{
    struct qqb_mem a = {0}, b;
    a.obj_bytes = 64;
    a.alloc_bytes = 32;
    a.peak_bytes = 128;
    a.created = 3;
    b = a;
    CHECK_INT_EQ(qqb_history_mem_moved(NULL, &a), 0); /* the first label */
    CHECK_INT_EQ(qqb_history_mem_moved(&a, &b), 0);
    b.obj_bytes = 32;
    b.alloc_bytes = 64; /* the same live bytes */
    CHECK_INT_EQ(qqb_history_mem_moved(&a, &b), 0);
    b.peak_bytes++;
    CHECK_INT_EQ(qqb_history_mem_moved(&a, &b), 1);
    b = a;
    b.created++;
    CHECK_INT_EQ(qqb_history_mem_moved(&a, &b), 1);
}

int main(void)
{
    RUN(test_history_moved_cycles);
    RUN(test_history_moved_memory);
    return TEST_DONE();
}
