/* pic_samples.c - the run report's picture 2, every launch's sample per key, per case of a
 * benchmark. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pic.h"

/* ======================================================================
 * Picture 2: every launch's sample, per key, per case of a benchmark.
 * ====================================================================== */

/* What each panel (a case's key: key K, case S is panel K * ncases + S)
 * holds, so the script plots no empty selection and sets every range. */
struct panels {
    int (*has)[3];        /* baseline launches, this run's, a baseline median line */
    double (*lim)[2];     /* lowest, highest point or median line */
    FILE *pts, *box, *bl; /* the three data files */
};

/* A point's extent into panel Q's limits. */
static void widen(struct panels *pn, size_t q, double lo, double hi)
{
    if (!pn->has[q][0] && !pn->has[q][1] && !pn->has[q][2])
        pn->lim[q][0] = pn->lim[q][1] = lo;
    pn->lim[q][0] = fmin(pn->lim[q][0], lo);
    pn->lim[q][1] = fmax(pn->lim[q][1], hi);
}

/* One series (0 the baseline's launches, 1 this run's) of key K in panel
 * Q: its dots and its box, at CX, W wide. */
static void samples_series(struct panels *pn, size_t k, size_t q, int series, const double *v,
                           size_t nv, double cx, double w)
{
    for (size_t j = 0; j < nv; j++) {
        /* Golden-ratio spread: even, and the same every time. */
        double f = fmod((double)j * 0.6180339887, 1.0) - 0.5;
        fprintf(pn->pts, "%zu\t%.4f\t%.9g\t%d\t%zu\n", k, cx + f * w, v[j], series, j + 1);
    }
    double q5[5];
    pic_five(v, nv, q5);
    fprintf(pn->box, "%zu\t%.4f\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%d\t%zu\n", k, cx, q5[0], q5[1],
            q5[2], q5[3], q5[4], series, nv);
    widen(pn, q, q5[0], q5[4]);
    pn->has[q][series] = 1;
}

/* Case S of benchmark B, key K. */
static void samples_case(const struct rep *r, const struct bench *b, size_t k, size_t s,
                         struct panels *pn)
{
    const struct rcase *c = &r->cases[b->cases[s]];
    const struct rmetric *m = pic_find_metric(c, b->keys[k], "per_hit");
    const struct rcmp *bc = pic_base_cmp(r, b->cases[s], b->keys[k]);
    size_t q = k * b->ncases + s;
    double x = (double)s + 1;
    int two = bc && bc->nbs > 0;
    for (int series = two ? 0 : 1; series < 2; series++) {
        const double *v = series ? (m ? m->v : NULL) : bc->bs;
        size_t nv = series ? (m ? m->n : 0) : bc->nbs;
        if (nv == 0)
            continue;
        samples_series(pn, k, q, series, v, nv, two ? x + (series ? 0.2 : -0.2) : x,
                       two ? 0.16 : 0.3);
    }
    if (bc && isfinite(bc->base) && !two) {
        fprintf(pn->bl, "%zu\t%.4f\t%.9g\t%.4f\n", k, x - 0.45, bc->base, 0.9);
        widen(pn, q, bc->base, bc->base);
        pn->has[q][2] = 1;
    }
}

/* The three data files: points, boxes, baseline medians. The x of case S
 * is S + 1 (the baseline's launches 0.2 left of it, this run's 0.2 right
 * when the report holds both), so a panel selects its case by x. */
static int samples_data(struct rep *r, struct pic *p, const struct bench *b, struct panels *pn)
{
    pn->pts = pic_open_data(r, p, "points");
    pn->box = pn->pts ? pic_open_data(r, p, "boxes") : NULL;
    pn->bl = pn->box ? pic_open_data(r, p, "baseline") : NULL;
    if (!pn->bl) {
        if (pn->pts)
            fclose(pn->pts);
        if (pn->box)
            fclose(pn->box);
        return -1;
    }
    qqb_plot_comment(pn->pts, p->title);
    fprintf(pn->pts, "# key\tx\tcycles_per_hit\tseries(0 baseline, 1 current)\tlaunch\n");
    fprintf(pn->box,
            "# key\tx\tmin\tq1\tmedian\tq3\tmax\tseries(0 baseline, 1 current)\tlaunches\n");
    fprintf(pn->bl, "# key\tx_from\ty\tx_length\tbaseline median cycles per hit\n");
    for (size_t k = 0; k < b->nkeys; k++)
        for (size_t s = 0; s < b->ncases; s++)
            samples_case(r, b, k, s, pn);
    int bad = pic_close_file(r, pn->pts, p->data[0]);
    bad = bad || pic_close_file(r, pn->box, p->data[1]);
    bad = bad || pic_close_file(r, pn->bl, p->data[2]);
    return bad ? -1 : 0;
}

