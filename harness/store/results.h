/* results.h - what a run measures: per case, per key, one sample per launch; the machine's
 * fingerprint. */
#ifndef QQB_RESULTS_H
#define QQB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "strv.h" /* the cases' command lines and compilers are NULL-ended arrays */

/*
 * Metrics of a key, each one number per launch (the unit of repetition):
 *   ticks      states: ticks spent in the state during the launch (the max
 *              over nodes for MPI runs: the slowest node sets the pace)
 *   per_hit    states: ticks per hit of the launch: the 10th percentile
 *              interval, or for intervals within 50 counter steps the
 *              10%-trimmed mean (max over nodes; collect.c says why)
 *   mean_hit   states: the mean interval (max over nodes)
 *   hits       every key: events recorded (sum over nodes)
 *   sum        counts: sum of the counts (sum over nodes); values: sum
 *   mean       values: mean of the values over all nodes
 *   imbalance  states in MPI runs: max over nodes / mean over nodes of ticks
 *   reference  key "@machine": the machine reference loop timed by qqbench
 *              just before the launch (runner.h)
 * Lower is better for the tick metrics; only per_hit decides a timing
 * verdict (collect.c says why); the others are stored and reported.
 */
struct qqb_metric {
    char *key;  /* the QQ key's name */
    char *what; /* "ticks", "per_hit", "mean_hit", "hits", "sum", "mean",
                   "imbalance", ... (more may come: consumers look up the
                   ones they use and ignore the others) */
    double *samples;
    size_t n, cap;
    /* Where each sample came from, filled by qqb_case_stamp: the run of
     * qqbench (0 = the oldest a baseline holds; always 0 in a current run)
     * and the launch within that run (for a measured case: the round of
     * the interleaved design). Comparisons pair and normalise samples by
     * (run, launch), never by position: a key missing from one launch
     * shifts positions, not stamps. */
    uint32_t *run, *launch;
    size_t nstamped, capstamp;
};

/* One memory key of a case (from the .qq file's MEMT section of node 0, or
 * summed over nodes). Deterministic: compared exactly or within a tolerance. */
struct qqb_mem {
    char *key;
    uint64_t obj_size, created, deleted, obj_bytes, alloc_bytes, peak_bytes;
    /* peak_bytes minus the lower bound of the peak: 0 where the peak is
     * exact; above 0 where several threads allocated on the key at once and
     * the file gave bounds (docs/MEMORY.md), peak_bytes being the upper. */
    uint64_t peak_gap;
};

/* What a case's kernel was built from, read from its ELF file (store/kbuild.h):
 * each part NULL where the file does not say (not ELF, stripped, no -g).
 * Strings are printable ASCII (anything else read as '?'). */
struct qqb_kbuild {
    char *id;        /* the GNU build ID (.note.gnu.build-id), in hex */
    char **compiler; /* the .comment strings ("GCC: (Debian 12.2.0-14) 12.2.0"),
                      * distinct, in file order; NULL-ended */
    char **producer; /* DW_AT_producer of the compile units ("GNU C17 12.2.0
                      * -mtune=generic -march=x86-64 -g -O2"), distinct,
                      * sorted; NULL-ended */
};

/* One case: benchmark x variant x node count x parameter point. */
/* One thread of one node, in the launches of a case (docs/THREADS.md): its
 * identity as the last launch's file gave it, and per state key metrics,
 * one sample per launch: "hits", "intervals", "per_hit" (net ticks per hit
 * of that thread alone), "ticks". A thread is its node and index (the
 * order threads first recorded in). Kept for the run JSON only: the case's
 * own metrics (over all threads) are what is judged and stored. */
struct qqb_thread_row {
    uint32_t node, index;
    char *name;
    uint64_t tid, events, dropped;
    struct qqb_metric *metrics;
    size_t nmetrics, capmetrics;
};

