/* measure.h - measure: launches of the plan's groups, interleaved, into samples. */
#ifndef QQB_MEASURE_H
#define QQB_MEASURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plan.h"
#include "results.h"

struct qqb_measure {
    /* Set by the caller. */
    const struct qqb_plan *plan;
    const char *workdir; /* launches write run<N>.qq / run<N>.log here */
    int quiet, verbose, keep, tty;
    int max_reps;     /* --max-repetitions, 0: off */
    double ref_scale; /* QQBENCH_REFERENCE_SCALE (1: the machine as it is) */
    uint64_t seed;    /* of the round order (qqb_round_order) */
    /* --max-repetitions: 1 when group G of R still needs more rounds. */
    int (*undecided)(void *ctx, size_t g, const struct qqb_results *r);
    void *ctx;
    /* Kept by the measurement. */
    double t0;
    size_t done, total; /* launches, for progress */
    size_t case_at, ncases;
    size_t files; /* run<N> files made so far */
    size_t kernel_failures;
    /* Per plan case: the keys its kernel's file named (first good launch),
     * NULL-ended, for checking the suite's `keys:`. */
    char ***recorded;
};

/* Prepare M for PLAN (M's caller fields set): 0 or -1. */
int qqb_measure_init(struct qqb_measure *m);
void qqb_measure_free(struct qqb_measure *m);

/* Measure group G: warmups, then rounds in qqb_round_order, each launch's
 * samples stamped (run 0, launch = round) into case (plan index) of INTO,
 * which qqb_results_init sized from the plan. A case whose launch fails
 * stops there; the others go on. 0, or -1 on out of memory. */
int qqb_measure_group(struct qqb_measure *m, size_t g, struct qqb_results *into);

/* Every group of the plan. 0 or -1. */
int qqb_measure_all(struct qqb_measure *m, struct qqb_results *into);

/* The suite's `keys:` that no launch of their benchmark recorded: each an
 * error "suite:line:col: error: ..." (with "did you mean") printed to FP.
 * Returns how many. Benchmarks none of whose cases ran are not judged. */
size_t qqb_measure_check_keys(const struct qqb_measure *m, const struct qqb_results *r, FILE *fp);

#endif /* QQB_MEASURE_H */
