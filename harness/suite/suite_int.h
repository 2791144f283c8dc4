/* suite_int.h - what the files of the suite loader share; not for other layers. */
#ifndef QQB_SUITE_INT_H
#define QQB_SUITE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "strmap.h"
#include "suite.h"
#include "yamlcur.h"

/* Beyond this a suite is a mistake (a runaway params product), not a plan. */
#define MAX_CASES 1000000

enum {
    T_SUITE,
    T_DESCRIPTION,
    T_DEFAULTS,
    T_BENCHMARKS,
    T_MAX_NODES,
    T_THRESHOLD_BOUND,
    T_BUILD,
    T_RUN_FIGURE,
    NTOP
};
/* The top level's fields, a benchmark's (its own, then the settings). */
extern const char *const qqb__suite_top_fields[NTOP];

enum {
    S_REPETITIONS,
    S_WARMUP,
    S_TIMEOUT,
    S_THRESHOLD,
    S_NOISE_MULTIPLE,
    S_CONFIDENCE,
    S_MEMORY_TOLERANCE,
    S_LAUNCHER,
    S_EVENTS,
    S_ALLOW_DROPPED,
    S_FAIL_ON_BLIND,
    S_THRESHOLD_INSTR,
    S_GATE,
    S_METRIC,
    S_CACHE_SIM,
    NSET
};

enum {
    B_NAME,
    B_KERNEL,
    B_ARGS,
    B_NODES,
    B_VARIANTS,
    B_PARAMS,
    B_KEYS,
    B_BASELINE_KEYS,
    B_MODEL,
    NBOWN,
    NBENCH = NBOWN + NSET
};
extern const char *const qqb__suite_bench_fields[NBENCH];
#define SET_FIELDS (qqb__suite_bench_fields + NBOWN)
/* qqb__suite_setting() sets bit 1 << S_x for field S_x. */
_Static_assert(QQB_SET_REPETITIONS == 1u << S_REPETITIONS &&
                   QQB_SET_CONFIDENCE == 1u << S_CONFIDENCE && QQB_SET_EVENTS == 1u << S_EVENTS &&
                   QQB_SET_ALLOW_DROPPED == 1u << S_ALLOW_DROPPED &&
                   QQB_SET_FAIL_ON_BLIND == 1u << S_FAIL_ON_BLIND &&
                   QQB_SET_THRESHOLD_INSTR == 1u << S_THRESHOLD_INSTR &&
                   QQB_SET_GATE == 1u << S_GATE && QQB_SET_METRIC == 1u << S_METRIC &&
                   QQB_SET_CACHE_SIM == 1u << S_CACHE_SIM,
               "QQB_SET_* bits follow the settings' order");

/* ======================================================================
 * The cursor: the current event, its position, the first error.
 * ====================================================================== */

struct pos {
    int line, col; /* 1-based */
};

/* A string that may hold "{param}" placeholders, and where it was written;
 * checked once the whole benchmark (its params) is known. */
struct ref {
    const char *s;
    struct pos p;
};

struct cur {
    struct qqb_ycur y; /* the file, the current event, the first error */
    char *shown_dir;   /* the suite's directory as the user wrote it */
    const char *kernel_dir;
    int no_kernels;   /* 1: kernels are not looked for (qqb_suite_parse) */
    struct ref *refs; /* this benchmark's args and variant args */
    size_t nrefs;
    struct qqb_strmap names; /* benchmark name -> index */
};

static inline struct pos here(const struct cur *c)
{
    struct pos p = {qqb_ycur_line(&c->y), qqb_ycur_col(&c->y)};
    return p;
}

static inline int fail(struct cur *c, struct pos p, const char *fmt, ...) QQB_PRINTF_LIKE(3, 4);
static inline int fail(struct cur *c, struct pos p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_ycur_vfail_at(&c->y, p.line, p.col, fmt, ap);
    va_end(ap);
    return -1;
}

static inline int oom(struct cur *c)
{
    return fail(c, here(c), "out of memory");
}

static inline const char *scalar(const struct cur *c)
{
    return (const char *)c->y.ev.data.scalar.value;
}

