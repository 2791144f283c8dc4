/* view.c - qqbench view: the strips of trace/timeline.c as data files and a gnuplot script (the
 * paper's Figure 6), drawn, and said on stdout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "share.h"
#include "timeline.h"
#include "view.h"
#include "words.h"

#define MAX_DEPTH 3 /* nesting shown by insets; deeper states share the last */
#define DENSE     4 /* state entries in a column from which it is drawn as shares */

/* ---------------------------------------------------------------------- */
/* Layout: strip R is centred on y = nrows - 1 - R (node order top down). */

static double strip_y(const struct qqb_timeline *v, uint32_t row)
{
    return (double)(v->nrows - 1 - row);
}

/* The state band of a strip, and a nested state's inset from its bottom. */
static void state_band(const struct qqb_timeline *v, uint32_t row, uint32_t depth, double *lo,
                       double *hi)
{
    double y = strip_y(v, row);
    double top = v->any_marks || v->any_lines ? 0.08 : 0.42;
    double inset = 0.13 * (depth < MAX_DEPTH ? depth : MAX_DEPTH);
    *lo = y - 0.42 + inset * (top + 0.42);
    *hi = y + top;
}

static void mark_band(const struct qqb_timeline *v, uint32_t row, double *lo, double *hi)
{
    double y = strip_y(v, row);
    *lo = y + 0.11;
    *hi = y + 0.19;
}

static void line_band(const struct qqb_timeline *v, uint32_t row, double *lo, double *hi)
{
    double y = strip_y(v, row);
    *lo = y + (v->any_marks ? 0.23 : 0.12);
    *hi = y + 0.44;
}

/* Key K's colour (K == nkeys: the folded states, "other"): vermillion for a
 * waiting key, else its place in the colour cycle. */
static const char *key_color(const struct qqb_timeline *v, uint32_t k)
{
    if (k == v->tr.nkeys)
        return "#999999";
    return v->kp[k].idle ? QQB_PLOT_ALERT : qqb_plot_color(v->kp[k].hue);
}

/* ---------------------------------------------------------------------- */
/* Output.                                                                */

