/* pictures.c - the run report: pictures (gnuplot) and index.html drawn from a `qqbench run --json`
 * file. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "yamlcur.h"
#include "plot.h"
#include "pictures.h"
#include "pictures_model.h"
#include "report.h"
#include "run_json.h"

/* ======================================================================
 * The run as read from the JSON. Strings point into the parsed document,
 * which lives as long as the report is being written.
 * ====================================================================== */

struct rmetric {
    const char *key, *what;
    double *v; /* the per-launch samples, finite ones only */
    size_t n;
};

struct rmem {
    const char *key;
    double created, live, peak; /* live = object bytes + allocation bytes */
};

struct rcase {
    const char *name, *bench, *variant, *point, *note;
    long nodes;
    double mhz;
    long launches;
    int failed;
    struct rmetric *m;
    size_t nm;
    struct rmem *mem;
    size_t nmem;
    int vs_baseline; /* some key of it was compared with the baseline */
};

struct rcmp {
    const char *case_name, *key, *kind, *ref, *verdict, *note, *reason;
    double base, cur, base_ns, cur_ns, pct, lo, hi, thr, conf, machine_pct, norm_pct;
    int machine_moved, confirmed; /* confirmed: -1 not asked */
    double *bs;                   /* baseline samples, when the JSON has them */
    size_t nbs;
    long ci, ri; /* the case and the reference case, or -1 */
};

struct rmemchg {
    const char *case_name, *key, *kind, *ref;
    struct rmem before, after;
    int has_before;
    long verdict;
};

#define MAX_PICS 256

struct pic {
    char stem[96];
    int section; /* 1..5, the picture kinds of docs/REPORTS.md */
    char title[256];
    char what[768];
    char data[4][112];
    int ndata;
};

struct rep {
    struct qqb_run run; /* as read (run_json.h) */
    const char *path, *dir;
    int no_plot;
    const char *suite, *date, *baseline, *version, *commit;
    int baseline_other;
    const char *fp_id, *fp_cpu, *fp_compiler, *fp_flags;
    double mhz; /* the machine's tick rate: cycles to ns */
    struct rcase *cases;
    size_t ncases;
    struct rcmp *cmps;
    size_t ncmps;
    struct rmemchg *mch;
    size_t nmch;
    long kernel_failures, exit_code;
    const char *kinds[16];
    size_t nkinds;
    struct pic pics[MAX_PICS];
    size_t npics;
    char *err;
    size_t errlen;
};

/* Verdict classes, their colours (Okabe & Ito; vermillion for what must
 * stand out) and point shapes, so colour is never the only cue. */
enum vclass { V_REGRESSED, V_IMPROVED, V_UNCHANGED, V_NOISY, V_OTHER, NCLASS };

static const struct {
    const char *name, *ab_name, *color;
    int pt;
} vstyle[NCLASS] = {
    {"regressed", "slower", QQB_PLOT_ALERT, 9}, {"improved", "faster", "#009E73", 11},
    {"unchanged", "same", "#0072B2", 7},        {"noisy", "noisy", "#E69F00", 13},
    {"other", "other", "#CC79A7", 5},
};

#define C_CURRENT  "#0072B2" /* blue: this run */
#define C_BASELINE "#8C8C8C" /* grey: the baseline */
#define C_BAND     "#DCE6EE" /* the threshold band */

static enum vclass vclass_of(const char *v)
{
    for (int i = 0; i < V_OTHER; i++)
        if (v && !strcmp(v, vstyle[i].name))
            return (enum vclass)i;
    return V_OTHER;
}

/* ======================================================================
 * Small helpers.
 * ====================================================================== */

static int fail(struct rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct rep *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile Q of the N sorted values S (linear between order statistics). */
static double quant(const double *s, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double p = q * (double)(n - 1);
    size_t i = (size_t)p;
    double f = p - (double)i;
    return i + 1 < n ? s[i] * (1 - f) + s[i + 1] * f : s[i];
}

/* Quartiles of V: min, q1, median, q3, max. */
static int five(const double *v, size_t n, double out[5])
{
    for (int i = 0; i < 5; i++)
        out[i] = NAN;
    if (n == 0)
        return -1;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    out[0] = s[0], out[1] = quant(s, n, 0.25), out[2] = quant(s, n, 0.5);
    out[3] = quant(s, n, 0.75), out[4] = s[n - 1];
    free(s);
    return 0;
}

/* A name made safe for a file name: letters, digits, '-', '_', '.'. */
static void safe_name(char *out, size_t n, const char *s)
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
static void dtext(FILE *fp, const char *s)
{
    if (!s || !*s) {
        fputc('-', fp);
        return;
    }
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, fp);
}

static void dnum(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.9g", v);
    else
        fputs("NaN", fp);
}

/* "12.3", "4567", "1.2e+04": three or four significant digits. */
static void fmt_num(char *b, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(b, n, "-");
    else if (fabs(v) >= 100)
        snprintf(b, n, "%.0f", v);
    else
        snprintf(b, n, "%.3g", v);
}

/* Cycles with nanoseconds: "2703 cyc (1.18 us)". */
static void fmt_cyc(char *b, size_t n, double cyc, double mhz)
{
    if (!isfinite(cyc)) {
        snprintf(b, n, "-");
        return;
    }
    char c[32];
    fmt_num(c, sizeof c, cyc);
    if (!(mhz > 0)) {
        snprintf(b, n, "%s cyc", c);
        return;
    }
    double ns = cyc * 1000.0 / mhz;
    const char *u = "ns";
    if (ns >= 1e6)
        ns /= 1e6, u = "ms";
    else if (ns >= 1e3)
        ns /= 1e3, u = "\xc2\xb5s";
    snprintf(b, n, "%s cyc (%.3g %s)", c, ns, u);
}

static void fmt_bytes(char *b, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(b, n, "-");
    else if (v >= 1024.0 * 1024.0)
        snprintf(b, n, "%.1f MB", v / (1024.0 * 1024.0));
    else if (v >= 1024.0)
        snprintf(b, n, "%.1f KB", v / 1024.0);
    else
        snprintf(b, n, "%.0f B", v);
}

/* The case's name without its benchmark: "channel[pow]@1" -> "pow @1". */
static void short_name(char *b, size_t n, const struct rcase *c)
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

/* Tic labels along x. A label past XTIC_MAX characters keeps its start
 * and end around an ellipsis (the table and the caption have it whole);
 * when the labels would crowd the axis they stand upright, and the panels
 * get the room below them, so gnuplot never has to find room itself (it
 * warned "difficulty making room for xtic labels", and the report failed). */
#define XTIC_MAX 40

static void xtic_text(char *out, size_t n, const char *s)
{
    size_t len = strlen(s);
    if (len <= XTIC_MAX)
        snprintf(out, n, "%s", s);
    else
        snprintf(out, n, "%.*s\xe2\x80\xa6%s", XTIC_MAX / 2 - 1, s, s + len - XTIC_MAX / 2);
}

struct xtics {
    int upright; /* labels rotated by 90 degrees */
    int margin;  /* bottom margin, in character heights (0: gnuplot's) */
    int extra;   /* pixels added to each panel's height */
};

/* The layout for N labels of a panel WIDTH pixels wide; CLOSE: labels
 * stand closer than their share of the width (bars side by side in
 * groups), so they stand upright whatever their length. */
static struct xtics xtics_layout(const struct rep *r, const size_t *ci, size_t n, int width,
                                 int close)
{
    size_t total = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        char sn[128], t[160];
        short_name(sn, sizeof sn, &r->cases[ci[i]]);
        xtic_text(t, sizeof t, sn);
        size_t len = strlen(t);
        total += len + 2;
        longest = len > longest ? len : longest;
    }
    struct xtics x = {0, 0, 0};
    /* About 7 pixels a character at the PNG's 10 points. */
    if (close || total * 7 > (size_t)width * 3 / 4) {
        x.upright = 1;
        /* A character's width is about half its height: the margin in
         * character heights, and the pixels (about 15 a height) added. */
        x.margin = (int)(longest * 0.58) + 2;
        x.extra = x.margin * 15;
    }
    return x;
}

