/* qq.h - the QQ timing API of the paper: named keys, a tick-stamped event buffer, one file out. */
#ifndef QQ_H
#define QQ_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One switch turns QQ on: QQ_ENABLE (the paper also spells it QQ_ENABLED).
 * With it undefined every call below compiles to nothing, its arguments are
 * not evaluated, and only the user's int key variables remain.
 */
#if defined(QQ_ENABLED) && !defined(QQ_ENABLE)
#define QQ_ENABLE 1
#endif

#if defined(QQ_BUILDING_LIBRARY)
#define QQ_API __attribute__((visibility("default")))
#else
#define QQ_API
#endif

/* The version of this header: numbers, for #if. qq_version() (below) says
 * the version of the library linked, which a program built against one
 * header may meet another of. CMakeLists.txt's project(QQ VERSION) is the
 * same, or libqq does not compile (qq_error.c). */
#define QQ_VERSION_MAJOR 0
#define QQ_VERSION_MINOR 1
#define QQ_VERSION_PATCH 0

/* ======================================================================
 * Types that exist whether QQ is on or off, so user code compiles either way.
 * ====================================================================== */

/* Key types, as stored in the file's key table. */
enum qq_key_type {
    QQ_TYPE_STATE = 1, /* info: 1 on, 0 off */
    QQ_TYPE_MARK = 2,  /* info: unused (0) */
    QQ_TYPE_COUNT = 3, /* info: a signed 64-bit integer */
    QQ_TYPE_VALUE = 4  /* info: an IEEE-754 double */
};

/* One recorded event: 24 bytes, the layout of the file's entries. */
struct qq_event {
    uint32_t key;
    uint32_t reserved; /* the recording thread's index (format 1.1; stamped when its
                          buffer is mapped, never by the record path); 0 in 1.0 files */
    union {
        int64_t i;
        double d;
    } info;
    uint64_t tick;
};

/* Error codes: 0 is success, failures are negative. One table makes the
 * codes, their names and their messages (qq_strerror). */
#define QQ_ERRNO_MAP(X)                                                                            \
    X(NOMEM, -1, "out of memory")                                                                  \
    X(IO, -2, "input/output error")                                                                \
    X(MAGIC, -3, "not a QQ file (bad magic)")                                                      \
    X(VERSION, -4, "unsupported QQ file version")                                                  \
    X(TRUNCATED, -5, "file is truncated")                                                          \
    X(CORRUPT, -6, "file is damaged")                                                              \
    X(INVAL, -7, "invalid argument")                                                               \
    X(NOINIT, -8, "QQInit was not called")                                                         \
    X(MPI, -9, "MPI error")                                                                        \
    X(INCOMPLETE, -10, "file was not completely written")

enum qq_errno {
#define QQ__ERRNO_ENUM(name, code, msg) QQ_E##name = (code),
    QQ_ERRNO_MAP(QQ__ERRNO_ENUM)
#undef QQ__ERRNO_ENUM
        QQ_OK = 0
};

/* The message for an error code ("unknown error" for anything else). */
QQ_API const char *qq_strerror(int err);
/* The name of an error code ("QQ_ETRUNCATED"). */
QQ_API const char *qq_err_name(int err);
/* The linked library's version, "MAJOR.MINOR.PATCH" ("0.1.0"). */
QQ_API const char *qq_version(void);

/* Measure the tick counter's frequency in MHz (about 20 ms), and whether it
 * runs at a constant rate (1) or not (0). Library functions, on or off. */
QQ_API double qq_tick_mhz(void);
QQ_API int qq_tick_invariant(void);

/* Environment variable naming the output file; overrides QQOut's argument. */
#define QQ_OUTPUT_ENV "QQ_OUTPUT"

/* Environment variable sizing the event buffer. QQInit(n) makes room for
 * the larger of n and $QQ_EVENTS (a whole number >= 1; past INT_MAX it
 * counts as INT_MAX; anything else is ignored). So a suite's `events:` can
 * raise the buffer of any program, never shrink it below what the program
 * asked for. Should the larger buffer not fit in memory, QQInit falls back
 * to n. Size it to the events a run records: every QQStateOn, QQStateOff,
 * QQMark, QQCount and QQValue is one event of 24 bytes (docs/RUNNING.md).
 *
 * Threads: the size is PER THREAD. Every thread that records gets a buffer
 * of its own of that many events, at its first event (QQInit's thread at
 * QQInit); a thread's full buffer drops and counts its own events
 * (docs/THREADS.md). The memory used is the size times the threads that
 * recorded, at most QQ_THREADS_MAX of them (those past it count every
 * event dropped, in the file's one more thread row "(past the cap)"). */
#define QQ_EVENTS_ENV  "QQ_EVENTS"
#define QQ_THREADS_MAX 4096

