/* report.c - report: print the verdict table; write JSON (jansson) and JUnit XML. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "runlevel.h"
#include "atomic.h"
#include "history.h"
#include "run_json.h"
#include "words.h"

static double ns_of(double ticks, double mhz)
{
    return mhz > 0 ? ticks * 1000.0 / mhz : NAN;
}

void qqb_fmt_count(char *buf, size_t len, double v)
{
    static const char *const suffix[] = {"", "k", "M", "G", "T"};
    int i = 0;
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    while (fabs(v) >= 999.95 && i < 4) {
        v /= 1000.0;
        i++;
    }
    snprintf(buf, len, "%.1f%s", v, suffix[i]);
}

/* "12.3", "4567", "1.2e+04": three or four significant digits. */
void qqb_fmt_sig(char *buf, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (fabs(v) >= 100)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

void qqb_fmt_cycles(char *buf, size_t len, double ticks, double mhz, enum qqb_cyc_style style)
{
    char c[32];
    if (style == QQB_CYC_PROSE && !isfinite(ticks)) {
        snprintf(buf, len, "-");
        return;
    }
    if (style == QQB_CYC_PROSE)
        qqb_fmt_sig(c, sizeof c, ticks);
    else
        qqb_fmt_count(c, sizeof c, ticks);
    double ns = ns_of(ticks, mhz);
    const char *u = "ns";
    if (ns >= 1e6) {
        ns /= 1e6;
        u = "ms";
    } else if (ns >= 1e3) {
        ns /= 1e3;
        u = style == QQB_CYC_PROSE ? "\xc2\xb5s" : "us";
    }
    if (style == QQB_CYC_PROSE && mhz > 0)
        snprintf(buf, len, "%s cyc (%.3g %s)", c, ns, u);
    else if (style == QQB_CYC_PROSE)
        snprintf(buf, len, "%s cyc", c);
    else if (isfinite(ns))
        snprintf(buf, len, "%7s cyc %6.1f %s", c, ns, u);
    else
        snprintf(buf, len, "%7s cyc", c);
}

static const char *verdict_text(const struct qqb_cmp *c)
{
    return qqb_verdict_name(c->verdict);
}

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
                wk, c->key, b, cu, ch, iv, th, verdict_text(c),
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
                    qqb_signed(&sk, c->count_cur / c->count_base * c->ch.pct, 1));
        fprintf(fp, "\n");
    }
}

