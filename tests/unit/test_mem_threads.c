/* test_mem_threads.c - memory keys under 4 threads allocating and freeing at once: exact totals. */
#define QQ_ENABLE 1

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"
#include "test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

enum { NTHREADS = 4, PAIRS = 100000, WINDOW = 16 };

/* MEM_KEY is read where each call is written: here, a local variable. */
#define MEM_KEY key

struct job {
    int key;
    int index;
    uint64_t peak; /* the most this thread held at once */
    int failed;
};

static size_t size_of(int thread, int i)
{
    return (size_t)((i * 7 + thread * 13) % 200) + 1;
}

/* PAIRS malloc/free pairs, up to WINDOW blocks alive at once; objects too. */
static void *worker(void *arg)
{
    struct job *j = arg;
    int key = j->key;
    void *live[WINDOW] = {0};
    size_t sizes[WINDOW] = {0};
    uint64_t held = 0;
    for (int i = 0; i < PAIRS; i++) {
        int slot = i % WINDOW;
        if (live[slot]) {
            free(live[slot]);
            held -= sizes[slot];
        }
        sizes[slot] = size_of(j->index, i);
        live[slot] = i % 3 == 0 ? calloc(1, sizes[slot]) : malloc(sizes[slot]);
        if (!live[slot]) {
            j->failed = 1;
            break;
        }
        held += sizes[slot];
        if (held > j->peak)
            j->peak = held;
        if (i % 10 == 0) {
            MEMADDOBJECT(&live[slot], 8);
            if (held + 8 > j->peak)
                j->peak = held + 8;
            MEMFREEOBJECT(&live[slot], 8);
        }
    }
    for (int s = 0; s < WINDOW; s++)
        free(live[s]);
    return NULL;
}

static int run(struct job *jobs)
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, worker, &jobs[i]) != 0)
            return -1;
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < NTHREADS; i++)
        if (jobs[i].failed)
            return -1;
    return 0;
}

static struct qq_mem_row row_of(const struct qq__mem_snapshot *s, int key)
{
    struct qq_mem_row r;
    memset(&r, 0, sizeof r);
    if (key >= 0 && (uint32_t)key < s->nrows)
        r = s->rows[key];
    return r;
}

/* One key per thread: every counter, the peak too, is deterministic. */
static void test_mem_threads_own_keys(void)
{
    MemReset();
    struct job jobs[NTHREADS];
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < NTHREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "thread%d", i);
        jobs[i].key = MemAddKey(name);
        jobs[i].index = i;
    }
    CHECK_INT_EQ(run(jobs), 0);
    struct qq__mem_snapshot s;
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    for (int i = 0; i < NTHREADS; i++) {
        struct qq_mem_row r = row_of(&s, jobs[i].key);
        CHECK_U64_EQ(r.allocs, PAIRS);
        CHECK_U64_EQ(r.frees, PAIRS);
        CHECK_U64_EQ(r.alloc_bytes, 0);
        CHECK_U64_EQ(r.peak_bytes, jobs[i].peak);
        CHECK_U64_EQ(r.double_frees, 0);
        CHECK_U64_EQ(r.created, PAIRS / 10);
        CHECK_U64_EQ(r.deleted, PAIRS / 10);
        CHECK_U64_EQ(r.obj_bytes, 0);
    }
    CHECK_U64_EQ(s.foreign_frees, 0);
    qq__mem_snapshot_free(&s);
}

/* All threads on one key: the sums are exact, the peak bounded. */
static void test_mem_threads_shared_key(void)
{
    MemReset();
    int shared = MemAddKey("shared");
    struct job jobs[NTHREADS];
    memset(jobs, 0, sizeof jobs);
    uint64_t peak_max = 0, peak_sum = 0;
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i].key = shared;
        jobs[i].index = i;
    }
    CHECK_INT_EQ(run(jobs), 0);
    for (int i = 0; i < NTHREADS; i++) {
        peak_sum += jobs[i].peak;
        if (jobs[i].peak > peak_max)
            peak_max = jobs[i].peak;
    }
    struct qq__mem_snapshot s;
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    struct qq_mem_row r = row_of(&s, shared);
    CHECK_U64_EQ(r.allocs, (uint64_t)NTHREADS * PAIRS);
    CHECK_U64_EQ(r.frees, (uint64_t)NTHREADS * PAIRS);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.created, (uint64_t)NTHREADS * PAIRS / 10);
    CHECK_U64_EQ(r.deleted, (uint64_t)NTHREADS * PAIRS / 10);
    CHECK(r.peak_bytes >= peak_max);
    CHECK(r.peak_bytes <= peak_sum);
    /* The bounds (docs/MEMORY.md): each thread's own peak is under the
     * true one (no thread's object bytes go below 0 here). */
    CHECK(r.peak_low >= peak_max);
    CHECK(r.peak_low <= r.peak_bytes);
    CHECK_U64_EQ(s.foreign_frees, 0);
    qq__mem_snapshot_free(&s);
}

int main(void)
{
    RUN(test_mem_threads_own_keys);
    RUN(test_mem_threads_shared_key);
    MemReset();
    return TEST_DONE();
}
