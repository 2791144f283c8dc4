/* pic_change.c - the run report's picture 1, change per key with its interval, by comparison kind.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pic.h"
#include "words.h"

/* ======================================================================
 * Picture 1: change per key with its interval, by comparison kind.
 * ====================================================================== */

/* What the rows of one kind span: the axis, the legend, the band. */
struct span {
    size_t row, present[NCLASS], thr_n;
    double xmin, xmax, thr_first, conf;
    int thr_same;
    double rmin, rmax; /* ratios, for the log axis */
    int instr;         /* rows of this kind have an instructions verdict beside */
};

/* The exact (or estimated) change of instructions per hit of C's case and
 * key against the same reference (the run JSON's count_comparisons); NaN
 * where the run has none. */
static double instr_pct(const struct rep *r, const struct rcmp *c)
{
    for (size_t i = 0; i < r->run.n_count_comparisons; i++) {
        const struct qqb_run_count *k = &r->run.count_comparisons[i];
        if (k->figure && !strcmp(k->figure, "instructions") && k->case_name && k->key && k->kind &&
            !strcmp(k->case_name, c->case_name) && !strcmp(k->key, c->key) &&
            !strcmp(k->kind, c->kind))
            return k->change_pct;
    }
    return NAN;
}

/* Rows of KIND with an instructions verdict beside. */
static int has_instr(const struct rep *r, const char *kind)
{
    for (size_t i = 0; i < r->ncmps; i++)
        if (!strcmp(r->cmps[i].kind, kind) && isfinite(instr_pct(r, &r->cmps[i])))
            return 1;
    return 0;
}

/* Row C of the data file, and what it adds to the span; INSTR its
 * instructions' change (a last column where the span has any). */
static void change_row(FILE *d, const struct rcmp *c, double instr, struct span *sp)
{
    int ok = isfinite(c->pct);
    enum vclass v = pic_vclass_of(c->verdict);
    double thr = isfinite(c->thr) ? c->thr : 0;
    if (isfinite(c->thr)) {
        if (sp->thr_n++ == 0)
            sp->thr_first = c->thr;
        else if (c->thr != sp->thr_first)
            sp->thr_same = 0;
    }
    if (isfinite(c->conf))
        sp->conf = c->conf;
    if (ok) {
        sp->present[v]++;
        double lo = fmin(c->lo, c->pct), hi = fmax(c->hi, c->pct);
        sp->xmin = fmin(sp->xmin, fmin(lo, -thr));
        sp->xmax = fmax(sp->xmax, fmax(hi, thr));
        sp->rmin = fmin(sp->rmin, fmax(1 + lo / 100, 1e-3));
        sp->rmax = fmax(sp->rmax, 1 + hi / 100);
    }
    char text[256];
    struct qqb_signed sc, sl, sh;
    if (ok)
        snprintf(text, sizeof text, "%s%% [%s, %s] %s%s", qqb_signed(&sc, c->pct, 2),
                 qqb_signed(&sl, c->lo, 2), qqb_signed(&sh, c->hi, 2), pic_verdict_word(c),
                 c->machine_moved ? " (machine moved)" : "");
    else
        snprintf(text, sizeof text, "n/a%s%s%s", c->reason ? " (" : "", c->reason ? c->reason : "",
                 c->reason ? ")" : "");
    size_t tl = strlen(text);
    if (isfinite(instr) && tl < sizeof text)
        snprintf(text + tl, sizeof text - tl, "; instructions %s%%", qqb_signed(&sc, instr, 2));
    fprintf(d, "%zu\t", sp->row++);
    pic_dnum(d, c->pct);
    fputc('\t', d);
    pic_dnum(d, c->lo);
    fputc('\t', d);
    pic_dnum(d, c->hi);
    fputc('\t', d);
    pic_dnum(d, thr);
    fprintf(d, "\t%d\t", ok ? (int)v : -1);
    pic_dtext(d, c->case_name);
    fputs("  ", d);
    pic_dtext(d, c->key);
    fputc('\t', d);
    pic_dtext(d, text);
    if (sp->instr) {
        fputc('\t', d);
        pic_dnum(d, instr);
        if (isfinite(instr)) {
            sp->xmin = fmin(sp->xmin, instr);
            sp->xmax = fmax(sp->xmax, instr);
            sp->rmin = fmin(sp->rmin, fmax(1 + instr / 100, 1e-3));
            sp->rmax = fmax(sp->rmax, 1 + instr / 100);
        }
    }
    fputc('\n', d);
}

