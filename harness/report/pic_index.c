/* pic_index.c - the run report's index.html: the verdict tables and every picture. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild.h"
#include "plot.h"
#include "pic.h"
#include "pictures_model.h"
#include "words.h"

/* ======================================================================
 * index.html.
 * ====================================================================== */

/* Every string the page holds that this file does not spell out goes
 * through qqb_markup_text (text) or qqb_markup_href (a link), never %s. */

static void html_cmp_table(const struct rep *r, FILE *fp, const char *kind)
{
    char kt[160];
    int is_base = !strcmp(kind, "baseline") || !strcmp(kind, "build");
    fprintf(fp, "<h3>");
    qqb_markup_text(fp, pic_kind_title(kind, kt, sizeof kt));
    fprintf(fp,
            "</h3>\n<table>\n<thead><tr><th>case</th><th>key</th>%s"
            "<th class=\"n\">%s</th><th class=\"n\">%s</th><th class=\"n\">change</th>"
            "<th class=\"n\">interval</th><th class=\"n\">threshold</th><th>verdict</th>"
            "</tr></thead>\n<tbody>\n",
            is_base ? "" : "<th>reference</th>",
            !strcmp(kind, "baseline") ? "baseline"
            : is_base                 ? "reference build"
                                      : "reference case",
            strcmp(kind, "build") ? "current" : "change build");
    for (size_t i = 0; i < r->ncmps; i++) {
        const struct rcmp *c = &r->cmps[i];
        if (strcmp(c->kind, kind))
            continue;
        char b[64], cu[64], ch[32] = "n/a", iv[64] = "", th[32] = "";
        double bmhz =
            isfinite(c->base_ns) && c->base_ns > 0 ? c->base * 1000.0 / c->base_ns : r->mhz;
        double cmhz = isfinite(c->cur_ns) && c->cur_ns > 0 ? c->cur * 1000.0 / c->cur_ns : r->mhz;
        qqb_fmt_cycles(b, sizeof b, c->base, bmhz, QQB_CYC_PROSE);
        qqb_fmt_cycles(cu, sizeof cu, c->cur, cmhz, QQB_CYC_PROSE);
        struct qqb_signed sp, sl, sh;
        if (isfinite(c->pct)) {
            snprintf(ch, sizeof ch, "%s%%", qqb_signed(&sp, c->pct, 2));
            snprintf(iv, sizeof iv, "[%s, %s]", qqb_signed(&sl, c->lo, 2),
                     qqb_signed(&sh, c->hi, 2));
        }
        if (isfinite(c->thr))
            snprintf(th, sizeof th, "%.1f%%", c->thr);
        enum vclass v = pic_vclass_of(c->verdict);
        fprintf(fp, "<tr class=\"v-%s\"><td>", pic_vstyle[v].name);
        qqb_markup_text(fp, c->case_name);
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, c->key);
        fprintf(fp, "</td>");
        if (!is_base) {
            fprintf(fp, "<td>");
            qqb_markup_text(fp, c->ref ? c->ref : "-");
            fprintf(fp, "</td>");
        }
        fprintf(fp, "<td class=\"n\">");
        qqb_markup_text(fp, b);
        fprintf(fp, "</td><td class=\"n\">");
        qqb_markup_text(fp, cu);
        fprintf(fp, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">", ch, iv);
        qqb_markup_text(fp, th);
        fprintf(fp, "</td><td><span class=\"chip\"></span>");
        qqb_markup_text(fp, pic_verdict_word(c));
        if (c->machine_moved && isfinite(c->machine_pct))
            fprintf(fp, " (the machine moved %s%%; relative to it %s%%)",
                    qqb_signed(&sl, c->machine_pct, 1), qqb_signed(&sh, c->norm_pct, 2));
        if (c->reason) {
            fprintf(fp, " (");
            qqb_markup_text(fp, c->reason);
            fprintf(fp, ")");
        }
        if (c->note) {
            fprintf(fp, " <span class=\"note\">");
            qqb_markup_text(fp, c->note);
            fprintf(fp, "</span>");
        }
        if (c->why) { /* why the row reads so, and what would decide it */
            fprintf(fp, "<br><span class=\"note\">");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "</span>");
        }
        fprintf(fp, "</td></tr>\n");
    }
    fprintf(fp, "</tbody>\n</table>\n");
}

