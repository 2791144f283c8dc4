/* test_mem_table.c - the address table under churn against a reference model, double and foreign
 * frees past sweeps, and exact counts while a second thread takes over from the first. */
#define QQ_ENABLE 1

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qq_internal.h"
#include "mem_test.h"
#include "test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

static int key_a, key_b;

#define MEM_KEY key_a

/* xorshift64: the same sequence every run. */
static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The model: what the program holds, per key. */
struct model {
    uint64_t bytes[2], peak[2], allocs[2], frees[2];
};

static void check_model(const struct model *m, const int *keys)
{
    for (int k = 0; k < 2; k++) {
        struct qq_mem_row r = row_of(keys[k]);
        CHECK_U64_EQ(r.alloc_bytes, m->bytes[k]);
        CHECK_U64_EQ(r.peak_bytes, m->peak[k]);
        CHECK_U64_EQ(r.allocs, m->allocs[k]);
        CHECK_U64_EQ(r.frees, m->frees[k]);
        CHECK_U64_EQ(r.double_frees, 0);
    }
    CHECK_U64_EQ(foreign_now(), 0);
}

/* Random allocations, frees and reallocs of random sizes on two keys,
 * with the live set swinging between a few and 20000 blocks: the table
 * grows, shrinks and is swept in place many times, deleting freed slots by
 * backward shift among live ones. Every counter must match the model after
 * every phase, and no free of a live block may come out foreign (a live
 * slot lost or moved out of its probe run) or double (a freed record taken
 * for the live block at the same address). */
static void test_mem_table_churn_vs_model(void)
{
    MemReset();
    enum { CAP = 20000, OPS = 400000 };
    void **ptr = (calloc)(CAP, sizeof *ptr);
    size_t *size = (calloc)(CAP, sizeof *size);
    int *owner = (calloc)(CAP, sizeof *owner);
    CHECK(ptr && size && owner);
    if (!ptr || !size || !owner)
        return;
    int keys[2] = {key_a, key_b};
    struct model m;
    memset(&m, 0, sizeof m);
    uint64_t x = 88172645463325252u;
    long live = 0;
    for (long op = 0; op < OPS; op++) {
        /* The target live count swings: 20000, then down to 50, and back. */
        long phase = (op / 50000) % 2;
        long target = phase ? 50 : CAP;
        uint64_t r = next(&x);
        long i = (long)(r % CAP);
        int grow = live < target ? (r >> 32) % 8 != 0 : (r >> 32) % 8 == 0;
        if (!ptr[i] && grow) {
            int k = (int)((r >> 20) & 1);
            size_t n = 1 + (size_t)((r >> 40) % ((r >> 36) & 1 ? 64 : 3000));
#undef MEM_KEY
#define MEM_KEY keys[k]
            ptr[i] = (r >> 50) % 5 == 0 ? calloc(1, n) : malloc(n);
#undef MEM_KEY
#define MEM_KEY key_a
            if (!ptr[i]) {
                TEST_FAIL_AT("allocation %ld failed", op);
                break;
            }
            size[i] = n;
            owner[i] = k;
            live++;
            m.allocs[k]++;
            m.bytes[k] += n;
            if (m.bytes[k] > m.peak[k])
                m.peak[k] = m.bytes[k];
        } else if (ptr[i] && (r >> 56) % 4 == 0) {
            /* realloc: a free on the block's key, an allocation on key_a. */
            size_t n = 1 + (size_t)((r >> 40) % 500);
            void *q = realloc(ptr[i], n);
            if (!q) {
                TEST_FAIL_AT("realloc %ld failed", op);
                break;
            }
            m.frees[owner[i]]++;
            m.bytes[owner[i]] -= size[i];
            m.allocs[0]++;
            m.bytes[0] += n;
            if (m.bytes[0] > m.peak[0])
                m.peak[0] = m.bytes[0];
            ptr[i] = q;
            size[i] = n;
            owner[i] = 0;
        } else if (ptr[i] && !grow) {
            free(ptr[i]);
            ptr[i] = NULL;
            live--;
            m.frees[owner[i]]++;
            m.bytes[owner[i]] -= size[i];
        }
        if (op % 25000 == 24999)
            check_model(&m, keys);
    }
    for (long i = 0; i < CAP; i++) {
        if (ptr[i]) {
            free(ptr[i]);
            m.frees[owner[i]]++;
            m.bytes[owner[i]] -= size[i];
        }
    }
    check_model(&m, keys);
    CHECK_U64_EQ(m.bytes[0] + m.bytes[1], 0);
    (free)(ptr);
    (free)(size);
    (free)(owner);
}

/* A double free is still caught after thousands of other frees (within
 * the 4096 the table promises to remember) and rebuilds of the table, and
 * a foreign free is still foreign. The victim is too large for the heap
 * (glibc maps it apart), so no later small block can take its address. */
