/* test_mem_bounds.c - memory keys with threads counting apart: totals exact against the program's
 * own arithmetic, the peak's bounds on a forced interleaving whose true peak is known, one thread's
 * peak exact. */
#define QQ_ENABLE 1

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_test.h"
#include "qq_file.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

/* MEM_KEY is read where each call is written: here, a local variable. */
#define MEM_KEY key

/* ---------------------------------------------------------------------
 * Totals: 4 threads, each allocating and freeing known sizes on a key they
 * share and on a key of its own; half of each thread's own blocks are
 * freed by the next thread (after a barrier, so that each own key's peak
 * is known too), with a realloc in each pair; and objects counted on
 * the shared key, half of them deleted in a later phase.
 * --------------------------------------------------------------------- */

enum { NT = 4, ROUNDS = 2000, OWN_BLOCKS = 64 };

static pthread_barrier_t phase;
static int key_shared;
static int key_own[NT];
/* Thread i's own blocks, the second half freed by thread (i + 1) % NT. */
static void *own_blocks[NT][OWN_BLOCKS];

static size_t own_size(int t, int b)
{
    return (size_t)(16 + 8 * t + b);
}

static size_t shared_size(int t, int r)
{
    return (size_t)(1 + (t * 7 + r * 13) % 300);
}

static void *totals_worker(void *arg)
{
    int me = (int)(intptr_t)arg;
    /* Phase 1: the own key's blocks, all alive at once. */
    int key = key_own[me];
    for (int b = 0; b < OWN_BLOCKS; b++)
        own_blocks[me][b] = malloc(own_size(me, b));
    pthread_barrier_wait(&phase);
    /* Phase 2: the own key's first half freed here, the next thread's
     * second half too (a free from another thread); the shared key's
     * pairs, with a realloc in between, and objects. */
    for (int b = 0; b < OWN_BLOCKS / 2; b++)
        free(own_blocks[me][b]);
    int next = (me + 1) % NT;
    for (int b = OWN_BLOCKS / 2; b < OWN_BLOCKS; b++)
        free(own_blocks[next][b]);
    key = key_shared;
    for (int r = 0; r < ROUNDS; r++) {
        char *p = malloc(shared_size(me, r));
        char *q = realloc(p, 2 * shared_size(me, r));
        free(q ? q : p);
        MEMADDOBJECT(&r, 40);
    }
    pthread_barrier_wait(&phase);
    /* Phase 3: half of the objects deleted; the own key's blocks again,
     * all alive at once: the own key's account is back at 0 only if the
     * other thread's frees took their bytes off this thread's account, and
     * its peak stays the phase-1 figure only then. */
    for (int r = 0; r < ROUNDS / 2; r++)
        MEMFREEOBJECT(&r, 40);
    key = key_own[me];
    for (int b = 0; b < OWN_BLOCKS; b++)
        own_blocks[me][b] = malloc(own_size(me, b));
    for (int b = 0; b < OWN_BLOCKS; b++)
        free(own_blocks[me][b]);
    return NULL;
}

static void test_mem_bounds_totals(void)
{
    MemReset();
    key_shared = MemAddKey("bounds_shared");
    char name[32];
    for (int t = 0; t < NT; t++) {
        snprintf(name, sizeof name, "bounds_own%d", t);
        key_own[t] = MemAddKey(name);
    }
    pthread_barrier_init(&phase, NULL, NT);
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        CHECK_INT_EQ(pthread_create(&th[t], NULL, totals_worker, (void *)(intptr_t)t), 0);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&phase);

    struct qq_mem_row s = row_of(key_shared);
    CHECK_U64_EQ(s.allocs, 2 * NT * ROUNDS); /* malloc, then realloc's new block */
    CHECK_U64_EQ(s.frees, 2 * NT * ROUNDS);  /* realloc's old block, then free */
    CHECK_U64_EQ(s.alloc_bytes, 0);
    CHECK_U64_EQ(s.created, NT * ROUNDS);
    CHECK_U64_EQ(s.deleted, NT * ROUNDS / 2);
    CHECK_U64_EQ(s.obj_bytes, 40u * NT * ROUNDS / 2);
    CHECK_U64_EQ(s.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    CHECK(s.peak_low <= s.peak_bytes);
    /* All objects alive at the end of phase 2: the true peak is at least
     * that, and the snapshot's cut saw the live objects now. */
    CHECK(s.peak_bytes >= 40u * NT * ROUNDS);
    CHECK(s.peak_low >= 40u * NT * ROUNDS / 2);
    for (int t = 0; t < NT; t++) {
        struct qq_mem_row o = row_of(key_own[t]);
        uint64_t all = 0;
        for (int b = 0; b < OWN_BLOCKS; b++)
            all += own_size(t, b);
        CHECK_U64_EQ(o.allocs, 2 * OWN_BLOCKS);
        CHECK_U64_EQ(o.frees, 2 * OWN_BLOCKS);
        CHECK_U64_EQ(o.alloc_bytes, 0);
        /* Blocks belong to the thread that allocated them, whoever frees
         * them: one account, so the peak is exact. */
        CHECK_U64_EQ(o.peak_bytes, all);
        CHECK_U64_EQ(o.peak_low, all);
    }
}

