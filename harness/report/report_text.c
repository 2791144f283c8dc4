/* report_text.c - the text reporter: the verdict tables, their legend, memory,
 * what was only measured, the notes and the summary lines, for the terminal. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "runlevel.h"
#include "history.h"
#include "words.h"

static size_t max_len(const struct qqb_judgement *j, int ab, int name)
{
    size_t m = name ? 4 : 3;
    for (size_t i = 0; i < j->ncmp; i++) {
        if (j->cmp[i].ab != ab)
            continue;
        size_t l = strlen(name ? j->cmp[i].case_name : j->cmp[i].key);
        if (l > m)
            m = l;
    }
    return m > 48 ? 48 : m;
}

static void print_table(FILE *fp, const struct qqb_report *r, int ab)
{
    const struct qqb_judgement *j = r->j;
    size_t n = 0;
    for (size_t i = 0; i < j->ncmp; i++)
        n += j->cmp[i].ab == ab;
    if (n == 0)
        return;
    int wc = (int)max_len(j, ab, 1), wk = (int)max_len(j, ab, 0);
    if (ab == QQB_CMP_BUILD)
        fprintf(fp,
                "\nAgainst the reference build%s%s: each case against the same case "
                "built from the reference (interleaved, paired by round); cycles "
                "per interval\n\n",
                r->against ? " " : "", r->against ? r->against : "");
    else if (ab)
        fprintf(fp, "\nA/B: each variant against the first variant (interleaved, "
                    "paired by round); cycles per interval\n\n");
    else
        fprintf(fp, "\nAgainst the baseline%s%s%s%s; cycles per interval\n\n",
                r->baseline_other ? " OF ANOTHER MACHINE" : "",
                r->baseline_other_build ? ", ACROSS BUILDS (" : "",
                r->baseline_other_build ? r->baseline_other_build : "",
                r->baseline_other_build ? ")" : "");
    fprintf(fp, "%-*s  %-*s  %-22s %-22s %8s  %-19s %9s  %s\n", wc, "case", wk, "key",
            ab ? "reference" : "baseline", "current", "change", "interval", "threshold", "verdict");
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *c = &j->cmp[i];
        if (c->ab != ab)
            continue;
        char b[64], cu[64], iv[64], ch[32], th[32];
        qqb_fmt_cycles(b, sizeof b, c->base_median, c->base_mhz, QQB_CYC_COLUMN);
        qqb_fmt_cycles(cu, sizeof cu, c->cur_median, c->mhz, QQB_CYC_COLUMN);
        if (c->ch.status == QQB_CHANGE_OK) {
            struct qqb_signed sp, sl, sh;
            snprintf(ch, sizeof ch, "%s%%", qqb_signed(&sp, c->ch.pct, 2));
            snprintf(iv, sizeof iv, "[%s, %s]%s", qqb_signed(&sl, c->ch.lo, 2),
                     qqb_signed(&sh, c->ch.hi, 2), c->ch.ci_ok ? "" : "*");
        } else {
            snprintf(ch, sizeof ch, "n/a");
            snprintf(iv, sizeof iv, "(too few)");
        }
        /* n and ^: a run JSON of a qqbench before the threshold stayed the
         * benchmark's, where the key's noise could grow it. */
        snprintf(th, sizeof th, "%.1f%%%s", c->threshold,
                 c->threshold_from == QQB_THR_BOUNDED ? "^"
                 : c->threshold_from == QQB_THR_RUNS  ? "r"
                 : c->threshold_from == QQB_THR_NOISE ? "n"
                                                      : " ");
        fprintf(fp, "%-*.*s  %-*.*s  %-22s %-22s %8s  %-19s %9s  %s%s", wc, wc, c->case_name, wk,
                wk, c->key, b, cu, ch, iv, th, qqb_verdict_name(c->verdict),
                ab == QQB_CMP_BUILD ? " vs reference build" : "");
        if (c->why[0])
            fprintf(fp, " (%s)", c->why);
        if (c->machine == QQB_MC_SKIPPED)
            fprintf(fp, " [machine check skipped: %s]", c->machine_why);
        if (c->ab && c->npairs < c->rounds)
            fprintf(fp, " [%zu of %zu rounds paired]", c->npairs, c->rounds);
        if (c->command_differs)
            fprintf(fp, " [command line differs from the baseline's]");
        struct qqb_signed sc, sk;
        if (isfinite(c->count_pct) && c->count_cur != c->count_base)
            fprintf(fp,
                    " [intervals per launch %.0f -> %.0f, exact: of the total, count %s%%, "
                    "cost per interval %s%%]",
                    c->count_base, c->count_cur, qqb_signed(&sc, c->count_pct, 1),
                    qqb_signed(&sk, c->cost_pct, 1));
        fprintf(fp, "\n");
    }
}

