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
    double ref_ticks; /* QQBENCH_REFERENCE_TICKS: the reference, not timed (0: timed) */
    uint64_t seed;    /* of the round order (qqb_round_order) */
    /* The stored baseline the callbacks below judge against (NULL: none).
     * They are the judgement's (judge/, a layer above): M gives them the
     * plan and this baseline, typed. */
    const struct qqb_results *base;
    /* --max-repetitions: 1 when group G of R still needs more rounds (asked
     * after every group's last pass, of the suite's judgement). */
    int (*undecided)(const struct qqb_measure *m, size_t g, const struct qqb_results *r);
    /* Against a stored baseline: the launches per case each group wants
     * (the plan, qqb_judge_plan_start), into WANT[group]: 0 where none more. */
    void (*planned)(const struct qqb_measure *m, size_t *want);
    double budget;   /* seconds the whole measurement may take (0: no limit) */
    int max_planned; /* the most rounds the plan may grow a group to
                        (--max-repetitions; 0: 8x the group's repetitions) */
    /* Kept by the measurement. */
    double t0;
    size_t done, total; /* launches, for progress */
    size_t case_at, ncases;
    int pass;     /* the pass being measured, from 0 */
    int passes;   /* the passes taken: the most any group takes (a group has at
                     most as many as repetitions, and one of a single pass a
                     second for the plan's rounds) */
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
 * group of UPTO rounds takes when its rows WANT launches a case, up to
 * MOST (the budget is kept after the first pass). Pure. */
int qqb_plan_rounds(size_t want, int upto, int most);

/* After the first pass, with LEFT seconds of the budget left: the share of
 * the plan's rounds beyond the groups' repetitions that is kept, when the
 * rounds the groups must still take cost MUST seconds and the plan's EXTRA
 * (each at what the group's rounds cost so far). 1 when all fit, 0 when
 * not even MUST does. Pure. */
double qqb_budget_factor(double left, double must, double extra);

/* Case R of the results as plan case CI names it: its benchmark, variant,
 * point, nodes and command (what a baseline stores), each where R has none
 * yet. 0, or -1 out of memory. */
int qqb_measure_case_named(struct qqb_case_result *r, const struct qqb_plan *p, size_t ci);

/* Prepare M for PLAN (M's caller fields set): 0 or -1. */
int qqb_measure_init(struct qqb_measure *m);
void qqb_measure_free(struct qqb_measure *m);

/* Measure every group of the plan, in its passes over the suite:
 * each pass takes each group's share of its rounds (qqb_pass_rounds; a
 * group has at most as many passes as repetitions). Against a stored
 * baseline the plan (M->planned) sets each group's rounds before the first
 * launch; the first pass takes the repetitions' share, after it --budget
 * may cut the plan's rounds, and the other passes share the rest. A group's first
 * pass begins with its warmups. After every group's last pass,
 * --max-repetitions may add rounds to the groups whose comparisons against
 * a reference variant or build the judgement of the whole suite holds
 * noisy (M->undecided), in sweeps until none is.
 * Each launch's samples are stamped (run 0, launch = round) into case
 * (plan index) of INTO, which qqb_results_init sized from the plan. A
 * case whose launch fails stops there; the others go on. The first pass
 * over a benchmark's first group (its first warmup, else its first round)
 * checks the benchmark's `keys:`: a key no launch of the change build
 * named is an error (a key some variant names is not; the reference build
 * does not count). 0, or -1 with ERR a whole line to print: out of
 * memory, or a key the file does not name ("suite:line:col: error: ..."
 * at the key, with "did you mean"), and then no further launch is made. */
int qqb_measure_all(struct qqb_measure *m, struct qqb_results *into, char *err, size_t errlen);

#endif /* QQB_MEASURE_H */
