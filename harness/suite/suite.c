/* suite.c - load suite files (docs/SUITE.md) with libyaml's event API. */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "suite.h"

#include "names.h"
#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "nearest.h"
#include "strbuf.h"
#include "strmap.h"
#include "yamlcur.h"

/* Beyond this a suite is a mistake (a runaway params product), not a plan. */
#define MAX_CASES     1000000
/* Suite files are small; this only stops reading a device by accident. */
#define MAX_FILE_SIZE (64u << 20)

/* ======================================================================
 * Field tables. A benchmark's fields are its own, then the settings.
 * ====================================================================== */

enum { T_SUITE, T_DESCRIPTION, T_DEFAULTS, T_BENCHMARKS, T_MAX_NODES, T_THRESHOLD_BOUND, NTOP };
static const char *const top_fields[NTOP] = {"suite",      "description", "defaults",
                                             "benchmarks", "max_nodes",   "threshold_bound"};

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
static const char *const bench_fields[NBENCH] = {
    "name",      "kernel",         "args",         "nodes",
    "variants",  "params",         "keys",         "baseline_keys",
    "model",     "repetitions",    "warmup",       "timeout",
    "threshold", "noise_multiple", "confidence",   "memory_tolerance",
    "launcher",  "events",         "allow_dropped"};
static const char *const *const set_fields = bench_fields + NBOWN;
/* parse_setting() sets bit 1 << S_x for field S_x. */
_Static_assert(QQB_SET_REPETITIONS == 1u << S_REPETITIONS &&
                   QQB_SET_CONFIDENCE == 1u << S_CONFIDENCE && QQB_SET_EVENTS == 1u << S_EVENTS &&
                   QQB_SET_ALLOW_DROPPED == 1u << S_ALLOW_DROPPED,
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
    struct ref *refs; /* this benchmark's args and variant args */
    size_t nrefs;
    struct qqb_strmap names; /* benchmark name -> index */
};

static struct pos here(const struct cur *c)
{
    struct pos p = {qqb_ycur_line(&c->y), qqb_ycur_col(&c->y)};
    return p;
}

static int fail(struct cur *c, struct pos p, const char *fmt, ...) QQB_PRINTF_LIKE(3, 4);
static int fail(struct cur *c, struct pos p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_ycur_vfail_at(&c->y, p.line, p.col, fmt, ap);
    va_end(ap);
    return -1;
}

static int oom(struct cur *c)
{
    return fail(c, here(c), "out of memory");
}

static const char *scalar(const struct cur *c)
{
    return (const char *)c->y.ev.data.scalar.value;
}

/* "expected WHAT WHERE, got <current event>" */
static int mismatch(struct cur *c, const char *what, const char *where)
{
    struct qqb_qbuf b;
    return fail(c, here(c), "expected %s %s, got %s", what, where, qqb_ycur_got(&b, &c->y));
}

/* Advance to the next event; reject what the format does not allow. */
static int next(struct cur *c)
{
    return qqb_ycur_next(&c->y);
}

/* Next event, which must be of TYPE; WHAT and WHERE say what was wanted. */
static int expect(struct cur *c, yaml_event_type_t type, const char *what, const char *where)
{
    if (next(c))
        return -1;
    if (c->y.ev.type != type)
        return mismatch(c, what, where);
    return 0;
}

/* A scalar usable as a C string (no NUL inside); empty only if ALLOW_EMPTY. */
static int check_string(struct cur *c, const char *what, const char *where, int allow_empty)
{
    if (c->y.ev.type != YAML_SCALAR_EVENT || (!allow_empty && c->y.ev.data.scalar.length == 0))
        return mismatch(c, what, where);
    if (strlen(scalar(c)) != c->y.ev.data.scalar.length)
        return fail(c, here(c),
                    "expected %s %s, got a string holding a NUL "
                    "character",
                    what, where);
    return 0;
}

static int expect_scalar(struct cur *c, const char *what, const char *where, int allow_empty)
{
    if (next(c))
        return -1;
    return check_string(c, what, where, allow_empty);
}

/* ======================================================================
 * Small helpers: strings, arrays, names.
 * ====================================================================== */

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static char *sdup(const char *s)
{
    return dupn(s, strlen(s));
}

/* Grow *V (elements of SIZE bytes, *N used) by one zeroed element. The
 * capacity doubles: room is made when *N is 0 or a power of two, so an
 * array that only push grows always has room up to the next power of two
 * (growing by one each time copies the array each time: quadratic). */
static void *push(void *v, size_t *n, size_t size)
{
    char *p = v;
    if ((*n & (*n - 1)) == 0) {
        size_t cap = *n ? 2 * *n : 1;
        if (cap > SIZE_MAX / size)
            return NULL;
        p = realloc(v, cap * size);
        if (!p)
            return NULL;
    }
    memset(p + *n * size, 0, size);
    (*n)++;
    return p;
}

static int push_str(char ***v, size_t *n, const char *s, size_t len)
{
    char *d = dupn(s, len);
    char **nv;
    size_t m = *n;
    if (!d)
        return -1;
    nv = push(*v, &m, sizeof *nv);
    if (!nv) {
        free(d);
        return -1;
    }
    nv[m - 1] = d;
    *v = nv;
    *n = m;
    return 0;
}

