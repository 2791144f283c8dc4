/* qq_file.h - read and summarise .qq files (format: docs/FORMAT.md). */
#ifndef QQ_FILE_H
#define QQ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "qq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Opening. Everything is validated at open: after a successful open every
 * offset, count and key index the accessors hand out is in range.
 * ====================================================================== */

struct qq_file;

/*
 * Open and validate PATH. Returns 0, or a negative QQ_E* code. On failure
 * *out still holds a file object (unless memory ran out, then NULL) whose
 * qq_file_errmsg() says what is wrong and where ("node 2: entry 17 has key
 * 12, but the file has 9 keys"); close it either way. Only a regular file
 * is read (a directory, FIFO or device is refused without waiting on it),
 * and only once its 64-byte header checks out. A file is refused when two
 * nodes claim one entry section, or a value entry is NaN or infinite.
 */
QQ_API int qq_file_open(const char *path, struct qq_file **out);
/* The same, from a buffer the caller keeps alive while the file is open. */
QQ_API int qq_file_open_mem(const void *data, size_t size, const char *name, struct qq_file **out);
/*
 * Open PATH for streaming: the same checks, in the same order, of everything
 * but the entries, which stay on disk (the file is kept open). Each node's
 * entries are then read in chunks of 256 KiB (qq_file_chunks_open) and
 * checked as they are read, with the messages qq_file_open gives: reading
 * a node, summarising it or taking its hit stats may return QQ_ECORRUPT,
 * QQ_ETRUNCATED (the file shrank after it was opened) or QQ_EIO, with
 * qq_file_errmsg() saying where. Memory stays bounded by the chunk, not by
 * the file. qq_file_entries() returns NULL for such a file (read its
 * entries with qq_file_chunks_open, or one with qq_file_entry_at).
 */
QQ_API int qq_file_open_stream(const char *path, struct qq_file **out);
QQ_API const char *qq_file_errmsg(const struct qq_file *f);
QQ_API void qq_file_close(struct qq_file *f);

/* ======================================================================
 * Keys, nodes, entries, metadata.
 * ====================================================================== */

/*
 * Key names (states, marks, counts, values, memory keys): at most
 * QQ_NAME_MAX bytes of UTF-8, with no control character (U+0000-U+001F,
 * U+007F-U+009F) and no backquote. The writer cleans what a program names
 * (QQAddState & co and MemAddKey write each offending byte as '?' and cut
 * at QQ_NAME_MAX, at a character's end); the reader refuses a file whose
 * names break the rule (docs/FORMAT.md). A name may be empty.
 */
#define QQ_NAME_MAX 255

/* 0 when the LEN bytes at S make a valid name; otherwise the 1-based
 * position of the first byte that breaks the rule (QQ_NAME_MAX + 1 when
 * the name is longer). */
QQ_API size_t qq_name_check(const char *s, size_t len);

struct qq_key_info {
    uint32_t index;
    uint32_t type; /* enum qq_key_type */
    const char *name;
};

struct qq_node_info {
    uint32_t node;       /* rank */
    uint32_t flags;      /* QQ_NODE_* */
    uint64_t offset;     /* byte offset of the entries in the file */
    uint64_t entries;    /* number of entries */
    uint64_t base_tick;  /* QQInit's / QQBaseTime's tick */
    double mhz;          /* measured tick frequency */
    uint64_t dropped;    /* events lost to a full buffer */
    int64_t tick_offset; /* this node's counter minus node 0's, in ticks */
    double offset_error; /* bound on |tick_offset error|, in ticks */
};

#define QQ_NODE_TSC_INVARIANT 0x1u /* the counter runs at a constant rate */
#define QQ_NODE_OFFSET_VALID  0x2u /* tick_offset was measured */

QQ_API const char *qq_file_name(const struct qq_file *f);
QQ_API uint32_t qq_file_nkeys(const struct qq_file *f);
QQ_API const struct qq_key_info *qq_file_key(const struct qq_file *f, uint32_t key);
QQ_API uint32_t qq_file_nnodes(const struct qq_file *f);
QQ_API const struct qq_node_info *qq_file_node(const struct qq_file *f, uint32_t node);
/* The node's entries in recorded order (aligned, qq_file_node()->entries);
 * NULL for a streamed file (read those with qq_file_chunks_open). */