/* "set xtics ('label' x, ...) scale 0 [rotate]" and the margin. */
static void xtics_write(FILE *gp, const struct rep *r, const size_t *ci, const double *x, size_t n,
                        const struct xtics *l)
{
    fprintf(gp, "set xtics (");
    for (size_t i = 0; i < n; i++) {
        char sn[128], t[160];
        short_name(sn, sizeof sn, &r->cases[ci[i]]);
        xtic_text(t, sizeof t, sn);
        fprintf(gp, "%s", i ? ", " : "");
        qqb_plot_str(gp, t, QQB_GP_FORMAT);
        fprintf(gp, " %.3f", x[i]);
    }
    fprintf(gp, ") scale 0%s\n", l->upright ? " rotate by 90 right" : "");
    if (l->margin)
        fprintf(gp, "set bmargin %d\n", l->margin);
}

static long find_case(const struct rep *r, const char *name)
{
    for (size_t i = 0; name && i < r->ncases; i++)
        if (!strcmp(r->cases[i].name, name))
            return (long)i;
    return -1;
}

static const struct rmetric *find_metric(const struct rcase *c, const char *key, const char *what)
{
    for (size_t i = 0; i < c->nm; i++)
        if (c->m[i].key && c->m[i].what && !strcmp(c->m[i].key, key) && !strcmp(c->m[i].what, what))
            return &c->m[i];
    return NULL;
}

static const char *kind_title(const char *kind, char *b, size_t n)
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
static const char *verdict_word(const struct rcmp *c)
{
    enum vclass v = vclass_of(c->verdict);
    if (!c->verdict)
        return "n/a";
    if (strcmp(c->kind, "baseline") && strcmp(c->kind, "build") && v != V_OTHER)
        return vstyle[v].ab_name;
    return c->verdict;
}

/* ======================================================================
 * The run as the pictures see it, from the run JSON's structs
 * (run_json.h, which validated the names): display defaults, finite
 * samples, cases found by name.
 * ====================================================================== */

/* An integer field as the pictures take it: DFLT past a billion. */
static long lim(long long v, long dflt)
{
    return v >= -1000000000LL && v <= 1000000000LL ? (long)v : dflt;
}

static double count(long long v)
{
    return v == QQB_RJ_ABSENT ? NAN : (double)v;
}

static struct rmem rmem_of(const struct qqb_run_mem *m)
{
    return (struct rmem){m->key, count(m->created), count(m->obj_bytes) + count(m->alloc_bytes),
                         count(m->peak_bytes)};
}

/* The finite numbers of V (NULL and 0 when there are none). */
static double *finite(const double *v, size_t n, size_t *out)
{
    *out = 0;
    if (!v || n == 0)
        return NULL;
    double *f = malloc(n * sizeof *f);
    if (!f)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            f[(*out)++] = v[i];
    return f;
}

static int view_case(struct rep *r, const struct qqb_run_case *jc, struct rcase *c)
{
    c->name = jc->name ? jc->name : ""; /* never NULL: the reader refuses a case without */
    c->bench = jc->bench ? jc->bench : c->name;
    c->variant = jc->variant;
    c->point = jc->point;
    c->note = jc->note;
    c->nodes = lim(jc->nodes, 1);
    c->mhz = jc->tick_mhz;
    c->launches = lim(jc->launches, 0);
    c->failed = jc->failed;
    if (!(r->mhz > 0) && c->mhz > 0)
        r->mhz = c->mhz;
    c->m = calloc(jc->n_metrics + 1, sizeof *c->m);
    c->mem = calloc(jc->n_memory + 1, sizeof *c->mem);
    if (!c->m || !c->mem)
        return fail(r, "out of memory");
    for (size_t k = 0; k < jc->n_metrics; k++) {
        const struct qqb_run_metric *jm = &jc->metrics[k];
        struct rmetric *m = &c->m[c->nm++];
        m->key = jm->key;
        m->what = jm->what;
        m->v = finite(jm->samples, jm->n_samples, &m->n);
    }
    for (size_t k = 0; k < jc->n_memory; k++)
        c->mem[c->nmem++] = rmem_of(&jc->memory[k]);
    return 0;
}

static void view_cmp(struct rep *r, const struct qqb_run_cmp *j)
{
    struct rcmp *c = &r->cmps[r->ncmps];
    c->case_name = j->case_name;
    c->key = j->key;
    c->kind = j->kind ? j->kind : "other";
    c->ref = j->reference;
    c->verdict = j->verdict;
    c->note = j->note;
    c->reason = j->reason;
    c->base = j->baseline_cycles;
    c->cur = j->current_cycles;
    c->base_ns = j->baseline_ns;
    c->cur_ns = j->current_ns;
    c->pct = j->change_pct;
    c->lo = j->lo_pct;
    c->hi = j->hi_pct;
    if (isfinite(c->pct) && !isfinite(c->lo))
        c->lo = c->pct;
    if (isfinite(c->pct) && !isfinite(c->hi))
        c->hi = c->pct;
    c->thr = j->threshold_pct;
    c->conf = j->confidence;
    c->machine_pct = j->machine_pct;
    c->norm_pct = j->norm_pct;
    c->machine_moved = j->machine_moved;
    c->confirmed = j->confirmed;
    c->ci = find_case(r, c->case_name);
    c->ri = find_case(r, c->ref);
    if (c->ci >= 0 && !strcmp(c->kind, "baseline"))
        r->cases[c->ci].vs_baseline = 1;
    size_t k = 0;
    while (k < r->nkinds && strcmp(r->kinds[k], c->kind))
        k++;
    if (k == r->nkinds) {
        if (r->nkinds == sizeof r->kinds / sizeof r->kinds[0])
            return; /* more kinds than any run writes: left out */
        r->kinds[r->nkinds++] = c->kind;
    }
    c->bs = finite(j->baseline_samples, j->n_baseline_samples, &c->nbs);
    r->ncmps++;
}

static int read_run(struct rep *r)
{
    if (qqb_run_read(r->path, &r->run, r->err, r->errlen) != 0)
        return -1;
    const struct qqb_run *run = &r->run;
    r->suite = run->suite;
    r->date = run->date;
    r->baseline = run->baseline;
    r->baseline_other = run->baseline_other;
    r->version = run->version;
    r->commit = run->commit;
    r->fp_id = run->fingerprint.id;
    r->fp_cpu = run->fingerprint.cpu;
    r->fp_compiler = run->fingerprint.compiler;
    r->fp_flags = run->fingerprint.flags;
    r->mhz = run->fingerprint.tick_mhz;
    r->kernel_failures = lim(run->kernel_failures, 0);
    r->exit_code = lim(run->exit_code, -1);
    r->cases = calloc(run->n_cases + 1, sizeof *r->cases);
    r->cmps = calloc(run->n_comparisons + 1, sizeof *r->cmps);
    r->mch = calloc(run->n_memory_changes + 1, sizeof *r->mch);
    if (!r->cases || !r->cmps || !r->mch)
        return fail(r, "out of memory");
    r->ncases = r->ncmps = r->nmch = 0;
    for (size_t i = 0; i < run->n_cases; i++) {
        struct rcase *c = &r->cases[i];
        r->ncases = i + 1; /* freed with the rest, whole or not */
        if (view_case(r, &run->cases[i], c) != 0)
            return -1;
    }
    for (size_t i = 0; i < run->n_comparisons; i++)
        view_cmp(r, &run->comparisons[i]);
    for (size_t i = 0; i < run->n_memory_changes; i++) {
        const struct qqb_run_memchg *j = &run->memory_changes[i];
        r->mch[r->nmch++] = (struct rmemchg){j->case_name,
                                             j->key,
                                             j->kind ? j->kind : "other",
                                             j->reference,
                                             rmem_of(&j->before),
                                             rmem_of(&j->after),
                                             j->has_before,
                                             lim(j->verdict, 0)};
    }
    return 0;
}

static void free_rep(struct rep *r)
{
    for (size_t i = 0; r->cases && i < r->ncases; i++) {
        for (size_t k = 0; k < r->cases[i].nm; k++)
            free(r->cases[i].m[k].v);
        free(r->cases[i].m);
        free(r->cases[i].mem);
    }
    free(r->cases);
    for (size_t i = 0; r->cmps && i < r->ncmps; i++)
        free(r->cmps[i].bs);
    free(r->cmps);
    free(r->mch);
    qqb_run_free(&r->run);
}

