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

/* What each panel (key) holds, so the script plots no empty selection. */
struct panels {
    int (*has)[3];        /* baseline launches, this run's, a baseline median line */
    double (*span)[2];    /* lowest, highest median */
    double (*lim)[2];     /* lowest, highest point */
    FILE *pts, *box, *bl; /* the three data files */
};

/* A point's extent into panel K's limits. */
static void widen(struct panels *pn, size_t k, double lo, double hi)
{
    if (!pn->has[k][0] && !pn->has[k][1] && !pn->has[k][2])
        pn->lim[k][0] = pn->lim[k][1] = lo;
    pn->lim[k][0] = fmin(pn->lim[k][0], lo);
    pn->lim[k][1] = fmax(pn->lim[k][1], hi);
}

/* One series (0 the baseline's launches, 1 this run's) of case S in panel
 * K: its dots and its box, at CX, W wide. */
static void samples_series(struct panels *pn, size_t k, int series, const double *v, size_t nv,
                           double cx, double w)
{
    for (size_t j = 0; j < nv; j++) {
        /* Golden-ratio spread: even, and the same every time. */
        double f = fmod((double)j * 0.6180339887, 1.0) - 0.5;
        fprintf(pn->pts, "%zu\t%.4f\t%.9g\t%d\t%zu\n", k, cx + f * w, v[j], series, j + 1);
    }
    double q[5];
    pic_five(v, nv, q);
    fprintf(pn->box, "%zu\t%.4f\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%d\t%zu\n", k, cx, q[0], q[1], q[2],
            q[3], q[4], series, nv);
    widen(pn, k, q[0], q[4]);
    pn->has[k][series] = 1;
    if (q[2] > 0 && (pn->span[k][0] == 0 || q[2] < pn->span[k][0]))
        pn->span[k][0] = q[2];
    if (q[2] > pn->span[k][1])
        pn->span[k][1] = q[2];
}

/* Case S of benchmark B in panel K. */
static void samples_case(const struct rep *r, const struct bench *b, size_t k, size_t s,
                         struct panels *pn)
{
    const struct rcase *c = &r->cases[b->cases[s]];
    const struct rmetric *m = pic_find_metric(c, b->keys[k], "per_hit");
    const struct rcmp *bc = pic_base_cmp(r, b->cases[s], b->keys[k]);
    double x = (double)s + 1;
    int two = bc && bc->nbs > 0;
    for (int series = two ? 0 : 1; series < 2; series++) {
        const double *v = series ? (m ? m->v : NULL) : bc->bs;
        size_t nv = series ? (m ? m->n : 0) : bc->nbs;
        if (nv == 0)
            continue;
        samples_series(pn, k, series, v, nv, two ? x + (series ? 0.2 : -0.2) : x, two ? 0.16 : 0.3);
    }
    if (bc && isfinite(bc->base) && !two) {
        fprintf(pn->bl, "%zu\t%.4f\t%.9g\t%.4f\n", k, x - 0.4, bc->base, 0.8);
        widen(pn, k, bc->base, bc->base);
        pn->has[k][2] = 1;
    }
}

/* The three data files: points, boxes, baseline medians. */
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
    fprintf(pn->pts, "# panel\tx\tcycles_per_hit\tseries(0 baseline, 1 current)\tlaunch\n");
    fprintf(pn->box,
            "# panel\tx\tmin\tq1\tmedian\tq3\tmax\tseries(0 baseline, 1 current)\tlaunches\n");
    fprintf(pn->bl, "# panel\tx_from\ty\tx_length\tbaseline median cycles per hit\n");
    for (size_t k = 0; k < b->nkeys; k++)
        for (size_t s = 0; s < b->ncases; s++)
            samples_case(r, b, k, s, pn);
    int bad = pic_close_file(r, pn->pts, p->data[0]);
    bad = bad || pic_close_file(r, pn->box, p->data[1]);
    bad = bad || pic_close_file(r, pn->bl, p->data[2]);
    return bad ? -1 : 0;
}

