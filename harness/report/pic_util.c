/* pic_util.c - the run report's shared helpers: verdict styles, number and name formats, a
 * picture's files, x tic labels. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "plot.h"
#include "pic.h"

const struct pic_vstyle pic_vstyle[NCLASS] = {
    {"regressed", "slower", QQB_PLOT_ALERT, 9}, {"improved", "faster", "#009E73", 11},
    {"unchanged", "same", "#0072B2", 7},        {"noisy", "noisy", "#E69F00", 13},
    {"blind", "blind", "#999999", 6},           {"other", "other", "#CC79A7", 5},
};

enum vclass pic_vclass_of(const char *v)
{
    for (int i = 0; i < V_OTHER; i++)
        if (v && !strcmp(v, pic_vstyle[i].name))
            return (enum vclass)i;
    return V_OTHER;
}

/* ======================================================================
 * Small helpers.
 * ====================================================================== */

int pic_fail(struct rep *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Quartiles of V (finite values): min, q1, median, q3, max (stats.h). */
int pic_five(const double *v, size_t n, double out[5])
{
    for (int i = 0; i < 5; i++)
        out[i] = NAN;
    if (n == 0)
        return -1;
    static const double q[5] = {0, 0.25, 0.5, 0.75, 1};
    for (int i = 0; i < 5; i++)
        out[i] = qqb_quantile(v, n, q[i]);
    return 0;
}

/* A name made safe for a file name: letters, digits, '-', '_', '.'. */
void pic_safe_name(char *out, size_t n, const char *s)
{
    size_t j = 0;
    for (; s && *s && j + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_';
        out[j++] = ok ? (char)c : '_';
    }
    out[j] = '\0';
}

/* A text field of a tab-separated data file: tabs and line ends become
 * blanks; an empty text becomes '-'. */
void pic_dtext(FILE *fp, const char *s)
{
    if (!s || !*s) {
        fputc('-', fp);
        return;
    }
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, fp);
}

void pic_dnum(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.9g", v);
    else
        fputs("NaN", fp);
}

