/* mem_overhead.c - the cost of memory keys: malloc+free pairs through MemMalloc/MemFree against
 * plain malloc/free, in one process (interleaved) or one side per launch (for qqbench's A/B). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qq.h"
#include "kcommon.h"
#include "qq_mem.h" /* after the system headers: malloc and free now record */

#define PROG "mem_overhead"

/* The memory key of this file's tracked allocations. */
static int KEY_BENCH;
#define MEM_KEY KEY_BENCH

enum { V_BOTH, V_TRACKED, V_PLAIN };

/* Blocks alive at once per thread: each pair frees the oldest of a window
 * and allocates a new one, so the heap and the address table stay at a
 * steady size instead of growing with the pair count. Mixed sizes keep
 * 4096; a fixed size keeps at most 16 MB alive (64 KB blocks: 256). */
#define WINDOW_MAX   4096L
#define WINDOW_BYTES (16L << 20)

struct worker {
    pthread_t thread;
    int tracked;
    long pairs;    /* per round */
    long window;   /* blocks alive */
    size_t *sizes; /* the size of pair i (mixed), or NULL: all `bytes` */
    size_t bytes;
    char **ptrs;
};

static pthread_barrier_t start_line, finish_line;
static long rounds_left;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Mixed sizes, the same every run: mostly 16..1024 bytes, one in 64 from
 * 1 KB up to 16 KB. */
static void make_sizes(size_t *sizes, long n)
{
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (long i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sizes[i] =
            (x & 63) == 0 ? 1024 + (size_t)(x >> 20) % (15 * 1024) : 16 + (size_t)(x >> 20) % 1009;
    }
}

/* One round of W->pairs pairs through the memory keys: malloc and free are
 * the macros here. */
static void tracked_round(struct worker *w)
{
    for (long i = 0; i < w->pairs; i++) {
        long slot = i % w->window;
        if (w->ptrs[slot])
            free(w->ptrs[slot]);
        w->ptrs[slot] = malloc(w->sizes ? w->sizes[i] : w->bytes);
        if (w->ptrs[slot])
            w->ptrs[slot][0] = 1;
    }
}

/* The same through libc: the parenthesised names escape the macros. */
static void plain_round(struct worker *w)
{
    for (long i = 0; i < w->pairs; i++) {
        long slot = i % w->window;
        if (w->ptrs[slot])
            (free)(w->ptrs[slot]);
        w->ptrs[slot] = (malloc)(w->sizes ? w->sizes[i] : w->bytes);
        if (w->ptrs[slot])
            w->ptrs[slot][0] = 1;
    }
}

/* Release the window, each block the way it was allocated. */
static void drain(struct worker *w, int tracked)
{
    for (long s = 0; s < w->window; s++) {
        if (tracked)
            free(w->ptrs[s]);
        else
            (free)(w->ptrs[s]);
        w->ptrs[s] = NULL;
    }
}

static void run_round(struct worker *w)
{
    if (w->tracked)
        tracked_round(w);
    else
        plain_round(w);
}

/* Threads 1..T-1: a round between the two barriers, until none is left. */
static void *worker_main(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        pthread_barrier_wait(&start_line);
        if (rounds_left == 0)
            break;
        run_round(w);
        pthread_barrier_wait(&finish_line);
    }
    drain(w, w->tracked);
    return NULL;
}

/* One side per launch (--variant tracked or plain): the state "pairs" is
 * one round of every thread's pairs, from the start barrier to the last
 * thread's end; thread 0 is the main thread, which records. */
