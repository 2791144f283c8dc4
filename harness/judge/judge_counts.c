/* judge_counts.c - judge: verdicts on counts, exact where every launch of a side read the same
 * (a key's calls per launch, its instructions per hit), the statistics of timing where not;
 * one rule for every gate (docs/STATISTICS.md, "Verdicts on counts"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "judge_rows.h"

/* The metric of instructions per hit, and of instructions per launch, that
 * a case measured under callgrind carries per key (store/results.h). */
#define INSTR_PER_HIT "instr_per_hit"
#define INSTR_TOTAL   "instr"

/* A side's spread, and its value where every launch read the same; a
 * launch that read NaN makes both NaN (qqb_min, qqb_max): not exact. */
static void side_of(const struct qqb_metric *m, struct qqb_count_side *s)
{
    s->n = m->n;
    s->min = qqb_min(m->samples, m->n);
    s->max = qqb_max(m->samples, m->n);
    s->value = s->min == s->max && isfinite(s->min) ? s->min : NAN;
}

int qqb_count_decide(const struct qqb_metric *base, const struct qqb_metric *cur,
                     double threshold_pct, double threshold_abs, double confidence,
                     struct qqb_count_change *out)
{
    memset(out, 0, sizeof *out);
    out->delta = out->pct = out->threshold_pct = NAN;
    out->verdict = QQB_NOISY;
    if (!base || !cur || base->n == 0 || cur->n == 0)
        return -1;
    side_of(base, &out->base);
    side_of(cur, &out->cur);
    double ref = isfinite(out->base.value) ? out->base.value : (out->base.min + out->base.max) / 2;
    out->threshold_pct = threshold_abs > 0 && ref > 0 ? 100.0 * threshold_abs / ref : threshold_pct;
    out->exact = isfinite(out->base.value) && isfinite(out->cur.value);
    if (out->exact) {
        double b = out->base.value, c = out->cur.value;
        out->delta = c - b;
        out->pct = b > 0 ? 100.0 * (c / b - 1.0) : (c == b ? 0 : NAN);
        double t = threshold_abs > 0 ? threshold_abs : (b > 0 ? b * out->threshold_pct / 100.0 : 0);
        out->verdict = out->delta > t    ? QQB_REGRESSED
                       : out->delta < -t ? QQB_IMPROVED
                                         : QQB_UNCHANGED;
        out->ch = (struct qqb_change){.status = QQB_CHANGE_OK,
                                      .reason = "",
                                      .pct = out->pct,
                                      .lo = out->pct,
                                      .hi = out->pct,
                                      .ci_ok = 1,
                                      .confidence = 1,
                                      .p_value = NAN};
        return 0;
    }
    /* Non-deterministic: the launches' change, as timing's. */
    qqb_change(base->samples, base->n, cur->samples, cur->n, confidence, 0, &out->ch);
    out->pct = out->ch.pct;
    out->delta = qqb_median(cur->samples, cur->n) - qqb_median(base->samples, base->n);
    out->verdict = qqb_verdict_sym(&out->ch, out->threshold_pct);
    return 0;
}