static void test_mem_table_double_after_sweeps(void)
{
    MemReset();
    enum { N = 1300 };
    char *victim = malloc(1u << 20);
    CHECK(victim != NULL);
    void *foreign = (malloc)(40);
    free(victim);
    int reused = 0;
    void **v = (malloc)(N * sizeof *v);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) {
            v[i] = malloc((size_t)(i % 200) + 1 + (size_t)round * 300);
            if (v[i] == (void *)victim)
                reused = 1;
        }
        for (int i = 0; i < N; i++)
            free(v[i]);
    }
    (free)(v);
    CHECK_INT_EQ(reused, 0);
    free(victim); /* 3900 frees later, past growth and rebuilds */
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.double_frees, 1);
    CHECK_U64_EQ(r.frees, 3 * N + 1);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    free(foreign);
    CHECK_U64_EQ(foreign_now(), 1);
}

/* Two threads hammering: the first recording thread records without the
 * lock until a second one starts recording; here the second starts while
 * the first is in the middle of its work, on its own key and then on a
 * shared one. Every count is exact. Run in fresh processes (fork), since
 * the hand-over happens once per process. */
enum { HAMMER = 200000, SHARED = 50000 };

struct hammer {
    int key;
    int shared;
    volatile int *go; /* set by the first thread half-way */
    uint64_t peak;
};

static void *hammer_main(void *arg)
{
    struct hammer *h = arg;
    void *live[8] = {0};
    uint64_t held = 0;
    size_t sz[8] = {0};
    if (h->go)
        while (!__atomic_load_n(h->go, __ATOMIC_ACQUIRE))
            ;
#undef MEM_KEY
#define MEM_KEY h->key
    for (int i = 0; i < HAMMER; i++) {
        int s = i % 8;
        if (live[s]) {
            free(live[s]);
            held -= sz[s];
        }
        sz[s] = (size_t)(i % 50) + 1;
        live[s] = malloc(sz[s]);
        held += sz[s];
        if (held > h->peak)
            h->peak = held;
    }
    for (int s = 0; s < 8; s++)
        free(live[s]);
#undef MEM_KEY
#define MEM_KEY h->shared
    for (int i = 0; i < SHARED; i++)
        free(malloc(24));
#undef MEM_KEY
#define MEM_KEY key_a
    return NULL;
}

static int hammer_once(void)
{
    MemReset();
    int k1 = MemAddKey("first"), k2 = MemAddKey("second"), ks = MemAddKey("shared");
    volatile int go = 0;
    struct hammer h1 = {k1, ks, NULL, 0}, h2 = {k2, ks, &go, 0};
    pthread_t t;
    if (pthread_create(&t, NULL, hammer_main, &h2) != 0)
        return 1;
        /* The first half alone (this thread holds the bias), then the other
         * thread joins while this one goes on. */
#undef MEM_KEY
#define MEM_KEY k1
    for (int i = 0; i < 1000; i++)
        free(malloc(8));
#undef MEM_KEY
#define MEM_KEY key_a
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    hammer_main(&h1);
    pthread_join(t, NULL);
    struct qq_mem_row a = row_of(k1), b = row_of(k2), s = row_of(ks);
    int bad = 0;
    bad |= a.allocs != HAMMER + 1000 || a.frees != HAMMER + 1000 || a.alloc_bytes != 0;
    bad |= a.peak_bytes != h1.peak;
    bad |= b.allocs != HAMMER || b.frees != HAMMER || b.alloc_bytes != 0 || b.peak_bytes != h2.peak;
    bad |= s.allocs != 2 * SHARED || s.frees != 2 * SHARED || s.alloc_bytes != 0;
    bad |= s.peak_bytes < 24 || s.peak_bytes > 48;
    bad |= a.double_frees + b.double_frees + s.double_frees != 0 || foreign_now() != 0;
    if (bad)
        fprintf(stderr,
                "first %llu/%llu/%llu peak %llu (want %llu); second %llu/%llu/%llu peak %llu "
                "(want %llu); shared %llu/%llu/%llu peak %llu; foreign %llu\n",
                (unsigned long long)a.allocs, (unsigned long long)a.frees,
                (unsigned long long)a.alloc_bytes, (unsigned long long)a.peak_bytes,
                (unsigned long long)h1.peak, (unsigned long long)b.allocs,
                (unsigned long long)b.frees, (unsigned long long)b.alloc_bytes,
                (unsigned long long)b.peak_bytes, (unsigned long long)h2.peak,
                (unsigned long long)s.allocs, (unsigned long long)s.frees,
                (unsigned long long)s.alloc_bytes, (unsigned long long)s.peak_bytes,
                (unsigned long long)foreign_now());
    return bad;
}

static void test_mem_table_two_threads_exact(void)
{
    for (int run = 0; run < 8; run++) {
        fflush(NULL);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid < 0)
            return;
        if (pid == 0)
            _exit(hammer_once());
        int status = 0;
        CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
        CHECK(WIFEXITED(status));
        CHECK_INT_EQ(WEXITSTATUS(status), 0);
    }
    /* And once here, where this thread has recorded before. */
    CHECK_INT_EQ(hammer_once(), 0);
}

int main(void)
{
    key_a = MemAddKey("alpha");
    key_b = MemAddKey("beta");
    RUN(test_mem_table_churn_vs_model);
    RUN(test_mem_table_double_after_sweeps);
    RUN(test_mem_table_two_threads_exact);
    MemReset();
    return TEST_DONE();
}