/* A scalar usable as a C string (no NUL inside); empty only if ALLOW_EMPTY. */
static inline int check_string(struct cur *c, const char *what, const char *where, int allow_empty)
{
    if (c->y.ev.type != YAML_SCALAR_EVENT || (!allow_empty && c->y.ev.data.scalar.length == 0))
        return qqb_ycur_expected(&c->y, what, where);
    if (strlen(scalar(c)) != c->y.ev.data.scalar.length)
        return fail(c, here(c),
                    "expected %s %s, got a string holding a NUL "
                    "character",
                    what, where);
    return 0;
}

static inline int expect_scalar(struct cur *c, const char *what, const char *where, int allow_empty)
{
    if (qqb_ycur_next(&c->y))
        return -1;
    return check_string(c, what, where, allow_empty);
}

/* ======================================================================
 * Small helpers: strings, names (suite_text.c has the rest).
 * ====================================================================== */

static inline char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static inline char *sdup(const char *s)
{
    return dupn(s, strlen(s));
}

static inline int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* ASCII only, whatever the locale: names end up in file names and argv. */
static inline int is_alpha(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static inline int is_alnum(char ch)
{
    return is_alpha(ch) || (ch >= '0' && ch <= '9');
}

static inline int is_ident_start(char ch)
{
    return is_alpha(ch) || ch == '_';
}

static inline int is_ident(char ch)
{
    return is_alnum(ch) || ch == '_';
}

static inline int name_is(const char *name, const char *s, size_t n)
{
    return strlen(name) == n && memcmp(name, s, n) == 0;
}

/* Grow *V (elements of SIZE bytes, *N used) by one zeroed element; NULL
 * when out of memory (V then still valid). */
void *qqb__suite_push(void *v, size_t *n, size_t size);
/* Append a copy of the LEN bytes at S to the string array *V, *N. 0 or -1. */
int qqb__suite_push_str(char ***v, size_t *n, const char *s, size_t len);
void qqb__suite_free_strs(char **v, size_t n);
/* The names rule's plain names (names.h): suite, benchmark, variant. */
int qqb__suite_valid_name(const char *s);
/* A C identifier: a parameter's name. */
int qqb__suite_valid_ident(const char *s);
/* The next placeholder "{ident}" in S: returns its '{' and the identifier's
 * length in *LEN, or NULL. Braces around anything else are plain text. */
const char *qqb__suite_placeholder(const char *s, size_t *len);
/* S with "{nodes}" and, when B is given, each "{param}" replaced by its
 * value at POINT. Other placeholders stay as they are. NULL: out of memory. */
char *qqb__suite_expand(const char *s, const struct qqb_bench *b, const size_t *point, int nodes);

/* PATH's directory as written: "." when PATH has no slash. NULL: out of memory. */
char *qqb__suite_dir_of(const char *path);
/* The kernel K of a benchmark (a bare name under KERNEL_DIR, or a path
 * relative to SHOWN_DIR, the suite's directory) checked and resolved into
 * *PATH (absolute, malloc'd). 0, or -1 with the reason in WHY. */
int qqb__suite_kernel(const char *k, const char *shown_dir, const char *kernel_dir, char **path,
                      char *why, size_t whylen);

/* Values (suite_value.c): the current scalar as an integer in [MIN, MAX],
 * or a finite number in the range LO (LO_OPEN: excluded) to HI; WHAT and
 * WHERE for messages. */
int qqb__suite_to_int(struct cur *c, long long min, long long max, const char *what,
                      const char *where, long long *out);
int qqb__suite_to_num(struct cur *c, double lo, int lo_open, double hi, const char *what,
                      const char *where, double *out);
/* The value of settings field F (an S_x) into S. */
int qqb__suite_setting(struct cur *c, int f, struct qqb_settings *s);
/* The current event is a mapping key: find it in FIELDS (N of them), reject
 * duplicates (SEEN holds first positions) and unknown names. WHERE says
 * which mapping ("in defaults"). Returns the field's index or -1. */
int qqb__suite_field(struct cur *c, const char *const *fields, size_t n, struct pos *seen,
                     const char *where);
/* The benchmark mapping whose MAPPING_START is the current event, as
 * S->bench[BI] (suite_bench.c). */
int qqb__suite_bench(struct cur *c, struct qqb_suite *s, size_t bi);

#endif /* QQB_SUITE_INT_H */