/* ======================================================================
 * Writing pictures: a picture is registered, its files opened, its
 * script written, gnuplot run.
 * ====================================================================== */

static struct pic *new_pic(struct rep *r, int section, const char *stem)
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
static FILE *open_data(struct rep *r, struct pic *p, const char *suffix)
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

static FILE *open_script(struct rep *r, struct pic *p)
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

static int close_file(struct rep *r, FILE *fp, const char *name)
{
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad)
        return fail(r, "cannot write %s/%s: %s", r->dir, name, strerror(errno));
    return 0;
}

static int finish_pic(struct rep *r, struct pic *p, FILE *gp)
{
    char name[128];
    snprintf(name, sizeof name, "%s.gp", p->stem);
    if (close_file(r, gp, name) != 0)
        return -1;
    if (r->no_plot)
        return 0;
    char e[512];
    if (qqb_plot_run(r->dir, name, e, sizeof e) != 0)
        return fail(r, "%s", e);
    return 0;
}

/* The ns axis on the right, linked to cycles on the left. */
static void ns_axis(const struct rep *r, FILE *gp)
{
    if (r->mhz > 0)
        fprintf(gp,
                "set link y2 via y*1000.0/%.6g inverse y*%.6g/1000.0\n"
                "set y2tics nomirror out textcolor rgb '%s'\nset format y2 '%%.4g'\n"
                "set y2label 'ns per hit (%.0f MHz ticks)' textcolor rgb '%s'\n",
                r->mhz, r->mhz, QQB_PLOT_INK, r->mhz, QQB_PLOT_INK);
    else
        fprintf(gp, "unset y2tics\nunset y2label\n");
}

/* ======================================================================
 * Picture 1: change per key with its interval, by comparison kind.
 * ====================================================================== */

static int pic_change(struct rep *r, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncmps; i++)
        n += !strcmp(r->cmps[i].kind, kind);
    if (n == 0)
        return 0;
    char sk[48], stem[80], kt[160];
    safe_name(sk, sizeof sk, kind);
    snprintf(stem, sizeof stem, "change-%s", sk);
    struct pic *p = new_pic(r, 1, stem);
    if (!p)
        return 0;
    kind_title(kind, kt, sizeof kt);
    int is_base = !strcmp(kind, "baseline") || !strcmp(kind, "build");
    snprintf(p->title, sizeof p->title, "%s: change of cycles per hit per key", kt);
    snprintf(p->what, sizeof p->what,
             "One row per compared key. The dot is the change of the median cycles per hit "
             "(%s), the whiskers its confidence interval, the shaded band the threshold: a "
             "row is %s only when its whole interval lies outside the band. Colour and "
             "shape give the verdict; the numbers are at the right.",
             is_base ? "this run against the baseline" : "each case against its reference",
             is_base ? "regressed or improved" : "slower or faster");

    FILE *d = open_data(r, p, NULL);
    if (!d)
        return -1;
    qqb_plot_comment(d, p->title);
    fprintf(d, "# row\tchange_pct\tinterval_lo_pct\tinterval_hi_pct\tthreshold_pct"
               "\tclass\tlabel\ttext\n");
    size_t row = 0, present[NCLASS] = {0}, thr_n = 0;
    double xmin = 0, xmax = 0, thr_first = NAN, conf = NAN;
    int thr_same = 1;
    double rmin = 1, rmax = 1; /* ratios, for the log axis */
    for (size_t i = 0; i < r->ncmps; i++) {
        const struct rcmp *c = &r->cmps[i];
        if (strcmp(c->kind, kind))
            continue;
        int ok = isfinite(c->pct);
        enum vclass v = vclass_of(c->verdict);
        double thr = isfinite(c->thr) ? c->thr : 0;
        if (isfinite(c->thr)) {
            if (thr_n++ == 0)
                thr_first = c->thr;
            else if (c->thr != thr_first)
                thr_same = 0;
        }
        if (isfinite(c->conf))
            conf = c->conf;
        if (ok) {
            present[v]++;
            double lo = fmin(c->lo, c->pct), hi = fmax(c->hi, c->pct);
            xmin = fmin(xmin, fmin(lo, -thr));
            xmax = fmax(xmax, fmax(hi, thr));
            rmin = fmin(rmin, fmax(1 + lo / 100, 1e-3));
            rmax = fmax(rmax, 1 + hi / 100);
        }
        char text[256];
        if (ok)
            snprintf(text, sizeof text, "%+.2f%% [%+.2f, %+.2f] %s%s%s", c->pct, c->lo, c->hi,
                     verdict_word(c),
                     c->confirmed == 1   ? " (confirmed)"
                     : c->confirmed == 0 ? " (not confirmed)"
                                         : "",
                     c->machine_moved ? " (machine moved)" : "");
        else
            snprintf(text, sizeof text, "n/a%s%s%s", c->reason ? " (" : "",
                     c->reason ? c->reason : "", c->reason ? ")" : "");
        fprintf(d, "%zu\t", row++);
        dnum(d, c->pct);
        fputc('\t', d);
        dnum(d, c->lo);
        fputc('\t', d);
        dnum(d, c->hi);
        fputc('\t', d);
        dnum(d, thr);
        fprintf(d, "\t%d\t", ok ? (int)v : -1);
        dtext(d, c->case_name);
        fputs("  ", d);
        dtext(d, c->key);
        fputc('\t', d);
        dtext(d, text);
        fputc('\n', d);
    }
    if (close_file(r, d, p->data[0]) != 0)
        return -1;

    /* A log axis of the ratio when changes span more than a few-fold: A/B
     * pairs differ by 10x and more, where a linear axis would flatten
     * every other row to a dot. Tics still read as percent. */
    int logx = xmin < -60 || xmax > 150;
    FILE *gp = open_script(r, p);
    if (!gp)
        return -1;
    int height = 150 + 26 * (int)row;
    fprintf(gp, "# x of a change in percent\n");
    if (logx)
        fprintf(gp, "X(p) = (1 + p/100.0) < 0.001 ? 0.001 : 1 + p/100.0\n");
    else
        fprintf(gp, "X(p) = p\n");
    qqb_plot_both_begin(gp, p->stem, 1250, height);
    char ttl[512], counts[256] = "";
    size_t off = 0;
    for (int v = 0; v < NCLASS; v++)
        if (present[v])
            off += (size_t)snprintf(counts + off, sizeof counts - off, "%s%zu %s", off ? ", " : "",
                                    present[v], is_base ? vstyle[v].name : vstyle[v].ab_name);
    snprintf(ttl, sizeof ttl, "%s\n%.0f%% intervals; %s", kt, isfinite(conf) ? conf * 100 : 95.0,
             off ? counts : "no change could be computed");
    fprintf(gp, "set title ");
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp, "\nset xlabel ");
    char xl[160];
    snprintf(xl, sizeof xl, "change of cycles per hit, %% (%s; left is faster)",
             !strcmp(kind, "baseline") ? "this run against the baseline"
             : !strcmp(kind, "build")  ? "this build against the reference build"
                                       : "against the reference case");
    qqb_plot_str(gp, xl, 0);
    fprintf(gp, "\nunset ylabel\nset yrange [%zu.5:-0.5]\nset y2range [%zu.5:-0.5]\n",
            row ? row - 1 : 0, row ? row - 1 : 0);
    fprintf(gp, "set ytics scale 0 nomirror\nset y2tics scale 0 nomirror\n"
                "set grid xtics noytics\n");
    if (logx) {
        double lo = rmin * 0.8, hi = rmax * 1.25;
        fprintf(gp, "set logscale x\nset xrange [%.6g:%.6g]\nset xtics (", lo, hi);
        static const double tics[] = {0.001, 0.01, 0.05, 0.1, 0.2, 0.5, 1,    1.5,  3,
                                      2,     5,    10,   30,  100, 300, 1000, 10000};
        int first = 1, wide = hi / lo > 100;
        for (size_t t = 0; t < sizeof tics / sizeof tics[0]; t++) {
            if (tics[t] < lo || tics[t] > hi)
                continue;
            /* Over more than two decades, tics closer than 2x would collide. */
            if (wide && (tics[t] == 1.5 || tics[t] == 0.05 || tics[t] == 300))
                continue;
            double pc = (tics[t] - 1) * 100;
            fprintf(gp, "%s\"%s%g%%%%\" %g", first ? "" : ", ", pc > 0 ? "+" : "", pc, tics[t]);
            first = 0;
        }
        fprintf(gp, ")\n");
    } else {
        double pad = (xmax - xmin) * 0.06 + 0.5;
        fprintf(gp, "unset logscale x\nset xrange [%.6g:%.6g]\nset xtics autofreq\n", xmin - pad,
                xmax + pad);
        fprintf(gp, "set format x '%%+g%%%%'\nset xtics add ('0%%%%' 0)\n");
    }
    fprintf(gp,
            "set arrow 1 from first X(0), graph 0 to first X(0), graph 1 nohead "
            "lc rgb '%s' lw 1 front\n",
            QQB_PLOT_INK);
    /* A faint line between cases. */
    fprintf(gp, "unset arrow 2\n");
    {
        const char *prev = NULL;
        size_t rw = 0;
        int tag = 10;
        for (size_t i = 0; i < r->ncmps; i++) {
            const struct rcmp *c = &r->cmps[i];
            if (strcmp(c->kind, kind))
                continue;
            if (prev && strcmp(prev, c->case_name) && tag < 400)
                fprintf(gp,
                        "set arrow %d from graph 0, first %zu.5 to graph 1, first %zu.5 "
                        "nohead lc rgb '#C8C8C8' dt 3 back\n",
                        tag++, rw - 1, rw - 1);
            prev = c->case_name;
            rw++;
        }
    }
    fprintf(gp, "set bmargin 6\nset key at screen 0.5, screen 0.012 center bottom horizontal "
                "samplen 1.5\n");
    fprintf(gp, "plot ");
    qqb_plot_str(gp, p->data[0], 0);
    fprintf(gp,
            " using (X(-$5)):1:(X(-$5)):(X($5)):($1-0.42):($1+0.42):ytic(7):y2tic(8) "
            "with boxxyerror fc rgb '%s' fs solid 1.0 noborder title ",
            C_BAND);
    char band[64];
    if (thr_same && isfinite(thr_first))
        snprintf(band, sizeof band, "threshold \xc2\xb1%g%%", thr_first);
    else
        snprintf(band, sizeof band, "threshold (per benchmark)");
    qqb_plot_str(gp, band, 0);
    for (int v = 0; v < NCLASS; v++) {
        if (!present[v])
            continue;
        fprintf(gp,
                ", \\\n     '' using ($6==%d ? X($2) : NaN):1:(X($3)):(X($4)) with xerrorbars "
                "pt %d ps 1.4 lw 1.6 lc rgb '%s' title ",
                v, vstyle[v].pt, vstyle[v].color);
        qqb_plot_str(gp, is_base ? vstyle[v].name : vstyle[v].ab_name, 0);
    }
    fprintf(gp, "\n");
    qqb_plot_both_end(gp);
    return finish_pic(r, p, gp);
}

