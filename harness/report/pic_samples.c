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

/* A slot of a panel: one series (the stored baseline's launches or this
 * run's) of one case, in its colour, named under it when the panel holds
 * more than one. */
struct slot {
    size_t s;   /* the case: its place in the bench */
    int series; /* 0 the stored baseline's launches, 1 this run's */
    int id;     /* the data files' slot column, unique within a key */
    double x;   /* its centre */
    const char *color;
    const char *label; /* NULL: the case's short name */
};

/* The panels of a benchmark: a row of them per key, a panel per group of
 * cases compared with each other (each case and its reference build; variants
 * compared within SHARE_AB of each other), so a compared pair shares one y
 * scale; any other case on a scale of its own. Panel Q = K * ng + G. */
struct panels {
    size_t ng;       /* groups: panels per key */
    size_t *order;   /* the bench's cases (places in b->cases), group by group */
    size_t *gfirst;  /* group G: order[gfirst[G]] .. order[gfirst[G + 1] - 1] */
    int *pair;       /* group G is one case and its reference build */
    int *reference;  /* per case: compared against by another of its group (2: as its
                      * reference build, 1: as its reference variant) */
    struct slot *sl; /* panel (K, G): sl + K * 2 * ncases + 2 * gfirst[G], nsl[Q] of them */
    size_t *nsl;
    double *pitch;        /* per panel: the x room of a slot */
    int (*has)[3];        /* baseline launches, this run's, a baseline median line */
    double (*lim)[2];     /* lowest, highest point or median line */
    FILE *pts, *box, *bl; /* the three data files */
};

/* Variants compared with each other share a panel when every key's medians
 * are within this factor: further apart, the smaller's few percent would be
 * a sliver of the shared axis (its own scale shows them; picture 5 has the
 * pair side by side). A case and its reference build always share one. */
#define SHARE_AB 1.5

static double key_median(const struct rep *r, const struct bench *b, size_t s, const char *key)
{
    const struct rmetric *m = pic_find_metric(&r->cases[b->cases[s]], key, "per_hit");
    double q5[5];
    if (!m || m->n == 0 || pic_five(m->v, m->n, q5) != 0)
        return NAN;
    return q5[2];
}

/* The place of case CI in B, or -1. */
static long bench_place(const struct bench *b, long ci)
{
    for (size_t s = 0; ci >= 0 && s < b->ncases; s++)
        if (b->cases[s] == (size_t)ci)
            return (long)s;
    return -1;
}

/* Groups GA and GB joined: every key's medians within SHARE_AB. */
static int close_enough(const struct rep *r, const struct bench *b, const size_t *grp, size_t ga,
                        size_t gb)
{
    for (size_t k = 0; k < b->nkeys; k++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t s = 0; s < b->ncases; s++) {
            double m = grp[s] == ga || grp[s] == gb ? key_median(r, b, s, b->keys[k]) : NAN;
            lo = isfinite(m) ? fmin(lo, m) : lo;
            hi = isfinite(m) ? fmax(hi, m) : hi;
        }
        if (hi > lo && !(lo > 0 && hi <= lo * SHARE_AB))
            return 0;
    }
    return 1;
}

/* The comparison I between two cases of B (kind build or ab): their places. */
static int cmp_places(const struct rep *r, const struct bench *b, size_t i, long *cs, long *rs)
{
    const struct rcmp *c = &r->cmps[i];
    *cs = bench_place(b, c->ci);
    *rs = bench_place(b, c->ri);
    return *cs >= 0 && *rs >= 0 && *cs != *rs && strcmp(c->kind, "baseline") != 0;
}

/* Join the cases compared with each other into groups (GRP: a group's
 * number per case, NCASES of them), builds first. */