static void free_strs(char **v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* ASCII only, whatever the locale: names end up in file names and argv. */
static int is_alpha(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int is_alnum(char ch)
{
    return is_alpha(ch) || (ch >= '0' && ch <= '9');
}

/* The names rule's plain names (names.h): suite, benchmark, variant. */
static int valid_name(const char *s)
{
    char why[80];
    return qqb_name_check(QQB_NAME_PLAIN, s, why, sizeof why) == 0;
}

static int is_ident_start(char ch)
{
    return is_alpha(ch) || ch == '_';
}

static int is_ident(char ch)
{
    return is_alnum(ch) || ch == '_';
}

static int valid_ident(const char *s)
{
    if (!is_ident_start(*s))
        return 0;
    for (s++; *s; s++)
        if (!is_ident(*s))
            return 0;
    return 1;
}

/* The next placeholder "{ident}" in S: returns its '{' and the identifier's
 * length in *LEN, or NULL. Braces around anything else are plain text. */
static const char *placeholder(const char *s, size_t *len)
{
    for (; (s = strchr(s, '{')) != NULL; s++) {
        size_t n;
        if (!is_ident_start(s[1]))
            continue;
        for (n = 1; is_ident(s[1 + n]); n++)
            ;
        if (s[1 + n] == '}') {
            *len = n;
            return s;
        }
    }
    return NULL;
}

static int name_is(const char *name, const char *s, size_t n)
{
    return strlen(name) == n && memcmp(name, s, n) == 0;
}

/* ======================================================================
 * "{param}" / "{nodes}" substitution.
 * ====================================================================== */

static void sb_int(struct qqb_strbuf *b, long long v)
{
    qqb_strbuf_printf(b, "%lld", v);
}

/* S with "{nodes}" and, when B is given, each "{param}" replaced by its
 * value at POINT. Other placeholders stay as they are. */
static char *expand(const char *s, const struct qqb_bench *b, const size_t *point, int nodes)
{
    struct qqb_strbuf out = QQB_STRBUF_INIT;
    const char *p;
    size_t len, j;

    while ((p = placeholder(s, &len)) != NULL) {
        const char *name = p + 1, *val = NULL;
        char num[32];
        if (name_is("nodes", name, len)) {
            snprintf(num, sizeof num, "%d", nodes);
            val = num;
        }
        for (j = 0; b && !val && j < b->nparams; j++)
            if (name_is(b->params[j].name, name, len))
                val = b->params[j].values[point[j]];
        qqb_strbuf_add(&out, s, (size_t)(p - s));
        if (val)
            qqb_strbuf_str(&out, val);
        else
            qqb_strbuf_add(&out, p, len + 2);
        s = p + len + 2;
    }
    qqb_strbuf_str(&out, s);
    return qqb_strbuf_take(&out);
}

/* ======================================================================
 * Values.
 * ====================================================================== */

/* Numbers are plain scalars: "10" in quotes is a string, and saying so
 * beats "expected an integer, got '10'". */
static int quoted_number(struct cur *c, const char *what, const char *where)
{
    struct qqb_qbuf b;

    if (c->y.ev.type != YAML_SCALAR_EVENT || c->y.ev.data.scalar.length == 0)
        return mismatch(c, what, where);
    if (c->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return fail(c, here(c),
                    "expected %s %s, got the quoted string '%s' "
                    "(write numbers without quotes)",
                    what, where, qqb_qs(&b, scalar(c)));
    return 0;
}

/* An integer in [MIN, MAX] from the current scalar; WHAT/WHERE for errors. */
static int to_int(struct cur *c, long long min, long long max, const char *what, const char *where,
                  long long *out)
{
    const char *s;
    char *end;
    long long v;
    struct qqb_qbuf b;

    if (quoted_number(c, what, where))
        return -1;
    s = scalar(c);
    errno = 0;
    v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || isspace((unsigned char)*s))
        return mismatch(c, what, where);
    if ((errno == ERANGE && v > 0) || v > max)
        return fail(c, here(c), "expected %s %s, got '%s' (too large)", what, where, qqb_qs(&b, s));
    if (errno == ERANGE || v < min)
        return mismatch(c, what, where);
    *out = v;
    return 0;
}

/* A finite number in the range the flags say; WHAT/WHERE for errors. */
static int to_num(struct cur *c, double lo, int lo_open, double hi, const char *what,
                  const char *where, double *out)
{
    const char *s;
    char *end;
    double v;

    if (quoted_number(c, what, where))
        return -1;
    s = scalar(c);
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || isspace((unsigned char)*s) || errno == ERANGE || !isfinite(v) ||
        v < lo || (lo_open && v == lo) || v > hi)
        return mismatch(c, what, where);
    *out = v;
    return 0;
}

/* Check a launcher template: some words, no placeholder but {nodes}. */
static int check_launcher(struct cur *c, const char *s)
{
    const char *p, *q = s;
    size_t len;
    struct qqb_qbuf b;

    while (is_blank(*q))
        q++;
    if (!*q)
        return fail(c, here(c),
                    "expected a command template for 'launcher', got a "
                    "blank string");
    while ((p = placeholder(s, &len)) != NULL) {
        if (!name_is("nodes", p + 1, len)) {
            char t[sizeof b.s];
            snprintf(t, sizeof t, "%.*s", (int)(len < 80 ? len : 80), p + 1);
            return fail(c, here(c),
                        "unknown placeholder '{%s}' in 'launcher'; only "
                        "'{nodes}' is substituted",
                        qqb_qs(&b, t));
        }
        s = p + len + 2;
    }
    return 0;
}

/* The value of settings field F into S. */
static int parse_setting(struct cur *c, int f, struct qqb_settings *s)
{
    char where[64];
    long long v = 0;

    snprintf(where, sizeof where, "for '%s'", set_fields[f]);
    if (next(c))
        return -1;
    switch (f) {
    case S_REPETITIONS:
        if (to_int(c, 2, INT_MAX, "an integer >= 2", where, &v))
            return -1;
        s->repetitions = (int)v;
        break;
    case S_WARMUP:
        if (to_int(c, 0, INT_MAX, "an integer >= 0", where, &v))
            return -1;
        s->warmup = (int)v;
        break;
    case S_TIMEOUT:
        if (to_num(c, 0, 1, HUGE_VAL, "a number of seconds > 0", where, &s->timeout))
            return -1;
        break;
    case S_THRESHOLD:
        if (to_num(c, 0, 1, HUGE_VAL, "a percentage > 0", where, &s->threshold))
            return -1;
        break;
    case S_NOISE_MULTIPLE:
        if (to_num(c, 0, 0, HUGE_VAL, "a number >= 0", where, &s->noise_multiple))
            return -1;
        break;
    case S_CONFIDENCE:
        if (to_num(c, 0.5, 0, 0.999, "a number from 0.5 to 0.999", where, &s->confidence))
            return -1;
        break;
    case S_MEMORY_TOLERANCE:
        if (to_int(c, 0, INT64_MAX, "a number of bytes >= 0", where, &v))
            return -1;
        s->memory_tolerance = v;
        break;
    case S_LAUNCHER:
        if (check_string(c, "a command template", where, 0) || check_launcher(c, scalar(c)))
            return -1;
        free(s->launcher);
        if (!(s->launcher = sdup(scalar(c))))
            return oom(c);
        break;
    case S_EVENTS:
        if (to_int(c, 1, INT64_MAX, "an integer > 0", where, &v))
            return -1;
        s->events = v;
        break;
    case S_ALLOW_DROPPED:
        /* YAML 1.2's core booleans, plain. */
        if (c->y.ev.type != YAML_SCALAR_EVENT ||
            c->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
            (strcmp(scalar(c), "true") && strcmp(scalar(c), "false")))
            return mismatch(c, "true or false", where);
        s->allow_dropped = !strcmp(scalar(c), "true");
        break;
    }
    s->set |= 1u << f;
    return 0;
}

/* ======================================================================
 * Mapping keys.
 * ====================================================================== */

static int in_list(const char *w, const char *const *list, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(w, list[i]) == 0)
            return 1;
    return 0;
}

/*
 * The current event is a mapping key: find it in FIELDS (N of them), reject
 * duplicates (SEEN holds first positions) and unknown names. WHERE says
 * which mapping ("in defaults"). Returns the field's index or -1.
 */