/* The data file: a row per comparison of KIND. */
static int change_data(struct rep *r, struct pic *p, const char *kind, struct span *sp)
{
    FILE *d = pic_open_data(r, p, NULL);
    if (!d)
        return -1;
    qqb_plot_comment(d, p->title);
    sp->instr = has_instr(r, kind);
    fprintf(d,
            "# row\tchange_pct\tinterval_lo_pct\tinterval_hi_pct\tthreshold_pct"
            "\tclass\tlabel\ttext%s\n",
            sp->instr ? "\tinstructions_pct" : "");
    for (size_t i = 0; i < r->ncmps; i++)
        if (!strcmp(r->cmps[i].kind, kind))
            change_row(d, &r->cmps[i], instr_pct(r, &r->cmps[i]), sp);
    return pic_close_file(r, d, p->data[0]);
}

/* The x axis: percent, or (LOGX) the ratio on a log scale with percent
 * tics. */
static void change_xaxis(FILE *gp, int logx, const struct span *sp)
{
    if (logx) {
        double lo = sp->rmin * 0.8, hi = sp->rmax * 1.25;
        fprintf(gp, "set logscale x\nset xrange [%.6g:%.6g]\nset xtics (", lo, hi);
        static const double tics[] = {0.001, 0.01, 0.05, 0.1, 0.2, 0.5, 1,    1.5,  3,
                                      2,     5,    10,   30,  100, 300, 1000, 10000};
        int first = 1, wide = hi / lo > 100;
        for (size_t t = 0; t < sizeof tics / sizeof tics[0]; t++) {
            if (tics[t] < lo || tics[t] > hi)
                continue;
            /* Over more than two decades, tics closer than 2x would collide. */
            if (wide && (tics[t] == 1.5 || tics[t] == 0.05 || tics[t] == 300))
                continue;
            double pc = (tics[t] - 1) * 100;
            fprintf(gp, "%s\"%s%g%%%%\" %g", first ? "" : ", ", pc > 0 ? "+" : "", pc, tics[t]);
            first = 0;
        }
        fprintf(gp, ")\n");
    } else {
        double pad = (sp->xmax - sp->xmin) * 0.06 + 0.5;
        fprintf(gp, "unset logscale x\nset xrange [%.6g:%.6g]\nset xtics autofreq\n",
                sp->xmin - pad, sp->xmax + pad);
        fprintf(gp, "set format x '%%+g%%%%'\nset xtics add ('0%%%%' 0)\n");
    }
}

/* A faint line between cases. */
static void change_separators(FILE *gp, const struct rep *r, const char *kind)
{
    fprintf(gp, "unset arrow 2\n");
    const char *prev = NULL;
    size_t rw = 0;
    int tag = 10;
    for (size_t i = 0; i < r->ncmps; i++) {
        const struct rcmp *c = &r->cmps[i];
        if (strcmp(c->kind, kind))
            continue;
        if (prev && strcmp(prev, c->case_name) && tag < 400)
            fprintf(gp,
                    "set arrow %d from graph 0, first %zu.5 to graph 1, first %zu.5 "
                    "nohead lc rgb '#C8C8C8' dt 3 back\n",
                    tag++, rw - 1, rw - 1);
        prev = c->case_name;
        rw++;
    }
}

/* The title (KT, the interval's confidence, the counts) and the labels. */
static void change_labels(FILE *gp, const char *kind, const char *kt, int is_base,
                          const struct span *sp)
{
    char ttl[512], counts[256] = "";
    size_t off = 0;
    for (int v = 0; v < NCLASS; v++)
        if (sp->present[v])
            off += (size_t)snprintf(counts + off, sizeof counts - off, "%s%zu %s", off ? ", " : "",
                                    sp->present[v],
                                    is_base ? pic_vstyle[v].name : pic_vstyle[v].ab_name);
    snprintf(ttl, sizeof ttl, "%s\n%.0f%% intervals; %s", kt,
             isfinite(sp->conf) ? sp->conf * 100 : 95.0,
             off ? counts : "no change could be computed");
    fprintf(gp, "set title ");
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\nset xlabel ");
    char xl[160];
    snprintf(xl, sizeof xl, "change of %s per hit, %% (%s; left is faster)",
             sp->instr ? "cycles (dots) and instructions (diamonds)" : "cycles",
             !strcmp(kind, "baseline") ? "this run against the baseline"
             : !strcmp(kind, "build")  ? "this build against the reference build"
                                       : "against the reference case");
    qqb_plot_str(gp, xl, 0);
    size_t last = sp->row ? sp->row - 1 : 0;
    fprintf(gp, "\nunset ylabel\nset yrange [%zu.5:-0.5]\nset y2range [%zu.5:-0.5]\n", last, last);
    fprintf(gp, "set ytics scale 0 nomirror\nset y2tics scale 0 nomirror\n"
                "set grid xtics noytics\n");
}

