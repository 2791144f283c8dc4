/* pic_ab.c - the run report's picture 5, A/B pairs side by side with the change labelled. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pic.h"
#include "words.h"

/* ======================================================================
 * Picture 5: A/B pairs side by side, the delta labelled.
 * ====================================================================== */

/* A bar's place: per group the reference, then each compared case. */
struct slot {
    long ci;
    double x;
    size_t group;
};

/* What picture 5 of a benchmark draws. */
struct ab {
    size_t *sel, nsel; /* the comparisons with a reference case */
    const char **keys; /* their keys: a panel each */
    size_t nkeys;
    long *groups; /* the reference cases */
    size_t ngroups;
    struct slot *slots;
    size_t nslot;
    double xmax;
    int (*has)[NCLASS + 2]; /* per panel: labels per class, + bars, + error bars */
    double *ymax;
};

static void ab_free(struct ab *a)
{
    free(a->sel), free(a->keys), free(a->groups), free(a->slots), free(a->has), free(a->ymax);
}

/* The comparisons of B with a reference case, their keys and groups. */
static int ab_select(struct rep *r, const struct bench *b, struct ab *a)
{
    size_t n = r->ncmps ? r->ncmps : 1;
    a->sel = calloc(n, sizeof *a->sel);
    a->keys = calloc(n, sizeof *a->keys);
    a->groups = calloc(n, sizeof *a->groups);
    if (!a->sel || !a->keys || !a->groups)
        return pic_fail(r, "out of memory");
    for (size_t i = 0; i < r->ncmps; i++) {
        const struct rcmp *c = &r->cmps[i];
        if (c->ri < 0 || c->ci < 0 || c->ri == c->ci || strcmp(r->cases[c->ci].bench, b->name))
            continue;
        if (!strcmp(c->kind, "baseline"))
            continue;
        a->sel[a->nsel++] = i;
        size_t q = 0;
        while (q < a->nkeys && strcmp(a->keys[q], c->key))
            q++;
        if (q == a->nkeys)
            a->keys[a->nkeys++] = c->key;
        q = 0;
        while (q < a->ngroups && a->groups[q] != c->ri)
            q++;
        if (q == a->ngroups)
            a->groups[a->ngroups++] = c->ri;
    }
    return 0;
}

/* What the bars of A are: variants, each case and its reference build, or
 * both. */
static const char *ab_shows(const struct rep *r, const struct ab *a)
{
    int build = 0, other = 0;
    for (size_t i = 0; i < a->nsel; i++) {
        if (!strcmp(r->cmps[a->sel[i]].kind, "build"))
            build = 1;
        else
            other = 1;
    }
    return !build  ? "variants"
           : other ? "variants and the reference build"
                   : "each case and its reference build";
}

/* The bars' places, and the panels' bookkeeping. */
static int ab_slots(struct rep *r, struct ab *a)
{
    size_t cap = a->nsel + a->ngroups;
    a->slots = calloc(cap, sizeof *a->slots);
    a->has = calloc(a->nkeys, sizeof *a->has);
    a->ymax = calloc(a->nkeys, sizeof *a->ymax);
    if (!a->slots || !a->has || !a->ymax)
        return pic_fail(r, "out of memory");
    double x = 1;
    for (size_t g = 0; g < a->ngroups; g++) {
        a->slots[a->nslot++] = (struct slot){a->groups[g], x, g};
        x += 1;
        for (size_t i = 0; i < a->nsel; i++) {
            const struct rcmp *c = &r->cmps[a->sel[i]];
            if (c->ri != a->groups[g])
                continue;
            size_t q = 0;
            while (q < a->nslot && a->slots[q].ci != c->ci)
                q++;
            if (q == a->nslot && a->nslot < cap) {
                a->slots[a->nslot++] = (struct slot){c->ci, x, g};
                x += 1;
            }
        }
        x += 0.6; /* a gap between groups */
    }
    a->xmax = x - 0.6;
    return 0;
}

