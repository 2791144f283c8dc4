/* judge_plan.c - judge: the plan above the rows: each case's rows (judge_base.c, judge_ab.c,
 * judge_mem.c) judged by runs (judge_runs.c), family-wise control, the reasons and the
 * tallies; the questions the plan and the stop rule ask. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "judge_model.h"
#include "judge_plan.h"
#include "judge_rows.h"
#include "judge_runs.h"
#include "match.h"
#include "qq_file.h"
#include "mde.h"
#include "sequential.h"
#include "words.h"

const char *qqb_threshold_from_name(enum qqb_threshold_from f)
{
    switch (f) {
    case QQB_THR_FIXED:
        return "fixed";
    case QQB_THR_NOISE:
        return "noise";
    case QQB_THR_RUNS:
        return "runs";
    case QQB_THR_BOUNDED:
        return "bounded";
    }
    return "?";
}

const char *qqb_ref_guard_name(enum qqb_ref_guard g)
{
    switch (g) {
    case QQB_RG_NONE:
        return NULL;
    case QQB_RG_MOVED:
        return "machine moved";
    case QQB_RG_BUILD:
        return "build differs";
    case QQB_RG_COMMON:
        return "keys moved together";
    case QQB_RG_SIGN:
        return "signs differ";
    case QQB_RG_RUNS:
        return "keys moved together as measured";
    }
    return "?";
}

const char *qqb_machine_check_name(enum qqb_machine_check m)
{
    switch (m) {
    case QQB_MC_NOT_NEEDED:
        return "not needed";
    case QQB_MC_HELD:
        return "held";
    case QQB_MC_MOVED:
        return "machine moved";
    case QQB_MC_SKIPPED:
        return "skipped";
    case QQB_MC_IN_FIGURE:
        return "in the figure";
    }
    return "?";
}

static int push_row(struct qqb_judgement *j, const struct qqb_cmp *row)
{
    struct qqb_cmp *v = qqb_grow(j->cmp, j->ncmp, &j->capcmp, sizeof *v, 32);
    if (!v)
        return -1;
    j->cmp = v;
    j->cmp[j->ncmp++] = *row;
    return 0;
}

/* ---------------------------------------------------------------------
 * Family-wise control: Holm's step-down over the baseline rows.
 * --------------------------------------------------------------------- */

/*
 * One family (docs/STATISTICS.md section 14): the baseline rows judged (a
 * row blind and not judged tests nothing) and the rows against the
 * reference build, each with its one-sided p-value against its threshold
 * (p_value: 2 min(up, down), so "decisive at alpha'" is "p <= alpha'").
 * Holm's step-down: with m rows, a row decisive alone stands when its
 * p-value is at most alpha / m; with r standing, the others are judged at
 * alpha / (m - r), until no more stand. A row judged at a look of a
 * group-sequential plan (more rounds while noisy) has its level from the
 * boundary at that look for the level Holm gives it. A row decisive alone
 * that does not stand becomes noisy and says so. Rows between variants are
 * not in the family: they do not gate.
 */
/* The baseline metric a baseline row was judged against (NULL: none). */
static const struct qqb_metric *base_metric(const struct qqb_results *base,
                                            const struct qqb_cmp *row)
{
    if (!base || row->base_idx == QQB_NO_MATCH || row->base_metric == QQB_NO_MATCH)
        return NULL;
    return &base->cases[row->base_idx]->metrics[row->base_metric];
}

static int in_family(const struct qqb_cmp *row)
{
    return row->ab != QQB_CMP_VARIANT && row->ch.status == QQB_CHANGE_OK && !row->not_judged &&
           row->verdict != QQB_UNRESOLVED && row->verdict != QQB_INCOMPLETE;
}

