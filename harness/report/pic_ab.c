/* pic_ab.c - the run report's picture 5, A/B pairs side by side with the change labelled. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pic.h"

/* ======================================================================
 * Picture 5: A/B pairs side by side, the delta labelled.
 * ====================================================================== */

int pic_ab(struct rep *r, const struct bench *b)
{
    /* The comparisons with a reference case, of this benchmark. */
    size_t *sel = calloc(r->ncmps ? r->ncmps : 1, sizeof *sel), nsel = 0;
    const char **keys = calloc(r->ncmps ? r->ncmps : 1, sizeof *keys);
    long *groups = calloc(r->ncmps ? r->ncmps : 1, sizeof *groups);
    if (!sel || !keys || !groups) {
        free(sel), free(keys), free(groups);
        return pic_fail(r, "out of memory");
    }
    size_t nkeys = 0, ngroups = 0;
    for (size_t i = 0; i < r->ncmps; i++) {
        const struct rcmp *c = &r->cmps[i];
        if (c->ri < 0 || c->ci < 0 || c->ri == c->ci || strcmp(r->cases[c->ci].bench, b->name))
            continue;
        if (!strcmp(c->kind, "baseline"))
            continue;
        sel[nsel++] = i;
        size_t q = 0;
        while (q < nkeys && strcmp(keys[q], c->key))
            q++;
        if (q == nkeys)
            keys[nkeys++] = c->key;
        q = 0;
        while (q < ngroups && groups[q] != c->ri)
            q++;
        if (q == ngroups)
            groups[ngroups++] = c->ri;
    }
    if (nsel == 0) {
        free(sel), free(keys), free(groups);
        return 0;
    }
    char sb[64], stem[96];
    pic_safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "ab-%s", sb);
    struct pic *p = pic_new(r, 5, stem);
    if (!p) {
        free(sel), free(keys), free(groups);
        return 0;
    }
    snprintf(p->title, sizeof p->title, "%s: variants side by side, median cycles per hit",
             b->name);
    snprintf(p->what, sizeof p->what,
             "A panel per key of %s. In each group the first bar is the reference variant, "
             "the next ones the variants compared with it (launched interleaved with it); "
             "bars are the median cycles per hit, the error bars the middle half of the "
             "launches. Above each compared bar: its change against the reference, with the "
             "interval and the verdict.",
             b->name);
    FILE *d = pic_open_data(r, p, "bars"), *l = d ? pic_open_data(r, p, "deltas") : NULL;
    if (!l) {
        if (d)
            fclose(d);
        free(sel), free(keys), free(groups);
        return -1;
    }
    qqb_plot_comment(d, p->title);
    fprintf(d, "# panel\tx\tmedian_cycles_per_hit\tq1\tq3\tcolor\tcase\n");
    fprintf(l, "# panel\tx\ty\tclass\tchange_pct\ttext\n");
    /* Slots: per group the reference, then each compared case in order. */
    size_t nslot = 0, cap = nsel + ngroups;
    struct slot {
        long ci;
        double x;
        size_t group;
    } *slots = calloc(cap, sizeof *slots);
    if (!slots) {
        fclose(d), fclose(l);
        free(sel), free(keys), free(groups);
        return pic_fail(r, "out of memory");
    }
    double x = 1;
    for (size_t g = 0; g < ngroups; g++) {
        slots[nslot++] = (struct slot){groups[g], x, g};
        x += 1;
        for (size_t i = 0; i < nsel; i++) {
            const struct rcmp *c = &r->cmps[sel[i]];
            if (c->ri != groups[g])
                continue;
            size_t q = 0;
            while (q < nslot && slots[q].ci != c->ci)
                q++;
            if (q == nslot && nslot < cap) {
                slots[nslot++] = (struct slot){c->ci, x, g};
                x += 1;
            }
        }
        x += 0.6; /* a gap between groups */
    }
    double xmax = x - 0.6;
    int(*has)[NCLASS + 2] = calloc(nkeys, sizeof *has); /* + bars, + error bars */
    double *ymax = calloc(nkeys, sizeof *ymax);
    if (!has || !ymax) {
        free(has), free(ymax), free(slots);
        fclose(d), fclose(l);
        free(sel), free(keys), free(groups);
        return pic_fail(r, "out of memory");
    }
    for (size_t k = 0; k < nkeys; k++) {
        for (size_t s = 0; s < nslot; s++) {
            const struct rcase *c = &r->cases[slots[s].ci];
            const struct rmetric *m = pic_find_metric(c, keys[k], "per_hit");
            const struct rcmp *cm = NULL;
            for (size_t i = 0; i < nsel && !cm; i++)
                if (r->cmps[sel[i]].ci == slots[s].ci && !strcmp(r->cmps[sel[i]].key, keys[k]))
                    cm = &r->cmps[sel[i]];
            double q5[5];
            pic_five(m ? m->v : NULL, m ? m->n : 0, q5);
            double med = q5[2];
            /* The comparison's own medians where it has them: the numbers
             * of the verdict table. */
            if (cm && isfinite(cm->cur))
                med = cm->cur;
            if (!cm) {
                for (size_t i = 0; i < nsel; i++)
                    if (r->cmps[sel[i]].ri == slots[s].ci &&
                        !strcmp(r->cmps[sel[i]].key, keys[k]) && isfinite(r->cmps[sel[i]].base))
                        med = r->cmps[sel[i]].base;
            }
            if (!isfinite(med))
                continue;
            /* The reference is the first colour, compared variants the next. */
            size_t pos = 0;
            for (size_t t = 0; t < s; t++)
                pos += slots[t].group == slots[s].group;
            fprintf(d, "%zu\t%.3f\t%.9g\t", k, slots[s].x, med);
            pic_dnum(d, q5[1]);
            fputc('\t', d);
            pic_dnum(d, q5[3]);
            fprintf(d, "\t%ld\t", strtol(qqb_plot_color(pos) + 1, NULL, 16));
            pic_dtext(d, c->name);
            fputc('\n', d);
            has[k][NCLASS] = 1;
            has[k][NCLASS + 1] |= isfinite(q5[1]) && isfinite(q5[3]);
            double top = fmax(med, isfinite(q5[3]) ? q5[3] : med);
            if (top > ymax[k])
                ymax[k] = top;
            if (cm && isfinite(cm->pct)) {
                enum vclass v = pic_vclass_of(cm->verdict);
                fprintf(l, "%zu\t%.3f\t%.9g\t%d\t%.6g\t%+.1f%% %s\n", k, slots[s].x, top, (int)v,
                        cm->pct, cm->pct, pic_verdict_word(cm));
                has[k][v] = 1;
            }
        }
    }
    int bad = pic_close_file(r, d, p->data[0]) || pic_close_file(r, l, p->data[1]);
    FILE *gp = bad ? NULL : pic_open_script(r, p);
    if (!gp) {
        free(has), free(ymax), free(slots), free(sel), free(keys), free(groups);
        return -1;
    }
    int rows, cols;
    pic_grid(nkeys, &rows, &cols);
    int pw = nslot > 6 ? 700 : cols == 1 ? 800 : 600;
    size_t *sci = malloc((nslot + 1) * sizeof *sci);
    double *sx = malloc((nslot + 1) * sizeof *sx);
    if (!sci || !sx) {
        free(sci), free(sx), fclose(gp);
        free(has), free(ymax), free(slots), free(sel), free(keys), free(groups);
        return pic_fail(r, "out of memory");
    }
    for (size_t s = 0; s < nslot; s++)
        sci[s] = (size_t)slots[s].ci, sx[s] = slots[s].x;
    struct xtics xl = pic_xtics_layout(r, sci, nslot, pw, nslot > 4);
    qqb_plot_both_begin(gp, p->stem, pw * cols, 340 * rows + 90 + xl.extra * rows);
    char ttl[256];
    snprintf(ttl, sizeof ttl,
             "%s: variants side by side (bars: median, error bars: middle "
             "half)\nabove each bar: its change against the first bar of its group",
             b->name);
    fprintf(gp, "set multiplot layout %d,%d title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp,
            "\nunset key\nset boxwidth 0.8 absolute\nset style fill solid 0.85 noborder\n"
            "# Labels on a white box, readable over a neighbouring bar.\n"
            "set style textbox opaque fillcolor rgb 'white' noborder margins 1,1\n"
            "set xrange [0.3:%.3f]\n",
            xmax + 0.7);
    pic_xtics_write(gp, r, sci, sx, nslot, &xl);
    free(sci), free(sx);
    fprintf(gp, "set grid ytics noxtics\nset ylabel 'cycles per hit'\n");
    pic_ns_axis(r, gp);
    for (size_t k = 0; k < nkeys; k++) {
        fprintf(gp, "set title ");
        qqb_plot_str(gp, keys[k], 0);
        fprintf(gp, "\nset yrange [0:%.6g]\nplot ", ymax[k] > 0 ? ymax[k] * 1.25 : 1.0);
        if (!has[k][NCLASS]) {
            fprintf(gp, "NaN notitle\n");
            continue;
        }
        qqb_plot_str(gp, p->data[0], 0);
        fprintf(gp, " using ($1==%zu ? $2 : NaN):3:6 with boxes lc rgb variable", k);
        if (has[k][NCLASS + 1])
            fprintf(gp,
                    ", \\\n     '' using ($1==%zu ? $2 : NaN):3:4:5 with yerrorbars pt 7 "
                    "ps 0.4 lw 1.2 lc rgb '%s'",
                    k, QQB_PLOT_INK);
        for (int v = 0; v < NCLASS; v++)
            if (has[k][v]) {
                fputs(", \\\n     ", gp);
                qqb_plot_str(gp, p->data[1], 0);
                fprintf(gp,
                        " using ($1==%zu && $4==%d ? $2 : NaN):3:6 with "
                        "labels center offset 0,0.9 boxed textcolor rgb '%s'",
                        k, v, pic_vstyle[v].color);
            }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    free(has), free(ymax), free(slots), free(sel), free(keys), free(groups);
    return pic_finish(r, p, gp);
}
