/* test_mem_stats.c - the paper's MEM_STATS spelling turns on memory keys (and not QQ's timing). */
#define MEM_STATS 1

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"
#include "test.h"

#include "qq_mem.h"

#if !defined(QQ_MEM_ENABLED)
#error "MEM_STATS must turn memory keys on"
#endif
#if defined(QQ_ENABLE)
#error "MEM_STATS alone must not turn on QQ's timing"
#endif

static void test_mem_stats_on(void)
{
    MemReset();
    int k = MemAddKey("stats");
    CHECK(k > 0);
    void *p;
    {
#define MEM_KEY k
        p = malloc(42);
#undef MEM_KEY
    }
    void *q = malloc(8); /* no MEM_KEY in force: the default key */
    struct qq__mem_snapshot s;
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    CHECK((uint32_t)k < s.nrows);
    if ((uint32_t)k < s.nrows) {
        CHECK_U64_EQ(s.rows[k].alloc_bytes, 42);
        CHECK_U64_EQ(s.rows[0].alloc_bytes, 8);
    }
    qq__mem_snapshot_free(&s);
    free(p);
    free(q);
    CHECK(GetMemoryUsed() > 0);
}

int main(void)
{
    RUN(test_mem_stats_on);
    MemReset();
    return TEST_DONE();
}
