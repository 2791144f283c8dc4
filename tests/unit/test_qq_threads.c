/* test_qq_threads.c - QQ in threaded programs: per-thread buffers, thread ids in every entry,
 * per-thread drops, the THRD section and its reader, old files. */
#define _GNU_SOURCE /* pthread_setname_np */
#define QQ_ENABLE   1
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"

#define NTHREADS 4
#define PAIRS    100000

static int shared_key, own_key[NTHREADS];

struct worker {
    int n;     /* its number, 0 .. NTHREADS - 1 */
    int pairs; /* state pairs to record */
    int marks; /* marks after them (to overflow a buffer) */
};

static void *work(void *p)
{
    const struct worker *w = p;
    char name[16];
    snprintf(name, sizeof name, "qqw-%d", w->n);
    pthread_setname_np(pthread_self(), name);
    for (int i = 0; i < w->pairs; i++) {
        QQStateOn(shared_key);
        QQStateOn(own_key[w->n]);
        QQStateOff(own_key[w->n]);
        QQStateOff(shared_key);
    }
    for (int i = 0; i < w->marks; i++)
        QQMark(own_key[w->n] + NTHREADS); /* the mark keys follow the states */
    return NULL;
}

static void run_workers(struct worker *w, int n)
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < n; i++)
        CHECK_INT_EQ(pthread_create(&t[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

static void add_keys(void)
{
    shared_key = QQAddState("shared");
    for (int i = 0; i < NTHREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "own%d", i);
        own_key[i] = QQAddState(name);
    }
    for (int i = 0; i < NTHREADS; i++) {
        char name[32];
        snprintf(name, sizeof name, "mark%d", i);
        CHECK_INT_EQ(QQAddMark(name), own_key[i] + NTHREADS);
    }
}

/* The proof of issue 25: 4 threads x 10^5 pairs of a shared key (and 10^5
 * of each thread's own key inside them). Every interval is in the file,
 * in its own thread's block, carrying its thread's index, paired with its
 * own thread's off; none is lost or torn. */
static void test_four_threads_every_interval(void)
{
    QQInit(4 * PAIRS);
    add_keys();
    struct worker w[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        w[i] = (struct worker){i, PAIRS, 0};
    run_workers(w, NTHREADS);
    CHECK_INT_EQ(qq_out("four.qq", 0, 1), 0);

    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open_stream("four.qq", &f), 0);
    /* QQInit's thread (0, no events) and the four workers. */
    CHECK_INT_EQ(qq_file_nthreads(f, 0), NTHREADS + 1);
    CHECK_U64_EQ(qq_file_node(f, 0)->entries, (uint64_t)NTHREADS * 4 * PAIRS);
    CHECK_U64_EQ(qq_file_node(f, 0)->dropped, 0);
    CHECK_U64_EQ(qq_file_thread(f, 0, 0)->events, 0);
    int seen_name[NTHREADS] = {0};
    for (uint32_t t = 1; t <= NTHREADS; t++) {
        const struct qq_thread_info *ti = qq_file_thread(f, 0, t);
        CHECK_INT_EQ(ti->index, t);
        CHECK_U64_EQ(ti->events, 4 * PAIRS);
        CHECK_U64_EQ(ti->dropped, 0);
        CHECK(ti->tid != 0 && ti->tid != qq_file_thread(f, 0, 0)->tid);
        int n = -1;
        CHECK_INT_EQ(sscanf(ti->name, "qqw-%d", &n), 1);
        if (n >= 0 && n < NTHREADS)
            seen_name[n]++;
        /* Per thread: exactly its pairs, every one balanced. */
        struct qq_node_summary ns;
        struct qq_key_summary ks[3 * NTHREADS];
        struct qq_hit_stat hs[3 * NTHREADS];
        CHECK_INT_EQ(qq_file_thread_stats(f, 0, t, &ns, ks, hs), 0);
        CHECK_U64_EQ(ks[shared_key].intervals, PAIRS);
        CHECK_U64_EQ(ks[shared_key].unbalanced, 0);
        CHECK_U64_EQ(hs[shared_key].intervals, PAIRS);
        CHECK(ns.first_tick <= ns.last_tick);
        if (n >= 0 && n < NTHREADS) {
            CHECK_U64_EQ(ks[own_key[n]].intervals, PAIRS);
            CHECK_U64_EQ(ks[own_key[n]].unbalanced, 0);
        }
    }
    for (int i = 0; i < NTHREADS; i++)
        CHECK_INT_EQ(seen_name[i], 1);

    /* Entry by entry: the thread field, the pattern (on shared, on own,
     * off own, off shared), and ticks that never go back within a thread. */
    struct qq_chunks *c;
    const struct qq_event *e;
    size_t n;
    uint64_t idx = 0, bad_thread = 0, bad_pattern = 0, back = 0, last = 0;
    int rc = qq_file_chunks_open(f, 0, &c);
    while (rc >= 0 && (rc = qq_chunks_next(c, &e, &n)) > 0) {
        for (size_t j = 0; j < n; j++, idx++) {
            uint32_t t = 1 + (uint32_t)(idx / (4 * PAIRS));
            uint64_t k = idx % 4;
            bad_thread += e[j].reserved != t;
            int on = k < 2;
            int shared = k == 0 || k == 3;
            bad_pattern += e[j].info.i != on || (e[j].key == (uint32_t)shared_key) != shared;
            if (idx % (4 * PAIRS) != 0)
                back += e[j].tick < last;
            last = e[j].tick;
        }
    }
    qq_chunks_close(c);
    CHECK_INT_EQ(rc, 0);
    CHECK_U64_EQ(idx, (uint64_t)NTHREADS * 4 * PAIRS);
    CHECK_U64_EQ(bad_thread, 0);
    CHECK_U64_EQ(bad_pattern, 0);
    CHECK_U64_EQ(back, 0);

    /* The node: every thread's pairs pooled, none unbalanced. */
    struct qq_node_summary ns;
    struct qq_key_summary ks[3 * NTHREADS];
    struct qq_hit_stat hs[3 * NTHREADS];
    CHECK_INT_EQ(qq_file_node_stats(f, 0, &ns, ks, hs), 0);
    CHECK_U64_EQ(ks[shared_key].hits, (uint64_t)NTHREADS * 2 * PAIRS);
    CHECK_U64_EQ(ks[shared_key].intervals, (uint64_t)NTHREADS * PAIRS);
    CHECK_U64_EQ(ks[shared_key].unbalanced, 0);
    CHECK_U64_EQ(hs[shared_key].intervals, (uint64_t)NTHREADS * PAIRS);
    CHECK(ns.first_tick > 0 && ns.first_tick <= ns.last_tick);
    qq_file_close(f);
}

/* A full buffer drops and counts per thread; the node's count is the sum. */
static void test_drops_per_thread(void)
{
    QQInit(100);
    add_keys();
    struct worker w[2] = {{0, 10, 70}, {1, 0, 130}}; /* 110 and 130 events */
    run_workers(w, 2);
    CHECK_INT_EQ(qq_out("drops.qq", 0, 1), 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("drops.qq", &f), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 3);
    uint64_t drop[2] = {0, 0};
    for (uint32_t t = 1; t < 3; t++) {
        const struct qq_thread_info *ti = qq_file_thread(f, 0, t);
        CHECK_U64_EQ(ti->events, 100);
        if (strcmp(ti->name, "qqw-0") == 0)
            drop[0] = ti->dropped;
        else
            drop[1] = ti->dropped;
    }
    CHECK_U64_EQ(drop[0], 10);
    CHECK_U64_EQ(drop[1], 30);
    CHECK_U64_EQ(qq_file_node(f, 0)->dropped, 40);
    CHECK_U64_EQ(qq_file_node(f, 0)->entries, 200);
    qq_file_close(f);
    CHECK_U64_EQ(qq_dropped(), 0); /* the calling thread dropped nothing */
}

/* QQRecord acts on the calling thread; threads that start later inherit it. */
static void test_record_per_thread(void)
{
    QQInit(1000);
    add_keys();
    QQRecord(0);
    struct worker w[1] = {{0, 5, 0}};
    run_workers(w, 1); /* starts off: records nothing, drops nothing */
    QQRecord(1);
    QQMark(own_key[1] + NTHREADS);
    CHECK_INT_EQ(qq_out("rec.qq", 0, 1), 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("rec.qq", &f), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 2);
    CHECK_U64_EQ(qq_file_thread(f, 0, 0)->events, 1);
    CHECK_U64_EQ(qq_file_thread(f, 0, 1)->events, 0);
    CHECK_U64_EQ(qq_file_node(f, 0)->dropped, 0);
    qq_file_close(f);
}

/* A file of version 1.0, written by the library before threads: it reads,
 * as one thread holding every entry. */
static void test_old_version_reads(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/qq/v1_0.qq", getenv("QQ_TEST_DATA"));
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open_stream(path, &f), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 1);
    const struct qq_thread_info *t = qq_file_thread(f, 0, 0);
    CHECK_U64_EQ(t->events, 16);
    CHECK_U64_EQ(t->first, 0);
    CHECK_U64_EQ(t->tid, 0);
    CHECK_STR_EQ(t->name, "");
    struct qq_node_summary ns;
    struct qq_key_summary ks[2];
    CHECK_INT_EQ(qq_file_thread_stats(f, 0, 0, &ns, ks, NULL), 0);
    CHECK_U64_EQ(ks[0].intervals, 5);
    CHECK_U64_EQ(ks[0].unbalanced, 1);
    CHECK_INT_EQ(ks[1].isum, 10);
    CHECK(qq_file_thread(f, 0, 1) == NULL);
    CHECK_INT_EQ(qq_file_thread_stats(f, 0, 1, &ns, ks, NULL), QQ_EINVAL);
    qq_file_close(f);
}

/* ---------------------------------------------------------------------
 * Every byte of the thread table is hostile.
 * --------------------------------------------------------------------- */

static unsigned char *good;
static size_t good_len;

static void make_two_thread_file(void)
{
    QQInit(100);
    add_keys();
    struct worker w[1] = {{2, 3, 0}};
    QQStateOn(shared_key);
    run_workers(w, 1);
    QQStateOff(shared_key);
    CHECK_INT_EQ(qq_out("two.qq", 0, 1), 0);
    FILE *fp = fopen("two.qq", "rb");
    fseek(fp, 0, SEEK_END);
    good_len = (size_t)ftell(fp);
    rewind(fp);
    good = malloc(good_len);
    CHECK(fread(good, 1, good_len, fp) == good_len);
    fclose(fp);
}

static size_t section(const unsigned char *d, uint32_t want)
{
    size_t pos = QQ__HEADER_SIZE;
    while (pos + QQ__SECTION_HEAD <= good_len) {
        uint32_t tag;
        uint64_t len;
        memcpy(&tag, d + pos, 4);
        memcpy(&len, d + pos + 8, 8);
        if (tag == want)
            return pos + QQ__SECTION_HEAD;
        pos += QQ__SECTION_HEAD + len;
    }
    return 0;
}

static void expect(const unsigned char *c, int err, const char *want)
{
    struct qq_file *f;
    unsigned char *copy = malloc(good_len);
    memcpy(copy, c, good_len);
    CHECK_INT_EQ(qq_file_open_mem(copy, good_len, "bad.qq", &f), err);
    if (want)
        CHECK_STR_CONTAINS(qq_file_errmsg(f), want);
    qq_file_close(f);
    free(copy);
}

static void test_thread_table_hostile(void)
{
    make_two_thread_file();
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open_mem(good, good_len, "two.qq", &f), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 2);
    CHECK_U64_EQ(qq_file_thread(f, 0, 0)->events, 2);
    CHECK_U64_EQ(qq_file_thread(f, 0, 1)->events, 12);
    CHECK_U64_EQ(qq_file_thread(f, 0, 1)->first, 2);
    struct qq_key_summary ks[3 * NTHREADS];
    struct qq_node_summary ns;
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    CHECK_U64_EQ(ks[shared_key].intervals, 4); /* 1 on thread 0 around 3 on thread 1 */
    CHECK_U64_EQ(ks[shared_key].unbalanced, 0);
    qq_file_close(f);

    size_t th = section(good, QQ__TAG_THRD), ev = section(good, QQ__TAG_EVTS);
    CHECK(th > 0 && ev > 0);
    unsigned char *c = malloc(good_len);
    memcpy(c, good, good_len);
    qq__store_u32(c + th, 1000000); /* thread count */
    expect(c, QQ_ECORRUPT, "claims 1000000 threads");
    memcpy(c, good, good_len);
    qq__store_u32(c + th + 8, 5); /* row 0's index */
    expect(c, QQ_ECORRUPT, "thread 0 of node 0 has index 5");
    memcpy(c, good, good_len);
    qq__store_u64(c + th + 8 + 16, 3); /* row 0's events: 3 + 12 != 14 */
    expect(c, QQ_ECORRUPT, "past the node's 14");
    memcpy(c, good, good_len);
    qq__store_u64(c + th + 8 + 16, 1); /* 1 + 12: fewer than the node's */
    expect(c, QQ_ECORRUPT, "accounts for 13 entries");
    memcpy(c, good, good_len);
    qq__store_u64(c + th + 8 + 24, 7); /* dropped that the node lacks */
    expect(c, QQ_ECORRUPT, "and 7 dropped");
    /* Dropped counts whose sum passes 2^64: said as dropped, not entries. */
    memcpy(c, good, good_len);
    qq__store_u64(c + th + 8 + 24, UINT64_MAX);
    {
        uint32_t name0_len;
        memcpy(&name0_len, c + th + 8 + 4, 4);
        size_t r1 = th + ((8 + 32 + (size_t)name0_len + 7) & ~(size_t)7);
        qq__store_u64(c + r1 + 24, 1);
    }
    expect(c, QQ_ECORRUPT,
           "thread 1 of node 0 claims 1 dropped events, past 2^64 with the rows "
           "before it");
    memcpy(c, good, good_len);
    qq__store_u32(c + th + 8 + 4, 0xFFFFFF00u); /* name length */
    expect(c, QQ_ECORRUPT, "runs past its section");
    memcpy(c, good, good_len);
    qq__store_u32(c + ev + 4, 1); /* entry 0 claims thread 1 */
    expect(c, QQ_ECORRUPT, "entry 0 carries thread 1");
    memcpy(c, good, good_len);
    qq__store_u32(c + ev + 5 * QQ__EVENT_SIZE + 4, 0); /* entry 5 is thread 1's */
    expect(c, QQ_ECORRUPT, "entry 5 carries thread 0");
    memcpy(c, good, good_len);
    qq__store_u32(c + th - QQ__SECTION_HEAD + 4, 9); /* for node 9 */
    expect(c, QQ_ECORRUPT, "thread table for node 9");
    /* A name with a control character (the second row's, "qqw-2"). */
    memcpy(c, good, good_len);
    uint32_t name0;
    memcpy(&name0, c + th + 8 + 4, 4);
    size_t row1 = th + ((8 + 32 + (size_t)name0 + 7) & ~(size_t)7); /* row 0 and its name, padded */
    CHECK(memcmp(c + row1 + 32, "qqw-2", 5) == 0);
    c[row1 + 32 + 1] = 0x1b;
    expect(c, QQ_ECORRUPT, "thread 1 of node 0: its name breaks the rule");
    /* Every truncation and seeded flips: a clean answer, never a crash. */
    for (size_t len = 0; len < good_len; len++) {
        struct qq_file *g;
        unsigned char *cut = malloc(len ? len : 1);
        memcpy(cut, good, len);
        int rc = qq_file_open_mem(cut, len, "cut.qq", &g);
        CHECK(rc == QQ_ETRUNCATED || rc == QQ_EMAGIC);
        qq_file_close(g);
        free(cut);
    }
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < 2000; i++) {
        memcpy(c, good, good_len);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t at = th - QQ__SECTION_HEAD + x % (good_len - th + QQ__SECTION_HEAD);
        c[at] ^= (unsigned char)(1u << (x >> 40) % 8);
        struct qq_file *g;
        if (qq_file_open_mem(c, good_len, "flip.qq", &g) == 0) {
            for (uint32_t t = 0; t < qq_file_nthreads(g, 0); t++)
                CHECK_INT_EQ(qq_file_thread_stats(g, 0, t, &ns, ks, NULL), 0);
        } else {
            CHECK(strlen(qq_file_errmsg(g)) > 10);
        }
        qq_file_close(g);
    }
    free(c);
    free(good);
}

