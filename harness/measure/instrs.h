/* instrs.h - instructions launches: each state key's count under callgrind (docs/INSTRUCTIONS.md).
 */
#ifndef QQB_INSTRS_H
#define QQB_INSTRS_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "results.h"

/* Launches of an instructions case when the run does not say (--repetitions):
 * its repetitions, at most this many (a count is exact: a few launches show
 * whether it is deterministic). */
#define QQB_INSTR_LAUNCHES 3

/* Callgrind's events read: Ir, Dr, Dw, D1mr, D1mw, DLmr, DLmw (the last six
 * with the cache simulation), stored as the metrics "instr", "dr", "dw",
 * "d1mr", "d1mw", "dlmr", "dlmw". */
#define QQB_INSTR_EVENTS 7

struct qqb_instrs {
    const struct qqb_plan *plan;
    const char *workdir;  /* launches write instr<N>.qq, cg<N>.<pid> here */
    const char *valgrind; /* the program (qqb_instrs_valgrind) */
    int metric;           /* --metric (enum qqb_metric_kind); -1: each benchmark's */
    int reps;             /* --repetitions; 0: min(the case's, QQB_INSTR_LAUNCHES) */
    int quiet, keep;
    size_t files; /* files made so far */
};

/* Valgrind's path on $PATH into BUF, or NULL when it is not there. */
const char *qqb_instrs_valgrind(char *buf, size_t len);

/* What plan case PC measures (enum qqb_metric_kind). */
int qqb_instrs_case_metric(const struct qqb_instrs *in, const struct qqb_plan_case *pc);

/* Every case IN's plan measures for instructions: a native launch names its
 * state keys, then each launch runs the kernel under callgrind once per key
 * (QQ_CALLGRIND_KEY), every rank under valgrind where a launcher runs it,
 * and adds one stamped sample per launch of the key's metrics to the case
 * of INTO (the plan's index): "instr" (summed over threads and ranks),
 * "instr_per_hit" (instr / the key's hits in the same launch), and with the
 * cache simulation "dr", "dw", "d1mr", "d1mw", "dlmr", "dlmw". The case's
 * `metric` is set. A launch that fails fails its case. Without valgrind
 * (IN->valgrind NULL) the cases are only named, with no launch. 0, or -1
 * out of memory. */
int qqb_instrs_measure(struct qqb_instrs *in, struct qqb_results *into);

/* Add the figures of one callgrind output file PATH into SUM (the events
 * it names, as bits 1 << event into *HAVE). 0, or -1 with ERR, one line
 * "PATH:LINE:COL: error: ..." (every byte of it is hostile). */
int qqb_instrs_read(const char *path, uint64_t sum[QQB_INSTR_EVENTS], int *have, char *err,
                    size_t errlen);

#endif /* QQB_INSTRS_H */