void pic_fmt_bytes(char *b, size_t n, double v)
{
    static const char *const unit[] = {"B", "KB", "MB"};
    if (!isfinite(v)) {
        snprintf(b, n, "-");
        return;
    }
    /* The unit by the figure as printed (0 decimals in B, 1 above): 1 MB
     * less a byte is "1.0 MB", never "1024.0 KB". */
    size_t u = 0;
    while (u < 2 && (u ? round(v * 10) / 10 : round(v)) >= 1024)
        v /= 1024, u++;
    snprintf(b, n, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

/* The case's name without its benchmark: "channel[pow]@1" -> "pow @1". */
void pic_short_name(char *b, size_t n, const struct rcase *c)
{
    const char *s = c->name;
    size_t bl = c->bench ? strlen(c->bench) : 0;
    if (bl && !strncmp(s, c->bench, bl) && (s[bl] == '[' || s[bl] == '@'))
        s += bl;
    size_t j = 0;
    for (; *s && j + 1 < n; s++) {
        if (*s == '[')
            continue;
        b[j++] = *s == ']' ? ' ' : *s;
    }
    b[j] = '\0';
    if (j == 0)
        snprintf(b, n, "%s", c->name);
}

/* Tic labels along x. A label past QQB_PLOT_TIC_MAX characters keeps its
 * start and end around an ellipsis (qqb_plot_short; the table and the
 * caption have it whole); when the labels would crowd the axis they stand
 * upright, and the panels get the room below them, so gnuplot never has to
 * find room itself (it warned "difficulty making room for xtic labels",
 * and the report failed). */
static void xtic_text(char *out, size_t n, const char *s)
{
    qqb_plot_short(out, n, s, QQB_PLOT_TIC_MAX);
}

/* The layout for N labels of a panel WIDTH pixels wide; CLOSE: labels
 * stand closer than their share of the width (bars side by side in
 * groups), so they stand upright whatever their length. */
struct xtics pic_xtics_layout(const struct rep *r, const size_t *ci, size_t n, int width, int close)
{
    size_t total = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        char sn[128], t[160];
        pic_short_name(sn, sizeof sn, &r->cases[ci[i]]);
        xtic_text(t, sizeof t, sn);
        size_t len = strlen(t);
        total += len + 2;
        longest = len > longest ? len : longest;
    }
    struct xtics x = {0, 0, 0};
    /* About 7 pixels a character at the PNG's 10 points. Upright when the
     * labels together would crowd the axis, or when the longest would
     * overrun its own share of it (one long label among short ones). */
    if (close || total * 7 > (size_t)width * 3 / 4 ||
        (n && longest * 7 > (size_t)width * 3 / 4 / n)) {
        x.upright = 1;
        /* A character's width is about half its height: the margin in
         * character heights, and the pixels (about 15 a height) added. */
        x.margin = (int)(longest * 0.58) + 2;
        x.extra = x.margin * 15;
    }
    return x;
}

/* "set xtics ('label' x, ...) scale 0 [rotate]" and the margin. */
void pic_xtics_write(FILE *gp, const struct rep *r, const size_t *ci, const double *x, size_t n,
                     const struct xtics *l)
{
    fprintf(gp, "set xtics (");
    for (size_t i = 0; i < n; i++) {
        char sn[128], t[160];
        pic_short_name(sn, sizeof sn, &r->cases[ci[i]]);
        xtic_text(t, sizeof t, sn);
        fprintf(gp, "%s", i ? ", " : "");
        qqb_plot_str(gp, t, QQB_GP_FORMAT);
        fprintf(gp, " %.3f", x[i]);
    }
    fprintf(gp, ") scale 0%s\n", l->upright ? " rotate by 90 right" : "");
    if (l->margin)
        fprintf(gp, "set bmargin %d\n", l->margin);
}

long pic_find_case(const struct rep *r, const char *name)
{
    for (size_t i = 0; name && i < r->ncases; i++)
        if (!strcmp(r->cases[i].name, name))
            return (long)i;
    return -1;
}

const struct rmetric *pic_find_metric(const struct rcase *c, const char *key, const char *what)
{
    for (size_t i = 0; i < c->nm; i++)
        if (c->m[i].key && c->m[i].what && !strcmp(c->m[i].key, key) && !strcmp(c->m[i].what, what))
            return &c->m[i];
    return NULL;
}

const char *pic_kind_title(const char *kind, char *b, size_t n)
{
    if (!strcmp(kind, "baseline"))
        snprintf(b, n, "Against the baseline");
    else if (!strcmp(kind, "ab"))
        snprintf(b, n, "Between variants (A/B): each variant against the first of its group");
    else if (!strcmp(kind, "build"))
        snprintf(b, n, "Against the reference build");
    else
        snprintf(b, n, "Comparisons of kind '%s'", kind);
    return b;
}

/* The comparison's verdict as a reader of that kind says it. */
const char *pic_verdict_word(const struct rcmp *c)
{
    enum vclass v = pic_vclass_of(c->verdict);
    if (!c->verdict)
        return "n/a";
    if (strcmp(c->kind, "baseline") && strcmp(c->kind, "build") && v != V_OTHER)
        return pic_vstyle[v].ab_name;
    return c->verdict;
}

/* ======================================================================
 * Writing pictures: a picture is registered, its files opened, its
 * script written, gnuplot run.
 * ====================================================================== */

struct pic *pic_new(struct rep *r, int section, const char *stem)
{
    if (r->npics == MAX_PICS)
        return NULL;
    struct pic *p = &r->pics[r->npics];
    memset(p, 0, sizeof *p);
    p->section = section;
    /* Names made file-safe can meet ("p.x" and "p_x" are both p_x): the
     * second picture gets "-2", so neither one's files, caption or HTML id
     * is the other's. */
    snprintf(p->stem, sizeof p->stem, "%s", stem);
    for (int k = 2; k < 1000; k++) {
        size_t i = 0;
        while (i < r->npics && strcmp(r->pics[i].stem, p->stem) != 0)
            i++;
        if (i == r->npics)
            break;
        snprintf(p->stem, sizeof p->stem, "%.80s-%d", stem, k);
    }
    r->npics++;
    return p;
}

/* Open the data file STEM-SUFFIX.dat (or STEM.dat) of picture P. */
FILE *pic_open_data(struct rep *r, struct pic *p, const char *suffix)
{
    if (p->ndata == 4)
        return NULL;
    char name[sizeof p->data[0]];
    if (suffix)
        snprintf(name, sizeof name, "%s-%s.dat", p->stem, suffix);
    else
        snprintf(name, sizeof name, "%s.dat", p->stem);
    FILE *fp = qqb_plot_create(r->dir, name, r->err, r->errlen);
    if (fp)
        memcpy(p->data[p->ndata++], name, sizeof name);
    return fp;
}

FILE *pic_open_script(struct rep *r, struct pic *p)
{
    char name[128];
    snprintf(name, sizeof name, "%s.gp", p->stem);
    FILE *gp = qqb_plot_create(r->dir, name, r->err, r->errlen);
    if (!gp)
        return NULL;
    qqb_plot_begin(gp, p->title);
    fprintf(gp, "set datafile separator tab\n");
    return gp;
}

int pic_close_file(struct rep *r, FILE *fp, const char *name)
{
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad)
        return pic_fail(r, "cannot write %s/%s: %s", r->dir, name, strerror(errno));
    return 0;
}

int pic_finish(struct rep *r, struct pic *p, FILE *gp)
{
    char name[128];
    snprintf(name, sizeof name, "%s.gp", p->stem);
    if (pic_close_file(r, gp, name) != 0)
        return -1;
    if (r->no_plot)
        return 0;
    char e[512];
    if (qqb_plot_run(r->dir, name, e, sizeof e) != 0)
        return pic_fail(r, "%s", e);
    return 0;
}