/* ======================================================================
 * Benchmarks and their keys, in the order of the run.
 * ====================================================================== */

struct bench {
    const char *name;
    size_t *cases; /* indices into r->cases */
    size_t ncases;
    const char **keys; /* keys with per_hit samples, '@' keys left out */
    size_t nkeys;
};

static void free_benches(struct bench *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(b[i].cases);
        free(b[i].keys);
    }
    free(b);
}

static struct bench *benches(const struct rep *r, size_t *nb)
{
    struct bench *b = calloc(r->ncases ? r->ncases : 1, sizeof *b);
    *nb = 0;
    if (!b)
        return NULL;
    for (size_t i = 0; i < r->ncases; i++) {
        const struct rcase *c = &r->cases[i];
        size_t k = 0;
        while (k < *nb && strcmp(b[k].name, c->bench))
            k++;
        if (k == *nb) {
            b[k].name = c->bench;
            b[k].cases = calloc(r->ncases, sizeof *b[k].cases);
            size_t nkeys = 0;
            for (size_t j = 0; j < r->ncases; j++)
                if (!strcmp(r->cases[j].bench, c->bench))
                    nkeys += r->cases[j].nm;
            b[k].keys = calloc(nkeys ? nkeys : 1, sizeof *b[k].keys);
            (*nb)++;
            if (!b[k].cases || !b[k].keys) {
                free_benches(b, *nb);
                return NULL;
            }
        }
        b[k].cases[b[k].ncases++] = i;
        for (size_t m = 0; m < c->nm; m++) {
            const struct rmetric *mt = &c->m[m];
            if (strcmp(mt->what, "per_hit") || mt->key[0] == '@' || mt->n == 0)
                continue;
            size_t q = 0;
            while (q < b[k].nkeys && strcmp(b[k].keys[q], mt->key))
                q++;
            if (q == b[k].nkeys)
                b[k].keys[b[k].nkeys++] = mt->key;
        }
    }
    return b;
}

/* The multiplot grid for N panels: two columns from two panels on. */
static void grid(size_t n, int *rows, int *cols)
{
    *cols = n >= 2 ? 2 : 1;
    *rows = (int)((n + (size_t)*cols - 1) / (size_t)*cols);
}

/* The baseline comparison of (case, key), or NULL. */
static const struct rcmp *base_cmp(const struct rep *r, size_t ci, const char *key)
{
    for (size_t i = 0; i < r->ncmps; i++)
        if (r->cmps[i].ci == (long)ci && !strcmp(r->cmps[i].kind, "baseline") &&
            !strcmp(r->cmps[i].key, key))
            return &r->cmps[i];
    return NULL;
}

/* ======================================================================
 * Picture 2: every launch's sample, per key, per case of a benchmark.
 * ====================================================================== */