/* ---------------------------------------------------------------------
 * Biases withdrawn and taken back, many times: two threads allocate and
 * free on one key, and every HAND_EVERY pairs each hands a block to the
 * other, which frees it (a look into the other thread's table withdraws
 * its bias; its owner takes it back after enough calls under its lock).
 * The totals stay exact throughout.
 * --------------------------------------------------------------------- */

enum { HAND_PAIRS = 20000, HAND_EVERY = 500 };

struct hand2 {
    int key;
    _Atomic(void *) box[2]; /* box[i]: a block for thread i to free */
    _Atomic int handed[2];
    _Atomic int done;
};

static void *hand_worker(void *arg)
{
    struct hand2 *h = (struct hand2 *)((intptr_t)arg & ~(intptr_t)1);
    int me = (int)((intptr_t)arg & 1), other = 1 - me;
    int key = h->key;
    for (int i = 0; i < HAND_PAIRS; i++) {
        free(malloc((size_t)(24 + i % 100)));
        void *in = atomic_exchange(&h->box[me], NULL);
        if (in)
            free(in);
        if (i % HAND_EVERY == 0) {
            void *out = malloc(1000);
            void *expected = NULL;
            if (atomic_compare_exchange_strong(&h->box[other], &expected, out))
                atomic_fetch_add(&h->handed[me], 1);
            else
                free(out);
        }
    }
    atomic_fetch_add(&h->done, 1);
    while (atomic_load(&h->done) < 2) {
        void *in = atomic_exchange(&h->box[me], NULL);
        if (in)
            free(in);
    }
    void *in = atomic_exchange(&h->box[me], NULL);
    if (in)
        free(in);
    return NULL;
}