/* A count row the table shows: every instructions row; a calls row that
 * moved or whose launches disagree (an exact unchanged count says
 * nothing). */
static int count_shown(const struct qqb_countcmp *c)
{
    return !c->calls || !c->c.exact || c->c.delta != 0;
}

/* The verdict of count row C in words: "regressed, not gated" where it
 * would fail a run that gated it; instructions beside the cycles of the
 * same key ("instructions +4.10% exact; cycles blind at this machine's
 * noise"). */
static void count_verdict(char *buf, size_t len, const struct qqb_countcmp *c)
{
    struct qqb_signed sp;
    int k = snprintf(buf, len, "%s%s", qqb_verdict_name(c->c.verdict),
                     c->c.verdict == QQB_REGRESSED && !c->gated ? ", not gated" : "");
    if (c->calls || k < 0 || (size_t)k >= len)
        return;
    snprintf(buf + k, len - (size_t)k, ": instructions %s%% %s%s%s%s", qqb_signed(&sp, c->c.pct, 2),
             c->c.exact ? "exact" : "judged on the launches", c->timing >= 0 ? "; cycles " : "",
             c->timing >= 0 ? qqb_verdict_name((enum qqb_verdict)c->timing) : "",
             c->timing == QQB_BLIND ? " at this machine's noise" : "");
}

/* The verdicts on counts (judge_counts.c): calls per launch and
 * instructions per hit, exact where every launch of a side read the same. */
static void print_counts(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    size_t n = 0;
    for (size_t i = 0; i < j->ncounts; i++)
        n += (size_t)count_shown(&j->counts[i]);
    if (n == 0)
        return;
    fprintf(fp, "\nCounts: calls per launch and instructions per hit, exact where every launch "
                "of a side read the same (no noise), non-deterministic otherwise\n\n");
    fprintf(fp, "%-24s %-12s %-8s %-16s %-16s %-18s %9s  %s\n", "case", "key", "figure", "before",
            "after", "change", "threshold", "verdict");
    for (size_t i = 0; i < j->ncounts; i++) {
        const struct qqb_countcmp *c = &j->counts[i];
        if (!count_shown(c))
            continue;
        char b[72], a[72], ch[40], v[160], tb[32], ta[32], cp[32], kp[32];
        struct qqb_signed sp;
        qqb_count_side_text(b, sizeof b, &c->c.base);
        qqb_count_side_text(a, sizeof a, &c->c.cur);
        snprintf(ch, sizeof ch, "%s%% %s", qqb_signed(&sp, c->c.pct, 2),
                 c->c.exact ? "exact" : "stats");
        count_verdict(v, sizeof v, c);
        fprintf(fp, "%-24.*s %-12.*s %-8s %-16s %-16s %-18s %8.1f%%  %s (%s)",
                qqb_utf8_fit(c->case_name, 24), c->case_name, qqb_utf8_fit(c->key, 12), c->key,
                c->calls ? "calls" : "instr", b, a, ch, c->c.threshold_pct, v, c->why);
        if (isfinite(c->count_part))
            fprintf(fp, " [instructions per launch %s -> %s: calls %s, cost %s]",
                    qqb_count_grouped(tb, sizeof tb, c->total_base),
                    qqb_count_grouped(ta, sizeof ta, c->total_cur),
                    qqb_count_grouped(kp, sizeof kp, c->count_part),
                    qqb_count_grouped(cp, sizeof cp, c->cost_part));
        if (c->ab == QQB_CMP_BUILD)
            fprintf(fp, " vs reference build");
        else if (c->ab)
            fprintf(fp, " vs %s", c->ref_name);
        else
            fprintf(fp, " vs baseline");
        if (c->calls && c->c.verdict == QQB_REGRESSED && !c->gated)
            fprintf(fp, " [gate: counts would fail the run]");
        fprintf(fp, "\n");
    }
}