static int run_side(const struct kargs *a, int tracked, long bytes, long threads)
{
    long window = WINDOW_MAX;
    if (bytes > 0 && WINDOW_BYTES / bytes < window)
        window = WINDOW_BYTES / bytes;
    if (window < 16)
        window = 16;
    size_t *sizes = NULL;
    if (bytes == 0) {
        sizes = kxcalloc(PROG, (size_t)a->size, sizeof *sizes);
        make_sizes(sizes, a->size);
    }
    struct worker *ws = kxcalloc(PROG, (size_t)threads, sizeof *ws);
    for (long t = 0; t < threads; t++) {
        ws[t].tracked = tracked;
        ws[t].pairs = a->size;
        ws[t].window = window;
        ws[t].sizes = sizes;
        ws[t].bytes = (size_t)bytes;
        ws[t].ptrs = kxcalloc(PROG, (size_t)window, sizeof *ws[t].ptrs);
    }

    QQInit(kqq_events((uint64_t)(2 * a->steps + 16)));
    int st_pairs = QQAddState("pairs");
    pthread_barrier_init(&start_line, NULL, (unsigned)threads);
    pthread_barrier_init(&finish_line, NULL, (unsigned)threads);
    rounds_left = a->steps + 1; /* a warm-up round first, unrecorded */
    for (long t = 1; t < threads; t++)
        if (pthread_create(&ws[t].thread, NULL, worker_main, &ws[t]) != 0)
            kdie(PROG, "cannot start thread %ld", t);
    QQBaseTime();
    uint64_t ns = 0;
    for (long r = 0; r <= a->steps; r++) {
        int timed = r > 0;
        if (timed)
            QQStateOn(st_pairs);
        uint64_t t0 = now_ns();
        pthread_barrier_wait(&start_line);
        run_round(&ws[0]);
        pthread_barrier_wait(&finish_line);
        uint64_t t1 = now_ns();
        if (timed) {
            QQStateOff(st_pairs);
            ns += t1 - t0;
        }
        rounds_left--;
    }
    pthread_barrier_wait(&start_line); /* rounds_left is 0: the workers end */
    for (long t = 1; t < threads; t++)
        pthread_join(ws[t].thread, NULL);
    drain(&ws[0], tracked);
    pthread_barrier_destroy(&start_line);
    pthread_barrier_destroy(&finish_line);

    {
        printf("%s: %s, %ld thread%s x %ld rounds of %ld pairs, ", PROG,
               tracked ? "tracked" : "plain", threads, threads == 1 ? "" : "s", a->steps, a->size);
        if (bytes)
            printf("%ld B blocks, %ld alive per thread\n", bytes, window);
        else
            printf("mixed sizes 16 B..16 KB, %ld alive per thread\n", window);
        printf("%.2f ns per pair and thread\n", (double)ns / ((double)a->size * (double)a->steps));
    }
    for (long t = 0; t < threads; t++)
        kxfree(ws[t].ptrs);
    kxfree(ws);
    kxfree(sizes);
    return kqq_out(PROG, "mem_overhead.qq", 0, 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Both sides in one process (the default): tracked and plain rounds
 * interleaved, A B then B A, and the ratio printed. */
static int run_both(const struct kargs *a, long bytes)
{
    long size = a->size, steps = a->steps;
    struct worker w = {0};
    w.pairs = size;
    w.window = WINDOW_MAX;
    w.bytes = (size_t)bytes;
    w.ptrs = kxcalloc(PROG, WINDOW_MAX, sizeof *w.ptrs);
    if (bytes == 0) {
        w.sizes = kxcalloc(PROG, (size_t)size, sizeof *w.sizes);
        make_sizes(w.sizes, size);
    }
    double *ratios = kxcalloc(PROG, (size_t)steps, sizeof *ratios);

    QQInit(kqq_events((uint64_t)(4 * steps + 16)));
    int st_tracked = QQAddState("mem_tracked");
    int st_plain = QQAddState("mem_plain");

    /* One warm-up round each, unrecorded: page faults, table growth. */
    tracked_round(&w);
    drain(&w, 1);
    plain_round(&w);
    drain(&w, 0);
    QQBaseTime();

    uint64_t tracked_ns = 0, plain_ns = 0;
    uint64_t tracked_best = UINT64_MAX, plain_best = UINT64_MAX;
    for (long r = 0; r < steps; r++) {
        uint64_t t = 0, p = 0;
        /* A B, then B A: drift of the machine cancels. */
        for (int half = 0; half < 2; half++) {
            uint64_t t0 = now_ns();
            if ((half == 0) == (r % 2 == 0)) {
                QQStateOn(st_tracked);
                tracked_round(&w);
                drain(&w, 1);
                QQStateOff(st_tracked);
                t = now_ns() - t0;
            } else {
                QQStateOn(st_plain);
                plain_round(&w);
                drain(&w, 0);
                QQStateOff(st_plain);
                p = now_ns() - t0;
            }
        }
        tracked_ns += t;
        plain_ns += p;
        if (t < tracked_best)
            tracked_best = t;
        if (p < plain_best)
            plain_best = p;
        ratios[r] = p ? (double)t / (double)p : 0.0;
    }
    qsort(ratios, (size_t)steps, sizeof *ratios, cmp_double);
    double median = steps % 2 ? ratios[steps / 2] : (ratios[steps / 2 - 1] + ratios[steps / 2]) / 2;
    double pairs = (double)size * (double)steps;

    if (bytes)
        printf("%s: %ld rounds of %ld malloc+free pairs, %ld B blocks, %ld blocks alive\n", PROG,
               steps, size, bytes, WINDOW_MAX);
    else
        printf("%s: %ld rounds of %ld malloc+free pairs, mixed sizes 16 B..16 KB, %ld blocks "
               "alive\n",
               PROG, steps, size, WINDOW_MAX);
    printf("plain   malloc+free: %8.2f ns/pair (best round %.2f)\n", (double)plain_ns / pairs,
           (double)plain_best / (double)size);
    printf("tracked malloc+free: %8.2f ns/pair (best round %.2f)\n", (double)tracked_ns / pairs,
           (double)tracked_best / (double)size);
    printf("ratio tracked/plain: %8.2f (median of rounds %.2f)\n",
           plain_ns ? (double)tracked_ns / (double)plain_ns : 0.0, median);

    kxfree(ratios);
    kxfree(w.sizes);
    kxfree(w.ptrs);
    return kqq_out(PROG, "mem_overhead.qq", 0, 1);
}

int main(int argc, char **argv)
{
    static const char *const variants[] = {"both", "tracked", "plain", NULL};
    static long bytes = 0, threads = 1;
    static const struct kopt extra[] = {
        {"bytes", KOPT_LONG, &bytes, 0, "block size in bytes, 0: mixed 16 B..16 KB (default 0)"},
        {"threads", KOPT_LONG, &threads, 1,
         "threads allocating at once (default 1; --variant tracked or plain)"},
        {NULL, KOPT_FLAG, NULL, 0, NULL}};
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "Times malloc+free pairs through the memory keys (MemMalloc/MemFree)\n"
                   "and through plain malloc/free: --size pairs per round, --steps rounds,\n"
                   "each pair freeing the oldest block of a window of live blocks.\n"
                   "both: tracked and plain rounds interleaved in one process, and their\n"
                   "ratio printed. tracked, plain: one side per launch, with --threads\n"
                   "threads each doing --size pairs per round, for qqbench's A/B of the\n"
                   "state 'pairs' (configs/qq-overhead.yaml).",
        .keys = "  states  mem_tracked, mem_plain (both); pairs (tracked, plain)\n"
                "  memory  mem_overhead",
        .variants = variants,
        .size_default = 100000,
        .steps_default = 10,
        .extra = extra};
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    /* Usage errors: one line, exit 2 (as kargs_parse's). */
    const char *bad = NULL;
    if (bytes > (1L << 20))
        bad = "--bytes: expected an integer in 0..1048576";
    else if (threads > 64)
        bad = "--threads: expected an integer in 1..64";
    else if (a.variant_index == V_BOTH && threads != 1)
        bad = "--threads needs --variant tracked or plain";
    else if (a.variant_index == V_BOTH && bytes > WINDOW_BYTES / WINDOW_MAX)
        bad = "--bytes above 4096 needs --variant tracked or plain";
    if (bad) {
        fprintf(stderr, "%s: %s\n", PROG, bad);
        return 2;
    }

    KEY_BENCH = MemAddKey("mem_overhead");
    if (a.variant_index == V_BOTH)
        return run_both(&a, bytes);
    return run_side(&a, a.variant_index == V_TRACKED, bytes, threads);
}
