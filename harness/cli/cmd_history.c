/* cmd_history.c - qqbench history: a suite's labelled snapshots (--record) as series per case and
 * key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "cmds.h"
#include "opts.h"
#include "fingerprint.h"
#include "git.h"
#include "history.h"
#include "yamlcur.h"
#include "plot.h"
#include "results.h"
#include "runner.h"
#include "stats.h"
#include "strmap.h"
#include "suite.h"

/* The usage's prose around the option lines, which the table in
 * cmd_history generates. */
static const struct qqb_opts_cmd history_cmd = {
    "history",
    "usage: qqbench history SUITE.yaml|SUITE [--baselines DIR] [--key K]\n"
    "                       [--machine ID]\n\n"
    "Print, per case and key, the series across the labelled snapshots that\n"
    "'qqbench run --record LABEL' kept (oldest first): net cycles per interval\n"
    "(the median over launches) measured on this machine (or --machine ID),\n"
    "and memory per key (live and peak bytes, objects created) from the\n"
    "snapshots of every machine, since memory does not depend on it. A '*'\n"
    "marks a change from the label before (cycles: beyond the larger of the\n"
    "two labels' noise; memory: any change).\n\n",
    "\nExit: 0; 2 for bad usage, or when there is no snapshot at all.\n"};

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

/* One snapshot: its label and what it holds. */
struct snap {
    char *label;
    char *machine;
    struct qqb_results r;
};

static int load_snaps(const char *dir, const char *suite, const char *id, struct snap **out,
                      size_t *n)
{
    char **labels = NULL;
    size_t nl = 0;
    struct qqb_fingerprint fp;
    memset(&fp, 0, sizeof fp);
    snprintf(fp.id, sizeof fp.id, "%s", id);
    if (qqb_baseline_history(dir, suite, id, &labels, &nl) != 0)
        return -1;
    struct snap *s = realloc(*out, (*n + nl + 1) * sizeof *s);
    if (!s) {
        qqb_baseline_free_list(labels, nl);
        return -1;
    }
    *out = s;
    for (size_t i = 0; i < nl; i++) {
        char path[4096], err[512];
        if (qqb_baseline_path(dir, suite, &fp, labels[i], path, sizeof path) != 0)
            continue;
        struct snap *t = &s[*n];
        if (qqb_baseline_read_as(path, suite, id, &t->r, err, sizeof err) != 0) {
            fprintf(stderr, "qqbench history: warning: %s\n", err);
            continue;
        }
        /* The label inside must lead to this file, as run checks a baseline's
         * suite and machine against its path. */
        char back[4096];
        if (!t->r.label || qqb_baseline_path(dir, suite, &fp, t->r.label, back, sizeof back) != 0 ||
            strcmp(back, path) != 0) {
            struct qqb_qbuf q;
            fprintf(stderr,
                    "qqbench history: warning: %s: error: label '%s' disagrees with the file "
                    "name, which is for label '%s'; a snapshot copied or renamed by hand? "
                    "Skipped\n",
                    path, qqb_qs(&q, t->r.label ? t->r.label : ""), labels[i]);
            qqb_results_free(&t->r);
            continue;
        }
        t->label = strdup(labels[i]);
        t->machine = strdup(id);
        (*n)++;
    }
    qqb_baseline_free_list(labels, nl);
    return 0;
}

/* Oldest first across machines, by the date each snapshot stores (ISO 8601
 * UTC to the second, so the text order is the time order), then by label in
 * version order, as qqb_baseline_history orders one machine's. */
static int by_date(const void *a, const void *b)
{
    const struct snap *x = a, *y = b;
    const char *dx = x->r.date ? x->r.date : "", *dy = y->r.date ? y->r.date : "";
    int c = strcmp(dx, dy);
    return c ? c : qqb_label_cmp(x->label, y->label);
}