static void print_legend(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    if (j->ncmp == 0)
        return;
    double conf = j->ncmp ? j->cmp[0].ch.confidence : 0.95;
    int base = 0, build = 0; /* rows against the baseline, the reference build */
    for (size_t i = 0; i < j->ncmp; i++) {
        base |= j->cmp[i].ab == QQB_CMP_BASELINE;
        build |= j->cmp[i].ab == QQB_CMP_BUILD;
    }
    /* "against the baseline" only where there is one (qqbench ci has none). */
    fprintf(fp, "\nchange: ");
    if (base || !build)
        fprintf(fp,
                "against the baseline, this run's figure against its runs' (two "
                "levels: launch and run noise)%s; ",
                j->by_reference ? ", each launch per the machine reference timed just before it"
                                : "");
    if (build)
        fprintf(fp, "against the reference build, the median ratio of the change build's "
                    "launches to the reference build's, paired round by round; ");
    fprintf(fp, "A/B: the median pair ratio; interval: %.0f%% confidence",
            100.0 * (isfinite(conf) ? conf : 0.95));
    if (j->family > 1)
        fprintf(fp,
                " per comparison; a verdict that gates must also hold after Holm's "
                "correction over the %zu comparisons that gate (family-wise %.0f%%)",
                j->family, 100.0 * (1.0 - j->family_alpha));
    fprintf(fp, ".\n* = too few launches for that confidence: the widest interval, "
                "always noisy.\nthreshold: the benchmark's, the smallest change that "
                "matters: a key's noise widens the interval, never the threshold (a change "
                "the noise hides reads blind).\n"
                "noisy: the interval straddles a threshold; the note says by how much "
                "and how many launches would decide.\n"
                "cycles are net of QQ's own reads (the empty state each launch "
                "calibrates); unresolved: both figures within the counter's "
                "resolution (half a counter step) of zero, where no change can be seen.\n");
    int grown = 0;
    for (size_t i = 0; i < j->ncmp; i++)
        grown |= j->cmp[i].threshold_from == QQB_THR_NOISE ||
                 j->cmp[i].threshold_from == QQB_THR_BOUNDED;
    if (grown)
        fprintf(fp, "n, ^: a run of an earlier qqbench, whose threshold grew with the key's "
                    "noise (n = noise_multiple x that noise, ^ = held at the bound).\n");
    if (j->blind)
        fprintf(fp, "blind: this run cannot see the benchmark's threshold (the runs move by "
                    "more, however many launches it takes), or the runs move beyond the bound "
                    "(not judged); the note names the gate that could see it.\n");
}

/* Blind baseline rows, counted: what they are, and whether they fail. */
static void print_blind(FILE *fp, const struct qqb_report *r, size_t n)
{
    if (n == 0)
        return;
    fprintf(fp,
            "%zu baseline comparison%s blind: this run cannot see a change of the suite's "
            "threshold there, however many launches it takes, because the baseline's runs move "
            "by more (each row names the gate that could): %s.\n",
            n, n == 1 ? " is" : "s are",
            r->fail_on_blind      ? "they fail the run (--fail-on-blind)"
            : r->j->blind_failing ? "those of benchmarks with fail_on_blind: true fail the run"
                                  : "they pass; --fail-on-blind makes them fail");
}

/* Keys that stay noisy run after run: a threshold they cannot be judged
 * against, named so it is fixed rather than passed silently. */
static void print_noisy_runs(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *c = &j->cmp[i];
        if (c->noisy_runs >= QQB_NOISY_RUNS)
            fprintf(fp,
                    "noisy %d runs in a row: %s %s (this run and the %d recorded before it): "
                    "its noise (%.1f%%) is beyond what the threshold (%.1f%%) can decide; "
                    "measure it longer or judge it against a larger threshold\n",
                    c->noisy_runs, c->case_name, c->key, c->noisy_runs - 1, c->noise_pct,
                    c->threshold);
    }
}