static void samples_join(const struct rep *r, const struct bench *b, size_t *grp)
{
    for (size_t s = 0; s < b->ncases; s++)
        grp[s] = s;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->ncmps; i++) {
            long cs, rs;
            if (!cmp_places(r, b, i, &cs, &rs) || (strcmp(r->cmps[i].kind, "build") != 0) != pass)
                continue;
            size_t ga = grp[cs], gb = grp[rs];
            if (ga == gb || (pass && !close_enough(r, b, grp, ga, gb)))
                continue;
            for (size_t s = 0; s < b->ncases; s++)
                grp[s] = grp[s] == gb ? ga : grp[s];
        }
}

/* The groups in the order of their first case; in each, the reference
 * builds first, then the reference variants, then the rest, so a case's
 * reference build stands left of it, in the first colour. */
static void samples_groups(const struct rep *r, const struct bench *b, struct panels *pn,
                           size_t *grp)
{
    samples_join(r, b, grp);
    for (size_t i = 0; i < r->ncmps; i++) {
        long cs, rs;
        if (cmp_places(r, b, i, &cs, &rs) && grp[cs] == grp[rs])
            pn->reference[rs] |= strcmp(r->cmps[i].kind, "build") ? 1 : 2;
    }
    size_t n = 0;
    pn->ng = 0;
    for (size_t s = 0; s < b->ncases; s++) {
        size_t t = 0;
        while (t < s && grp[t] != grp[s])
            t++;
        if (t < s)
            continue; /* a group already placed */
        size_t g = pn->ng++, size = 0;
        pn->gfirst[g] = n;
        for (int rank = 0; rank < 3; rank++) /* reference builds, reference variants, the rest */
            for (t = s; t < b->ncases; t++)
                if (grp[t] == grp[s] && (pn->reference[t] & 2   ? 0
                                         : pn->reference[t] & 1 ? 1
                                                                : 2) == rank)
                    pn->order[n++] = t, size++;
        pn->pair[g] = 0;
        for (size_t i = 0; i < r->ncmps && size == 2; i++) {
            long cs, rs;
            if (cmp_places(r, b, i, &cs, &rs) && grp[cs] == grp[s] && grp[rs] == grp[s] &&
                !strcmp(r->cmps[i].kind, "build"))
                pn->pair[g] = 1;
        }
    }
    pn->gfirst[pn->ng] = n;
}

/* A point's extent into panel Q's limits. */
static void widen(struct panels *pn, size_t q, double lo, double hi)
{
    if (!pn->has[q][0] && !pn->has[q][1] && !pn->has[q][2])
        pn->lim[q][0] = pn->lim[q][1] = lo;
    pn->lim[q][0] = fmin(pn->lim[q][0], lo);
    pn->lim[q][1] = fmax(pn->lim[q][1], hi);
}

/* Slot SL's series of key K in panel Q: its dots and its box, the dots
 * spread over W. */
static void samples_series(struct panels *pn, size_t k, size_t q, const struct slot *sl,
                           const char *name, const double *v, size_t nv, double w)
{
    for (size_t j = 0; j < nv; j++) {
        /* Golden-ratio spread: even, and the same every time. */
        double f = fmod((double)j * 0.6180339887, 1.0) - 0.5;
        fprintf(pn->pts, "%zu\t%.4f\t%.9g\t%d\t%zu\t%d\t", k, sl->x + f * w, v[j], sl->series,
                j + 1, sl->id);
        pic_dtext(pn->pts, name);
        fputc('\n', pn->pts);
    }
    double q5[5];
    pic_five(v, nv, q5);
    fprintf(pn->box, "%zu\t%.4f\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%d\t%zu\t%d\t", k, sl->x, q5[0],
            q5[1], q5[2], q5[3], q5[4], sl->series, nv, sl->id);
    pic_dtext(pn->box, name);
    fputc('\n', pn->box);
    widen(pn, q, q5[0], q5[4]);
    pn->has[q][sl->series] = 1;
}

/* What case S draws for key K: its stored baseline's launches, this run's,
 * the baseline's median. Returns its slots (a median line alone: 1). */