struct qqb_case_result {
    char *name;    /* display name, e.g. "km[direct]@2" */
    char *bench;   /* benchmark name */
    char *variant; /* variant name or NULL */
    char *point;   /* "size=100,steps=10" or NULL */
    int nodes;
    double mhz; /* tick frequency of node 0 in the last good launch */
    size_t launches, failures;
    char *failure; /* the reason of the last failed launch, or NULL */
    struct qqb_metric *metrics;
    size_t nmetrics, capmetrics;
    struct qqb_mem *mem;
    size_t nmem;
    /* The kernel's command line as the suite gives it (kernel name as
     * written, then its arguments), without the launcher; NULL-ended, or
     * NULL when unknown (baselines written before it was stored). */
    char **command;
    size_t runs;             /* runs of qqbench whose samples this case holds (>= 1) */
    struct qqb_kbuild build; /* the kernel's build (empty when unknown) */
    /* Per-thread rows of threaded launches (none when every node of every
     * launch had one thread). */
    struct qqb_thread_row *threads;
    size_t nthreads, capthreads;
    /* What the case was measured for: NULL cycles only (the timing
     * metrics), "instructions" (the count metrics of docs/INSTRUCTIONS.md
     * alone: "instr", "instr_per_hit", with the cache simulation "dr", "dw",
     * "d1mr", "d1mw", "dlmr", "dlmw"; no timing metric), or "both". */
    char *metric;
};

/* The machine a result was measured on: what must match for timings to be
 * comparable. `id` is a short stable hash of the other fields. */
struct qqb_fingerprint {
    char cpu[128];
    double mhz;    /* tick MHz, rounded to 10 MHz */
    int invariant; /* the counter is invariant */
    int cores;
    char compiler[128];
    char flags[128];
    char id[32]; /* e.g. "x86_64-2cpu-1a2b3c4d" */
};

/* A verdict a run reached on one key of one case against its baseline;
 * history snapshots (--record) keep them, so later runs can tell a key that
 * stays noisy run after run (docs/STATISTICS.md, "Noisy run after run"). */
struct qqb_verdict_note {
    char *case_name, *key, *verdict; /* verdict: qqb_verdict_name's word */
};

struct qqb_results {
    char *suite;
    char *label;   /* --record LABEL, or NULL */
    char *date;    /* ISO 8601 UTC */
    char *version; /* qqbench version */
    char *commit;  /* git commit of the working tree, or NULL */
    struct qqb_fingerprint fp;
    /* Each case is its own allocation and never moves: a pointer to a case
     * stays valid while the list grows (until qqb_results_free). */
    struct qqb_case_result **cases;
    size_t ncases, capcases;
    /* The run's baseline verdicts: in history snapshots only (none in a
     * main baseline); freed by qqb_results_free. */
    struct qqb_verdict_note *verdicts;
    size_t nverdicts;
};

/* Free R's verdict notes (the rest stays). */
void qqb_results_drop_verdicts(struct qqb_results *r);

/* Construction helpers (results.c). */

/* Size R for N cases named NAMES[i] (the plan's cases, in plan order), all
 * empty: case i of the results is case i of the plan. 0 or -1. */
int qqb_results_init(struct qqb_results *r, const char *const *names, size_t n);
/* A new empty case named NAME at the end, without looking for one of that
 * name (the caller knows it is new); NULL on out of memory. */
struct qqb_case_result *qqb_results_append(struct qqb_results *r, const char *name);
/* The case named NAME, made (empty) when missing; NULL on out of memory.
 * The pointer stays valid until qqb_results_free. */
struct qqb_case_result *qqb_results_case(struct qqb_results *r, const char *name);
/* Index of the case named NAME, or -1. */
long qqb_results_index(const struct qqb_results *r, const char *name);
struct qqb_case_result *qqb_results_find(const struct qqb_results *r, const char *name);
/* The metric (KEY, WHAT) of C, made when missing; NULL on out of memory.
 * The pointer is into C's metric array: valid until the next
 * qqb_case_metric on C (use it at once, keep the index otherwise). */
struct qqb_metric *qqb_case_metric(struct qqb_case_result *c, const char *key, const char *what);
const struct qqb_metric *qqb_case_find_metric(const struct qqb_case_result *c, const char *key,
                                              const char *what);
