/* test_mem_free_key.c - MemFree's key only predicts the block's: a free under any other value,
 * however close to it, counts on the key the block was charged to, on the common path. */
#define QQ_ENABLE 1

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"
#include "mem_test.h"
#include "test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

int main(void)
{
    int near = MemAddKey("near"), other = MemAddKey("other"), far = 0;
    char name[32];
    for (int i = 0; i < 80; i++) {
        snprintf(name, sizeof name, "far%d", i);
        far = MemAddKey(name);
    }
    CHECK(near > 0 && near < 64 && far >= 64);
    /* What MemFree is given for a block of NEAR (qq_mem.c takes the
     * account's address from it when it equals the record's key): the key
     * itself, another, NEAR plus 64 and 256 (the same low bits), NEAR with
     * bit 24 (the freed mark's bit in a record's word), negative keys, a key
     * past the first 64. */
    const int given[] = {near, other,          near + 64, near + 256, near | (1 << 24),
                         -1,   INT_MIN | near, far};
    enum { NG = sizeof given / sizeof given[0] };

    /* No snapshot before the end: this thread's table keeps its bias, so
     * every free below takes the common path's test. */
    for (int i = 0; i < NG; i++) {
        void *p = MemMalloc(near, 24 + (size_t)i);
        MemFree(given[i], p);
        /* A double free: counted on NEAR and not passed to libc, whatever
         * the key (with bit 24 it equals the freed record's word). */
        MemFree(given[i], p);
    }
    /* A block of FAR (past the first 64: not the common path's accounts),
     * freed under each value, FAR itself included. */
    for (int i = 0; i < NG; i++) {
        void *q = MemMalloc(far, 40);
        MemFree(given[i], q);
        MemFree(given[i], q);
    }

    struct qq_mem_row n = row_of(near), o = row_of(other), f = row_of(far), d = row_of(0);
    CHECK_U64_EQ(n.allocs, NG);
    CHECK_U64_EQ(n.frees, NG);
    CHECK_U64_EQ(n.double_frees, NG);
    CHECK_U64_EQ(n.alloc_bytes, 0);
    CHECK_U64_EQ(n.peak_bytes, 24 + NG - 1);
    CHECK_U64_EQ(n.peak_low, 24 + NG - 1);
    CHECK_U64_EQ(f.allocs, NG);
    CHECK_U64_EQ(f.frees, NG);
    CHECK_U64_EQ(f.double_frees, NG);
    CHECK_U64_EQ(f.alloc_bytes, 0);
    CHECK_U64_EQ(f.peak_bytes, 40);
    CHECK_U64_EQ(o.allocs + o.frees + o.double_frees + o.alloc_bytes + o.peak_bytes, 0);
    CHECK_U64_EQ(d.allocs + d.frees + d.double_frees + d.alloc_bytes + d.peak_bytes, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    MemReset();
    return TEST_DONE();
}
