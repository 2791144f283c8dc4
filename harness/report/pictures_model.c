/* pictures_model.c - model fits (data, error bars, fitted curve, residuals) and machine profiles
 * as gnuplot pictures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "pictures_model.h"
#include "plot.h"
#include "profile.h"
#include "report.h"
#include "run_json.h"

#define CURVE_POINTS 200

struct mpts {
    size_t n;
    double x[256], y[256], sigma[256], fit[256];
    double px[256][QQB_MODEL_MAX_PARAMS];
};

/* The fit FIT (a "current" or "baseline" object) of M into F and P, as
 * run_json.c reads it back: -1 when it has no coefficients of M. */
static int read_fit(const json_t *fit, const struct qqb_model *m, struct qqb_fit *f, struct mpts *p)
{
    static struct qqb_run_fit_point pts[256];
    if (qqb_run_model_fit_read(fit, m, f, pts, 256, &p->n) != 0)
        return -1;
    for (size_t i = 0; i < p->n; i++) {
        for (int k = 0; k < m->nparams; k++)
            p->px[i][k] = pts[i].x[k];
        p->x[i] = m->nparams == 1 ? p->px[i][0] : (double)(i + 1);
        p->y[i] = pts[i].y;
        p->sigma[i] = pts[i].sigma;
        p->fit[i] = pts[i].fit;
    }
    return 0;
}

/* The fitted curve of F from LO to HI (one parameter): log-spaced when the
 * range spans a factor of 10 and more. */
static void write_curve(FILE *d, const struct qqb_model *m, const struct qqb_fit *f, double lo,
                        double hi)
{
    int logx = lo > 0 && hi / lo >= 10;
    for (int i = 0; i <= CURVE_POINTS; i++) {
        double t = (double)i / CURVE_POINTS;
        double x = logx ? exp(log(lo) + t * (log(hi) - log(lo))) : lo + t * (hi - lo);
        double y = qqb_model_predict(m, f, &x, 0.95, NULL);
        if (isfinite(y))
            fprintf(d, "%.17g\t%.17g\n", x, y);
    }
}

/* One model's figure: what its files and caption say. */
struct mfig {
    const char *formula, *series;
    struct qqb_model m;
    struct qqb_fit fc, fb;
    const struct mpts *pc, *pb; /* this run's points, the baseline's */
    int have_base, curve;       /* curve: one parameter, drawn against it */
    double lo, hi;              /* the parameter's range */
    char stem[64], title[600];
};

/* STEM.dat: the points of both sets (index 0, 1), then the curves (2, 3). */
static int model_data(const char *dir, struct mfig *f, char *err, size_t errlen)
{
    char name[96];
    snprintf(name, sizeof name, "%s.dat", f->stem);
    FILE *d = qqb_plot_create(dir, name, err, errlen);
    if (!d)
        return -1;
    f->lo = INFINITY, f->hi = -INFINITY;
    for (int set = 0; set < 2; set++) {
        const struct mpts *p = set ? f->pb : f->pc;
        fprintf(d, "# %s: x\tmeasured\tspread\tfitted\tresidual_pct\tspread_pct\n",
                set ? "the baseline" : "this run");
        for (size_t i = 0; i < p->n; i++) {
            f->lo = fmin(f->lo, p->x[i]);
            f->hi = fmax(f->hi, p->x[i]);
            double r = p->y[i] != 0 ? 100 * (p->y[i] - p->fit[i]) / p->y[i] : 0;
            double rs = p->y[i] != 0 ? 100 * p->sigma[i] / fabs(p->y[i]) : 0;
            fprintf(d, "%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", p->x[i], p->y[i], p->sigma[i],
                    p->fit[i], r, rs);
        }
        if (p->n == 0)
            fprintf(d, "nan\tnan\tnan\tnan\tnan\tnan\n");
        fprintf(d, "\n\n");
    }
    for (int set = 0; set < 2; set++) {
        fprintf(d, "# the fitted curve of %s\n", set ? "the baseline" : "this run");
        if (f->curve && (!set || f->have_base))
            write_curve(d, &f->m, set ? &f->fb : &f->fc, f->lo, f->hi);
        else
            fprintf(d, "nan\tnan\n");
        fprintf(d, "\n\n");
    }
    if (fclose(d) != 0)
        return snprintf(err, errlen, "cannot write %s", name), -1;
    return 0;
}