/* The y range of panel Q: its points and the baseline's median with room
 * above and below, so neither a box nor the dashed line meets the border.
 * Every launch reading the same figure: a range around it (gnuplot would
 * warn of an empty one). */
static void samples_yrange(const struct panels *pn, size_t q, double *lo, double *hi)
{
    double a = pn->lim[q][0], b = pn->lim[q][1];
    if (!isfinite(a) || !isfinite(b) || (!pn->has[q][0] && !pn->has[q][1] && !pn->has[q][2])) {
        *lo = 0, *hi = 1;
    } else if (a == b) {
        double d = fmax(fabs(a) * 0.05, 1.0);
        *lo = a > 0 && a - d <= 0 ? a / 2 : a - d, *hi = a + d;
    } else {
        double pad = (b - a) * 0.12;
        *lo = a >= 0 && a - pad < 0 ? 0 : a - pad, *hi = b + pad;
    }
}

/* The selection of key K, case S's series SERIES in the points (ROW: 4) or
 * boxes (8) file. */
static void samples_sel(FILE *gp, size_t k, size_t s, int series, int col)
{
    fprintf(gp, "($1==%zu && $2>%zu.5 && $2<%zu.5 && $%d==%d ? $2 : NaN)", k, s, s + 1, col,
            series);
}

/* Panel (K, S): case S's key K on a scale of its own, the time on the
 * right. */
static void samples_panel(FILE *gp, const struct rep *r, const struct pic *p, const struct bench *b,
                          size_t k, size_t s, const struct panels *pn)
{
    const char *dp = p->data[0], *db = p->data[1], *dl = p->data[2];
    size_t q = k * b->ncases + s;
    char sn[128], t1[160], t2[160], ttl[330];
    pic_short_name(sn, sizeof sn, &r->cases[b->cases[s]]);
    qqb_plot_short(t1, sizeof t1, sn, QQB_PLOT_TIC_MAX);
    qqb_plot_short(t2, sizeof t2, b->keys[k], QQB_PLOT_TIC_MAX);
    snprintf(ttl, sizeof ttl, "%s\n%s", t1, t2);
    fprintf(gp, "set title ");
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\nset xrange [%zu.5:%zu.5]\n", s, s + 1);
    if (pn->has[q][0])
        fprintf(gp, "set xtics ('baseline' %zu.8, 'this run' %zu.2) scale 0\n", s, s + 1);
    else
        fprintf(gp, "unset xtics\n");
    double lo, hi;
    samples_yrange(pn, q, &lo, &hi);
    pic_cycles_axis(gp, lo, hi);
    pic_time_axis(r, gp, lo, hi);
    fprintf(gp, "plot ");
    const char *sep = "";
    for (int series = 0; series < 2; series++) {
        if (!pn->has[q][series])
            continue;
        const char *col = series ? C_CURRENT : C_BASELINE;
        fputs(sep, gp);
        qqb_plot_str(gp, db, 0);
        fprintf(gp, " using ");
        samples_sel(gp, k, s, series, 8);
        fprintf(gp,
                ":4:3:7:6 with candlesticks whiskerbars 0.5 lc rgb '%s' lw 1.2, \\\n"
                "     '' using ",
                col);
        samples_sel(gp, k, s, series, 8);
        fprintf(gp, ":5:5:5:5 with candlesticks lc rgb '%s' lw 2.5, \\\n     ", col);
        qqb_plot_str(gp, dp, 0);
        fprintf(gp, " using ");
        samples_sel(gp, k, s, series, 4);
        fprintf(gp, ":3 with points pt 7 ps 0.55 lc rgb '#50%s'", col + 1);
        sep = ", \\\n     ";
    }
    if (pn->has[q][2]) {
        fputs(sep, gp);
        qqb_plot_str(gp, dl, 0);
        fprintf(gp,
                " using ($1==%zu && $2>%zu.5 && $2<%zu.5 ? $2 : NaN):3:4:(0) with vectors "
                "nohead dt 2 lw 2 lc rgb '%s'",
                k, s, s + 1, QQB_PLOT_INK);
        sep = ", ";
    }
    if (!*sep)
        fprintf(gp, "NaN notitle");
    fprintf(gp, "\n");
}

