/* suite_value.c - a suite's values: numbers in range, settings, and field names checked against
 * their tables. */
#include "suite_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "nearest.h"
#include "strbuf.h"

const char *const qqb__suite_top_fields[NTOP] = {"suite",      "description", "defaults",
                                                 "benchmarks", "max_nodes",   "threshold_bound",
                                                 "build",      "run_figure"};
const char *const qqb__suite_bench_fields[NBENCH] = {"name",
                                                     "kernel",
                                                     "args",
                                                     "nodes",
                                                     "variants",
                                                     "params",
                                                     "keys",
                                                     "baseline_keys",
                                                     "model",
                                                     "repetitions",
                                                     "warmup",
                                                     "timeout",
                                                     "threshold",
                                                     "noise_multiple",
                                                     "confidence",
                                                     "memory_tolerance",
                                                     "launcher",
                                                     "events",
                                                     "allow_dropped",
                                                     "fail_on_blind",
                                                     "threshold_instr",
                                                     "gate",
                                                     "metric",
                                                     "cache_sim"};

/* Numbers are plain scalars: "10" in quotes is a string, and saying so
 * beats "expected an integer, got '10'". */
static int quoted_number(struct cur *c, const char *what, const char *where)
{
    struct qqb_qbuf b;

    if (c->y.ev.type != YAML_SCALAR_EVENT || c->y.ev.data.scalar.length == 0)
        return qqb_ycur_expected(&c->y, what, where);
    if (c->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return fail(c, here(c),
                    "expected %s %s, got the quoted string '%s' "
                    "(write numbers without quotes)",
                    what, where, qqb_qs(&b, scalar(c)));
    return 0;
}

/* An integer in [MIN, MAX] from the current scalar; WHAT/WHERE for errors. */
int qqb__suite_to_int(struct cur *c, long long min, long long max, const char *what,
                      const char *where, long long *out)
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
        return qqb_ycur_expected(&c->y, what, where);
    if ((errno == ERANGE && v > 0) || v > max)
        return fail(c, here(c), "expected %s %s, got '%s' (too large)", what, where, qqb_qs(&b, s));
    if (errno == ERANGE || v < min)
        return qqb_ycur_expected(&c->y, what, where);
    *out = v;
    return 0;
}

/* A finite number in the range the flags say; WHAT/WHERE for errors. */
int qqb__suite_to_num(struct cur *c, double lo, int lo_open, double hi, const char *what,
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
        return qqb_ycur_expected(&c->y, what, where);
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
    while ((p = qqb__suite_placeholder(s, &len)) != NULL) {
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
int qqb__suite_setting(struct cur *c, int f, struct qqb_settings *s)
{
    char where[64];
    long long v = 0;

    snprintf(where, sizeof where, "for '%s'", SET_FIELDS[f]);
    if (qqb_ycur_next(&c->y))
        return -1;
    switch (f) {
    case S_REPETITIONS:
        if (qqb__suite_to_int(c, 2, INT_MAX, "an integer >= 2", where, &v))
            return -1;
        s->repetitions = (int)v;
        break;
    case S_WARMUP:
        if (qqb__suite_to_int(c, 0, INT_MAX, "an integer >= 0", where, &v))
            return -1;
        s->warmup = (int)v;
        break;
    case S_TIMEOUT:
        if (qqb__suite_to_num(c, 0, 1, HUGE_VAL, "a number of seconds > 0", where, &s->timeout))
            return -1;
        break;
    case S_THRESHOLD:
        if (qqb__suite_to_num(c, 0, 1, HUGE_VAL, "a percentage > 0", where, &s->threshold))
            return -1;
        break;
    case S_NOISE_MULTIPLE:
        if (qqb__suite_to_num(c, 0, 0, HUGE_VAL, "a number >= 0", where, &s->noise_multiple))
            return -1;
        break;
    case S_CONFIDENCE:
        if (qqb__suite_to_num(c, 0.5, 0, 0.999, "a number from 0.5 to 0.999", where,
                              &s->confidence))
            return -1;
        break;
    case S_MEMORY_TOLERANCE:
        if (qqb__suite_to_int(c, 0, INT64_MAX, "a number of bytes >= 0", where, &v))
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
        if (qqb__suite_to_int(c, 1, INT64_MAX, "an integer > 0", where, &v))
            return -1;
        s->events = v;
        break;
    case S_ALLOW_DROPPED:
    case S_FAIL_ON_BLIND:
    case S_CACHE_SIM:
        /* YAML 1.2's core booleans, plain. */
        if (c->y.ev.type != YAML_SCALAR_EVENT ||
            c->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
            (strcmp(scalar(c), "true") && strcmp(scalar(c), "false")))
            return qqb_ycur_expected(&c->y, "true or false", where);
        *(f == S_ALLOW_DROPPED ? &s->allow_dropped
          : f == S_CACHE_SIM   ? &s->cache_sim
                               : &s->fail_on_blind) = !strcmp(scalar(c), "true");
        break;
    case S_THRESHOLD_INSTR:
        if (qqb__suite_to_num(c, 0, 1, HUGE_VAL, "a number of instructions per hit > 0", where,
                              &s->threshold_instr))
            return -1;
        break;
    case S_GATE:
        /* What a verdict on counts gates beyond the cost per hit. */
        if (c->y.ev.type != YAML_SCALAR_EVENT ||
            (strcmp(scalar(c), "cost") && strcmp(scalar(c), "counts")))
            return qqb_ycur_expected(&c->y, "cost or counts", where);
        s->gate_counts = !strcmp(scalar(c), "counts");
        break;
    case S_METRIC:
        if (c->y.ev.type != YAML_SCALAR_EVENT || qqb_metric_parse(scalar(c)) < 0)
            return qqb_ycur_expected(&c->y, QQB_METRIC_NAMES, where);
        s->metric = qqb_metric_parse(scalar(c));
        break;
    }
    s->set |= 1u << f;
    return 0;
}

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
int qqb__suite_field(struct cur *c, const char *const *fields, size_t n, struct pos *seen,
                     const char *where)
{
    const char *k, *near;
    struct qqb_qbuf b;
    size_t i;

    if (c->y.ev.type != YAML_SCALAR_EVENT)
        return qqb_ycur_expected(&c->y, "a field name", where);
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
    if (fields == qqb__suite_top_fields && in_list(k, SET_FIELDS, NSET))
        return fail(c, here(c),
                    "unknown field '%s' %s; settings go under 'defaults:' "
                    "or in a benchmark",
                    qqb_qs(&b, k), where);
    if (fields == qqb__suite_top_fields && in_list(k, qqb__suite_bench_fields, NBOWN))
        return fail(c, here(c),
                    "unknown field '%s' %s; benchmark fields go in a list "
                    "item under 'benchmarks:'",
                    qqb_qs(&b, k), where);
    if (fields == SET_FIELDS && in_list(k, qqb__suite_bench_fields, NBOWN))
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
