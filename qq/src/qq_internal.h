/* qq_internal.h - what the library's files share: the writer's pieces, timer and memory hooks. */
#ifndef QQ_INTERNAL_H
#define QQ_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "qq.h"
#include "qq_file.h"

/* ---------------------------------------------------------------------
 * File layout constants (docs/FORMAT.md).
 * --------------------------------------------------------------------- */

#define QQ__MAGIC         "QQPROF\r\n"
#define QQ__VERSION_MAJOR 1
#define QQ__VERSION_MINOR 1 /* 1.1: entries carry their thread; THRD sections */
#define QQ__HEADER_SIZE   64
#define QQ__SECTION_HEAD  16
#define QQ__NODE_RECORD   64
#define QQ__EVENT_SIZE    24
#define QQ__FLAG_COMPLETE 0x1u
#define QQ__FILE_LEVEL    0xFFFFFFFFu

#define QQ__TAG(a, b, c, d)                                                                        \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define QQ__TAG_META  QQ__TAG('M', 'E', 'T', 'A')
#define QQ__TAG_KEYS  QQ__TAG('K', 'E', 'Y', 'S')
#define QQ__TAG_NODE  QQ__TAG('N', 'O', 'D', 'E')
#define QQ__TAG_EVTS  QQ__TAG('E', 'V', 'T', 'S')
#define QQ__TAG_MEMT  QQ__TAG('M', 'E', 'M', 'T')
#define QQ__TAG_CALB  QQ__TAG('C', 'A', 'L', 'B')
#define QQ__TAG_THRD  QQ__TAG('T', 'H', 'R', 'D')
#define QQ__TAG_TUNE  QQ__TAG('T', 'U', 'N', 'E')
#define QQ__CALB_SIZE 40 /* the first version's payload; readers need no more */
#define QQ__CALB_PATH 48 /* with the tick path and its flags */

/* The version in META's "writer" pair: CMake passes the project's; a build
 * without CMake (a compiler called by hand, a cross compiler) says so. */
#ifndef QQ__WRITER_VERSION
#define QQ__WRITER_VERSION "(unversioned build)"
#endif

/* ---------------------------------------------------------------------
 * A growable byte buffer and little-endian stores (qq_out.c).
 * --------------------------------------------------------------------- */

struct qq__buf {
    unsigned char *p;
    size_t len, cap;
};
int qq__buf_reserve(struct qq__buf *b, size_t more);
void qq__buf_free(struct qq__buf *b);
int qq__put_u32(struct qq__buf *b, uint32_t v);
int qq__put_u64(struct qq__buf *b, uint64_t v);
int qq__put_f64(struct qq__buf *b, double v);
int qq__put_bytes(struct qq__buf *b, const void *p, size_t n);
int qq__put_pad8(struct qq__buf *b);
void qq__store_u32(unsigned char *p, uint32_t v);
void qq__store_u64(unsigned char *p, uint64_t v);
/* A section of TAG at level NODE begun in B (its position in AT), and
 * ended: padded to 8 bytes, its length filled in. 0 or QQ_ENOMEM. */
int qq__begin_section(struct qq__buf *b, uint32_t tag, uint32_t node, size_t *at);
int qq__end_section(struct qq__buf *b, size_t at);

/* ---------------------------------------------------------------------
 * The writer in pieces, so that the MPI writer can place each node's
 * part at its own offset. A file is: prefix (header, META, KEYS, NODE
 * table) then each node's chunk (EVTS section, MEMT section, ...).
 * --------------------------------------------------------------------- */

/* One row of the node table, as written. */
struct qq__node_rec {
    uint32_t node;
    uint32_t flags;
    uint64_t offset; /* absolute byte offset of the node's entries */
    uint64_t entries;
    uint64_t base_tick;
    double mhz;
    uint64_t dropped;
    int64_t tick_offset;
    double offset_error;
};

/* This process's node chunk: a small head, the events (not copied), a tail. */
struct qq__node_out {
    struct qq__node_rec rec;              /* offset relative to the chunk until placed */
    unsigned char head[QQ__SECTION_HEAD]; /* EVTS section head */
    const void *events;                   /* the event buffer itself */
    size_t events_bytes;
    struct qq__buf tail; /* MEMT and any later per-node sections */
    uint64_t size;       /* head + events + tail */
};

/* Prepare this process's chunk as node NODE. Returns 0 or QQ_ENOMEM. */
int qq__node_out_prepare(struct qq__node_out *o, uint32_t node);
/* The chunk starts at FILE_OFFSET in the file: fix rec.offset. */
void qq__node_out_place(struct qq__node_out *o, uint64_t file_offset);
void qq__node_out_release(struct qq__node_out *o);
/* Bytes of the prefix for NNODES nodes (the same on every process that has
 * the same keys and metadata). */