int qqb_metric_add(struct qqb_metric *m, double sample);
/* Thread INDEX of NODE's row in C, made (zeroed) when new; and metric
 * KEY/WHAT of a thread row, made when new. NULL when out of memory. */
struct qqb_thread_row *qqb_case_thread(struct qqb_case_result *c, uint32_t node, uint32_t index);
struct qqb_metric *qqb_thread_metric(struct qqb_thread_row *t, const char *key, const char *what);
/* Stamp every sample of C not stamped yet with (RUN, LAUNCH). Called once
 * after each launch is collected. 0 or -1 on out of memory. */
int qqb_case_stamp(struct qqb_case_result *c, uint32_t run, uint32_t launch);
/* Append one stamped sample; 0 or -1. */
int qqb_metric_add_at(struct qqb_metric *m, double sample, uint32_t run, uint32_t launch);
/* The stamp of sample I of M; a sample never stamped counts as run 0,
 * launch I (results built by hand). */
void qqb__stamp_of(const struct qqb_metric *m, size_t i, uint32_t *run, uint32_t *launch);
/* The index of the sample of M stamped (RUN, LAUNCH), or -1. */
long qqb_metric_at(const struct qqb_metric *m, uint32_t run, uint32_t launch);
/* 1 when both cases carry their command line and the two differ (a case
 * without one, made by hand or stored before commands were, differs from
 * nothing). */
int qqb_case_command_differs(const struct qqb_case_result *a, const struct qqb_case_result *b);
/* A view of R: its header and the cases I with KEEP[I] nonzero (KEEP NULL:
 * all), borrowed; with MEMORY_ONLY each case without its metrics (memory per
 * key, names and command only). Free only view->cases (one block), never
 * with qqb_results_free. 0 or -1. */
int qqb_results_view(const struct qqb_results *r, const char *keep, int memory_only,
                     struct qqb_results *view);
void qqb_case_result_free(struct qqb_case_result *c);
void qqb_results_free(struct qqb_results *r);

/* 1 when every case of CUR is in STORED with the same memory per key (the
 * same keys, in order, with the same sizes, counts and peaks): storing CUR
 * as a memory baseline would change nothing but its date, commit and tick
 * rates. 0 otherwise. */
int qqb_results_same_memory(const struct qqb_results *cur, const struct qqb_results *stored);

/* The verdict metric of a key type: states are judged on net ticks per hit
 * (qq_per_hit of the intervals minus the launch's calibrated empty-state
 * cost, floored at half a counter step); "per_hit_raw" keeps the figure
 * before the subtraction. */
#define QQB_VERDICT_METRIC "per_hit"

/* QQInit's calibration of each launch (node 0), stored as metrics "empty"
 * (the empty-state cost, ticks) and "step" (the counter step, ticks) of
 * this key: what a net figure was computed with, and its resolution. */
#define QQB_TIMER_KEY "@timer"

/* Events each launch lost to a full buffer, summed over nodes: metric
 * "dropped" of this key. A key of a case with a launch that dropped events
 * is judged `incomplete`, unless the benchmark says allow_dropped. */
#define QQB_EVENTS_KEY "@qq"

/* A parameter QQTune chose (qq.h; the file's TUNE records): metric
 * "choice" of key "@tune:NAME", the value chosen, one sample per launch
 * (docs/TUNE.md). Stored and reported, never judged. */
#define QQB_TUNE_PREFIX "@tune:"
#define QQB_TUNE_METRIC "choice"

/* The machine's speed right now: the median ticks of a fixed dependent
 * multiply-add loop run in this process (about 1 ms). Stored per launch as
 * the metric QQB_REFERENCE_WHAT of key QQB_REFERENCE_KEY, so a comparison
 * with a stored baseline can tell a slower machine from a slower kernel. */
#define QQB_REFERENCE_KEY  "@machine"
#define QQB_REFERENCE_WHAT "reference"

#endif /* QQB_RESULTS_H */
