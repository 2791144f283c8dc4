/* judge_plan.h - the judgement of a run as a whole, above the rows (judge_base.c,
 * judge_ab.c, judge_mem.c) and their judge by runs (judge_runs.c); the plan's and the stop rule's
 * questions. */
#ifndef QQB_JUDGE_PLAN_H
#define QQB_JUDGE_PLAN_H

#include "judge.h"

/* Judge CUR (the plan's cases, measured) against BASE (may be NULL) and
 * between variants. 0, or -1 on out of memory. */
int qqb_judge(const struct qqb_plan *p, const struct qqb_results *cur,
              const struct qqb_results *base, struct qqb_judgement *out);
/* The same with memory per key judged against MEMBASE (the machine-
 * independent memory baseline; may be NULL: no memory rows against a
 * baseline) instead of BASE's memory. qqb_judge is MEMBASE = BASE. */
int qqb_judge_with(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, const struct qqb_results *membase,
                   struct qqb_judgement *out);
/* The same with the growth rows of MODELS (qqb_judge_models; may be NULL)
 * in the one Holm family with the baseline and reference-build rows
 * (docs/STATISTICS.md section 17): a growth that does not stand is no
 * longer regressed, and its note says why. */
struct qqb_model_judgement;
int qqb_judge_all(const struct qqb_plan *p, const struct qqb_results *cur,
                  const struct qqb_results *base, const struct qqb_results *membase,
                  struct qqb_model_judgement *models, struct qqb_judgement *out);

/* 1 when some row of group G in CUR against a reference variant or build is
 * noisy in the judgement of the whole suite as it stands (qqb_judge_all with
 * the models' rows: Holm over the family, each row at its look's boundary),
 * the question the final judgement asks (--max-repetitions; docs/
 * STATISTICS.md section 17). 1 on out of memory. */
int qqb_judge_ab_undecided(const struct qqb_plan *p, size_t g, const struct qqb_results *cur,
                           const struct qqb_results *base);

/* The plan against a stored baseline (sections 17 and 18), before the
 * run's first launch: into WANT[g], for each group g of P, the launches
 * per case its baseline rows want to decide at their threshold (the
 * largest of their plan_launches; 0 when none is wanted or none would
 * help). The rows are judged on the baseline's last run as if it were this
 * run; the plan reads their spread only (the baseline's launch noise, run
 * shift and run-to-run variance), never an estimate, so measuring up to it
 * does not spend the test's level. 0, or -1 on out of memory. */
int qqb_judge_plan_start(const struct qqb_plan *p, const struct qqb_results *base, size_t *want);

#endif
