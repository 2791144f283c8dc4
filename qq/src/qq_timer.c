/* qq_timer.c - calibrate the tick counter against the monotonic clock. */
#include <time.h>

#include "qq_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

uint64_t qq__mono_ns(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_RAW
    if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
#endif
        clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
uint64_t qq__clock_ticks(void)
{
    return qq__mono_ns();
}
#endif

/* A fenced read for calibration: lfence keeps rdtsc from running ahead of
 * the clock read before it, so the pair brackets the same instant. */
static uint64_t fenced_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo, hi;
    __asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
#else
    return qq_ticks();
#endif
}

int qq__counter_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    /* CPUID 0x80000007 EDX bit 8: invariant TSC (constant rate in all
     * P-, C- and T-states). */
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000007u &&
        __get_cpuid(0x80000007u, &a, &b, &c, &d))
        return (d >> 8) & 1;
    return 0;
#elif defined(__aarch64__)
    return 1; /* the generic timer runs at a fixed frequency by definition */
#else
    return 1; /* the fallback counts nanoseconds */
#endif
}

/* One (clock, ticks) pair: of 16 tries, the one whose clock read sits
 * between the closest two fenced counter reads, so a preemption or an
 * interrupt between the reads cannot skew the pair. */
void qq__clock_sample(uint64_t *ns, uint64_t *ticks)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 16; i++) {
        uint64_t t0 = fenced_ticks();
        uint64_t n = qq__mono_ns();
        uint64_t t1 = fenced_ticks();
        if (t1 - t0 < best) {
            best = t1 - t0;
            *ns = n;
            *ticks = t0 + (t1 - t0) / 2;
        }
    }
}

double qq__measure_mhz(void)
{
#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
    return 1000.0; /* ticks are nanoseconds */
#else
    uint64_t ns0, tk0, ns1, tk1;
    qq__clock_sample(&ns0, &tk0);
    /* 20 ms: the clock reads' error (tens of ns) is then < 1e-5 relative. */
    do {
        qq__clock_sample(&ns1, &tk1);
    } while (ns1 - ns0 < 20000000u);
    return (double)(tk1 - tk0) * 1000.0 / (double)(ns1 - ns0);
#endif
}

uint64_t qq__measure_step(void)
{
    /* The smallest non-zero difference of two back-to-back reads with the
     * record path's unfenced read: the counter's effective resolution, and
     * the cost floor of any interval QQ records. */
    uint64_t best = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t t0 = qq_ticks();
        uint64_t t1 = qq_ticks();
        if (t1 > t0 && (best == 0 || t1 - t0 < best))
            best = t1 - t0;
    }
    return best;
}

double qq_tick_mhz(void)
{
    return qq__measure_mhz();
}
int qq_tick_invariant(void)
{
    return qq__counter_invariant();
}