QQ_API const struct qq_event *qq_file_entries(const struct qq_file *f, uint32_t node);
/* Run metadata ("host", "command", "date", "tick_source", ...), or NULL. */
QQ_API const char *qq_file_meta(const struct qq_file *f, const char *name);
/* The I-th metadata pair; returns 0, or QQ_EINVAL past the end. */
QQ_API int qq_file_meta_at(const struct qq_file *f, size_t i, const char **name,
                           const char **value);

/* ======================================================================
 * Threads (format 1.1, the THRD section of each node). A node's entries are
 * its threads' entries, thread after thread: thread I's are the node's
 * entries FIRST .. FIRST + EVENTS - 1, each carrying I in its reserved
 * field (docs/FORMAT.md). A file from before 1.1 has one thread per node
 * (index 0, tid 0, name ""), holding every entry.
 * ====================================================================== */

struct qq_thread_info {
    uint32_t index;   /* the thread's number on its node: 0 for QQInit's thread */
    uint64_t tid;     /* its OS thread id (gettid); 0 when unknown */
    uint64_t first;   /* its first entry's index among the node's entries */
    uint64_t events;  /* its entries */
    uint64_t dropped; /* events lost to its full buffer */
    const char *name; /* pthread_getname_np when it last could be read; "" if unknown */
};

/* Threads of NODE (0 for a node out of range, or a node where nothing ran
 * QQInit), and thread T of it (NULL out of range). */
QQ_API uint32_t qq_file_nthreads(const struct qq_file *f, uint32_t node);
QQ_API const struct qq_thread_info *qq_file_thread(const struct qq_file *f, uint32_t node,
                                                   uint32_t thread);

/* ======================================================================
 * A node's entries in chunks, in recorded order, from a file opened either
 * way (a file read whole gives all of them as one chunk).
 *
 *     struct qq_chunks *c;
 *     const struct qq_event *e;
 *     size_t n;
 *     int rc = qq_file_chunks_open(f, node, &c);
 *     while (rc == 0 && (rc = qq_chunks_next(c, &e, &n)) > 0)
 *         ... e[0 .. n-1] ...
 *     qq_chunks_close(c);   (rc < 0: qq_file_errmsg(f) says what)
 *
 * A chunk's entries are checked (key in range, state 0 or 1, value finite)
 * before it is handed out; it stays valid until the next call or the close.
 * Several chunk readers may be open on one file at once.
 * ====================================================================== */

struct qq_chunks;

/* Returns 0, QQ_EINVAL for a node out of range, or QQ_ENOMEM (either said
 * by qq_file_errmsg()). */
QQ_API int qq_file_chunks_open(const struct qq_file *f, uint32_t node, struct qq_chunks **out);
/* The same over thread THREAD's entries of NODE alone (QQ_EINVAL for a
 * thread out of range). */
QQ_API int qq_file_chunks_open_thread(const struct qq_file *f, uint32_t node, uint32_t thread,
                                      struct qq_chunks **out);
/* 1 with the next chunk in *E, *N (N >= 1); 0 at the end; or a negative
 * QQ_E* code, the detail in qq_file_errmsg() of the file. */
QQ_API int qq_chunks_next(struct qq_chunks *c, const struct qq_event **e, size_t *n);
QQ_API void qq_chunks_close(struct qq_chunks *c);

/*
 * One entry: NODE's entry INDEX (0-based, in recorded order) into *OUT,
 * from a file opened either way: copied from memory for a file read whole,
 * read alone (one pread of 24 bytes) and checked as qq_chunks_next checks
 * entries for a streamed one, so that the first or last tick of a node
 * costs one read, not a pass. Returns 0; QQ_EINVAL for a node or an index
 * out of range; for a streamed file QQ_ECORRUPT (the entry is damaged),
 * QQ_ETRUNCATED (the file shrank after it was opened) or QQ_EIO; the detail
 * in qq_file_errmsg(). *OUT is zeroed on failure.
 */