/* M's peak: one figure where it is exact, "low..high" where several
 * threads allocated on the key at once (the gate compares high). */
static const char *peak_text(char *buf, size_t len, const struct qqb_mem *m)
{
    unsigned long long hi = (unsigned long long)m->peak_bytes;
    if (m->peak_gap)
        snprintf(buf, len, "%llu..%llu", hi - (unsigned long long)m->peak_gap, hi);
    else
        snprintf(buf, len, "%llu", hi);
    return buf;
}

static void print_mem(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    if (j->nmem == 0)
        return;
    int bounds = 0;
    for (size_t i = 0; i < j->nmem; i++)
        bounds |= j->mem[i].base.peak_gap || j->mem[i].cur.peak_gap;
    fprintf(fp, "\nMemory per key (bytes live = objects + allocations; peak; "
                "object size; objects created)\n");
    if (bounds)
        fprintf(fp, "A peak low..high: several threads allocated on the key at once, the true "
                    "peak lies between; the gate compares high.\n");
    fputc('\n', fp);
    fprintf(fp, "%-32s %-16s %-24s %-24s %-14s %-20s %s\n", "case", "key", "live", "peak",
            "object size", "created", "verdict");
    for (size_t i = 0; i < j->nmem; i++) {
        const struct qqb_memcmp *m = &j->mem[i];
        char live[64], peak[96], cr[64], sz[48], pb[40], pc[40];
        unsigned long long bl = (unsigned long long)m->base.obj_bytes +
                                (unsigned long long)m->base.alloc_bytes,
                           cl = (unsigned long long)m->cur.obj_bytes +
                                (unsigned long long)m->cur.alloc_bytes;
        snprintf(live, sizeof live, "%llu -> %llu", bl, cl);
        snprintf(peak, sizeof peak, "%s -> %s", peak_text(pb, sizeof pb, &m->base),
                 peak_text(pc, sizeof pc, &m->cur));
        snprintf(sz, sizeof sz, "%llu -> %llu", (unsigned long long)m->base.obj_size,
                 (unsigned long long)m->cur.obj_size);
        snprintf(cr, sizeof cr, "%llu -> %llu", (unsigned long long)m->base.created,
                 (unsigned long long)m->cur.created);
        /* baseline and build rows gate */
        const char *v =
            m->moved ? qqb_mem_verdict_word(m->verdict, m->ab != QQB_CMP_VARIANT) : "unchanged";
        fprintf(fp, "%-32.*s %-16.*s %-24s %-24s %-14s %-20s %s", qqb_utf8_fit(m->case_name, 32),
                m->case_name, qqb_utf8_fit(m->key, 16), m->key, live, peak, sz, cr, v);
        if (cl != bl)
            fprintf(fp, " (%+lld bytes live%s", (long long)(cl - bl), bl ? "" : ")");
        struct qqb_signed sm;
        if (cl != bl && bl)
            fprintf(fp, ", %s%%)", qqb_signed(&sm, 100.0 * ((double)cl / (double)bl - 1.0), 1));
        if (m->ab == QQB_CMP_BUILD)
            fprintf(fp, " vs reference build");
        else if (m->ab)
            fprintf(fp, " vs %s", m->ref_name);
        fprintf(fp, "\n");
    }
}

/* Cases that nothing was compared against: their own numbers, so a first
 * run (or a run whose other cases failed) still shows what it measured
 * (the judgement's measured keys, judge_figures.c). */