static int pic_samples(struct rep *r, const struct bench *b)
{
    if (b->nkeys == 0)
        return 0;
    char sb[64], stem[96];
    safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "samples-%s", sb);
    struct pic *p = new_pic(r, 2, stem);
    if (!p)
        return 0;
    snprintf(p->title, sizeof p->title, "%s: cycles per hit of every launch, per key", b->name);
    snprintf(p->what, sizeof p->what,
             "A panel per key of %s, a column per case. Each dot is one launch's cycles per "
             "hit (the figure the verdict compares), spread sideways so none hides another; "
             "the box spans the middle half of the launches, its line the median, its "
             "whiskers the lowest and highest. The dashed line is the baseline's median; "
             "grey dots and boxes are the baseline's own launches when the report holds "
             "them. Nanoseconds on the right axis.",
             b->name);
    FILE *pts = open_data(r, p, "points"), *box = pts ? open_data(r, p, "boxes") : NULL,
         *bl = box ? open_data(r, p, "baseline") : NULL;
    if (!bl) {
        if (pts)
            fclose(pts);
        if (box)
            fclose(box);
        return -1;
    }
    qqb_plot_comment(pts, p->title);
    fprintf(pts, "# panel\tx\tcycles_per_hit\tseries(0 baseline, 1 current)\tlaunch\n");
    fprintf(box, "# panel\tx\tmin\tq1\tmedian\tq3\tmax\tseries(0 baseline, 1 current)\tlaunches\n");
    fprintf(bl, "# panel\tx_from\ty\tx_length\tbaseline median cycles per hit\n");
    /* What each panel holds, so the script plots no empty selection. */
    int(*has)[3] = calloc(b->nkeys, sizeof *has);
    double(*span)[2] = calloc(b->nkeys, sizeof *span); /* lowest, highest median */
    double(*lim)[2] = calloc(b->nkeys, sizeof *lim);   /* lowest, highest point */
    if (!has || !span || !lim) {
        free(has);
        free(span);
        free(lim);
        fclose(pts), fclose(box), fclose(bl);
        return fail(r, "out of memory");
    }
    for (size_t k = 0; k < b->nkeys; k++) {
        for (size_t s = 0; s < b->ncases; s++) {
            const struct rcase *c = &r->cases[b->cases[s]];
            const struct rmetric *m = find_metric(c, b->keys[k], "per_hit");
            const struct rcmp *bc = base_cmp(r, b->cases[s], b->keys[k]);
            double x = (double)s + 1;
            int two = bc && bc->nbs > 0;
            for (int series = two ? 0 : 1; series < 2; series++) {
                const double *v = series ? (m ? m->v : NULL) : bc->bs;
                size_t nv = series ? (m ? m->n : 0) : bc->nbs;
                if (nv == 0)
                    continue;
                double cx = two ? x + (series ? 0.2 : -0.2) : x;
                double w = two ? 0.16 : 0.3;
                for (size_t j = 0; j < nv; j++) {
                    /* Golden-ratio spread: even, and the same every time. */
                    double f = fmod((double)j * 0.6180339887, 1.0) - 0.5;
                    fprintf(pts, "%zu\t%.4f\t%.9g\t%d\t%zu\n", k, cx + f * w, v[j], series, j + 1);
                }
                double q[5];
                five(v, nv, q);
                fprintf(box, "%zu\t%.4f\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%d\t%zu\n", k, cx, q[0],
                        q[1], q[2], q[3], q[4], series, nv);
                if (!has[k][0] && !has[k][1] && !has[k][2])
                    lim[k][0] = lim[k][1] = q[0];
                lim[k][0] = fmin(lim[k][0], q[0]);
                lim[k][1] = fmax(lim[k][1], q[4]);
                has[k][series] = 1;
                if (q[2] > 0 && (span[k][0] == 0 || q[2] < span[k][0]))
                    span[k][0] = q[2];
                if (q[2] > span[k][1])
                    span[k][1] = q[2];
            }
            if (bc && isfinite(bc->base) && !two) {
                fprintf(bl, "%zu\t%.4f\t%.9g\t%.4f\n", k, x - 0.4, bc->base, 0.8);
                if (!has[k][0] && !has[k][1] && !has[k][2])
                    lim[k][0] = lim[k][1] = bc->base;
                lim[k][0] = fmin(lim[k][0], bc->base);
                lim[k][1] = fmax(lim[k][1], bc->base);
                has[k][2] = 1;
            }
        }
    }
    int bad = close_file(r, pts, p->data[0]) || close_file(r, box, p->data[1]) ||
              close_file(r, bl, p->data[2]);
    if (bad) {
        free(has);
        free(span);
        free(lim);
        return -1;
    }
    FILE *gp = open_script(r, p);
    if (!gp) {
        free(has);
        free(span);
        free(lim);
        return -1;
    }
    int rows, cols;
    grid(b->nkeys, &rows, &cols);
    double *xs = malloc((b->ncases + 1) * sizeof *xs);
    if (!xs) {
        free(has);
        free(span);
        free(lim);
        fclose(gp);
        return fail(r, "out of memory");
    }
    for (size_t s = 0; s < b->ncases; s++)
        xs[s] = (double)s + 1;
    struct xtics xl = xtics_layout(r, b->cases, b->ncases, 600, 0);
    qqb_plot_both_begin(gp, p->stem, 600 * cols, 340 * rows + 90 + xl.extra * rows);
    int anyb = 0, anyl = 0;
    for (size_t k = 0; k < b->nkeys; k++)
        anyb |= has[k][0], anyl |= has[k][2];
    char ttl[512];
    snprintf(ttl, sizeof ttl,
             "%s: cycles per hit of every launch (dots)\nbox = middle half, line = median%s%s",
             b->name, anyb ? ", grey = the baseline's launches, blue = this run's" : "",
             anyl ? ", dashed = baseline median" : "");
    fprintf(gp, "set multiplot layout %d,%d title ", rows, cols);
    qqb_plot_str(gp, ttl, QQB_GP_LINES);
    fprintf(gp,
            "\nunset key\nset boxwidth 0.3 absolute\nset style fill empty\n"
            "set xrange [0.4:%zu.6]\n",
            b->ncases);
    xtics_write(gp, r, b->cases, xs, b->ncases, &xl);
    free(xs);
    fprintf(gp, "set grid ytics noxtics\n");
    const char *dp = p->data[0], *db = p->data[1], *dl = p->data[2];
    for (size_t k = 0; k < b->nkeys; k++) {
        fprintf(gp, "set title ");
        qqb_plot_str(gp, b->keys[k], 0);
        /* Cases 20x apart (chain with 0 and 40 operations): a log axis,
         * so each case's spread shows at its own scale. */
        if (span[k][0] > 0 && span[k][1] / span[k][0] > 20) {
            /* gnuplot: unlink only a linear axis, log only an unlinked one. */
            fprintf(gp, "\nunset logscale y\nunset link y2\nunset y2tics\nunset y2label\n"
                        "set logscale y\n"
                        "set ylabel 'cycles per hit (log scale)'\n");
        } else {
            fprintf(gp, "\nunset logscale y\nset ylabel 'cycles per hit'\n");
            ns_axis(r, gp);
        }
        /* Every launch read the same figure: gnuplot would warn of an
         * empty y range; give it one around the value. */
        if (isfinite(lim[k][0]) && lim[k][0] == lim[k][1]) {
            double v = lim[k][0], d = fmax(fabs(v) * 0.05, 1.0);
            fprintf(gp, "set yrange [%.9g:%.9g]\n", v > 0 && v - d <= 0 ? v / 2 : v - d, v + d);
        } else {
            fprintf(gp, "set yrange [*:*]\n");
        }
        fprintf(gp, "plot ");
        const char *sep = "";
        for (int series = 0; series < 2; series++) {
            if (!has[k][series])
                continue;
            const char *col = series ? C_CURRENT : C_BASELINE;
            fputs(sep, gp);
            qqb_plot_str(gp, db, 0);
            fprintf(gp,
                    " using ($1==%zu && $8==%d ? $2 : NaN):4:3:7:6 with candlesticks "
                    "whiskerbars 0.5 lc rgb '%s' lw 1.2, \\\n"
                    "     '' using ($1==%zu && $8==%d ? $2 : NaN):5:5:5:5 with candlesticks "
                    "lc rgb '%s' lw 2.5, \\\n     ",
                    k, series, col, k, series, col);
            qqb_plot_str(gp, dp, 0);
            fprintf(gp,
                    " using ($1==%zu && $4==%d ? $2 : NaN):3 with points pt 7 "
                    "ps 0.55 lc rgb '#50%s'",
                    k, series, col + 1);
            sep = ", \\\n     ";
        }
        if (has[k][2]) {
            fputs(sep, gp);
            qqb_plot_str(gp, dl, 0);
            fprintf(gp,
                    " using ($1==%zu ? $2 : NaN):3:4:(0) with vectors nohead "
                    "dt 2 lw 2 lc rgb '%s'",
                    k, QQB_PLOT_INK);
        }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    free(has);
    free(span);
    free(lim);
    return finish_pic(r, p, gp);
}

/* ======================================================================
 * Picture 3: memory per object type, baseline against current.
 * ====================================================================== */

struct memrow {
    size_t ci, mi;
    struct rmem base;
    int has_base;
};

static int pic_memory(struct rep *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncases; i++)
        n += r->cases[i].nmem;
    struct memrow *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows)
        return fail(r, "out of memory");
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
    struct pic *p = new_pic(r, 3, "memory");
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
    FILE *d = open_data(r, p, NULL);
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
        dtext(d, c->name);
        fputs("  ", d);
        dtext(d, m->key);
        for (int v = 0; v < 3; v++) {
            fputc('\t', d);
            dnum(d, w->has_base ? base[v] / (v < 2 ? 1024.0 : 1.0) : NAN);
            fputc('\t', d);
            dnum(d, cur[v] / (v < 2 ? 1024.0 : 1.0));
        }
        for (int v = 0; v < 3; v++) {
            const char *col = C_CURRENT;
            if (w->has_base && cur[v] > base[v])
                col = QQB_PLOT_ALERT;
            else if (w->has_base && cur[v] < base[v])
                col = vstyle[V_IMPROVED].color;
            fprintf(d, "\t%ld", strtol(col + 1, NULL, 16));
        }
        for (int v = 0; v < 3; v++) {
            char a[32], bb[32], t[96];
            if (v < 2)
                fmt_bytes(a, sizeof a, cur[v]), fmt_bytes(bb, sizeof bb, base[v]);
            else
                fmt_num(a, sizeof a, cur[v]), fmt_num(bb, sizeof bb, base[v]);
            if (w->has_base && cur[v] != base[v])
                snprintf(t, sizeof t, "%s (was %s)", a, bb);
            else
                snprintf(t, sizeof t, "%s", a);
            fprintf(d, "\t%s", t);
        }
        fputc('\n', d);
    }
    if (close_file(r, d, p->data[0]) != 0) {
        free(rows);
        return -1;
    }
    FILE *gp = open_script(r, p);
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
    return finish_pic(r, p, gp);
}

