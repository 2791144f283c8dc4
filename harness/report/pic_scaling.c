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

int pic_scaling(struct rep *r, const struct bench *b)
{
    long nmin = -1, nmax = -1;
    size_t distinct = 0;
    long seen[64];
    for (size_t s = 0; s < b->ncases; s++) {
        long nd = r->cases[b->cases[s]].nodes;
        size_t q = 0;
        while (q < distinct && seen[q] != nd)
            q++;
        if (q == distinct && distinct < 64)
            seen[distinct++] = nd;
        nmin = nmin < 0 || nd < nmin ? nd : nmin;
        nmax = nd > nmax ? nd : nmax;
    }
    if (distinct < 2 || b->nkeys == 0 || nmin < 1)
        return 0;
    for (size_t i = 1; i < distinct; i++) /* ascending, for the lines */
        for (size_t j = i; j > 0 && seen[j - 1] > seen[j]; j--) {
            long t = seen[j];
            seen[j] = seen[j - 1], seen[j - 1] = t;
        }
    /* Series: the variants (and points) of the benchmark. */
    const char *series[32];
    size_t ns = 0;
    size_t *sidx = calloc(b->ncases, sizeof *sidx);
    if (!sidx)
        return pic_fail(r, "out of memory");
    for (size_t s = 0; s < b->ncases; s++) {
        const struct rcase *c = &r->cases[b->cases[s]];
        char lab[128];
        snprintf(lab, sizeof lab, "%s%s%s", c->variant ? c->variant : "",
                 c->variant && c->point ? "," : "", c->point ? c->point : "");
        size_t q = 0;
        while (q < ns) {
            const struct rcase *o = &r->cases[b->cases[0]];
            for (size_t t = 0; t < b->ncases; t++)
                if (sidx[t] == q + 1) {
                    o = &r->cases[b->cases[t]];
                    break;
                }
            char ol[128];
            snprintf(ol, sizeof ol, "%s%s%s", o->variant ? o->variant : "",
                     o->variant && o->point ? "," : "", o->point ? o->point : "");
            if (!strcmp(ol, lab))
                break;
            q++;
        }
        if (q == ns) {
            if (ns == 32)
                continue;
            series[ns++] = c->variant ? c->variant : (c->point ? c->point : c->bench);
        }
        sidx[s] = q + 1;
    }
    char sb[64], stem[96];
    pic_safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "scaling-%s", sb);
    struct pic *p = pic_new(r, 4, stem);
    if (!p) {
        free(sidx);
        return 0;
    }
    snprintf(p->title, sizeof p->title, "%s: cycles per hit against the node count", b->name);
    snprintf(p->what, sizeof p->what,
             "A panel per key of %s; a line per variant through the median cycles per hit at "
             "each node count, its bars the middle half of the launches. Dashed, on the right "
             "axis: the imbalance, the slowest node's time in the key over the mean node's "
             "(1 = balanced).",
             b->name);
    FILE *d = pic_open_data(r, p, NULL);
    if (!d) {
        free(sidx);
        return -1;
    }
    qqb_plot_comment(d, p->title);
    fprintf(d, "# panel\tseries\tnodes\tmedian_cycles_per_hit\tq1\tq3\timbalance_median"
               "\tticks_median\tcase\n");
    int(*has)[2] = calloc(b->nkeys * ns + 1, sizeof *has);
    if (!has) {
        fclose(d);
        free(sidx);
        return pic_fail(r, "out of memory");
    }
    for (size_t k = 0; k < b->nkeys; k++)
        for (size_t q = 0; q < ns; q++) {
            /* Sorted by node count so each series' points are adjacent. */
            for (size_t ni = 0; ni < distinct; ni++)
                for (size_t s = 0; s < b->ncases; s++) {
                    long nd = seen[ni];
                    const struct rcase *c = &r->cases[b->cases[s]];
                    if (sidx[s] != q + 1 || c->nodes != nd)
                        continue;
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
                        continue;
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
                    has[k * ns + q][0] |= isfinite(q5[2]);
                    has[k * ns + q][1] |= isfinite(i5[2]);
                }
        }
    free(sidx);
    if (pic_close_file(r, d, p->data[0]) != 0) {
        free(has);
        return -1;
    }
    FILE *gp = pic_open_script(r, p);
    if (!gp) {
        free(has);
        return -1;
    }
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
    fprintf(gp, "\nset logscale x 2\nset xrange [%.6g:%.6g]\nset xtics (", (double)nmin / 1.35,
            (double)nmax * 1.35);
    for (size_t q = 0; q < distinct; q++)
        fprintf(gp, "%s\"%ld\" %ld", q ? ", " : "", seen[q], seen[q]);
    fprintf(gp, ")\nset xlabel 'nodes (MPI ranks)'\nset ylabel 'cycles per hit'\n"
                "set yrange [0:*]\nset y2range [1:1.5<*]\nset y2tics nomirror out\n"
                "set y2label 'imbalance (max / mean over nodes)'\n"
                "set key top left samplen 2\nset grid ytics xtics\n");
    for (size_t k = 0; k < b->nkeys; k++) {
        fprintf(gp, "set title ");
        qqb_plot_str(gp, b->keys[k], 0);
        if (k == 1)
            fprintf(gp, "\nunset key");
        fprintf(gp, "\nplot ");
        const char *sep = "";
        for (size_t q = 0; q < ns; q++) {
            const char *col = qqb_plot_color(q);
            if (has[k * ns + q][0]) {
                fputs(sep, gp);
                qqb_plot_str(gp, p->data[0], 0);
                fprintf(gp,
                        " using ($1==%zu && $2==%zu ? $3 : NaN):4:5:6 with yerrorlines "
                        "pt 7 ps 1.1 lw 2 lc rgb '%s' title ",
                        k, q, col);
                qqb_plot_str(gp, series[q], 0);
                sep = ", \\\n     ";
            }
            if (has[k * ns + q][1]) {
                fputs(sep, gp);
                qqb_plot_str(gp, p->data[0], 0);
                fprintf(gp,
                        " using ($1==%zu && $2==%zu ? $3 : NaN):7 axes x1y2 with "
                        "linespoints pt 6 ps 1 dt 2 lw 1.5 lc rgb '%s' title ",
                        k, q, col);
                char it[160];
                snprintf(it, sizeof it, "%s imbalance", series[q]);
                qqb_plot_str(gp, it, 0);
                sep = ", \\\n     ";
            }
        }
        if (!*sep)
            fprintf(gp, "NaN notitle");
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    free(has);
    return pic_finish(r, p, gp);
}