static size_t case_parts(const struct rep *r, const struct bench *b, size_t k, size_t s,
                         const struct rmetric **m, const struct rcmp **bc, int part[2])
{
    *m = pic_find_metric(&r->cases[b->cases[s]], b->keys[k], "per_hit");
    *bc = pic_base_cmp(r, b->cases[s], b->keys[k]);
    part[0] = *bc && (*bc)->nbs > 0;
    part[1] = *m && (*m)->n > 0;
    size_t n = (size_t)part[0] + (size_t)part[1];
    return n ? n : (size_t)(*bc && isfinite((*bc)->base));
}

/* Panel (K, G): each case of group G side by side, their slots evenly
 * across the panel's x room [G + 0.55, G + 1.45]. */
static void samples_panel_data(const struct rep *r, const struct bench *b, size_t k, size_t g,
                               struct panels *pn)
{
    size_t q = k * pn->ng + g, units = 0, u = 0;
    struct slot *sl = pn->sl + k * 2 * b->ncases + 2 * pn->gfirst[g];
    const struct rmetric *m;
    const struct rcmp *bc;
    int part[2];
    size_t size = pn->gfirst[g + 1] - pn->gfirst[g];
    for (size_t j = 0; j < size; j++)
        units += case_parts(r, b, k, pn->order[pn->gfirst[g] + j], &m, &bc, part);
    double d = 0.9 / (double)(units ? units : 1), x0 = (double)g + 1 - 0.45;
    pn->pitch[q] = d;
    pn->nsl[q] = 0;
    for (size_t j = 0; j < size; j++) {
        size_t o = pn->gfirst[g] + j, s = pn->order[o];
        size_t n = case_parts(r, b, k, s, &m, &bc, part), u0 = u;
        const char *name = r->cases[b->cases[s]].name;
        for (int series = 0; series < 2; series++) {
            if (!part[series])
                continue;
            struct slot *t = &sl[pn->nsl[q]++];
            *t = (struct slot){s,
                               series,
                               (int)(2 * o) + series,
                               x0 + d * ((double)u++ + 0.5),
                               series ? qqb_plot_color(size > 1 ? j : 0) : C_BASELINE,
                               NULL};
            if (!series)
                t->label = "baseline";
            else if (pn->pair[g])
                t->label = j ? "change build" : "reference build";
            else if (size == 1)
                t->label = "this run";
            samples_series(pn, k, q, t, name, series ? m->v : bc->bs, series ? m->n : bc->nbs,
                           d / 3);
        }
        u = u0 + n; /* a median line alone has a slot's room */
        if (n && bc && isfinite(bc->base) && !part[0]) {
            fprintf(pn->bl, "%zu\t%.4f\t%.9g\t%.4f\n", k, x0 + d * (double)u0, bc->base,
                    d * (double)n);
            widen(pn, q, bc->base, bc->base);
            pn->has[q][2] = 1;
        }
    }
}

/* The three data files: points, boxes, baseline medians. Panel G of a key
 * spans x from G + 0.5 to G + 1.5; a slot's column names its series. */
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
    fprintf(pn->pts,
            "# key\tx\tcycles_per_hit\tseries(0 baseline, 1 current)\tlaunch\tslot\tcase\n");
    fprintf(pn->box, "# key\tx\tmin\tq1\tmedian\tq3\tmax\tseries(0 baseline, 1 current)\t"
                     "launches\tslot\tcase\n");
    fprintf(pn->bl, "# key\tx_from\ty\tx_length\tbaseline median cycles per hit\n");
    for (size_t k = 0; k < b->nkeys; k++)
        for (size_t g = 0; g < pn->ng; g++)
            samples_panel_data(r, b, k, g, pn);
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

/* The selection of slot ID of key K in the points (COL: 6) or boxes (10)
 * file. */
static void samples_sel(FILE *gp, size_t k, int id, int col)
{
    fprintf(gp, "($1==%zu && $%d==%d ? $2 : NaN)", k, col, id);
}