/* ======================================================================
 * Picture 4: scaling over node counts.
 * ====================================================================== */

static int pic_scaling(struct rep *r, const struct bench *b)
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
        return fail(r, "out of memory");
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
    safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "scaling-%s", sb);
    struct pic *p = new_pic(r, 4, stem);
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
    FILE *d = open_data(r, p, NULL);
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
        return fail(r, "out of memory");
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
                    const struct rmetric *m = find_metric(c, b->keys[k], "per_hit");
                    const struct rmetric *im = find_metric(c, b->keys[k], "imbalance");
                    const struct rmetric *tk = find_metric(c, b->keys[k], "ticks");
                    double q5[5], i5[5], t5[5];
                    five(m ? m->v : NULL, m ? m->n : 0, q5);
                    five(im ? im->v : NULL, im ? im->n : 0, i5);
                    five(tk ? tk->v : NULL, tk ? tk->n : 0, t5);
                    /* One node is balanced by definition (max = mean). */
                    if (!im && nd == 1 && isfinite(q5[2]))
                        i5[2] = 1.0;
                    if (!isfinite(q5[2]) && !isfinite(i5[2]))
                        continue;
                    fprintf(d, "%zu\t%zu\t%ld\t", k, q, nd);
                    dnum(d, q5[2]);
                    fputc('\t', d);
                    dnum(d, q5[1]);
                    fputc('\t', d);
                    dnum(d, q5[3]);
                    fputc('\t', d);
                    dnum(d, i5[2]);
                    fputc('\t', d);
                    dnum(d, t5[2]);
                    fputc('\t', d);
                    dtext(d, c->name);
                    fputc('\n', d);
                    has[k * ns + q][0] |= isfinite(q5[2]);
                    has[k * ns + q][1] |= isfinite(i5[2]);
                }
        }
    free(sidx);
    if (close_file(r, d, p->data[0]) != 0) {
        free(has);
        return -1;
    }
    FILE *gp = open_script(r, p);
    if (!gp) {
        free(has);
        return -1;
    }
    int rows, cols;
    grid(b->nkeys, &rows, &cols);
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
    return finish_pic(r, p, gp);
}

/* ======================================================================
 * Picture 5: A/B pairs side by side, the delta labelled.
 * ====================================================================== */

static int pic_ab(struct rep *r, const struct bench *b)
{
    /* The comparisons with a reference case, of this benchmark. */
    size_t *sel = calloc(r->ncmps ? r->ncmps : 1, sizeof *sel), nsel = 0;
    const char **keys = calloc(r->ncmps ? r->ncmps : 1, sizeof *keys);
    long *groups = calloc(r->ncmps ? r->ncmps : 1, sizeof *groups);
    if (!sel || !keys || !groups) {
        free(sel), free(keys), free(groups);
        return fail(r, "out of memory");
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
    safe_name(sb, sizeof sb, b->name);
    snprintf(stem, sizeof stem, "ab-%s", sb);
    struct pic *p = new_pic(r, 5, stem);
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
    FILE *d = open_data(r, p, "bars"), *l = d ? open_data(r, p, "deltas") : NULL;
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
        return fail(r, "out of memory");
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
        return fail(r, "out of memory");
    }
    for (size_t k = 0; k < nkeys; k++) {
        for (size_t s = 0; s < nslot; s++) {
            const struct rcase *c = &r->cases[slots[s].ci];
            const struct rmetric *m = find_metric(c, keys[k], "per_hit");
            const struct rcmp *cm = NULL;
            for (size_t i = 0; i < nsel && !cm; i++)
                if (r->cmps[sel[i]].ci == slots[s].ci && !strcmp(r->cmps[sel[i]].key, keys[k]))
                    cm = &r->cmps[sel[i]];
            double q5[5];
            five(m ? m->v : NULL, m ? m->n : 0, q5);
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
            dnum(d, q5[1]);
            fputc('\t', d);
            dnum(d, q5[3]);
            fprintf(d, "\t%ld\t", strtol(qqb_plot_color(pos) + 1, NULL, 16));
            dtext(d, c->name);
            fputc('\n', d);
            has[k][NCLASS] = 1;
            has[k][NCLASS + 1] |= isfinite(q5[1]) && isfinite(q5[3]);
            double top = fmax(med, isfinite(q5[3]) ? q5[3] : med);
            if (top > ymax[k])
                ymax[k] = top;
            if (cm && isfinite(cm->pct)) {
                enum vclass v = vclass_of(cm->verdict);
                fprintf(l, "%zu\t%.3f\t%.9g\t%d\t%.6g\t%+.1f%% %s\n", k, slots[s].x, top, (int)v,
                        cm->pct, cm->pct, verdict_word(cm));
                has[k][v] = 1;
            }
        }
    }
    int bad = close_file(r, d, p->data[0]) || close_file(r, l, p->data[1]);
    FILE *gp = bad ? NULL : open_script(r, p);
    if (!gp) {
        free(has), free(ymax), free(slots), free(sel), free(keys), free(groups);
        return -1;
    }
    int rows, cols;
    grid(nkeys, &rows, &cols);
    int pw = nslot > 6 ? 700 : cols == 1 ? 800 : 600;
    size_t *sci = malloc((nslot + 1) * sizeof *sci);
    double *sx = malloc((nslot + 1) * sizeof *sx);
    if (!sci || !sx) {
        free(sci), free(sx), fclose(gp);
        free(has), free(ymax), free(slots), free(sel), free(keys), free(groups);
        return fail(r, "out of memory");
    }
    for (size_t s = 0; s < nslot; s++)
        sci[s] = (size_t)slots[s].ci, sx[s] = slots[s].x;
    struct xtics xl = xtics_layout(r, sci, nslot, pw, nslot > 4);
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
    xtics_write(gp, r, sci, sx, nslot, &xl);
    free(sci), free(sx);
    fprintf(gp, "set grid ytics noxtics\nset ylabel 'cycles per hit'\n");
    ns_axis(r, gp);
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
                        k, v, vstyle[v].color);
            }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    qqb_plot_both_end(gp);
    free(has), free(ymax), free(slots), free(sel), free(keys), free(groups);
    return finish_pic(r, p, gp);
}

/* ======================================================================
 * index.html.
 * ====================================================================== */

/* A file name in an attribute: percent-encode what a URL cannot hold. */
static void href(FILE *fp, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.')
            fputc(c, fp);
        else
            fprintf(fp, "%%%02X", c);
    }
}

