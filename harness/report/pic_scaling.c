/* pic_scaling.c - the run report's picture 4, scaling over node counts. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pic.h"

/* ======================================================================
 * Picture 4: scaling over node counts.
 * ====================================================================== */

/* The node counts of a benchmark, ascending, and its series (variants and
 * points): what the lines and panels of the picture are. */
struct scaling {
    long nmin, nmax;
    size_t distinct;
    long seen[64];
    const char *series[32];
    size_t ns;
    size_t *sidx;  /* per case of the benchmark: its series + 1 (0: none) */
    int (*has)[2]; /* per (key, series): medians, imbalances */
    double *ymax;  /* per key: the highest median or q3 */
    double imax;   /* the highest imbalance */
};

/* The node counts of B's cases; 0 when fewer than two. */
static int scaling_nodes(const struct rep *r, const struct bench *b, struct scaling *sc)
{
    sc->nmin = -1, sc->nmax = -1;
    for (size_t s = 0; s < b->ncases; s++) {
        long nd = r->cases[b->cases[s]].nodes;
        size_t q = 0;
        while (q < sc->distinct && sc->seen[q] != nd)
            q++;
        if (q == sc->distinct && sc->distinct < 64)
            sc->seen[sc->distinct++] = nd;
        sc->nmin = sc->nmin < 0 || nd < sc->nmin ? nd : sc->nmin;
        sc->nmax = nd > sc->nmax ? nd : sc->nmax;
    }
    if (sc->distinct < 2 || b->nkeys == 0 || sc->nmin < 1)
        return 0;
    for (size_t i = 1; i < sc->distinct; i++) /* ascending, for the lines */
        for (size_t j = i; j > 0 && sc->seen[j - 1] > sc->seen[j]; j--) {
            long t = sc->seen[j];
            sc->seen[j] = sc->seen[j - 1], sc->seen[j - 1] = t;
        }
    return 1;
}

/* "variant,point" of C, the series it belongs to. */
static void series_label(char *b, size_t n, const struct rcase *c)
{
    snprintf(b, n, "%s%s%s", c->variant ? c->variant : "", c->variant && c->point ? "," : "",
             c->point ? c->point : "");
}

/* Series: the variants (and points) of the benchmark. 0 or -1. */
static int scaling_series(struct rep *r, const struct bench *b, struct scaling *sc)
{
    sc->sidx = calloc(b->ncases, sizeof *sc->sidx);
    if (!sc->sidx)
        return pic_fail(r, "out of memory");
    for (size_t s = 0; s < b->ncases; s++) {
        const struct rcase *c = &r->cases[b->cases[s]];
        char lab[128];
        series_label(lab, sizeof lab, c);
        size_t q = 0;
        while (q < sc->ns) {
            const struct rcase *o = &r->cases[b->cases[0]];
            for (size_t t = 0; t < b->ncases; t++)
                if (sc->sidx[t] == q + 1) {
                    o = &r->cases[b->cases[t]];
                    break;
                }
            char ol[128];
            series_label(ol, sizeof ol, o);
            if (!strcmp(ol, lab))
                break;
            q++;
        }
        if (q == sc->ns) {
            if (sc->ns == 32)
                continue;
            sc->series[sc->ns++] = c->variant ? c->variant : (c->point ? c->point : c->bench);
        }
        sc->sidx[s] = q + 1;
    }
    return 0;
}

/* The row of case S (series Q, ND nodes) in panel K, if it has figures. */
static void scaling_row(FILE *d, const struct rep *r, const struct bench *b, size_t k, size_t q,
                        size_t s, struct scaling *sc)
{
    long nd = r->cases[b->cases[s]].nodes;
    const struct rcase *c = &r->cases[b->cases[s]];
    const struct rmetric *m = pic_find_metric(c, b->keys[k], "per_hit");
    const struct rmetric *im = pic_find_metric(c, b->keys[k], "imbalance");
    const struct rmetric *tk = pic_find_metric(c, b->keys[k], "ticks");
    double q5[5], i5[5], t5[5];
    pic_five(m ? m->v : NULL, m ? m->n : 0, q5);
    pic_five(im ? im->v : NULL, im ? im->n : 0, i5);
    pic_five(tk ? tk->v : NULL, tk ? tk->n : 0, t5);
    /* One node is balanced by definition (max = mean). */
    if (!im && nd == 1 && isfinite(q5[2]))
        i5[2] = 1.0;
    if (!isfinite(q5[2]) && !isfinite(i5[2]))
        return;
    fprintf(d, "%zu\t%zu\t%ld\t", k, q, nd);
    pic_dnum(d, q5[2]);
    fputc('\t', d);
    pic_dnum(d, q5[1]);
    fputc('\t', d);
    pic_dnum(d, q5[3]);
    fputc('\t', d);
    pic_dnum(d, i5[2]);
    fputc('\t', d);
    pic_dnum(d, t5[2]);
    fputc('\t', d);
    pic_dtext(d, c->name);
    fputc('\n', d);
    if (isfinite(i5[2]) && i5[2] > sc->imax)
        sc->imax = i5[2];
    for (int i = 2; i <= 3; i++)
        if (isfinite(q5[i]) && q5[i] > sc->ymax[k])
            sc->ymax[k] = q5[i];
    sc->has[k * sc->ns + q][0] |= isfinite(q5[2]);
    sc->has[k * sc->ns + q][1] |= isfinite(i5[2]);
}