static int field(struct cur *c, const char *const *fields, size_t n, struct pos *seen,
                 const char *where)
{
    const char *k, *near;
    struct qqb_qbuf b;
    size_t i;

    if (c->y.ev.type != YAML_SCALAR_EVENT)
        return mismatch(c, "a field name", where);
    k = scalar(c);
    for (i = 0; i < n; i++) {
        if (strcmp(k, fields[i]) != 0)
            continue;
        if (seen[i].line)
            return fail(c, here(c),
                        "duplicate field '%s' %s (first given at line %d, "
                        "column %d)",
                        fields[i], where, seen[i].line, seen[i].col);
        seen[i] = here(c);
        return (int)i;
    }
    /* A field of another level is a misplacement, not a typo. */
    if (fields == top_fields && in_list(k, set_fields, NSET))
        return fail(c, here(c),
                    "unknown field '%s' %s; settings go under 'defaults:' "
                    "or in a benchmark",
                    qqb_qs(&b, k), where);
    if (fields == top_fields && in_list(k, bench_fields, NBOWN))
        return fail(c, here(c),
                    "unknown field '%s' %s; benchmark fields go in a list "
                    "item under 'benchmarks:'",
                    qqb_qs(&b, k), where);
    if (fields == set_fields && in_list(k, bench_fields, NBOWN))
        return fail(c, here(c),
                    "unknown field '%s' %s; it is a benchmark field and "
                    "cannot have a default",
                    qqb_qs(&b, k), where);
    near = qqb_nearest(k, fields, n);
    if (near)
        return fail(c, here(c), "unknown field '%s' %s; did you mean '%s'?", qqb_qs(&b, k), where,
                    near);
    {
        struct qqb_strbuf all = QQB_STRBUF_INIT;
        int rc;
        for (i = 0; i < n; i++) {
            qqb_strbuf_str(&all, i ? ", " : "");
            qqb_strbuf_str(&all, fields[i]);
        }
        if (qqb_strbuf_failed(&all)) {
            qqb_strbuf_free(&all);
            return oom(c);
        }
        rc = fail(c, here(c), "unknown field '%s' %s; expected one of: %s", qqb_qs(&b, k), where,
                  qqb_strbuf_str_of(&all));
        qqb_strbuf_free(&all);
        return rc;
    }
}

/* ======================================================================
 * Benchmark parts.
 * ====================================================================== */

static int add_ref(struct cur *c, const char *s, struct pos p)
{
    size_t n = c->nrefs;
    struct ref *r = push(c->refs, &n, sizeof *r);
    if (!r)
        return oom(c);
    r[n - 1].s = s;
    r[n - 1].p = p;
    c->refs = r;
    c->nrefs = n;
    return 0;
}

/*
 * A list of strings, or one string split on blanks, into *V and *N; each string
 * is remembered for placeholder checks. LABEL names the list in messages
 * ("'args'", "variant 'pow'").
 */
static int parse_args(struct cur *c, char ***v, size_t *n, const char *label)
{
    char what[160], where[160];
    size_t first = *n, i;

    snprintf(where, sizeof where, "for %s", label);
    if (next(c))
        return -1;
    if (c->y.ev.type == YAML_SCALAR_EVENT) {
        const char *s = scalar(c), *e;
        if (check_string(c, "a list of strings (or a string)", where, 1))
            return -1;
        for (;;) {
            while (is_blank(*s))
                s++;
            if (!*s)
                break;
            for (e = s; *e && !is_blank(*e); e++)
                ;
            if (push_str(v, n, s, (size_t)(e - s)))
                return oom(c);
            s = e;
        }
    } else if (c->y.ev.type == YAML_SEQUENCE_START_EVENT) {
        snprintf(what, sizeof what, "in %s", label);
        for (;;) {
            if (next(c))
                return -1;
            if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
                break;
            if (check_string(c, "a string", what, 1))
                return -1;
            if (push_str(v, n, scalar(c), c->y.ev.data.scalar.length))
                return oom(c);
            if (add_ref(c, (*v)[*n - 1], here(c)))
                return -1;
        }
        return 0;
    } else {
        return mismatch(c, "a list of strings (or a string)", where);
    }
    for (i = first; i < *n; i++)
        if (add_ref(c, (*v)[i], here(c)))
            return -1;
    return 0;
}

/* Remember the largest node count and where it is, for the bound that
 * 'max_nodes:' (which may come later in the file) sets. */
static void note_largest(const struct cur *c, struct qqb_bench *b, int v)
{
    if (v > b->max_node) {
        b->max_node = v;
        b->max_node_line = here(c).line;
        b->max_node_col = here(c).col;
    }
}

static int parse_nodes(struct cur *c, struct qqb_bench *b)
{
    const char *what = "an integer >= 1", *where = "in 'nodes'";
    struct qqb_strmap seen = {0};
    struct pos start;
    long long v;
    int *nn, added, rc = -1;
    char num[24];

    if (next(c))
        return -1;
    start = here(c);
    if (c->y.ev.type == YAML_SCALAR_EVENT) {
        if (to_int(c, 1, INT_MAX, what, "for 'nodes'", &v))
            return -1;
        if (!(b->nodes = malloc(sizeof *b->nodes)))
            return oom(c);
        b->nodes[0] = (int)v;
        b->nnodes = 1;
        note_largest(c, b, (int)v);
        return 0;
    }
    if (c->y.ev.type != YAML_SEQUENCE_START_EVENT)
        return mismatch(c, "a list of integers", "for 'nodes'");
    for (;;) {
        if (next(c))
            goto out;
        if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (to_int(c, 1, INT_MAX, what, where, &v))
            goto out;
        snprintf(num, sizeof num, "%lld", v);
        if ((added = qqb_strmap_add(&seen, 0, num, b->nnodes, NULL)) <= 0) {
            if (added < 0)
                oom(c);
            else
                fail(c, here(c), "duplicate node count %lld in 'nodes'", v);
            goto out;
        }
        if (!(nn = push(b->nodes, &b->nnodes, sizeof *nn))) {
            oom(c);
            goto out;
        }
        b->nodes = nn;
        nn[b->nnodes - 1] = (int)v;
        note_largest(c, b, (int)v);
    }
    if (b->nnodes == 0)
        fail(c, start,
             "expected a non-empty list of integers for "
             "'nodes', got an empty list");
    else
        rc = 0;
out:
    qqb_strmap_free(&seen);
    return rc;
}

/* keys, baseline_keys: a non-empty list of distinct names, or one name;
 * SEEN holds the names so far. */
static int parse_keys_in(struct cur *c, const char *field, char ***list, size_t *n,
                         struct qqb_strmap *seen)
{
    struct qqb_qbuf q;
    struct pos start;
    int added;
    char where[64], in[64];

