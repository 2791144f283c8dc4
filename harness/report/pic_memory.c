/* pic_memory.c - the run report's picture 3, memory per object type, baseline against current. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "pic.h"

/* ======================================================================
 * Picture 3: memory per object type, baseline against current.
 * ====================================================================== */

struct memrow {
    size_t ci, mi;
    struct rmem base; /* the baseline's, or (on a run against a reference build) the reference's */
    int has_base;
};

/* The rows to draw and what they span. */
struct memrows {
    struct memrow *rows;
    size_t nr, nbase;
    int build;      /* a run against a reference build: BASE is the reference build's */
    double mx[3];   /* the largest live, peak, created */
    int changed[3]; /* a "(was ...)" label needs more room */
    int shown[3];   /* a panel that is not 0 in every row */
    size_t nshown;
};

static const char *const panel_name[3] = {"live at the end", "peak", "objects created"};

/* Row W's figures: this run's (CUR) and the baseline's (BASE), live, peak
 * and created. */
static void row_figures(const struct rep *r, const struct memrow *w, double cur[3], double base[3])
{
    const struct rmem *m = &r->cases[w->ci].mem[w->mi];
    cur[0] = m->live, cur[1] = m->peak, cur[2] = m->created;
    base[0] = w->base.live, base[1] = w->base.peak, base[2] = w->base.created;
}

/* The colours of the reference build and the change build, the samples
 * picture's (pic_samples.c: the first and second series colours). */
#define C_REFERENCE qqb_plot_color(0)
#define C_CHANGE    qqb_plot_color(1)

/* The class, and so the colour (pic_vstyle, as index.html's memory
 * table), of bar V of row W: grew (regressed), shrank (improved), or
 * unchanged, which is also a row with nothing to compare with. */
static enum vclass bar_class(const struct rep *r, const struct memrow *w, int v)
{
    double cur[3], base[3];
    row_figures(r, w, cur, base);
    if (w->has_base && cur[v] > base[v])
        return V_REGRESSED;
    if (w->has_base && cur[v] < base[v])
        return V_IMPROVED;
    return V_UNCHANGED;
}

/* The colour of bar V of row W: on a run against a reference build, the
 * change build's, or the alert where it grew; else its class's. */
static const char *bar_color(const struct rep *r, const struct memrows *m, const struct memrow *w,
                             int v)
{
    enum vclass k = bar_class(r, w, v);
    if (m->build && w->has_base)
        return k == V_REGRESSED ? pic_vstyle[V_REGRESSED].color : C_CHANGE;
    return pic_vstyle[k].color;
}

/* 1 when case NAME is the reference build of a memory key of another. */
static int is_reference(const struct rep *r, const char *name)
{
    for (size_t j = 0; j < r->nmch; j++)
        if (!strcmp(r->mch[j].kind, "build") && r->mch[j].ref && !strcmp(r->mch[j].ref, name))
            return 1;
    return 0;
}

/* Memory key K of case I as a row, unless it has nothing to show. On a run
 * against a reference build the reference's figures are the change's
 * row's BASE, and the reference's own rows are not drawn again. */