static int scaling_data(struct rep *r, struct pic *p, const struct bench *b, struct scaling *sc)
{
    FILE *d = pic_open_data(r, p, NULL);
    if (!d)
        return -1;
    qqb_plot_comment(d, p->title);
    fprintf(d, "# panel\tseries\tnodes\tmedian_cycles_per_hit\tq1\tq3\timbalance_median"
               "\tticks_median\tcase\n");
    sc->has = calloc(b->nkeys * sc->ns + 1, sizeof *sc->has);
    sc->ymax = calloc(b->nkeys, sizeof *sc->ymax);
    if (!sc->has || !sc->ymax) {
        fclose(d);
        return pic_fail(r, "out of memory");
    }
    for (size_t k = 0; k < b->nkeys; k++)
        for (size_t q = 0; q < sc->ns; q++)
            /* Sorted by node count so each series' points are adjacent. */
            for (size_t ni = 0; ni < sc->distinct; ni++)
                for (size_t s = 0; s < b->ncases; s++)
                    if (sc->sidx[s] == q + 1 && r->cases[b->cases[s]].nodes == sc->seen[ni])
                        scaling_row(d, r, b, k, q, s, sc);
    return pic_close_file(r, d, p->data[0]);
}

/* Panel K: a line per series and its imbalance. */
static void scaling_panel(FILE *gp, const struct pic *p, const struct bench *b, size_t k,
                          const struct scaling *sc)
{
    fprintf(gp, "set title ");
    qqb_plot_str(gp, b->keys[k], 0);
    if (k == 1)
        fprintf(gp, "\nunset key");
    fprintf(gp, "\n");
    /* Cycles in plain figures (k, M) at round steps, as every picture. */
    pic_cycles_axis(gp, 0, sc->ymax[k] > 0 ? sc->ymax[k] * 1.15 : 1.0);
    fprintf(gp, "plot ");
    const char *sep = "";
    for (size_t q = 0; q < sc->ns; q++) {
        const char *col = qqb_plot_color(q);
        if (sc->has[k * sc->ns + q][0]) {
            fputs(sep, gp);
            qqb_plot_str(gp, p->data[0], 0);
            fprintf(gp,
                    " using ($1==%zu && $2==%zu ? $3 : NaN):4:5:6 with yerrorlines "
                    "pt 7 ps 1.1 lw 2 lc rgb '%s' title ",
                    k, q, col);
            qqb_plot_str(gp, sc->series[q], 0);
            sep = ", \\\n     ";
        }
        if (sc->has[k * sc->ns + q][1]) {
            fputs(sep, gp);
            qqb_plot_str(gp, p->data[0], 0);
            fprintf(gp,
                    " using ($1==%zu && $2==%zu ? $3 : NaN):7 axes x1y2 with "
                    "linespoints pt 6 ps 1 dt 2 lw 1.5 lc rgb '%s' title ",
                    k, q, col);
            char it[160];
            snprintf(it, sizeof it, "%s imbalance", sc->series[q]);
            qqb_plot_str(gp, it, 0);
            sep = ", \\\n     ";
        }
    }
    if (!*sep)
        fprintf(gp, "NaN notitle");
    fprintf(gp, "\n");
}

static int scaling_script(struct rep *r, struct pic *p, const struct bench *b,
                          const struct scaling *sc)
{
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    int rows, cols;
    pic_grid(b->nkeys, &rows, &cols);
    qqb_plot_both_begin(gp, p->stem, 600 * cols, 340 * rows + 80);
    char ttl[256];
    snprintf(ttl, sizeof ttl,
             "%s: median cycles per hit by node count (bars: middle half)\n"
             "dashed: imbalance, right axis",
             b->name);
    fprintf(gp, "set multiplot layout %d,%d title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\nset logscale x 2\nset xrange [%.6g:%.6g]\nset xtics (", (double)sc->nmin / 1.35,
            (double)sc->nmax * 1.35);
    for (size_t q = 0; q < sc->distinct; q++)
        fprintf(gp, "%s\"%ld\" %ld", q ? ", " : "", sc->seen[q], sc->seen[q]);
    fprintf(gp,
            ")\nset xlabel 'nodes (MPI ranks)'\nset ylabel 'cycles per hit'\n"
            "set y2range [1:%.6g]\nset y2tics nomirror out\n"
            "set y2label 'imbalance (max / mean over nodes)'\n"
            "set key top left samplen 2\nset grid ytics xtics\n",
            /* Set, not autoscaled: imbalances all 1 (one node, or none
             * recorded) made gnuplot warn of an empty range. */
            sc->imax * 1.1 > 1.5 ? sc->imax * 1.1 : 1.5);
    for (size_t k = 0; k < b->nkeys; k++)
        scaling_panel(gp, p, b, k, sc);
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

int pic_scaling(struct rep *r, const struct bench *b)
{
    struct scaling sc = {0};
    if (!scaling_nodes(r, b, &sc))
        return 0;
    if (scaling_series(r, b, &sc) != 0)
        return -1;
    char sb[64], stem[96];
    pic_safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "scaling-%s", sb);
    struct pic *p = pic_new(r, 4, stem);
    if (!p) {
        free(sc.sidx);
        return 0;
    }
    snprintf(p->title, sizeof p->title, "%s: cycles per hit against the node count", b->name);
    snprintf(p->what, sizeof p->what,
             "A panel per key of %s; a line per variant through the median cycles per hit at "
             "each node count, its bars the middle half of the launches. Dashed, on the right "
             "axis: the imbalance, the slowest node's time in the key over the mean node's "
             "(1 = balanced).",
             b->name);
    int rc = scaling_data(r, p, b, &sc) == 0 ? scaling_script(r, p, b, &sc) : -1;
    free(sc.sidx);
    free(sc.has);
    free(sc.ymax);
    return rc;
}