/* A round step: 1, 2 or 5 times a power of ten, the smallest that cuts
 * SPAN into at most MOST steps (1 when SPAN is not a positive figure). */
double pic_round_step(double span, int most)
{
    if (!isfinite(span) || !(span > 0) || most < 1)
        return 1;
    double raw = span / most, p = pow(10, floor(log10(raw))), m = raw / p;
    /* 1e-9: a RAW of exactly 10^k is 1 of it, not a hair over. */
    return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * p;
}

/* The units of an axis: of time, in nanoseconds; of counts (cycles). */
struct unit {
    const char *name;
    double size;
};
static const struct unit time_units[] = {
    {" ns", 1}, {" \xc2\xb5s", 1e3}, {" ms", 1e6}, {" s", 1e9}};
static const struct unit count_units[] = {{"", 1}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}};

int pic_tics(double lo, double hi, enum pic_scale scale, struct pic_tics *t)
{
    memset(t, 0, sizeof *t);
    if (!isfinite(lo) || !isfinite(hi) || !(hi > lo))
        return -1;
    const struct unit *units = scale == PIC_TIME_NS ? time_units : count_units;
    /* The unit the figure farthest from 0 reads from 1 up in. */
    double top = fmax(fabs(lo), fabs(hi));
    size_t u = 0;
    while (u + 1 < 4 && top >= units[u + 1].size)
        u++;
    t->unit = units[u].name;
    t->unit_size = units[u].size;
    double a = lo / t->unit_size, b = hi / t->unit_size;
    t->step = pic_round_step(b - a, 5);
    int dec = t->step >= 1 ? 0 : (int)ceil(-log10(t->step) - 1e-9);
    double k0 = ceil(a / t->step - 1e-9), k1 = floor(b / t->step + 1e-9);
    if (fmax(fabs(k0), fabs(k1)) > 1e15) /* a range too narrow for its figures */
        return -1;
    /* At most 6 tics: the step cuts B - A into at most 5. */
    for (long k = (long)k0; k <= (long)k1 && t->n < 8; k++) {
        double v = (double)k * t->step;
        t->at[t->n] = v * t->unit_size;
        if (k == 0)
            snprintf(t->label[t->n], sizeof t->label[0], "0");
        else
            snprintf(t->label[t->n], sizeof t->label[0], "%.*f%s", dec, v, t->unit);
        t->n++;
    }
    return 0;
}

/* "set AXIS (LABEL AT, ...)", AT divided by DIV. */
static void write_tics(FILE *gp, const char *axis, const struct pic_tics *t, double div)
{
    fprintf(gp, "set %s (", axis);
    for (size_t i = 0; i < t->n; i++)
        fprintf(gp, "%s'%s' %.9g", i ? ", " : "", t->label[i], t->at[i] / div);
    fprintf(gp, ") nomirror out textcolor rgb '%s'\n", QQB_PLOT_INK);
}

void pic_cycles_axis(FILE *gp, double lo, double hi)
{
    struct pic_tics t;
    fprintf(gp, "set yrange [%.9g:%.9g]\n", lo, hi);
    if (pic_tics(lo, hi, PIC_COUNT, &t) == 0)
        write_tics(gp, "ytics", &t, 1);
    else
        fprintf(gp, "set ytics autofreq nomirror out\n");
}

void pic_time_axis(const struct rep *r, FILE *gp, double lo, double hi)
{
    struct pic_tics t;
    double ns = r->mhz > 0 ? 1000.0 / r->mhz : NAN; /* ns per cycle */
    if (!(r->mhz > 0) || pic_tics(lo * ns, hi * ns, PIC_TIME_NS, &t) != 0) {
        fprintf(gp, "unset link y2\nunset y2tics\nunset y2label\n");
        return;
    }
    /* y2 in ns: its tics at the unit's round figures. */
    fprintf(gp, "set link y2 via y*%.9g inverse y/%.9g\n", ns, ns);
    write_tics(gp, "y2tics", &t, 1);
    fprintf(gp, "set y2label 'time per hit (%.0f MHz ticks)' textcolor rgb '%s'\n", r->mhz,
            QQB_PLOT_INK);
}

/* The multiplot grid for N panels: two columns from two panels on. */
void pic_grid(size_t n, int *rows, int *cols)
{
    *cols = n >= 2 ? 2 : 1;
    *rows = (int)((n + (size_t)*cols - 1) / (size_t)*cols);
}

/* The baseline comparison of (case, key), or NULL. */
const struct rcmp *pic_base_cmp(const struct rep *r, size_t ci, const char *key)
{
    for (size_t i = 0; i < r->ncmps; i++)
        if (r->cmps[i].ci == (long)ci && !strcmp(r->cmps[i].kind, "baseline") &&
            !strcmp(r->cmps[i].key, key))
            return &r->cmps[i];
    return NULL;
}
