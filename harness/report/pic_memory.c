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

int pic_memory(struct rep *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncases; i++)
        n += r->cases[i].nmem;
    struct memrow *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows)
        return pic_fail(r, "out of memory");
    size_t nr = 0, nbase = 0;
    double mx[3] = {0, 0, 0};
    int changed[3] = {0, 0, 0}; /* a "(was ...)" label needs more room */
    for (size_t i = 0; i < r->ncases; i++) {
        const struct rcase *c = &r->cases[i];
        for (size_t k = 0; k < c->nmem; k++) {
            const struct rmem *m = &c->mem[k];
            struct memrow w = {i, k, {0}, 0};
            for (size_t j = 0; j < r->nmch; j++) {
                const struct rmemchg *mc = &r->mch[j];
                if (!strcmp(mc->kind, "baseline") && mc->has_before &&
                    !strcmp(mc->case_name, c->name) && !strcmp(mc->key, m->key))
                    w.base = mc->before, w.has_base = 1;
            }
            /* Memory is compared exactly (or within the stated tolerance):
             * a compared case with no change recorded had the same. */
            if (!w.has_base && c->vs_baseline && r->baseline)
                w.base = *m, w.has_base = 1;
            double vals[6] = {m->live,     m->peak,     m->created,
                              w.base.live, w.base.peak, w.base.created};
            int any = 0;
            for (int v = 0; v < 6; v++)
                if (isfinite(vals[v]) && vals[v] > 0 && (v < 3 || w.has_base))
                    any = 1;
            if (!any)
                continue;
            for (int v = 0; v < 3; v++) {
                if (isfinite(vals[v]) && vals[v] > mx[v])
                    mx[v] = vals[v];
                if (w.has_base && isfinite(vals[v + 3]) && vals[v + 3] > mx[v])
                    mx[v] = vals[v + 3];
            }
            for (int v = 0; v < 3 && w.has_base; v++)
                changed[v] |= vals[v] != vals[v + 3];
            nbase += (size_t)w.has_base;
            rows[nr++] = w;
        }
    }
    if (nr == 0) {
        free(rows);
        return 0;
    }
    struct pic *p = pic_new(r, 3, "memory");
    if (!p) {
        free(rows);
        return 0;
    }
    snprintf(p->title, sizeof p->title, "Memory per object type: live, peak, objects created");
    snprintf(p->what, sizeof p->what,
             "A row per memory key (object type) of each case. Three panels: bytes still "
             "live at the end (objects plus allocations), the peak, and objects created. "
             "Grey is the baseline, the coloured bar this run: vermillion where it grew, "
             "green where it shrank, blue where it did not change or there is nothing to "
             "compare with. Memory is deterministic: any difference is real.");
    FILE *d = pic_open_data(r, p, NULL);
    if (!d) {
        free(rows);
        return -1;
    }
    qqb_plot_comment(d, p->title);
    fprintf(d, "# (bytes, objects; NaN: no baseline)\n"
               "# row\tlabel\tlive_base\tlive\tpeak_base\tpeak\tcreated_base\tcreated"
               "\tcolor_live\tcolor_peak\tcolor_created\ttext_live\ttext_peak\ttext_created\n");
    for (size_t i = 0; i < nr; i++) {
        const struct memrow *w = &rows[i];
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
    if (pic_close_file(r, d, p->data[0]) != 0) {
        free(rows);
        return -1;
    }
    FILE *gp = pic_open_script(r, p);
    if (!gp) {
        free(rows);
        return -1;
    }
    size_t lw = 10;
    for (size_t i = 0; i < nr; i++) {
        size_t l = strlen(r->cases[rows[i].ci].name) + 2 +
                   strlen(r->cases[rows[i].ci].mem[rows[i].mi].key);
        if (l > lw)
            lw = l;
    }
    int width = 1350, height = 170 + 30 * (int)nr;
    double lm = ((double)lw * 7.5 + 20) / width;
    if (lm > 0.4)
        lm = 0.4;
    double top = 1.0 - 80.0 / height, bottom = 55.0 / height;
    qqb_plot_both_begin(gp, p->stem, width, height);
    char ttl[256];
    snprintf(ttl, sizeof ttl, "Memory per object type%s",
             nbase ? ": grey = baseline, coloured = this run (vermillion grew, green shrank)"
                   : " (no baseline to compare with)");
    fprintf(gp, "set multiplot layout 1,3 title ");
    qqb_plot_str(gp, ttl, 0);
    fprintf(gp, " margins %.4f,0.97,%.4f,%.4f spacing 0.035,0\n", lm, bottom, top);
    fprintf(gp,
            "unset key\nset yrange [%zu.5:-0.5]\nset grid xtics noytics\n"
            "set style fill solid 1.0 noborder\n",
            nr - 1);
    static const char *const panel[3] = {"live at the end", "peak", "objects created"};
    static const char *const unit[3] = {"KB", "KB", "objects"};
    for (int v = 0; v < 3; v++) {
        fprintf(gp, "set title '%s'\nset xlabel '%s'\nset xrange [0:%.6g]\nset ytics (", panel[v],
                unit[v],
                mx[v] > 0 ? mx[v] / (v < 2 ? 1024.0 : 1.0) * (changed[v] ? 2.1 : 1.45) : 1.0);
        for (size_t i = 0; i < nr; i++) {
            fprintf(gp, "%s", i ? ", " : "");
            if (v == 0) {
                char lab[256];
                snprintf(lab, sizeof lab, "%s  %s", r->cases[rows[i].ci].name,
                         r->cases[rows[i].ci].mem[rows[i].mi].key);
                qqb_plot_str(gp, lab, QQB_GP_FORMAT);
            } else {
                fprintf(gp, "''");
            }
            fprintf(gp, " %zu", i);
        }
        int bc = 3 + 2 * v, cc = 4 + 2 * v, colc = 9 + v, tc = 12 + v;
        fprintf(gp, ") scale 0\nplot ");
        if (nbase) {
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
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    free(rows);
    return pic_finish(r, p, gp);
}
