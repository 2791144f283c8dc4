/* qq_timer.c - the tick path chosen from what the processor says, and the counter calibrated
 * against the monotonic clock. */
#define _DEFAULT_SOURCE /* syscall */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qq_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* 1 when this process's rdtsc faults (prctl PR_TSC_SIGSEGV): the vDSO's
 * clock_gettime reads the TSC itself and faults too (seen: SIGSEGV inside
 * clock_gettime), so the clock is asked of the kernel. */
static int clock_by_syscall;

static int read_clock(clockid_t id, struct timespec *ts)
{
#if defined(__linux__) && defined(SYS_clock_gettime)
    if (__atomic_load_n(&clock_by_syscall, __ATOMIC_RELAXED))
        return (int)syscall(SYS_clock_gettime, id, ts);
#endif
    return clock_gettime(id, ts);
}

uint64_t qq__mono_ns(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_RAW
    if (read_clock(CLOCK_MONOTONIC_RAW, &ts) != 0)
#endif
        read_clock(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------------
 * The tick path: chosen once per process from what the processor says.
 * --------------------------------------------------------------------- */

uint32_t qq__tick_flags; /* QQ_CALIB_* found when the path was chosen */

static const char *const path_names[QQ_TICKS_NPATHS] = {"unknown", "clock_gettime", "lfence-rdtsc",
                                                        "rdtscp", "cntvct_el0"};

const char *qq_tick_path_name(int path)
{
    return path > 0 && path < QQ_TICKS_NPATHS ? path_names[path] : path_names[0];
}

/* The clock path's rate in MHz: 1000 (ticks are nanoseconds) unless
 * $QQ_TICKS says clock@RATE. A stated rate makes the clock tick RATE times
 * a microsecond, so a test can look like a slower (clock@5000: every
 * interval twice the ticks of a 2.5 GHz counter) or a faster machine
 * (clock@500) without one; the file stores the rate as any node's MHz. */
static uint32_t clock_mhz = 1000;

/* "clock@RATE": RATE a whole number of MHz from 1 to 100,000, else 0. */
static uint32_t clock_rate(const char *e)
{
    static const char pre[] = "clock@";
    if (strncmp(e, pre, sizeof pre - 1) != 0)
        return 0;
    const char *d = e + sizeof pre - 1;
    uint32_t r = 0;
    for (; *d >= '0' && *d <= '9' && r <= 100000u; d++)
        r = r * 10u + (uint32_t)(*d - '0');
    return *d == '\0' && d > e + sizeof pre - 1 && r >= 1 && r <= 100000u ? r : 0;
}

/* $QQ_TICKS as a path: QQ_TICKS_UNSET for auto (or unset), -1 when the
 * value names no path. The short names and the file's names both work;
 * clock@RATE is the clock at a stated rate (clock_mhz). */
static int env_path(void)
{
    static const struct {
        const char *name;
        int path;
    } names[] = {{"auto", QQ_TICKS_UNSET},          {"clock", QQ_TICKS_CLOCK},
                 {"clock_gettime", QQ_TICKS_CLOCK}, {"lfence", QQ_TICKS_LFENCE},
                 {"lfence-rdtsc", QQ_TICKS_LFENCE}, {"rdtscp", QQ_TICKS_RDTSCP},
                 {"cntvct", QQ_TICKS_CNTVCT},       {"cntvct_el0", QQ_TICKS_CNTVCT}};
    const char *e = getenv(QQ_TICKS_ENV);
    __atomic_store_n(&clock_mhz, 1000u, __ATOMIC_RELAXED);
    if (!e || !*e)
        return QQ_TICKS_UNSET;
    uint32_t rate = clock_rate(e);
    if (rate) {
        __atomic_store_n(&clock_mhz, rate, __ATOMIC_RELAXED);
        return QQ_TICKS_CLOCK;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(e, names[i].name) == 0)
            return names[i].path;
    return -1;
}

#if defined(__x86_64__) || defined(__i386__)
/* CPUID leaf LEAF's EDX bit BIT; 0 where the leaf does not exist. */
static int cpuid_edx_bit(unsigned leaf, int bit)
{
    unsigned a, b, c, d;
    if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf ||
        !__get_cpuid(leaf, &a, &b, &c, &d))
        return 0;
    return (int)((d >> bit) & 1u);
}
#endif

uint32_t qq__tick_survey(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint32_t fl = 0;
    int tsc = cpuid_edx_bit(1u, 4);
#if defined(PR_GET_TSC) && defined(PR_TSC_SIGSEGV)
    /* A process may have rdtsc turned into SIGSEGV (prctl PR_SET_TSC). */
    int mode = 0;
    if (tsc && prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode == PR_TSC_SIGSEGV) {
        tsc = 0;
        __atomic_store_n(&clock_by_syscall, 1, __ATOMIC_RELAXED);
    }
#endif
    if (tsc)
        fl |= QQ_CALIB_TSC;
    if (cpuid_edx_bit(0x80000001u, 27))
        fl |= QQ_CALIB_RDTSCP;
    /* 0x80000007 EDX bit 8: invariant TSC (a constant rate in all P-, C-
     * and T-states). */
    if (cpuid_edx_bit(0x80000007u, 8))
        fl |= QQ_CALIB_INVARIANT;
    return fl;
#else
    /* aarch64's generic timer runs at a fixed frequency by definition;
     * elsewhere ticks are the clock's nanoseconds. */
    return QQ_CALIB_INVARIANT;
#endif
}

int qq__tick_path_decide(uint32_t cpu, int want, uint32_t *flags)
{
    int offered[QQ_TICKS_NPATHS] = {0}, autopath = QQ_TICKS_CLOCK;
    offered[QQ_TICKS_CLOCK] = 1;
#if defined(__x86_64__) || defined(__i386__)
    int tsc = (cpu & QQ_CALIB_TSC) != 0;
    offered[QQ_TICKS_LFENCE] = tsc;
    offered[QQ_TICKS_RDTSCP] = tsc && (cpu & QQ_CALIB_RDTSCP);
    /* A TSC whose rate may change is not a clock: the automatic choice is
     * then the clock, as the Linux kernel refuses such a TSC as its
     * clocksource. A forced TSC path still records, and the harness then
     * refuses to judge the file's ticks. */
    if (tsc && (cpu & QQ_CALIB_INVARIANT))
        autopath = offered[QQ_TICKS_RDTSCP] ? QQ_TICKS_RDTSCP : QQ_TICKS_LFENCE;
#elif defined(__aarch64__)
    offered[QQ_TICKS_CNTVCT] = 1;
    autopath = QQ_TICKS_CNTVCT;
#endif
    uint32_t fl = cpu & (QQ_CALIB_TSC | QQ_CALIB_RDTSCP | QQ_CALIB_INVARIANT);
    int path = autopath;
    if (want > QQ_TICKS_UNSET && want < QQ_TICKS_NPATHS && offered[want]) {
        path = want;
        fl |= QQ_CALIB_FORCED;
    } else if (want != QQ_TICKS_UNSET) {
        fl |= QQ_CALIB_REFUSED;
    }
    *flags = fl;
    return path;
}

int qq__tick_path_choose(void)
{
    uint32_t fl;
    int path = qq__tick_path_decide(qq__tick_survey(), env_path(), &fl);
    /* Every thread that gets here computes the same answer. */
    __atomic_store_n(&qq__tick_flags, fl, __ATOMIC_RELAXED);
    __atomic_store_n(&qq__st.path, path, __ATOMIC_RELEASE);
    return path;
}

int qq_tick_path(void)
{
    int p = __atomic_load_n(&qq__st.path, __ATOMIC_ACQUIRE);
    return p != QQ_TICKS_UNSET ? p : qq__tick_path_choose();
}

static inline void clock_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("lfence" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("isb" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

uint64_t qq__ticks_slow(int how)
{
    int p = qq_tick_path();
#if defined(__x86_64__) || defined(__i386__)
    if (p == QQ_TICKS_RDTSCP)
        return how == 0 ? qq__rdtsc() : how == 1 ? qq__rdtsc_fenced() : qq__rdtscp_fenced();
    if (p == QQ_TICKS_LFENCE)
        return how == 0 ? qq__rdtsc() : qq__rdtsc_fenced();
#elif defined(__aarch64__)
    if (p == QQ_TICKS_CNTVCT)
        return how == 1 ? qq__cntvct_fenced() : qq__cntvct();
#endif
    /* The clock, fenced as the counter is: a closing read waits for the
     * work before it, and the work after an opening read waits for it (the
     * vDSO's own ordering covers only its counter read, not the arithmetic
     * after: without the trailing fence a line's first instructions ran
     * beside it, and the chain's delta read 6-14 ns short). */
    if (how == 2)
        clock_fence();
    uint64_t t = qq__mono_ns();
    if (how != 0)
        clock_fence();
    uint32_t k = __atomic_load_n(&clock_mhz, __ATOMIC_RELAXED);
    /* t * k / 1000, exact, and no product past 2^64 while the clock is
     * below 2^64 / 10^5 us (5.8 years since boot) at the highest rate. */
    return k == 1000u ? t : t / 1000u * k + t % 1000u * k / 1000u;
}

/* A fenced read for calibration: it keeps the counter read from running
 * ahead of the clock read before it, so the pair brackets one instant. */
static uint64_t fenced_ticks(void)
{
    return qq_ticks_open();
}

int qq__counter_invariant(void)
{
    int p = qq_tick_path();
    if (p == QQ_TICKS_LFENCE || p == QQ_TICKS_RDTSCP)
        return (__atomic_load_n(&qq__tick_flags, __ATOMIC_RELAXED) & QQ_CALIB_INVARIANT) != 0;
    return 1; /* the generic timer and the clock run at a fixed rate */
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
    if (qq_tick_path() == QQ_TICKS_CLOCK)
        return (double)__atomic_load_n(&clock_mhz, __ATOMIC_RELAXED); /* stated, not measured */
    uint64_t ns0, tk0, ns1, tk1;
    qq__clock_sample(&ns0, &tk0);
    /* 20 ms: the clock reads' error (tens of ns) is then < 1e-5 relative. */
    do {
        qq__clock_sample(&ns1, &tk1);
    } while (ns1 - ns0 < 20000000u);
    return (double)(tk1 - tk0) * 1000.0 / (double)(ns1 - ns0);
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