/* Environment variable naming the state key whose regions callgrind counts
 * when the program runs under `valgrind --tool=callgrind --collect-atstart=no`
 * (QQInit looks once, with RUNNING_ON_VALGRIND): collection is on while the
 * key is on, per thread, from its outermost QQStateOn to its QQStateOff.
 * Natively, or unset, nothing changes (docs/INSTRUCTIONS.md). */
#define QQ_CALLGRIND_KEY_ENV "QQ_CALLGRIND_KEY"

/* ======================================================================
 * Tick paths: how the record path reads the counter. QQInit chooses one
 * from what the processor says (CPUID on x86-64) and $QQ_TICKS, and every
 * node's calibration in the file says which (docs/TIMING.md, "Tick paths").
 * ====================================================================== */

enum qq_tick_path {
    QQ_TICKS_UNSET = 0,  /* not chosen yet; in a file: written before the field */
    QQ_TICKS_CLOCK = 1,  /* clock_gettime(CLOCK_MONOTONIC_RAW): ticks are nanoseconds */
    QQ_TICKS_LFENCE = 2, /* x86-64: bare rdtsc; states open and close with
                            lfence; rdtsc; lfence (no RDTSCP needed) */
    QQ_TICKS_RDTSCP = 3, /* x86-64: bare rdtsc; states open with lfence; rdtsc;
                            lfence and close with rdtscp; lfence */
    QQ_TICKS_CNTVCT = 4  /* aarch64: isb; mrs cntvct_el0 */
};
#define QQ_TICKS_NPATHS 5

/* Environment variable forcing a path at QQInit: auto (the default), rdtscp,
 * lfence, cntvct or clock. A path the processor does not offer is refused
 * (the automatic choice is used, and the file says so). */
#define QQ_TICKS_ENV "QQ_TICKS"

/* The path this process reads with (chosen on first use when QQInit has not
 * run yet), and a path's name: "rdtscp", "lfence-rdtsc", "cntvct_el0",
 * "clock_gettime", or "unknown". Library functions, on or off. */
QQ_API int qq_tick_path(void);
QQ_API const char *qq_tick_path_name(int path);

/* ======================================================================
 * The tick source, read three ways.
 *
 * qq_ticks()        a bare read: marks, counts, values, and states when
 *                   QQ_ORDERED is 0. The cheapest read, but not ordered
 *                   with the instructions around it.
 * qq_ticks_open()   opens a state interval: waits for the work before it
 *                   to finish and keeps the work after it from starting
 *                   early (x86-64: lfence; rdtsc; lfence).
 * qq_ticks_close()  closes a state interval: waits for the work before it
 *                   to finish (x86-64: rdtscp; lfence where CPUID offers
 *                   RDTSCP, lfence; rdtsc; lfence where it does not).
 *
 * The fenced pair is Intel's pattern ("How to Benchmark Code Execution
 * Times on Intel IA-32 and IA-64", with lfence for cpuid): without it the
 * closing read can run before the line's result is computed and the cost
 * spills into the next interval (docs/TIMING.md has both modes measured).
 * The path is a load and a compare that the branch predictor settles: the
 * cost of choosing at run time is measured in docs/PERFORMANCE.md.
 * ====================================================================== */

/* States use ordered reads unless the program is compiled with
 * -DQQ_ORDERED=0 (the paper's bare reads, lowest overhead for tracing). */
#if !defined(QQ_ORDERED)
#define QQ_ORDERED 1
#endif

/* The three reads (inline, qq_record.h): library functions, on or off. */
static inline uint64_t qq_ticks(void);
static inline uint64_t qq_ticks_open(void);
static inline uint64_t qq_ticks_close(void);

/* ======================================================================
 * The paper's API (Figure 1). On: real calls. Off: nothing at all.
 * Both branches side by side, same names, same arity.
 * ====================================================================== */

#if defined(QQ_ENABLE)

/* Set-up and output: ordinary functions in the library. QQInit passes the
 * program's QQ_ORDERED so the library calibrates the reads it will use. */
QQ_API void qq_init(int nEvents, int ordered);
#define QQInit(nEvents) qq_init((nEvents), QQ_ORDERED)
QQ_API void qq_base_time(void);
QQ_API int QQAddState(const char *name);
QQ_API int QQAddMark(const char *name);
QQ_API int QQAddCount(const char *name);
QQ_API int QQAddValue(const char *name);
/* QQRecord(0)/(1) turns recording off/on for the CALLING thread (each
 * thread has its own buffer; changing another thread's would need a lock or
 * an atomic on every event); a thread that first records afterwards starts
 * as the last call left it. QQInit, QQAdd*, QQBaseTime and QQOut are for
 * one thread at a time, while no other thread records (QQOut writes every
 * thread's buffer: join or synchronise with the recording threads first). */