static void holm(const struct qqb_plan *p, struct qqb_judgement *j, struct qqb_model_judgement *mj)
{
    size_t m = 0, stood = 0, nm = mj ? mj->n : 0;
    for (size_t i = 0; i < j->ncmp; i++)
        m += (size_t)in_family(&j->cmp[i]);
    for (size_t i = 0; i < nm; i++)
        m += (size_t)(mj->rows[i].gated != 0);
    j->family = m;
    if (m == 0)
        return;
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (in_family(row) && (row->alone == QQB_REGRESSED || row->alone == QQB_IMPROVED))
            row->holm_held = 0;
        if (in_family(row) && j->family_alpha == 0)
            j->family_alpha = 1.0 - qqb_judge_bench_of(p, row->case_idx)->s.confidence;
    }
    for (size_t i = 0; i < nm; i++) {
        struct qqb_model_row *r = &mj->rows[i];
        r->holm_held = r->gated && r->g.regressed ? 0 : -1;
        if (r->gated && j->family_alpha == 0)
            j->family_alpha = 1.0 - p->suite->bench[r->bench].s.confidence;
    }
    for (;;) {
        size_t newly = 0;
        for (size_t i = 0; i < j->ncmp; i++) {
            struct qqb_cmp *row = &j->cmp[i];
            if (row->holm_held != 0)
                continue;
            double alpha = 1.0 - qqb_judge_bench_of(p, row->case_idx)->s.confidence;
            double a = qqb_judge_row_level(row, alpha / (double)(m - stood));
            if (row->p_value <= a) {
                row->holm_held = 1;
                row->level = 1.0 - a;
                newly++;
            }
        }
        for (size_t i = 0; i < nm; i++) {
            struct qqb_model_row *r = &mj->rows[i];
            double alpha = 1.0 - p->suite->bench[r->bench].s.confidence;
            if (r->holm_held == 0 && r->g.p_row <= alpha / (double)(m - stood)) {
                r->holm_held = 1;
                newly++;
            }
        }
        if (newly == 0)
            break;
        stood += newly;
    }
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (row->holm_held == 0)
            row->verdict = QQB_NOISY;
        /* A paired row's interval at the level it was finally judged at:
         * the one it stood at, or the last step's (judge_rows.h). */
        double alpha = 1.0 - qqb_judge_bench_of(p, row->case_idx)->s.confidence;
        if (row->holm_held == 1)
            qqb_judge_ab_level(row, row->level);
        else if (in_family(row) && row->verdict != QQB_UNCHANGED)
            qqb_judge_ab_level(row, 1.0 - qqb_judge_row_level(row, alpha / (double)(m - stood)));
    }
    for (size_t i = 0; i < nm; i++) {
        struct qqb_model_row *r = &mj->rows[i];
        if (r->holm_held != 0)
            continue;
        r->g.regressed = 0;
        memset(r->g.flagged, 0, sizeof r->g.flagged);
        mj->regressed--;
        snprintf(r->why, sizeof r->why,
                 "grew at %.0f%% alone (p %.2g), not after Holm over %zu comparisons",
                 100.0 * p->suite->bench[r->bench].s.confidence, r->g.p_row, m);
    }
}

/* ---------------------------------------------------------------------
 * Why a row is noisy, and what would decide it.
 * --------------------------------------------------------------------- */

