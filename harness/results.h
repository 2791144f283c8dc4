/* results.h - what a run measures: per case, per key, one sample per launch; the machine's fingerprint. */
#ifndef QQB_RESULTS_H
#define QQB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Metrics of a key, each one number per launch (the unit of repetition):
 *   ticks      states: ticks spent in the state during the launch (the max
 *              over nodes for MPI runs: the slowest node sets the pace)
 *   per_hit    states: ticks per hit of the launch: the 10th percentile
 *              interval, or for intervals within 50 counter steps the
 *              10%-trimmed mean (max over nodes; runner.c says why)
 *   mean_hit   states: the mean interval (max over nodes)
 *   hits       every key: events recorded (sum over nodes)
 *   sum        counts: sum of the counts (sum over nodes); values: sum
 *   mean       values: mean of the values over all nodes
 *   imbalance  states in MPI runs: max over nodes / mean over nodes of ticks
 *   reference  key "@machine": the machine reference loop timed by qqbench
 *              just before the launch (runner.h)
 * Lower is better for the tick metrics; only per_hit decides a timing
 * verdict (runner.c says why); the others are stored and reported.
 */
struct qqb_metric {
    char *key;  /* the QQ key's name */
    char *what; /* "ticks", "per_hit", "mean_hit", "hits", "sum", "mean",
                   "imbalance" */
    double *samples;
    size_t n, cap;
};

/* One memory key of a case (from the .qq file's MEMT section of node 0, or
 * summed over nodes). Deterministic: compared exactly or within a tolerance. */
struct qqb_mem {
    char *key;
    uint64_t obj_size, created, deleted, obj_bytes, alloc_bytes, peak_bytes;
};

/* One case: benchmark x variant x node count x parameter point. */
struct qqb_case_result {
    char *name;    /* display name, e.g. "km[direct]@2" */
    char *bench;   /* benchmark name */
    char *variant; /* variant name or NULL */
    char *point;   /* "size=100,steps=10" or NULL */
    int nodes;
    double mhz;    /* tick frequency of node 0 in the last good launch */
    size_t launches, failures;
    char *failure; /* the reason of the last failed launch, or NULL */
    struct qqb_metric *metrics;
    size_t nmetrics, capmetrics;
    struct qqb_mem *mem;
    size_t nmem;
};

/* The machine a result was measured on: what must match for timings to be
 * comparable. `id` is a short stable hash of the other fields. */
struct qqb_fingerprint {
    char cpu[128];
    double mhz;        /* tick MHz, rounded to 10 MHz */
    int invariant;     /* the counter is invariant */
    int cores;
    char compiler[128];
    char flags[128];
    char id[32];       /* e.g. "x86_64-2cpu-1a2b3c4d" */
};

struct qqb_results {
    char *suite;
    char *label;       /* --record LABEL, or NULL */
    char *date;        /* ISO 8601 UTC */
    char *version;     /* qqbench version */
    char *commit;      /* git commit of the working tree, or NULL */
    struct qqb_fingerprint fp;
    struct qqb_case_result *cases;
    size_t ncases, capcases;
};

/* Construction helpers (results.c). All return 0 or -1 on out of memory. */
struct qqb_case_result *qqb_results_case(struct qqb_results *r, const char *name);
struct qqb_case_result *qqb_results_find(const struct qqb_results *r, const char *name);
struct qqb_metric *qqb_case_metric(struct qqb_case_result *c, const char *key,
                                   const char *what);
const struct qqb_metric *qqb_case_find_metric(const struct qqb_case_result *c,
                                              const char *key, const char *what);
int qqb_metric_add(struct qqb_metric *m, double sample);
void qqb_case_result_free(struct qqb_case_result *c);
void qqb_results_free(struct qqb_results *r);

/* Fill FP for this machine (CPU model from /proc/cpuinfo, tick MHz from a
 * QQ calibration, invariance, cores, compiler and build flags). */
void qqb_fingerprint_this(struct qqb_fingerprint *fp);

#endif /* QQB_RESULTS_H */
