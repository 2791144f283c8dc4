/* judge_runs.h - baseline rows judged by runs (docs/STATISTICS.md section 17). */
#ifndef QQB_JUDGE_RUNS_H
#define QQB_JUDGE_RUNS_H

#include "judge.h"
#include "runlevel.h"

/* The runs of a baseline metric BM (its samples by run stamp). 0 or -1. */
int qqb_judge_runs_of(const struct qqb_metric *bm, struct qqb_baseruns *out);

/* One baseline row: CM (this run's launches) against BM's runs B, with the
 * run-to-run variance VAR on DF degrees of freedom (shrunk across the
 * suite's keys by qqb_judge_runs). Fills the threshold, the interval, the
 * one-sided p-value against the threshold (p_value: 2 min(up, down)), the
 * verdict alone and, for a blind or noisy row, what would see it. 0, or
 * -1 on out of memory. */
int qqb_judge_run_row(const struct qqb_settings *s, const struct qqb_metric *bm,
                      const struct qqb_metric *cm, const struct qqb_baseruns *b, double var,
                      double df, struct qqb_cmp *row);

/* Every baseline row of J (made by qqb_judge_with, judged here): the prior
 * of the run-to-run variances from all of them, then each row. 0 or -1. */
int qqb_judge_runs(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, struct qqb_judgement *j);

/* The plan of group G against a stored baseline (section 17): the launches
 * per case its baseline rows want (the largest of their plan_launches,
 * judged on CUR as measured so far), 0 when none is wanted or none would
 * help. It reads the rows' spread, never their estimates, so measuring up
 * to it does not spend the test's level. */
size_t qqb_judge_planned(const struct qqb_plan *p, size_t g, const struct qqb_results *cur,
                         const struct qqb_results *base);

#endif