static void memory_row(const struct rep *r, size_t i, size_t k, struct memrows *m)
{
    const struct rcase *c = &r->cases[i];
    const struct rmem *mem = &c->mem[k];
    struct memrow w = {i, k, {0}, 0};
    const char *kind = m->build ? "build" : "baseline";
    if (m->build && is_reference(r, c->name))
        return;
    for (size_t j = 0; j < r->nmch; j++) {
        const struct rmemchg *mc = &r->mch[j];
        if (!strcmp(mc->kind, kind) && mc->has_before && !strcmp(mc->case_name, c->name) &&
            !strcmp(mc->key, mem->key))
            w.base = mc->before, w.has_base = 1;
    }
    /* Memory is compared exactly (or within the stated tolerance): a
     * compared case with no change recorded had the same. */
    if (!m->build && !w.has_base && c->vs_baseline && r->baseline)
        w.base = *mem, w.has_base = 1;
    double vals[6] = {mem->live, mem->peak, mem->created, w.base.live, w.base.peak, w.base.created};
    int any = 0;
    for (int v = 0; v < 6; v++)
        if (isfinite(vals[v]) && vals[v] > 0 && (v < 3 || w.has_base))
            any = 1;
    if (!any)
        return;
    for (int v = 0; v < 3; v++) {
        if (isfinite(vals[v]) && vals[v] > m->mx[v])
            m->mx[v] = vals[v];
        if (w.has_base && isfinite(vals[v + 3]) && vals[v + 3] > m->mx[v])
            m->mx[v] = vals[v + 3];
    }
    for (int v = 0; v < 3 && w.has_base; v++)
        m->changed[v] |= vals[v] != vals[v + 3];
    m->nbase += (size_t)w.has_base;
    m->rows[m->nr++] = w;
}

/* Row I of the data file. */
static void memory_data_row(FILE *d, const struct rep *r, const struct memrows *rows, size_t i)
{
    const struct memrow *w = &rows->rows[i];
    const struct rcase *c = &r->cases[w->ci];
    const struct rmem *m = &c->mem[w->mi];
    double cur[3], base[3];
    row_figures(r, w, cur, base);
    fprintf(d, "%zu\t", i);
    pic_dtext(d, c->name);
    fputs("  ", d);
    pic_dtext(d, m->key);
    for (int v = 0; v < 3; v++) {
        fputc('\t', d);
        pic_dnum(d, w->has_base ? base[v] / (v < 2 ? 1024.0 : 1.0) : NAN);
        fputc('\t', d);
        pic_dnum(d, cur[v] / (v < 2 ? 1024.0 : 1.0));
    }
    for (int v = 0; v < 3; v++)
        fprintf(d, "\t%ld", strtol(bar_color(r, rows, w, v) + 1, NULL, 16));
    for (int v = 0; v < 3; v++) {
        char a[32], bb[32], t[96];
        if (v < 2)
            pic_fmt_bytes(a, sizeof a, cur[v]), pic_fmt_bytes(bb, sizeof bb, base[v]);
        else
            qqb_fmt_sig(a, sizeof a, cur[v]), qqb_fmt_sig(bb, sizeof bb, base[v]);
        if (w->has_base && cur[v] != base[v])
            snprintf(t, sizeof t, "%s (%s %s)", a, rows->build ? "reference:" : "was", bb);
        else
            snprintf(t, sizeof t, "%s", a);
        fprintf(d, "\t%s", t);
    }
    fputc('\n', d);
}

static int memory_data(struct rep *r, struct pic *p, const struct memrows *m)
{
    FILE *d = pic_open_data(r, p, NULL);
    if (!d)
        return -1;
    qqb_plot_comment(d, p->title);
    fprintf(d, "# (bytes, objects; NaN: no %s)\n", m->build ? "reference build" : "baseline");
    fprintf(d, "# row\tlabel\tlive_base\tlive\tpeak_base\tpeak\tcreated_base\tcreated"
               "\tcolor_live\tcolor_peak\tcolor_created\ttext_live\ttext_peak\ttext_created\n");
    for (size_t i = 0; i < m->nr; i++)
        memory_data_row(d, r, m, i);
    return pic_close_file(r, d, p->data[0]);
}

