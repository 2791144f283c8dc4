/* test_mem_null.c - a tracked malloc whose libc call returns NULL: NULL comes back, nothing is
 * counted or recorded, and the calls after it count exactly; on the bias's path (MemMalloc passes
 * the NULL on to the recording, which returns it) and on a thread's first call (the lock's). */
#define QQ_ENABLE 1

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mem_test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

#define MEM_KEY key

enum { SIZE = 16, ROUNDS = 1000 };

static int key;
static _Thread_local int fail_next; /* this thread's next libc malloc returns NULL */

/* The sanitizers' runtimes are the program's malloc: no replacement there
 * (main skips); nor without glibc, whose own allocator the replacement
 * calls. */
#if !TEST_ASAN && !TEST_TSAN && defined(__GLIBC__)
#define REPLACEABLE 1
#else
#define REPLACEABLE 0
#endif
#if REPLACEABLE
/* glibc's own allocator, under the name it exports for programs that
 * replace malloc. */
extern void *__libc_malloc(size_t size);

/* libc's malloc for the library's calls (this definition in the program
 * takes its place, as a replacement malloc does), failing once on demand. */
void *(malloc)(size_t size)
{
    if (fail_next) {
        fail_next = 0;
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}
#endif

/* A failed malloc between tracked pairs of this thread: the key counts the
 * pairs only. */
static void pairs_with_nulls(void)
{
    struct qq_mem_row before = row_of(key);
    int nulls = 0;
    for (int i = 0; i < ROUNDS; i++) {
        void *p = malloc(SIZE);
        CHECK(p != NULL);
        fail_next = 1;
        void *q = malloc(SIZE);
        nulls += q == NULL;
        free(p);
    }
    CHECK_INT_EQ(nulls, ROUNDS);
    struct qq_mem_row r = row_of(key);
    CHECK_U64_EQ(r.allocs - before.allocs, ROUNDS);
    CHECK_U64_EQ(r.frees - before.frees, ROUNDS);
    CHECK_U64_EQ(r.alloc_bytes, before.alloc_bytes);
}

static void test_null_on_the_common_path(void)
{
    uint64_t foreign = foreign_now();
    pairs_with_nulls();
    /* Held blocks too: the window's bytes and peak are the tracked blocks'. */
    void *held[8];
    for (int i = 0; i < 8; i++) {
        held[i] = malloc(SIZE);
        fail_next = 1;
        CHECK(malloc(SIZE) == NULL);
    }
    struct qq_mem_row r = row_of(key);
    CHECK_U64_EQ(r.alloc_bytes, 8 * SIZE);
    CHECK_U64_EQ(r.peak_bytes, 8 * SIZE);
    for (int i = 0; i < 8; i++)
        free(held[i]);
    CHECK_U64_EQ(row_of(key).alloc_bytes, 0);
    CHECK_U64_EQ(row_of(key).double_frees, 0);
    CHECK_U64_EQ(foreign_now(), foreign);
}

/* A thread whose very first tracked call gets NULL (its table is made
 * then, under the lock), then pairs. */
static void *first_call_null(void *arg)
{
    (void)arg;
    fail_next = 1;
    void *q = malloc(SIZE);
    CHECK(q == NULL);
    pairs_with_nulls();
    return NULL;
}

static void test_null_on_a_first_call(void)
{
    struct qq_mem_row before = row_of(key);
    pthread_t t;
    CHECK_INT_EQ(pthread_create(&t, NULL, first_call_null, NULL), 0);
    pthread_join(t, NULL);
    struct qq_mem_row r = row_of(key);
    CHECK_U64_EQ(r.allocs - before.allocs, ROUNDS);
    CHECK_U64_EQ(r.frees - before.frees, ROUNDS);
    CHECK_U64_EQ(r.alloc_bytes, 0);
}

int main(void)
{
    /* Plain glibc builds only: the sanitizers' runtimes are the program's
     * malloc, which this one would replace. */
    if (!REPLACEABLE) {
        printf("SKIP: %s\n", TEST_ASAN || TEST_TSAN
                                 ? "a sanitizer's malloc cannot be replaced by the program's"
                                 : "no glibc __libc_malloc to replace malloc with");
        return TEST_SKIP_CODE;
    }
    key = MemAddKey("null");
    RUN(test_null_on_the_common_path);
    RUN(test_null_on_a_first_call);
    return TEST_DONE();
}