/* The data with its fit above, the residuals below. */
static void model_plots(FILE *gp, const struct mfig *f)
{
    char datn[80], qdat[200];
    snprintf(datn, sizeof datn, "%s.dat", f->stem);
    qqb_plot_quoted(qdat, sizeof qdat, datn, 0);
    fprintf(gp, "plot ");
    if (f->have_base && f->pb->n)
        fprintf(gp,
                "%s index 1 using 1:2:3 with yerrorbars pt 6 lc rgb '#999999' "
                "title 'baseline (mean +- spread)', \\\n     ",
                qdat);
    if (f->have_base && f->curve)
        fprintf(gp,
                "%s index 3 using 1:2 with lines dt 2 lw 1.5 lc rgb '#999999' "
                "title 'baseline fit', \\\n     ",
                qdat);
    fprintf(gp,
            "%s index 0 using 1:2:3 with yerrorbars pt 7 lc rgb '%s' "
            "title 'this run (mean +- spread)', \\\n     ",
            qdat, qqb_plot_color(0));
    if (f->curve)
        fprintf(gp, "%s index 2 using 1:2 with lines lw 2 lc rgb '%s' title 'fit'\n", qdat,
                qqb_plot_color(1));
    else
        fprintf(gp,
                "%s index 0 using 1:4 with points pt 2 ps 1.5 lc rgb '%s' "
                "title 'fitted'\n",
                qdat, qqb_plot_color(1));
    fprintf(gp, "set size 1,0.38\nset origin 0,0\nset ylabel 'residual (%%)'\nunset title\n"
                "set key top left\n");
    fprintf(gp,
            "plot 0 with lines lc rgb '%s' notitle, \\\n     %s index 0 using 1:5:6 "
            "with yerrorbars pt 7 lc rgb '%s' title '(measured - fitted) / measured'\n",
            QQB_PLOT_INK, qdat, qqb_plot_color(0));
}

/* STEM.gp, run unless NO_PLOT. */
static int model_script(const char *dir, int no_plot, const struct mfig *f, char *err,
                        size_t errlen)
{
    char name[96];
    snprintf(name, sizeof name, "%s.gp", f->stem);
    FILE *gp = qqb_plot_create(dir, name, err, errlen);
    if (!gp)
        return -1;
    qqb_plot_begin(gp, "a model fitted over a sweep: data, fitted curve, residuals");
    qqb_plot_both_begin(gp, f->stem, 900, 640);
    fprintf(gp, "set multiplot layout 2,1 title ");
    qqb_plot_str(gp, f->title, 0);
    fprintf(gp, "\nset key top left\nset offsets graph 0.03, graph 0.03, 0, 0\n");
    if (f->curve && f->lo > 0 && f->hi / f->lo >= 10)
        fprintf(gp, "set logscale x\n");
    else
        fprintf(gp, "unset logscale x\n");
    char xl[80];
    snprintf(xl, sizeof xl, "%s", f->curve ? f->m.params[0] : "point (in the order of the table)");
    fprintf(gp, "set xlabel ");
    qqb_plot_str(gp, xl, 0);
    fprintf(gp, "\nset ylabel 'net ticks per hit'\nset size 1,0.57\nset origin 0,0.38\n");
    model_plots(gp, f);
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    if (fclose(gp) != 0)
        return snprintf(err, errlen, "cannot write %s", name), -1;
    if (!no_plot && qqb_plot_run(dir, name, err, errlen) != 0)
        return -1;
    return 0;
}

/* A figure of STEM's picture in the page: TITLE as its alt text, CAPTION
 * (bold) and TAIL before the list of its files, EXTS (".svg", ...). */
static void figure_html(FILE *html, const char *stem, const char *title, const char *caption,
                        const char *tail, const char *const *exts, size_t nexts)
{
    fprintf(html, "<figure id=\"");
    qqb_markup_href(html, stem);
    fprintf(html, "\">\n<a href=\"");
    qqb_markup_href(html, stem);
    fprintf(html, ".svg\"><img src=\"");
    qqb_markup_href(html, stem);
    fprintf(html, ".png\" alt=\"");
    qqb_markup_text(html, title);
    fprintf(html, "\"></a>\n<figcaption>");
    if (caption) {
        fprintf(html, "<b>");
        qqb_markup_text(html, caption);
        fprintf(html, "</b> ");
    }
    qqb_markup_text(html, tail);
    fprintf(html, "<span class=\"files\">files:");
    for (size_t i = 0; i < nexts; i++) {
        fprintf(html, " <a href=\"");
        qqb_markup_href(html, stem);
        qqb_markup_href(html, exts[i]);
        fprintf(html, "\">");
        qqb_markup_text(html, stem);
        qqb_markup_text(html, exts[i]);
        fprintf(html, "</a>");
    }
    fprintf(html, "</span></figcaption>\n</figure>\n");
}