int qq__prefix_size(uint32_t nnodes, uint64_t *size);
/* Encode the prefix with the node table RECS and header fields. */
int qq__prefix_encode(struct qq__buf *b, uint32_t nnodes, const struct qq__node_rec *recs,
                      uint64_t file_size, int complete);
/* Write BUF..LEN at OFFSET of FD, all of it. Returns 0 or QQ_EIO. */
int qq__pwrite_all(int fd, const void *buf, size_t len, uint64_t offset);
/* The same for N pieces in order (pwritev); IOV is advanced as it goes. */
struct iovec;
int qq__pwritev_all(int fd, struct iovec *iov, int n, uint64_t offset);
/* Record the detail of an output failure (qq_out_errmsg). Returns ERR. */
int qq__out_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The output path: $QQ_OUTPUT if set, else NAME. */
const char *qq__out_path(const char *name);
/* 0 when PATH is a regular file or does not exist; otherwise QQ_EINVAL (or
 * QQ_EIO when it cannot be checked) with the message set: the writer renames
 * a temporary over PATH, which would replace /dev/null, a FIFO or a device. */
int qq__out_check_target(const char *path);
/* What a file of mode M that is not a regular file is, for a message: "a
 * directory", "a FIFO", ... (qq_error.c; the writer's and the reader's). */
const char *qq__file_kind(mode_t m);

/* ---------------------------------------------------------------------
 * Reader (qq_file.c, qq_file_stream.c, qq_stat.c).
 * --------------------------------------------------------------------- */

/* Bytes a streamed file's chunk reader reads at once (rounded down to whole
 * entries, at least one). Tests lower it to cross chunk boundaries. */
extern size_t qq__read_chunk;

/* Interval lengths of one state key, grown as the entries are walked: as
 * 32-bit ticks while every length fits (half the memory, page faults and
 * traffic of doubles; a state's intervals are almost always far below 2^32
 * ticks), as doubles from the first that does not. From QQ__HIST_MIN
 * lengths on, those below QQ__HIST_BINS ticks are counted, not kept
 * (COUNT): a busy state of short intervals then holds 32 KiB, not 4 bytes
 * an interval, and the pass writes no memory it has not touched before. */
#define QQ__HIST_BINS 4096
#define QQ__HIST_MIN  1024
struct qq__ivals {
    uint32_t *u; /* the lengths kept while D is NULL; UCAP is 0 once D is set */
    double *d;
    size_t n, ucap, dcap; /* N lengths kept: all, or with COUNT those not counted */
    size_t *count;        /* NULL, or QQ__HIST_BINS + 1: the lengths below QQ__HIST_BINS, counted by
                             length, then N (set when the figures are made) */
    uint64_t sum;         /* of all the lengths, set when the pass ends (mod 2^64) */
};

/* Appends LEN (counts it, once COUNT is there); 0, or QQ_ENOMEM. Growing,
 * moving to doubles and to counting are its. */
int qq__ivals_grow(struct qq__ivals *v, uint64_t len);

/* One pass over NODE's entries: the summary into NS and KEYS (KEYS may be
 * NULL), and when IV is not NULL (qq_file_nkeys() elements, zeroed) every
 * state key's interval lengths, paired as the summary pairs them. */
int qq__node_pass(const struct qq_file *f, uint32_t node, struct qq_node_summary *ns,
                  struct qq_key_summary *keys, struct qq__ivals *iv);
/* The same over NODE's entries FROM .. TO - 1 only (QQ_EINVAL out of range). */
int qq__node_pass_range(const struct qq_file *f, uint32_t node, uint64_t from, uint64_t to,
                        struct qq_node_summary *ns, struct qq_key_summary *keys,
                        struct qq__ivals *iv);

/* ---------------------------------------------------------------------
 * Events state (qq_events.c).
 * --------------------------------------------------------------------- */

struct qq__key {
    uint32_t type;
    char *name;
};
struct qq__keys {
    struct qq__key *v;
    uint32_t n, cap;
};
extern struct qq__keys qq__keytab;
extern struct qq_event *qq__buf_start; /* the buffer QQInit made */
extern uint64_t qq__base_tick;
extern double qq__mhz;
extern int qq__tsc_invariant;
extern uint64_t qq__tick_step;
extern struct qq_calib qq__calib; /* QQInit's empty-state timing */
extern int64_t qq__tick_offset;   /* set by the MPI sync, else 0 */
extern double qq__offset_error;
extern int qq__offset_valid;
/* Events the calling thread recorded so far (up to the cache while its
 * recording is off). */