/* The bar of slot S in panel K (and its label, when compared). */
static void ab_bar(FILE *d, FILE *l, const struct rep *r, struct ab *a, size_t k, size_t s)
{
    const struct rcase *c = &r->cases[a->slots[s].ci];
    const struct rmetric *m = pic_find_metric(c, a->keys[k], "per_hit");
    const struct rcmp *cm = NULL;
    for (size_t i = 0; i < a->nsel && !cm; i++)
        if (r->cmps[a->sel[i]].ci == a->slots[s].ci && !strcmp(r->cmps[a->sel[i]].key, a->keys[k]))
            cm = &r->cmps[a->sel[i]];
    double q5[5];
    pic_five(m ? m->v : NULL, m ? m->n : 0, q5);
    double med = q5[2];
    /* The comparison's own medians where it has them: the numbers of the
     * verdict table. */
    if (cm && isfinite(cm->cur))
        med = cm->cur;
    if (!cm) {
        for (size_t i = 0; i < a->nsel; i++)
            if (r->cmps[a->sel[i]].ri == a->slots[s].ci &&
                !strcmp(r->cmps[a->sel[i]].key, a->keys[k]) && isfinite(r->cmps[a->sel[i]].base))
                med = r->cmps[a->sel[i]].base;
    }
    if (!isfinite(med))
        return;
    /* The reference is the first colour, compared variants the next. */
    size_t pos = 0;
    for (size_t t = 0; t < s; t++)
        pos += a->slots[t].group == a->slots[s].group;
    fprintf(d, "%zu\t%.3f\t%.9g\t", k, a->slots[s].x, med);
    pic_dnum(d, q5[1]);
    fputc('\t', d);
    pic_dnum(d, q5[3]);
    fprintf(d, "\t%ld\t", strtol(qqb_plot_color(pos) + 1, NULL, 16));
    pic_dtext(d, c->name);
    fputc('\n', d);
    a->has[k][NCLASS] = 1;
    a->has[k][NCLASS + 1] |= isfinite(q5[1]) && isfinite(q5[3]);
    double top = fmax(med, isfinite(q5[3]) ? q5[3] : med);
    if (top > a->ymax[k])
        a->ymax[k] = top;
    if (cm && isfinite(cm->pct)) {
        enum vclass v = pic_vclass_of(cm->verdict);
        struct qqb_signed sp;
        fprintf(l, "%zu\t%.3f\t%.9g\t%d\t%.6g\t%s%% %s\n", k, a->slots[s].x, top, (int)v, cm->pct,
                qqb_signed(&sp, cm->pct, 1), pic_verdict_word(cm));
        a->has[k][v] = 1;
    }
}

/* The data files: bars and the change labels above them. */
static int ab_data(struct rep *r, struct pic *p, struct ab *a)
{
    FILE *d = pic_open_data(r, p, "bars"), *l = d ? pic_open_data(r, p, "deltas") : NULL;
    if (!l) {
        if (d)
            fclose(d);
        return -1;
    }
    qqb_plot_comment(d, p->title);
    fprintf(d, "# panel\tx\tmedian_cycles_per_hit\tq1\tq3\tcolor\tcase\n");
    fprintf(l, "# panel\tx\ty\tclass\tchange_pct\ttext\n");
    if (ab_slots(r, a) != 0) {
        fclose(d), fclose(l);
        return -1;
    }
    for (size_t k = 0; k < a->nkeys; k++)
        for (size_t s = 0; s < a->nslot; s++)
            ab_bar(d, l, r, a, k, s);
    int bad = pic_close_file(r, d, p->data[0]);
    bad = bad || pic_close_file(r, l, p->data[1]);
    return bad ? -1 : 0;
}

