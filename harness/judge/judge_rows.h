/* judge_rows.h - the rows of a judgement, made by judge_base.c (against the stored baseline),
 * judge_ab.c (between variants, against the reference build) and judge_mem.c (memory per key);
 * judge_plan.c puts them together. Internal to judge/. */
#ifndef QQB_JUDGE_ROWS_H
#define QQB_JUDGE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "judge.h"

/* judge_base.c: the benchmark of plan case CI. */
const struct qqb_bench *qqb_judge_bench_of(const struct qqb_plan *p, size_t ci);
/* The nominal level of ROW at family level A: A itself, or the boundary
 * of its look. */
double qqb_judge_row_level(const struct qqb_cmp *row, double a);
/* ROW's threshold: the benchmark's own (docs/STATISTICS.md section 13),
 * and the change the key's noise hides. */
void qqb_judge_set_threshold(struct qqb_cmp *row, const struct qqb_settings *s, double noise_pct);
/* Is KEY judged against the baseline (baseline_keys, default all)? */
int qqb_judge_baseline_key(const struct qqb_bench *b, const char *key);
/* The exact counts of ROW's case CUR against BASE. */
void qqb_judge_counts(struct qqb_cmp *row, const struct qqb_case_result *cur,
                      const struct qqb_case_result *base);
/* ROW unresolved where its change is below the counter's step on both
 * sides (A, B). */
void qqb_judge_resolution(struct qqb_cmp *row, const struct qqb_case_result *a,
                          const struct qqb_case_result *b);
/* ROW incomplete where A or B dropped events and S does not allow it. */
void qqb_judge_completeness(struct qqb_cmp *row, const struct qqb_settings *s,
                            const struct qqb_case_result *a, const struct qqb_case_result *b);
/* A baseline row of plan case CI's metric MI, set up for qqb_judge_runs.
 * 1 made, 0 none (*FEW set where too few runs), -1 out of memory. */
int qqb_judge_baseline_row(size_t ci, size_t mi, const struct qqb_case_result *c,
                           const struct qqb_case_result *bc, size_t bi, struct qqb_cmp *row,
                           int *few);

/* judge_ab.c: a paired row's interval at LEVEL (the level the row was
 * finally judged at, row->level), from its trimmed mean and se_log. */
void qqb_judge_ab_level(struct qqb_cmp *row, double level);

/* judge_ab.c: the row of plan case CI's metric MI against its reference
 * RI (KIND: QQB_CMP_VARIANT or QQB_CMP_BUILD), the pairs of one round;
 * BC and BR their baseline cases (NULL: none). 1 made, 0 none, -1 out of
 * memory. */
int qqb_judge_ab_row(const struct qqb_plan *p, size_t ci, size_t ri, size_t mi,
                     const struct qqb_case_result *c, const struct qqb_case_result *ref,
                     const struct qqb_case_result *bc, const struct qqb_case_result *br, int kind,
                     struct qqb_cmp *row);

/* judge_mem.c: the memory rows of CUR against BASE (AB: the row's kind;
 * TOL: the tolerance in bytes) appended to J. 0 or -1. */
int qqb_judge_compare_mem(struct qqb_judgement *j, size_t ci, const struct qqb_case_result *base,
                          const struct qqb_case_result *cur, int ab, uint64_t tol);

/* judge_counts.c: the verdicts on counts of plan case C (CI) against REF
 * (KIND; RI the reference's plan case, or the baseline's case index)
 * appended to J: each judged key's calls per launch and, where measured,
 * instructions per hit. 0 or -1. */
int qqb_judge_count_rows(struct qqb_judgement *j, const struct qqb_plan *p, size_t ci, size_t ri,
                         const struct qqb_case_result *c, const struct qqb_case_result *ref,
                         int kind);
/* After every row is made: each count row's cycles verdict beside it, and
 * the tallies (counts_regressed, counts_nondet). */
void qqb_judge_counts_finish(struct qqb_judgement *j);

#endif