QQ_API int qq_file_entry_at(const struct qq_file *f, uint32_t node, uint64_t index,
                            struct qq_event *out);

/* ======================================================================
 * Memory tables (the MEM section of each node; see qq_mem.h).
 * ====================================================================== */

struct qq_mem_row {
    const char *name;     /* the memory key's name */
    uint64_t obj_size;    /* size of one object (MEMADDOBJECT), 0 if none */
    uint64_t created;     /* objects created */
    uint64_t deleted;     /* objects deleted */
    uint64_t obj_bytes;   /* bytes of live objects */
    uint64_t alloc_bytes; /* bytes of live allocations (malloc & co) */
    uint64_t peak_bytes;  /* the most obj_bytes + alloc_bytes ever held; with several threads on
                           * the key at once, an upper bound of it (docs/MEMORY.md) */
    uint64_t allocs;      /* allocation calls */
    uint64_t frees;       /* free calls */
    uint64_t double_frees;
    uint64_t peak_low; /* a lower bound of that most: equal to peak_bytes where the peak is exact
                        * (one thread on the key at a time; files before the bounds) */
};

struct qq_mem_table {
    uint32_t nrows;
    const struct qq_mem_row *rows;
    uint64_t foreign_frees; /* frees of pointers never tracked */
    uint64_t process_bytes; /* GetMemoryUsed() when the file was written */
};

/* The node's memory table; returns 1 if the node has one, 0 if not. */
QQ_API int qq_file_mem(const struct qq_file *f, uint32_t node, struct qq_mem_table *out);

/* ======================================================================
 * Calibration of state intervals (the CALB section of each node).
 *
 * QQInit times empty states (QQStateOn then QQStateOff, nothing between)
 * through the program's own record path and mode. Every interval a state
 * records holds this cost besides its line: net figures subtract
 * empty_typical. The step is the counter's resolution as intervals see it:
 * the smallest gap between two distinct empty-interval lengths.
 * ====================================================================== */

struct qq_calib {
    uint32_t ordered;     /* 1: states used ordered reads (QQ_ORDERED) */
    uint32_t samples;     /* empty intervals timed */
    double empty_min;     /* the shortest, in ticks */
    double empty_typical; /* qq_per_hit() of them, in ticks */
    double empty_median;  /* in ticks */
    double step;          /* ticks; 0 if unseen (every interval equal) */
    uint32_t path;        /* enum qq_tick_path (qq.h); QQ_TICKS_UNSET in older files */
    uint32_t path_flags;  /* QQ_CALIB_*: what the processor said when it was chosen */
};

/* path_flags: what QQInit found when it chose the tick path. */
#define QQ_CALIB_TSC    0x1u /* x86-64: a usable TSC (CPUID 1 EDX bit 4, not disabled) */
#define QQ_CALIB_RDTSCP 0x2u /* x86-64: CPUID offers RDTSCP (0x80000001 EDX bit 27) */
#define QQ_CALIB_INVARIANT                                                                         \
    0x4u                     /* the hardware counter runs at a constant rate                       \
                                (x86-64: CPUID 0x80000007 EDX bit 8) */
#define QQ_CALIB_FORCED 0x8u /* $QQ_TICKS chose the path */
#define QQ_CALIB_REFUSED                                                                           \
    0x10u /* $QQ_TICKS asked for a path this processor does not                                    \
             offer (or no path): the automatic one was used */
#define QQ_CALIB_KNOWN 0x1Fu

/* 1 when NODE's ticks are not a time: its calibration says it read a
 * time-stamp counter that CPUID does not call invariant (its rate may
 * change with the processor's power states). 0 otherwise, and for files
 * from before the tick path was recorded. */
QQ_API int qq_file_ticks_variant(const struct qq_file *f, uint32_t node);

/* The node's calibration; returns 1 if the file has one, 0 if not (files
 * from before the section; *out is zeroed). */
QQ_API int qq_file_calib(const struct qq_file *f, uint32_t node, struct qq_calib *out);