/* The grid: one case a column, up to 4, a key's cases on rows of their
 * own (the next key starts a new row); one case: its keys side by side,
 * up to 3 a row. */
static void samples_grid(const struct bench *b, size_t *rows, size_t *cols, size_t *per_key)
{
    if (b->ncases == 1) {
        *cols = b->nkeys < 3 ? b->nkeys : 3;
        *rows = (b->nkeys + *cols - 1) / *cols;
        *per_key = 1;
    } else {
        *cols = b->ncases < 4 ? b->ncases : 4;
        *per_key = (b->ncases + *cols - 1) / *cols * *cols;
        *rows = b->nkeys * (*per_key / *cols);
    }
}

/* The script: a multiplot of a panel per key of each case. */
static int samples_script(struct rep *r, struct pic *p, const struct bench *b,
                          const struct panels *pn)
{
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    size_t rows, cols, per_key;
    samples_grid(b, &rows, &cols, &per_key);
    qqb_plot_both_begin(gp, p->stem, 340 * (int)cols, 290 * (int)rows + 100);
    int anyb = 0, anyl = 0;
    for (size_t q = 0; q < b->nkeys * b->ncases; q++)
        anyb |= pn->has[q][0], anyl |= pn->has[q][2];
    char ttl[512];
    snprintf(ttl, sizeof ttl,
             "%s: cycles per hit of every launch (dots), a panel per case and key, each on its "
             "own scale\nbox = middle half, thick line = median%s%s; right axis: the time",
             b->name, anyb ? ", grey = the baseline's launches, blue = this run's" : "",
             anyl ? ", dashed = baseline median" : "");
    fprintf(gp, "set multiplot layout %zu,%zu title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\nunset key\nset boxwidth 0.3 absolute\nset style fill empty\n"
                "set grid ytics noxtics\nset ylabel 'cycles per hit'\n");
    for (size_t k = 0; k < b->nkeys; k++) {
        for (size_t s = 0; s < b->ncases; s++)
            samples_panel(gp, r, p, b, k, s, pn);
        /* The next key starts a row of its own. */
        for (size_t e = b->ncases; e < per_key; e++)
            fprintf(gp, "set multiplot next\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

int pic_samples(struct rep *r, const struct bench *b)
{
    if (b->nkeys == 0 || b->ncases == 0)
        return 0;
    char sb[64], stem[96];
    pic_safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "samples-%s", sb);
    struct pic *p = pic_new(r, 2, stem);
    if (!p)
        return 0;
    snprintf(p->title, sizeof p->title, "%s: cycles per hit of every launch, per key", b->name);
    snprintf(p->what, sizeof p->what,
             "A panel per key of each case of %s, each on its own scale, so a few percent "
             "shows on a case many times faster than its neighbours. Each dot is one launch's "
             "cycles per hit (the figure the verdict compares), spread sideways so none hides "
             "another; the box spans the middle half of the launches, its line the median, its "
             "whiskers the lowest and highest. The dashed line is the baseline's median; "
             "grey dots and boxes are the baseline's own launches when the report holds "
             "them. The time per hit on the right axis.",
             b->name);
    size_t np = b->nkeys * b->ncases;
    struct panels pn = {calloc(np, sizeof *pn.has), calloc(np, sizeof *pn.lim), NULL, NULL, NULL};
    int rc;
    if (!pn.has || !pn.lim)
        rc = pic_fail(r, "out of memory");
    else
        rc = samples_data(r, p, b, &pn) == 0 ? samples_script(r, p, b, &pn) : -1;
    free(pn.has);
    free(pn.lim);
    return rc;
}
