/* report.c - report: print the verdict table; write JSON (jansson) and JUnit XML. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "atomic.h"
#include "history.h"

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

/* "45.3k cyc 21.6 us": the same format in every row of a column. */
static void fmt_cyc(char *buf, size_t len, double ticks, double mhz)
{
    char c[32];
    double ns = ns_of(ticks, mhz);
    const char *u = "ns";
    if (ns >= 1e6) {
        ns /= 1e6;
        u = "ms";
    } else if (ns >= 1e3) {
        ns /= 1e3;
        u = "us";
    }
    qqb_fmt_count(c, sizeof c, ticks);
    if (isfinite(ns))
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
        fprintf(fp, "\nAgainst the baseline%s; cycles per interval\n\n",
                r->baseline_other ? " OF ANOTHER MACHINE" : "");
    fprintf(fp, "%-*s  %-*s  %-22s %-22s %8s  %-19s %9s  %s\n", wc, "case", wk, "key",
            ab ? "reference" : "baseline", "current", "change", "interval", "threshold", "verdict");
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *c = &j->cmp[i];
        if (c->ab != ab)
            continue;
        char b[64], cu[64], iv[64], ch[32], th[32];
        fmt_cyc(b, sizeof b, c->base_median, c->base_mhz);
        fmt_cyc(cu, sizeof cu, c->cur_median, c->mhz);
        if (c->ch.status == QQB_CHANGE_OK) {
            snprintf(ch, sizeof ch, "%+.2f%%", c->ch.pct);
            snprintf(iv, sizeof iv, "[%+.2f, %+.2f]%s", c->ch.lo, c->ch.hi, c->ch.ci_ok ? "" : "*");
        } else {
            snprintf(ch, sizeof ch, "n/a");
            snprintf(iv, sizeof iv, "(too few)");
        }
        snprintf(th, sizeof th, "%.1f%%%s", c->threshold,
                 c->threshold_from == QQB_THR_BOUNDED ? "^"
                 : c->threshold_from == QQB_THR_RUNS  ? "r"
                 : c->threshold_from == QQB_THR_NOISE ? "n"
                                                      : " ");
        fprintf(fp, "%-*.*s  %-*.*s  %-22s %-22s %8s  %-19s %9s  %s%s", wc, wc, c->case_name, wk,
                wk, c->key, b, cu, ch, iv, th, verdict_text(c),
                ab == QQB_CMP_BUILD ? " vs reference build" : "");
        if (c->confirmed == 1)
            fprintf(fp, " (confirmed: %+.2f%%)", c->confirm_pct);
        else if (c->why[0])
            fprintf(fp, " (%s)", c->why);
        if (c->machine == QQB_MC_SKIPPED)
            fprintf(fp, " [machine check skipped: %s]", c->machine_why);
        if (c->ab && c->npairs < c->rounds)
            fprintf(fp, " [%zu of %zu rounds paired]", c->npairs, c->rounds);
        if (c->command_differs)
            fprintf(fp, " [command line differs from the baseline's]");
        fprintf(fp, "\n");
    }
}

