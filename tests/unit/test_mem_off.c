/* test_mem_off.c - memory keys compiled away: no redirection, no argument evaluated, no QQ symbol.
 */
/* No QQ_ENABLE, QQ_ENABLED or MEM_STATS here: profiling is off. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#include "qq_mem.h"

#if defined(QQ_MEM_ENABLED)
#error "QQ_MEM_ENABLED with profiling off"
#endif
#if defined(malloc) || defined(calloc) || defined(realloc) || defined(free) || defined(strdup) ||  \
    defined(strndup) || defined(aligned_alloc) || defined(posix_memalign)
#error "the allocator is redirected with profiling off"
#endif

/* Keys survive as the user's int variables (Figure 3). */
int KEY_CHANNEL;
#define MEM_KEY KEY_CHANNEL

struct cell {
    double v[4];
};

static void test_mem_off_not_evaluated(void)
{
    int n = 0;
    struct cell c;
    memset(&c, 0, sizeof c); /* used outside the macros, as real code would */
    MEMADDOBJECT(&c, (n++, sizeof c));
    MEMFREEOBJECT(&c, (n++, sizeof c));
    MEMADDOBJECT((n++, &c), sizeof c);
    MemAddObject(n++, &c, sizeof c);
    MemFreeObject(n++, &c, sizeof c);
    CHECK_INT_EQ(n, 0);

    KEY_CHANNEL = MemAddKey((n++, "Channel"));
    CHECK_INT_EQ(KEY_CHANNEL, -1);
    CHECK_INT_EQ(n, 0);

    MemPrint((n++, stdout));
    MemReset();
    CHECK_INT_EQ(n, 0);
    CHECK_INT_EQ(GetMemoryUsed(), 0);
}

static void test_mem_off_plain_allocator(void)
{
    /* The Mem* calls are libc's own; the key argument is not evaluated. */
    int k = 0;
    char *p = MemMalloc(k++, 16);
    CHECK(p != NULL);
    char *q = MemRealloc(k++, p, 32);
    CHECK(q != NULL);
    char *s = MemStrdup(k++, "off");
    CHECK_STR_EQ(s, "off");
    char *t = MemStrndup(k++, "offline", 3);
    CHECK_STR_EQ(t, "off");
    void *z = MemCalloc(k++, 4, 4);
    void *a = MemAlignedAlloc(k++, 64, 64);
    void *b = NULL;
    CHECK_INT_EQ(MemPosixMemalign(k++, &b, 64, 64), 0);
    CHECK(z && a && b);
    MemFree(k++, q);
    MemFree(k++, s);
    MemFree(k++, t);
    MemFree(k++, z);
    MemFree(k++, a);
    MemFree(k++, b);
    CHECK_INT_EQ(k, 0);
    /* And malloc is malloc. */
    void *m = malloc(8);
    CHECK(m != NULL);
    free(m);
}

int main(void)
{
    RUN(test_mem_off_not_evaluated);
    RUN(test_mem_off_plain_allocator);
    return TEST_DONE();
}