static void html_cmp_table(struct rep *r, FILE *fp, const char *kind)
{
    char kt[160];
    int is_base = !strcmp(kind, "baseline") || !strcmp(kind, "build");
    fprintf(fp, "<h3>");
    qqb_markup_text(fp, kind_title(kind, kt, sizeof kt));
    fprintf(fp,
            "</h3>\n<table>\n<thead><tr><th>case</th><th>key</th>%s"
            "<th class=\"n\">%s</th><th class=\"n\">current</th><th class=\"n\">change</th>"
            "<th class=\"n\">interval</th><th class=\"n\">threshold</th><th>verdict</th>"
            "</tr></thead>\n<tbody>\n",
            is_base ? "" : "<th>reference</th>", is_base ? "baseline" : "reference case");
    for (size_t i = 0; i < r->ncmps; i++) {
        const struct rcmp *c = &r->cmps[i];
        if (strcmp(c->kind, kind))
            continue;
        char b[64], cu[64], ch[32] = "n/a", iv[64] = "", th[32] = "";
        double bmhz =
            isfinite(c->base_ns) && c->base_ns > 0 ? c->base * 1000.0 / c->base_ns : r->mhz;
        double cmhz = isfinite(c->cur_ns) && c->cur_ns > 0 ? c->cur * 1000.0 / c->cur_ns : r->mhz;
        fmt_cyc(b, sizeof b, c->base, bmhz);
        fmt_cyc(cu, sizeof cu, c->cur, cmhz);
        if (isfinite(c->pct)) {
            snprintf(ch, sizeof ch, "%+.2f%%", c->pct);
            snprintf(iv, sizeof iv, "[%+.2f, %+.2f]", c->lo, c->hi);
        }
        if (isfinite(c->thr))
            snprintf(th, sizeof th, "\xc2\xb1%g%%", c->thr);
        enum vclass v = vclass_of(c->verdict);
        fprintf(fp, "<tr class=\"v-%s\"><td>", vstyle[v].name);
        qqb_markup_text(fp, c->case_name);
        fprintf(fp, "</td><td>");
        qqb_markup_text(fp, c->key);
        fprintf(fp, "</td>");
        if (!is_base) {
            fprintf(fp, "<td>");
            qqb_markup_text(fp, c->ref ? c->ref : "-");
            fprintf(fp, "</td>");
        }
        fprintf(fp, "<td class=\"n\">");
        qqb_markup_text(fp, b);
        fprintf(fp, "</td><td class=\"n\">");
        qqb_markup_text(fp, cu);
        fprintf(fp, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">", ch, iv);
        qqb_markup_text(fp, th);
        fprintf(fp, "</td><td><span class=\"chip\"></span>");
        qqb_markup_text(fp, verdict_word(c));
        if (c->confirmed == 1)
            fprintf(fp, " (confirmed)");
        else if (c->confirmed == 0)
            fprintf(fp, " (not confirmed)");
        if (c->machine_moved && isfinite(c->machine_pct))
            fprintf(fp, " (the machine moved %+.1f%%; relative to it %+.2f%%)", c->machine_pct,
                    c->norm_pct);
        if (c->reason) {
            fprintf(fp, " (");
            qqb_markup_text(fp, c->reason);
            fprintf(fp, ")");
        }
        if (c->note) {
            fprintf(fp, " <span class=\"note\">");
            qqb_markup_text(fp, c->note);
            fprintf(fp, "</span>");
        }
        fprintf(fp, "</td></tr>\n");
    }
    fprintf(fp, "</tbody>\n</table>\n");
}

static const char *const section_title[] = {
    "",
    "1. Change per key, with its interval",
    "2. Samples per launch",
    "3. Memory per object type",
    "4. Scaling over node counts",
    "5. A/B pairs side by side",
};

static const char *const section_none[] = {
    "",
    "Nothing was compared: no baseline yet and no variants.",
    "No case recorded timed keys.",
    "No case recorded memory keys.",
    "No benchmark ran on more than one node count.",
    "No benchmark has variants compared with each other.",
};