static void print_measured(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *j = r->j;
    if (j->nmeasured == 0)
        return;
    fprintf(fp, "\nMeasured (%s): median over launches\n\n",
            r->memory_only ? "timing not compared: --memory-only"
                           : "not compared with a baseline: none, or one of too few runs");
    fprintf(fp, "%-32s %-20s %-22s %8s %9s %s\n", "case", "key", "cycles per interval", "noise",
            "launches", "events/launch");
    for (size_t i = 0; i < j->nmeasured; i++) {
        const struct qqb_measured *m = &j->measured[i];
        const struct qqb_case_result *c = res->cases[m->case_idx];
        const struct qqb_metric *mt = &c->metrics[m->metric];
        char cyc[64], noise[32], ev[32];
        qqb_fmt_cycles(cyc, sizeof cyc, m->median, c->mhz, QQB_CYC_COLUMN);
        if (isfinite(m->noise_pct))
            snprintf(noise, sizeof noise, "%.2f%%", m->noise_pct);
        else
            snprintf(noise, sizeof noise, "-");
        qqb_fmt_count(ev, sizeof ev, m->events);
        fprintf(fp, "%-32.*s %-20.*s %-22s %8s %9zu %s\n", qqb_utf8_fit(c->name, 32), c->name,
                qqb_utf8_fit(mt->key, 20), mt->key, cyc, noise, mt->n, ev);
    }
}

/* The verdicts on counts in one line, where the table shows any. */
static void print_count_summary(FILE *fp, const struct qqb_judgement *j)
{
    size_t v[QQB_NVERDICTS] = {0}, shown = 0;
    for (size_t i = 0; i < j->ncounts; i++) {
        shown += (size_t)count_shown(&j->counts[i]);
        v[j->counts[i].c.verdict]++;
    }
    if (shown)
        fprintf(fp,
                "qqbench: counts: %zu regressed (%zu failing the run), %zu improved, %zu "
                "unchanged, %zu noisy; %zu non-deterministic\n",
                v[QQB_REGRESSED], j->counts_regressed, v[QQB_IMPROVED], v[QQB_UNCHANGED],
                v[QQB_NOISY], j->counts_nondet);
}

/* The summary line's end when memory fails the run (exit 1): what grew and
 * against what, so exit 1 is not read as a timing verdict alone; "" when
 * memory did not fail it. */
static void mem_exit_note(char *buf, size_t len, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    buf[0] = '\0';
    if (r->exit_code != 1 || (!j->mem_regressed && !j->build_mem_regressed))
        return;
    char base[64] = "", build[64] = "";
    if (j->mem_regressed)
        snprintf(base, sizeof base, "%zu key%s against the baseline", j->mem_regressed,
                 j->mem_regressed == 1 ? "" : "s");
    if (j->build_mem_regressed)
        snprintf(build, sizeof build, "%s%zu key%s against the reference build",
                 j->mem_regressed ? ", " : "", j->build_mem_regressed,
                 j->build_mem_regressed == 1 ? "" : "s");
    int timing = j->regressed || j->build_regressed;
    snprintf(buf, len, "; exit 1: memory regressed (%s%s)%s", base, build,
             timing ? ", as did timing" : "");
}

/* Which figure the baseline rows were judged on (docs/STATISTICS.md
 * section 19), in words: the machine reference is qqbench's own loop, timed
 * before each launch; dividing by it takes out a machine that is faster or
 * slower as a whole. REF_RATIO is the baseline's run-to-run variance so
 * divided over as measured: "N times less" below 1, "N times more" above. */
static void print_run_figure(FILE *fp, const struct qqb_judgement *j)
{
    double q = j->ref_ratio;
    char by[64];
    if (isfinite(q) && q > 0)
        snprintf(by, sizeof by, "%.1f times %s", q < 1 ? 1 / q : q, q < 1 ? "less" : "more");
    else
        snprintf(by, sizeof by, "an unknown amount");
    struct qqb_count nr;
    if (j->by_reference)
        fprintf(fp,
                "Timing judged per machine reference: each launch divided by qqbench's own loop "
                "timed just before it, which takes out a machine that runs faster or slower as a "
                "whole; the baseline's runs vary %s that way (over %s; --run-figure measured "
                "judges the times as measured).\n",
                by, qqb_count(&nr, j->ref_rows, "key"));
    else
        fprintf(fp,
                "Timing judged as measured: dividing each launch by qqbench's own loop timed just "
                "before it (the machine reference) would make the baseline's runs vary %s (over "
                "%s)%s.\n",
                by, qqb_count(&nr, j->ref_rows, "key"),
                !(q < 1)          ? ""
                : j->ref_lacking  ? "; some launches lack the reference"
                : j->ref_rows < 3 ? "; it is chosen from 3 keys on"
                                  : "; --run-figure reference judges so");
}

