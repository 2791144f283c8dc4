/* kcommon.h - what every qqbench kernel shares: the command line, a seeded RNG, a digest, QQ set-up
 * and output. */
#ifndef KCOMMON_H
#define KCOMMON_H

#include <stddef.h>
#include <stdint.h>

/* ----------------------------------------------------------------------
 * Command line. Every kernel takes --help, --size, --seed, --variant,
 * --steps, --print, plus a table of its own options.
 * ---------------------------------------------------------------------- */

enum kopt_type {
    KOPT_FLAG,   /* no argument: *(int *)dst = 1 */
    KOPT_LONG,   /* integer argument >= min: *(long *)dst */
    KOPT_DOUBLE, /* finite number: *(double *)dst */
    KOPT_STRING  /* any text: *(const char **)dst */
};

struct kopt {
    const char *name; /* without the leading "--" */
    enum kopt_type type;
    void *dst;
    long min;         /* KOPT_LONG only: the smallest accepted value */
    const char *help; /* one line for --help */
};

struct kspec {
    const char *prog;            /* program name for messages */
    const char *summary;         /* what it computes (--help, may span lines) */
    const char *keys;            /* QQ and memory keys it records (--help) */
    const char *const *variants; /* NULL-terminated; first is the default */
    long size_default;
    long size_max;         /* the largest --size accepted (0: no bound) */
    const char *size_unit; /* what --size counts, for the error ("per rank"); NULL: nothing */
    long steps_default;
    const struct kopt *extra; /* kernel options, ended by {NULL} (or NULL) */
};

struct kargs {
    long size;
    uint64_t seed;
    const char *variant;
    int variant_index;
    long steps;
    int print;
    int size_given; /* --size was on the command line */
};

/* Results of kargs_parse. */
#define KARGS_OK    0
#define KARGS_HELP  1 /* --help was printed (when not quiet): exit 0 */
#define KARGS_ERROR 2 /* a one-line error was printed (when not quiet): exit 2 */

/*
 * Parse ARGV. QUIET suppresses all printing (non-root MPI ranks). Never
 * exits, so MPI kernels can finalize first; kargs_parse_or_exit is the
 * serial convenience.
 */
int kargs_parse(const struct kspec *spec, int argc, char **argv, struct kargs *out, int quiet);
void kargs_parse_or_exit(const struct kspec *spec, int argc, char **argv, struct kargs *out);

/* ----------------------------------------------------------------------
 * Seeded RNG: splitmix64 (one 64-bit word of state, no rand()).
 * ---------------------------------------------------------------------- */

struct krng {
    uint64_t s;
};

void krng_seed(struct krng *r, uint64_t seed, uint64_t stream);
uint64_t krng_next(struct krng *r);
/* Uniform in [0, 1) with 53 random bits. */
double krng_uniform(struct krng *r);
/* Uniform integer in [0, n), n > 0. */
uint64_t krng_below(struct krng *r, uint64_t n);
/* The splitmix64 finaliser: a stateless 64-bit hash. */
uint64_t kmix64(uint64_t x);

/* ----------------------------------------------------------------------
 * Digest: 64-bit FNV-1a over exact bits (the kernels are deterministic
 * in IEEE arithmetic, so no rounding is needed).
 * ---------------------------------------------------------------------- */

#define KDIGEST_INIT UINT64_C(0xcbf29ce484222325)

uint64_t kdigest_bytes(uint64_t h, const void *p, size_t n);
uint64_t kdigest_u64(uint64_t h, uint64_t v);
uint64_t kdigest_double(uint64_t h, double v);

/* ----------------------------------------------------------------------
 * QQ helpers.
 * ---------------------------------------------------------------------- */

/* The QQInit size: DFLT clamped to [1024, INT_MAX], or $QQ_EVENTS if that
 * is a larger positive integer (QQInit's own rule, qq.h); a QQ_EVENTS that
 * is not one gets a warning on stderr. */
int kqq_events(uint64_t dflt);

/* qq_out with a checked status: on failure prints "PROG: cannot write
 * FILE: why" to stderr and returns nonzero. Inline here because kcommon.c
 * is built without libqq (include qq.h before this header to get it). */
#if defined(QQ_H) && defined(QQ_ENABLE)
#include <stdio.h>
static inline int kqq_out(const char *prog, const char *file, int node, int nodes)
{
    int rc = qq_out(file, node, nodes);
    if (rc != 0) {
        const char *msg = qq_out_errmsg();
        fprintf(stderr, "%s: cannot write %s: %s\n", prog, file,
                (msg && *msg) ? msg : qq_strerror(rc));
        return 1;
    }
    if (qq_dropped() != 0)
        fprintf(stderr, "%s: warning: %llu events dropped (buffer full)\n", prog,
                (unsigned long long)qq_dropped());
    return 0;
}
#endif

/* An application signature (docs/MODELS.md): V operations of one kind, as
 * QQCount(KEY, ...) events of at most INT_MAX each (QQCount takes an int;
 * the harness sums them). Call once per run, outside the timed intervals. */
#if defined(QQ_H)
#include <limits.h>
static inline void kqq_signature(int key, uint64_t v)
{
    (void)key; /* a disabled build leaves the key unused */
    while (v > 0) {
        int part = v > (uint64_t)INT_MAX ? INT_MAX : (int)v;
        QQCount(key, part);
        v -= (uint64_t)part;
    }
}
#endif

/* Make the compiler treat the double X as used and changed here, in its
 * register (no store): work that computes X cannot be moved past this
 * point, nor the next use of X before it. */
#if defined(__x86_64__) || defined(__i386__)
#define KKEEP(x) __asm__ __volatile__("" : "+x"(x))
#elif defined(__aarch64__)
#define KKEEP(x) __asm__ __volatile__("" : "+w"(x))
#else
#define KKEEP(x) __asm__ __volatile__("" : "+g"(x))
#endif

/* Bulk timings (--bulk R) run R repetitions in KBULK_BLOCKS blocks, each
 * between two ordered reads, in KBULK_POINTS bursts interleaved with the
 * states they check, and report the median block per repetition. Blocks
 * are short (R = 10^6: 500 repetitions, 10-200 us) so that preemption and
 * interrupts touch few of them: one 40 ms interval at the end of a launch
 * was slowed by up to 60% on a loaded machine, and 5 ms blocks by 50%,
 * while the states of the same launch were not. */
#define KBULK_POINTS 20
#define KBULK_BLOCKS 2000

/* The median of N values (V is sorted in place); 0 for N = 0. */
double kmedian(double *v, size_t n);

/* Print "PROG: message" to stderr and exit 1. */
void kdie(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* calloc that dies on failure. Not redirected by qq_mem.h (kcommon.c never
 * includes it): use it for scaffolding outside the modelled program, and
 * for objects whose bytes are recorded with MEMADDOBJECT instead (as NCS's
 * C++ new was not intercepted). */
void *kxcalloc(const char *prog, size_t n, size_t size);
/* free() for kxcalloc's memory: plain libc free, never the qq_mem.h macro,
 * so untracked memory is not reported as a foreign free. */
void kxfree(void *p);

#endif /* KCOMMON_H */
