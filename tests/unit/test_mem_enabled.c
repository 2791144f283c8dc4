/* test_mem_enabled.c - the paper's QQ_ENABLED spelling turns on memory keys, with MEM_KEY defined
 * before the header. */
#define QQ_ENABLED 1

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"
#include "test.h"

/* Figure 3's pattern: the key lives elsewhere (here: below), the file names
 * it before the header. */
extern int KEY_CHANNEL;
#define MEM_KEY KEY_CHANNEL

#include "qq_mem.h"

#if !defined(QQ_MEM_ENABLED)
#error "QQ_ENABLED must turn memory keys on"
#endif

int KEY_CHANNEL;

static void test_mem_enabled_on(void)
{
    MemReset();
    KEY_CHANNEL = MemAddKey("Channel");
    CHECK(KEY_CHANNEL > 0);
    char *p = strdup("channel");
    struct qq__mem_snapshot s;
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    CHECK((uint32_t)KEY_CHANNEL < s.nrows);
    if ((uint32_t)KEY_CHANNEL < s.nrows) {
        CHECK_STR_EQ(s.rows[KEY_CHANNEL].name, "Channel");
        CHECK_U64_EQ(s.rows[KEY_CHANNEL].alloc_bytes, 8);
        CHECK_U64_EQ(s.rows[0].alloc_bytes, 0);
    }
    qq__mem_snapshot_free(&s);
    free(p);
    /* Switching back to the default key from here on. */
#undef MEM_KEY
#define MEM_KEY MEM_KEY_DEFAULT
    p = malloc(3);
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    if (s.nrows > 0)
        CHECK_U64_EQ(s.rows[0].alloc_bytes, 3);
    qq__mem_snapshot_free(&s);
    free(p);
}

int main(void)
{
    RUN(test_mem_enabled_on);
    MemReset();
    return TEST_DONE();
}