/* The notes on the baseline rows as a whole: timing not gated, the run
 * figure (docs/STATISTICS.md section 19), machine checks skipped. */
static void print_baseline_notes(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    if (r->baseline_path && j->few_run_cases)
        fprintf(fp,
                "NOTE: timing is not gated against the stored baseline for %zu case%s: it "
                "holds fewer than %d runs, too few to know how much a run moves. Record "
                "more with --update-baseline, or gate with --against (qqbench ci).\n",
                j->few_run_cases, j->few_run_cases == 1 ? "" : "s", QQB_MIN_BASE_RUNS);
    if (r->baseline_path && j->ref_rows)
        print_run_figure(fp, j);
    if (r->baseline_path && j->ref_refused)
        fprintf(fp,
                "NOTE: the suite asks for run figures per machine reference (run_figure: "
                "reference), but %zu row%s lack%s the reference in a launch of the baseline or "
                "this run: judged as measured.\n",
                j->ref_lacking, j->ref_lacking == 1 ? "" : "s", j->ref_lacking == 1 ? "s" : "");
    if (j->missing_ref)
        fprintf(fp,
                "NOTE: the machine check was skipped for %zu comparison%s "
                "(see the rows).\n",
                j->missing_ref, j->missing_ref == 1 ? "" : "s");
}

