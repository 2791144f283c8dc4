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
    FILE *pts = pic_open_data(r, p, "points"), *box = pts ? pic_open_data(r, p, "boxes") : NULL,
         *bl = box ? pic_open_data(r, p, "baseline") : NULL;
    if (!bl) {
        if (pts)
            fclose(pts);
        if (box)
            fclose(box);
        return -1;
    }
    qqb_plot_comment(pts, p->title);
    fprintf(pts, "# panel\tx\tcycles_per_hit\tseries(0 baseline, 1 current)\tlaunch\n");
    fprintf(box, "# panel\tx\tmin\tq1\tmedian\tq3\tmax\tseries(0 baseline, 1 current)\tlaunches\n");
    fprintf(bl, "# panel\tx_from\ty\tx_length\tbaseline median cycles per hit\n");
    /* What each panel holds, so the script plots no empty selection. */
    int(*has)[3] = calloc(b->nkeys, sizeof *has);
    double(*span)[2] = calloc(b->nkeys, sizeof *span); /* lowest, highest median */
    double(*lim)[2] = calloc(b->nkeys, sizeof *lim);   /* lowest, highest point */
    if (!has || !span || !lim) {
        free(has);
        free(span);
        free(lim);
        fclose(pts), fclose(box), fclose(bl);
        return pic_fail(r, "out of memory");
    }
    for (size_t k = 0; k < b->nkeys; k++) {
        for (size_t s = 0; s < b->ncases; s++) {
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
                double cx = two ? x + (series ? 0.2 : -0.2) : x;
                double w = two ? 0.16 : 0.3;
                for (size_t j = 0; j < nv; j++) {
                    /* Golden-ratio spread: even, and the same every time. */
                    double f = fmod((double)j * 0.6180339887, 1.0) - 0.5;
                    fprintf(pts, "%zu\t%.4f\t%.9g\t%d\t%zu\n", k, cx + f * w, v[j], series, j + 1);
                }
                double q[5];
                pic_five(v, nv, q);
                fprintf(box, "%zu\t%.4f\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%d\t%zu\n", k, cx, q[0],
                        q[1], q[2], q[3], q[4], series, nv);
                if (!has[k][0] && !has[k][1] && !has[k][2])
                    lim[k][0] = lim[k][1] = q[0];
                lim[k][0] = fmin(lim[k][0], q[0]);
                lim[k][1] = fmax(lim[k][1], q[4]);
                has[k][series] = 1;
                if (q[2] > 0 && (span[k][0] == 0 || q[2] < span[k][0]))
                    span[k][0] = q[2];
                if (q[2] > span[k][1])
                    span[k][1] = q[2];
            }
            if (bc && isfinite(bc->base) && !two) {
                fprintf(bl, "%zu\t%.4f\t%.9g\t%.4f\n", k, x - 0.4, bc->base, 0.8);
                if (!has[k][0] && !has[k][1] && !has[k][2])
                    lim[k][0] = lim[k][1] = bc->base;
                lim[k][0] = fmin(lim[k][0], bc->base);
                lim[k][1] = fmax(lim[k][1], bc->base);
                has[k][2] = 1;
            }
        }
    }
    int bad = pic_close_file(r, pts, p->data[0]) || pic_close_file(r, box, p->data[1]) ||
              pic_close_file(r, bl, p->data[2]);
    if (bad) {
        free(has);
        free(span);
        free(lim);
        return -1;
    }
    FILE *gp = pic_open_script(r, p);
    if (!gp) {
        free(has);
        free(span);
        free(lim);
        return -1;
    }
    int rows, cols;
    pic_grid(b->nkeys, &rows, &cols);
    double *xs = malloc((b->ncases + 1) * sizeof *xs);
    if (!xs) {
        free(has);
        free(span);
        free(lim);
        fclose(gp);
        return pic_fail(r, "out of memory");
    }
    for (size_t s = 0; s < b->ncases; s++)
        xs[s] = (double)s + 1;
    struct xtics xl = pic_xtics_layout(r, b->cases, b->ncases, 600, 0);
    qqb_plot_both_begin(gp, p->stem, 600 * cols, 340 * rows + 90 + xl.extra * rows);
    int anyb = 0, anyl = 0;
    for (size_t k = 0; k < b->nkeys; k++)
        anyb |= has[k][0], anyl |= has[k][2];
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
    const char *dp = p->data[0], *db = p->data[1], *dl = p->data[2];
    for (size_t k = 0; k < b->nkeys; k++) {
        fprintf(gp, "set title ");
        qqb_plot_str(gp, b->keys[k], 0);
        /* Cases 20x apart (chain with 0 and 40 operations): a log axis,
         * so each case's spread shows at its own scale. */
        if (span[k][0] > 0 && span[k][1] / span[k][0] > 20) {
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
        if (isfinite(lim[k][0]) && lim[k][0] == lim[k][1]) {
            double v = lim[k][0], d = fmax(fabs(v) * 0.05, 1.0);
            fprintf(gp, "set yrange [%.9g:%.9g]\n", v > 0 && v - d <= 0 ? v / 2 : v - d, v + d);
        } else {
            fprintf(gp, "set yrange [*:*]\n");
        }
        fprintf(gp, "plot ");
        const char *sep = "";
        for (int series = 0; series < 2; series++) {
            if (!has[k][series])
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
        if (has[k][2]) {
            fputs(sep, gp);
            qqb_plot_str(gp, dl, 0);
            fprintf(gp,
                    " using ($1==%zu ? $2 : NaN):3:4:(0) with vectors nohead "
                    "dt 2 lw 2 lc rgb '%s'",
                    k, QQB_PLOT_INK);
        }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    free(has);
    free(span);
    free(lim);
    return pic_finish(r, p, gp);
}
