/* plan.h - the plan: a suite expanded once into groups of cases, with the launch order of every
 * round. */
#ifndef QQB_PLAN_H
#define QQB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "suite.h"

/* Which build a case's kernel comes from: the change (the kernels as the
 * suite and --kernels find them) or, with --against DIR, the reference
 * build's kernels under DIR (docs/RUNNING.md, "Against a reference build"). */
enum qqb_build { QQB_BUILD_CHANGE = 0, QQB_BUILD_REFERENCE = 1 };

/* No such case (plan indices). */
#define QQB_NO_CASE ((size_t)-1)

/* One case: benchmark x variant x node count x parameter point (x build). */
struct qqb_plan_case {
    size_t bench;    /* index into suite->bench */
    size_t group;    /* index into plan->groups */
    size_t in_bench; /* the case's index in its benchmark (qqb_bench_case) */
    int variant;     /* index into the bench's variants, -1 when none */
    int nodes;
    char *name;     /* e.g. "km[direct,size=200]@2" */
    char *point;    /* "size=200,steps=10", NULL without parameters */
    char **argv;    /* the launch: launcher (for nodes > 1), kernel path,
                     * arguments; NULL-ended */
    char **command; /* what a baseline stores: the kernel as the suite
                     * names it, then its arguments; NULL-ended */
    enum qqb_build build;
    size_t variant_ref; /* the reference variant of the same build (itself
                         * for the reference variant) */
    size_t twin;        /* a change-build case under --against: its case of
                         * the reference build; QQB_NO_CASE otherwise */
    char *kernel_path;  /* the program launched (reference build: under DIR) */
};

/* The variants of one point and node count: cases FIRST .. FIRST+N-1,
 * FIRST being the reference variant (the bench's first). With --against
 * the group holds both builds, interleaved in every round: the change
 * build's variants FIRST .. FIRST+N/2-1, then the reference build's in the
 * same order (each case's twin). */
struct qqb_plan_group {
    size_t bench;
    size_t first, n;
    int reps, warmup;
};

struct qqb_plan {
    const struct qqb_suite *suite;
    struct qqb_plan_case *cases;
    size_t ncases;
    struct qqb_plan_group *groups;
    size_t ngroups;
    size_t launches;        /* warmups and repetitions of every case */
    const char *against;    /* --against DIR (borrowed), NULL without */
    size_t reference_cases; /* cases of the reference build */
    int passes;             /* passes over the suite a run takes (1, or qqb_plan_args'
                               passes): how a run's figure splits its launches
                               (docs/STATISTICS.md section 18) */
    int max_reps;           /* rounds a group may grow to while an A/B comparison is
                               noisy (0: its repetitions); the looks of the
                               group-sequential plan (docs/STATISTICS.md section 17) */
    struct qqb_suite *view; /* SUITE with the run's settings (qqb_plan_args'
                               threshold_bound, run_figure) when they differ from the
                               file's: what suite points to; its strings are SUITE's */
};

/* The passes group G takes: the run's, at most its repetitions, at least 1. */
int qqb_plan_group_passes(const struct qqb_plan *p, size_t g);

/*
 * Expand SUITE (the benchmarks named in ONLY, all when NONLY is 0) once.
 * REPS > 0 overrides every benchmark's repetitions. Returns 0, or -1 with
 * ERR (a name in ONLY that is no benchmark, out of memory). The plan
 * borrows SUITE, which must outlive it.
 */
int qqb_plan_make(const struct qqb_suite *suite, char *const *only, size_t nonly, int reps,
                  struct qqb_plan *out, char *err, size_t errlen);
/*
 * The same with a reference build (--against AGAINST, NULL: none): every
 * case gets a twin launching the reference build's kernel, found in AGAINST
 * by the same name (a bare kernel name K: AGAINST/K); a kernel given by a
 * path under KERNEL_DIR (the change build's kernel folder, may be NULL)
 * maps to the same relative path under AGAINST, any other path to its
 * basename in AGAINST. The twin is named "NAME (reference build)". A
 * reference kernel that is missing is not an error here: the measurement
 * reports it (qqb_plan_reference_missing).
 */
int qqb_plan_make_against(const struct qqb_suite *suite, char *const *only, size_t nonly, int reps,
                          const char *against, const char *kernel_dir, struct qqb_plan *out,
                          char *err, size_t errlen);
/* What a run asks of its plan beyond the suite (qqbench run's options). */
struct qqb_plan_args {
    char *const *only; /* the benchmarks planned, by name (NONLY 0: all) */
    size_t nonly;
    int reps;               /* > 0: every benchmark's repetitions */
    int once;               /* 1: every case launched once, without warmup (--memory-only) */
    const char *against;    /* the reference build's kernel folder (--against); NULL: none */
    const char *kernel_dir; /* the change build's kernel folder (may be NULL) */
    double threshold_bound; /* > 0: every benchmark's threshold bound (--threshold-bound) */
    int run_figure;         /* >= 0: the run figure (enum qqb_run_figure, --run-figure);
                               < 0: the suite's */
    int passes;             /* > 0: the passes over the suite (--passes); else 1 */
    int max_reps;           /* --max-repetitions (0: none given): qqb_plan_max_reps */
};
/*
 * SUITE expanded for a run as A asks, as qqb_plan_make_against expands it,
 * with A's settings in the plan: the suite is not changed (OUT->suite is a
 * view of it with A's threshold bound and run figure, when A sets them).
 * 0, or -1 with ERR as qqb_plan_make_against's.
 */
int qqb_plan_make_with(const struct qqb_suite *suite, const struct qqb_plan_args *a,
                       struct qqb_plan *out, char *err, size_t errlen);
/* The rounds a noisy A/B comparison of PLAN may grow to: MAX_REPS
 * (--max-repetitions); 0 (off) without it, except against a reference
 * build (AGAINST), where it is 8x the largest group's repetitions. */
int qqb_plan_max_reps(const struct qqb_plan *plan, int against, int max_reps);

/* Why plan case CI (of the reference build) cannot be launched, into WHY
 * ("the reference build has no kernel 'k' (DIR/k)"); 0 when it can. */
int qqb_plan_reference_missing(const struct qqb_plan *p, size_t ci, char *why, size_t len);
void qqb_plan_free(struct qqb_plan *p);

/* The cases' names in plan order (borrowed), for qqb_results_init. NULL on
 * out of memory; free() the array. */
const char **qqb_plan_names(const struct qqb_plan *p);

/*
 * The order of round ROUND of a group of NV variants: ORDER[0..NV-1] is a
 * rotation of 0..NV-1 starting at the round's lead. The leads are balanced
 * in blocks of NV rounds (each variant leads once per block) and shuffled
 * within each block from SEED, so no periodic slowdown of the machine (every
 * second launch, every fourth, ...) keeps falling on the same variant, as it
 * does with a fixed rotation (docs/RUNNING.md). Deterministic in (NV, ROUND,
 * SEED).
 */
void qqb_round_order(size_t nv, size_t round, uint64_t seed, size_t *order);

#endif /* QQB_PLAN_H */