static const char *const section_title[] = {
    "",
    "1. Change per key, with its interval",
    "2. Samples per launch",
    "3. Memory per object type",
    "4. Scaling over node counts",
    "5. A/B pairs side by side",
};

static const char *const section_none[] = {
    "",
    "Nothing was compared: no baseline yet and no variants.",
    "No case recorded timed keys.",
    "No case recorded memory keys.",
    "No benchmark ran on more than one node count.",
    "No benchmark has variants compared with each other.",
};

/* Why a run has no comparison, as the page says it: what it was to compare
 * (the reference build, a stored baseline) and why nothing was. */
static const char *nothing_compared(const struct rep *r)
{
    if (r->run.against)
        return r->kernel_failures > 0
                   ? "this run compares the change build against the reference build, and no "
                     "case has figures from both (the kernel failures below say why)"
                   : "this run compares the change build against the reference build, and no "
                     "case has figures from both";
    if (r->baseline)
        return "no case or key of this run is in the baseline, and the suite has no variants";
    return "the first run on this machine becomes the baseline, and the suite has no variants";
}

/* Add WORD (LEN bytes) to OUT (a blank first) unless OUT holds it. */
static void add_word(char *out, size_t size, const char *word, size_t len)
{
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, " ");
        if (n == len && !strncmp(p, word, len))
            return;
        p += n + (p[n] == ' ');
    }
    size_t at = strlen(out);
    if (at + len + 2 <= size)
        snprintf(out + at, size - at, "%s%.*s", at ? " " : "", (int)len, word);
}

/* How case C's kernel was built, in a few words: the compiler named by its
 * first compile unit ("GNU C11 12.2.0") and the switches of every unit that
 * say how it was optimised (-O, -g, -march=, -flto, -ffast-math); with no
 * compile units recorded (built without -g) its .comment and that. */
static void kernel_build(const struct qqb_run_case *c, char *out, size_t size)
{
    out[0] = '\0';
    if (c->n_producer == 0 || !c->producer[0]) {
        if (c->n_compiler && c->compiler[0])
            snprintf(out, size, "%s, " QQB_KBUILD_NO_G, c->compiler[0]);
        return;
    }
    const char *p0 = c->producer[0];
    size_t head = 0; /* the words before the first switch */
    while (p0[head] && !(p0[head] == '-' && (head == 0 || p0[head - 1] == ' ')))
        head++;
    while (head && p0[head - 1] == ' ')
        head--;
    snprintf(out, size, "%.*s,", (int)(head < 200 ? head : 200), p0);
    char sw[256] = "";
    static const char *const keep[] = {"-O", "-g", "-march=", "-flto", "-ffast-math"};
    for (size_t i = 0; i < c->n_producer; i++)
        for (const char *w = c->producer[i]; w && *w;) {
            w += strspn(w, " ");
            size_t n = strcspn(w, " ");
            for (size_t k = 0; k < sizeof keep / sizeof keep[0] && n; k++)
                if (!strncmp(w, keep[k], strlen(keep[k]))) {
                    add_word(sw, sizeof sw, w, n);
                    break;
                }
            w += n;
        }
    size_t at = strlen(out);
    snprintf(out + at, size - at, " %s", sw[0] ? sw : "no optimisation switch");
}

/* The kernels' builds of R's cases, distinct, "; " between (at most 3,
 * then "and others") into OUT; 0 when no case recorded its build. */
