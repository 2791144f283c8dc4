/* machine.c - qqbench profile-machine's measurements: a counter read's cost, memory bandwidth
 * and latency over working sets, a floating-point rate, and MPI ping-pong (pingpong_run.c). */
#include <errno.h>
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

/* The first line of sysfs file cpu0/cache/indexI/NAME into BUF ("" when
 * it cannot be read). */
static void cache_file(int i, const char *name, char *buf, size_t len)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, name);
    buf[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (fp && !fgets(buf, (int)len, fp))
        buf[0] = '\0';
    if (fp)
        fclose(fp);
}

/* The data cache of LEVEL (1, 2, 3) as the kernel reports it in sysfs
 * (cpu0/cache/indexN: level, type, size such as "48K"), else glibc's
 * (CPUID): asked, not assumed. 0 when neither knows. The files are read
 * as hostile bytes: a size that does not parse is unknown. */
static long cache_level_size(int level, int name)
{
    for (int i = 0; i < 16; i++) {
        char buf[64], *end;
        cache_file(i, "level", buf, sizeof buf);
        if (!buf[0])
            break;
        long lv = strtol(buf, &end, 10);
        cache_file(i, "type", buf, sizeof buf);
        if (lv != level || !strncmp(buf, "Instruction", 11))
            continue;
        cache_file(i, "size", buf, sizeof buf);
        errno = 0;
        long v = strtol(buf, &end, 10);
        long mul = *end == 'K' ? 1024 : *end == 'M' ? 1024L * 1024 : *end == 'G' ? 1L << 30 : 1;
        if (!errno && end != buf && v > 0 && v <= (1L << 40) / mul)
            return v * mul;
    }
    return cache_size(name);
}

/* ------------------------------------------------- the hierarchy's levels */

/* Loads per trial of each level's chase and stream (qqb_machine_plan's
 * counts), and of the issue loops. */
#define CHASE_STEPS  300000L
#define STREAM_LOADS 8000000L
#define ISSUE_OPS    16000000L

/* A stream of independent 8-byte loads, one instruction each: eight
 * accumulators, an empty asm per word so the compiler neither vectorises
 * nor merges them (a load here is a load instruction, as a trace counts). */
QQB_NO_ASAN static uint64_t scalar_pass(const uint64_t *a, size_t n)
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
        __asm__ volatile("" : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3));
        __asm__ volatile("" : "+r"(s4), "+r"(s5), "+r"(s6), "+r"(s7));
    }
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

/* Nanoseconds per independent load streaming over BYTES, best of TRIALS. */
static double stream_ns(const uint64_t *a, size_t bytes, int trials)
{
    size_t n = bytes / sizeof *a;
    size_t passes = (size_t)STREAM_LOADS / n + 1;
    double best = INFINITY;
    sink += scalar_pass(a, n);
    for (int t = 0; t < trials; t++) {
        double t0 = now();
        for (size_t p = 0; p < passes; p++)
            sink += scalar_pass(a, n);
        double dt = (now() - t0) / (double)(passes * (n & ~(size_t)7));
        if (dt < best)
            best = dt;
    }
    return best * 1e9;
}

/* Nanoseconds per dependent load over BYTES: a cycle through its 64-byte
 * lines (a power of two of them) in the order of a full-period LCG, made
 * in one sequential pass (a shuffle of a DRAM-sized set costs seconds). */
static double chase_ns(size_t *next, size_t bytes, int trials)
{
    size_t stride = 64 / sizeof *next, lines = 4;
    while (lines * 2 * 64 <= bytes)
        lines *= 2;
    /* x -> (a x + c) mod lines, a = 1 mod 4 and c odd: one cycle over all */
    for (size_t i = 0; i < lines; i++)
        next[i * stride] = ((i * 1103515245u + 12345u) & (lines - 1)) * stride;
    double best = INFINITY;
    sink += chase(next, lines < CHASE_STEPS ? lines : CHASE_STEPS);
    for (int t = 0; t < trials; t++) {
        double t0 = now();
        sink += chase(next, CHASE_STEPS);
        double dt = (now() - t0) / (double)CHASE_STEPS;
        if (dt < best)
            best = dt;
    }
    return best * 1e9;
}

/* Nanoseconds per integer add, eight independent chains kept scalar. */
static double int_ns(int trials)
{
    double best = INFINITY;
    for (int t = 0; t < trials; t++) {
        volatile uint64_t seed = 1;
        uint64_t a0 = seed, a1 = seed, a2 = seed, a3 = seed, a4 = seed, a5 = seed, a6 = seed,
                 a7 = seed;
        double t0 = now();
        for (long i = 0; i < ISSUE_OPS / 8; i++) {
            a0 += i;
            a1 ^= i;
            a2 += a0;
            a3 ^= a1;
            a4 += i;
            a5 ^= i;
            a6 += a4;
            a7 ^= a5;
            __asm__ volatile("" : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3));
            __asm__ volatile("" : "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7));
        }
        double dt = (now() - t0) / (double)ISSUE_OPS;
        sink += a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
        if (dt < best)
            best = dt;
    }
    return best * 1e9;
}