/* The plot command: the threshold band, then a series per verdict class. */
static void change_plot(FILE *gp, const struct pic *p, int is_base, const struct span *sp)
{
    fprintf(gp, "set bmargin 6\nset key at screen 0.5, screen 0.012 center bottom horizontal "
                "samplen 1.5\n");
    fprintf(gp, "plot ");
    qqb_plot_str(gp, p->data[0], 0);
    fprintf(gp,
            " using (X(-$5)):1:(X(-$5)):(X($5)):($1-0.42):($1+0.42):ytic(7):y2tic(8) "
            "with boxxyerror fc rgb '%s' fs solid 1.0 noborder title ",
            C_BAND);
    char band[64];
    if (sp->thr_same && isfinite(sp->thr_first))
        snprintf(band, sizeof band, "threshold %.1f%%", sp->thr_first);
    else
        snprintf(band, sizeof band, "threshold (per benchmark)");
    qqb_plot_str(gp, band, 0);
    for (int v = 0; v < NCLASS; v++) {
        if (!sp->present[v])
            continue;
        fprintf(gp,
                ", \\\n     '' using ($6==%d ? X($2) : NaN):1:(X($3)):(X($4)) with xerrorbars "
                "pt %d ps 1.4 lw 1.6 lc rgb '%s' title ",
                v, pic_vstyle[v].pt, pic_vstyle[v].color);
        qqb_plot_str(gp, is_base ? pic_vstyle[v].name : pic_vstyle[v].ab_name, 0);
    }
    if (sp->instr) /* instructions per hit of the same key: exact, no whiskers */
        fprintf(gp,
                ", \\\n     '' using (X($9)):1 with points pt 12 ps 2.2 lw 1.6 lc rgb '%s' "
                "title 'instructions per hit'",
                QQB_PLOT_INK);
    fprintf(gp, "\n");
}

int pic_change(struct rep *r, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncmps; i++)
        n += !strcmp(r->cmps[i].kind, kind);
    if (n == 0)
        return 0;
    char sk[48], stem[80], kt[160];
    pic_safe_name(sk, sizeof sk, kind);
    snprintf(stem, sizeof stem, "change-%s", sk);
    struct pic *p = pic_new(r, 1, stem);
    if (!p)
        return 0;
    pic_kind_title(kind, kt, sizeof kt);
    int is_base = !strcmp(kind, "baseline") || !strcmp(kind, "build");
    snprintf(p->title, sizeof p->title, "%s: change of cycles per hit per key", kt);
    snprintf(p->what, sizeof p->what,
             "One row per compared key. The dot is the change of the median cycles per hit "
             "(%s), the whiskers its confidence interval, the shaded band the threshold: a "
             "row is %s only when its whole interval lies outside the band. Colour and "
             "shape give the verdict; the numbers are at the right.%s",
             !strcmp(kind, "baseline") ? "this run against the baseline"
             : is_base                 ? "this build against the reference build"
                                       : "each case against its reference",
             is_base ? "regressed or improved" : "slower or faster",
             has_instr(r, kind) ? " An open diamond is the change of the key's instructions per "
                                  "hit, exact where every launch read the same count: the two "
                                  "metrics side by side."
                                : "");
    struct span sp = {
        .xmin = 0, .xmax = 0, .thr_first = NAN, .conf = NAN, .thr_same = 1, .rmin = 1, .rmax = 1};
    if (change_data(r, p, kind, &sp) != 0)
        return -1;

    /* A log axis of the ratio when changes span more than a few-fold: A/B
     * pairs differ by 10x and more, where a linear axis would flatten
     * every other row to a dot. Tics still read as percent. */
    int logx = sp.xmin < -60 || sp.xmax > 150;
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    int height = 150 + 26 * (int)sp.row;
    fprintf(gp, "# x of a change in percent\n");
    if (logx)
        fprintf(gp, "X(p) = (1 + p/100.0) < 0.001 ? 0.001 : 1 + p/100.0\n");
    else
        fprintf(gp, "X(p) = p\n");
    qqb_plot_both_begin(gp, p->stem, 1250, height);
    change_labels(gp, kind, kt, is_base, &sp);
    change_xaxis(gp, logx, &sp);
    fprintf(gp,
            "set arrow 1 from first X(0), graph 0 to first X(0), graph 1 nohead "
            "lc rgb '%s' lw 1 front\n",
            QQB_PLOT_INK);
    change_separators(gp, r, kind);
    change_plot(gp, p, is_base, &sp);
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}