uint64_t qq__recorded(void);

/* Under callgrind (qq_callgrind.c). qq__vg_init, at QQInit: QQ__VG_ON is 1
 * when the program runs under valgrind with $QQ_CALLGRIND_KEY set.
 * qq__vg_key_added: every key as it is added (QQ__VG_KEY: the named state
 * key's index, -1 until it is added). QQ__VG_TOGGLE switches the calling
 * thread's collection (nothing without valgrind's header). */
extern int qq__vg_on;
extern int qq__vg_key;
void qq__vg_init(void);
void qq__vg_key_added(const char *name, uint32_t type, int index);
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define QQ__HAVE_CALLGRIND 1
#endif
#endif
#if defined(QQ__HAVE_CALLGRIND)
#define QQ__VG_TOGGLE() CALLGRIND_TOGGLE_COLLECT
#else
#define QQ__VG_TOGGLE() ((void)0)
#endif

/* The threads that recorded on this node, as QQOut writes them (THRD). */
#define QQ__THREAD_NAME 16 /* pthread_getname_np's limit on Linux, with the NUL */
struct qq__thread_snap {
    uint32_t index;
    uint64_t tid; /* gettid() */
    uint64_t events, dropped;
    const struct qq_event *start; /* EVENTS entries of the thread's buffer */
    char name[QQ__THREAD_NAME];
};
/* Every thread's row, in index order, into *OUT (malloc'd, *N of them).
 * Returns 0 or QQ_ENOMEM. Threads still running are read as they stand:
 * QQOut's caller has synchronised with them (qq.h). */
int qq__threads_snapshot(struct qq__thread_snap **out, uint32_t *n);

/* ---------------------------------------------------------------------
 * Name index (qq_names.c): a key found by name and type in constant time,
 * for QQAdd* (qq_events.c) and MemAddKey (qq_mem.c). The index holds no
 * names, only hashes and entry numbers: the table it indexes is described
 * afresh on every call, so the table may move (realloc) between calls.
 * --------------------------------------------------------------------- */

/* FNV-1a of N bytes at P, continuing from H (start with QQ__FNV_START). */
#define QQ__FNV_START 1469598103934665603ull
uint64_t qq__fnv1a(uint64_t h, const void *p, size_t n);

/* A table of N entries of STRIDE bytes from BASE: entry I's name is the
 * const char * at byte NAME_AT of the entry, its type the uint32_t at
 * TYPE_AT, or every type is 0 when TYPE_AT is QQ__NO_TYPE. */
#define QQ__NO_TYPE ((size_t)-1)
struct qq__name_table {
    const void *base;
    size_t stride, name_at, type_at;
    uint32_t n;
};

struct qq__name_slot {
    uint32_t hash;
    uint32_t entry; /* entry number + 1; 0: empty */
};
/* Zero-initialised: empty. */
struct qq__name_index {
    struct qq__name_slot *slot; /* CAP slots (a power of two), at most half used */
    uint32_t cap;
    uint32_t indexed; /* entries 0 .. INDEXED-1 of the table are in */
};

/* The first entry of T named NAME with type TYPE, or -1. Entries appended
 * to T since the last call are indexed first; those the index has no
 * memory for are compared one by one, so the answer is the same as a
 * search from the start, only slower. Uses libc's malloc, never qq_mem's. */
int64_t qq__name_index_find(struct qq__name_index *x, const struct qq__name_table *t,
                            const char *name, uint32_t type);
void qq__name_index_free(struct qq__name_index *x);

/* NAME made a valid key name (qq_file.h, QQ_NAME_MAX): each byte that
 * breaks the rule written as '?', cut at QQ_NAME_MAX at a character's end;
 * NULL is "". malloc'd (libc's), or NULL when out of memory. */
char *qq__name_clean(const char *name);

/* ---------------------------------------------------------------------
 * Timer (qq_timer.c).
 * --------------------------------------------------------------------- */

/* Measure the tick frequency in MHz against CLOCK_MONOTONIC_RAW. */
double qq__measure_mhz(void);
/* Ticks between two back-to-back counter reads (the resolution seen). */
uint64_t qq__measure_step(void);
/* 1 if the counter is known to run at a constant rate, 0 if not. */
int qq__counter_invariant(void);
/* What the processor says of its counter: QQ_CALIB_TSC, _RDTSCP and
 * _INVARIANT (x86-64: CPUID, and prctl for a TSC turned off). */