/* Panel (K, G)'s title: its case (of a build pair: the change build's), or
 * its cases "a @1 vs b @1", and the key. */
static void samples_title(FILE *gp, const struct rep *r, const struct bench *b, size_t k, size_t g,
                          const struct panels *pn)
{
    char sn[128], t1[160], t2[160], ttl[330] = "";
    size_t from = pn->gfirst[g] + (pn->pair[g] ? 1 : 0), to = pn->gfirst[g + 1];
    char names[400] = "";
    for (size_t o = from; o < to; o++) {
        pic_short_name(sn, sizeof sn, &r->cases[b->cases[pn->order[o]]]);
        size_t at = strlen(names);
        snprintf(names + at, sizeof names - at, "%s%s", o > from ? " vs " : "", sn);
    }
    qqb_plot_short(t1, sizeof t1, names, QQB_PLOT_TIC_MAX);
    qqb_plot_short(t2, sizeof t2, b->keys[k], QQB_PLOT_TIC_MAX);
    snprintf(ttl, sizeof ttl, "%s\n%s", t1, t2);
    fprintf(gp, "set title ");
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\n");
}

/* Under each box of panel Q, in its colour, what it is: the baseline and
 * this run, the reference build and the change build, or the case; at
 * most CHARS characters. None when the panel holds one series. */
static void samples_labels(FILE *gp, const struct rep *r, const struct bench *b, size_t q,
                           const struct slot *sl, const struct panels *pn, size_t chars)
{
    fprintf(gp, "unset label\n");
    for (size_t i = 0; i < pn->nsl[q] && pn->nsl[q] > 1; i++) {
        char sn[128], t[330];
        if (sl[i].label) {
            qqb_plot_short(t, sizeof t, sl[i].label, chars);
        } else { /* "a @1 (reference build)": the words in brackets on a line of their own */
            pic_short_name(sn, sizeof sn, &r->cases[b->cases[sl[i].s]]);
            char *cut = strstr(sn, " (");
            size_t end = cut ? strlen(cut) : 0;
            int two = end > 3 && cut[end - 1] == ')'; /* " (words)" */
            if (two)
                *cut = '\0', cut[end - 1] = '\0';
            qqb_plot_short(t, 160, sn, chars);
            if (two) {
                size_t at = strlen(t);
                t[at] = '\n';
                qqb_plot_short(t + at + 1, sizeof t - at - 1, cut + 2, chars);
            }
        }
        fprintf(gp, "set label %zu ", i + 1);
        qqb_plot_str(gp, t, QQB_GP_LINES);
        fprintf(gp, " at first %.4f, graph 0 center offset 0,-1 tc rgb '%s'\n", sl[i].x,
                sl[i].color);
    }
}

/* Panel (K, G): the cases of group G for key K on one scale of their own,
 * the time on the right. */