/* The figure in the page, with its caption and files. */
static void model_html(FILE *html, const struct mfig *f)
{
    static const char *const exts[] = {".svg", ".png", ".gp", ".dat"};
    char caption[600];
    snprintf(caption, sizeof caption, "%s: %s.", f->series ? f->series : "", f->formula);
    figure_html(html, f->stem, f->title, caption,
                f->have_base ? "Means with their spread, the fitted curve, the residuals below; "
                               "grey: the baseline. "
                             : "Means with their spread, the fitted curve, the residuals below. ",
                exts, 4);
}

static int one_model(const json_t *row, size_t idx, const char *dir, int no_plot, FILE *html,
                     char *err, size_t errlen)
{
    static struct mfig f;
    static struct mpts pc, pb;
    const json_t *cur, *base;
    qqb_run_model_row(row, &f.formula, &f.series, &cur, &base);
    int col = 0;
    if (!f.formula || !cur || qqb_model_parse(f.formula, &f.m, err, errlen, &col) != 0)
        return 0; /* nothing fitted: nothing to draw */
    if (read_fit(cur, &f.m, &f.fc, &pc) != 0)
        return 0;
    pb.n = 0;
    f.have_base = base && read_fit(base, &f.m, &f.fb, &pb) == 0;
    if (pc.n == 0)
        return 0;
    f.pc = &pc, f.pb = &pb;
    f.curve = f.m.nparams == 1;
    snprintf(f.stem, sizeof f.stem, "model_%zu", idx + 1);
    snprintf(f.title, sizeof f.title, "%s: %s (net ticks per hit)", f.series ? f.series : "series",
             f.formula);
    if (model_data(dir, &f, err, errlen) != 0 || model_script(dir, no_plot, &f, err, errlen) != 0)
        return -1;
    if (html)
        model_html(html, &f);
    return 0;
}