const char *qqb_count_grouped(char *buf, size_t len, double v)
{
    char digits[64];
    if (!isfinite(v) || fabs(v) >= 1e18) {
        snprintf(buf, len, "%g", v);
        return buf;
    }
    int whole = v == floor(v);
    snprintf(digits, sizeof digits, whole ? "%.0f" : "%.2f", fabs(v));
    size_t lead = strcspn(digits, "."), o = 0;
    char out[96];
    if (v < 0)
        out[o++] = '-';
    for (size_t i = 0; digits[i] && o + 2 < sizeof out; i++) {
        if (i > 0 && i < lead && (lead - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    snprintf(buf, len, "%s", out);
    return buf;
}

const char *qqb_count_side_text(char *buf, size_t len, const struct qqb_count_side *s)
{
    char lo[32], hi[32];
    if (isfinite(s->value))
        return qqb_count_grouped(buf, len, s->value);
    snprintf(buf, len, "%s..%s", qqb_count_grouped(lo, sizeof lo, s->min),
             qqb_count_grouped(hi, sizeof hi, s->max));
    return buf;
}

/* ROW's words: "called 1,000 -> 1,200 times per launch", "52 -> 53
 * instructions per hit", "non-deterministic: ...". */
static void say(struct qqb_countcmp *row)
{
    char b[72], c[72], d[40];
    const struct qqb_count_change *x = &row->c;
    qqb_count_side_text(b, sizeof b, &x->base);
    qqb_count_side_text(c, sizeof c, &x->cur);
    if (!x->exact)
        snprintf(row->why, sizeof row->why,
                 "non-deterministic: %s -> %s %s, judged on the launches", b, c,
                 row->calls ? "calls per launch" : "instructions per hit");
    else if (row->calls)
        snprintf(row->why, sizeof row->why, "called %s -> %s times per launch", b, c);
    else
        snprintf(row->why, sizeof row->why, "%s -> %s instructions per hit (%s%s exact)", b, c,
                 x->delta >= 0 ? "+" : "", qqb_count_grouped(d, sizeof d, x->delta));
}

static int push(struct qqb_judgement *j, const struct qqb_countcmp *row)
{
    struct qqb_countcmp *v = qqb_grow(j->counts, j->ncounts, &j->capcounts, sizeof *v, 32);
    if (!v)
        return -1;
    j->counts = v;
    j->counts[j->ncounts++] = *row;
    return 0;
}

/* The calls metric of KEY: a state's intervals, another key's hits. */
static const char *calls_what(const struct qqb_case_result *c, const char *key)
{
    return qqb_case_find_metric(c, key, "intervals") ? "intervals" : "hits";
}

/* A cost row's total per launch, split where the calls and totals of both
 * sides are exact: dtotal = dcalls x cost + calls' x dcost. A case measured
 * for instructions alone has no calls metric: its calls are then the
 * exact total over the exact figure per hit (instr_per_hit is instr over
 * the launch's intervals). */
static void split(struct qqb_countcmp *row, const struct qqb_case_result *c,
                  const struct qqb_case_result *ref)
{
    row->calls_base = row->calls_cur = row->total_base = row->total_cur = NAN;
    row->count_part = row->cost_part = NAN;
    const char *w = calls_what(c, row->key);
    struct qqb_count_change calls, total;
    if (qqb_count_decide(qqb_case_find_metric(ref, row->key, INSTR_TOTAL),
                         qqb_case_find_metric(c, row->key, INSTR_TOTAL), 0, 0, 0.95, &total) != 0 ||
        !total.exact)
        return;
    if (qqb_count_decide(qqb_case_find_metric(ref, row->key, w),
                         qqb_case_find_metric(c, row->key, w), 0, 0, 0.95, &calls) == 0) {
        if (!calls.exact)
            return;
        row->calls_base = calls.base.value;
        row->calls_cur = calls.cur.value;
    } else if (row->c.exact && row->c.base.value > 0 && row->c.cur.value > 0) {
        row->calls_base = round(total.base.value / row->c.base.value);
        row->calls_cur = round(total.cur.value / row->c.cur.value);
    }
    if (!(row->calls_base > 0) || !isfinite(row->calls_cur))
        return;
    row->total_base = total.base.value;
    row->total_cur = total.cur.value;
    row->count_part = (row->calls_cur - row->calls_base) * (row->total_base / row->calls_base);
    row->cost_part = row->total_cur - row->total_base - row->count_part;
}

/* The rows of key KEY of case C (plan case CI) against REF (KIND; RI its
 * plan case, or the baseline's index): calls, and instructions per hit
 * where both sides have them. 0 or -1. */
static int key_rows(struct qqb_judgement *j, const struct qqb_bench *b, size_t ci, size_t ri,
                    const struct qqb_case_result *c, const struct qqb_case_result *ref, int kind,
                    const char *key)
{
    struct qqb_countcmp row;
    memset(&row, 0, sizeof row);
    row.case_idx = ci;
    row.ref_idx = ri;
    row.ab = kind;
    row.case_name = c->name;
    row.key = key;
    row.ref_name = kind == QQB_CMP_BASELINE ? NULL : ref->name;
    row.timing = -1;
    for (int calls = 1; calls >= 0; calls--) {
        const char *what = calls ? calls_what(c, key) : INSTR_PER_HIT;
        const struct qqb_metric *cm = qqb_case_find_metric(c, key, what);
        if (qqb_count_decide(qqb_case_find_metric(ref, key, what), cm, QQB_DEFAULT_COUNT_THRESHOLD,
                             calls ? 0 : b->s.threshold_instr, b->s.confidence, &row.c) != 0)
            continue;
        row.what = cm->what; /* the results' own string */
        row.calls = calls;
        row.gated = calls ? b->s.gate_counts : kind != QQB_CMP_VARIANT;
        row.calls_base = row.calls_cur = row.total_base = row.total_cur = NAN;
        row.count_part = row.cost_part = NAN;
        if (!calls)
            split(&row, c, ref);
        say(&row);
        if (push(j, &row) != 0)
            return -1;
    }
    return 0;
}

int qqb_judge_count_rows(struct qqb_judgement *j, const struct qqb_plan *p, size_t ci, size_t ri,
                         const struct qqb_case_result *c, const struct qqb_case_result *ref,
                         int kind)
{
    const struct qqb_bench *b = qqb_judge_bench_of(p, ci);
    for (size_t mi = 0; mi < c->nmetrics; mi++) {
        const struct qqb_metric *m = &c->metrics[mi];
        /* A judged key: one with cycles per hit or instructions per hit. */
        if (strcmp(m->what, QQB_VERDICT_METRIC) && strcmp(m->what, INSTR_PER_HIT))
            continue;
        if (!strcmp(m->what, INSTR_PER_HIT) && qqb_case_find_metric(c, m->key, QQB_VERDICT_METRIC))
            continue; /* the key's rows are made at its cycles */
        if (kind == QQB_CMP_BASELINE && !qqb_judge_baseline_key(b, m->key))
            continue;
        if (key_rows(j, b, ci, ri, c, ref, kind, m->key) != 0)
            return -1;
    }
    return 0;
}

void qqb_judge_counts_finish(struct qqb_judgement *j)
{
    j->counts_regressed = j->counts_nondet = 0;
    for (size_t i = 0; i < j->ncounts; i++) {
        struct qqb_countcmp *row = &j->counts[i];
        row->timing = -1;
        for (size_t k = 0; k < j->ncmp; k++) {
            const struct qqb_cmp *t = &j->cmp[k];
            if (t->ab == row->ab && t->case_idx == row->case_idx && !strcmp(t->key, row->key))
                row->timing = (int)t->verdict;
        }
        j->counts_regressed += row->gated && row->c.verdict == QQB_REGRESSED;
        j->counts_nondet += !row->c.exact;
    }
}