static void print_cycles(const struct snap *s, size_t n, const char *machine, const char *only,
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
                    double lim =
                        fmax(isfinite(noise) ? noise : 0, isfinite(prev_noise) ? prev_noise : 0);
                    int moved = isfinite(prev) && prev > 0 &&
                                fabs(100.0 * (med / prev - 1.0)) > fmax(lim, 1.0);
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

static void print_memory(const struct snap *s, size_t n, const char *only, struct sink *sk)
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
                    int moved =
                        prev &&
                        (prev->obj_bytes + prev->alloc_bytes != om->obj_bytes + om->alloc_bytes ||
                         prev->peak_bytes != om->peak_bytes || prev->created != om->created);
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

/* The absolute picture's axis and plot command (history-memory): a line
 * per series, a ring where it changed. */
static void plot_absolute(FILE *gp, const char *qdat, const struct sink *k, const char *ylabel)
{
    /* Series many times apart: a log axis, or the small ones lie flat on 0. */
    int log = k->vmin > 0 && k->vmax / k->vmin > 20;
    fprintf(gp, "%s\nset ylabel ", log ? "set logscale y" : "set yrange [0:*]");
    qqb_plot_str(gp, ylabel, 0);
    fprintf(gp, "%s\n", log ? " . ' (log scale)'" : "");
    fprintf(gp, "plot ");
    for (size_t i = 0; i < k->nseries; i++) {
        fprintf(gp,
                "%s%s index %zu using 1:3:xtic(2) with linespoints lw 2 pt 7 "
                "ps 0.8 lc rgb '%s' title ",
                i ? ", \\\n     " : "", qdat, i, qqb_plot_color(i));
        qqb_plot_str(gp, k->titles[i] ? k->titles[i] : "?", 0);
        fprintf(gp,
                ", \\\n     %s index %zu using 1:($4 > 0 ? $3 : 1/0) with "
                "points pt 6 ps 2.2 lw 2 lc rgb '%s' %s",
                qdat, i, QQB_PLOT_ALERT, i ? "notitle" : "title 'changed'");
    }
    fprintf(gp, "\n");
}

/* The relative picture's axis and plot command (history-cycles): each
 * series as its change in percent from its own first snapshot, so a series
 * of a few hundred cycles and one of millions share one scale and one
 * series' swings do not flatten another's step; around each line, shaded
 * in its colour, the band of each snapshot's launch-to-launch noise; a
 * ring where it moved beyond the noise (columns: sink_relative). */
static void plot_relative(FILE *gp, const char *qdat, const struct sink *k, const char *ylabel)
{
    fprintf(gp, "set ylabel ");
    qqb_plot_str(gp, ylabel, 0);
    fprintf(gp, " . ': change from the first snapshot, %%'\n"
                "set format y '%%+g%%%%'\nset style fill transparent solid 0.15 noborder\n"
                "set xzeroaxis lt 1 lw 1 lc rgb '#999999'\n");
    fprintf(gp, "plot ");
    for (size_t i = 0; i < k->nseries; i++) {
        const char *color = qqb_plot_color(i);
        fprintf(gp, "%s%s index %zu using 1:6:7 with filledcurves lc rgb '%s' notitle",
                i ? ", \\\n     " : "", qdat, i, color);
        fprintf(gp,
                ", \\\n     %s index %zu using 1:5:xtic(2) with linespoints lw 2 pt 7 "
                "ps 0.8 lc rgb '%s' title ",
                qdat, i, color);
        qqb_plot_str(gp, k->titles[i] ? k->titles[i] : "?", 0);
        fprintf(gp,
                ", \\\n     %s index %zu using 1:($4 > 0 ? $5 : 1/0) with "
                "points pt 6 ps 2.2 lw 2 lc rgb '%s' %s",
                qdat, i, QQB_PLOT_ALERT, i ? "notitle" : "title 'moved beyond the noise'");
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
    if (k->relative)
        plot_relative(gp, qdat, k, ylabel);
    else
        plot_absolute(gp, qdat, k, ylabel);
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

/* The suite's name in NAME (NAMELEN bytes) from ARG, a suite file or a
 * bare name, and where its baselines are in *BDIR when not given: the
 * suite's checkout's (a file), the current checkout's (a name), else
 * baselines. 0, or -1 with the error printed. */
static int suite_and_dir(const char *arg, char *name, size_t namelen, const char **bdir,
                         char *dirbuf, size_t dirlen)
{
    size_t len = strlen(arg);
    if (len > 5 && !strcmp(arg + len - 5, ".yaml")) {
        struct qqb_suite *su;
        char err[1024], kbuf[4096];
        if (qqb_suite_load(arg, qqb_default_kernel_dir(kbuf, sizeof kbuf), &su, err, sizeof err) !=
            0) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
        snprintf(name, namelen, "%s", su->name);
        if (!*bdir && qqb_git_baselines_dir(su->dir, dirbuf, dirlen) == 0)
            *bdir = dirbuf;
        qqb_suite_free(su);
    } else {
        snprintf(name, namelen, "%s", arg);
        if (!*bdir && qqb_git_baselines_dir(".", dirbuf, dirlen) == 0)
            *bdir = dirbuf;
    }
    if (!*bdir)
        *bdir = "baselines";
    return 0;
}

/* Every machine's snapshots of suite NAME (memory), MACHINE's first. */
static int load_all(const char *bdir, const char *name, const char *machine, struct snap **s,
                    size_t *n)
{
    char **ids = NULL;
    size_t nids = 0;
    int rc = load_snaps(bdir, name, machine, s, n);
    if (rc == 0)
        rc = qqb_baseline_find_others(bdir, name, machine, &ids, &nids);
    for (size_t i = 0; rc == 0 && i < nids; i++)
        rc = load_snaps(bdir, name, ids[i], s, n);
    qqb_baseline_free_list(ids, nids);
    return rc;
}

/* The series of S (N snapshots, sorted by date), on stdout and, with
 * PLOT, as pictures in that folder. 0, or -1 with the error printed. */
static int print_history(struct snap *s, size_t n, const char *name, const char *bdir,
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

int cmd_history(int argc, char **argv)
{
    const char *arg = NULL, *bdir = NULL, *only = NULL, *machine = NULL, *plot = NULL;
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--baselines", "DIR", &bdir,
                       "where baselines live (default: as 'qqbench run')"),
        QQB_OPT_STRING("--key", "K", &only, "only this key"),
        QQB_OPT_STRING("--machine", "ID", &machine,
                       "cycles of this machine fingerprint (default: this one)"),
        QQB_OPT_STRING("--plot", "DIR", &plot,
                       "also draw the series (history-cycles, history-memory:\n"
                       "data, .gp script, SVG and PNG) into DIR"),
        QQB_OPT_REQUIRED_POSITIONAL("SUITE", &arg),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&history_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    char name[256], dirbuf[4096];
    if (suite_and_dir(arg, name, sizeof name, &bdir, dirbuf, sizeof dirbuf) != 0)
        return QQB_EXIT_USAGE;
    struct qqb_fingerprint fp;
    qqb_fingerprint_this(&fp);
    if (!machine)
        machine = fp.id;

    struct snap *s = NULL;
    size_t n = 0;
    int rc = load_all(bdir, name, machine, &s, &n);
    if (rc != 0) {
        fprintf(stderr, "qqbench history: error: cannot read the snapshots under %s\n", bdir);
    } else if (n == 0) {
        fprintf(stderr,
                "qqbench history: error: no snapshot of suite '%s' under %s "
                "(make one with 'qqbench run SUITE.yaml --record LABEL')\n",
                name, bdir);
        rc = -1;
    } else {
        qsort(s, n, sizeof *s, by_date);
        rc = print_history(s, n, name, bdir, machine, only, plot);
    }
    for (size_t i = 0; i < n; i++) {
        free(s[i].label);
        free(s[i].machine);
        qqb_results_free(&s[i].r);
    }
    free(s);
    return rc == 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
}