int qqb_model_pictures(const json_t *models, const char *dir, int no_plot, FILE *html, char *err,
                       size_t errlen)
{
    if (!json_is_array(models) || json_array_size(models) == 0)
        return 0;
    if (qqb_plot_mkdir(dir, err, errlen) != 0)
        return -1;
    if (html)
        fprintf(html, "<h3>Models</h3>\n<p>Each benchmark's <code>model:</code> fitted over "
                      "its sweep (docs/MODELS.md).</p>\n");
    size_t i;
    json_t *row;
    json_array_foreach(models, i, row)
    {
        if (one_model(row, i, dir, no_plot, html, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int qqb_profile_pictures(const json_t *profile, const char *dir, int no_plot, FILE *html, char *err,
                         size_t errlen)
{
    struct qqb_profile p;
    /* A profile out of range was refused when the run was read
     * (pictures.c): here it only may be absent. */
    char why[256];
    if (!profile || qqb_profile_from_json(profile, &p, why, sizeof why) != 0 ||
        (p.nmem == 0 && p.nmpi == 0))
        return 0;
    char stems[2][64];
    size_t n = 0;
    if (qqb_profile_plot(&p, dir, "profile", no_plot, stems, &n, err, errlen) != 0)
        return -1;
    if (html) {
        fprintf(html, "<h3>This machine's profile</h3>\n<p>From ");
        qqb_markup_text(html, p.path);
        fprintf(html, " (<code>qqbench profile-machine</code>): the rates signatures are "
                      "divided by.</p>\n");
        static const char *const exts[] = {".gp", ".dat"};
        for (size_t i = 0; i < n; i++)
            figure_html(html, stems[i], stems[i], NULL, "", exts, 2);
    }
    return 0;
}

/* ---------------------------------------------------------------- the machine profile */

static int close_ok(FILE *fp, const char *name, char *err, size_t errlen)
{
    if (fclose(fp) != 0) {
        snprintf(err, errlen, "cannot write %s", name);
        return -1;
    }
    return 0;
}

int qqb_profile_plot(const struct qqb_profile *p, const char *dir, const char *stem, int no_plot,
                     char stems[2][64], size_t *nstems, char *err, size_t errlen)
{
    char name[128];
    *nstems = 0;
    if (qqb_plot_mkdir(dir, err, errlen) != 0)
        return -1;
    for (int pic = 0; pic < 2; pic++) {
        size_t n = pic ? p->nmpi : p->nmem;
        if (n == 0)
            continue;
        char s[64];
        snprintf(s, sizeof s, "%s_%s", stem, pic ? "mpi" : "memory");
        snprintf(name, sizeof name, "%s.dat", s);
        FILE *d = qqb_plot_create(dir, name, err, errlen);
        if (!d)
            return -1;
        fprintf(d, pic ? "# bytes one_way_us bandwidth_MBps\n"
                       : "# working_set_bytes bandwidth_GBps latency_ns\n");
        for (size_t i = 0; i < n; i++)
            fprintf(d, "%.17g %.17g %.17g\n", pic ? p->mpi_bytes[i] : p->mem_bytes[i],
                    pic ? p->mpi_us[i] : p->mem_gbps[i], pic ? p->mpi_mbps[i] : p->mem_ns[i]);
        if (close_ok(d, name, err, errlen) != 0)
            return -1;
        snprintf(name, sizeof name, "%s.gp", s);
        FILE *gp = qqb_plot_create(dir, name, err, errlen);
        if (!gp)
            return -1;
        qqb_plot_begin(gp, pic ? "the machine profile: MPI ping-pong between 2 ranks"
                               : "the machine profile: memory bandwidth and latency against "
                                 "the working set");
        qqb_plot_svg(gp, s, 900, 480);
        /* Ranges set here: one working set (or equal figures) would leave
         * gnuplot an empty range, which it warns about. */
        const double *cx = pic ? p->mpi_bytes : p->mem_bytes;
        const double *c1 = pic ? p->mpi_us : p->mem_gbps, *c2 = pic ? p->mpi_mbps : p->mem_ns;
        double r[3][2] = {{INFINITY, 0}, {INFINITY, 0}, {INFINITY, 0}};
        for (size_t i = 0; i < n; i++) {
            const double v[3] = {cx[i], c1[i], c2[i]};
            for (int k = 0; k < 3; k++)
                if (v[k] > 0) {
                    r[k][0] = fmin(r[k][0], v[k]);
                    r[k][1] = fmax(r[k][1], v[k]);
                }
        }
        static const char *const axis[3] = {"x", "y", "y2"};
        for (int k = 0; k < 3; k++)
            if (r[k][1] > 0)
                fprintf(gp, "set %srange [%.6g:%.6g]\n", axis[k], r[k][0] / 1.5, r[k][1] * 1.5);
        fprintf(gp, "set logscale x 2\nset logscale y\nset logscale y2\n"
                    "set format x '%%.0b %%BB'\nset ytics nomirror\nset y2tics nomirror\n"
                    "set key top center\n");
        if (pic) {
            fprintf(gp, "set title 'MPI ping-pong (profile.yaml)'\n"
                        "set xlabel 'message size'\nset ylabel 'one-way time (us)'\n"
                        "set y2label 'bandwidth (MB/s)'\n");
            fprintf(gp,
                    "plot '%s.dat' using 1:2 axes x1y1 with linespoints lw 2 pt 7 lc rgb '%s' "
                    "title 'one-way time', \\\n     '%s.dat' using 1:3 axes x1y2 with linespoints "
                    "lw 2 pt 5 lc rgb '%s' title 'bandwidth'\n",
                    s, qqb_plot_color(0), s, qqb_plot_color(1));
        } else {
            fprintf(gp, "set title 'Memory (profile.yaml): the steps are the cache levels'\n"
                        "set xlabel 'working set'\nset ylabel 'bandwidth (GB/s)'\n"
                        "set y2label 'latency of a dependent load (ns)'\n");
            fprintf(gp,
                    "plot '%s.dat' using 1:2 axes x1y1 with linespoints lw 2 pt 7 lc rgb '%s' "
                    "title 'bandwidth (streaming sum)', \\\n     '%s.dat' using 1:3 axes x1y2 "
                    "with linespoints lw 2 pt 5 lc rgb '%s' title 'latency (pointer chase)'\n",
                    s, qqb_plot_color(0), s, qqb_plot_color(1));
        }
        qqb_plot_png_replot(gp, s, 900, 480);
        if (close_ok(gp, name, err, errlen) != 0)
            return -1;
        if (!no_plot && qqb_plot_run(dir, name, err, errlen) != 0)
            return -1;
        snprintf(stems[(*nstems)++], 64, "%s", s);
    }
    return 0;
}
