/* mem_overhead.c - the cost of memory keys: malloc+free pairs through MemMalloc/MemFree against
 * plain malloc/free, interleaved in rounds. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qq.h"
#include "qq_mem.h" /* after the system headers: malloc and free now record */

/* The memory key of this file's tracked allocations. */
static int KEY_BENCH;
#define MEM_KEY KEY_BENCH

#define DEFAULT_SIZE  100000L
#define DEFAULT_STEPS 10L

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: mem_overhead [--size N] [--steps R]\n"
            "Times N malloc+free pairs of mixed sizes through the memory keys\n"
            "(MemMalloc/MemFree) and through plain malloc/free, interleaved in\n"
            "R rounds, and prints the ratio. Writes mem_overhead.qq (or\n"
            "$" QQ_OUTPUT_ENV ") with the states mem_tracked and mem_plain.\n"
            "  --size N   pairs per round (default %ld)\n"
            "  --steps R  rounds (default %ld)\n"
            "  --help     this text\n",
            DEFAULT_SIZE, DEFAULT_STEPS);
}

/* "--opt N" or "--opt=N", N in [1, max]. Returns 1 if ARGV[*I] was OPT. */
static int option(int argc, char **argv, int *i, const char *opt, long max, long *out)
{
    size_t n = strlen(opt);
    const char *arg = argv[*i];
    const char *val;
    if (strcmp(arg, opt) == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "mem_overhead: %s needs a value\n", opt);
            exit(2);
        }
        val = argv[++*i];
    } else if (strncmp(arg, opt, n) == 0 && arg[n] == '=') {
        val = arg + n + 1;
    } else {
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (errno != 0 || end == val || *end != '\0' || v < 1 || v > max) {
        fprintf(stderr, "mem_overhead: %s: expected an integer in 1..%ld, got '%s'\n", opt, max,
                val);
        exit(2);
    }
    *out = v;
    return 1;
}

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

/* Blocks alive at once: each pair frees the oldest of a window of WINDOW
 * blocks and allocates a new one, so the heap and the address table stay at
 * a steady, realistic size instead of growing with N. */
#define WINDOW 4096

/* N pairs through the memory keys: malloc/free are the macros here. */
static uint64_t tracked_round(char **ptrs, const size_t *sizes, long n)
{
    uint64_t t0 = now_ns();
    for (long i = 0; i < n; i++) {
        long slot = i % WINDOW;
        if (ptrs[slot])
            free(ptrs[slot]);
        ptrs[slot] = malloc(sizes[i]);
        if (ptrs[slot])
            ptrs[slot][0] = 1;
    }
    for (long s = 0; s < WINDOW; s++) {
        free(ptrs[s]);
        ptrs[s] = NULL;
    }
    return now_ns() - t0;
}

/* N pairs through libc: the parenthesised names escape the macros. */
static uint64_t plain_round(char **ptrs, const size_t *sizes, long n)
{
    uint64_t t0 = now_ns();
    for (long i = 0; i < n; i++) {
        long slot = i % WINDOW;
        if (ptrs[slot])
            (free)(ptrs[slot]);
        ptrs[slot] = (malloc)(sizes[i]);
        if (ptrs[slot])
            ptrs[slot][0] = 1;
    }
    for (long s = 0; s < WINDOW; s++) {
        (free)(ptrs[s]);
        ptrs[s] = NULL;
    }
    return now_ns() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long size = DEFAULT_SIZE, steps = DEFAULT_STEPS;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (option(argc, argv, &i, "--size", 100000000L, &size) ||
            option(argc, argv, &i, "--steps", 1000000L, &steps))
            continue;
        fprintf(stderr, "mem_overhead: unknown option '%s'\n", argv[i]);
        usage(stderr);
        return 2;
    }

    /* The bench's own arrays stay out of the tally: (malloc) is libc's. */
    char **ptrs = (calloc)(WINDOW, sizeof *ptrs);
    size_t *sizes = (malloc)((size_t)size * sizeof *sizes);
    double *ratios = (malloc)((size_t)steps * sizeof *ratios);
    if (!ptrs || !sizes || !ratios) {
        fprintf(stderr, "mem_overhead: out of memory\n");
        return 3;
    }
    make_sizes(sizes, size);

    QQInit((int)(4 * steps + 16 < INT_MAX ? 4 * steps + 16 : INT_MAX));
    int st_tracked = QQAddState("mem_tracked");
    int st_plain = QQAddState("mem_plain");
    KEY_BENCH = MemAddKey("mem_overhead");

    /* One warm-up round each, unrecorded: page faults, table growth. */
    tracked_round(ptrs, sizes, size);
    plain_round(ptrs, sizes, size);
    QQBaseTime();

    uint64_t tracked_ns = 0, plain_ns = 0;
    uint64_t tracked_best = UINT64_MAX, plain_best = UINT64_MAX;
    for (long r = 0; r < steps; r++) {
        uint64_t t = 0, p = 0;
        /* A B, then B A: drift of the machine cancels. */
        for (int half = 0; half < 2; half++) {
            if ((half == 0) == (r % 2 == 0)) {
                QQStateOn(st_tracked);
                t = tracked_round(ptrs, sizes, size);
                QQStateOff(st_tracked);
            } else {
                QQStateOn(st_plain);
                p = plain_round(ptrs, sizes, size);
                QQStateOff(st_plain);
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

    printf("mem_overhead: %ld rounds of %ld malloc+free pairs, mixed sizes "
           "16 B..16 KB, %d blocks alive\n",
           steps, size, WINDOW);
    printf("plain   malloc+free: %8.2f ns/pair (best round %.2f)\n", (double)plain_ns / pairs,
           (double)plain_best / (double)size);
    printf("tracked malloc+free: %8.2f ns/pair (best round %.2f)\n", (double)tracked_ns / pairs,
           (double)tracked_best / (double)size);
    printf("ratio tracked/plain: %8.2f (median of rounds %.2f)\n",
           plain_ns ? (double)tracked_ns / (double)plain_ns : 0.0, median);

    (free)(ratios);
    (free)(sizes);
    (free)(ptrs);

    int rc = qq_out("mem_overhead.qq", 0, 1);
    if (rc != 0) {
        fprintf(stderr, "mem_overhead: %s\n", qq_out_errmsg());
        return 3;
    }
    return 0;
}