static void explain(struct qqb_cmp *row, size_t family)
{
    const struct qqb_change *ch = &row->ch;
    char *w = row->why;
    size_t len = sizeof row->why;
    if (row->verdict == QQB_BLIND)
        return; /* said when judged (honest) */
    w[0] = '\0';
    if (row->verdict == QQB_INCOMPLETE) {
        snprintf(w, len,
                 "%.0f events dropped (buffer full): the figures undercount; raise "
                 "events: or QQ_EVENTS, or set allow_dropped: true",
                 row->dropped);
        return;
    }
    if (row->below_step == 2) {
        snprintf(w, len,
                 "both within the counter's resolution (%.0f ticks) of zero: "
                 "cannot be resolved",
                 qq_resolution_ticks(row->step));
        return;
    }
    if (row->below_step == 1 && row->verdict != QQB_NOISY) {
        snprintf(w, len,
                 "one figure within the counter's resolution (%.0f ticks) of "
                 "zero: the change's size is a bound",
                 qq_resolution_ticks(row->step));
        return;
    }
    if (row->verdict != QQB_NOISY || row->ref_guard >= QQB_RG_COMMON) /* qqb_ref_guard_note */
        return;
    if (row->machine == QQB_MC_MOVED) {
        snprintf(w, len, "the machine moved %s%%; relative to it %s%%",
                 QQB_SIGNED(row->machine_pct, 1), QQB_SIGNED(row->norm_pct, 2));
        return;
    }
    if (row->early) {
        double at = qqb_judge_row_level(row, 1.0 - ch->confidence);
        snprintf(w, len,
                 "beyond %.1f%% at %.0f%%, not at look %zu of %zu's boundary (p %.2g > %.2g)",
                 row->threshold, 100.0 * ch->confidence, row->look, row->looks, row->p_value, at);
        return;
    }
    if (row->holm_held == 0) {
        snprintf(w, len, "%s at %.0f%% alone, not after Holm over %zu comparisons",
                 qqb_verdict_name(row->alone), 100.0 * ch->confidence, family);
        return;
    }
    if (ch->status != QQB_CHANGE_OK) {
        snprintf(w, len, "%s", ch->reason ? ch->reason : "no valid change");
        return;
    }
    if (!ch->ci_ok) {
        snprintf(w, len, "too few %s for %.0f%% (%zu); add repetitions",
                 row->paired ? "pairs" : "launches", 100.0 * ch->confidence,
                 row->paired ? row->npairs : (ch->nb < ch->nc ? ch->nb : ch->nc));
        return;
    }
    if (!row->ab) { /* by runs: the plan's estimate (qqb_judge_run_row) */
        int k = snprintf(w, len, "interval %s%%..%s%% against a threshold of %.1f%%",
                         QQB_SIGNED(ch->lo, 1), QQB_SIGNED(ch->hi, 1), row->threshold);
        if (k > 0 && (size_t)k < len && row->need_launches > ch->nc)
            snprintf(w + k, len - (size_t)k, "; about %zu launches would decide",
                     row->need_launches);
        else if (k > 0 && (size_t)k < len) /* it had the plan's launches */
            snprintf(w + k, len - (size_t)k,
                     "; it had the %zu launches the plan wanted: the change is near the "
                     "threshold, or this run spread more than the baseline's",
                     ch->nc);
        return;
    }
    /* The interval must fit on one side of a threshold: estimate how many
     * launches would shrink it enough (width ~ 1/sqrt(n)). */
    double t = row->threshold, half = (ch->hi - ch->lo) / 2, est = ch->pct;
    double room = fabs(est) < t ? t - fabs(est) : fabs(est) - t;
    size_t n = row->paired ? row->npairs : (ch->nb < ch->nc ? ch->nb : ch->nc);
    double need = room > 0 ? (double)n * (half / room) * (half / room) : INFINITY;
    int k = snprintf(w, len, "interval +/-%.1f%% against a threshold of %.1f%%", half, t);
    if (k < 0 || (size_t)k >= len)
        return;
    if (need > 1000)
        snprintf(w + k, len - (size_t)k, "; the change is at the threshold");
    else
        snprintf(w + k, len - (size_t)k, "; about %.0f %s would decide", ceil(need),
                 row->paired ? "pairs" : "launches a side");
}

/* ---------------------------------------------------------------------
 * The whole judgement.
 * --------------------------------------------------------------------- */

int qqb_judge(const struct qqb_plan *p, const struct qqb_results *cur,
              const struct qqb_results *base, struct qqb_judgement *j)
{
    return qqb_judge_with(p, cur, base, base, j);
}

/* The rows of plan case CI: against its baseline case BC (index BI; NULL:
 * none), its memory baseline MC, the reference variant and the reference
 * build's twin (BASE_OF: each plan case's baseline case, for the pairs'
 * noise). 0 or -1 (out of memory). */
