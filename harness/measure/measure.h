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
    /* Against a stored baseline: the launches per case group G of R wants
     * (the plan, qqb_judge_planned; 0: none more). */
    size_t (*planned)(void *ctx, size_t g, const struct qqb_results *r);
    double budget;      /* seconds the whole measurement may take (0: no limit) */
    int max_planned;    /* the most rounds the plan may grow a group to
                           (--max-repetitions; 0: 8x the group's repetitions) */
    size_t groups_left; /* groups not yet measured, for the budget's share */
    /* Kept by the measurement. */
    double t0;
    size_t done, total; /* launches, for progress */
    size_t case_at, ncases;
    size_t files; /* run<N> files made so far */
    size_t kernel_failures;
    /* Per benchmark of the suite: 1 once its `keys:` were checked, after
     * the first pass over its first group. During that pass: of each key,
     * the change build's launches that completed and lacked it, with the
     * error the first of them gave (keys_why[k]; NULL: none lacked it). */
    unsigned char *keys_checked;
    size_t keys_launches, *keys_missing;
    char **keys_why;
};

/* The plan's rounds (docs/STATISTICS.md section 17): how many more rounds a
 * group at UPTO rounds takes when its rows WANT launches a case: up to
 * MOST, and, with BUDGET_LEFT seconds left of the run's budget (INFINITY:
 * none set), within the group's share of it among GROUPS_LEFT groups (its
 * own DONE rounds took SPENT seconds, and the share counts them). *CUT 1
 * when the budget cut the rounds. Pure. */
int qqb_plan_rounds(size_t want, int upto, int most, double budget_left, size_t groups_left,
                    double spent, int done, int *cut);

/* Prepare M for PLAN (M's caller fields set): 0 or -1. */
int qqb_measure_init(struct qqb_measure *m);
void qqb_measure_free(struct qqb_measure *m);

/* Measure group G: warmups, then rounds in qqb_round_order, each launch's
 * samples stamped (run 0, launch = round) into case (plan index) of INTO,
 * which qqb_results_init sized from the plan. A case whose launch fails
 * stops there; the others go on. The first pass over a benchmark's first
 * group (its first warmup, else its first round) checks the benchmark's
 * `keys:`: a key no launch of the change build named is an error (a key
 * some variant names is not; the reference build does not count). 0, or -1 with
 * ERR a whole line to print: out of memory, or a key the file does not
 * name ("suite:line:col: error: ..." at the key, with "did you mean"),
 * and then no further launch is made. */
int qqb_measure_group(struct qqb_measure *m, size_t g, struct qqb_results *into, char *err,
                      size_t errlen);

/* Every group of the plan: 0, or -1 with ERR as qqb_measure_group. */
int qqb_measure_all(struct qqb_measure *m, struct qqb_results *into, char *err, size_t errlen);

#endif /* QQB_MEASURE_H */
