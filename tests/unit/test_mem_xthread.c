/* test_mem_xthread.c - memory keys across threads: blocks freed by another thread, double and
 * foreign frees from several, short-lived threads, and the peak's bounds on a key that two threads
 * share. */
#define QQ_ENABLE 1

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

/* MEM_KEY is read where each call is written: here, a local variable. */
#define MEM_KEY key

/* ---------------------------------------------------------------------
 * A queue of blocks from one thread to another.
 * --------------------------------------------------------------------- */

enum { QCAP = 64 };

struct queue {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void *item[QCAP];
    unsigned head, tail; /* tail - head items, head % QCAP the oldest */
};

static void queue_init(struct queue *q)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
}

static void queue_fini(struct queue *q)
{
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->cv);
}

static void queue_put(struct queue *q, void *p)
{
    pthread_mutex_lock(&q->mu);
    while (q->tail - q->head == QCAP)
        pthread_cond_wait(&q->cv, &q->mu);
    q->item[q->tail % QCAP] = p;
    q->tail++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

static void *queue_get(struct queue *q)
{
    pthread_mutex_lock(&q->mu);
    while (q->tail == q->head)
        pthread_cond_wait(&q->cv, &q->mu);
    void *p = q->item[q->head % QCAP];
    q->head++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return p;
}

/* ---------------------------------------------------------------------
 * Blocks that travel: A allocates and B frees, and B allocates (often at
 * an address A's table still holds as freed) and A frees.
 * --------------------------------------------------------------------- */

enum { TRAVEL = 20000 };

struct pair {
    struct queue to_b, to_a;
    int key_a, key_b;
    int failed;
};

static size_t travel_size(int i)
{
    return (size_t)(i * 37 % 500) + 1;
}

static void *side_a(void *arg)
{
    struct pair *w = arg;
    int key = w->key_a;
    for (int i = 0; i < TRAVEL; i++) {
        void *p = malloc(travel_size(i));
        if (!p)
            w->failed = 1;
        queue_put(&w->to_b, p);
        void *q = queue_get(&w->to_a);
        free(q); /* B's block */
    }
    return NULL;
}

static void *side_b(void *arg)
{
    struct pair *w = arg;
    int key = w->key_b;
    for (int i = 0; i < TRAVEL; i++) {
        void *q = queue_get(&w->to_b);
        free(q);                              /* A's block */
        void *p = malloc(travel_size(i + 1)); /* glibc often hands back Q, freed just now */
        if (!p)
            w->failed = 1;
        queue_put(&w->to_a, p);
    }
    return NULL;
}

static void test_mem_xthread_travel(void)
{
    MemReset();
    struct pair w;
    memset(&w, 0, sizeof w);
    queue_init(&w.to_a);
    queue_init(&w.to_b);
    w.key_a = MemAddKey("travel_a");
    w.key_b = MemAddKey("travel_b");
    pthread_t a, b;
    CHECK_INT_EQ(pthread_create(&a, NULL, side_a, &w), 0);
    CHECK_INT_EQ(pthread_create(&b, NULL, side_b, &w), 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    queue_fini(&w.to_a);
    queue_fini(&w.to_b);
    CHECK_INT_EQ(w.failed, 0);
    struct qq_mem_row ra = row_of(w.key_a), rb = row_of(w.key_b);
    CHECK_U64_EQ(ra.allocs, TRAVEL);
    CHECK_U64_EQ(ra.frees, TRAVEL);
    CHECK_U64_EQ(ra.alloc_bytes, 0);
    CHECK_U64_EQ(ra.double_frees, 0);
    CHECK_U64_EQ(rb.allocs, TRAVEL);
    CHECK_U64_EQ(rb.frees, TRAVEL);
    CHECK_U64_EQ(rb.alloc_bytes, 0);
    CHECK_U64_EQ(rb.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
}

/* ---------------------------------------------------------------------
 * One thread allocates, another frees, a third frees again or reallocs:
 * a double free, counted on the block's key and not passed to libc (which
 * would abort, under ASan too).
 * --------------------------------------------------------------------- */

struct hand {
    int key;
    void *p;
    size_t n;
    void *result;
    int err;
};

static void *alloc_one(void *arg)
{
    struct hand *h = arg;
    int key = h->key;
    h->p = malloc(h->n);
    return NULL;
}

static void *free_one(void *arg)
{
    struct hand *h = arg;
    int key = h->key;
    free(h->p);
    return NULL;
}

static void *realloc_one(void *arg)
{
    struct hand *h = arg;
    int key = h->key;
    errno = 0;
    h->result = realloc(h->p, h->n * 2);
    h->err = errno;
    return NULL;
}

static void run1(void *(*fn)(void *), struct hand *h)
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, h) != 0) {
        TEST_FAIL_AT("pthread_create");
        return;
    }
    pthread_join(t, NULL);
}