static int close_file(FILE *fp, const char *name, char *err, size_t errsz)
{
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad) {
        snprintf(err, errsz, "cannot write %s: %s", name, strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

static int write_data(const struct qqb_timeline *v, const char *out, char *err, size_t errsz)
{
    uint32_t nk = v->tr.nkeys;
    double s = v->scale;
    FILE *fp = qqb_plot_create(out, "view-nodes.dat", err, errsz);
    if (!fp)
        return -1;
    fprintf(fp,
            "# qqbench view of %s: one strip per node (the background band)\n"
            "# from_%s to_%s y_low y_high node\n",
            v->tr.path, v->unit, v->unit);
    for (uint32_t r = 0; r < v->nrows; r++) {
        double lo, hi;
        state_band(v, r, 0, &lo, &hi);
        fprintf(fp, "%.10g %.10g %.4f %.4f %u\n", v->t0 * s, v->t1 * s, lo, hi,
                qq_file_node(v->tr.f, v->rows[r])->node);
    }
    if (close_file(fp, "view-nodes.dat", err, errsz) != 0)
        return -1;

    fp = qqb_plot_create(out, "view-states.dat", err, errsz);
    if (!fp)
        return -1;
    int blocks = 0;
    fprintf(fp,
            "# qqbench view of %s: state intervals, one block per key and nesting\n"
            "# depth (outer states first); intervals closer than 1/%d of the\n"
            "# window are merged. Time in %s since the run's start, offsets applied.\n"
            "# on off y_low y_high node\n",
            v->tr.path, QQB_TL_PIXELS, v->unit);
    for (uint32_t d = 0; d <= MAX_DEPTH; d++)
        for (uint32_t k = 0; k <= nk; k++) {
            struct qqb_tl_key *kp = &v->kp[k];
            int any = 0;
            for (size_t i = 0; i < kp->nspans; i++) {
                const struct qqb_tl_span *sp = &kp->spans[i];
                if ((sp->depth < MAX_DEPTH ? sp->depth : MAX_DEPTH) != d)
                    continue;
                if (!any) {
                    char c[400];
                    snprintf(c, sizeof c, "key '%s' depth %u",
                             k < nk ? qq_file_key(v->tr.f, k)->name : "other", d);
                    fputs(blocks++ ? "\n\n" : "", fp);
                    qqb_plot_comment(fp, c);
                    any = 1;
                }
                double lo, hi;
                state_band(v, sp->row, sp->depth, &lo, &hi);
                fprintf(fp, "%.10g %.10g %.4f %.4f %u\n", sp->a * s, sp->b * s, lo, hi,
                        qq_file_node(v->tr.f, v->rows[sp->row])->node);
            }
        }
    if (close_file(fp, "view-states.dat", err, errsz) != 0)
        return -1;

    fp = qqb_plot_create(out, "view-events.dat", err, errsz);
    if (!fp)
        return -1;
    blocks = 0;
    fprintf(fp,
            "# qqbench view of %s: marks (one block per key; at most one per\n"
            "# picture column) and counts and values (per column the lowest and\n"
            "# highest point; y is the value scaled into the strip's top band).\n"
            "# time_%s value y node\n",
            v->tr.path, v->unit);
    for (uint32_t k = 0; k < nk; k++) {
        struct qqb_tl_key *kp = &v->kp[k];
        uint32_t type = qq_file_key(v->tr.f, k)->type;
        if (type == QQ_TYPE_STATE || !kp->npts)
            continue;
        char c[400];
        snprintf(c, sizeof c, "%s '%s'", qqb_trace_type_name(type), qq_file_key(v->tr.f, k)->name);
        fputs(blocks++ ? "\n\n" : "", fp);
        qqb_plot_comment(fp, c);
        double range = kp->vmax - kp->vmin;
        for (size_t i = 0; i < kp->npts; i++) {
            const struct qqb_tl_pt *p = &kp->pts[i];
            double lo, hi, y;
            if (type == QQ_TYPE_MARK) {
                mark_band(v, p->row, &lo, &hi);
                y = lo;
            } else {
                line_band(v, p->row, &lo, &hi);
                y = range > 0 ? lo + (p->v - kp->vmin) / range * (hi - lo) : (lo + hi) / 2;
                /* A new node starts a new line. */
                if (i > 0 && kp->pts[i - 1].row != p->row)
                    fprintf(fp, "\n");
            }
            fprintf(fp, "%.10g %.10g %.4f %u\n", p->t * s, p->v, y,
                    qq_file_node(v->tr.f, v->rows[p->row])->node);
        }
    }
    return close_file(fp, "view-events.dat", err, errsz);
}

/* ---------------------------------------------------------------------- */
/* Shares: a column that holds many intervals (DENSE state entries or more)
 * drawn as the share of its time each state is the innermost one on,
 * stacked from the strip's bottom in key order ('other' last), the rest of
 * the column in the strip's grey: merged intervals would show whichever
 * key is drawn last as if it took the whole column (docs/REPORTS.md). */

/* One node's dense columns into FP: a row per slot with time in it, then
 * the rest; SLOT_KEY names each slot's key (nk: 'other'). */
static void share_rows(const struct qqb_timeline *v, FILE *fp, uint32_t row, const double *sec,
                       const uint32_t *changes, const uint32_t *slot_key, uint32_t nslots,
                       int *any_share)
{
    uint32_t nk = v->tr.nkeys, node = qq_file_node(v->tr.f, v->rows[row])->node;
    double lo, hi;
    state_band(v, row, 0, &lo, &hi);
    for (size_t c = 0; c < QQB_TL_PIXELS; c++) {
        if (changes[c] < DENSE)
            continue;
        double a = v->t0 + (double)c * v->px, y = lo, used = 0;
        for (uint32_t s = 0; s <= nslots; s++) {
            double share = s < nslots ? sec[c * nslots + s] / v->px : 1.0 - used;
            if (share > 1.0 - used)
                share = 1.0 - used;
            if (!(share > 1e-9))
                continue;
            uint32_t k = s < nslots ? slot_key[s] : nk + 1;
            const char *color = k <= nk ? key_color(v, k) : QQB_PLOT_FAINT;
            fprintf(fp, "%.10g %.10g %.4f %.4f %u %ld %.6f %ld\n", a * v->scale,
                    (a + v->px) * v->scale, y, y + share * (hi - lo), node,
                    k < nk    ? (long)k
                    : k == nk ? -1L
                              : -2L,
                    share, strtol(color + 1, NULL, 16));
            y += share * (hi - lo);
            used += share;
            *any_share = 1;
        }
    }
}

static int write_share(const struct qqb_timeline *v, const char *out, int *any_share, char *err,
                       size_t errsz)
{
    uint32_t nk = v->tr.nkeys, nslots = 0;
    uint32_t *slot_of = malloc((nk + 1u) * sizeof *slot_of);
    uint32_t *slot_key = malloc((nk + 1u) * sizeof *slot_key);
    double *sec = malloc((size_t)QQB_TL_PIXELS * (QQB_TL_MAX_DRAWN + 1u) * sizeof *sec);
    uint32_t *changes = malloc(QQB_TL_PIXELS * sizeof *changes);
    FILE *fp = NULL;
    int rc = -1;
    if (!slot_of || !slot_key || !sec || !changes) {
        snprintf(err, errsz, "out of memory");
        goto out;
    }
    /* The drawn states each a slot, in key order; the folded ones 'other'
     * (trace/timeline.c's folding left them no spans; a key with none in
     * the window has no time in it either). */
    for (uint32_t k = 0; k < nk; k++) {
        slot_of[k] = QQB_SHARE_NONE;
        if (v->kp[k].nspans && nslots < QQB_TL_MAX_DRAWN)
            slot_key[nslots] = k, slot_of[k] = nslots++;
    }
    if (v->kp[nk].nspans) {
        for (uint32_t k = 0; k < nk; k++)
            if (slot_of[k] == QQB_SHARE_NONE && v->tr.key_on[k])
                slot_of[k] = nslots;
        slot_key[nslots++] = nk;
    }
    if (!(fp = qqb_plot_create(out, "view-share.dat", err, errsz)))
        goto out;
    fprintf(fp,
            "# qqbench view of %s: columns (1/%d of the window) holding %d or more state\n"
            "# entries, as the share of the column's time each state is the innermost\n"
            "# one on, stacked from the strip's bottom; key -1 'other', -2 no state.\n"
            "# from_%s to_%s y_low y_high node key share rgb\n",
            v->tr.path, QQB_TL_PIXELS, DENSE, v->unit, v->unit);
    for (uint32_t k = 0; k < nk; k++) {
        char c[400];
        snprintf(c, sizeof c, "key %u '%s'", k, qq_file_key(v->tr.f, k)->name);
        if (v->kp[k].nspans)
            qqb_plot_comment(fp, c);
    }
    for (uint32_t r = 0; r < v->nrows; r++) {
        int src = qqb_share_node(&v->tr, v->rows[r],
                                 v->row_thread[r] == QQB_TL_ALL_THREADS ? QQB_SHARE_ALL_THREADS
                                                                        : v->row_thread[r],
                                 v->t0, v->t1, QQB_TL_PIXELS, slot_of, nslots, sec, changes);
        if (src != 0) {
            snprintf(err, errsz, "%s", src == -2 ? qq_file_errmsg(v->tr.f) : "out of memory");
            goto out;
        }
        share_rows(v, fp, r, sec, changes, slot_key, nslots, any_share);
    }
    rc = close_file(fp, "view-share.dat", err, errsz);
    fp = NULL;
out:
    if (fp)
        fclose(fp);
    free(slot_of);
    free(slot_key);
    free(sec);
    free(changes);
    return rc;
}

/* The shares' plot clause: over the states' bars, under marks and lines. */
static void share_clause(FILE *gp, int any_share)
{
    if (any_share)
        fprintf(gp, ", \\\n     'view-share.dat' using (($1+$2)/2):(($3+$4)/2):1:2:3:4:8 "
                    "with boxxyerror fc rgb variable notitle");
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static void write_ytics(FILE *gp, const struct qqb_timeline *v, int detail)
{
    fprintf(gp, "set ytics scale 0 (");
    for (uint32_t r = 0; r < v->nrows; r++) {
        uint32_t n = v->rows[r];
        const struct qq_node_info *ni = qq_file_node(v->tr.f, n);
        char label[64];
        fprintf(gp, "%s\"%s", r ? ", " : "", qqb_timeline_strip_label(v, r, label, sizeof label));
        double e = qqb_trace_offset_error_sec(&v->tr, n);
        if (detail && n != 0 && e >= 0) {
            if (e < 1e-3)
                fprintf(gp, "\\n\xc2\xb1%.2g " QQB_TL_MICRO "s", e * 1e6);
            else
                fprintf(gp, "\\n\xc2\xb1%.3g ms", e * 1e3);
        }
        if (detail && ni->dropped)
            fprintf(gp, "\\n%llu dropped", (unsigned long long)ni->dropped);
        fprintf(gp, "\" %g", strip_y(v, r));
    }
    fprintf(gp, ")\n");
}

/* The legend text of key K (K == nkeys: the states folded together). */
static void key_title(FILE *gp, const struct qqb_timeline *v, uint32_t k)
{
    if (k == v->tr.nkeys) {
        fprintf(gp, "'other (%u states)'", v->folded);
        return;
    }
    const struct qq_key_info *ki = qq_file_key(v->tr.f, k);
    const struct qqb_tl_key *kp = &v->kp[k];
    qqb_plot_str(gp, ki->name, 0);
    if (ki->type == QQ_TYPE_STATE && kp->idle)
        fprintf(gp, ".' (waiting)'");
    else if (ki->type == QQ_TYPE_MARK)
        fprintf(gp, ".' (mark)'");
    else if (ki->type == QQ_TYPE_COUNT || ki->type == QQ_TYPE_VALUE)
        fprintf(gp, ".' (%s %.4g to %.4g)'", qqb_trace_type_name(ki->type), kp->vmin, kp->vmax);
}

static int write_script(const struct qqb_timeline *v, const char *out, int any_share, char *err,
                        size_t errsz)
{
    FILE *gp = qqb_plot_create(out, "view.gp", err, errsz);
    if (!gp)
        return -1;
    uint32_t nk = v->tr.nkeys;
    int strip_px = v->nrows <= 4 ? 90 : v->nrows <= 8 ? 70 : 560 / (int)v->nrows;
    if (strip_px < 16)
        strip_px = 16;
    int nlegend = 0;
    for (uint32_t k = 0; k <= nk; k++)
        nlegend += v->kp[k].nspans || v->kp[k].npts;
    int width = 1200, height = 150 + (int)v->nrows * strip_px + 22 * ((nlegend + 3) / 4);

    qqb_plot_begin(gp, "qqbench view: per-node timeline of states (the QQ paper's Figure 6)");
    const char *host = qq_file_meta(v->tr.f, "host");
    const char *date = qq_file_meta(v->tr.f, "date");
    int offsets = 0;
    for (uint32_t r = 0; r < v->nrows; r++)
        offsets |= v->rows[r] != 0 && qqb_trace_offset_error_sec(&v->tr, v->rows[r]) >= 0;
    fprintf(gp, "set title ");
    qqb_plot_str(gp, base_name(v->tr.path), 0);
    fprintf(gp, ".': states per node over time'");
    if (host || date) {
        fprintf(gp, ".\"\\n\".");
        qqb_plot_str(gp, host ? host : "", 0);
        fprintf(gp, ".' '.");
        qqb_plot_str(gp, date ? date : "", 0);
    }
    if (offsets)
        fprintf(gp, ".'; clocks aligned to node 0 (offset error bound under each node)'");
    fprintf(gp, "\n");
    fprintf(gp, "set xlabel 'time since the run''s start (%s)'\n", v->unit);
    fprintf(gp, "set xrange [%.10g:%.10g]\n", v->t0 * v->scale, v->t1 * v->scale);
    fprintf(gp, "set yrange [-0.55:%g]\n", (double)v->nrows - 0.45);
    fprintf(gp, "unset grid\nset grid xtics back lc rgb '%s'\n", QQB_PLOT_FAINT);
    write_ytics(gp, v, strip_px >= 40);
    if (v->any_idle) {
        /* The share of the window each node waits, beside its strip. */
        fprintf(gp, "set y2range [-0.55:%g]\n", (double)v->nrows - 0.45);
        fprintf(gp, "set y2tics scale 0 textcolor rgb '%s' (", QQB_PLOT_ALERT);
        for (uint32_t r = 0; r < v->nrows; r++)
            fprintf(gp, "%s\"%.0f%%%% waiting\" %g", r ? ", " : "",
                    100.0 * v->idle_sec[r] / (v->t1 - v->t0), strip_y(v, r));
        fprintf(gp, ")\n");
    }
    fprintf(gp, "set key outside below center horizontal Left reverse samplen 2 width 2 height 1 "
                "maxrows 2\n");
    fprintf(gp, "set lmargin 12\nset rmargin %d\n", v->any_idle ? 16 : 4);
    qqb_plot_svg(gp, "view", width, height);

    /* Background strips, then states outer first (nested ones drawn over
     * them), then marks and lines on top: the blocks of the data files in
     * the order write_data wrote them. */
    fprintf(gp,
            "plot 'view-nodes.dat' using (($1+$2)/2):(($3+$4)/2):1:2:3:4 "
            "with boxxyerror fc rgb '%s' notitle",
            QQB_PLOT_FAINT);
    int block = 0;
    unsigned char *titled = calloc(nk + 1u, 1);
    if (!titled) {
        fclose(gp);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    for (uint32_t d = 0; d <= MAX_DEPTH; d++)
        for (uint32_t k = 0; k <= nk; k++) {
            const struct qqb_tl_key *kp = &v->kp[k];
            int any = 0;
            for (size_t i = 0; i < kp->nspans && !any; i++)
                any = (kp->spans[i].depth < MAX_DEPTH ? kp->spans[i].depth : MAX_DEPTH) == d;
            if (!any)
                continue;
            fprintf(gp,
                    ", \\\n     'view-states.dat' index %d using (($1+$2)/2):(($3+$4)/2)"
                    ":1:2:3:4 with boxxyerror fc rgb '%s' ",
                    block++, key_color(v, k));
            if (titled[k]) {
                fprintf(gp, "notitle");
            } else {
                fprintf(gp, "title ");
                key_title(gp, v, k);
                titled[k] = 1;
            }
        }
    free(titled);
    share_clause(gp, any_share);
    block = 0;
    for (uint32_t k = 0; k < nk; k++) {
        const struct qqb_tl_key *kp = &v->kp[k];
        uint32_t type = qq_file_key(v->tr.f, k)->type;
        if (type == QQ_TYPE_STATE || !kp->npts)
            continue;
        if (type == QQ_TYPE_MARK)
            fprintf(gp,
                    ", \\\n     'view-events.dat' index %d using 1:3:(0):(0.08) "
                    "with vectors nohead lc rgb '%s' lw 2 title ",
                    block++, key_color(v, k));
        else /* few points: show each, a line of one point is invisible */
            fprintf(gp,
                    ", \\\n     'view-events.dat' index %d using 1:3 "
                    "with %s lc rgb '%s' lw 1.5 title ",
                    block++,
                    kp->npts <= (size_t)40 * v->nrows ? "linespoints pt 7 ps 0.5" : "lines",
                    key_color(v, k));
        key_title(gp, v, k);
    }
    fprintf(gp, "\n");
    qqb_plot_png_replot(gp, "view", width, height);
    return close_file(gp, "view.gp", err, errsz);
}

static void report(const struct qqb_timeline *v, const char *out, int no_plot)
{
    uint32_t nodes = 0;
    for (uint32_t r = 0; r < v->nrows; r++)
        nodes += r == 0 || v->rows[r] != v->rows[r - 1];
    printf("qqbench view: %s: %u node%s, %.6g to %.6g s since the run's start\n", v->tr.path, nodes,
           nodes == 1 ? "" : "s", v->t0, v->t1);
    char label[64];
    for (uint32_t r = 0; r < v->nrows; r++)
        if (v->row_thread[r] != QQB_TL_ALL_THREADS) {
            const struct qq_thread_info *ti = qq_file_thread(v->tr.f, v->rows[r], v->row_thread[r]);
            printf("  %s: thread '%s', tid %llu\n",
                   qqb_timeline_strip_label(v, r, label, sizeof label), ti->name,
                   (unsigned long long)ti->tid);
        }
    if (v->any_idle)
        for (uint32_t r = 0; r < v->nrows; r++)
            printf("  %s: %5.1f%% of the window waiting\n",
                   qqb_timeline_strip_label(v, r, label, sizeof label),
                   100.0 * v->idle_sec[r] / (v->t1 - v->t0));
    if (v->strips_left)
        printf("  %s past the %d drawn (those with the most entries) left out (--nodes "
               "chooses)\n",
               QQB_COUNT(v->strips_left, "strip"), QQB_TL_MAX_STRIPS);
    if (v->folded || v->dropped)
        printf("  %s past the %d drawn: %s drawn together as 'other', %s, "
               "counts and values not drawn (--keys chooses)\n",
               QQB_COUNT(v->folded + v->dropped, "key"), QQB_TL_MAX_DRAWN - 1,
               QQB_COUNT(v->folded, "state"), QQB_COUNT(v->dropped, "mark"));
    if (no_plot)
        printf("wrote %s/view.gp and its data (not drawn: --no-plot)\n", out);
    else
        printf("wrote %s/view.svg and %s/view.png (script %s/view.gp)\n", out, out, out);
}

int qqb_view(const struct qqb_view_opts *o, char *err, size_t errsz)
{
    struct qqb_timeline tl;
    const char *out = o->out;
    char *out_alloc = NULL;
    if (!out) {
        /* FILE's name without .qq, plus -view, in the current folder. */
        const char *b = base_name(o->tl.file);
        size_t len = strlen(b);
        if (len > 3 && !strcmp(b + len - 3, ".qq"))
            len -= 3;
        out_alloc = malloc(len + 6);
        if (!out_alloc) {
            snprintf(err, errsz, "out of memory");
            return -1;
        }
        snprintf(out_alloc, len + 6, "%.*s-view", (int)len, b);
        out = out_alloc;
    }
    int any_share = 0, rc = -1;
    if (qqb_timeline_read(&tl, &o->tl, err, errsz) == 0 && qqb_plot_mkdir(out, err, errsz) == 0 &&
        write_data(&tl, out, err, errsz) == 0 &&
        write_share(&tl, out, &any_share, err, errsz) == 0 &&
        write_script(&tl, out, any_share, err, errsz) == 0 &&
        (o->no_plot || qqb_plot_run(out, "view.gp", err, errsz) == 0)) {
        report(&tl, out, o->no_plot);
        rc = 0;
    }
    qqb_timeline_free(&tl);
    free(out_alloc);
    return rc;
}
