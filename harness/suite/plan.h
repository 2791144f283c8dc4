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
    int passes;             /* passes over the suite a run takes (1 from qqb_plan_make;
                               the pipeline sets --passes): how a run's figure splits
                               its launches (docs/STATISTICS.md section 18) */
    int max_reps;           /* rounds a group may grow to while an A/B comparison is
                               noisy (0: its repetitions); the looks of the
                               group-sequential plan (docs/STATISTICS.md section 17) */
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
