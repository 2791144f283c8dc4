/* judge_runs.h - baseline rows judged by runs (docs/STATISTICS.md section 17). */
#ifndef QQB_JUDGE_RUNS_H
#define QQB_JUDGE_RUNS_H

#include "judge.h"
#include "runlevel.h"

/* How many runs the samples of baseline metric BM come from (*NRUNS), without
 * their figures: 0, or -1 on a sample that is not a positive number (the
 * row is made and qqb_judge_runs says so) or out of memory. */
int qqb_judge_run_count(const struct qqb_metric *bm, size_t *nruns);

/* The runs of a baseline metric BM (its samples by run stamp, each run
 * taken in PASSES passes of REPS repetitions, qqb_baseruns_of). 0 or -1. */
int qqb_judge_runs_of(const struct qqb_metric *bm, int passes, int reps, struct qqb_baseruns *out);

/* The samples of M divided by the machine reference REF of the same (run,
 * launch), in M's order, into *X (and their run stamps into *RUN, unless
 * RUN is NULL), *N of them; samples without a reference are left out.
 * Allocated (free both), 0, or -1 on out of memory. */
int qqb_per_reference(const struct qqb_metric *m, const struct qqb_metric *ref, double **x,
                      uint32_t **run, size_t *n);

/* The machine check of section 13 on a baseline row ROW judged as measured
 * (its baseline metric BM, this run's CM, the machine references BREF and
 * CREF, either NULL where absent): a regressed or improved verdict must
 * also hold per machine reference, else the machine moved, not the code:
 * noisy. Sets ROW's machine, machine_pct, norm_pct and machine_why. */
void qqb_machine_check(struct qqb_cmp *row, const struct qqb_metric *bm,
                       const struct qqb_metric *cm, const struct qqb_metric *bref,
                       const struct qqb_metric *cref);

/* One baseline row: CUR (this run's NC launches' figures, in the order
 * they ran) against the runs B of a baseline metric of NB samples, with the
 * run-to-run variance VAR on DF degrees of freedom (shrunk across the
 * suite's keys by qqb_judge_runs). SHOWN: the same runs as measured (B
 * itself, or B's figures were per machine reference): the key's launch
 * noise the threshold's noise_multiple reads, and the figures the row
 * shows, in ticks. Fills the threshold, the interval, the
 * one-sided p-value against the threshold (p_value: 2 min(up, down)), the
 * verdict alone and, for a blind or noisy row, what would see it. 0, or
 * -1 on out of memory. */
int qqb_judge_run_row(const struct qqb_settings *s, size_t nb, const double *cur, size_t nc,
                      const struct qqb_baseruns *b, const struct qqb_baseruns *shown, double var,
                      double df, int passes, int reps, struct qqb_cmp *row);

/* Every baseline row of J (made by qqb_judge_with, judged here): the run
 * figure (as measured, or per machine reference: docs/STATISTICS.md
 * section 19, J->by_reference), the prior of the run-to-run variances from
 * all of them, then each row. 0 or -1. */
int qqb_judge_runs(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, struct qqb_judgement *j);

/* Append to ROW's why what a guard of the figure per machine reference did
 * (ROW->ref_guard; nothing where none acted). */
void qqb_ref_guard_note(struct qqb_cmp *row);

#endif