/* Threads past QQ_THREADS_MAX (issue 33): 4200 short-lived threads, one
 * after another, 10 states each. Every event is kept or counted dropped:
 * the 4095 workers with a row keep theirs; the 105 past the cap count
 * theirs in the last row, "(past the cap)", which records nothing. */
static int past_key;

static void *ten_states(void *p)
{
    (void)p;
    for (int i = 0; i < 10; i++) {
        QQStateOn(past_key);
        QQStateOff(past_key);
    }
    return NULL;
}

static void test_threads_past_the_cap(void)
{
    enum { THREADS = 4200, STATES = 10 };
    QQInit(2 * STATES);
    past_key = QQAddState("past");
    for (int i = 0; i < THREADS; i++) {
        pthread_t t;
        CHECK_INT_EQ(pthread_create(&t, NULL, ten_states, NULL), 0);
        pthread_join(t, NULL);
    }
    CHECK_INT_EQ(qq_out("past.qq", 0, 1), 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("past.qq", &f), 0);
    const struct qq_node_info *ni = qq_file_node(f, 0);
    struct qq_node_summary ns;
    struct qq_key_summary *ks = calloc(qq_file_nkeys(f), sizeof *ks);
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    /* Kept intervals and dropped ones (2 events each) make every one. */
    CHECK_U64_EQ(ks[past_key].intervals + ni->dropped / 2, (uint64_t)THREADS * STATES);
    CHECK_U64_EQ(ks[past_key].intervals, (uint64_t)(QQ_THREADS_MAX - 1) * STATES);
    CHECK_U64_EQ(ni->dropped, (uint64_t)(THREADS - QQ_THREADS_MAX + 1) * 2 * STATES);
    uint32_t nt = qq_file_nthreads(f, 0);
    CHECK_INT_EQ(nt, QQ_THREADS_MAX + 1);
    const struct qq_thread_info *last = qq_file_thread(f, 0, nt - 1);
    CHECK_STR_EQ(last->name, "(past the cap)");
    CHECK_U64_EQ(last->events, 0);
    CHECK_U64_EQ(last->dropped, ni->dropped);
    free(ks);
    qq_file_close(f);
}