static size_t kernel_builds(const struct rep *r, char *out, size_t size)
{
    char seen[3][256];
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < r->run.n_cases; i++) {
        char b[256];
        kernel_build(&r->run.cases[i], b, sizeof b);
        int dup = !b[0];
        for (size_t k = 0; k < n && k < 3 && !dup; k++)
            dup = !strcmp(seen[k], b);
        if (dup)
            continue;
        if (n < 3) {
            snprintf(seen[n], sizeof seen[n], "%s", b);
            size_t at = strlen(out);
            snprintf(out + at, size - at, "%s%s", n ? "; " : "", b);
        }
        n++;
    }
    if (n > 3) {
        size_t at = strlen(out);
        snprintf(out + at, size - at, "; and others");
    }
    return n;
}

/* The page's head, its title and the run's provenance. */
static void index_head(FILE *fp, const struct rep *r)
{
    fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<title>qqbench: ");
    qqb_markup_text(fp, r->suite ? r->suite : "run");
    fprintf(fp,
            "</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n"
            "body{font-family:'DejaVu Sans',Verdana,sans-serif;color:#333;background:#fff;"
            "margin:1.5em auto;max-width:1300px;padding:0 1em;line-height:1.4}\n"
            "h1{font-size:1.5em;margin-bottom:0.2em} h2{margin-top:1.6em;border-bottom:1px "
            "solid #ddd} h3{margin-bottom:0.3em}\n"
            "table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0 1em}\n"
            "th,td{padding:0.2em 0.6em;border-bottom:1px solid #eee;text-align:left;"
            "vertical-align:top}\n"
            "th{background:#f4f4f4} td.n,th.n{text-align:right;white-space:nowrap;"
            "font-variant-numeric:tabular-nums}\n"
            ".chip{display:inline-block;width:0.8em;height:0.8em;margin-right:0.4em;"
            "border-radius:2px;background:%s}\n"
            "tr.v-regressed .chip{background:%s} tr.v-regressed td{font-weight:bold}\n"
            "tr.v-improved .chip{background:%s} tr.v-unchanged .chip{background:%s}\n"
            "tr.v-noisy .chip{background:%s} tr.v-blind .chip{background:%s}\n"
            ".note{color:#666} .meta{color:#555} .alert{color:%s;font-weight:bold}\n"
            "figure{margin:1em 0 2em} figure img{max-width:100%%;height:auto;"
            "border:1px solid #eee}\n"
            "figcaption{max-width:60em;color:#444} .files{font-size:0.85em;color:#666}\n"
            "</style>\n</head>\n<body>\n<h1>qqbench: suite ",
            pic_vstyle[V_OTHER].color, pic_vstyle[V_REGRESSED].color, pic_vstyle[V_IMPROVED].color,
            pic_vstyle[V_UNCHANGED].color, pic_vstyle[V_NOISY].color, pic_vstyle[V_BLIND].color,
            QQB_PLOT_ALERT);
    qqb_markup_text(fp, r->suite ? r->suite : "?");
    fprintf(fp, "</h1>\n<p class=\"meta\">");
    qqb_markup_text(fp, r->date ? r->date : "");
    fprintf(fp, " &middot; machine ");
    qqb_markup_text(fp, r->fp_id ? r->fp_id : "?");
    if (r->fp_cpu) {
        fprintf(fp, " (");
        qqb_markup_text(fp, r->fp_cpu);
        if (r->mhz > 0)
            fprintf(fp, ", %.0f MHz ticks", r->mhz);
        fprintf(fp, ")");
    }
    char kb[512];
    if (kernel_builds(r, kb, sizeof kb) > 0) {
        fprintf(fp, " &middot; kernels built by ");
        qqb_markup_text(fp, kb);
    }
    if (r->version) {
        fprintf(fp, " &middot; qqbench ");
        qqb_markup_text(fp, r->version);
    }
    if (r->fp_compiler) { /* qqbench's own build, not the kernels' */
        fprintf(fp, " (itself built by ");
        qqb_markup_text(fp, r->fp_compiler);
        if (r->fp_flags) {
            fprintf(fp, " ");
            qqb_markup_text(fp, r->fp_flags);
        }
        fprintf(fp, ")");
    }
    if (r->commit) {
        fprintf(fp, " &middot; commit ");
        qqb_markup_text(fp, r->commit);
    }
    fprintf(fp, "<br>baseline: ");
    qqb_markup_text(fp, r->baseline      ? r->baseline
                        : r->run.against ? "none: this run compares against the reference build"
                                         : "none (this run had nothing to compare against)");
    if (r->run.against) {
        fprintf(fp, "<br>compared: the change build (this run's kernels) against the "
                    "reference build: ");
        qqb_markup_text(fp, r->run.against);
    }
    fprintf(fp, "</p>\n");
    if (r->baseline_other)
        fprintf(fp, "<p class=\"alert\">The baseline is from another machine: timing "
                    "differences may be the machine's, not the code's.</p>\n");
    if (r->baseline_other_build) {
        fprintf(fp, "<p class=\"alert\">Timing compared across builds: the baseline's kernels "
                    "were built with other flags (");
        qqb_markup_text(fp, r->baseline_other_build);
        fprintf(fp, ").</p>\n");
    }
    fprintf(fp, "<p id=\"broken\" class=\"alert\" hidden></p>\n");
}

