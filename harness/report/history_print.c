/* history_print.c - what `qqbench history` prints: the series of every case and key across the
 * snapshots, and their pictures (history-cycles, history-memory). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "history_print.h"
#include "plot.h"
#include "results.h"
#include "stats.h"

/* A picture's data being written: one block per series (case and key),
 * rows "x label value changed", and the series' titles for the script.
 * A RELATIVE sink (history-cycles) adds to each row the change in percent
 * from the series' first snapshot and the band of that snapshot's own
 * launch-to-launch noise around it: "pct lo hi". */
struct sink {
    FILE *dat;
    size_t nseries;
    char **titles;
    double vmin, vmax; /* of the values written (vmax 0: none yet) */
    int relative;
    double first; /* the series' first value (NaN before it) */
};

static void sink_series(struct sink *k, const char *case_name, const char *key)
{
    if (!k || !k->dat)
        return;
    char **t = realloc(k->titles, (k->nseries + 1) * sizeof *t);
    if (!t)
        return;
    k->titles = t;
    size_t len = strlen(case_name) + strlen(key) + 3;
    char *whole = malloc(len);
    if (whole)
        snprintf(whole, len, "%s  %s", case_name, key);
    /* The key's title shortened as the report's labels are (plot.h): a
     * long case and key name made gnuplot warn that the canvas was too
     * small, which failed the pictures. The data's comment has it whole. */
    k->titles[k->nseries] = whole ? malloc(len + 4) : NULL;
    if (k->titles[k->nseries])
        qqb_plot_short(k->titles[k->nseries], len + 4, whole, QQB_PLOT_KEY_MAX);
    if (k->nseries++)
        fprintf(k->dat, "\n\n");
    qqb_plot_comment(k->dat, whole ? whole : "?");
    free(whole);
    if (k->relative && k->nseries == 1)
        fprintf(k->dat, "# x\tlabel\tcycles\tchanged\tchange_pct\tnoise_lo_pct\tnoise_hi_pct\n");
    k->first = NAN;
}

/* The relative columns of value V whose launches' noise is NOISE percent
 * (of V): the change from the series' first value and the band. */
static void sink_relative(struct sink *k, double v, double noise)
{
    if (!isfinite(k->first) && v > 0)
        k->first = v;
    double f = k->first;
    if (!(f > 0)) {
        fprintf(k->dat, "\tnan\tnan\tnan");
        return;
    }
    double pct = 100.0 * (v / f - 1.0), half = (isfinite(noise) ? noise : 0) * v / f;
    fprintf(k->dat, "\t%.6g\t%.6g\t%.6g", pct, pct - half, pct + half);
}

static void sink_point(struct sink *k, size_t x, const char *label, double v, int moved,
                       double noise)
{
    if (!k || !k->dat)
        return;
    if (k->vmax == 0 || v < k->vmin)
        k->vmin = v;
    if (v > k->vmax)
        k->vmax = v;
    char tic[4 * QQB_PLOT_TIC_MAX + 8];
    fprintf(k->dat, "%zu\t\"", x);
    for (const char *c = qqb_plot_short(tic, sizeof tic, label, QQB_PLOT_TIC_MAX); *c; c++)
        fputc(*c == '"' ? '\'' : *c, k->dat);
    fprintf(k->dat, "\"\t%.6g\t%d", v, moved);
    if (k->relative)
        sink_relative(k, v, noise);
    fprintf(k->dat, "\n");
}

static void print_cycles(const struct qqb_snap *s, size_t n, const char *machine, const char *only,
                         struct sink *k)
{
    printf("Cycles per interval (net, median over launches) on %s\n\n", machine);
    int any = 0;
    /* Every (case, key) any snapshot of this machine holds, in first-seen order. */
    for (size_t a = 0; a < n; a++) {
        if (strcmp(s[a].machine, machine))
            continue;
        for (size_t ci = 0; ci < s[a].r.ncases; ci++) {
            const struct qqb_case_result *c = s[a].r.cases[ci];
            for (size_t mi = 0; mi < c->nmetrics; mi++) {
                const struct qqb_metric *m = &c->metrics[mi];
                if (strcmp(m->what, QQB_VERDICT_METRIC) || (only && strcmp(m->key, only)))
                    continue;
                /* Listed already from an earlier snapshot? */
                int seen = 0;
                for (size_t b = 0; b < a && !seen; b++) {
                    const struct qqb_case_result *o =
                        strcmp(s[b].machine, machine) ? NULL : qqb_results_find(&s[b].r, c->name);
                    seen = o && qqb_case_find_metric(o, m->key, m->what) != NULL;
                }
                if (seen)
                    continue;
                any = 1;
                printf("%s  %s\n", c->name, m->key);
                sink_series(k, c->name, m->key);
                double prev = NAN, prev_noise = NAN;
                size_t x = 0;
                for (size_t b = 0; b < n; b++) {
                    if (strcmp(s[b].machine, machine))
                        continue;
                    x++;
                    const struct qqb_case_result *o = qqb_results_find(&s[b].r, c->name);
                    const struct qqb_metric *om =
                        o ? qqb_case_find_metric(o, m->key, m->what) : NULL;
                    if (!om || om->n == 0) {
                        printf("    %-20s %12s\n", s[b].label, "-");
                        continue;
                    }
                    double med = qqb_median(om->samples, om->n);
                    double noise = qqb_noise_pct(om->samples, om->n);
                    int moved = qqb_history_moved(prev, prev_noise, med, noise);
                    printf("    %-20s %12.1f cyc", s[b].label, med);
                    sink_point(k, x, s[b].label, med, moved, noise);
                    if (isfinite(prev) && prev > 0)
                        printf("  %+7.2f%%%s", 100.0 * (med / prev - 1.0), moved ? " *" : "");
                    printf("\n");
                    prev = med;
                    prev_noise = noise;
                }
            }
        }
    }
    if (!any)
        printf("    (no snapshot of this machine)\n");
}