static void print_legend(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    if (j->ncmp == 0)
        return;
    double conf = j->ncmp ? j->cmp[0].ch.confidence : 0.95;
    fprintf(fp,
            "\nchange: against the baseline, this run's figure against its runs' (two "
            "levels: launch and run noise)%s; A/B: the median pair ratio; interval: "
            "%.0f%% confidence",
            j->by_reference ? ", each launch per the machine reference timed just before it" : "",
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

const char *qqb_mem_verdict_word(int verdict, int gates)
{
    return verdict > 0   ? (gates ? "regressed" : "more")
           : verdict < 0 ? (gates ? "improved" : "less")
                         : "counts changed";
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
        fprintf(fp, "%-32.32s %-16.16s %-24s %-24s %-14s %-20s %s", m->case_name, m->key, live,
                peak, sz, cr, v);
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
 * run (or a run whose other cases failed) still shows what it measured. */
static void print_measured(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *j = r->j;
    int header = 0;
    for (size_t i = 0; i < res->ncases; i++) {
        const struct qqb_case_result *c = res->cases[i];
        int compared = 0;
        for (size_t k = 0; k < j->ncmp && !compared; k++)
            compared = (!j->cmp[k].ab && j->cmp[k].case_idx == i) ||
                       (j->cmp[k].ab == QQB_CMP_BUILD &&
                        (j->cmp[k].case_idx == i || j->cmp[k].ref_idx == i));
        if (compared || c->launches == 0)
            continue;
        for (size_t m = 0; m < c->nmetrics; m++) {
            const struct qqb_metric *mt = &c->metrics[m];
            if (strcmp(mt->what, QQB_VERDICT_METRIC))
                continue;
            if (!header) {
                fprintf(fp, "\nMeasured (not compared with a baseline: none, or one of too "
                            "few runs): median over launches\n\n");
                fprintf(fp, "%-32s %-20s %-22s %8s %9s %s\n", "case", "key", "cycles per interval",
                        "noise", "launches", "events/launch");
                header = 1;
            }
            const struct qqb_metric *h = qqb_case_find_metric(c, mt->key, "hits");
            char cyc[64], noise[32], ev[32];
            qqb_fmt_cycles(cyc, sizeof cyc, qqb_median(mt->samples, mt->n), c->mhz, QQB_CYC_COLUMN);
            double nz = qqb_noise_pct(mt->samples, mt->n);
            if (isfinite(nz))
                snprintf(noise, sizeof noise, "%.2f%%", nz);
            else
                snprintf(noise, sizeof noise, "-");
            qqb_fmt_count(ev, sizeof ev, h ? qqb_median(h->samples, h->n) : NAN);
            fprintf(fp, "%-32.32s %-20.20s %-22s %8s %9zu %s\n", c->name, mt->key, cyc, noise,
                    mt->n, ev);
        }
    }
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

void qqb_report_print(FILE *fp, const struct qqb_report *r)
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
    print_legend(fp, r);
    print_measured(fp, r);
    print_mem(fp, r);
    if (r->models)
        qqb_model_judgement_print(fp, r->models);
    if (r->sigs)
        qqb_sig_judgement_print(fp, r->sigs);

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
     * as a comparison made), "none". */
    char vsbase[160] = "none";
    if (r->baseline_path)
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
    if (r->models && r->models->n)
        fprintf(fp, "qqbench: models: %zu series fitted, %zu changed growth%s\n",
                r->models->n - r->models->unfitted, r->models->regressed,
                r->models->regressed ? " (a regression)" : "");
}

/* ---------------------------------------------------------------------
 * JSON.
 * --------------------------------------------------------------------- */

static const char *kind_name(int ab)
{
    return ab == QQB_CMP_BUILD ? "build" : ab ? "ab" : "baseline";
}

static struct qqb_run_mem run_mem(const struct qqb_mem *m)
{
    return (struct qqb_run_mem){m->key,
                                (long long)(json_int_t)m->obj_size,
                                (long long)(json_int_t)m->created,
                                (long long)(json_int_t)m->deleted,
                                (long long)(json_int_t)m->obj_bytes,
                                (long long)(json_int_t)m->alloc_bytes,
                                (long long)(json_int_t)m->peak_bytes,
                                m->peak_gap ? (double)(m->peak_bytes - m->peak_gap) : NAN};
}

/* The NULL-ended strings V as the run JSON's borrowed array *OUT, *N
 * (left NULL when V is). 0 or -1. */
static int run_strv(char *const *v, const char ***out, size_t *n)
{
    *n = 0;
    if (!v)
        return 0;
    while (v[*n])
        (*n)++;
    *out = calloc(*n + 1, sizeof **out);
    if (!*out)
        return -1;
    for (size_t k = 0; k < *n; k++)
        (*out)[k] = v[k];
    return 0;
}

/* Metric MT as the run JSON has it: its summaries and samples (copied). */
static int run_metric(const struct qqb_metric *mt, struct qqb_run_metric *om)
{
    *om = (struct qqb_run_metric){.key = mt->key,
                                  .what = mt->what,
                                  .median = qqb_median(mt->samples, mt->n),
                                  .mad = qqb_mad_scaled(mt->samples, mt->n),
                                  .min = qqb_min(mt->samples, mt->n),
                                  .noise_pct = qqb_noise_pct(mt->samples, mt->n)};
    om->samples = malloc((mt->n + 1) * sizeof *om->samples);
    if (!om->samples)
        return -1;
    if (mt->n)
        memcpy(om->samples, mt->samples, mt->n * sizeof *om->samples);
    om->n_samples = mt->n;
    return 0;
}

/* The per-thread rows of a threaded case (docs/THREADS.md); none for a
 * case whose launches had one thread per node. */
static int run_threads(const struct qqb_case_result *c, struct qqb_run_case *o)
{
    if (c->nthreads == 0)
        return 0;
    o->threads = calloc(c->nthreads, sizeof *o->threads);
    if (!o->threads)
        return -1;
    for (size_t i = 0; i < c->nthreads; i++) {
        const struct qqb_thread_row *t = &c->threads[i];
        struct qqb_run_thread *ot = &o->threads[o->n_threads++];
        *ot = (struct qqb_run_thread){.node = t->node,
                                      .thread = t->index,
                                      .tid = (long long)(json_int_t)t->tid,
                                      .name = t->name,
                                      .events = (long long)(json_int_t)t->events,
                                      .dropped = (long long)(json_int_t)t->dropped};
        ot->metrics = calloc(t->nmetrics + 1, sizeof *ot->metrics);
        if (!ot->metrics)
            return -1;
        for (size_t m = 0; m < t->nmetrics; m++)
            if (run_metric(&t->metrics[m], &ot->metrics[ot->n_metrics++]) != 0)
                return -1;
    }
    return 0;
}

/* Case C of the results as the run JSON has it: its summaries computed. */
static int run_case(const struct qqb_case_result *c, struct qqb_run_case *o)
{
    *o = (struct qqb_run_case){.name = c->name,
                               .bench = c->bench,
                               .variant = c->variant,
                               .point = c->point,
                               .nodes = c->nodes,
                               .tick_mhz = c->mhz,
                               .launches = (long long)(json_int_t)c->launches,
                               .failed = c->failures > 0,
                               .note = c->failure,
                               .build_id = c->build.id};
    for (size_t k = 0; c->command && c->command[k]; k++)
        o->n_command++;
    o->command = calloc(o->n_command + 1, sizeof *o->command);
    o->metrics = calloc(c->nmetrics + 1, sizeof *o->metrics);
    o->memory = calloc(c->nmem + 1, sizeof *o->memory);
    if (!o->command || !o->metrics || !o->memory)
        return -1;
    for (size_t k = 0; k < o->n_command; k++)
        o->command[k] = c->command[k];
    if (run_strv(c->build.compiler, &o->compiler, &o->n_compiler) != 0 ||
        run_strv(c->build.producer, &o->producer, &o->n_producer) != 0)
        return -1;
    for (size_t m = 0; m < c->nmetrics; m++)
        if (run_metric(&c->metrics[m], &o->metrics[o->n_metrics++]) != 0)
            return -1;
    for (size_t m = 0; m < c->nmem; m++)
        o->memory[o->n_memory++] = run_mem(&c->mem[m]);
    return run_threads(c, o);
}

static struct qqb_run_cmp run_cmp(const struct qqb_cmp *c)
{
    return (struct qqb_run_cmp){
        .case_name = c->case_name,
        .key = c->key,
        .kind = kind_name(c->ab),
        .reference = c->ref_name,
        .paired = c->paired,
        .noisy_runs = c->noisy_runs,
        .baseline_cycles = c->base_median,
        .current_cycles = c->cur_median,
        .baseline_ns = ns_of(c->base_median, c->base_mhz),
        .current_ns = ns_of(c->cur_median, c->mhz),
        .change_pct = c->ch.pct,
        .lo_pct = c->ch.lo,
        .hi_pct = c->ch.hi,
        .interval_ok = c->ch.ci_ok,
        .confidence = c->ch.confidence,
        .p_value = c->p_value,
        .threshold_pct = c->threshold,
        .threshold_from = qqb_threshold_from_name(c->threshold_from),
        .mde = c->mde_pct > 0 ? c->mde_pct : NAN, /* > the threshold where known */
        .noise_pct = c->noise_pct,
        .noise_from = c->noise_from,
        .baseline_runs = (long long)(json_int_t)c->base_runs,
        .run_to_run_pct = c->run_pct,
        .run_bound_pct = c->run_bound_pct,
        .pairs = (long long)(json_int_t)c->npairs,
        .rounds = (long long)(json_int_t)c->rounds,
        .verdict_alone = qqb_verdict_name(c->alone),
        .level = c->level,
        .holm = c->holm_held < 0 ? -1 : c->holm_held,
        .machine_check = qqb_machine_check_name(c->machine),
        .machine_check_note = c->machine_why,
        .command_differs = c->command_differs,
        .why = c->why[0] ? c->why : NULL,
        .seen_by = c->seen_by,
        .counter_step = c->step > 0 ? c->step : NAN,
        .below_resolution = c->below_step,
        .dropped_events = c->dropped,
        .machine_pct = c->machine_pct,
        .norm_pct = c->norm_pct,
        .machine_moved = c->machine == QQB_MC_MOVED,
        .verdict = verdict_text(c),
        .look = (long long)(json_int_t)c->look,
        .looks = (long long)(json_int_t)c->looks,
        .plan_launches = (long long)(json_int_t)c->plan_launches,
        .need_launches = (long long)(json_int_t)c->need_launches,
        .need_runs = (long long)(json_int_t)c->need_runs,
        .count_base = c->count_base,
        .count_cur = c->count_cur,
        .count_pct = c->count_pct,
        .cost_part_pct = isfinite(c->count_pct) ? c->count_cur / c->count_base * c->ch.pct : NAN,
        .note = NULL,
        .reason = NULL,
        .baseline_samples = NULL,
        .n_baseline_samples = 0};
}

/* The run JSON's header: suite, provenance, machine. */
static void run_head(const struct qqb_report *r, struct qqb_run *o)
{
    const struct qqb_results *res = r->results;
    o->suite = r->suite;
    o->date = res->date;
    o->version = res->version;
    o->commit = res->commit;
    o->baseline = r->baseline_path;
    o->baseline_other = r->baseline_other;
    o->baseline_other_build = r->baseline_other_build;
    o->against = r->against;
    o->memory_baseline = r->memory_baseline_path;
    o->gated_note = r->no_baseline_summary;
    o->fingerprint =
        (struct qqb_run_fp){res->fp.id,    res->fp.cpu,      res->fp.mhz,  res->fp.invariant,
                            res->fp.cores, res->fp.compiler, res->fp.flags};
    o->has_fingerprint = 1;
    o->kernel_failures = (long long)(json_int_t)r->kernel_failures;
    o->family_size = (long long)(json_int_t)r->j->family;
    o->round_order_seed = (long long)(json_int_t)(r->seed & 0x7fffffffffffffffull);
    o->passes = r->passes > 0 ? r->passes : 1;
    if (r->baseline_path && r->j->ref_rows) {
        o->run_figure = r->j->by_reference ? "per machine reference" : "as measured";
        o->reference_ratio = r->j->ref_ratio;
    } else {
        o->reference_ratio = NAN;
    }
    o->exit_code = r->exit_code;
}

/* R as the run JSON's structs (run_json.h): arrays owned, strings and
 * JSON parts borrowed or new (released by the caller). 0 or -1. */
static int run_of_report(const struct qqb_report *r, struct qqb_run *o)
{
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *jd = r->j;
    memset(o, 0, sizeof *o);
    run_head(r, o);
    o->cases = calloc(res->ncases + 1, sizeof *o->cases);
    o->comparisons = calloc(jd->ncmp + 1, sizeof *o->comparisons);
    o->memory_changes = calloc(jd->nmem + 1, sizeof *o->memory_changes);
    if (!o->cases || !o->comparisons || !o->memory_changes)
        return -1;
    for (size_t i = 0; i < res->ncases; i++)
        if (run_case(res->cases[i], &o->cases[o->n_cases++]) != 0)
            return -1;
    for (size_t i = 0; i < jd->ncmp; i++)
        o->comparisons[o->n_comparisons++] = run_cmp(&jd->cmp[i]);
    for (size_t i = 0; i < jd->nmem; i++) {
        const struct qqb_memcmp *m = &jd->mem[i];
        o->memory_changes[o->n_memory_changes++] = (struct qqb_run_memchg){
            m->case_name,     m->key, kind_name(m->ab), m->ref_name, run_mem(&m->base), 1,
            run_mem(&m->cur), 1,      m->verdict,       !m->moved};
    }
    if (r->models)
        o->models = qqb_model_judgement_json(r->models);
    if (r->sigs) {
        o->signatures = qqb_sig_judgement_json(r->sigs);
        if (r->sigs->profile)
            o->profile = qqb_profile_json(r->sigs->profile);
        if (r->sigs->base_profile)
            o->baseline_profile = qqb_profile_json(r->sigs->base_profile);
    }
    return 0;
}

int qqb_report_json(const char *path, const struct qqb_report *r, char *err, size_t errlen)
{
    struct qqb_run run;
    char *text = run_of_report(r, &run) == 0 ? qqb_run_dumps(&run) : NULL;
    json_t *parts[] = {run.models, run.signatures, run.profile, run.baseline_profile};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        json_decref(parts[i]);
    qqb_run_free(&run);
    if (!text) {
        snprintf(err, errlen, "%s: error: cannot write the JSON report: out of memory", path);
        return -1;
    }
    /* Whole or not at all: a full disk leaves the old report, never half. */
    char why[512];
    size_t len = strlen(text);
    int rc = qqb_write_atomic(path, text, len, why, sizeof why);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "%s: error: cannot write the JSON report: %s", path, why);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------
 * JUnit XML.
 * --------------------------------------------------------------------- */

void qqb_markup_text(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", fp);
            break;
        case '>':
            fputs("&gt;", fp);
            break;
        case '&':
            fputs("&amp;", fp);
            break;
        case '"':
            fputs("&quot;", fp);
            break;
        case '\'':
            fputs("&#39;", fp); /* HTML has no &apos; before HTML5; both read this */
            break;
        default:
            /* Control characters are not allowed in XML 1.0. */
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
                fputc('?', fp);
            else
                fputc(*s, fp);
        }
    }
}