    snprintf(where, sizeof where, "for '%s'", field);
    snprintf(in, sizeof in, "in '%s'", field);
    if (next(c))
        return -1;
    start = here(c);
    if (c->y.ev.type == YAML_SCALAR_EVENT) {
        if (check_string(c, "a list of key names", where, 0))
            return -1;
        if (push_str(list, n, scalar(c), strlen(scalar(c))))
            return oom(c);
        return 0;
    }
    if (c->y.ev.type != YAML_SEQUENCE_START_EVENT)
        return mismatch(c, "a list of key names", where);
    for (;;) {
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (check_string(c, "a key name", in, 0))
            return -1;
        if ((added = qqb_strmap_add(seen, 0, scalar(c), *n, NULL)) < 0)
            return oom(c);
        if (!added)
            return fail(c, here(c), "duplicate key '%s' in '%s'", qqb_qs(&q, scalar(c)), field);
        if (push_str(list, n, scalar(c), strlen(scalar(c))))
            return oom(c);
    }
    if (*n == 0)
        return fail(c, start,
                    "expected a non-empty list of key names for "
                    "'%s', got an empty list (leave '%s' out for every key)",
                    field, field);
    return 0;
}

static int parse_keys(struct cur *c, const char *field, char ***list, size_t *n)
{
    struct qqb_strmap seen = {0};
    int rc = parse_keys_in(c, field, list, n, &seen);
    qqb_strmap_free(&seen);
    return rc;
}

static int parse_variants_in(struct cur *c, struct qqb_bench *b, struct qqb_strmap *seen)
{
    struct pos start;
    struct qqb_qbuf q;
    size_t i;
    int added;

    if (expect(c, YAML_MAPPING_START_EVENT, "a mapping of variant names to arguments",
               "for 'variants'"))
        return -1;
    start = here(c);
    for (;;) {
        struct qqb_variant *v;
        char label[160];
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (check_string(c, "a variant name", "in 'variants'", 0))
            return -1;
        if (!valid_name(scalar(c)))
            return fail(c, here(c),
                        "invalid variant name '%s'; expected letters, "
                        "digits, '_', '.' or '-'",
                        qqb_qs(&q, scalar(c)));
        if ((added = qqb_strmap_add(seen, 0, scalar(c), b->nvariants, &i)) < 0)
            return oom(c);
        /* A name in the map has its variant. */
        // NOLINTBEGIN(clang-analyzer-core.NullDereference)
        if (!added)
            return fail(c, here(c),
                        "duplicate variant '%s' (first given at line "
                        "%d, column %d)",
                        qqb_qs(&q, scalar(c)), b->variants[i].line, b->variants[i].col);
        // NOLINTEND(clang-analyzer-core.NullDereference)
        if (!(v = push(b->variants, &b->nvariants, sizeof *v)))
            return oom(c);
        b->variants = v;
        v += b->nvariants - 1;
        v->line = here(c).line;
        v->col = here(c).col;
        if (!(v->name = sdup(scalar(c))))
            return oom(c);
        snprintf(label, sizeof label, "variant '%s'", qqb_qs(&q, v->name));
        if (parse_args(c, &v->args, &v->nargs, label))
            return -1;
    }
    if (b->nvariants == 0)
        return fail(c, start,
                    "expected a non-empty mapping of variant names "
                    "to arguments for 'variants', got an empty mapping");
    return 0;
}

static int parse_variants(struct cur *c, struct qqb_bench *b)
{
    struct qqb_strmap seen = {0};
    int rc = parse_variants_in(c, b, &seen);
    qqb_strmap_free(&seen);
    return rc;
}

/* SEEN holds (0, name) of each parameter and (i + 1, value) of the values of
 * parameter i. */
static int parse_params_in(struct cur *c, struct qqb_bench *b, struct qqb_strmap *seen)
{
    struct pos start;
    struct qqb_qbuf q, q2;
    size_t i;
    int added;

    if (expect(c, YAML_MAPPING_START_EVENT, "a mapping of parameter names to lists of values",
               "for 'params'"))
        return -1;
    start = here(c);
    for (;;) {
        struct qqb_param *p;
        struct pos list;
        char where[160];
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (check_string(c, "a parameter name", "in 'params'", 0))
            return -1;
        if (!valid_ident(scalar(c)))
            return fail(c, here(c),
                        "invalid parameter name '%s'; expected a letter or "
                        "'_', then letters, digits or '_'",
                        qqb_qs(&q, scalar(c)));
        if (strcmp(scalar(c), "nodes") == 0)
            return fail(c, here(c),
                        "'nodes' cannot be a parameter name: "
                        "'{nodes}' is the node count; use 'nodes:' for it");
        if ((added = qqb_strmap_add(seen, 0, scalar(c), b->nparams, &i)) < 0)
            return oom(c);
        /* A name in the map has its parameter. */
        // NOLINTBEGIN(clang-analyzer-core.NullDereference)
        if (!added)
            return fail(c, here(c),
                        "duplicate parameter '%s' (first given at line "
                        "%d, column %d)",
                        qqb_qs(&q, scalar(c)), b->params[i].line, b->params[i].col);
        // NOLINTEND(clang-analyzer-core.NullDereference)
        if (!(p = push(b->params, &b->nparams, sizeof *p)))
            return oom(c);
        b->params = p;
        p += b->nparams - 1;
        p->line = here(c).line;
        p->col = here(c).col;
        if (!(p->name = sdup(scalar(c))))
            return oom(c);
        snprintf(where, sizeof where, "for parameter '%s'", qqb_qs(&q, p->name));
        if (expect(c, YAML_SEQUENCE_START_EVENT, "a non-empty list of values", where))
            return -1;
        list = here(c);
        snprintf(where, sizeof where, "in parameter '%s'", qqb_qs(&q, p->name));
        for (;;) {
            if (next(c))
                return -1;
            if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
                break;
            if (check_string(c, "a non-empty value", where, 0))
                return -1;
            if (p->nvalues >= MAX_CASES)
                return fail(c, here(c), "parameter '%s' has more than %d values",
                            qqb_qs(&q, p->name), MAX_CASES);
            if ((added = qqb_strmap_add(seen, (uint32_t)b->nparams, scalar(c), p->nvalues, NULL)) <
                0)
                return oom(c);
            if (!added)
                return fail(c, here(c), "duplicate value '%s' in parameter '%s'",
                            qqb_qs(&q, scalar(c)), qqb_qs(&q2, p->name));
            if (push_str(&p->values, &p->nvalues, scalar(c), c->y.ev.data.scalar.length))
                return oom(c);
        }
        if (p->nvalues == 0)
            return fail(c, list,
                        "expected a non-empty list of values for "
                        "parameter '%s', got an empty list",
                        qqb_qs(&q, p->name));
    }
    if (b->nparams == 0)
        return fail(c, start,
                    "expected a non-empty mapping of parameter "
                    "names to lists of values for 'params', got an empty "
                    "mapping");
    return 0;
}

static int parse_params(struct cur *c, struct qqb_bench *b)
{
    struct qqb_strmap seen = {0};
    int rc = parse_params_in(c, b, &seen);
    qqb_strmap_free(&seen);
    return rc;
}