/* The legend: a bar of each colour the shown panels hold. */
static void memory_key(FILE *gp, const struct rep *r, const struct memrows *m)
{
    int has[NCLASS] = {0}, bare = 0;
    for (size_t i = 0; i < m->nr; i++) {
        bare |= !m->rows[i].has_base;
        for (int v = 0; v < 3; v++)
            if (m->shown[v] && m->rows[i].has_base)
                has[bar_class(r, &m->rows[i], v)] = 1;
    }
    static const struct {
        enum vclass v;
        const char *title;
    } entry[] = {{V_REGRESSED, "grew"}, {V_IMPROVED, "shrank"}, {V_UNCHANGED, "unchanged"}};
    if (m->build) {
        fprintf(gp, ", \\\n     keyentry with boxes fc rgb '%s' title 'reference build'",
                C_REFERENCE);
        fprintf(gp, ", \\\n     keyentry with boxes fc rgb '%s' title 'change build'", C_CHANGE);
        if (has[V_REGRESSED])
            fprintf(gp, ", \\\n     keyentry with boxes fc rgb '%s' title 'grew'",
                    pic_vstyle[V_REGRESSED].color);
    } else if (m->nbase) {
        fprintf(gp, ", \\\n     keyentry with boxes fc rgb '%s' title 'baseline'", C_BASELINE);
    }
    for (size_t e = 0; e < sizeof entry / sizeof entry[0] && !m->build; e++)
        if (has[entry[e].v])
            fprintf(gp, ", \\\n     keyentry with boxes fc rgb '%s' title '%s'",
                    pic_vstyle[entry[e].v].color, entry[e].title);
    if (bare)
        fprintf(gp, ", \\\n     keyentry with boxes fc rgb '%s' title '%s'",
                pic_vstyle[V_UNCHANGED].color,
                m->build   ? "no reference to compare with"
                : m->nbase ? "no baseline to compare with"
                           : "this run (no baseline)");
}

/* Panel V (0 live, 1 peak, 2 created): its axis, the row labels (FIRST,
 * the leftmost panel's only), the bars and (FIRST) the legend. */
static void memory_panel(FILE *gp, const struct rep *r, const struct pic *p,
                         const struct memrows *m, int v, int first)
{
    static const char *const unit[3] = {"KB", "KB", "objects"};
    fprintf(gp, "set title '%s'\nset xlabel '%s'\nset xrange [0:%.6g]\nset ytics (", panel_name[v],
            unit[v],
            m->mx[v] > 0 ? m->mx[v] / (v < 2 ? 1024.0 : 1.0) * (m->changed[v] ? 2.1 : 1.45) : 1.0);
    for (size_t i = 0; i < m->nr; i++) {
        fprintf(gp, "%s", i ? ", " : "");
        if (first) {
            char lab[256];
            const struct rcase *c = &r->cases[m->rows[i].ci];
            snprintf(lab, sizeof lab, "%s  %s", c->name, c->mem[m->rows[i].mi].key);
            qqb_plot_str(gp, lab, QQB_GP_FORMAT);
        } else {
            fprintf(gp, "''");
        }
        fprintf(gp, " %zu", i);
    }
    int bc = 3 + 2 * v, cc = 4 + 2 * v, colc = 9 + v, tc = 12 + v;
    fprintf(gp, ") scale 0\n%s\nplot ",
            first ? "set key at screen 0.5, screen 0.008 center bottom horizontal samplen 1.2 "
                    "width 2"
                  : "unset key");
    if (m->nbase) {
        qqb_plot_str(gp, p->data[0], 0);
        fprintf(gp,
                " using (0):1:(0):%d:($1-0.4):($1-0.02) with boxxyerror "
                "fc rgb '%s', \\\n     ",
                bc, m->build ? C_REFERENCE : C_BASELINE);
    }
    qqb_plot_str(gp, p->data[0], 0);
    fprintf(gp,
            " using (0):1:(0):%d:($1+0.02):($1+0.4):%d with boxxyerror "
            "fc rgb variable, \\\n"
            "     '' using %d:($1+0.2):%d with labels left offset 0.6,0 "
            "textcolor rgb '%s'",
            cc, colc, cc, tc, QQB_PLOT_INK);
    if (first)
        memory_key(gp, r, m);
    fprintf(gp, "\n");
}

/* The panels left out, "objects created" or "peak and objects created",
 * into B (empty when none). */