void qqb_markup_href(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.')
            fputc(c, fp);
        else
            fprintf(fp, "%%%02X", c);
    }
}

/* A blind row that fails the run: --fail-on-blind, or its benchmark's
 * fail_on_blind: true. */
static int blind_fails(const struct qqb_report *r, const struct qqb_cmp *c)
{
    return c->verdict == QQB_BLIND && (r->fail_on_blind || c->blind_fails);
}

int qqb_report_junit(const char *path, const struct qqb_report *r, char *err, size_t errlen)
{
    /* Made in memory, then written whole or not at all (atomic.h). */
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp) {
        snprintf(err, errlen, "%s: error: cannot write the JUnit report: out of memory", path);
        return -1;
    }
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *jd = r->j;
    size_t tests = 0, failures = 0;
    for (size_t i = 0; i < jd->ncmp; i++)
        if (jd->cmp[i].ab != QQB_CMP_VARIANT) {
            tests++;
            failures += jd->cmp[i].verdict == QQB_REGRESSED ||
                        (r->fail_on_noisy && jd->cmp[i].verdict == QQB_NOISY) ||
                        blind_fails(r, &jd->cmp[i]);
        }
    for (size_t i = 0; i < jd->nmem; i++)
        if (jd->mem[i].ab != QQB_CMP_VARIANT) {
            tests++;
            failures += jd->mem[i].verdict > 0;
        }
    tests += r->kernel_failures;
    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(fp, "  <testsuite name=\"");
    qqb_markup_text(fp, r->suite);
    fprintf(fp, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", tests,
            failures, r->kernel_failures, r->elapsed);
    for (size_t i = 0; i < jd->ncmp; i++) {
        const struct qqb_cmp *c = &jd->cmp[i];
        if (c->ab == QQB_CMP_VARIANT)
            continue;
        const char *vs = c->ab == QQB_CMP_BUILD ? " vs reference build" : "";
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, c->case_name);
        fprintf(fp, "\" name=\"");
        qqb_markup_text(fp, c->key);
        fprintf(fp, "%s\">", vs);
        struct qqb_signed sp, sl, sh;
        if (c->verdict == QQB_REGRESSED) {
            fprintf(fp,
                    "<failure message=\"regressed%s %s%% [%s, %s] "
                    "(threshold %.1f%%)\"/>",
                    vs, qqb_signed(&sp, c->ch.pct, 2), qqb_signed(&sl, c->ch.lo, 2),
                    qqb_signed(&sh, c->ch.hi, 2), c->threshold);
        } else if (r->fail_on_noisy && c->verdict == QQB_NOISY) {
            fprintf(fp, "<failure message=\"noisy (--fail-on-noisy): ");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "\"/>");
        } else if (blind_fails(r, c)) {
            fprintf(fp, "<failure message=\"blind (%s): ",
                    r->fail_on_blind ? "--fail-on-blind" : "fail_on_blind: true");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "\"/>");
        } else {
            fprintf(fp, "<system-out>%s%s %s%s</system-out>", verdict_text(c), vs,
                    isfinite(c->ch.pct) ? qqb_signed(&sp, c->ch.pct, 2) : "n/a",
                    isfinite(c->ch.pct) ? "%" : "");
        }
        fprintf(fp, "</testcase>\n");
    }
    for (size_t i = 0; i < jd->nmem; i++) {
        const struct qqb_memcmp *m = &jd->mem[i];
        if (m->ab == QQB_CMP_VARIANT)
            continue;
        const char *vs = m->ab == QQB_CMP_BUILD ? " vs reference build" : "";
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, m->case_name);
        fprintf(fp, "\" name=\"memory:");
        qqb_markup_text(fp, m->key);
        fprintf(fp, "%s\">", vs);
        if (m->verdict > 0)
            fprintf(fp, "<failure message=\"memory regressed%s: live", vs);
        if (m->verdict > 0)
            fprintf(fp,
                    " %llu -> %llu, "
                    "peak %llu -> %llu bytes\"/>",
                    (unsigned long long)m->base.obj_bytes + (unsigned long long)m->base.alloc_bytes,
                    (unsigned long long)m->cur.obj_bytes + (unsigned long long)m->cur.alloc_bytes,
                    (unsigned long long)m->base.peak_bytes, (unsigned long long)m->cur.peak_bytes);
        fprintf(fp, "</testcase>\n");
    }
    for (size_t i = 0; i < res->ncases; i++) {
        const struct qqb_case_result *c = res->cases[i];
        if (!c->failures)
            continue;
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, c->name);
        fprintf(fp, "\" name=\"launch\"><error message=\"");
        qqb_markup_text(fp, c->failure);
        fprintf(fp, "\"/></testcase>\n");
    }
    fprintf(fp, "  </testsuite>\n</testsuites>\n");
    if (fclose(fp) != 0 || !text) {
        free(text);
        snprintf(err, errlen, "%s: error: cannot write the JUnit report: out of memory", path);
        return -1;
    }
    char why[512];
    int rc = qqb_write_atomic(path, text, len, why, sizeof why);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "%s: error: cannot write the JUnit report: %s", path, why);
        return -1;
    }
    return 0;
}