/* The summary: what the run's exit status said, and the counts. */
static void index_summary(FILE *fp, const struct rep *r)
{
    static const char *const exits[] = {"nothing regressed", "a regression", "bad input or usage",
                                        "a kernel failed"};
    /* The rows that gate but could not decide: counted in the headline,
     * never under "all good". */
    size_t undecided[NCLASS] = {0};
    for (size_t i = 0; i < r->ncmps; i++)
        if (!strcmp(r->cmps[i].kind, "baseline") || !strcmp(r->cmps[i].kind, "build"))
            undecided[pic_vclass_of(r->cmps[i].verdict)]++;
    size_t nu = undecided[V_NOISY] + undecided[V_BLIND];
    struct qqb_count nc;
    fprintf(fp, "<p><b>");
    if (r->exit_code >= 0 && r->exit_code <= 3)
        fprintf(fp, "Exit %ld: %s.", r->exit_code, exits[r->exit_code]);
    if (nu)
        fprintf(fp, " %s could not decide (%zu noisy, %zu blind)%s.",
                qqb_count(&nc, nu, "comparison"), undecided[V_NOISY], undecided[V_BLIND],
                r->exit_code == 0 ? ": they pass, unjudged; each row says why" : "");
    fprintf(fp, "</b> %s", qqb_count(&nc, r->ncases, "case"));
    for (size_t k = 0; k < r->nkinds; k++) {
        size_t cnt[NCLASS] = {0}, na = 0;
        int is_base = !strcmp(r->kinds[k], "baseline") || !strcmp(r->kinds[k], "build");
        for (size_t i = 0; i < r->ncmps; i++)
            if (!strcmp(r->cmps[i].kind, r->kinds[k])) {
                if (isfinite(r->cmps[i].pct))
                    cnt[pic_vclass_of(r->cmps[i].verdict)]++;
                else
                    na++;
            }
        char kt[160];
        fprintf(fp, "; ");
        qqb_markup_text(
            fp, !strcmp(r->kinds[k], "ab") ? "A/B" : pic_kind_title(r->kinds[k], kt, sizeof kt));
        fprintf(fp, ": ");
        const char *sep = "";
        for (int v = 0; v < NCLASS; v++)
            if (cnt[v]) {
                fprintf(fp, "%s%zu %s", sep, cnt[v],
                        is_base ? pic_vstyle[v].name : pic_vstyle[v].ab_name);
                sep = ", ";
            }
        if (na)
            fprintf(fp, "%s%zu n/a", sep, na);
    }
    if (r->kernel_failures >= 0) /* a count the JSON may lack (-1) */
        fprintf(fp, "; %s",
                qqb_count(&nc, (unsigned long long)r->kernel_failures, "kernel failure"));
    fprintf(fp, ".</p>\n");
}