/* 1 when CAL's typical empty state is a measurement; 0 when it is at or
 * below the counter's resolution (qq_resolution_ticks of its step): on a
 * counter that coarse (62.5 MHz under qemu-user, where most empty states
 * read 0 ticks) the calibration cannot tell the empty state from zero. */
QQ_API int qq_calib_resolved(const struct qq_calib *cal);

/* ======================================================================
 * Ticks per hit of a state: one estimator for the library, st and the
 * harness (docs/STATISTICS.md, "Ticks per hit", has the rule measured).
 *
 *  short intervals (median under SHORT ticks: qq_short_ticks()): the MEAN
 *      of the intervals no longer than 4 x median + 16 counter steps.
 *      Quantised intervals a few steps long take few values; with the
 *      counter's phase random against the code, their mean is unbiased
 *      where any percentile or median is a quantisation level. So short an
 *      interval is rarely touched by interference (an interrupt every few
 *      ms hits about one 1-us interval in 10^4), and the fence drops those
 *      few: interrupts and preemption cost thousands of ticks.
 *  long intervals, 10 or more of them: the 10th PERCENTILE (the element at
 *      n/10 of the sorted intervals). Interference only adds time; on a
 *      busy machine over half a launch's long intervals can be slowed by a
 *      few per cent while the low percentile stays at the code's cost.
 *  long intervals, fewer than 10: the MEDIAN (a 10th percentile of fewer
 *      than 10 values would be the minimum).
 * ====================================================================== */

/* The bound between short and long: 1 microsecond of ticks, or 50 counter
 * steps where the step is coarser (a 50-step interval is still quantised
 * to 2%). MHZ or STEP may be 0 (unknown): then the other decides; with
 * both unknown, 0 (every interval is long). */
#define QQ_SHORT_NS    1000.0
#define QQ_SHORT_STEPS 50.0
QQ_API double qq_short_ticks(double mhz, double step);

/* The resolution of a net ticks-per-hit figure: half a counter step (one
 * tick where the step is finer than 2 ticks or unknown). A mean of many
 * quantised intervals read at a random phase resolves far below a step
 * (docs/STATISTICS.md, section 16), so a figure above this is a measurement;
 * at or below it, it cannot be told from zero: st, compare and the harness
 * say so, and the harness stores it as this value so ratios stay finite. */
#define QQ_RESOLVE_STEPS 0.5
QQ_API double qq_resolution_ticks(double step);

enum qq_hit_rule {
    QQ_HIT_NONE = 0,  /* no interval */
    QQ_HIT_MEAN = 1,  /* short: fenced mean */
    QQ_HIT_P10 = 2,   /* long: 10th percentile */
    QQ_HIT_MEDIAN = 3 /* long, fewer than 10 intervals */
};

/* The estimator on N interval lengths V (reordered in place); SHORT from
 * qq_short_ticks, STEP the counter step (0 if unknown). RULE and KEPT
 * (intervals the figure uses) may be NULL. */
QQ_API double qq_per_hit(double *v, size_t n, double short_ticks, double step, int *rule,
                         size_t *kept);

/* Per state key of one node. */
struct qq_hit_stat {
    uint64_t intervals; /* completed on..off intervals */
    uint64_t kept;      /* intervals the figure uses (the rest: outliers) */
    int rule;           /* enum qq_hit_rule */
    double raw;         /* ticks per hit, qq_per_hit() of the intervals */
    double net;         /* raw minus the calibrated empty interval */
    double mean;        /* plain mean of every interval */
    double se;          /* the MEAN rule: the standard error of raw, sd / sqrt(kept)
                         * of the kept intervals; 0 under the other rules */
    int locked;         /* the MEAN rule: every kept interval has one length, so
                         * the counter's phase is locked to the code and raw is a
                         * quantisation level, not a measurement below the step
                         * (intervals on two or more levels resolve below it) */
};

/*
 * Fill OUT (qq_file_nkeys() elements) for NODE: state keys get their
 * figures, other keys zeros. Intervals pair each on with the next off of
 * the same key, as qq_file_summarize does. Without a calibration, net ==
 * raw. Returns 0, QQ_EINVAL for a node out of range, QQ_ENOMEM, or for a
 * streamed file the error that reading its entries met.
 */