static void print_legend(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    if (j->ncmp == 0)
        return;
    double conf = j->ncmp ? j->cmp[0].ch.confidence : 0.95;
    double bound = QQB_THRESHOLD_BOUND; /* the suite's, as a bounded row shows it */
    for (size_t i = 0; i < j->ncmp; i++)
        if (j->cmp[i].threshold_from == QQB_THR_BOUNDED)
            bound = j->cmp[i].threshold;
    fprintf(fp,
            "\nchange: Hodges-Lehmann estimate (A/B: median pair ratio); interval: "
            "%.0f%% confidence",
            100.0 * (isfinite(conf) ? conf : 0.95));
    if (j->family > 1)
        fprintf(fp,
                " per comparison; a baseline verdict must also hold after Holm's "
                "correction over the %zu baseline comparisons (family-wise %.0f%%)",
                j->family, 100.0 * (1.0 - j->family_alpha));
    fprintf(fp,
            ".\n* = too few launches for that confidence: the widest interval, "
            "always noisy.\nthreshold: n = noise_multiple x the key's "
            "launch-to-launch noise, r = the baseline's run-to-run bound, "
            "^ = held at the %.0f%% bound; blank = the benchmark's threshold.\n"
            "noisy: the interval straddles a threshold; the note says by how much "
            "and how many launches would decide.\n"
            "cycles are net of QQ's own reads (the empty state each launch "
            "calibrates); unresolved: both figures within the counter's "
            "resolution (half a counter step) of zero, where no change can be seen.\n",
            bound);
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

static void print_mem(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *j = r->j;
    if (j->nmem == 0)
        return;
    fprintf(fp, "\nMemory per key (bytes live = objects + allocations; peak; "
                "object size; objects created)\n\n");
    fprintf(fp, "%-32s %-16s %-24s %-24s %-14s %-20s %s\n", "case", "key", "live", "peak",
            "object size", "created", "verdict");
    for (size_t i = 0; i < j->nmem; i++) {
        const struct qqb_memcmp *m = &j->mem[i];
        char live[64], peak[64], cr[64], sz[48];
        unsigned long long bl = (unsigned long long)m->base.obj_bytes +
                                (unsigned long long)m->base.alloc_bytes,
                           cl = (unsigned long long)m->cur.obj_bytes +
                                (unsigned long long)m->cur.alloc_bytes;
        snprintf(live, sizeof live, "%llu -> %llu", bl, cl);
        snprintf(peak, sizeof peak, "%llu -> %llu", (unsigned long long)m->base.peak_bytes,
                 (unsigned long long)m->cur.peak_bytes);
        snprintf(sz, sizeof sz, "%llu -> %llu", (unsigned long long)m->base.obj_size,
                 (unsigned long long)m->cur.obj_size);
        snprintf(cr, sizeof cr, "%llu -> %llu", (unsigned long long)m->base.created,
                 (unsigned long long)m->cur.created);
        int gate = m->ab != QQB_CMP_VARIANT; /* baseline and build rows gate */
        const char *v = m->verdict > 0   ? (gate ? "regressed" : "more")
                        : m->verdict < 0 ? (gate ? "improved" : "less")
                                         : "counts changed";
        fprintf(fp, "%-32.32s %-16.16s %-24s %-24s %-14s %-20s %s", m->case_name, m->key, live,
                peak, sz, cr, v);
        if (cl != bl)
            fprintf(fp, " (%+lld bytes live%s", (long long)(cl - bl), bl ? "" : ")");
        if (cl != bl && bl)
            fprintf(fp, ", %+.1f%%)", 100.0 * ((double)cl / (double)bl - 1.0));
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
                fprintf(fp, "\nMeasured (no baseline to compare with): median over "
                            "launches\n\n");
                fprintf(fp, "%-32s %-20s %-22s %8s %9s %s\n", "case", "key", "cycles per interval",
                        "noise", "launches", "events/launch");
                header = 1;
            }
            const struct qqb_metric *h = qqb_case_find_metric(c, mt->key, "hits");
            char cyc[64], noise[32], ev[32];
            fmt_cyc(cyc, sizeof cyc, qqb_median(mt->samples, mt->n), c->mhz);
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
    if (r->baseline_path && j->one_run_cases)
        fprintf(fp,
                "WARNING: the baseline holds one run for %zu case%s: its "
                "run-to-run noise is unknown, so a slow or fast period during that "
                "one run reads as a change. Add runs with --update-baseline.\n",
                j->one_run_cases, j->one_run_cases == 1 ? "" : "s");
    if (j->missing_ref)
        fprintf(fp,
                "NOTE: the machine check was skipped for %zu comparison%s "
                "(see the rows).\n",
                j->missing_ref, j->missing_ref == 1 ? "" : "s");
    if (j->command_changed)
        fprintf(fp,
                "WARNING: %zu case%s ran another command line than the baseline's: "
                "those comparisons are not like for like.\n",
                j->command_changed, j->command_changed == 1 ? "" : "s");
    if (r->confirmed_run)
        fprintf(fp, "A confirmation run re-measured the regressed cases; only "
                    "regressions that held count.\n");
    if (counts[QQB_NOISY])
        fprintf(fp, "%zu baseline comparison%s noisy: %s.\n", counts[QQB_NOISY],
                counts[QQB_NOISY] == 1 ? " is" : "s are",
                r->fail_on_noisy ? "they fail the run (--fail-on-noisy)"
                                 : "they pass; --fail-on-noisy makes them fail");
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
                "%zu unchanged, %zu noisy\n",
                bu[QQB_REGRESSED], bu[QQB_IMPROVED], bu[QQB_UNCHANGED], bu[QQB_NOISY]);
    if (r->no_baseline_summary)
        fprintf(fp, "qqbench: %s\n", r->no_baseline_summary);
    fprintf(fp,
            "qqbench: %zu cases in %.1f s; vs baseline: %zu regressed, %zu improved, "
            "%zu unchanged, %zu noisy; A/B: %zu slower, %zu faster, %zu same, "
            "%zu noisy; memory: %zu regressed, %zu improved; %zu kernel failure%s\n",
            res->ncases, r->elapsed, counts[QQB_REGRESSED], counts[QQB_IMPROVED],
            counts[QQB_UNCHANGED], counts[QQB_NOISY], ab[QQB_REGRESSED], ab[QQB_IMPROVED],
            ab[QQB_UNCHANGED], ab[QQB_NOISY], memreg, memimp, r->kernel_failures,
            r->kernel_failures == 1 ? "" : "s");
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

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}
static json_t *jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *jarr(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, jnum(v[i]));
    return a;
}