/* The memory changes' table. */
static void index_memory(FILE *fp, const struct rep *r)
{
    fprintf(fp, "<h3>Memory changes</h3>\n<table>\n<thead><tr><th>case</th><th>key</th>"
                "<th>against</th><th class=\"n\">live</th><th class=\"n\">peak</th>"
                "<th class=\"n\">created</th><th>verdict</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < r->nmch; i++) {
        const struct rmemchg *m = &r->mch[i];
        int ab = strcmp(m->kind, "baseline") != 0;
        /* Rows against the baseline or the reference build gate: the
         * terminal's words and colours. */
        int gates = !ab || !strcmp(m->kind, "build");
        const char *v = m->unchanged ? "unchanged" : qqb_mem_verdict_word(m->verdict, gates);
        /* unchanged: the timing rows' colour for the same word */
        fprintf(fp, "<tr class=\"v-%s\"><td>",
                m->unchanged              ? "unchanged"
                : m->verdict > 0 && gates ? "regressed"
                : m->verdict < 0 && gates ? "improved"
                                          : "other");
        qqb_markup_text(fp, m->case_name);
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, m->key);
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, ab ? (m->ref ? m->ref : m->kind) : "baseline");
        char a[3][2][32];
        pic_fmt_bytes(a[0][0], 32, m->before.live), pic_fmt_bytes(a[0][1], 32, m->after.live);
        pic_fmt_bytes(a[1][0], 32, m->before.peak), pic_fmt_bytes(a[1][1], 32, m->after.peak);
        qqb_fmt_sig(a[2][0], 32, m->before.created), qqb_fmt_sig(a[2][1], 32, m->after.created);
        fprintf(fp, "</td>");
        for (int q = 0; q < 3; q++)
            fprintf(fp, "<td class=\"n\">%s &rarr; %s</td>", a[q][0], a[q][1]);
        fprintf(fp, "<td><span class=\"chip\"></span>");
        qqb_markup_text(fp, v);
        fprintf(fp, "</td></tr>\n");
    }
    fprintf(fp, "</tbody>\n</table>\n");
}

/* A verdict on counts the page lists: every instructions row; a calls
 * row that moved or whose launches disagree (as the terminal's table). */
static int count_listed(const struct qqb_run_count *c)
{
    return (c->figure && strcmp(c->figure, "calls")) || !c->exact || c->delta != 0;
}

/* The verdicts on counts' table (the run JSON's count_comparisons):
 * instructions beside the cycles of the same key. */