static void samples_panel(FILE *gp, const struct rep *r, const struct pic *p, const struct bench *b,
                          size_t k, size_t g, const struct panels *pn, size_t chars)
{
    const char *dp = p->data[0], *db = p->data[1], *dl = p->data[2];
    size_t q = k * pn->ng + g;
    const struct slot *sl = pn->sl + k * 2 * b->ncases + 2 * pn->gfirst[g];
    samples_title(gp, r, b, k, g, pn);
    fprintf(gp, "set xrange [%zu.5:%zu.5]\nset boxwidth %.4f absolute\n", g, g + 1,
            fmin(0.3, pn->pitch[q] * 0.66));
    samples_labels(gp, r, b, q, sl, pn, chars);
    double lo, hi;
    samples_yrange(pn, q, &lo, &hi);
    if (!pn->nsl[q] && !pn->has[q][2]) {
        /* Nothing to draw (the case failed, or has no such key): said, with
         * no axis of made-up figures (it read 0 to 1 cycles, 0.4 ns). */
        int failed = 1;
        for (size_t o = pn->gfirst[g]; o < pn->gfirst[g + 1]; o++)
            failed &= r->cases[b->cases[pn->order[o]]].failed;
        fprintf(gp,
                "set yrange [0:1]\nunset ytics\nunset link y2\nunset y2tics\nunset y2label\n"
                "set label 1 '%s' at graph 0.5, 0.5 center tc rgb '%s'\nplot NaN notitle\n",
                failed ? "no launch recorded: the case failed" : "no launch recorded for this key",
                QQB_PLOT_INK);
        return;
    }
    pic_cycles_axis(gp, lo, hi);
    pic_time_axis(r, gp, lo, hi);
    fprintf(gp, "plot ");
    const char *sep = "";
    for (size_t i = 0; i < pn->nsl[q]; i++) {
        const char *col = sl[i].color;
        fputs(sep, gp);
        qqb_plot_str(gp, db, 0);
        fprintf(gp, " using ");
        samples_sel(gp, k, sl[i].id, 10);
        fprintf(gp,
                ":4:3:7:6 with candlesticks whiskerbars 0.5 lc rgb '%s' lw 1.2, \\\n"
                "     '' using ",
                col);
        samples_sel(gp, k, sl[i].id, 10);
        fprintf(gp, ":5:5:5:5 with candlesticks lc rgb '%s' lw 2.5, \\\n     ", col);
        qqb_plot_str(gp, dp, 0);
        fprintf(gp, " using ");
        samples_sel(gp, k, sl[i].id, 6);
        fprintf(gp, ":3 with points pt 7 ps 0.55 lc rgb '#50%s'", col + 1);
        sep = ", \\\n     ";
    }
    if (pn->has[q][2]) {
        fputs(sep, gp);
        qqb_plot_str(gp, dl, 0);
        fprintf(gp,
                " using ($1==%zu && $2>%zu.5 && $2<%zu.5 ? $2 : NaN):3:4:(0) with vectors "
                "nohead dt 2 lw 2 lc rgb '%s'",
                k, g, g + 1, QQB_PLOT_INK);
        sep = ", ";
    }
    if (!*sep)
        fprintf(gp, "NaN notitle");
    fprintf(gp, "\n");
}

/* The grid: one panel a column, up to 4, a key's panels on rows of their
 * own (the next key starts a new row); one panel a key: the keys side by
 * side, up to 3 a row. */
static void samples_grid(const struct bench *b, size_t ng, size_t *rows, size_t *cols,
                         size_t *per_key)
{
    if (ng == 1) {
        *cols = b->nkeys < 3 ? b->nkeys : 3;
        *rows = (b->nkeys + *cols - 1) / *cols;
        *per_key = 1;
    } else {
        *cols = ng < 4 ? ng : 4;
        *per_key = (ng + *cols - 1) / *cols * *cols;
        *rows = b->nkeys * (*per_key / *cols);
    }
}

/* The legend of the multiplot's title: what the colours and lines are. */
static void samples_legend(char *out, size_t n, const struct bench *b, const struct panels *pn)
{
    int anyb = 0, anyl = 0, pair = 0, shared = 0;
    for (size_t q = 0; q < b->nkeys * pn->ng; q++)
        anyb |= pn->has[q][0], anyl |= pn->has[q][2];
    for (size_t g = 0; g < pn->ng; g++) {
        pair |= pn->pair[g];
        shared |= !pn->pair[g] && pn->gfirst[g + 1] - pn->gfirst[g] > 1;
    }
    snprintf(
        out, n,
        "%s: cycles per hit of every launch (dots), a panel per key and case, each on its "
        "own scale\n%s%sbox = middle half, thick line = median%s%s; right axis: the time",
        b->name,
        pair ? "a case and its reference build share a panel: blue = the reference build, "
               "green = the change build\n"
             : "",
        shared ? "variants compared share a panel, each in its colour, named under its box\n" : "",
        anyb ? ", grey = the baseline's launches" : "", anyl ? ", dashed = baseline median" : "");
}