QQ_API int qq_file_hit_stats(const struct qq_file *f, uint32_t node, struct qq_hit_stat *out);

/* ======================================================================
 * Summaries: per node and key, what st and the harness print.
 * ====================================================================== */

struct qq_key_summary {
    uint64_t hits; /* events recorded for the key */
    /* states */
    uint64_t intervals;   /* completed on..off intervals */
    uint64_t state_ticks; /* ticks spent on, summed over intervals */
    uint64_t unbalanced;  /* on while on, off while off, on at the end */
    /* counts (integer) and values (double). isum is exact whenever the
     * true sum fits in int64; otherwise it saturates at INT64_MAX or
     * INT64_MIN (so a sum at either limit means "at least"/"at most").
     * dsum likewise saturates at +-DBL_MAX instead of becoming infinite. */
    int64_t isum, imin, imax;
    double dsum, dmin, dmax;
};

struct qq_node_summary {
    uint64_t first_tick, last_tick; /* the earliest first and latest last entry of the
                                       node's threads (thread blocks); 0 if none */
    uint64_t state_events;          /* entries whose key is a state */
    double elapsed_sec;             /* (last - base) / MHz */
};

/*
 * Summarise NODE: KEYS must hold qq_file_nkeys() elements. Returns 0,
 * QQ_EINVAL for a node out of range, QQ_ENOMEM, or for a streamed file the
 * error that reading its entries met (qq_file_open_stream).
 */
QQ_API int qq_file_summarize(const struct qq_file *f, uint32_t node, struct qq_node_summary *ns,
                             struct qq_key_summary *keys);

/*
 * qq_file_summarize and qq_file_hit_stats of NODE in one pass over its
 * entries (what st does: a streamed file is read once). KEYS and HITS each
 * hold qq_file_nkeys() elements; either may be NULL (not wanted), NS not.
 * Returns as qq_file_summarize.
 */
QQ_API int qq_file_node_stats(const struct qq_file *f, uint32_t node, struct qq_node_summary *ns,
                              struct qq_key_summary *keys, struct qq_hit_stat *hits);

/*
 * The node's figures are over all its threads: hits, intervals and ticks
 * sum, and ticks per hit is taken from every thread's intervals pooled
 * (each state's on paired with the next off of the same key IN THE SAME
 * THREAD; one left on at its thread's end is unbalanced). This gives one
 * thread's: qq_file_node_stats over thread THREAD's entries alone (its
 * first/last ticks in NS). QQ_EINVAL for a node or thread out of range.
 */
QQ_API int qq_file_thread_stats(const struct qq_file *f, uint32_t node, uint32_t thread,
                                struct qq_node_summary *ns, struct qq_key_summary *keys,
                                struct qq_hit_stat *hits);

/* ======================================================================
 * Tuned parameters (QQTune, qq.h): the file-level TUNE sections, one per
 * parameter tuned (docs/FORMAT.md). A file without them has none.
 * ====================================================================== */

struct qq_tune_cand {
    int64_t value;  /* the candidate */
    uint32_t node;  /* the rank whose run is SECONDS (the fastest rank's) */
    uint32_t runs;  /* calls timed, over every rank */
    double seconds; /* its fastest call, in seconds */
};

struct qq_tune_info {
    const char *name;
    uint32_t ncand;  /* candidates, at least 1 */
    uint32_t choice; /* the index of the one chosen (< ncand) */
    uint32_t nodes;  /* ranks that took part */
    uint32_t reps;   /* rounds each rank ran over its candidates */
    const struct qq_tune_cand *cand;
};

/* The number of tuned parameters, and parameter I (NULL out of range). */
QQ_API uint32_t qq_file_ntunes(const struct qq_file *f);
QQ_API const struct qq_tune_info *qq_file_tune(const struct qq_file *f, uint32_t i);

#ifdef __cplusplus
}
#endif

#endif /* QQ_FILE_H */
