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
    struct rmem base;
    int has_base;
};

/* The rows to draw and what they span. */
struct memrows {
    struct memrow *rows;
    size_t nr, nbase;
    double mx[3];   /* the largest live, peak, created */
    int changed[3]; /* a "(was ...)" label needs more room */
};

/* Memory key K of case I as a row, unless it has nothing to show. */
static void memory_row(const struct rep *r, size_t i, size_t k, struct memrows *m)
{
    const struct rcase *c = &r->cases[i];
    const struct rmem *mem = &c->mem[k];
    struct memrow w = {i, k, {0}, 0};
    for (size_t j = 0; j < r->nmch; j++) {
        const struct rmemchg *mc = &r->mch[j];
        if (!strcmp(mc->kind, "baseline") && mc->has_before && !strcmp(mc->case_name, c->name) &&
            !strcmp(mc->key, mem->key))
            w.base = mc->before, w.has_base = 1;
    }
    /* Memory is compared exactly (or within the stated tolerance): a
     * compared case with no change recorded had the same. */
    if (!w.has_base && c->vs_baseline && r->baseline)
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
static void memory_data_row(FILE *d, const struct rep *r, size_t i, const struct memrow *w)
{
    const struct rcase *c = &r->cases[w->ci];
    const struct rmem *m = &c->mem[w->mi];
    double cur[3] = {m->live, m->peak, m->created};
    double base[3] = {w->base.live, w->base.peak, w->base.created};
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
    for (int v = 0; v < 3; v++) {
        const char *col = C_CURRENT;
        if (w->has_base && cur[v] > base[v])
            col = QQB_PLOT_ALERT;
        else if (w->has_base && cur[v] < base[v])
            col = pic_vstyle[V_IMPROVED].color;
        fprintf(d, "\t%ld", strtol(col + 1, NULL, 16));
    }
    for (int v = 0; v < 3; v++) {
        char a[32], bb[32], t[96];
        if (v < 2)
            pic_fmt_bytes(a, sizeof a, cur[v]), pic_fmt_bytes(bb, sizeof bb, base[v]);
        else
            qqb_fmt_sig(a, sizeof a, cur[v]), qqb_fmt_sig(bb, sizeof bb, base[v]);
        if (w->has_base && cur[v] != base[v])
            snprintf(t, sizeof t, "%s (was %s)", a, bb);
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
    fprintf(d, "# (bytes, objects; NaN: no baseline)\n"
               "# row\tlabel\tlive_base\tlive\tpeak_base\tpeak\tcreated_base\tcreated"
               "\tcolor_live\tcolor_peak\tcolor_created\ttext_live\ttext_peak\ttext_created\n");
    for (size_t i = 0; i < m->nr; i++)
        memory_data_row(d, r, i, &m->rows[i]);
    return pic_close_file(r, d, p->data[0]);
}

/* Panel V (0 live, 1 peak, 2 created): its axis, the row labels (the
 * first panel's only) and the bars. */
static void memory_panel(FILE *gp, const struct rep *r, const struct pic *p,
                         const struct memrows *m, int v)
{
    static const char *const panel[3] = {"live at the end", "peak", "objects created"};
    static const char *const unit[3] = {"KB", "KB", "objects"};
    fprintf(gp, "set title '%s'\nset xlabel '%s'\nset xrange [0:%.6g]\nset ytics (", panel[v],
            unit[v],
            m->mx[v] > 0 ? m->mx[v] / (v < 2 ? 1024.0 : 1.0) * (m->changed[v] ? 2.1 : 1.45) : 1.0);
    for (size_t i = 0; i < m->nr; i++) {
        fprintf(gp, "%s", i ? ", " : "");
        if (v == 0) {
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
    fprintf(gp, ") scale 0\nplot ");
    if (m->nbase) {
        qqb_plot_str(gp, p->data[0], 0);
        fprintf(gp,
                " using (0):1:(0):%d:($1-0.4):($1-0.02) with boxxyerror "
                "fc rgb '%s', \\\n     ",
                bc, C_BASELINE);
    }
    qqb_plot_str(gp, p->data[0], 0);
    fprintf(gp,
            " using (0):1:(0):%d:($1+0.02):($1+0.4):%d with boxxyerror "
            "fc rgb variable, \\\n"
            "     '' using %d:($1+0.2):%d with labels left offset 0.6,0 "
            "textcolor rgb '%s'\n",
            cc, colc, cc, tc, QQB_PLOT_INK);
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
    int width = 1350, height = 170 + 30 * (int)m->nr;
    double lm = ((double)lw * 7.5 + 20) / width;
    if (lm > 0.4)
        lm = 0.4;
    double top = 1.0 - 80.0 / height, bottom = 55.0 / height;
    qqb_plot_both_begin(gp, p->stem, width, height);
    char ttl[256];
    snprintf(ttl, sizeof ttl, "Memory per object type%s",
             m->nbase ? ": grey = baseline, coloured = this run (vermillion grew, green shrank)"
                      : " (no baseline to compare with)");
    fprintf(gp, "set multiplot layout 1,3 title ");
    qqb_plot_str(gp, ttl, 0);
    fprintf(gp, " margins %.4f,0.97,%.4f,%.4f spacing 0.035,0\n", lm, bottom, top);
    fprintf(gp,
            "unset key\nset yrange [%zu.5:-0.5]\nset grid xtics noytics\n"
            "set style fill solid 1.0 noborder\n",
            m->nr - 1);
    for (int v = 0; v < 3; v++)
        memory_panel(gp, r, p, m, v);
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    return pic_finish(r, p, gp);
}

int pic_memory(struct rep *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncases; i++)
        n += r->cases[i].nmem;
    struct memrows m = {calloc(n ? n : 1, sizeof *m.rows), 0, 0, {0, 0, 0}, {0, 0, 0}};
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
    snprintf(p->what, sizeof p->what,
             "A row per memory key (object type) of each case. Three panels: bytes still "
             "live at the end (objects plus allocations), the peak, and objects created. "
             "Grey is the baseline, the coloured bar this run: vermillion where it grew, "
             "green where it shrank, blue where it did not change or there is nothing to "
             "compare with. Memory is deterministic: any difference is real.");
    int rc = memory_data(r, p, &m) == 0 ? memory_script(r, p, &m) : -1;
    free(m.rows);
    return rc;
}