/* The script: a multiplot of a panel per key of each group of cases. */
static int samples_script(struct rep *r, struct pic *p, const struct bench *b,
                          const struct panels *pn)
{
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    size_t rows, cols, per_key, most = 1, labels = 0;
    samples_grid(b, pn->ng, &rows, &cols, &per_key);
    for (size_t q = 0; q < b->nkeys * pn->ng; q++) {
        size_t units = (size_t)(0.9 / pn->pitch[q] + 0.5);
        most = units > most ? units : most;
        labels |= pn->nsl[q] > 1;
    }
    /* A panel of several boxes is wider: each keeps about 90 pixels, its
     * label about 7 a character. */
    int width = 340 + 90 * (int)(most - 1);
    size_t chars = (size_t)((width - 170) / (int)most / 7);
    qqb_plot_both_begin(gp, p->stem, width * (int)cols, 290 * (int)rows + 100);
    char ttl[640];
    samples_legend(ttl, sizeof ttl, b, pn);
    fprintf(gp, "set multiplot layout %zu,%zu title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\nunset key\nunset xtics\nset style fill empty\n"
                "set grid ytics noxtics\nset ylabel 'cycles per hit'\n");
    if (labels)
        fprintf(gp, "set bmargin 4\n");
    for (size_t k = 0; k < b->nkeys; k++) {
        for (size_t g = 0; g < pn->ng; g++)
            samples_panel(gp, r, p, b, k, g, pn, chars < 6 ? 6 : chars);
        /* The next key starts a row of its own. */
        for (size_t e = pn->ng; e < per_key; e++)
            fprintf(gp, "set multiplot next\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

static void panels_free(struct panels *pn)
{
    free(pn->order), free(pn->gfirst), free(pn->pair), free(pn->reference), free(pn->sl);
    free(pn->nsl), free(pn->pitch), free(pn->has), free(pn->lim);
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
             "A panel per key of each case of %s, each panel on its own scale, so a few percent "
             "shows on a case many times faster than its neighbours; a case and its reference "
             "build share a panel, as do variants compared within %.1fx of each other, each in "
             "its colour and named under its box. Each dot is one launch's cycles per hit (the "
             "figure the verdict compares), spread sideways so none hides another; the box spans "
             "the middle half of the launches, its line the median, its whiskers the lowest and "
             "highest. The dashed line is the baseline's median; grey dots and boxes are the "
             "baseline's own launches when the report holds them. The time per hit on the right "
             "axis.",
             b->name, SHARE_AB);
    size_t nc = b->ncases, np = b->nkeys * nc;
    struct panels pn = {0};
    size_t *grp = calloc(nc, sizeof *grp);
    pn.order = calloc(nc, sizeof *pn.order);
    pn.gfirst = calloc(nc + 1, sizeof *pn.gfirst);
    pn.pair = calloc(nc, sizeof *pn.pair);
    pn.reference = calloc(nc, sizeof *pn.reference);
    pn.sl = calloc(2 * np, sizeof *pn.sl);
    pn.nsl = calloc(np, sizeof *pn.nsl);
    pn.pitch = calloc(np, sizeof *pn.pitch);
    pn.has = calloc(np, sizeof *pn.has);
    pn.lim = calloc(np, sizeof *pn.lim);
    int rc;
    if (!grp || !pn.order || !pn.gfirst || !pn.pair || !pn.reference || !pn.sl || !pn.nsl ||
        !pn.pitch || !pn.has || !pn.lim) {
        rc = pic_fail(r, "out of memory");
    } else {
        samples_groups(r, b, &pn, grp);
        rc = samples_data(r, p, b, &pn) == 0 ? samples_script(r, p, b, &pn) : -1;
    }
    free(grp);
    panels_free(&pn);
    return rc;
}