static int text_emit(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *j = r->j;
    fprintf(fp, "\nqqbench: suite %s on %s (%s, %.0f MHz ticks)\n", r->suite, res->fp.id,
            res->fp.cpu, res->fp.mhz);
    if (!r->baseline_path && r->no_baseline_note)
        fprintf(fp, "%s\n", r->no_baseline_note);
    else if (!r->baseline_path)
        fprintf(fp, "No baseline for this machine: nothing to compare against yet; "
                    "this run becomes the baseline.\n");
    print_table(fp, r, QQB_CMP_BASELINE);
    print_table(fp, r, QQB_CMP_BUILD);
    print_table(fp, r, QQB_CMP_VARIANT);
    print_noisy_runs(fp, r);
    print_counts(fp, r);
    print_legend(fp, r);
    print_measured(fp, r);
    print_mem(fp, r);
    if (r->models)
        qqb_model_judgement_print(fp, r->models);
    if (r->sigs)
        qqb_sig_judgement_print(fp, r->sigs);
    qqb_tune_judgement_print(fp, r->tunes);

    size_t counts[QQB_NVERDICTS] = {0}, ab[QQB_NVERDICTS] = {0}, bu[QQB_NVERDICTS] = {0};
    for (size_t i = 0; i < j->ncmp; i++)
        (j->cmp[i].ab == QQB_CMP_BUILD ? bu : j->cmp[i].ab ? ab : counts)[j->cmp[i].verdict]++;
    size_t memreg = 0, memimp = 0;
    for (size_t i = 0; i < j->nmem; i++)
        if (j->mem[i].ab != QQB_CMP_VARIANT) {
            memreg += j->mem[i].verdict > 0;
            memimp += j->mem[i].verdict < 0;
        }
    if (r->kernel_failures) {
        fprintf(fp, "\nKernel failures:\n");
        for (size_t i = 0; i < res->ncases; i++)
            if (res->cases[i]->failures)
                fprintf(fp, "  %s: %s\n", res->cases[i]->name, res->cases[i]->failure);
    }
    fprintf(fp, "\n");
    print_baseline_notes(fp, r);
    if (j->command_changed)
        fprintf(fp,
                "WARNING: %zu case%s ran another command line than the baseline's: "
                "those comparisons are not like for like.\n",
                j->command_changed, j->command_changed == 1 ? "" : "s");
    if (counts[QQB_NOISY])
        fprintf(fp, "%zu baseline comparison%s noisy: %s.\n", counts[QQB_NOISY],
                counts[QQB_NOISY] == 1 ? " is" : "s are",
                r->fail_on_noisy ? "they fail the run (--fail-on-noisy)"
                                 : "they pass; --fail-on-noisy makes them fail");
    print_blind(fp, r, counts[QQB_BLIND]);
    if (bu[QQB_BLIND])
        fprintf(fp,
                "%zu comparison%s against the reference build %s blind: the pairs cannot see the "
                "benchmark's threshold (each row says how many would): %s.\n",
                bu[QQB_BLIND], bu[QQB_BLIND] == 1 ? "" : "s", bu[QQB_BLIND] == 1 ? "is" : "are",
                r->fail_on_blind      ? "they fail the run (--fail-on-blind)"
                : r->j->blind_failing ? "those of benchmarks with fail_on_blind: true fail the run"
                                      : "they pass; --fail-on-blind makes them fail");
    if (bu[QQB_NOISY])
        fprintf(fp, "%zu comparison%s against the reference build %s noisy: %s.\n", bu[QQB_NOISY],
                bu[QQB_NOISY] == 1 ? "" : "s", bu[QQB_NOISY] == 1 ? "is" : "are",
                r->fail_on_noisy ? "they fail the run (--fail-on-noisy)"
                                 : "they pass; --fail-on-noisy makes them fail");
    if (r->j->incomplete)
        fprintf(fp,
                "%zu comparison%s incomplete: a launch dropped events (the buffer was "
                "full), so the figures undercount.\n",
                r->j->incomplete, r->j->incomplete == 1 ? " is" : "s are");
    size_t unres = counts[QQB_UNRESOLVED] + ab[QQB_UNRESOLVED] + bu[QQB_UNRESOLVED];
    if (unres)
        fprintf(fp,
                "%zu comparison%s unresolved: net figures within the counter's "
                "resolution of zero; they pass.\n",
                unres, unres == 1 ? "" : "s");
    if (r->against)
        fprintf(fp,
                "qqbench: vs reference build: %zu regressed, %zu improved, "
                "%zu unchanged, %zu noisy, %zu blind\n",
                bu[QQB_REGRESSED], bu[QQB_IMPROVED], bu[QQB_UNCHANGED], bu[QQB_NOISY],
                bu[QQB_BLIND]);
    if (r->no_baseline_summary)
        fprintf(fp, "qqbench: %s\n", r->no_baseline_summary);
    /* ", N blind" only where there are such rows: the line as it was
     * otherwise. */
    char blind[40] = "";
    if (counts[QQB_BLIND])
        snprintf(blind, sizeof blind, ", %zu blind", counts[QQB_BLIND]);
    char memexit[160];
    mem_exit_note(memexit, sizeof memexit, r);
    /* No stored baseline read: no baseline counts (all zero, they read
     * as a comparison made), "none"; none read by choice: why. */
    char vsbase[160] = "none";
    if (r->memory_only)
        snprintf(vsbase, sizeof vsbase, "timing not compared (--memory-only)");
    else if (r->baseline_path)
        snprintf(vsbase, sizeof vsbase, "%zu regressed, %zu improved, %zu unchanged, %zu noisy%s",
                 counts[QQB_REGRESSED], counts[QQB_IMPROVED], counts[QQB_UNCHANGED],
                 counts[QQB_NOISY], blind);
    struct qqb_count nc, nk;
    fprintf(fp,
            "qqbench: %s in %.1f s; vs baseline: %s; A/B: %zu slower, %zu faster, %zu same, "
            "%zu noisy; memory: %zu regressed, %zu improved; %s%s\n",
            qqb_count(&nc, res->ncases, "case"), r->elapsed, vsbase, ab[QQB_REGRESSED],
            ab[QQB_IMPROVED], ab[QQB_UNCHANGED], ab[QQB_NOISY], memreg, memimp,
            qqb_count(&nk, r->kernel_failures, "kernel failure"), memexit);
    print_count_summary(fp, j);
    if (r->models && r->models->n)
        fprintf(fp, "qqbench: models: %zu series fitted, %zu changed growth%s\n",
                r->models->n - r->models->unfitted, r->models->regressed,
                r->models->regressed ? " (a regression)" : "");
    return 0;
}

const struct qqb_reporter qqb_text_reporter = {"text", text_emit};

void qqb_report_print(FILE *fp, const struct qqb_report *r)
{
    qqb_text_reporter.emit(fp, r);
}