/* fork() while another thread has a state on (issue 33): the child has
 * only the forking thread, so its file holds that thread's entries alone,
 * never the other thread's buffer as it stood at the fork (an open state,
 * unbalanced in the child's file). */
static pthread_mutex_t fork_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fork_cv = PTHREAD_COND_INITIALIZER;
static int fork_phase; /* 1 the worker's state is on; 2 the fork is done */

static void *open_at_fork(void *p)
{
    (void)p;
    QQStateOn(shared_key);
    QQStateOff(shared_key);
    QQStateOn(own_key[1]);
    pthread_mutex_lock(&fork_mu);
    fork_phase = 1;
    pthread_cond_broadcast(&fork_cv);
    while (fork_phase != 2)
        pthread_cond_wait(&fork_cv, &fork_mu);
    pthread_mutex_unlock(&fork_mu);
    QQStateOff(own_key[1]);
    return NULL;
}

static void test_fork_child_drops_other_threads(void)
{
    QQInit(100);
    add_keys();
    QQStateOn(shared_key);
    QQStateOff(shared_key);
    pthread_t t;
    CHECK_INT_EQ(pthread_create(&t, NULL, open_at_fork, NULL), 0);
    pthread_mutex_lock(&fork_mu);
    while (fork_phase != 1)
        pthread_cond_wait(&fork_cv, &fork_mu);
    pthread_mutex_unlock(&fork_mu);
    remove("forked.qq");
    pid_t pid = fork();
    if (pid == 0) {
        QQStateOn(shared_key);
        QQStateOff(shared_key);
        _exit(qq_out("forked.qq", 0, 1) == 0 ? 0 : 1);
    }
    CHECK(pid > 0);
    pthread_mutex_lock(&fork_mu);
    fork_phase = 2;
    pthread_cond_broadcast(&fork_cv);
    pthread_mutex_unlock(&fork_mu);
    pthread_join(t, NULL);
    int status = 0;
    CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("forked.qq", &f), 0);
    struct qq_key_summary *ks = calloc(qq_file_nkeys(f), sizeof *ks);
    struct qq_node_summary ns;
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 1);
    CHECK_U64_EQ(ks[own_key[1]].unbalanced, 0);
    CHECK_U64_EQ(ks[own_key[1]].intervals, 0);
    CHECK_U64_EQ(ks[shared_key].intervals, 2); /* the forking thread's: before and in the child */
    CHECK_U64_EQ(ks[shared_key].unbalanced, 0);
    free(ks);
    qq_file_close(f);
    /* The parent keeps both threads. */
    CHECK_INT_EQ(qq_out("parent.qq", 0, 1), 0);
    CHECK_INT_EQ(qq_file_open("parent.qq", &f), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 2);
    qq_file_close(f);
}

