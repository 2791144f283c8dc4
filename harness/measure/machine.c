/* machine.c - qqbench profile-machine's measurements: a counter read's cost, memory bandwidth
 * and latency over working sets, a floating-point rate, and MPI ping-pong (pingpong_run.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "qq.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The measurement loops read our own buffers: keep the sanitizers' checks
 * out of them, or ASan+UBSan builds measure the shadow memory and the
 * overflow checks instead (a 16 KiB set read at 5-17 GB/s, slower than
 * DRAM, with UBSan's checks left in). */
#if defined(__SANITIZE_ADDRESS__)
#define QQB_NO_ASAN __attribute__((no_sanitize("address", "undefined")))
#else
#define QQB_NO_ASAN
#endif

static volatile uint64_t sink;

QQB_NO_ASAN static uint64_t sum_pass(const uint64_t *a, size_t n)
{
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
        s4 += a[i + 4];
        s5 += a[i + 5];
        s6 += a[i + 6];
        s7 += a[i + 7];
    }
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

/* Bytes per second reading a working set of BYTES, best of TRIALS. */
static double bandwidth(uint64_t *a, size_t bytes, int trials)
{
    size_t n = bytes / sizeof *a;
    size_t passes = (size_t)(64.0 * 1024 * 1024 / (double)bytes) + 1;
    double best = INFINITY;
    sink += sum_pass(a, n); /* warm */
    for (int t = 0; t < trials; t++) {
        double t0 = now();
        for (size_t p = 0; p < passes; p++)
            sink += sum_pass(a, n);
        double dt = (now() - t0) / (double)passes;
        if (dt < best)
            best = dt;
    }
    return (double)(n * sizeof *a) / best;
}

QQB_NO_ASAN static size_t chase(const size_t *next, size_t steps)
{
    size_t i = 0;
    while (steps--)
        i = next[i];
    return i;
}

/* Nanoseconds per dependent load over a random cycle through BYTES. */
static double latency(size_t *next, size_t bytes, int trials, unsigned *seed)
{
    /* one pointer per 64-byte line: every load a new line */
    size_t stride = 64 / sizeof *next, lines = bytes / 64;
    if (lines < 2)
        return NAN;
    size_t *order = malloc(lines * sizeof *order);
    if (!order)
        return NAN;
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    for (size_t i = lines - 1; i > 0; i--) { /* Fisher-Yates, our own LCG */
        *seed = *seed * 1103515245u + 12345u;
        size_t j = ((size_t)*seed << 15 ^ (size_t)(*seed >> 7)) % (i + 1);
        size_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (size_t i = 0; i < lines; i++)
        next[order[i] * stride] = order[(i + 1) % lines] * stride;
    free(order);
    /* enough loads to leave the warm-up behind, few enough for DRAM's
     * hundreds of ns: 0.1-0.3 s per trial at most */
    size_t steps = bytes <= (8u << 20) ? 2000000 : 500000;
    double best = INFINITY;
    sink += chase(next, lines);
    for (int t = 0; t < trials; t++) {
        double t0 = now();
        sink += chase(next, steps);
        double dt = (now() - t0) / (double)steps;
        if (dt < best)
            best = dt;
    }
    return best * 1e9;
}

/* Double-precision multiply-adds per second: 8 independent chains. */
static double flops(int trials)
{
    double best = INFINITY;
    const long n = 20000000;
    for (int t = 0; t < trials; t++) {
        volatile double seed = 1.0;
        double a0 = seed, a1 = seed, a2 = seed, a3 = seed, a4 = seed, a5 = seed, a6 = seed,
               a7 = seed, m = 0.999999, c = 1e-7;
        double t0 = now();
        for (long i = 0; i < n; i++) {
            a0 = a0 * m + c;
            a1 = a1 * m + c;
            a2 = a2 * m + c;
            a3 = a3 * m + c;
            a4 = a4 * m + c;
            a5 = a5 * m + c;
            a6 = a6 * m + c;
            a7 = a7 * m + c;
        }
        double dt = now() - t0;
        sink += (uint64_t)(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7);
        if (dt < best)
            best = dt;
    }
    return 16.0 * (double)n / best; /* 2 flops x 8 chains */
}

/* Ticks and nanoseconds per counter read (bare and ordered pair). */
static void tick_cost(double *ns_bare, double *ticks_bare, double *ns_pair, double *mhz)
{
    const int n = 1000000;
    double t0 = now();
    uint64_t k0 = qq_ticks();
    for (int i = 0; i < n; i++)
        sink += qq_ticks();
    uint64_t k1 = qq_ticks();
    double t1 = now();
    for (int i = 0; i < n; i++) {
        sink += qq_ticks_open();
        sink += qq_ticks_close();
    }
    double t2 = now();
    *ns_bare = (t1 - t0) / n * 1e9;
    *ticks_bare = (double)(k1 - k0) / n;
    *ns_pair = (t2 - t1) / n * 1e9;
    /* QQ's calibration (bracketed clock/counter pairs over about 20 ms), the
     * figure the fingerprint and every .qq file carry: the loop above lasts
     * about 10 ms between two unbracketed reads, a few MHz off. */
    *mhz = qq_tick_mhz();
}

static long cache_size(int name)
{
    long v = sysconf(name);
    return v > 0 ? v : 0;
}

/* The working sets: 8 KiB up by fours, then a DRAM-sized set (twice the
 * last-level cache, at least 64 MiB, at most 1 GiB); three with --quick. */
static size_t working_sets(const struct qqb_machine *m, int quick, size_t *sizes, int *ns)
{
    long last = m->l3 ? m->l3 : m->l2 ? m->l2 : 8L << 20;
    size_t dram = (size_t)last * 2;
    if (dram < (64u << 20))
        dram = 64u << 20;
    if (dram > (1u << 30))
        dram = 1u << 30;
    *ns = 0;
    if (quick) {
        sizes[(*ns)++] = 16u << 10;
        sizes[(*ns)++] = 1u << 20;
        sizes[(*ns)++] = dram;
    } else {
        for (size_t s = 8u << 10; s * 2 < dram && *ns < 30; s *= 4)
            sizes[(*ns)++] = s;
        sizes[(*ns)++] = dram;
    }
    return dram;
}

int qqb_machine_measure(struct qqb_machine *m, int quick, const char *launcher, const char *helper,
                        char *err, size_t errsz)
{
    int trials = quick ? 3 : 5;
    m->l1 = cache_size(_SC_LEVEL1_DCACHE_SIZE);
    m->l2 = cache_size(_SC_LEVEL2_CACHE_SIZE);
    m->l3 = cache_size(_SC_LEVEL3_CACHE_SIZE);
    size_t dram = working_sets(m, quick, m->sizes, &m->ns);
    uint64_t *buf = calloc(1, dram); /* calloc: large, so fresh zero pages, no memset */
    if (!buf) {
        snprintf(err, errsz, "cannot allocate %zu bytes", dram);
        return -1;
    }
    for (size_t i = 0; i < dram / sizeof *buf; i++)
        buf[i] = i;
    tick_cost(&m->ns_bare, &m->ticks_bare, &m->ns_pair, &m->mhz);
    unsigned seed = 12345;
    for (int i = 0; i < m->ns; i++) {
        m->bw[i] = bandwidth(buf, m->sizes[i], trials);
        m->lat[i] = latency((size_t *)buf, m->sizes[i], quick ? 2 : 3, &seed);
    }
    m->fl = flops(trials);
    free(buf);
    m->mpi_rc = launcher ? qqb_pingpong_run(launcher, helper, &m->pp) : 0;
    return 0;
}