static void test_mem_bounds_handover(void)
{
    MemReset();
    static struct hand2 h; /* 2-aligned: its address carries the thread's number */
    memset(&h, 0, sizeof h);
    h.key = MemAddKey("bounds_handover");
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK_INT_EQ(pthread_create(&th[i], NULL, hand_worker, (void *)((intptr_t)&h | i)), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    struct qq_mem_row r = row_of(h.key);
    uint64_t extra = (uint64_t)(2 * (HAND_PAIRS / HAND_EVERY)); /* one block each 500 pairs */
    CHECK_U64_EQ(r.allocs, 2 * HAND_PAIRS + extra);
    CHECK_U64_EQ(r.frees, 2 * HAND_PAIRS + extra);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    CHECK(atomic_load(&h.handed[0]) + atomic_load(&h.handed[1]) > 0);
    CHECK(r.peak_low <= r.peak_bytes);
    /* Each thread's account holds at most three 1000-byte blocks: one the
     * other thread took from its box and has not freed yet, one put in
     * the box since, and the one it offers (malloc'd before the exchange
     * finds the box full, then freed); a pair's block (under 124 bytes)
     * is freed before a block is offered. The bound is the program's own
     * arithmetic, whatever the interleaving: with the other thread slow
     * between taking and freeing (ThreadSanitizer, a busy machine) the
     * third block is reached, which a bound of 2 x 2000 did not allow. */
    CHECK(r.peak_bytes <= 2 * 3000);
}

/* ---------------------------------------------------------------------
 * The peak's bounds on a known interleaving: two threads take steps in
 * the order of the table, a barrier between steps. The test follows the
 * key's total (the true peak) and each thread's own account (its peak and
 * the least of its object bytes) itself, and checks the library's bounds
 * against the definitions of docs/MEMORY.md and lower <= true <= upper.
 * --------------------------------------------------------------------- */

enum op { ALLOC, FREE, ADDOBJ, FREEOBJ, LOOK };

struct step {
    int thread; /* who: 0 or 1 */
    enum op op;
    int slot; /* which of that thread's blocks (ALLOC, FREE) */
    int64_t n;
};

/* Total after each step, and what each account reaches:
 *   A +obj 64 (A 64), B -obj 64 (B -64: its objects' least), total 0;
 *   A 100 (A 164), B 100 (B 36), total 200: the true peak;
 *   A -100 (A 64), B -100 (B -64), total 0;
 *   A 150 (A 214: its peak), total 150; A -150, total 0;
 *   B 120 (B 56: its peak), total 120; B -120.
 * True peak 200; upper 214 + 56 = 270; lower max(214 - 64, 56 + 0) = 150.
 * With a snapshot at the total of 200 (LOOK), lower is 200. */
static const struct step pattern[] = {
    {0, ADDOBJ, 0, 64}, {1, FREEOBJ, 0, 64}, {0, ALLOC, 0, 100}, {1, ALLOC, 0, 100},
    {0, LOOK, 0, 0},    {0, FREE, 0, 0},     {1, FREE, 0, 0},    {0, ALLOC, 1, 150},
    {0, FREE, 1, 0},    {1, ALLOC, 1, 120},  {1, FREE, 1, 0},
};
enum { NSTEPS = sizeof pattern / sizeof pattern[0] };

struct play {
    int key;
    int me;      /* 0 or 1; -1: one thread plays both parts */
    int looking; /* LOOK takes a snapshot */
    pthread_barrier_t *bar;
};

static void *play(void *arg)
{
    const struct play *pl = arg;
    int key = pl->key;
    void *block[2][2] = {{NULL, NULL}, {NULL, NULL}};
    for (int s = 0; s < NSTEPS; s++) {
        const struct step *st = &pattern[s];
        if (pl->me < 0 || st->thread == pl->me) {
            void **b = &block[st->thread][st->slot];
            switch (st->op) {
            case ALLOC:
                *b = malloc((size_t)st->n);
                break;
            case FREE:
                free(*b);
                break;
            case ADDOBJ:
                MEMADDOBJECT(b, (size_t)st->n);
                break;
            case FREEOBJ:
                MEMFREEOBJECT(b, (size_t)st->n);
                break;
            case LOOK:
                if (pl->looking)
                    (void)row_of(key);
                break;
            }
        }
        if (pl->bar)
            pthread_barrier_wait(pl->bar);
    }
    return NULL;
}

/* The pattern's figures by the definitions: the true peak, and the bounds
 * from each thread's account (ONE: one account for both parts). */
static void pattern_figures(int one, int64_t *truth, int64_t *lower, int64_t *upper)
{
    int64_t held[2] = {0, 0}, peak[2] = {0, 0}, obj[2] = {0, 0}, low[2] = {0, 0}, total = 0;
    int64_t size[2][2] = {{0, 0}, {0, 0}};
    *truth = 0;
    for (int s = 0; s < NSTEPS; s++) {
        const struct step *st = &pattern[s];
        int a = one ? 0 : st->thread;
        int64_t d = 0;
        if (st->op == ALLOC)
            d = size[st->thread][st->slot] = st->n;
        else if (st->op == FREE)
            d = -size[st->thread][st->slot];
        else if (st->op == ADDOBJ || st->op == FREEOBJ)
            d = st->op == ADDOBJ ? st->n : -st->n;
        if (st->op == ADDOBJ || st->op == FREEOBJ) {
            obj[a] += d;
            if (obj[a] < low[a])
                low[a] = obj[a];
        }
        held[a] += d;
        total += d;
        peak[a] = held[a] > peak[a] ? held[a] : peak[a];
        *truth = total > *truth ? total : *truth;
    }
    *upper = peak[0] + peak[1];
    *lower = peak[0] + low[1] > peak[1] + low[0] ? peak[0] + low[1] : peak[1] + low[0];
}

static struct qq_mem_row run_pattern(int threads, int looking)
{
    MemReset();
    int key = MemAddKey("bounds_pattern");
    pthread_barrier_t bar;
    if (threads == 2) {
        pthread_barrier_init(&bar, NULL, 2);
        struct play p[2] = {{key, 0, looking, &bar}, {key, 1, looking, &bar}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            CHECK_INT_EQ(pthread_create(&th[i], NULL, play, &p[i]), 0);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&bar);
    } else {
        struct play p = {key, -1, looking, NULL};
        pthread_t th;
        CHECK_INT_EQ(pthread_create(&th, NULL, play, &p), 0);
        pthread_join(th, NULL);
    }
    return row_of(key);
}

static void test_mem_bounds_pattern(void)
{
    int64_t truth, lower, upper;
    pattern_figures(0, &truth, &lower, &upper);
    /* The test's own arithmetic, as the comment above the table says. */
    CHECK_INT_EQ(truth, 200);
    CHECK_INT_EQ(lower, 150);
    CHECK_INT_EQ(upper, 270);
    for (int round = 0; round < 10; round++) {
        struct qq_mem_row r = run_pattern(2, 0);
        CHECK_U64_EQ(r.peak_low, (uint64_t)lower);
        CHECK_U64_EQ(r.peak_bytes, (uint64_t)upper);
        CHECK(r.peak_low <= (uint64_t)truth && (uint64_t)truth <= r.peak_bytes);
        CHECK_U64_EQ(r.allocs, 4);
        CHECK_U64_EQ(r.frees, 4);
        CHECK_U64_EQ(r.alloc_bytes, 0);
        CHECK_U64_EQ(r.obj_bytes, 0);
        /* A snapshot taken at the true peak: the lower bound is the cut. */
        r = run_pattern(2, 1);
        CHECK_U64_EQ(r.peak_low, (uint64_t)truth);
        CHECK_U64_EQ(r.peak_bytes, (uint64_t)upper);
    }
}

/* One thread playing both parts: one account, the peak exact (the bounds
 * agree). */
static void test_mem_bounds_one_thread(void)
{
    int64_t truth, lower, upper;
    pattern_figures(1, &truth, &lower, &upper);
    CHECK_INT_EQ(truth, 200);
    CHECK_INT_EQ(lower, 200);
    CHECK_INT_EQ(upper, 200);
    struct qq_mem_row r = run_pattern(1, 0);
    CHECK_U64_EQ(r.peak_bytes, 200);
    CHECK_U64_EQ(r.peak_low, 200);
    CHECK_U64_EQ(r.allocs, 4);
    CHECK_U64_EQ(r.frees, 4);
}

/* The printed table: one figure where the bounds agree, low..high where
 * they do not. */
static void test_mem_bounds_print(void)
{
    const struct qq_mem_row rows[2] = {
        {"exact", 0, 0, 0, 0, 0, 4096, 1, 1, 0, 4096},
        {"shared", 0, 0, 0, 0, 0, 270, 4, 4, 0, 150},
    };
    struct qq_mem_table t = {2, rows, 0, 0};
    FILE *fp = tmpfile();
    if (!fp) {
        CHECK(fp != NULL);
        return;
    }
    qq_mem_print_table(fp, &t);
    rewind(fp);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    CHECK(strstr(buf, "150..270") != NULL);
    CHECK(strstr(buf, "    1..1\n") == NULL); /* 150 and 270 bytes are both 1 KB */
    CHECK(strstr(buf, "low..high") != NULL);
    CHECK(strstr(buf, "4096..") == NULL);
}

/* The bounds through the file: QQOut writes them after the MEMT rows, the
 * reader gives them back; a lower bound above its upper one is refused. */
static void test_mem_bounds_file(void)
{
    struct qq_mem_row r = run_pattern(2, 0);
    QQInit(100);
    CHECK_INT_EQ(qq_out("mem_bounds.qq", 0, 1), 0);
    struct qq_file *f = NULL;
    int rc = qq_file_open("mem_bounds.qq", &f);
    CHECK_INT_EQ(rc, 0);
    struct qq_mem_table t;
    memset(&t, 0, sizeof t);
    int key = MemAddKey("bounds_pattern");
    if (rc == 0 && qq_file_mem(f, 0, &t) == 1 && (uint32_t)key < t.nrows) {
        CHECK_U64_EQ(t.rows[key].peak_low, r.peak_low);
        CHECK_U64_EQ(t.rows[key].peak_bytes, r.peak_bytes);
        CHECK_U64_EQ(t.rows[0].peak_low, t.rows[0].peak_bytes); /* default: exact */
    } else {
        CHECK(!"no memory table for the pattern's key");
    }
    qq_file_close(f);

    /* The last u64 of the MEMT payload is the last row's lower bound:
     * above its upper bound, the file is corrupt. */
    FILE *fp = (fopen)("mem_bounds.qq", "r+b");
    CHECK(fp != NULL);
    if (!fp)
        return;
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, fp);
    long memt = -1;
    for (size_t i = 0; i + 16 <= n; i += 8)
        if (!memcmp(buf + i, "MEMT", 4))
            memt = (long)i;
    CHECK(memt >= 0);
    if (memt >= 0) {
        uint64_t len = 0;
        for (int b = 7; b >= 0; b--)
            len = len << 8 | buf[memt + 8 + b];
        long last = memt + 16 + (long)len - 8;
        for (int b = 0; b < 8; b++)
            buf[last + b] = b == 0 ? 0xff : (b < 4 ? 0xff : 0);
        fseek(fp, last, SEEK_SET);
        fwrite(buf + last, 1, 8, fp);
    }
    fclose(fp);
    f = NULL;
    rc = qq_file_open("mem_bounds.qq", &f);
    CHECK_INT_EQ(rc, QQ_ECORRUPT);
    CHECK(f && strstr(qq_file_errmsg(f), "lower bound") != NULL);
    qq_file_close(f);
    remove("mem_bounds.qq");
}

int main(void)
{
    RUN(test_mem_bounds_totals);
    RUN(test_mem_bounds_handover);
    RUN(test_mem_bounds_pattern);
    RUN(test_mem_bounds_one_thread);
    RUN(test_mem_bounds_print);
    RUN(test_mem_bounds_file);
    MemReset();
    return TEST_DONE();
}