static const char *memory_left_out(const struct memrows *m, char *b, size_t n)
{
    size_t off = 0, out = 3 - m->nshown, k = 0;
    b[0] = '\0';
    for (int v = 0; v < 3 && off < n; v++)
        if (!m->shown[v]) {
            k++;
            off += (size_t)snprintf(b + off, n - off, "%s%s",
                                    k == 1     ? ""
                                    : k == out ? " and "
                                               : ", ",
                                    panel_name[v]);
        }
    return b;
}

static int memory_script(struct rep *r, struct pic *p, const struct memrows *m)
{
    FILE *gp = pic_open_script(r, p);
    if (!gp)
        return -1;
    size_t lw = 10;
    for (size_t i = 0; i < m->nr; i++) {
        const struct rcase *c = &r->cases[m->rows[i].ci];
        size_t l = strlen(c->name) + 2 + strlen(c->mem[m->rows[i].mi].key);
        if (l > lw)
            lw = l;
    }
    /* The labels' room, then about 430 pixels a panel: a panel left out
     * takes no room. */
    double label = (double)lw * 7.5 + 20;
    if (label > 540)
        label = 540;
    int width = (int)label + 430 * (int)m->nshown + 40, height = 200 + 30 * (int)m->nr;
    double lm = label / width;
    double top = 1.0 - 80.0 / height, bottom = 85.0 / height;
    qqb_plot_both_begin(gp, p->stem, width, height);
    char ttl[512], out[96];
    memory_left_out(m, out, sizeof out);
    snprintf(ttl, sizeof ttl, "Memory per object type%s%s%s",
             m->build   ? ", the change build against the reference build: blue = reference, "
                          "green = change (vermillion where it grew)"
             : m->nbase ? ": grey = baseline, coloured = this run"
                        : " (no baseline to compare with)",
             *out ? "\nleft out, as 0 in every row: " : "", out);
    fprintf(gp, "set multiplot layout 1,%zu title ", m->nshown);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, " margins %.4f,0.97,%.4f,%.4f spacing 0.035,0\n", lm, bottom, top);
    fprintf(gp,
            "unset key\nset yrange [%zu.5:-0.5]\nset grid xtics noytics\n"
            "set style fill solid 1.0 noborder\n",
            m->nr - 1);
    int first = 1;
    for (int v = 0; v < 3; v++)
        if (m->shown[v]) {
            memory_panel(gp, r, p, m, v, first);
            first = 0;
        }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

int pic_memory(struct rep *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncases; i++)
        n += r->cases[i].nmem;
    struct memrows m = {.rows = calloc(n ? n : 1, sizeof *m.rows), .build = r->run.against != NULL};
    if (!m.rows)
        return pic_fail(r, "out of memory");
    for (size_t i = 0; i < r->ncases; i++)
        for (size_t k = 0; k < r->cases[i].nmem; k++)
            memory_row(r, i, k, &m);
    struct pic *p = m.nr ? pic_new(r, 3, "memory") : NULL;
    if (!p) {
        free(m.rows);
        return 0;
    }
    snprintf(p->title, sizeof p->title, "Memory per object type: live, peak, objects created");
    for (int v = 0; v < 3; v++) {
        m.shown[v] = m.mx[v] > 0;
        m.nshown += (size_t)m.shown[v];
    }
    char out[96];
    memory_left_out(&m, out, sizeof out);
    snprintf(p->what, sizeof p->what,
             "A row per memory key (object type) of each case. A panel each for bytes still "
             "live at the end (objects plus allocations), the peak, and objects created%s%s. "
             "%s Memory is deterministic: any difference is real.",
             *out ? "; left out, as 0 in every row: " : "", out,
             m.build ? "Blue is the reference build, green the change build (the samples "
                       "picture's colours), vermillion where the change grew."
                     : "Grey is the baseline, the coloured bar this run: vermillion where it "
                       "grew, green where it shrank, blue where it did not change or there is "
                       "nothing to compare with (the colours of the memory table).");
    int rc = memory_data(r, p, &m) == 0 ? memory_script(r, p, &m) : -1;
    free(m.rows);
    return rc;
}