static void print_memory(const struct qqb_snap *s, size_t n, const char *only, struct sink *sk)
{
    printf("\nMemory per key (live bytes, peak bytes, objects created), every machine\n\n");
    int any = 0;
    for (size_t a = 0; a < n; a++) {
        for (size_t ci = 0; ci < s[a].r.ncases; ci++) {
            const struct qqb_case_result *c = s[a].r.cases[ci];
            for (size_t k = 0; k < c->nmem; k++) {
                const struct qqb_mem *m = &c->mem[k];
                if (only && strcmp(m->key, only))
                    continue;
                int seen = 0;
                for (size_t b = 0; b < a && !seen; b++) {
                    const struct qqb_case_result *o = qqb_results_find(&s[b].r, c->name);
                    for (size_t j = 0; o && j < o->nmem && !seen; j++)
                        seen = !strcmp(o->mem[j].key, m->key);
                }
                for (size_t j = 0; j < k && !seen; j++)
                    seen = !strcmp(c->mem[j].key, m->key);
                if (seen)
                    continue;
                any = 1;
                printf("%s  %s\n", c->name, m->key);
                sink_series(sk, c->name, m->key);
                const struct qqb_mem *prev = NULL;
                for (size_t b = 0; b < n; b++) {
                    const struct qqb_case_result *o = qqb_results_find(&s[b].r, c->name);
                    const struct qqb_mem *om = NULL;
                    for (size_t j = 0; o && j < o->nmem && !om; j++)
                        if (!strcmp(o->mem[j].key, m->key))
                            om = &o->mem[j];
                    if (!om)
                        continue;
                    unsigned long long live =
                        (unsigned long long)om->obj_bytes + (unsigned long long)om->alloc_bytes;
                    int moved = qqb_history_mem_moved(prev, om);
                    sink_point(sk, b + 1, s[b].label, (double)live / 1024.0, moved, NAN);
                    printf("    %-20s %12llu %12llu %10llu  (%s)%s\n", s[b].label, live,
                           (unsigned long long)om->peak_bytes, (unsigned long long)om->created,
                           s[b].machine, moved ? " *" : "");
                    prev = om;
                }
            }
        }
    }
    if (!any)
        printf("    (no memory keys in the snapshots)\n");
}

/* The plot command of one picture, a line per series over the snapshots
 * and a ring where it changed. Absolute (history-memory): the values, on a
 * log axis when series lie many times apart (else the small ones lie flat
 * on 0). Relative (history-cycles): each series as its change in percent
 * from its own first snapshot, so a series of a few hundred cycles and one
 * of millions share one scale and one series' swings do not flatten
 * another's step; around each line, shaded in its colour, the band of each
 * snapshot's launch-to-launch noise; the ring where it moved beyond the
 * noise (columns: sink_relative). */