static int judge_case(const struct qqb_plan *p, const struct qqb_results *cur, size_t ci,
                      const struct qqb_results *base, const size_t *base_of,
                      const struct qqb_case_result *mc, struct qqb_judgement *j)
{
    const struct qqb_case_result *c = cur->cases[ci];
    const struct qqb_bench *b = qqb_judge_bench_of(p, ci);
    const struct qqb_case_result *bc = qqb_matched(base, base_of, ci);
    if (bc) {
        int few = 0;
        int differs = qqb_case_command_differs(bc, c);
        j->command_changed += differs;
        for (size_t mi = 0; mi < c->nmetrics; mi++) {
            if (strcmp(c->metrics[mi].what, QQB_VERDICT_METRIC) ||
                !qqb_judge_baseline_key(b, c->metrics[mi].key))
                continue;
            struct qqb_cmp row;
            int rc = qqb_judge_baseline_row(ci, mi, c, bc, base_of[ci], &row, &few);
            if (rc < 0 || (rc > 0 && push_row(j, &row) != 0))
                return -1;
        }
        j->few_run_cases += (size_t)few;
        if (qqb_judge_count_rows(j, p, ci, base_of[ci], c, bc, QQB_CMP_BASELINE) != 0)
            return -1;
    }
    /* Memory per key: against the memory baseline (any machine's). */
    if (mc && qqb_judge_compare_mem(j, ci, mc, c, 0, (uint64_t)b->s.memory_tolerance) != 0)
        return -1;
    /* Against the reference variant of the group, then against the same
     * case of the reference build: indices, not names. */
    for (int kind = QQB_CMP_VARIANT; kind <= QQB_CMP_BUILD; kind++) {
        size_t ri = kind == QQB_CMP_VARIANT ? p->cases[ci].variant_ref : p->cases[ci].twin;
        if (ri == ci || ri == QQB_NO_CASE)
            continue;
        const struct qqb_case_result *ref = cur->cases[ri];
        if (ref->failures || ref->launches == 0)
            continue;
        const struct qqb_case_result *br = qqb_matched(base, base_of, ri);
        for (size_t mi = 0; mi < c->nmetrics; mi++) {
            if (strcmp(c->metrics[mi].what, QQB_VERDICT_METRIC))
                continue;
            struct qqb_cmp row;
            int rc = qqb_judge_ab_row(p, ci, ri, mi, c, ref, bc, br, kind, &row);
            if (rc < 0 || (rc > 0 && push_row(j, &row) != 0))
                return -1;
        }
        if (qqb_judge_compare_mem(j, ci, ref, c, kind,
                                  kind == QQB_CMP_BUILD ? (uint64_t)b->s.memory_tolerance : 0) !=
                0 ||
            qqb_judge_count_rows(j, p, ci, ri, c, ref, kind) != 0)
            return -1;
    }
    return 0;
}

/* The minimum detectable change of ROW (stats/mde.h): the change its
 * test reads regressed nine times in ten at level A (its look's boundary
 * for A): a baseline row's t test, a paired row's trimmed t. */
static double mde_of(const struct qqb_cmp *row, double a)
{
    double level = qqb_judge_row_level(row, a);
    return row->paired ? qqb_mde_trim(row->threshold, row->se_log, row->se_df, level)
                       : qqb_mde_t(row->threshold, row->se_log, row->se_df, level);
}

/* A row against a reference still noisy at the plan's last look whose MDE
 * is beyond (1 + t)^2 - 1 (what it catches nine times in ten is more than
 * the threshold beyond the threshold: it cannot tell no change from t) is
 * blind: these pairs do not see the threshold, and no more rounds will
 * come. */
static void blind_by_mde(struct qqb_cmp *row)
{
    double t = row->threshold / 100.0;
    if (!row->ab || row->verdict != QQB_NOISY || row->look < row->looks || row->early ||
        row->holm_held == 0 || !(row->mde_pct / 100.0 > (1 + t) * (1 + t) - 1))
        return;
    row->verdict = row->alone = QQB_BLIND;
    row->seen_by = "more pairs";
    /* The pairs at which the MDE's margin over the threshold, (q +
     * z(0.9)) se, shrinks (as 1/sqrt(n)) to log(1 + t): then they catch t. */
    double margin = log1p(row->mde_pct / 100.0) - log1p(t);
    double need = (double)row->npairs * (margin / log1p(t)) * (margin / log1p(t));
    int k = snprintf(row->why, sizeof row->why,
                     "these pairs catch %+.1f%% nine times in ten, not %.1f%%", row->mde_pct,
                     row->threshold);
    if (k > 0 && (size_t)k < sizeof row->why && need <= 100000) {
        row->need_launches = (size_t)ceil(need);
        snprintf(row->why + k, sizeof row->why - (size_t)k, "; about %zu pairs would see it",
                 row->need_launches);
    }
}

/* After every row is made: the machine check of the baseline rows, each
 * row's explanation, and the tallies. */