uint32_t qq__tick_survey(void);
/* The path for a processor that says CPU (QQ_CALIB_* as the survey gives
 * them) when $QQ_TICKS asks for WANT (QQ_TICKS_UNSET: auto; -1: a name
 * that is no path): the request if the processor offers it, else the
 * automatic choice. *FLAGS gets CPU's flags, plus FORCED or REFUSED. */
int qq__tick_path_decide(uint32_t cpu, int want, uint32_t *flags);
/* Choose the tick path from the survey and $QQ_TICKS, store it in
 * qq__st.path and the flags in qq__tick_flags; returns the path. */
int qq__tick_path_choose(void);
extern uint32_t qq__tick_flags;
/* Nanoseconds of CLOCK_MONOTONIC_RAW (or CLOCK_MONOTONIC). */
uint64_t qq__mono_ns(void);
/* A (clock ns, ticks) pair read at the same instant, bracketed by fenced
 * counter reads (the calibration's samples). */
void qq__clock_sample(uint64_t *ns, uint64_t *ticks);

/* ---------------------------------------------------------------------
 * Memory keys (qq_mem.c): a snapshot of the per-key table for the file.
 * --------------------------------------------------------------------- */

/* MEMT flags (the word after nrows): bit 0, a u64 per row after the rows,
 * the lower bound of its peak (docs/FORMAT.md, MEMT). */
#define QQ__MEMT_PEAK_LOW 1u

struct qq__mem_snapshot {
    uint32_t nrows;
    struct qq_mem_row *rows; /* malloc'd by the snapshot; names too */
    uint64_t foreign_frees;
    uint64_t process_bytes;
};
/* Fill S. Returns 1 if memory tracking was used (write a MEMT section),
 * 0 if not, or QQ_ENOMEM. Free with qq__mem_snapshot_free. */
int qq__mem_snapshot(struct qq__mem_snapshot *s);
void qq__mem_snapshot_free(struct qq__mem_snapshot *s);
/* Address tables registered so far (one per thread that recorded at
 * once; a finished thread's table is adopted by the next): for tests. */
int qq__mem_tables(void);

/* ---------------------------------------------------------------------
 * MPI (qq_mpi.c, only in libqq-mpi; QQ__MPI is 1 there, 0 in libqq).
 * --------------------------------------------------------------------- */

#if defined(QQ__MPI) && QQ__MPI
/* Called at the end of QQInit: barrier and tick-offset estimate when MPI is
 * initialised. */
void qq__mpi_init_sync(void);
/* QQOut when MPI is initialised: 1 if it handled the call (RESULT set), 0
 * to fall back to the serial writer. */
int qq__mpi_out(const char *path, int node, int nodes, int *result);
#endif

/* ---------------------------------------------------------------------
 * QQTune (qq_tune.c; qq_tune_mpi.c in libqq-mpi; qq_tune_read.c reads).
 * --------------------------------------------------------------------- */

/* Seconds (or any unit) of one call of the work with candidate INDEX. */
typedef double (*qq__tune_timer)(int index, void *ctx);
/* Calls each rank makes for N candidates over SIZE ranks, and the
 * candidate rank RANK times in its call SLOT of a round. */
int qq__tune_slots(int n, int size);
int qq__tune_slot_index(int n, int rank, int size, int slot);
/* RANK's trials: REPS rounds over its slots, each candidate's fastest call
 * in BEST[i] (DBL_MAX: not timed here) and its calls in RUNS[i]. */
void qq__tune_trials(int n, int reps, int rank, int size, qq__tune_timer timer, void *ctx,
                     double *best, uint32_t *runs);
/* The index of the fastest of BEST[0..N-1], the first on a tie. */
int qq__tune_pick(const double *best, int n);
/* The TUNE sections of the records so far, appended to B (the prefix). */
int qq__encode_tune(struct qq__buf *b);
/* Forget every record (tests). */
void qq__tune_reset(void);
/* TUNE payload: its fixed head and each candidate's row (FORMAT.md). */
#define QQ__TUNE_HEAD 24
#define QQ__TUNE_ROW  24
#if defined(QQ__MPI) && QQ__MPI
/* This rank and the ranks, when MPI is active; else 0 and 1. */
void qq__tune_ranks(int *rank, int *size);
/* Collective: QQ_EMPI on every rank when BAD on any (or MPI failed); else
 * BEST, NODE and RUNS the same on every rank (fastest, its rank, summed). */
int qq__tune_agree(int n, int bad, double *best, uint32_t *node, uint32_t *runs, int rank);
#endif

#endif /* QQ_INTERNAL_H */