static void plot_lines(FILE *gp, const char *qdat, const struct sink *k, const char *ylabel)
{
    int rel = k->relative, y = rel ? 5 : 3;
    int log = !rel && k->vmin > 0 && k->vmax / k->vmin > 20;
    if (!rel)
        fprintf(gp, "%s\n", log ? "set logscale y" : "set yrange [0:*]");
    fprintf(gp, "set ylabel ");
    qqb_plot_str(gp, ylabel, 0);
    if (rel)
        fprintf(gp, " . ': change from the first snapshot, %%'\n"
                    "set format y '%%+g%%%%'\nset style fill transparent solid 0.15 noborder\n"
                    "set xzeroaxis lt 1 lw 1 lc rgb '#999999'\n");
    else
        fprintf(gp, "%s\n", log ? " . ' (log scale)'" : "");
    fprintf(gp, "plot ");
    for (size_t i = 0; i < k->nseries; i++) {
        const char *color = qqb_plot_color(i);
        if (rel)
            fprintf(gp, "%s%s index %zu using 1:6:7 with filledcurves lc rgb '%s' notitle",
                    i ? ", \\\n     " : "", qdat, i, color);
        fprintf(gp,
                "%s%s index %zu using 1:%d:xtic(2) with linespoints lw 2 pt 7 "
                "ps 0.8 lc rgb '%s' title ",
                rel || i ? ", \\\n     " : "", qdat, i, y, color);
        qqb_plot_str(gp, k->titles[i] ? k->titles[i] : "?", 0);
        fprintf(gp,
                ", \\\n     %s index %zu using 1:($4 > 0 ? $%d : 1/0) with "
                "points pt 6 ps 2.2 lw 2 lc rgb '%s' %s",
                qdat, i, y, QQB_PLOT_ALERT,
                i     ? "notitle"
                : rel ? "title 'moved beyond the noise'"
                      : "title 'changed'");
    }
    fprintf(gp, "\n");
}

/* The script of one picture: a line per series over the snapshots, the
 * labels on the x axis, a vermillion ring where a series changed. */
static int plot_series(const char *dir, const char *stem, const struct sink *k, const char *title,
                       const char *ylabel, char *err, size_t errsz)
{
    char name[64];
    snprintf(name, sizeof name, "%s.gp", stem);
    FILE *gp = qqb_plot_create(dir, name, err, errsz);
    if (!gp)
        return -1;
    qqb_plot_begin(gp, title);
    qqb_plot_svg(gp, stem, 1000, 520);
    fprintf(gp, "set title ");
    qqb_plot_str(gp, title, 0);
    fprintf(gp, "\nset xlabel 'snapshot (--record label), oldest first'\n"
                "set key outside right top\nset offsets 0.3, 0.3, 0, 0\n");
    char datn[80], qdat[200];
    snprintf(datn, sizeof datn, "%s.dat", stem);
    qqb_plot_quoted(qdat, sizeof qdat, datn, 0);
    plot_lines(gp, qdat, k, ylabel);
    qqb_plot_png_replot(gp, stem, 1000, 520);
    if (fclose(gp) != 0) {
        snprintf(err, errsz, "cannot write %s/%s", dir, name);
        return -1;
    }
    return qqb_plot_run(dir, name, err, errsz);
}

static void sink_free(struct sink *k)
{
    for (size_t i = 0; i < k->nseries; i++)
        free(k->titles[i]);
    free(k->titles);
}

int qqb_history_print(const struct qqb_snap *s, size_t n, const char *name, const char *bdir,
                      const char *machine, const char *only, const char *plot)
{
    printf("Suite %s: %zu snapshot%s under %s\n\n", name, n, n == 1 ? "" : "s", bdir);
    struct sink kc = {.relative = 1}, km = {0};
    char err[512] = "";
    if (plot && qqb_plot_mkdir(plot, err, sizeof err) == 0) {
        kc.dat = qqb_plot_create(plot, "history-cycles.dat", err, sizeof err);
        km.dat = kc.dat ? qqb_plot_create(plot, "history-memory.dat", err, sizeof err) : NULL;
    }
    print_cycles(s, n, machine, only, &kc);
    print_memory(s, n, only, &km);
    int bad = plot && (!kc.dat || !km.dat);
    if (kc.dat && fclose(kc.dat) != 0)
        bad = 1;
    if (km.dat && fclose(km.dat) != 0)
        bad = 1;
    char title[512];
    snprintf(title, sizeof title, "%s: net cycles per interval across snapshots on %s", name,
             machine);
    if (!bad && plot && kc.nseries &&
        plot_series(plot, "history-cycles", &kc, title, "cycles per interval (net)", err,
                    sizeof err) != 0)
        bad = 1;
    snprintf(title, sizeof title, "%s: live memory per key across snapshots, every machine", name);
    if (!bad && plot && km.nseries &&
        plot_series(plot, "history-memory", &km, title, "live KB", err, sizeof err) != 0)
        bad = 1;
    if (bad)
        /* gnuplot may have drawn them and warned: not "not written". */
        fprintf(stderr, "qqbench history: error: the pictures in %s are not complete: %s\n", plot,
                err);
    else if (plot && (kc.nseries || km.nseries))
        /* Only the pictures drawn: a picture without series is not written. */
        fprintf(stderr, "qqbench: pictures in %s (%s%s%s)\n", plot,
                kc.nseries ? "history-cycles" : "", kc.nseries && km.nseries ? ", " : "",
                km.nseries ? "history-memory" : "");
    else if (plot)
        fprintf(stderr, "qqbench: no pictures in %s: no series to draw\n", plot);
    sink_free(&kc);
    sink_free(&km);
    return bad ? -1 : 0;
}