static void finish(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, struct qqb_judgement *j)
{
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (row->ab || !base) /* baseline rows exist only with a baseline */
            continue;
        const struct qqb_case_result *c = cur->cases[row->case_idx];
        const struct qqb_case_result *bc = base->cases[row->base_idx];
        qqb_machine_check(row, base_metric(base, row), &c->metrics[row->metric],
                          qqb_case_find_metric(bc, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT),
                          qqb_case_find_metric(c, QQB_REFERENCE_KEY, QQB_REFERENCE_WHAT));
        j->missing_ref += row->machine == QQB_MC_SKIPPED;
    }
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        double a = 1.0 - qqb_judge_bench_of(p, row->case_idx)->s.confidence;
        row->mde_pct = mde_of(row, in_family(row) && j->family > 1 ? a / (double)j->family : a);
        blind_by_mde(row);
        if (row->verdict != QQB_BLIND) /* made incomplete or unresolved since */
            row->seen_by = NULL;
        explain(row, j->family);
        qqb_ref_guard_note(row);
        j->incomplete += row->verdict == QQB_INCOMPLETE;
        if (!row->ab) {
            j->regressed += row->verdict == QQB_REGRESSED;
            j->noisy += row->verdict == QQB_NOISY;
            j->blind += row->verdict == QQB_BLIND;
            row->blind_fails =
                row->verdict == QQB_BLIND && qqb_judge_bench_of(p, row->case_idx)->s.fail_on_blind;
            j->blind_failing += (size_t)row->blind_fails;
        } else if (row->ab == QQB_CMP_BUILD) {
            j->build_regressed += row->verdict == QQB_REGRESSED;
            j->build_noisy += row->verdict == QQB_NOISY;
            j->build_blind += row->verdict == QQB_BLIND;
            row->blind_fails =
                row->verdict == QQB_BLIND && qqb_judge_bench_of(p, row->case_idx)->s.fail_on_blind;
            j->blind_failing += (size_t)row->blind_fails;
        }
    }
    qqb_judge_counts_finish(j);
    for (size_t i = 0; i < j->nmem; i++) {
        j->mem_regressed += !j->mem[i].ab && j->mem[i].verdict > 0;
        j->build_mem_regressed += j->mem[i].ab == QQB_CMP_BUILD && j->mem[i].verdict > 0;
    }
}

int qqb_judge_with(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, const struct qqb_results *membase,
                   struct qqb_judgement *j)
{
    return qqb_judge_all(p, cur, base, membase, NULL, j);
}

int qqb_judge_all(const struct qqb_plan *p, const struct qqb_results *cur,
                  const struct qqb_results *base, const struct qqb_results *membase,
                  struct qqb_model_judgement *models, struct qqb_judgement *j)
{
    memset(j, 0, sizeof *j);
    /* Case I of the plan is case I of CUR; the stored runs' cases are
     * matched to them once, by name, and found by index after. */
    size_t *base_of = NULL, *mem_of = NULL;
    int rc = qqb_match_cases(cur, p->ncases, base, &base_of) != 0 ||
                     qqb_match_cases(cur, p->ncases, membase, &mem_of) != 0
                 ? -1
                 : 0;
    for (size_t ci = 0; rc == 0 && ci < p->ncases; ci++) {
        const struct qqb_case_result *c = cur->cases[ci];
        /* The reference build's cases are references only: never judged
         * against the stored baseline (which holds the change build). */
        if (c->failures || c->launches == 0 || p->cases[ci].build == QQB_BUILD_REFERENCE)
            continue;
        rc = judge_case(p, cur, ci, base, base_of, qqb_matched(membase, mem_of, ci), j);
    }
    free(base_of);
    free(mem_of);
    if (rc != 0 || (base && qqb_judge_runs(p, cur, base, j) != 0))
        return -1;
    for (size_t i = 0; base && i < j->ncmp; i++) {
        struct qqb_cmp *row = &j->cmp[i];
        if (row->ab)
            continue;
        qqb_judge_resolution(row, cur->cases[row->case_idx], base->cases[row->base_idx]);
        qqb_judge_completeness(row, &qqb_judge_bench_of(p, row->case_idx)->s,
                               cur->cases[row->case_idx], base->cases[row->base_idx]);
        qqb_judge_counts(row, cur->cases[row->case_idx], base->cases[row->base_idx]);
    }
    holm(p, j, models);
    finish(p, cur, base, j);
    return 0;
}

/* The stop rule asks the final judgement's question (docs/STATISTICS.md
 * section 17, "One rule to stop and to judge"): the whole judgement of CUR
 * as it stands, Holm over the family with each row at its look's level,
 * and a row of group G against its reference variant or build still
 * noisy (beyond its threshold alone but not at its look's boundary, or
 * not after Holm, or an interval across the threshold) wants more rounds.
 * Out of memory reads undecided: more rounds, never a verdict taken
 * early. */
