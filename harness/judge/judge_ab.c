/* judge_ab.c - judge: the rows between variants and against the reference build (one round's
 * pairs, the trimmed mean's t), with what more pairs would see. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "judge_rows.h"
#include "match.h"
#include "sequential.h"

/* ---------------------------------------------------------------------
 * Between variants: pairs of one round.
 * --------------------------------------------------------------------- */

/* The pairs (A, B) of two metrics with the same (run, launch), in B's
 * order; *N the count. */
static int pairs_of(const struct qqb_metric *a, const struct qqb_metric *bm, double **pa,
                    double **pb, size_t *n)
{
    *pa = malloc((bm->n ? bm->n : 1) * sizeof **pa);
    *pb = malloc((bm->n ? bm->n : 1) * sizeof **pb);
    *n = 0;
    if (!*pa || !*pb) {
        free(*pa);
        free(*pb);
        *pa = *pb = NULL;
        return -1;
    }
    for (size_t i = 0; i < bm->n; i++) {
        uint32_t run, launch;
        qqb__stamp_of(bm, i, &run, &launch);
        long k = qqb_metric_at(a, run, launch);
        if (k >= 0) {
            (*pa)[*n] = a->samples[k];
            (*pb)[*n] = bm->samples[i];
            (*n)++;
        }
    }
    return 0;
}

/* 100 x 1.4826 x MAD of the log ratios of the pairs of A and B; NaN with
 * fewer than 2 pairs. */
static double pair_noise(const struct qqb_metric *a, const struct qqb_metric *b)
{
    double *pa, *pb;
    size_t n;
    if (pairs_of(a, b, &pa, &pb, &n) != 0)
        return NAN;
    double noise = NAN;
    if (n >= 2) {
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            ok &= pa[i] > 0 && pb[i] > 0;
            pa[i] = ok ? log(pb[i] / pa[i]) : 0;
        }
        if (ok)
            noise = qqb_pair_noise_pct(pa, n);
    }
    free(pa);
    free(pb);
    return noise;
}

/* Distinct launches (rounds) in which either metric has a sample. */
static size_t rounds_of(const struct qqb_metric *a, const struct qqb_metric *b)
{
    size_t n = a->n;
    for (size_t i = 0; i < b->n; i++) {
        uint32_t run, launch;
        qqb__stamp_of(b, i, &run, &launch);
        n += qqb_metric_at(a, run, launch) < 0;
    }
    return n;
}

/* Where the key's noise hides a change (hide_pct above the threshold), an
 * interval across the threshold and within +/-hide_pct is blind
 * (qqb_verdict_hidden) once no more rounds will come (the plan's last
 * look): it says how many pairs would see the threshold (the interval's
 * width goes as 1/sqrt(n)). Before the last look it is noisy, and the
 * rounds go on. */
static void hidden_pairs(struct qqb_cmp *row)
{
    const struct qqb_change *ch = &row->ch;
    double fixed = row->threshold;
    if (row->verdict != QQB_NOISY || row->look < row->looks ||
        qqb_verdict_hidden(ch, fixed, row->hide_pct) != QQB_BLIND)
        return;
    row->verdict = row->alone = QQB_BLIND;
    double half = (ch->hi - ch->lo) / 2, room = fixed - fabs(ch->pct);
    double need = room > 0 ? (double)row->npairs * (half / room) * (half / room) : INFINITY;
    row->seen_by = "more pairs";
    if (need <= 1000) {
        row->need_launches = (size_t)ceil(need);
        snprintf(row->why, sizeof row->why,
                 "within +/-%.1f%%: this key's noise hides less; about %zu pairs would see %.1f%%",
                 row->hide_pct, row->need_launches, fixed);
    } else {
        snprintf(row->why, sizeof row->why,
                 "within +/-%.1f%%: this key's noise hides less; no number of pairs within reach "
                 "would see %.1f%% (its estimate is at it)",
                 row->hide_pct, fixed);
    }
}

void qqb_judge_ab_level(struct qqb_cmp *row, double level)
{
    if (!row->paired || !row->ch.ci_ok || !(row->se_log >= 0) || !(level > 0 && level < 1))
        return;
    row->level = level;
    qqb_trim_interval(log1p(row->ch.pct / 100.0), row->se_log, row->se_df, level, &row->ch.lo,
                      &row->ch.hi);
}