/* Panel K: bars, error bars, a label series per verdict class. */
static void ab_panel(FILE *gp, const struct rep *r, const struct pic *p, const struct ab *a,
                     size_t k)
{
    double top = a->ymax[k] > 0 ? a->ymax[k] * 1.25 : 1.0;
    fprintf(gp, "set title ");
    qqb_plot_str(gp, a->keys[k], 0);
    fprintf(gp, "\n");
    pic_cycles_axis(gp, 0, top);
    pic_time_axis(r, gp, 0, top);
    fprintf(gp, "plot ");
    if (!a->has[k][NCLASS]) {
        fprintf(gp, "NaN notitle\n");
        return;
    }
    qqb_plot_str(gp, p->data[0], 0);
    fprintf(gp, " using ($1==%zu ? $2 : NaN):3:6 with boxes lc rgb variable", k);
    if (a->has[k][NCLASS + 1])
        fprintf(gp,
                ", \\\n     '' using ($1==%zu ? $2 : NaN):3:4:5 with yerrorbars pt 7 "
                "ps 0.4 lw 1.2 lc rgb '%s'",
                k, QQB_PLOT_INK);
    for (int v = 0; v < NCLASS; v++)
        if (a->has[k][v]) {
            fputs(", \\\n     ", gp);
            qqb_plot_str(gp, p->data[1], 0);
            fprintf(gp,
                    " using ($1==%zu && $4==%d ? $2 : NaN):3:6 with "
                    "labels center offset 0,0.9 boxed textcolor rgb '%s'",
                    k, v, pic_vstyle[v].color);
        }
    fprintf(gp, "\n");
}

static int ab_script(struct rep *r, struct pic *p, const struct bench *b, const struct ab *a)
{
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    int rows, cols;
    pic_grid(a->nkeys, &rows, &cols);
    int pw = a->nslot > 6 ? 700 : cols == 1 ? 800 : 600;
    size_t *sci = malloc((a->nslot + 1) * sizeof *sci);
    double *sx = malloc((a->nslot + 1) * sizeof *sx);
    if (!sci || !sx) {
        free(sci), free(sx), fclose(gp);
        return pic_fail(r, "out of memory");
    }
    for (size_t s = 0; s < a->nslot; s++)
        sci[s] = (size_t)a->slots[s].ci, sx[s] = a->slots[s].x;
    struct xtics xl = pic_xtics_layout(r, sci, a->nslot, pw, a->nslot > 4);
    qqb_plot_both_begin(gp, p->stem, pw * cols, 340 * rows + 90 + xl.extra * rows);
    char ttl[256];
    snprintf(ttl, sizeof ttl,
             "%s: %s side by side (bars: median, error bars: middle "
             "half)\nabove each bar: its change against the first bar of its group",
             b->name, ab_shows(r, a));
    fprintf(gp, "set multiplot layout %d,%d title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp,
            "\nunset key\nset boxwidth 0.8 absolute\nset style fill solid 0.85 noborder\n"
            "# Labels on a white box, readable over a neighbouring bar.\n"
            "set style textbox opaque fillcolor rgb 'white' noborder margins 1,1\n"
            "set xrange [0.3:%.3f]\n",
            a->xmax + 0.7);
    pic_xtics_write(gp, r, sci, sx, a->nslot, &xl);
    free(sci), free(sx);
    fprintf(gp, "set grid ytics noxtics\nset ylabel 'cycles per hit'\n");
    for (size_t k = 0; k < a->nkeys; k++)
        ab_panel(gp, r, p, a, k);
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

int pic_ab(struct rep *r, const struct bench *b)
{
    struct ab a = {0};
    if (ab_select(r, b, &a) != 0) {
        ab_free(&a);
        return -1;
    }
    char sb[64], stem[96];
    pic_safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "ab-%s", sb);
    struct pic *p = a.nsel ? pic_new(r, 5, stem) : NULL;
    if (!p) {
        ab_free(&a);
        return 0;
    }
    snprintf(p->title, sizeof p->title, "%s: %s side by side, median cycles per hit", b->name,
             ab_shows(r, &a));
    int build_only = !strcmp(ab_shows(r, &a), "each case and its reference build");
    snprintf(p->what, sizeof p->what,
             "A panel per key of %s. In each group the first bar is %s, the next ones %s "
             "(launched interleaved with it); "
             "bars are the median cycles per hit, the error bars the middle half of the "
             "launches. Above each compared bar: its change against the reference, with the "
             "interval and the verdict.",
             b->name,
             build_only ? "the case built from the reference build" : "the reference variant",
             build_only ? "this build's case compared with it" : "the variants compared with it");
    int rc = ab_data(r, p, &a) == 0 ? ab_script(r, p, b, &a) : -1;
    ab_free(&a);
    return rc;
}