static int write_index(struct rep *r)
{
    char e[256];
    FILE *fp = qqb_plot_create(r->dir, "index.html", e, sizeof e);
    if (!fp)
        return fail(r, "%s", e);
    fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<title>qqbench: ");
    qqb_markup_text(fp, r->suite ? r->suite : "run");
    fprintf(fp,
            "</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n"
            "body{font-family:'DejaVu Sans',Verdana,sans-serif;color:#333;background:#fff;"
            "margin:1.5em auto;max-width:1300px;padding:0 1em;line-height:1.4}\n"
            "h1{font-size:1.5em;margin-bottom:0.2em} h2{margin-top:1.6em;border-bottom:1px "
            "solid #ddd} h3{margin-bottom:0.3em}\n"
            "table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0 1em}\n"
            "th,td{padding:0.2em 0.6em;border-bottom:1px solid #eee;text-align:left;"
            "vertical-align:top}\n"
            "th{background:#f4f4f4} td.n,th.n{text-align:right;white-space:nowrap;"
            "font-variant-numeric:tabular-nums}\n"
            ".chip{display:inline-block;width:0.8em;height:0.8em;margin-right:0.4em;"
            "border-radius:2px;background:%s}\n"
            "tr.v-regressed .chip{background:%s} tr.v-regressed td{font-weight:bold}\n"
            "tr.v-improved .chip{background:%s} tr.v-unchanged .chip{background:%s}\n"
            "tr.v-noisy .chip{background:%s}\n"
            ".note{color:#666} .meta{color:#555} .alert{color:%s;font-weight:bold}\n"
            "figure{margin:1em 0 2em} figure img{max-width:100%%;height:auto;"
            "border:1px solid #eee}\n"
            "figcaption{max-width:60em;color:#444} .files{font-size:0.85em;color:#666}\n"
            "</style>\n</head>\n<body>\n<h1>qqbench: suite ",
            vstyle[V_OTHER].color, vstyle[V_REGRESSED].color, vstyle[V_IMPROVED].color,
            vstyle[V_UNCHANGED].color, vstyle[V_NOISY].color, QQB_PLOT_ALERT);
    qqb_markup_text(fp, r->suite ? r->suite : "?");
    fprintf(fp, "</h1>\n<p class=\"meta\">");
    qqb_markup_text(fp, r->date ? r->date : "");
    fprintf(fp, " &middot; machine ");
    qqb_markup_text(fp, r->fp_id ? r->fp_id : "?");
    if (r->fp_cpu) {
        fprintf(fp, " (");
        qqb_markup_text(fp, r->fp_cpu);
        if (r->mhz > 0)
            fprintf(fp, ", %.0f MHz ticks", r->mhz);
        fprintf(fp, ")");
    }
    if (r->fp_compiler) {
        fprintf(fp, " &middot; ");
        qqb_markup_text(fp, r->fp_compiler);
        if (r->fp_flags) {
            fprintf(fp, " ");
            qqb_markup_text(fp, r->fp_flags);
        }
    }
    if (r->version) {
        fprintf(fp, " &middot; qqbench ");
        qqb_markup_text(fp, r->version);
    }
    if (r->commit) {
        fprintf(fp, " &middot; commit ");
        qqb_markup_text(fp, r->commit);
    }
    fprintf(fp, "<br>baseline: ");
    qqb_markup_text(fp,
                    r->baseline ? r->baseline : "none (this run had nothing to compare against)");
    fprintf(fp, "</p>\n");
    if (r->baseline_other)
        fprintf(fp, "<p class=\"alert\">The baseline is from another machine: timing "
                    "differences may be the machine's, not the code's.</p>\n");
    fprintf(fp, "<p id=\"broken\" class=\"alert\" hidden></p>\n");

    /* The summary: what the run's exit status said, and the counts. */
    static const char *const exits[] = {"all good", "a regression", "bad input or usage",
                                        "a kernel failed"};
    fprintf(fp, "<p><b>");
    if (r->exit_code >= 0 && r->exit_code <= 3)
        fprintf(fp, "Exit %ld: %s.", r->exit_code, exits[r->exit_code]);
    fprintf(fp, "</b> %zu cases", r->ncases);
    for (size_t k = 0; k < r->nkinds; k++) {
        size_t cnt[NCLASS] = {0}, na = 0;
        int is_base = !strcmp(r->kinds[k], "baseline") || !strcmp(r->kinds[k], "build");
        for (size_t i = 0; i < r->ncmps; i++)
            if (!strcmp(r->cmps[i].kind, r->kinds[k])) {
                if (isfinite(r->cmps[i].pct))
                    cnt[vclass_of(r->cmps[i].verdict)]++;
                else
                    na++;
            }
        char kt[160];
        fprintf(fp, "; %s: ",
                !strcmp(r->kinds[k], "ab") ? "A/B" : kind_title(r->kinds[k], kt, sizeof kt));
        const char *sep = "";
        for (int v = 0; v < NCLASS; v++)
            if (cnt[v]) {
                fprintf(fp, "%s%zu %s", sep, cnt[v], is_base ? vstyle[v].name : vstyle[v].ab_name);
                sep = ", ";
            }
        if (na)
            fprintf(fp, "%s%zu n/a", sep, na);
    }
    fprintf(fp, "; %ld kernel failure%s.</p>\n", r->kernel_failures,
            r->kernel_failures == 1 ? "" : "s");

    fprintf(fp, "<h2>Verdicts</h2>\n<p>Cycles per hit are medians over launches (nanoseconds "
                "from the measured tick rate). The change is the median change with its "
                "confidence interval; a key is regressed or improved only when the whole "
                "interval is past the threshold, noisy when it straddles it.</p>\n");
    if (r->ncmps == 0)
        fprintf(fp, "<p>No comparisons: the first run on this machine becomes the baseline, "
                    "and the suite has no variants.</p>\n");
    for (size_t k = 0; k < r->nkinds; k++)
        html_cmp_table(r, fp, r->kinds[k]);
    if (r->nmch) {
        fprintf(fp, "<h3>Memory changes</h3>\n<table>\n<thead><tr><th>case</th><th>key</th>"
                    "<th>against</th><th class=\"n\">live</th><th class=\"n\">peak</th>"
                    "<th class=\"n\">created</th><th>verdict</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < r->nmch; i++) {
            const struct rmemchg *m = &r->mch[i];
            int ab = strcmp(m->kind, "baseline") != 0;
            const char *v = m->verdict > 0   ? (ab ? "more" : "regressed")
                            : m->verdict < 0 ? (ab ? "less" : "improved")
                                             : "counts changed";
            fprintf(fp, "<tr class=\"v-%s\"><td>",
                    m->verdict > 0 && !ab   ? "regressed"
                    : m->verdict < 0 && !ab ? "improved"
                                            : "other");
            qqb_markup_text(fp, m->case_name);
            fprintf(fp, "</td><td>");
            qqb_markup_text(fp, m->key);
            fprintf(fp, "</td><td>");
            qqb_markup_text(fp, ab ? (m->ref ? m->ref : m->kind) : "baseline");
            char a[3][2][32];
            fmt_bytes(a[0][0], 32, m->before.live), fmt_bytes(a[0][1], 32, m->after.live);
            fmt_bytes(a[1][0], 32, m->before.peak), fmt_bytes(a[1][1], 32, m->after.peak);
            fmt_num(a[2][0], 32, m->before.created), fmt_num(a[2][1], 32, m->after.created);
            fprintf(fp, "</td>");
            for (int q = 0; q < 3; q++)
                fprintf(fp, "<td class=\"n\">%s &rarr; %s</td>", a[q][0], a[q][1]);
            fprintf(fp, "<td><span class=\"chip\"></span>%s</td></tr>\n", v);
        }
        fprintf(fp, "</tbody>\n</table>\n");
    }
    int failures = 0;
    for (size_t i = 0; i < r->ncases; i++)
        failures |= r->cases[i].failed;
    if (failures) {
        fprintf(fp, "<h3 class=\"alert\">Kernel failures</h3>\n<ul>\n");
        for (size_t i = 0; i < r->ncases; i++)
            if (r->cases[i].failed) {
                fprintf(fp, "<li>");
                qqb_markup_text(fp, r->cases[i].name);
                fprintf(fp, ": ");
                qqb_markup_text(fp, r->cases[i].note ? r->cases[i].note : "failed");
                fprintf(fp, "</li>\n");
            }
        fprintf(fp, "</ul>\n");
    }

    fprintf(fp, "<h2>Pictures</h2>\n<p>Each picture's folder-mates: its data (<code>.dat</code>, "
                "tab-separated, a header line per file), the gnuplot script that draws it "
                "(<code>.gp</code>; re-draw with <code>gnuplot NAME.gp</code> in this folder), "
                "and the picture as SVG and PNG.</p>\n");
    for (int s = 1; s <= 5; s++) {
        fprintf(fp, "<h3>%s</h3>\n", section_title[s]);
        int any = 0;
        for (size_t i = 0; i < r->npics; i++) {
            const struct pic *p = &r->pics[i];
            if (p->section != s)
                continue;
            any = 1;
            fprintf(fp, "<figure id=\"");
            href(fp, p->stem);
            fprintf(fp, "\">\n<a href=\"");
            href(fp, p->stem);
            fprintf(fp, ".svg\"><img src=\"");
            href(fp, p->stem);
            fprintf(fp, ".png\" alt=\"");
            qqb_markup_text(fp, p->title);
            fprintf(fp, "\"></a>\n<figcaption><b>");
            qqb_markup_text(fp, p->title);
            fprintf(fp, ".</b> ");
            qqb_markup_text(fp, p->what);
            fprintf(fp, "<br><span class=\"files\">files: ");
            static const char *const ext[] = {".svg", ".png", ".gp"};
            for (int x = 0; x < 3; x++) {
                fprintf(fp, "<a href=\"");
                href(fp, p->stem);
                fprintf(fp, "%s\">", ext[x]);
                qqb_markup_text(fp, p->stem);
                fprintf(fp, "%s</a> ", ext[x]);
            }
            for (int x = 0; x < p->ndata; x++) {
                fprintf(fp, "<a href=\"");
                href(fp, p->data[x]);
                fprintf(fp, "\">");
                qqb_markup_text(fp, p->data[x]);
                fprintf(fp, "</a> ");
            }
            fprintf(fp, "</span></figcaption>\n</figure>\n");
        }
        if (!any)
            fprintf(fp, "<p>%s</p>\n", section_none[s]);
    }
    /* Model fits and the machine profile (docs/MODELS.md), from the same JSON. */
    int mrc = qqb_model_pictures(r->run.models, r->dir, r->no_plot, fp, e, sizeof e);
    if (mrc == 0)
        mrc = qqb_profile_pictures(r->run.profile, r->dir, r->no_plot, fp, e, sizeof e);
    if (mrc != 0) {
        fclose(fp);
        return fail(r, "%s", e);
    }
    fprintf(fp, "<h3>6. History across versions</h3>\n<p>A run's JSON holds one run; the "
                "series across versions come from the snapshots that <code>qqbench run "
                "--record LABEL</code> keeps: <code>qqbench history SUITE.yaml --plot "
                "DIR</code> draws cycles per interval and memory per object type across "
                "those labels (docs/REPORTS.md).</p>\n");
    /* Say so on the page when a picture is missing (an artifact copied in
     * part); the body's data attributes let a headless browser check it. */
    fprintf(fp, "<script>\nwindow.addEventListener('load', function () {\n"
                "  var imgs = document.images, bad = [];\n"
                "  for (var i = 0; i < imgs.length; i++)\n"
                "    if (!imgs[i].complete || imgs[i].naturalWidth === 0)\n"
                "      bad.push(imgs[i].getAttribute('src'));\n"
                "  document.body.setAttribute('data-images', String(imgs.length));\n"
                "  document.body.setAttribute('data-images-broken', String(bad.length));\n"
                "  if (bad.length) {\n"
                "    var p = document.getElementById('broken');\n"
                "    p.textContent = bad.length + ' picture(s) did not load: ' + bad.join(', ');\n"
                "    p.hidden = false;\n"
                "  }\n"
                "});\n</script>\n</body>\n</html>\n");
    return close_file(r, fp, "index.html");
}

/* ======================================================================
 * The whole report.
 * ====================================================================== */

int qqb_report_write(const char *json_path, const char *outdir, int no_plot, char *err,
                     size_t errlen)
{
    struct rep *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    r->path = json_path;
    r->dir = outdir;
    r->no_plot = no_plot;
    r->err = err;
    r->errlen = errlen;
    int rc = read_run(r);
    if (rc == 0)
        rc = qqb_plot_mkdir(outdir, err, errlen);
    size_t nb = 0;
    struct bench *b = NULL;
    if (rc == 0) {
        b = benches(r, &nb);
        if (!b)
            rc = fail(r, "out of memory");
    }
    for (size_t k = 0; rc == 0 && k < r->nkinds; k++)
        rc = pic_change(r, r->kinds[k]);
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = pic_samples(r, &b[i]);
    if (rc == 0)
        rc = pic_memory(r);
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = pic_scaling(r, &b[i]);
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = pic_ab(r, &b[i]);
    if (rc == 0)
        rc = write_index(r);
    if (b)
        free_benches(b, nb);
    free_rep(r);
    free(r);
    return rc;
}