/* The same from a worker (thread 1) while QQInit's thread has a state on:
 * the child's one thread is row 0, its entries restamped (the reader
 * refuses an entry whose thread is not its block's). */
static void *fork_from_worker(void *p)
{
    (void)p;
    QQStateOn(own_key[2]);
    QQStateOff(own_key[2]);
    pid_t pid = fork();
    if (pid == 0) {
        QQStateOn(own_key[2]);
        QQStateOff(own_key[2]);
        _exit(qq_out("forked1.qq", 0, 1) == 0 ? 0 : 1);
    }
    int status = 0;
    CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return NULL;
}

static void test_fork_from_worker(void)
{
    QQInit(100);
    add_keys();
    QQStateOn(shared_key);
    pthread_t t;
    remove("forked1.qq");
    CHECK_INT_EQ(pthread_create(&t, NULL, fork_from_worker, NULL), 0);
    pthread_join(t, NULL);
    QQStateOff(shared_key);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("forked1.qq", &f), 0);
    struct qq_key_summary *ks = calloc(qq_file_nkeys(f), sizeof *ks);
    struct qq_node_summary ns;
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    CHECK_INT_EQ(qq_file_nthreads(f, 0), 1);
    CHECK_U64_EQ(ks[shared_key].unbalanced, 0);
    CHECK_U64_EQ(ks[own_key[2]].intervals, 2);
    free(ks);
    qq_file_close(f);
}

int main(void)
{
    RUN(test_four_threads_every_interval);
    RUN(test_drops_per_thread);
    RUN(test_record_per_thread);
    RUN(test_old_version_reads);
    RUN(test_thread_table_hostile);
    RUN(test_threads_past_the_cap);
    RUN(test_fork_child_drops_other_threads);
    RUN(test_fork_from_worker);
    return TEST_DONE();
}