static void index_counts(FILE *fp, const struct rep *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->run.n_count_comparisons; i++)
        n += (size_t)count_listed(&r->run.count_comparisons[i]);
    if (n == 0)
        return;
    fprintf(fp, "<h3>Counts: calls per launch and instructions per hit</h3>\n<p>Exact where "
                "every launch of a side read the same count (no noise, no interval); "
                "non-deterministic counts give their spread and are judged on the "
                "launches.</p>\n<table>\n<thead><tr><th>case</th><th>key</th><th>against</th>"
                "<th>figure</th><th class=\"n\">before</th><th class=\"n\">after</th>"
                "<th class=\"n\">change</th><th>verdict</th><th>cycles</th></tr></thead>\n"
                "<tbody>\n");
    for (size_t i = 0; i < r->run.n_count_comparisons; i++) {
        const struct qqb_run_count *c = &r->run.count_comparisons[i];
        if (!count_listed(c))
            continue;
        char b[72], a[72], ch[48] = "n/a";
        struct qqb_signed sp;
        struct qqb_count_side sb = {c->exact ? c->before : NAN, c->before_min, c->before_max, 0},
                              sa = {c->exact ? c->after : NAN, c->after_min, c->after_max, 0};
        qqb_count_side_text(b, sizeof b, &sb);
        qqb_count_side_text(a, sizeof a, &sa);
        if (isfinite(c->change_pct))
            snprintf(ch, sizeof ch, "%s%% %s", qqb_signed(&sp, c->change_pct, 2),
                     c->exact ? "exact" : "on the launches");
        fprintf(fp, "<tr class=\"v-%s\"><td>",
                pic_vstyle[pic_vclass_of(c->verdict ? c->verdict : "")].name);
        qqb_markup_text(fp, c->case_name);
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, c->key);
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, c->reference ? c->reference : c->kind ? c->kind : "-");
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, c->figure ? c->figure : "-");
        fprintf(fp,
                "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                "<td><span class=\"chip\"></span>",
                b, a, ch);
        qqb_markup_text(fp, c->verdict ? c->verdict : "-");
        fprintf(fp, "%s",
                c->gated || !c->verdict || strcmp(c->verdict, "regressed") ? "" : ", not gated");
        if (c->why) {
            fprintf(fp, "<br><span class=\"note\">");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "</span>");
        }
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, c->cycles_verdict ? c->cycles_verdict : "-");
        fprintf(fp, "</td></tr>\n");
    }
    fprintf(fp, "</tbody>\n</table>\n");
}

/* The verdict tables, memory changes and kernel failures. */
static void index_verdicts(FILE *fp, const struct rep *r)
{
    fprintf(fp, "<h2>Verdicts</h2>\n<p>Cycles per hit are medians over launches (nanoseconds "
                "from the measured tick rate). The change is the median change with its "
                "confidence interval; a key is regressed or improved only when the whole "
                "interval is past the threshold, noisy when it straddles it, blind when "
                "the baseline's runs move by more than the threshold, so this gate cannot see "
                "it however many launches it takes.</p>\n");
    if (r->ncmps == 0)
        fprintf(fp, "<p>No comparisons: %s.</p>\n", nothing_compared(r));
    for (size_t k = 0; k < r->nkinds; k++)
        html_cmp_table(r, fp, r->kinds[k]);
    index_counts(fp, r);
    if (r->nmch)
        index_memory(fp, r);
    int failures = 0;
    for (size_t i = 0; i < r->ncases; i++)
        failures |= r->cases[i].failed;
    if (failures) {
        fprintf(fp, "<h3 class=\"alert\">Kernel failures</h3>\n<ul>\n");
        for (size_t i = 0; i < r->ncases; i++)
            if (r->cases[i].failed) {
                fprintf(fp, "<li>");
                qqb_markup_text(fp, r->cases[i].name);
                fprintf(fp, ": ");
                qqb_markup_text(fp, r->cases[i].note ? r->cases[i].note : "failed");
                fprintf(fp, "</li>\n");
            }
        fprintf(fp, "</ul>\n");
    }
}

/* Picture P as a figure with its caption and files. */
static void index_figure(FILE *fp, const struct pic *p)
{
    fprintf(fp, "<figure id=\"");
    qqb_markup_href(fp, p->stem);
    fprintf(fp, "\">\n<a href=\"");
    qqb_markup_href(fp, p->stem);
    fprintf(fp, ".svg\"><img src=\"");
    qqb_markup_href(fp, p->stem);
    fprintf(fp, ".png\" alt=\"");
    qqb_markup_text(fp, p->title);
    fprintf(fp, "\"></a>\n<figcaption><b>");
    qqb_markup_text(fp, p->title);
    fprintf(fp, ".</b> ");
    qqb_markup_text(fp, p->what);
    fprintf(fp, "<br><span class=\"files\">files: ");
    static const char *const ext[] = {".svg", ".png", ".gp"};
    for (int x = 0; x < 3; x++) {
        fprintf(fp, "<a href=\"");
        qqb_markup_href(fp, p->stem);
        fprintf(fp, "%s\">", ext[x]);
        qqb_markup_text(fp, p->stem);
        fprintf(fp, "%s</a> ", ext[x]);
    }
    for (int x = 0; x < p->ndata; x++) {
        fprintf(fp, "<a href=\"");
        qqb_markup_href(fp, p->data[x]);
        fprintf(fp, "\">");
        qqb_markup_text(fp, p->data[x]);
        fprintf(fp, "</a> ");
    }
    fprintf(fp, "</span></figcaption>\n</figure>\n");
}