/* Panel K: its title, y axis and plot command. */
static void samples_panel(FILE *gp, const struct rep *r, const struct pic *p, const char *key,
                          size_t k, const struct panels *pn)
{
    const char *dp = p->data[0], *db = p->data[1], *dl = p->data[2];
    fprintf(gp, "set title ");
    qqb_plot_str(gp, key, 0);
    /* Cases 20x apart (chain with 0 and 40 operations): a log axis,
     * so each case's spread shows at its own scale. */
    if (pn->span[k][0] > 0 && pn->span[k][1] / pn->span[k][0] > 20) {
        /* gnuplot: unlink only a linear axis, log only an unlinked one. */
        fprintf(gp, "\nunset logscale y\nunset link y2\nunset y2tics\nunset y2label\n"
                    "set logscale y\n"
                    "set ylabel 'cycles per hit (log scale)'\n");
    } else {
        fprintf(gp, "\nunset logscale y\nset ylabel 'cycles per hit'\n");
        pic_ns_axis(r, gp);
    }
    /* Every launch read the same figure: gnuplot would warn of an
     * empty y range; give it one around the value. */
    if (isfinite(pn->lim[k][0]) && pn->lim[k][0] == pn->lim[k][1]) {
        double v = pn->lim[k][0], d = fmax(fabs(v) * 0.05, 1.0);
        fprintf(gp, "set yrange [%.9g:%.9g]\n", v > 0 && v - d <= 0 ? v / 2 : v - d, v + d);
    } else {
        fprintf(gp, "set yrange [*:*]\n");
    }
    fprintf(gp, "plot ");
    const char *sep = "";
    for (int series = 0; series < 2; series++) {
        if (!pn->has[k][series])
            continue;
        const char *col = series ? C_CURRENT : C_BASELINE;
        fputs(sep, gp);
        qqb_plot_str(gp, db, 0);
        fprintf(gp,
                " using ($1==%zu && $8==%d ? $2 : NaN):4:3:7:6 with candlesticks "
                "whiskerbars 0.5 lc rgb '%s' lw 1.2, \\\n"
                "     '' using ($1==%zu && $8==%d ? $2 : NaN):5:5:5:5 with candlesticks "
                "lc rgb '%s' lw 2.5, \\\n     ",
                k, series, col, k, series, col);
        qqb_plot_str(gp, dp, 0);
        fprintf(gp,
                " using ($1==%zu && $4==%d ? $2 : NaN):3 with points pt 7 "
                "ps 0.55 lc rgb '#50%s'",
                k, series, col + 1);
        sep = ", \\\n     ";
    }
    if (pn->has[k][2]) {
        fputs(sep, gp);
        qqb_plot_str(gp, dl, 0);
        fprintf(gp,
                " using ($1==%zu ? $2 : NaN):3:4:(0) with vectors nohead "
                "dt 2 lw 2 lc rgb '%s'",
                k, QQB_PLOT_INK);
    }
    fprintf(gp, "\n");
}

/* The script: a multiplot of a panel per key. */
static int samples_script(struct rep *r, struct pic *p, const struct bench *b,
                          const struct panels *pn)
{
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    int rows, cols;
    pic_grid(b->nkeys, &rows, &cols);
    double *xs = malloc((b->ncases + 1) * sizeof *xs);
    if (!xs) {
        fclose(gp);
        return pic_fail(r, "out of memory");
    }
    for (size_t s = 0; s < b->ncases; s++)
        xs[s] = (double)s + 1;
    struct xtics xl = pic_xtics_layout(r, b->cases, b->ncases, 600, 0);
    qqb_plot_both_begin(gp, p->stem, 600 * cols, 340 * rows + 90 + xl.extra * rows);
    int anyb = 0, anyl = 0;
    for (size_t k = 0; k < b->nkeys; k++)
        anyb |= pn->has[k][0], anyl |= pn->has[k][2];
    char ttl[512];
    snprintf(ttl, sizeof ttl,
             "%s: cycles per hit of every launch (dots)\nbox = middle half, line = median%s%s",
             b->name, anyb ? ", grey = the baseline's launches, blue = this run's" : "",
             anyl ? ", dashed = baseline median" : "");
    fprintf(gp, "set multiplot layout %d,%d title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp,
            "\nunset key\nset boxwidth 0.3 absolute\nset style fill empty\n"
            "set xrange [0.4:%zu.6]\n",
            b->ncases);
    pic_xtics_write(gp, r, b->cases, xs, b->ncases, &xl);
    free(xs);
    fprintf(gp, "set grid ytics noxtics\n");
    for (size_t k = 0; k < b->nkeys; k++)
        samples_panel(gp, r, p, b->keys[k], k, pn);
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

int pic_samples(struct rep *r, const struct bench *b)
{
    if (b->nkeys == 0)
        return 0;
    char sb[64], stem[96];
    pic_safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "samples-%s", sb);
    struct pic *p = pic_new(r, 2, stem);
    if (!p)
        return 0;
    snprintf(p->title, sizeof p->title, "%s: cycles per hit of every launch, per key", b->name);
    snprintf(p->what, sizeof p->what,
             "A panel per key of %s, a column per case. Each dot is one launch's cycles per "
             "hit (the figure the verdict compares), spread sideways so none hides another; "
             "the box spans the middle half of the launches, its line the median, its "
             "whiskers the lowest and highest. The dashed line is the baseline's median; "
             "grey dots and boxes are the baseline's own launches when the report holds "
             "them. Nanoseconds on the right axis.",
             b->name);
    struct panels pn = {calloc(b->nkeys, sizeof *pn.has),
                        calloc(b->nkeys, sizeof *pn.span),
                        calloc(b->nkeys, sizeof *pn.lim),
                        NULL,
                        NULL,
                        NULL};
    int rc;
    if (!pn.has || !pn.span || !pn.lim)
        rc = pic_fail(r, "out of memory");
    else
        rc = samples_data(r, p, b, &pn) == 0 ? samples_script(r, p, b, &pn) : -1;
    free(pn.has);
    free(pn.span);
    free(pn.lim);
    return rc;
}