int qqb_judge_ab_row(const struct qqb_plan *p, size_t ci, size_t ri, size_t mi,
                     const struct qqb_case_result *c, const struct qqb_case_result *ref,
                     const struct qqb_case_result *bc, const struct qqb_case_result *br, int kind,
                     struct qqb_cmp *row)
{
    const struct qqb_bench *b = qqb_judge_bench_of(p, ci);
    const struct qqb_metric *cm = &c->metrics[mi];
    const struct qqb_metric *rm = qqb_case_find_metric(ref, cm->key, cm->what);
    if (!rm)
        return 0;
    memset(row, 0, sizeof *row);
    row->count_base = row->count_cur = row->count_pct = NAN;
    row->case_idx = ci;
    row->ref_idx = ri;
    row->metric = mi;
    row->case_name = c->name;
    row->key = cm->key;
    row->ref_name = ref->name;
    row->ab = kind;
    row->base_idx = row->base_metric = QQB_NO_MATCH;
    row->mhz = c->mhz;
    row->base_mhz = ref->mhz;
    row->holm_held = -1;
    row->machine = QQB_MC_NOT_NEEDED;
    row->machine_pct = row->norm_pct = row->run_pct = row->run_bound_pct = NAN;
    row->se_log = row->se_df = row->mde_pct = NAN;
    /* The threshold's noise: the spread of the pair ratios in the stored
     * baseline (both cases BC and BR, paired by run and launch), so it does
     * not move with the run under test; without one, this run's pairs. */
    double noise = NAN;
    if (bc && br) {
        const struct qqb_metric *x = qqb_case_find_metric(br, cm->key, cm->what);
        const struct qqb_metric *y = qqb_case_find_metric(bc, cm->key, cm->what);
        if (x && y)
            noise = pair_noise(x, y);
        row->noise_from = "baseline pairs";
    }
    if (!isfinite(noise)) {
        noise = pair_noise(rm, cm);
        row->noise_from = "current pairs";
    }
    qqb_judge_set_threshold(row, &b->s, noise);
    double *pa, *pb;
    size_t n;
    if (pairs_of(rm, cm, &pa, &pb, &n) != 0)
        return -1;
    row->paired = 1;
    row->npairs = n;
    row->rounds = rounds_of(rm, cm);
    /* The look this row is judged at: more rounds while noisy is a
     * group-sequential plan (O'Brien-Fleming), so each look has its level. */
    const struct qqb_plan_group *gr = &p->groups[p->cases[ci].group];
    size_t reps = gr->reps > 0 ? (size_t)gr->reps : 1;
    size_t most = p->max_reps > gr->reps ? (size_t)p->max_reps : reps;
    row->looks = (most + reps - 1) / reps;
    row->look = (row->rounds + reps - 1) / reps;
    row->look = row->look < 1 ? 1 : (row->look > row->looks ? row->looks : row->look);
    /* The trimmed mean's t: its interval at the confidence, and its
     * p-value beyond the threshold, dual to it (docs/STATISTICS.md section
     * 12); the final level's interval is set after Holm
     * (qqb_judge_ab_level). */
    qqb_change_paired_trim(pa, pb, n, b->s.confidence, &row->ch, &row->se_log, &row->se_df);
    for (size_t i = 0; i < n; i++)
        pa[i] = pa[i] > 0 && pb[i] > 0 ? log(pb[i] / pa[i]) : 0;
    double up, down;
    qqb_trim_p_beyond(pa, n, row->threshold, &up, &down);

    row->p_value = 2.0 * (up < down ? up : down);
    row->p_value = row->p_value > 1 ? 1 : row->p_value;
    free(pa);
    free(pb);
    row->level = b->s.confidence;
    row->base_median = qqb_median(rm->samples, rm->n);
    row->cur_median = qqb_median(cm->samples, cm->n);
    row->verdict = row->alone = qqb_verdict_sym(&row->ch, row->threshold);
    /* Regressed or improved must also pass the look's boundary; unchanged
     * at a look is a futility stop, which never adds a false regressed. */
    if ((row->verdict == QQB_REGRESSED || row->verdict == QQB_IMPROVED) &&
        row->p_value > qqb_judge_row_level(row, 1.0 - b->s.confidence)) {
        row->verdict = row->alone = QQB_NOISY;
        row->early = 1;
    }
    hidden_pairs(row);
    /* Not unchanged (a futility stop at the confidence): the interval at
     * the look's level, the level a row outside Holm's family is judged
     * at; Holm sets the family's (judge_plan.c). */
    if (row->verdict != QQB_UNCHANGED)
        qqb_judge_ab_level(row, 1.0 - qqb_judge_row_level(row, 1.0 - b->s.confidence));
    qqb_judge_resolution(row, c, ref);
    qqb_judge_completeness(row, &b->s, c, ref);
    qqb_judge_counts(row, c, ref);
    return 1;
}