int qqb_judge_ab_undecided(const struct qqb_plan *p, size_t g, const struct qqb_results *cur,
                           const struct qqb_results *base)
{
    const struct qqb_plan_group *gr = &p->groups[g];
    struct qqb_model_judgement models;
    struct qqb_judgement j;
    memset(&j, 0, sizeof j);
    if (qqb_judge_models(p, cur, base, &models) != 0 ||
        qqb_judge_all(p, cur, base, base, &models, &j) != 0) {
        qqb_judgement_free(&j);
        qqb_model_judgement_free(&models);
        return 1;
    }
    int undecided = 0;
    for (size_t i = 0; i < j.ncmp && !undecided; i++) {
        const struct qqb_cmp *row = &j.cmp[i];
        undecided = row->ab != QQB_CMP_BASELINE && row->case_idx >= gr->first &&
                    row->case_idx < gr->first + gr->n && row->ch.status == QQB_CHANGE_OK &&
                    row->verdict == QQB_NOISY;
    }
    qqb_judgement_free(&j);
    qqb_model_judgement_free(&models);
    return undecided;
}

size_t qqb_judge_incomplete_case(const struct qqb_plan *p, const struct qqb_results *cur,
                                 size_t *first)
{
    size_t n = 0;
    for (size_t ci = 0; ci < p->ncases; ci++) {
        const struct qqb_case_result *c = cur->cases[ci];
        if (p->cases[ci].build == QQB_BUILD_REFERENCE ||
            qqb_judge_bench_of(p, ci)->s.allow_dropped || !(qqb_case_dropped(c) > 0))
            continue;
        if (n++ == 0 && first)
            *first = ci;
    }
    return n;
}

/* The last run's launches of BASE's case named as plan case I, into C:
 * what a run of the baseline looks like, for the plan (0, or -1 on out of
 * memory; a case the baseline lacks stays empty). */
static int last_run_of(const struct qqb_results *base, struct qqb_case_result *c)
{
    const struct qqb_case_result *bc = qqb_results_find(base, c->name);
    if (!bc)
        return 0;
    c->nodes = bc->nodes;
    c->mhz = bc->mhz;
    c->launches = bc->launches;
    if (bc->bench && !c->bench && !(c->bench = strdup(bc->bench)))
        return -1;
    for (size_t k = 0; k < bc->nmetrics; k++) {
        const struct qqb_metric *bm = &bc->metrics[k];
        uint32_t last = 0, run, launch;
        for (size_t i = 0; i < bm->n; i++) {
            qqb__stamp_of(bm, i, &run, &launch);
            if (run > last)
                last = run;
        }
        /* Making the metric may move C's metrics; adding samples does not. */
        struct qqb_metric *m = qqb_case_metric(c, bm->key, bm->what);
        if (!m)
            return -1;
        for (size_t i = 0; i < bm->n; i++) {
            qqb__stamp_of(bm, i, &run, &launch);
            if (run == last && qqb_metric_add_at(m, bm->samples[i], 0, launch) != 0)
                return -1;
        }
    }
    return 0;
}

int qqb_judge_plan_start(const struct qqb_plan *p, const struct qqb_results *base, size_t *want)
{
    for (size_t g = 0; g < p->ngroups; g++)
        want[g] = 0;
    if (!base)
        return 0;
    struct qqb_results cur;
    memset(&cur, 0, sizeof cur);
    const char **names = qqb_plan_names(p);
    int rc = names && qqb_results_init(&cur, names, p->ncases) == 0 ? 0 : -1;
    free(names);
    /* The run to come is taken to be by the baseline's qqbench build: the
     * plan cannot know this one's before it runs (section 19). */
    cur.fp = base->fp;
    if (rc != 0 || (base->version && !(cur.version = strdup(base->version)))) {
        qqb_results_free(&cur);
        return -1;
    }
    for (size_t i = 0; rc == 0 && i < p->ncases; i++)
        rc = last_run_of(base, cur.cases[i]);
    struct qqb_judgement j;
    if (rc == 0 && qqb_judge(p, &cur, base, &j) == 0) {
        for (size_t i = 0; i < j.ncmp; i++) {
            const struct qqb_cmp *row = &j.cmp[i];
            size_t g = p->cases[row->case_idx].group;
            if (!row->ab && !row->not_judged && row->ch.status == QQB_CHANGE_OK &&
                row->plan_launches > want[g])
                want[g] = row->plan_launches;
        }
        qqb_judgement_free(&j);
    }
    qqb_results_free(&cur);
    return rc;
}