/* Nanoseconds per floating-point operation of one dependent multiply-add
 * chain (x = x * m + c, as compiled: the chain kernel's line). */
static double fp_dep_ns(int trials)
{
    double best = INFINITY;
    for (int t = 0; t < trials; t++) {
        volatile double seed = 1.0, vm = 0.999999, vc = 1e-7;
        double x = seed, m = vm, c = vc;
        double t0 = now();
        for (long i = 0; i < ISSUE_OPS / 8; i++)
            x = x * m + c;
        double dt = (now() - t0) / ((double)ISSUE_OPS / 4); /* 2 flops each */
        sink += (uint64_t)x;
        if (dt < best)
            best = dt;
    }
    return best * 1e9;
}

void qqb_machine_caches(struct qqb_machine *m)
{
    m->l1 = cache_level_size(1, _SC_LEVEL1_DCACHE_SIZE);
    m->l2 = cache_level_size(2, _SC_LEVEL2_CACHE_SIZE);
    m->l3 = cache_level_size(3, _SC_LEVEL3_CACHE_SIZE);
}

/* The DRAM-sized set: twice the last-level cache, at least 64 MiB, at
 * most 1 GiB. */
static size_t dram_set(const struct qqb_machine *m)
{
    long last = m->l3 ? m->l3 : m->l2 ? m->l2 : 8L << 20;
    size_t dram = (size_t)last * 2;
    if (dram < (64u << 20))
        dram = 64u << 20;
    if (dram > (1u << 30))
        dram = 1u << 30;
    return dram;
}

/* The working set that level L (enum qqb_level) serves: half of L1; half
 * of L2 (at least twice L1); twice L2 up to half the last level (the
 * share a virtual machine's guest gets of a large shared L3 is not its
 * size); the DRAM set. 0: the level is unknown. */
static size_t level_set(const struct qqb_machine *m, int l)
{
    long l1 = m->l1 ? m->l1 : 32768;
    switch (l) {
    case QQB_LEVEL_L1:
        return (size_t)l1 / 2;
    case QQB_LEVEL_L2:
        return m->l2 > 2 * l1 ? (size_t)(m->l2 / 2 > 2 * l1 ? m->l2 / 2 : 2 * l1) : 0;
    case QQB_LEVEL_LL:
        if (m->l3 <= 2 * m->l2 || m->l2 == 0)
            return 0;
        return (size_t)(4 * m->l2 < m->l3 / 2 ? 4 * m->l2 : m->l3 / 2);
    default:
        return dram_set(m);
    }
}

/* The memory table's working sets: 8 KiB up by fours, then the DRAM set;
 * with --quick the levels' sets (the table's rows are the levels). */
static void working_sets(const struct qqb_machine *m, int quick, size_t *sizes, int *ns)
{
    size_t dram = dram_set(m);
    *ns = 0;
    if (quick) {
        for (int l = 0; l < QQB_NLEVELS; l++)
            if (level_set(m, l))
                sizes[(*ns)++] = level_set(m, l);
        return;
    }
    for (size_t s = 8u << 10; s * 2 < dram && *ns < 30; s *= 4)
        sizes[(*ns)++] = s;
    sizes[(*ns)++] = dram;
}

/* The worst costs qqb_machine_plan prices its counts at (a loaded 2-core
 * guest measured 5-20 times better on each): ns per dependent load in a
 * cache and in memory, per streamed load in a cache and in memory, per
 * byte summed, per byte written, per arithmetic op, per counter read;
 * us per MPI round trip, ns per MPI byte, s to start the launcher. */
#define WORST_CHASE_CACHE  50.0
#define WORST_CHASE_MEM    400.0
#define WORST_STREAM_CACHE 1.0
#define WORST_STREAM_MEM   4.0
#define WORST_SUM_BYTE     0.5
#define WORST_WRITE_BYTE   1.0
#define WORST_OP           1.0
#define WORST_READ         100.0
#define WORST_MPI_TRIP_US  20.0
#define WORST_MPI_BYTE     0.5
#define WORST_MPI_START    3.0