static json_t *jmem(const struct qqb_mem *m)
{
    return json_pack("{s:s?, s:I, s:I, s:I, s:I, s:I, s:I}", "key", m->key, "obj_size",
                     (json_int_t)m->obj_size, "created", (json_int_t)m->created, "deleted",
                     (json_int_t)m->deleted, "obj_bytes", (json_int_t)m->obj_bytes, "alloc_bytes",
                     (json_int_t)m->alloc_bytes, "peak_bytes", (json_int_t)m->peak_bytes);
}

int qqb_report_json(const char *path, const struct qqb_report *r, char *err, size_t errlen)
{
    const struct qqb_results *res = r->results;
    json_t *root = json_object();
    json_object_set_new(root, "suite", jstr(r->suite));
    json_object_set_new(root, "date", jstr(res->date));
    json_object_set_new(root, "qqbench_version", jstr(res->version));
    json_object_set_new(root, "git_commit", jstr(res->commit));
    json_object_set_new(root, "baseline", jstr(r->baseline_path));
    json_object_set_new(root, "baseline_other_machine", json_boolean(r->baseline_other));
    json_object_set_new(root, "against", jstr(r->against));
    json_object_set_new(root, "memory_baseline", jstr(r->memory_baseline_path));
    json_object_set_new(root, "gated_note", jstr(r->no_baseline_summary));
    json_object_set_new(root, "fingerprint",
                        json_pack("{s:s, s:s, s:f, s:b, s:i, s:s, s:s}", "id", res->fp.id, "cpu",
                                  res->fp.cpu, "tick_mhz", res->fp.mhz, "invariant",
                                  res->fp.invariant, "cores", res->fp.cores, "compiler",
                                  res->fp.compiler, "flags", res->fp.flags));
    json_t *cases = json_array();
    for (size_t i = 0; i < res->ncases; i++) {
        const struct qqb_case_result *c = res->cases[i];
        json_t *jc = json_object();
        json_object_set_new(jc, "name", jstr(c->name));
        json_object_set_new(jc, "bench", jstr(c->bench));
        json_object_set_new(jc, "variant", jstr(c->variant));
        json_object_set_new(jc, "point", jstr(c->point));
        json_object_set_new(jc, "nodes", json_integer(c->nodes));
        json_object_set_new(jc, "tick_mhz", jnum(c->mhz));
        json_object_set_new(jc, "launches", json_integer((json_int_t)c->launches));
        json_t *cmd = json_array();
        for (size_t k = 0; c->command && c->command[k]; k++)
            json_array_append_new(cmd, json_string(c->command[k]));
        json_object_set_new(jc, "command", cmd);
        json_object_set_new(jc, "failed", json_boolean(c->failures > 0));
        json_object_set_new(jc, "note", jstr(c->failure));
        json_t *ms = json_array();
        for (size_t m = 0; m < c->nmetrics; m++) {
            const struct qqb_metric *mt = &c->metrics[m];
            json_t *jm = json_object();
            json_object_set_new(jm, "key", jstr(mt->key));
            json_object_set_new(jm, "what", jstr(mt->what));
            json_object_set_new(jm, "median", jnum(qqb_median(mt->samples, mt->n)));
            json_object_set_new(jm, "mad", jnum(qqb_mad_scaled(mt->samples, mt->n)));
            json_object_set_new(jm, "min", jnum(qqb_min(mt->samples, mt->n)));
            json_object_set_new(jm, "noise_pct", jnum(qqb_noise_pct(mt->samples, mt->n)));
            json_object_set_new(jm, "samples", jarr(mt->samples, mt->n));
            json_array_append_new(ms, jm);
        }
        json_object_set_new(jc, "metrics", ms);
        json_t *mem = json_array();
        for (size_t m = 0; m < c->nmem; m++)
            json_array_append_new(mem, jmem(&c->mem[m]));
        json_object_set_new(jc, "memory", mem);
        json_array_append_new(cases, jc);
    }
    json_object_set_new(root, "cases", cases);
    json_t *cmps = json_array();
    const struct qqb_judgement *jd = r->j;
    for (size_t i = 0; i < jd->ncmp; i++) {
        const struct qqb_cmp *c = &jd->cmp[i];
        json_t *j = json_object();
        json_object_set_new(j, "case", jstr(c->case_name));
        json_object_set_new(j, "key", jstr(c->key));
        json_object_set_new(j, "kind", json_string(kind_name(c->ab)));
        json_object_set_new(j, "reference", jstr(c->ref_name));
        json_object_set_new(j, "paired", json_boolean(c->paired));
        json_object_set_new(j, "noisy_runs", json_integer(c->noisy_runs));
        json_object_set_new(j, "baseline_cycles_per_hit", jnum(c->base_median));
        json_object_set_new(j, "current_cycles_per_hit", jnum(c->cur_median));
        json_object_set_new(j, "baseline_ns_per_hit", jnum(ns_of(c->base_median, c->base_mhz)));
        json_object_set_new(j, "current_ns_per_hit", jnum(ns_of(c->cur_median, c->mhz)));
        json_object_set_new(j, "change_pct", jnum(c->ch.pct));
        json_object_set_new(j, "interval_lo_pct", jnum(c->ch.lo));
        json_object_set_new(j, "interval_hi_pct", jnum(c->ch.hi));
        json_object_set_new(j, "interval_ok", json_boolean(c->ch.ci_ok));
        json_object_set_new(j, "confidence", jnum(c->ch.confidence));
        json_object_set_new(j, "p_value", jnum(c->ch.p_value));
        json_object_set_new(j, "threshold_pct", jnum(c->threshold));
        json_object_set_new(j, "threshold_from",
                            json_string(qqb_threshold_from_name(c->threshold_from)));
        json_object_set_new(j, "noise_pct", jnum(c->noise_pct));
        json_object_set_new(j, "noise_from", jstr(c->noise_from));
        json_object_set_new(j, "baseline_runs", json_integer((json_int_t)c->base_runs));
        json_object_set_new(j, "run_to_run_pct", jnum(c->run_pct));
        json_object_set_new(j, "run_bound_pct", jnum(c->run_bound_pct));
        json_object_set_new(j, "pairs", json_integer((json_int_t)c->npairs));
        json_object_set_new(j, "rounds", json_integer((json_int_t)c->rounds));
        json_object_set_new(j, "verdict_alone", json_string(qqb_verdict_name(c->alone)));
        json_object_set_new(j, "level", jnum(c->level));
        json_object_set_new(j, "holm", c->holm_held < 0 ? json_null() : json_boolean(c->holm_held));
        json_object_set_new(j, "machine_check", json_string(qqb_machine_check_name(c->machine)));
        json_object_set_new(j, "machine_check_note", jstr(c->machine_why));
        json_object_set_new(j, "command_differs", json_boolean(c->command_differs));
        json_object_set_new(j, "why", c->why[0] ? json_string(c->why) : json_null());
        json_object_set_new(j, "counter_step_ticks",
                            c->step > 0 ? json_real(c->step) : json_null());
        json_object_set_new(j, "figures_below_resolution", json_integer(c->below_step));
        json_object_set_new(j, "dropped_events", json_real(c->dropped));
        json_object_set_new(j, "machine_change_pct", jnum(c->machine_pct));
        json_object_set_new(j, "normalized_change_pct", jnum(c->norm_pct));
        json_object_set_new(j, "machine_moved", json_boolean(c->machine == QQB_MC_MOVED));
        json_object_set_new(j, "verdict", json_string(verdict_text(c)));
        json_object_set_new(j, "confirmed",
                            c->confirmed < 0 ? json_null() : json_boolean(c->confirmed));
        json_array_append_new(cmps, j);
    }
    json_object_set_new(root, "comparisons", cmps);
    json_t *mems = json_array();
    for (size_t i = 0; i < jd->nmem; i++) {
        const struct qqb_memcmp *m = &jd->mem[i];
        json_array_append_new(mems, json_pack("{s:s, s:s, s:s, s:s?, s:o, s:o, s:i}", "case",
                                              m->case_name, "key", m->key, "kind", kind_name(m->ab),
                                              "reference", m->ref_name, "before", jmem(&m->base),
                                              "after", jmem(&m->cur), "verdict", m->verdict));
    }
    json_object_set_new(root, "memory_changes", mems);
    if (r->models)
        json_object_set_new(root, "models", qqb_model_judgement_json(r->models));
    if (r->sigs) {
        json_object_set_new(root, "signatures", qqb_sig_judgement_json(r->sigs));
        if (r->sigs->profile)
            json_object_set_new(root, "profile", qqb_profile_json(r->sigs->profile));
        if (r->sigs->base_profile)
            json_object_set_new(root, "baseline_profile", qqb_profile_json(r->sigs->base_profile));
    }
    json_object_set_new(root, "kernel_failures", json_integer((json_int_t)r->kernel_failures));
    json_object_set_new(root, "family_size", json_integer((json_int_t)jd->family));
    json_object_set_new(root, "round_order_seed",
                        json_integer((json_int_t)(r->seed & 0x7fffffffffffffffull)));
    json_object_set_new(root, "exit_code", json_integer(r->exit_code));
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(root);
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
                        (r->fail_on_noisy && jd->cmp[i].verdict == QQB_NOISY);
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
        if (c->verdict == QQB_REGRESSED) {
            fprintf(fp,
                    "<failure message=\"regressed%s %+.2f%% [%+.2f, %+.2f] "
                    "(threshold %.2f%%)\"/>",
                    vs, c->ch.pct, c->ch.lo, c->ch.hi, c->threshold);
        } else if (r->fail_on_noisy && c->verdict == QQB_NOISY) {
            fprintf(fp, "<failure message=\"noisy (--fail-on-noisy): ");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "\"/>");
        } else {
            fprintf(fp, "<system-out>%s%s %+.2f%%</system-out>", verdict_text(c), vs, c->ch.pct);
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