/* DIR/NAME, or NAME alone when DIR is "." or NULL. */
static char *join(const char *dir, const char *name)
{
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    if (dir && strcmp(dir, ".") != 0) {
        qqb_strbuf_str(&b, dir);
        if (b.n && b.s[b.n - 1] != '/')
            qqb_strbuf_str(&b, "/");
    }
    qqb_strbuf_str(&b, name);
    return qqb_strbuf_take(&b);
}

/* PATH's directory as written: "." when PATH has no slash. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return sdup(".");
    if (slash == path)
        return sdup("/");
    return dupn(path, (size_t)(slash - path));
}

/* An absolute PATH: its directory resolved by realpath, its last component
 * kept (a program may care under which name it runs). */
static char *absolute(const char *path)
{
    char *dir = dir_of(path), *real = NULL, *out = NULL;
    const char *slash = strrchr(path, '/');
    if (dir && (real = realpath(dir, NULL)) != NULL)
        out = join(strcmp(real, "/") == 0 ? "/" : real, slash ? slash + 1 : path);
    free(real);
    free(dir);
    return out;
}

/* Resolve B->kernel into B->kernel_path; the current event is its value. */
static int resolve_kernel(struct cur *c, struct qqb_bench *b)
{
    const char *k = b->kernel;
    char *full, shown[1300];
    struct qqb_qbuf q, q2;
    struct qqb_qpath qp;
    struct stat st;
    int rc = 0;

    if (strchr(k, '/')) {
        full = k[0] == '/' ? sdup(k) : join(c->shown_dir, k);
    } else if (!c->kernel_dir) {
        return fail(c, here(c),
                    "kernel '%s' is a bare name but no kernel directory is "
                    "known; write a path such as './%s'",
                    qqb_qs(&q, k), qqb_qs(&q2, k));
    } else {
        full = join(c->kernel_dir, k);
    }
    if (!full)
        return oom(c);
    if (strcmp(full, k) == 0)
        snprintf(shown, sizeof shown, "'%s'", qqb_qs(&q, k));
    else
        snprintf(shown, sizeof shown, "'%s' (%s)", qqb_qs(&q, k), qqb_qp(&qp, full));
    if (stat(full, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            rc = fail(c, here(c),
                      "kernel %s does not exist; expected an "
                      "executable program",
                      shown);
        else
            rc = fail(c, here(c), "kernel %s cannot be accessed: %s", shown, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        rc = fail(c, here(c),
                  "kernel %s is not a regular file; expected an "
                  "executable program",
                  shown);
    } else if (access(full, X_OK) != 0) {
        rc = fail(c, here(c), "kernel %s is not executable", shown);
    } else if (!(b->kernel_path = absolute(full))) {
        rc =
            fail(c, here(c), "kernel %s: cannot resolve its directory: %s", shown, strerror(errno));
    }
    free(full);
    return rc;
}

/* Every placeholder names a parameter (or {nodes}) and every parameter is
 * used: one pass over the references, parameters found by hash. */
static int check_placeholders_in(struct cur *c, struct qqb_bench *b, struct qqb_strmap *pnames,
                                 char *used)
{
    struct qqb_qbuf q, q2;
    const char *p, *near;
    size_t i, j, len, k = 0;

    for (j = 0; j < b->nparams; j++)
        if (qqb_strmap_add(pnames, 0, b->params[j].name, j, NULL) < 0)
            return oom(c);
    for (i = 0; i < c->nrefs; i++) {
        const char *s = c->refs[i].s;
        while ((p = placeholder(s, &len)) != NULL) {
            char *name = dupn(p + 1, len);
            int found;
            if (!name)
                return oom(c);
            found = name_is("nodes", p + 1, len) || qqb_strmap_get(pnames, 0, name, &k);
            if (found && !name_is("nodes", p + 1, len))
                used[k] = 1;
            if (!found) {
                const char *names[64];
                size_t nn = 0;
                int rc;
                names[nn++] = "nodes";
                for (j = 0; j < b->nparams && nn < 64; j++)
                    names[nn++] = b->params[j].name;
                near = qqb_nearest(name, names, nn);
                if (near)
                    rc = fail(c, c->refs[i].p,
                              "unknown placeholder '{%s}'; did you mean "
                              "'{%s}'?",
                              qqb_qs(&q, name), qqb_qs(&q2, near));
                else
                    rc = fail(c, c->refs[i].p,
                              "unknown placeholder '{%s}'; expected '{nodes}' "
                              "or a parameter from 'params'",
                              qqb_qs(&q, name));
                free(name);
                return rc;
            }
            free(name);
            s = p + len + 2;
        }
    }
    for (j = 0; j < b->nparams; j++) {
        if (!used[j]) {
            struct pos pp = {b->params[j].line, b->params[j].col};
            return fail(c, pp,
                        "parameter '%s' is not used; expected '{%s}' in "
                        "'args' or in a variant's arguments",
                        qqb_qs(&q, b->params[j].name), qqb_qs(&q2, b->params[j].name));
        }
    }
    return 0;
}

static int check_placeholders(struct cur *c, struct qqb_bench *b)
{
    struct qqb_strmap pnames = {0};
    char *used = calloc(b->nparams + 1, 1);
    int rc = used ? check_placeholders_in(c, b, &pnames, used) : oom(c);
    qqb_strmap_free(&pnames);
    free(used);
    return rc;
}

/* The column of the first whole word NAME in TEXT (1-based), or 1. */
static int word_col(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p++)
        if ((p == text || !is_ident(p[-1])) && !is_ident(p[n]))
            return (int)(p - text) + 1;
    return 1;
}

/* `model:` (docs/MODELS.md): a formula whose names are the benchmark's
 * parameters (numbers) or 'nodes', with at least as many points as terms. */
static int check_model(struct cur *c, struct qqb_bench *b)
{
    struct qqb_model m;
    struct qqb_qbuf q;
    char err[200];
    int col = 0;
    struct pos p = {b->model_line, b->model_col};
    if (qqb_model_parse(b->model, &m, err, sizeof err, &col) != 0) {
        const char *what = strchr(err, ':') ? strchr(err, ':') + 2 : err;
        p.col += col > 0 ? col - 1 : 0;
        return fail(c, p, "bad model: %s", what);
    }
    size_t points = 1;
    for (int i = 0; i < m.nparams; i++) {
        size_t j, k;
        struct pos at_name = {p.line, p.col + word_col(b->model, m.params[i]) - 1};
        if (strcmp(m.params[i], "nodes") == 0) {
            points *= b->nnodes;
            continue;
        }
        for (j = 0; j < b->nparams && strcmp(b->params[j].name, m.params[i]); j++)
            ;
        if (j == b->nparams) {
            const char *names[64], *near;
            size_t nn = 0;
            names[nn++] = "nodes";
            for (k = 0; k < b->nparams && nn < 64; k++)
                names[nn++] = b->params[k].name;
            near = qqb_nearest(m.params[i], names, nn);
            if (near)
                return fail(c, at_name,
                            "the model names '%s', which is no parameter; did you mean '%s'?",
                            qqb_qs(&q, m.params[i]), near);
            return fail(c, at_name,
                        "the model names '%s', which is no parameter; expected 'nodes' or a name "
                        "from 'params'",
                        qqb_qs(&q, m.params[i]));
        }
        for (k = 0; k < b->params[j].nvalues; k++) {
            char *end;
            errno = 0;
            double v = strtod(b->params[j].values[k], &end);
            if (end == b->params[j].values[k] || *end || errno || !isfinite(v)) {
                struct pos pp = {b->params[j].line, b->params[j].col};
                return fail(c, pp,
                            "parameter '%s' has the value '%s', not a number: the model uses it",
                            qqb_qs(&q, b->params[j].name), b->params[j].values[k]);
            }
        }
        points *= b->params[j].nvalues;
    }
    if (points < (size_t)m.nterms)
        return fail(c, p,
                    "the model has %d terms and the sweep %zu point%s: give each term a point "
                    "(more parameter values) or drop terms",
                    m.nterms, points, points == 1 ? "" : "s");
    return 0;
}

/* The benchmark mapping whose MAPPING_START is the current event. */
static int parse_bench(struct cur *c, struct qqb_suite *s, size_t bi)
{
    struct qqb_bench *b = &s->bench[bi];
    struct pos seen[NBENCH], start = here(c);
    struct qqb_qbuf q;
    char where[160];
    size_t i, ncases;
    int f, added;

    memset(seen, 0, sizeof seen);
    b->line = start.line;
    b->col = start.col;
    c->nrefs = 0;
    for (;;) {
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (b->name)
            snprintf(where, sizeof where, "in benchmark '%s'", qqb_qs(&q, b->name));
        else
            snprintf(where, sizeof where, "in benchmark #%zu", bi + 1);
        if ((f = field(c, bench_fields, NBENCH, seen, where)) < 0)
            return -1;
        switch (f) {
        case B_NAME:
            if (expect_scalar(c, "a benchmark name", "for 'name'", 0))
                return -1;
            if (!valid_name(scalar(c)))
                return fail(c, here(c),
                            "invalid benchmark name '%s'; expected letters, "
                            "digits, '_', '.' or '-'",
                            qqb_qs(&q, scalar(c)));
            if ((added = qqb_strmap_add(&c->names, 0, scalar(c), bi, &i)) < 0)
                return oom(c);
            if (!added)
                return fail(c, here(c),
                            "duplicate benchmark name '%s' (first used "
                            "at line %d, column %d)",
                            qqb_qs(&q, scalar(c)), s->bench[i].line, s->bench[i].col);
            if (!(b->name = sdup(scalar(c))))
                return oom(c);
            break;
        case B_KERNEL:
            if (expect_scalar(c, "a kernel name or path", "for 'kernel'", 0))
                return -1;
            if (!(b->kernel = sdup(scalar(c))))
                return oom(c);
            if (resolve_kernel(c, b))
                return -1;
            break;
        case B_ARGS:
            if (parse_args(c, &b->args, &b->nargs, "'args'"))
                return -1;
            break;
        case B_NODES:
            if (parse_nodes(c, b))
                return -1;
            break;
        case B_VARIANTS:
            if (parse_variants(c, b))
                return -1;
            break;
        case B_PARAMS:
            if (parse_params(c, b))
                return -1;
            break;
        case B_KEYS:
            b->keys_line = here(c).line;
            b->keys_col = here(c).col;
            if (parse_keys(c, "keys", &b->keys, &b->nkeys))
                return -1;
            break;
        case B_BASELINE_KEYS:
            if (parse_keys(c, "baseline_keys", &b->baseline_keys, &b->nbaseline_keys))
                return -1;
            break;
        case B_MODEL:
            if (expect_scalar(c, "a formula such as '1 + n + n^2'", "for 'model'", 0))
                return -1;
            b->model_line = here(c).line;
            /* the formula's first character: past the quote of a quoted scalar */
            b->model_col =
                here(c).col + (c->y.ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                               c->y.ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE);
            if (!(b->model = sdup(scalar(c))))
                return oom(c);
            break;
        default:
            if (parse_setting(c, f - NBOWN, &b->s))
                return -1;
            break;
        }
    }
    if (!b->name)
        return fail(c, start,
                    "missing required field 'name' in benchmark "
                    "#%zu",
                    bi + 1);
    if (!b->kernel)
        return fail(c, start,
                    "missing required field 'kernel' in "
                    "benchmark '%s'",
                    qqb_qs(&q, b->name));
    if (!b->nodes) {
        if (!(b->nodes = malloc(sizeof *b->nodes)))
            return oom(c);
        b->nodes[0] = 1;
        b->nnodes = 1;
    }
    if (check_placeholders(c, b))
        return -1;
    if (b->model && check_model(c, b))
        return -1;
    ncases = b->nnodes * (b->nvariants ? b->nvariants : 1);
    for (i = 0; i < b->nparams; i++) {
        if (ncases > MAX_CASES / b->params[i].nvalues) {
            ncases = MAX_CASES + 1;
            break;
        }
        ncases *= b->params[i].nvalues;
    }
    if (ncases > MAX_CASES)
        return fail(c, start,
                    "benchmark '%s' expands to more than %d cases "
                    "(params x nodes x variants)",
                    qqb_qs(&q, b->name), MAX_CASES);
    return 0;
}

static int parse_benchmarks(struct cur *c, struct qqb_suite *s)
{
    struct pos start;
    struct qqb_bench *nb;

    if (expect(c, YAML_SEQUENCE_START_EVENT, "a list of benchmarks", "for 'benchmarks'"))
        return -1;
    start = here(c);
    for (;;) {
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (c->y.ev.type != YAML_MAPPING_START_EVENT)
            return mismatch(c, "a mapping (one benchmark)", "in 'benchmarks'");
        if (!(nb = push(s->bench, &s->nbench, sizeof *nb)))
            return oom(c);
        s->bench = nb;
        if (parse_bench(c, s, s->nbench - 1))
            return -1;
    }
    if (s->nbench == 0)
        return fail(c, start,
                    "expected a non-empty list of benchmarks for "
                    "'benchmarks', got an empty list");
    return 0;
}

static int parse_defaults(struct cur *c, struct qqb_suite *s)
{
    struct pos seen[NSET];
    int f;

    memset(seen, 0, sizeof seen);
    if (expect(c, YAML_MAPPING_START_EVENT, "a mapping of settings", "for 'defaults'"))
        return -1;
    for (;;) {
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            return 0;
        if ((f = field(c, set_fields, NSET, seen, "in defaults")) < 0)
            return -1;
        if (parse_setting(c, f, &s->defaults))
            return -1;
    }
}

/* Every node count within the suite's bound: a runaway count (mpirun
 * -np 2147483647) eats the machine before it fails. */
static int check_max_nodes(struct cur *c, const struct qqb_suite *s, int given)
{
    size_t i;
    for (i = 0; i < s->nbench; i++) {
        const struct qqb_bench *b = &s->bench[i];
        struct pos p = {b->max_node_line, b->max_node_col};
        if (b->max_node <= s->max_nodes)
            continue;
        if (given)
            return fail(c, p, "%d nodes is more than the suite's 'max_nodes: %d'", b->max_node,
                        s->max_nodes);
        return fail(c, p,
                    "%d nodes is more than %d, the default maximum; "
                    "set 'max_nodes:' at the top level to allow it",
                    b->max_node, s->max_nodes);
    }
    return 0;
}

/* The top-level mapping whose MAPPING_START is the current event. */
static int parse_top(struct cur *c, struct qqb_suite *s)
{
    struct pos seen[NTOP], start = here(c);
    struct qqb_qbuf q;
    int f;

    memset(seen, 0, sizeof seen);
    for (;;) {
        if (next(c))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if ((f = field(c, top_fields, NTOP, seen, "at the top level")) < 0)
            return -1;
        switch (f) {
        case T_SUITE:
            if (expect_scalar(c, "a suite name", "for 'suite'", 0))
                return -1;
            if (!valid_name(scalar(c)))
                return fail(c, here(c),
                            "invalid suite name '%s'; expected letters, "
                            "digits, '_', '.' or '-'",
                            qqb_qs(&q, scalar(c)));
            if (!(s->name = sdup(scalar(c))))
                return oom(c);
            break;
        case T_DESCRIPTION:
            if (expect_scalar(c, "a string", "for 'description'", 1))
                return -1;
            if (!(s->description = sdup(scalar(c))))
                return oom(c);
            break;
        case T_DEFAULTS:
            if (parse_defaults(c, s))
                return -1;
            break;
        case T_BENCHMARKS:
            if (parse_benchmarks(c, s))
                return -1;
            break;
        case T_MAX_NODES: {
            long long v = 0;
            if (next(c) || to_int(c, 1, INT_MAX, "an integer >= 1", "for 'max_nodes'", &v))
                return -1;
            s->max_nodes = (int)v;
            break;
        }
        case T_THRESHOLD_BOUND:
            if (next(c) || to_num(c, 0, 1, 1e6, "a number > 0", "for 'threshold_bound'",
                                  &s->defaults.threshold_bound))
                return -1;
            break;
        }
    }
    if (!s->name)
        return fail(c, start,
                    "missing required field 'suite' at the top "
                    "level; expected a name such as 'suite: ci'");
    if (!s->nbench)
        return fail(c, start,
                    "missing required field 'benchmarks' at the "
                    "top level; expected a list of benchmarks");
    return check_max_nodes(c, s, seen[T_MAX_NODES].line != 0);
}

/* Settings the benchmark did not give come from the suite's defaults. */
static int merge(struct qqb_settings *b, const struct qqb_settings *d)
{
    unsigned own = b->set;
    if (!(own & QQB_SET_REPETITIONS))
        b->repetitions = d->repetitions;
    if (!(own & QQB_SET_WARMUP))
        b->warmup = d->warmup;
    if (!(own & QQB_SET_TIMEOUT))
        b->timeout = d->timeout;
    if (!(own & QQB_SET_THRESHOLD))
        b->threshold = d->threshold;
    if (!(own & QQB_SET_NOISE_MULTIPLE))
        b->noise_multiple = d->noise_multiple;
    b->threshold_bound = d->threshold_bound; /* the suite's, never a benchmark's */
    if (!(own & QQB_SET_CONFIDENCE))
        b->confidence = d->confidence;
    if (!(own & QQB_SET_MEMORY_TOLERANCE))
        b->memory_tolerance = d->memory_tolerance;
    if (!(own & QQB_SET_EVENTS))
        b->events = d->events;
    if (!(own & QQB_SET_ALLOW_DROPPED))
        b->allow_dropped = d->allow_dropped;
    if (!(own & QQB_SET_LAUNCHER) && !(b->launcher = sdup(d->launcher)))
        return -1;
    b->set |= d->set;
    return 0;
}

static void init_settings(struct qqb_settings *s)
{
    s->repetitions = QQB_DEFAULT_REPETITIONS;
    s->warmup = QQB_DEFAULT_WARMUP;
    s->timeout = QQB_DEFAULT_TIMEOUT;
    s->threshold = QQB_DEFAULT_THRESHOLD;
    s->noise_multiple = QQB_DEFAULT_NOISE_MULTIPLE;
    s->threshold_bound = QQB_DEFAULT_THRESHOLD_BOUND;
    s->confidence = QQB_DEFAULT_CONFIDENCE;
    s->memory_tolerance = QQB_DEFAULT_MEMORY_TOLERANCE;
    s->events = 0;
    s->set = 0;
}

int qqb_suite_load(const char *path, const char *kernel_dir, struct qqb_suite **out, char *err,
                   size_t errlen)
{
    struct cur c;
    struct qqb_suite *s = NULL;
    size_t i;
    char scratch[8];
    int rc = -1;

    if (!err || errlen == 0) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = '\0';
    if (out)
        *out = NULL;
    if (!path || !out) {
        snprintf(err, errlen, "error: no suite file given");
        return -1;
    }
    memset(&c, 0, sizeof c);
    c.kernel_dir = kernel_dir;
    if (qqb_ycur_open(&c.y, path, "suite file", MAX_FILE_SIZE, err, errlen))
        goto done;

    if (!(s = calloc(1, sizeof *s)) || !(s->path = sdup(path)) || !(c.shown_dir = dir_of(path))) {
        snprintf(err, errlen, "%s: error: out of memory", path);
        goto done;
    }
    init_settings(&s->defaults);
    s->max_nodes = QQB_DEFAULT_MAX_NODES;
    if (!(s->defaults.launcher = sdup(qqb_launcher_default()))) {
        snprintf(err, errlen, "%s: error: out of memory", path);
        goto done;
    }
    if (!(s->dir = realpath(c.shown_dir, NULL))) {
        snprintf(err, errlen,
                 "%s: error: cannot resolve the suite's "
                 "directory: %s",
                 path, strerror(errno));
        goto done;
    }

    if (next(&c)) /* STREAM-START */
        goto done;
    if (next(&c))
        goto done;
    if (c.y.ev.type == YAML_STREAM_END_EVENT) {
        struct pos start = {1, 1};
        fail(&c, start,
             "the file is empty; expected a mapping with 'suite' "
             "and 'benchmarks'");
        goto done;
    }
    if (next(&c)) /* after DOCUMENT-START: the document's root */
        goto done;
    if (c.y.ev.type != YAML_MAPPING_START_EVENT) {
        mismatch(&c, "a mapping with 'suite' and 'benchmarks'", "at the top level");
        goto done;
    }
    if (parse_top(&c, s))
        goto done;
    if (next(&c) || next(&c)) /* DOCUMENT-END, then STREAM-END */
        goto done;
    if (c.y.ev.type != YAML_STREAM_END_EVENT) {
        fail(&c, here(&c),
             "more than one document; a suite file holds "
             "exactly one suite");
        goto done;
    }
    for (i = 0; i < s->nbench; i++) {
        if (merge(&s->bench[i].s, &s->defaults)) {
            snprintf(err, errlen, "%s: error: out of memory", path);
            goto done;
        }
    }
    *out = s;
    s = NULL;
    rc = 0;
done:
    qqb_ycur_close(&c.y);
    qqb_strmap_free(&c.names);
    free(c.refs);
    free(c.shown_dir);
    qqb_suite_free(s);
    return rc;
}

static void free_settings(struct qqb_settings *s)
{
    free(s->launcher);
}

void qqb_suite_free(struct qqb_suite *s)
{
    size_t i, j;

    if (!s)
        return;
    for (i = 0; i < s->nbench; i++) {
        struct qqb_bench *b = &s->bench[i];
        free(b->name);
        free(b->kernel);
        free(b->kernel_path);
        free_strs(b->args, b->nargs);
        free(b->nodes);
        for (j = 0; j < b->nvariants; j++) {
            free(b->variants[j].name);
            free_strs(b->variants[j].args, b->variants[j].nargs);
        }
        free(b->variants);
        for (j = 0; j < b->nparams; j++) {
            free(b->params[j].name);
            free_strs(b->params[j].values, b->params[j].nvalues);
        }
        free(b->params);
        free_strs(b->keys, b->nkeys);
        free_strs(b->baseline_keys, b->nbaseline_keys);
        free(b->model);
        free_settings(&b->s);
    }
    free(s->bench);
    free_settings(&s->defaults);
    free(s->name);
    free(s->description);
    free(s->path);
    free(s->dir);
    free(s);
}

/* ======================================================================
 * Cases.
 * ====================================================================== */

size_t qqb_bench_ncases(const struct qqb_bench *b)
{
    size_t n, i;

    if (!b || b->nnodes == 0)
        return 0;
    n = b->nnodes * (b->nvariants ? b->nvariants : 1);
    for (i = 0; i < b->nparams; i++) {
        if (b->params[i].nvalues && n > SIZE_MAX / b->params[i].nvalues)
            return 0;
        n *= b->params[i].nvalues;
    }
    return n;
}

void qqb_case_free(struct qqb_case *c)
{
    if (!c)
        return;
    qqb_argv_free(c->argv);
    free(c->point);
    free((void *)c->values);
    free(c->name);
    memset(c, 0, sizeof *c);
}

int qqb_bench_case(const struct qqb_bench *b, size_t i, struct qqb_case *c)
{
    size_t rest = i, j, k, nv, argc = 0;
    struct qqb_strbuf name = QQB_STRBUF_INIT;
    char **argv = NULL;
    int bad = 0;

    if (!c)
        return -1;
    memset(c, 0, sizeof *c);
    if (!b || i >= qqb_bench_ncases(b))
        return -1;
    c->index = i;
    nv = b->nvariants ? b->nvariants : 1;
    c->variant = b->nvariants ? (int)(rest % nv) : -1;
    rest /= nv;
    c->nodes = b->nodes[rest % b->nnodes];
    rest /= b->nnodes;
    if (b->nparams) {
        c->point = calloc(b->nparams, sizeof *c->point);
        c->values = calloc(b->nparams, sizeof *c->values);
        if (!c->point || !c->values)
            goto fail;
        for (j = b->nparams; j-- > 0;) {
            c->point[j] = rest % b->params[j].nvalues;
            rest /= b->params[j].nvalues;
            c->values[j] = b->params[j].values[c->point[j]];
        }
    }

    c->argc = 1 + b->nargs + (c->variant >= 0 ? b->variants[c->variant].nargs : 0);
    if (!(argv = calloc(c->argc + 1, sizeof *argv)))
        goto fail;
    c->argv = argv;
    bad |= !(argv[argc++] = sdup(b->kernel_path ? b->kernel_path : b->kernel));
    for (k = 0; k < b->nargs; k++)
        bad |= !(argv[argc++] = expand(b->args[k], b, c->point, c->nodes));
    if (c->variant >= 0) {
        const struct qqb_variant *v = &b->variants[c->variant];
        for (k = 0; k < v->nargs; k++)
            bad |= !(argv[argc++] = expand(v->args[k], b, c->point, c->nodes));
    }
    if (bad)
        goto fail;

    qqb_strbuf_str(&name, b->name);
    if (c->variant >= 0 || b->nparams) {
        qqb_strbuf_str(&name, "[");
        if (c->variant >= 0)
            qqb_strbuf_str(&name, b->variants[c->variant].name);
        for (j = 0; j < b->nparams; j++) {
            if (j || c->variant >= 0)
                qqb_strbuf_str(&name, ",");
            qqb_strbuf_str(&name, b->params[j].name);
            qqb_strbuf_str(&name, "=");
            qqb_strbuf_str(&name, c->values[j]);
        }
        qqb_strbuf_str(&name, "]");
    }
    qqb_strbuf_str(&name, "@");
    sb_int(&name, c->nodes);
    if (!(c->name = qqb_strbuf_take(&name)))
        goto fail;
    return 0;
fail:
    /* argv may have holes where a copy failed: free each slot. */
    if (c->argv) {
        for (k = 0; k < c->argc; k++)
            free(c->argv[k]);
        free(c->argv);
        c->argv = NULL;
    }
    qqb_case_free(c);
    return -1;
}

/* ======================================================================
 * Launcher.
 * ====================================================================== */

const char *qqb_launcher_default(void)
{
    return QQB_DEFAULT_LAUNCHER;
}

void qqb_argv_free(char **argv)
{
    char **p;
    if (!argv)
        return;
    for (p = argv; *p; p++)
        free(*p);
    free(argv);
}

int qqb_launcher_argv(const char *tmpl, int nodes, char ***argv, size_t *argc)
{
    char **v = NULL, **nv;
    size_t n = 0;
    const char *s = tmpl, *e;

    if (argv)
        *argv = NULL;
    if (argc)
        *argc = 0;
    if (!tmpl || !argv || nodes < 1)
        return -1;
    for (;;) {
        char *word, *x;
        while (is_blank(*s))
            s++;
        if (!*s)
            break;
        for (e = s; *e && !is_blank(*e); e++)
            ;
        word = dupn(s, (size_t)(e - s));
        x = word ? expand(word, NULL, NULL, nodes) : NULL;
        free(word);
        if (!x || !(nv = realloc(v, (n + 2) * sizeof *v))) {
            free(x);
            goto fail;
        }
        v = nv;
        v[n++] = x;
        v[n] = NULL;
        s = e;
    }
    if (n == 0)
        goto fail;
    *argv = v;
    if (argc)
        *argc = n;
    return 0;
fail:
    if (v) {
        v[n] = NULL;
        qqb_argv_free(v);
    }
    return -1;
}