void qqb_machine_plan(const struct qqb_machine *m, int quick, int mpi, struct qqb_machine_plan *p)
{
    memset(p, 0, sizeof *p);
    int trials = quick ? 3 : 5, ltrials = quick ? 2 : 3;
    size_t dram = dram_set(m), sizes[QQB_PROFILE_MAX_SIZES];
    int ns;
    working_sets(m, quick, sizes, &ns);
    p->write_bytes = 2.0 * (double)dram; /* the buffer's fill, and the chases' cycles at most */
    for (int l = 0; l < QQB_NLEVELS; l++) {
        size_t set = level_set(m, l);
        if (!set)
            continue;
        size_t words = set / 8;
        double n = (double)words, chase = (double)(ltrials + 1) * CHASE_STEPS;
        size_t passes = (size_t)STREAM_LOADS / words + 1; /* stream_ns's */
        double stream = (double)(ltrials + 1) * (double)passes * n;
        *(l == QQB_LEVEL_MEM ? &p->chase_mem_loads : &p->chase_loads) += chase;
        *(l == QQB_LEVEL_MEM ? &p->stream_mem_loads : &p->stream_loads) += stream;
    }
    for (int i = 0; i < ns; i++) {
        size_t passes = (size_t)(64.0 * 1024 * 1024 / (double)sizes[i]) + 1;
        p->sum_bytes += (double)(trials * passes + 1) * (double)sizes[i];
        if (!quick) /* --quick's table takes the levels' chases */
            *(sizes[i] >= dram ? &p->chase_mem_loads : &p->chase_loads) +=
                (double)(ltrials + 1) * CHASE_STEPS;
    }
    p->ops = (double)trials * 20000000.0 * 8 + 2.0 * ltrials * ISSUE_OPS;
    p->reads = 3e6;
    if (mpi) { /* qqb_pingpong: sizes 1 B .. 4 MiB by 4, 5 trials */
        for (long b = 1; b <= 4L << 20; b *= 4) {
            double trips = 5.0 * (b < 65536 ? 1000 : b < (1 << 20) ? 100 : 20);
            p->mpi_trips += trips;
            p->mpi_bytes += 2 * trips * (double)b;
        }
    }
    p->bound_s = (p->chase_loads * WORST_CHASE_CACHE + p->chase_mem_loads * WORST_CHASE_MEM +
                  p->stream_loads * WORST_STREAM_CACHE + p->stream_mem_loads * WORST_STREAM_MEM +
                  p->sum_bytes * WORST_SUM_BYTE + p->write_bytes * WORST_WRITE_BYTE +
                  p->ops * WORST_OP + p->reads * WORST_READ + p->mpi_bytes * WORST_MPI_BYTE) *
                     1e-9 +
                 p->mpi_trips * WORST_MPI_TRIP_US * 1e-6 + (mpi ? WORST_MPI_START : 0);
}

int qqb_machine_measure(struct qqb_machine *m, int quick, const char *launcher, const char *helper,
                        char *err, size_t errsz)
{
    double start = now();
    int trials = quick ? 3 : 5, ltrials = quick ? 2 : 3;
    qqb_machine_caches(m);
    size_t dram = dram_set(m);
    working_sets(m, quick, m->sizes, &m->ns);
    uint64_t *buf = calloc(1, dram); /* calloc: large, so fresh zero pages, no memset */
    if (!buf) {
        snprintf(err, errsz, "cannot allocate %zu bytes", dram);
        return -1;
    }
    for (size_t i = 0; i < dram / sizeof *buf; i++)
        buf[i] = i;
    tick_cost(&m->ns_bare, &m->ticks_bare, &m->ns_pair, &m->mhz);
    long sizes[QQB_NLEVELS] = {m->l1, m->l2, m->l3, 0};
    for (int l = 0; l < QQB_NLEVELS; l++) {
        m->level[l].bytes = sizes[l];
        m->level[l].set = level_set(m, l);
        if (!m->level[l].set)
            continue;
        m->level[l].thr_ns = stream_ns(buf, m->level[l].set, ltrials);
        m->level[l].lat_ns = chase_ns((size_t *)buf, m->level[l].set, ltrials);
    }
    for (int i = 0; i < m->ns; i++) {
        m->bw[i] = bandwidth(buf, m->sizes[i], trials);
        m->lat[i] = NAN;
        for (int l = 0; quick && l < QQB_NLEVELS; l++)
            if (m->level[l].set == m->sizes[i])
                m->lat[i] = m->level[l].lat_ns;
        if (!quick)
            m->lat[i] = chase_ns((size_t *)buf, m->sizes[i], ltrials);
    }
    m->fl = flops(trials);
    m->int_ns = int_ns(ltrials);
    m->fp_dep_ns = fp_dep_ns(ltrials);
    free(buf);
    m->mpi_rc = launcher ? qqb_pingpong_run(launcher, helper, &m->pp) : 0;
    m->seconds = now() - start;
    return 0;
}