/* The pictures, section by section. */
static void index_pictures(FILE *fp, const struct rep *r)
{
    fprintf(fp, "<h2>Pictures</h2>\n<p>Each picture's folder-mates: its data (<code>.dat</code>, "
                "tab-separated, a header line per file), the gnuplot script that draws it "
                "(<code>.gp</code>; re-draw with <code>gnuplot NAME.gp</code> in this folder), "
                "and the picture as SVG and PNG.</p>\n");
    for (int s = 1; s <= 5; s++) {
        fprintf(fp, "<h3>%s</h3>\n", section_title[s]);
        int any = 0;
        for (size_t i = 0; i < r->npics; i++) {
            const struct pic *p = &r->pics[i];
            if (p->section != s)
                continue;
            any = 1;
            index_figure(fp, p);
        }
        if (!any && s == 1 && r->ncmps == 0)
            fprintf(fp, "<p>Nothing was compared: %s.</p>\n", nothing_compared(r));
        else if (!any)
            fprintf(fp, "<p>%s</p>\n", section_none[s]);
    }
}

int pic_index(struct rep *r)
{
    char e[256];
    FILE *fp = qqb_plot_create(r->dir, "index.html", e, sizeof e);
    if (!fp)
        return pic_fail(r, "%s", e);
    index_head(fp, r);
    index_summary(fp, r);
    index_verdicts(fp, r);
    index_pictures(fp, r);
    /* Model fits and the machine profile (docs/MODELS.md), from the same JSON. */
    int mrc = qqb_model_pictures(r->run.models, r->dir, r->no_plot, fp, e, sizeof e);
    if (mrc == 0)
        mrc = qqb_profile_pictures(r->run.profile, r->dir, r->no_plot, fp, e, sizeof e);
    if (mrc != 0) {
        fclose(fp);
        return pic_fail(r, "%s", e);
    }
    fprintf(fp, "<h3>6. History across versions</h3>\n<p>A run's JSON holds one run; the "
                "series across versions come from the snapshots that <code>qqbench run "
                "--record LABEL</code> keeps: <code>qqbench history SUITE.yaml --plot "
                "DIR</code> draws cycles per interval and memory per object type across "
                "those labels (docs/REPORTS.md).</p>\n");
    /* Say so on the page when a picture is missing (an artifact copied in
     * part); the body's data attributes let a headless browser check it. */
    fprintf(fp, "<script>\nwindow.addEventListener('load', function () {\n"
                "  var imgs = document.images, bad = [];\n"
                "  for (var i = 0; i < imgs.length; i++)\n"
                "    if (!imgs[i].complete || imgs[i].naturalWidth === 0)\n"
                "      bad.push(imgs[i].getAttribute('src'));\n"
                "  document.body.setAttribute('data-images', String(imgs.length));\n"
                "  document.body.setAttribute('data-images-broken', String(bad.length));\n"
                "  if (bad.length) {\n"
                "    var p = document.getElementById('broken');\n"
                "    p.textContent = bad.length + ' picture(s) did not load: ' + bad.join(', ');\n"
                "    p.hidden = false;\n"
                "  }\n"
                "});\n</script>\n</body>\n</html>\n");
    return pic_close_file(r, fp, "index.html");
}