static void test_mem_xthread_double_free(void)
{
    MemReset();
    struct hand h = {MemAddKey("xdouble"), NULL, 1234, NULL, 0};
    run1(alloc_one, &h);
    CHECK(h.p != NULL);
    run1(free_one, &h); /* freed by a second thread: tracked */
    struct qq_mem_row r = row_of(h.key);
    CHECK_U64_EQ(r.allocs, 1);
    CHECK_U64_EQ(r.frees, 1);
    CHECK_U64_EQ(r.double_frees, 0);
    run1(free_one, &h);    /* a third thread frees it again */
    run1(realloc_one, &h); /* and a fourth reallocs it */
    CHECK(h.result == NULL);
    CHECK_INT_EQ(h.err, EINVAL);
    {
        int key = h.key;
        free(h.p); /* and this one */
    }
    r = row_of(h.key);
    CHECK_U64_EQ(r.allocs, 1);
    CHECK_U64_EQ(r.frees, 1);
    CHECK_U64_EQ(r.double_frees, 3);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(foreign_now(), 0);
}

/* realloc of another thread's block: a free of the old block on its key,
 * an allocation on the realloc's key. */
static void test_mem_xthread_realloc(void)
{
    MemReset();
    struct hand h = {MemAddKey("xrealloc_from"), NULL, 300, NULL, 0};
    run1(alloc_one, &h);
    CHECK(h.p != NULL);
    struct hand g = {MemAddKey("xrealloc_to"), h.p, 300, NULL, 0};
    run1(realloc_one, &g);
    CHECK(g.result != NULL);
    struct qq_mem_row from = row_of(h.key), to = row_of(g.key);
    CHECK_U64_EQ(from.allocs, 1);
    CHECK_U64_EQ(from.frees, 1);
    CHECK_U64_EQ(from.alloc_bytes, 0);
    CHECK_U64_EQ(to.allocs, 1);
    CHECK_U64_EQ(to.alloc_bytes, 600);
    CHECK_U64_EQ(to.peak_bytes, 600);
    g.p = g.result;
    run1(free_one, &g);
    to = row_of(g.key);
    CHECK_U64_EQ(to.frees, 1);
    CHECK_U64_EQ(to.alloc_bytes, 0);
    CHECK_U64_EQ(to.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
}

/* ---------------------------------------------------------------------
 * Foreign frees from two threads at once: counted, passed to libc. Each
 * looks in the other's table while the other records in it (under
 * ThreadSanitizer: the table locks are what orders them).
 * --------------------------------------------------------------------- */

enum { FOREIGN_EACH = 5000 };

static void *free_foreign(void *arg)
{
    int key = *(int *)arg;
    for (int i = 0; i < FOREIGN_EACH; i++) {
        void *p = (malloc)(64); /* libc's: never tracked */
        void *q = malloc(32);   /* tracked: the other thread's walk meets it */
        if (p)
            free(p);
        if (q)
            free(q);
    }
    return NULL;
}

static void test_mem_xthread_foreign(void)
{
    MemReset();
    int key = MemAddKey("xforeign");
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        CHECK_INT_EQ(pthread_create(&t[i], NULL, free_foreign, &key), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK_U64_EQ(foreign_now(), 2 * FOREIGN_EACH);
    struct qq_mem_row r = row_of(key);
    CHECK_U64_EQ(r.allocs, 2 * FOREIGN_EACH);
    CHECK_U64_EQ(r.frees, 2 * FOREIGN_EACH);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.double_frees, 0);
}

/* ---------------------------------------------------------------------
 * Short-lived threads, a few at a time, each leaving blocks for this
 * thread to free: exact counts, and tables reused, not piled up.
 * --------------------------------------------------------------------- */

enum { CHURN = 200, BATCH = 4, EACH = 50, LEFT = 20 };

struct churn {
    int key;
    int index;
    void *left[LEFT];
    int failed;
};

static size_t churn_size(int t, int i)
{
    return (size_t)((t * 13 + i * 7) % 300) + 1;
}

static void *churn_main(void *arg)
{
    struct churn *c = arg;
    int key = c->key;
    void *mine[EACH];
    for (int i = 0; i < EACH; i++) {
        mine[i] = malloc(churn_size(c->index, i));
        if (!mine[i])
            c->failed = 1;
    }
    for (int i = 0; i < EACH; i++) {
        if (i < LEFT)
            c->left[i] = mine[i];
        else
            free(mine[i]);
    }
    return NULL;
}

static void test_mem_xthread_churn(void)
{
    MemReset();
    int key = MemAddKey("churn");
    int tables0 = qq__mem_tables();
    static struct churn jobs[CHURN];
    uint64_t left_bytes = 0;
    int most = tables0;
    for (int b = 0; b < CHURN; b += BATCH) {
        pthread_t t[BATCH];
        for (int i = 0; i < BATCH; i++) {
            jobs[b + i].key = key;
            jobs[b + i].index = b + i;
            CHECK_INT_EQ(pthread_create(&t[i], NULL, churn_main, &jobs[b + i]), 0);
        }
        for (int i = 0; i < BATCH; i++)
            pthread_join(t[i], NULL);
        int n = qq__mem_tables();
        if (n > most)
            most = n;
    }
    for (int j = 0; j < CHURN; j++) {
        CHECK_INT_EQ(jobs[j].failed, 0);
        for (int i = 0; i < LEFT; i++)
            left_bytes += churn_size(j, i);
    }
    struct qq_mem_row r = row_of(key);
    CHECK_U64_EQ(r.allocs, (uint64_t)CHURN * EACH);
    CHECK_U64_EQ(r.frees, (uint64_t)CHURN * (EACH - LEFT));
    CHECK_U64_EQ(r.alloc_bytes, left_bytes);
    /* What the threads left, freed here: found in their (orphaned or
     * adopted) tables. */
    for (int j = 0; j < CHURN; j++)
        for (int i = 0; i < LEFT; i++)
            free(jobs[j].left[i]);
    r = row_of(key);
    CHECK_U64_EQ(r.frees, (uint64_t)CHURN * EACH);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    /* One table for this thread and one for each thread alive at once (a
     * batch), whatever the number of threads that came and went. */
    CHECK(most <= tables0 + BATCH);
    CHECK(qq__mem_tables() <= 1 + BATCH + 2);
}

/* ---------------------------------------------------------------------
 * Two threads on one key, taking turns in a known order: the most the key
 * held at any point of that order (1050) lies between the peak's bounds,
 * which follow from each thread's account (docs/MEMORY.md, "The peak with
 * several threads"): thread 0 peaks at 500, thread 1 at 550 (its object
 * bytes never below 0), so lower = 550 and upper = 1050.
 * --------------------------------------------------------------------- */

enum op { ALLOC, FREE, ADDOBJ, FREEOBJ };

struct step {
    int thread; /* who */
    enum op op;
    int slot; /* which of the thread's blocks */
    size_t n;
};

/* Held after each step: 100 300 200 250 750 1050 750 550 50 0. */
static const struct step steps[] = {
    {0, ALLOC, 0, 100}, {1, ALLOC, 0, 200},  {0, FREE, 0, 0},      {1, ALLOC, 1, 50},
    {0, ALLOC, 1, 500}, {1, ADDOBJ, 0, 300}, {1, FREEOBJ, 0, 300}, {1, FREE, 0, 0},
    {0, FREE, 1, 0},    {1, FREE, 1, 0},
};
enum { NSTEPS = sizeof steps / sizeof steps[0] };

struct turns {
    int key;
    atomic_int next; /* the step to run */
};

struct player {
    struct turns *t;
    int me;
};

static void *play(void *arg)
{
    struct player *pl = arg;
    int key = pl->t->key;
    void *block[2] = {NULL, NULL};
    for (;;) {
        int s = atomic_load_explicit(&pl->t->next, memory_order_acquire);
        if (s >= NSTEPS)
            break;
        if (steps[s].thread != pl->me) {
            sched_yield();
            continue;
        }
        const struct step *st = &steps[s];
        switch (st->op) {
        case ALLOC:
            block[st->slot] = malloc(st->n);
            break;
        case FREE:
            free(block[st->slot]);
            break;
        case ADDOBJ:
            MEMADDOBJECT(&block, st->n);
            break;
        case FREEOBJ:
            MEMFREEOBJECT(&block, st->n);
            break;
        }
        atomic_store_explicit(&pl->t->next, s + 1, memory_order_release);
    }
    return NULL;
}

static void test_mem_xthread_peak(void)
{
    for (int round = 0; round < 20; round++) {
        MemReset();
        struct turns t;
        t.key = MemAddKey("xpeak");
        atomic_init(&t.next, 0);
        struct player p[2] = {{&t, 0}, {&t, 1}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            CHECK_INT_EQ(pthread_create(&th[i], NULL, play, &p[i]), 0);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        struct qq_mem_row r = row_of(t.key);
        CHECK_U64_EQ(r.peak_bytes, 1050);
        CHECK_U64_EQ(r.peak_low, 550);
        CHECK_U64_EQ(r.allocs, 4);
        CHECK_U64_EQ(r.frees, 4);
        CHECK_U64_EQ(r.alloc_bytes, 0);
        CHECK_U64_EQ(r.obj_bytes, 0);
        CHECK_U64_EQ(r.created, 1);
        CHECK_U64_EQ(r.deleted, 1);
    }
}

int main(void)
{
    RUN(test_mem_xthread_churn); /* first: it counts tables */
    RUN(test_mem_xthread_travel);
    RUN(test_mem_xthread_double_free);
    RUN(test_mem_xthread_realloc);
    RUN(test_mem_xthread_foreign);
    RUN(test_mem_xthread_peak);
    MemReset();
    return TEST_DONE();
}