QQ_API void QQRecord(int flag);
/* Writes the file; when it cannot, says why on stderr in one line
 * ("QQOut: ...", the message of qq_out_errmsg()) and returns. */
QQ_API void QQOut(const char *filename, int node, int nodes);

/* Extensions. qq_out: QQOut returning 0 or a negative QQ_E* code, with the
 * detail of the last failure in qq_out_errmsg(), and printing nothing;
 * qq_dropped: events lost to the calling thread's full buffer so far (the
 * file's node table holds the node's sum over its threads). */
QQ_API int qq_out(const char *filename, int node, int nodes);
QQ_API const char *qq_out_errmsg(void);
QQ_API uint64_t qq_dropped(void);

/* The record calls: inline, the record path of qq_record.h (no call, no
 * lock). QQStateOn and QQStateOff open and close a state's interval with
 * the ordered reads (QQ_ORDERED, above); QQMark, QQCount and QQValue
 * record with a bare read. */
static inline void QQStateOn(int key);
static inline void QQStateOff(int key);
static inline void QQMark(int key);
static inline void QQCount(int key, int count);
static inline void QQValue(int key, double value);

/* Figure 1 declares QQBaseTime(void); Figure 2 calls QQBaseTime(0). */
#define QQBaseTime(...) qq_base_time()

/*
 * QQKeep(v): the value of V is computed here. The ordered reads keep the
 * processor from moving work across them, and their memory clobber keeps
 * the compiler from moving loads and stores; but arithmetic whose result
 * stays in a register may still be moved by the compiler past a closing
 * read (seen: Km's multiplications after QQStateOff at -O2). Name the
 * line's result before closing its state when it is not stored:
 *     I = g * s * m * (E - V); QQKeep(I); QQStateOff(km);
 * It emits no instruction.
 */
#define QQKeep(v) __asm__ __volatile__("" ::"X"(v))

/*
 * QQTune: a parameter (a blocking factor, a chunk size) chosen on the
 * machine at hand during the program's first iterations (docs/TUNE.md).
 * WORK(value, ARG) is one of the program's iterations, done with the
 * parameter set to VALUE: it does real work and advances the program's
 * state through ARG. QQTune calls it REPS rounds over this rank's share of
 * the N CANDIDATES, each call under the state "NAME=VALUE", keeps each
 * candidate's fastest call, and returns the fastest candidate. Under MPI
 * (libqq-mpi, MPI initialised) it is collective: rank r times candidates
 * r, r + size, ... (every rank the same number of calls), and the ranks
 * agree on one choice (MPI_Allreduce). The choice and every candidate's
 * time are recorded in the file QQOut writes (a TUNE section, FORMAT.md);
 * a second QQTune of the same NAME replaces the record. QQInit first, so
 * that the states are recorded; one thread at a time, as QQAdd*.
 *
 * It returns CANDIDATES[0] when it cannot time (N < 1 returns 0, no
 * memory, an MPI error: then on every rank, and nothing is recorded), and
 * so does the disabled build, which calls WORK not at all: list the
 * program's default first.
 */
QQ_API int qq_tune(const char *name, const int *candidates, int n, int reps,
                   void (*work)(int value, void *arg), void *arg);
#define QQTune(name, candidates, n, reps, work, arg)                                               \
    qq_tune((name), (candidates), (n), (reps), (work), (arg))

#else /* QQ off: statements vanish, arguments are not evaluated */

#define QQInit(nEvents)              ((void)0) /* off: nothing */
#define QQBaseTime(...)              ((void)0) /* off: nothing */
#define QQKeep(v)                    ((void)0) /* off: nothing */
#define QQAddState(name)             (-1)      /* off: an unused key */
#define QQAddMark(name)              (-1)      /* off: an unused key */
#define QQAddCount(name)             (-1)      /* off: an unused key */
#define QQAddValue(name)             (-1)      /* off: an unused key */
#define QQStateOn(key)               ((void)0) /* off: nothing */
#define QQStateOff(key)              ((void)0) /* off: nothing */
#define QQMark(key)                  ((void)0) /* off: nothing */
#define QQCount(key, count)          ((void)0) /* off: nothing */
#define QQValue(key, value)          ((void)0) /* off: nothing */
#define QQRecord(flag)               ((void)0) /* off: nothing */
#define QQOut(filename, node, nodes) ((void)0) /* off: writes nothing */

#endif /* QQ_ENABLE */

#if !defined(QQ_ENABLE)
/* QQTune off: the first candidate; WORK is never called (named in sizeof,
 * so that a static one is not an unused function). */
#define QQTune(name, candidates, n, reps, work, arg) ((void)sizeof(&(work)), (candidates)[0])
#endif

/* What the inline functions above are made of: not for users. */
#include "qq_record.h"

#ifdef __cplusplus
}
#endif

#endif /* QQ_H */
