/* pic.h - what the run report's files share (pictures.c, pic_*.c): the run as the pictures see
 * it, a picture's registration and files, the verdict styles. Internal to harness/report. */
#ifndef QQB_PIC_H
#define QQB_PIC_H

#include <stddef.h>
#include <stdio.h>

#include "plot.h"
#include "report.h"
#include "run_json.h"

/* ======================================================================
 * The run as the pictures see it: made by pictures.c from the structs of
 * the one reader (run_json.h), with the pictures' defaults (a case's
 * bench is its name when absent, a comparison's kind "other") and finite
 * samples only. Strings point into the parsed document, which lives as
 * long as the report is being written.
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
    const char *why; /* why the row reads so (the JSON's "why"), or NULL */
    double base, cur, base_ns, cur_ns, pct, lo, hi, thr, conf, machine_pct, norm_pct;
    int machine_moved;
    double *bs; /* baseline samples, when the JSON has them */
    size_t nbs;
    long ci, ri; /* the case and the reference case, or -1 */
};

struct rmemchg {
    const char *case_name, *key, *kind, *ref;
    struct rmem before, after;
    int has_before;
    long verdict;
    int unchanged; /* a gated key whose numbers did not move */
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
    const char *baseline_other_build; /* kernels the baseline's builds differ in */
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
enum vclass { V_REGRESSED, V_IMPROVED, V_UNCHANGED, V_NOISY, V_BLIND, V_OTHER, NCLASS };

struct pic_vstyle {
    const char *name, *ab_name, *color;
    int pt;
};
extern const struct pic_vstyle pic_vstyle[NCLASS];

#define C_CURRENT  "#0072B2" /* blue: this run */
#define C_BASELINE "#8C8C8C" /* grey: the baseline */
#define C_BAND     "#DCE6EE" /* the threshold band */

struct xtics {
    int upright; /* labels rotated by 90 degrees */
    int margin;  /* bottom margin, in character heights (0: gnuplot's) */
    int extra;   /* pixels added to each panel's height */
};

struct bench {
    const char *name;
    size_t *cases; /* indices into r->cases */
    size_t ncases;
    const char **keys; /* keys with per_hit samples, '@' keys left out */
    size_t nkeys;
};

/* ---- pic_util.c ---- */

/* The verdict class of a verdict word (V_OTHER for NULL or unknown). */
enum vclass pic_vclass_of(const char *v);
/* One line into R->err; returns -1. */
int pic_fail(struct rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Quartiles of the N finite values V (stats.h's quantiles): min, q1,
 * median, q3, max; all NaN and -1 when N is 0. */
int pic_five(const double *v, size_t n, double out[5]);
/* A name made safe for a file name: letters, digits, '-', '_'. */
void pic_safe_name(char *out, size_t n, const char *s);
/* A text field of a tab-separated data file: tabs and line ends become
 * blanks; an empty text becomes '-'. */
void pic_dtext(FILE *fp, const char *s);
/* A number of a data file: %.9g, or NaN. */
void pic_dnum(FILE *fp, double v);
/* "12 B", "1.5 KB", "3.2 MB"; "-" when not finite. */
void pic_fmt_bytes(char *b, size_t n, double v);
/* The case's name without its benchmark: "channel[pow]@1" -> "pow @1". */
void pic_short_name(char *b, size_t n, const struct rcase *c);
/* The layout of the x tic labels of cases CI[0..N) in a panel WIDTH pixels
 * wide; CLOSE: labels stand closer than their share of the width, so they
 * stand upright whatever their length. */
struct xtics pic_xtics_layout(const struct rep *r, const size_t *ci, size_t n, int width,
                              int close);
/* "set xtics ('label' x, ...) scale 0 [rotate]" and the margin. */
void pic_xtics_write(FILE *gp, const struct rep *r, const size_t *ci, const double *x, size_t n,
                     const struct xtics *l);
/* The index of the case named NAME, or -1. */
long pic_find_case(const struct rep *r, const char *name);
/* The metric (KEY, WHAT) of C, or NULL. */
const struct rmetric *pic_find_metric(const struct rcase *c, const char *key, const char *what);
/* The heading of a comparison kind, in B. */
const char *pic_kind_title(const char *kind, char *b, size_t n);
/* The comparison's verdict as a reader of that kind says it. */
const char *pic_verdict_word(const struct rcmp *c);
/* Register a picture of SECTION named STEM (made unique); NULL when there
 * are MAX_PICS already. */
struct pic *pic_new(struct rep *r, int section, const char *stem);
/* Open the data file STEM-SUFFIX.dat (or STEM.dat) of picture P. */
FILE *pic_open_data(struct rep *r, struct pic *p, const char *suffix);
/* Open P's script STEM.gp with the house opening. */
FILE *pic_open_script(struct rep *r, struct pic *p);
/* Close FP (DIR/NAME); -1 with the reason when it did not all get written. */
int pic_close_file(struct rep *r, FILE *fp, const char *name);
/* Close P's script GP and run gnuplot on it (unless R->no_plot). */
int pic_finish(struct rep *r, struct pic *p, FILE *gp);
/* A round step: 1, 2 or 5 times a power of ten, the smallest that cuts
 * SPAN into at most MOST steps (1 when SPAN is not a positive figure). */
double pic_round_step(double span, int most);
/* The tics of an axis over [LO, HI] (nanoseconds for PIC_TIME_NS, counts
 * such as cycles for PIC_COUNT): in the unit the figure farthest from 0
 * reads from 1 up in (ns, µs, ms, s; none, k, M, G), at the multiples of
 * a round step (pic_round_step, at most 5 steps), labelled with the unit
 * ("150 µs", "39.8k"; 0 as "0"). 0, or -1 when the range is empty, too
 * narrow for its figures or not finite. */
enum pic_scale { PIC_TIME_NS, PIC_COUNT };
struct pic_tics {
    const char *unit;
    double unit_size, step; /* the unit in ns or counts; the step in the unit */
    double at[8];           /* where, in ns or counts */
    char label[8][32];
    size_t n;
};
int pic_tics(double lo, double hi, enum pic_scale scale, struct pic_tics *t);
/* The left axis of cycles per hit: y range [LO, HI], pic_tics's tics. */
void pic_cycles_axis(FILE *gp, double lo, double hi);
/* The time axis on the right (y2) of a panel whose left axis holds cycles
 * per hit over [LO, HI] (the panel's y range, set by the caller): linked
 * to it by the machine's tick rate, its tics pic_tics's. Every picture
 * with a time axis draws it with this. No tick rate: no right axis. */
void pic_time_axis(const struct rep *r, FILE *gp, double lo, double hi);
/* The multiplot grid for N panels: two columns from two panels on. */
void pic_grid(size_t n, int *rows, int *cols);
/* The baseline comparison of (case CI, KEY), or NULL. */
const struct rcmp *pic_base_cmp(const struct rep *r, size_t ci, const char *key);

/* ---- The pictures (pic_*.c) and index.html (pic_index.c) ----
 * Each returns 0 (also when there is nothing to draw), or -1 with the
 * reason in R->err. */
int pic_change(struct rep *r, const char *kind);
int pic_samples(struct rep *r, const struct bench *b);
int pic_memory(struct rep *r);
int pic_scaling(struct rep *r, const struct bench *b);
int pic_ab(struct rep *r, const struct bench *b);
int pic_index(struct rep *r);

#endif /* QQB_PIC_H */
