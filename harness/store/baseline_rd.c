/* baseline_rd.c - the baseline reader's cursor: typed values, field names, positioned errors. */
#include "baseline_rd.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "names.h"

int qqb__rd_fail(struct rd *r, const yaml_mark_t *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_ycur_vfail_at(&r->y, (int)m->line + 1, (int)m->column + 1, fmt, ap);
    va_end(ap);
    return -1;
}

const yaml_mark_t *qqb__rd_here(const struct rd *r)
{
    return &r->y.ev.start_mark;
}

const char *qqb__rd_sval(const struct rd *r)
{
    return (const char *)r->y.ev.data.scalar.value;
}

int qqb__rd_mismatch(struct rd *r, const char *what, const char *field)
{
    char where[80]; /* FIELD is one of the format's field names */
    if (!field)
        return qqb_ycur_expected(&r->y, what, NULL);
    snprintf(where, sizeof where, "for '%s'", field);
    return qqb_ycur_expected(&r->y, what, where);
}

int qqb__rd_expect(struct rd *r, yaml_event_type_t type, const char *what, const char *field)
{
    if (qqb_ycur_next(&r->y))
        return -1;
    return r->y.ev.type == type ? 0 : qqb__rd_mismatch(r, what, field);
}

/* The next key of a mapping: 1 with the key in *k (an index into FIELDS,
 * or -1 for an unknown key, whose value is then skipped by the caller), 0 at
 * the end of the mapping. A key given twice is an error. */
int qqb__rd_next_key(struct rd *r, const char *const *fields, int nfields, unsigned *seen, int *k)
{
    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type == YAML_MAPPING_END_EVENT)
        return 0;
    if (r->y.ev.type != YAML_SCALAR_EVENT)
        return qqb__rd_mismatch(r, "a field name", NULL);
    *k = -1;
    for (int i = 0; i < nfields; i++)
        if (!strcmp(qqb__rd_sval(r), fields[i])) {
            if (*seen & (1u << i))
                return qqb__rd_fail(r, qqb__rd_here(r), "'%s' is given twice", fields[i]);
            *seen |= 1u << i;
            *k = i;
        }
    return 1;
}

/* Report the first required field missing from SEEN. */
int qqb__rd_required(struct rd *r, const yaml_mark_t *start, const char *const *fields, int nfields,
                     unsigned required, unsigned seen, const char *what)
{
    for (int i = 0; i < nfields; i++)
        if ((required & (1u << i)) && !(seen & (1u << i)))
            return qqb__rd_fail(r, start, "%s is missing '%s'", what, fields[i]);
    return 0;
}

/* Value readers: each reads the next event as the value of FIELD. */

static int is_null(const struct rd *r)
{
    const char *s = qqb__rd_sval(r);
    return r->y.ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
           (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
            !strcmp(s, "NULL"));
}

/* A string; *DST replaced. NULLABLE: a YAML null gives NULL. */
int qqb__rd_string(struct rd *r, const char *field, char **dst, int nullable)
{
    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT)
        return qqb__rd_mismatch(r, "a string", field);
    if (is_null(r)) {
        if (!nullable)
            return qqb__rd_mismatch(r, "a string", field);
        free(*dst);
        *dst = NULL;
        return 0;
    }
    if (strlen(qqb__rd_sval(r)) != r->y.ev.data.scalar.length)
        return qqb__rd_fail(r, qqb__rd_here(r), "'%s' holds a NUL character", field);
    char *s = strdup(qqb__rd_sval(r));
    if (!s)
        return qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
    free(*dst);
    *dst = s;
    return 0;
}

int qqb__rd_name(struct rd *r, const char *field, char **dst)
{
    if (qqb__rd_string(r, field, dst, 0))
        return -1;
    char why[80];
    if (qqb_name_check(QQB_NAME_TEXT, *dst, why, sizeof why) == 0)
        return 0;
    struct qqb_qbuf q;
    return qqb__rd_fail(r, qqb__rd_here(r), "'%s': the name '%s' %s; expected %s", field,
                        qqb_qs(&q, *dst), why, qqb_name_rule(QQB_NAME_TEXT));
}

/* A string into a fixed buffer (the fingerprint's). */
int qqb__rd_fixed(struct rd *r, const char *field, char *buf, size_t size)
{
    char *s = NULL;
    if (qqb__rd_string(r, field, &s, 0) || !s)
        return -1;
    if (strlen(s) >= size) {
        free(s);
        return qqb__rd_fail(r, qqb__rd_here(r), "'%s' is longer than %zu bytes", field, size - 1);
    }
    memcpy(buf, s, strlen(s) + 1);
    free(s);
    return 0;
}

/* The current event as a plain-scalar number. FINITE: refuse .nan/.inf. */
int qqb__rd_cur_double(struct rd *r, const char *field, int finite, double *v)
{
    static const char *const special[] = {".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF",
                                          "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};
    const char *s;
    char *end;

    if (r->y.ev.type != YAML_SCALAR_EVENT || r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        r->y.ev.data.scalar.length == 0)
        return qqb__rd_mismatch(r, finite ? "a finite number" : "a number", field);
    s = qqb__rd_sval(r);
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (!strcmp(s, special[i])) {
            if (finite)
                return qqb__rd_mismatch(r, "a finite number", field);
            *v = i < 3 ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
            return 0;
        }
    /* strtod also takes "nan", "inf" and hex; a baseline has only decimals. */
    if (strspn(s, "0123456789+-.eE") != strlen(s))
        return qqb__rd_mismatch(r, finite ? "a finite number" : "a number", field);
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end)
        return qqb__rd_mismatch(r, finite ? "a finite number" : "a number", field);
    if (errno == ERANGE && isinf(*v))
        return qqb__rd_fail(r, qqb__rd_here(r), "number '%s' for '%s' is out of range", s, field);
    return 0;
}

int qqb__rd_double(struct rd *r, const char *field, int finite, double *v)
{
    if (qqb_ycur_next(&r->y))
        return -1;
    return qqb__rd_cur_double(r, field, finite, v);
}

int qqb__rd_u64(struct rd *r, const char *field, uint64_t max, uint64_t *v)
{
    const char *s;
    char *end;
    unsigned long long x;

    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT || r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return qqb__rd_mismatch(r, "a whole number", field);
    s = qqb__rd_sval(r);
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return qqb__rd_mismatch(r, "a whole number", field);
    errno = 0;
    x = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || x > max)
        return qqb__rd_fail(r, qqb__rd_here(r), "number '%s' for '%s' is out of range", s, field);
    *v = x;
    return 0;
}

int qqb__rd_bool(struct rd *r, const char *field, int *v)
{
    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type == YAML_SCALAR_EVENT && r->y.ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (!strcmp(qqb__rd_sval(r), "true")) {
            *v = 1;
            return 0;
        }
        if (!strcmp(qqb__rd_sval(r), "false")) {
            *v = 0;
            return 0;
        }
    }
    return qqb__rd_mismatch(r, "true or false", field);
}

/* A baseline is found by its path (DIR/ID/SUITE.yaml): a file whose own
 * field says otherwise was copied or renamed by hand, and its numbers are
 * another suite's or machine's. Refused, naming the field. */
int qqb__rd_path_field(struct rd *r, const char *field, const char *got, const char *want)
{
    struct qqb_qbuf a, b;
    if (!want || !strcmp(got, want))
        return 0;
    return qqb__rd_fail(r, qqb__rd_here(r),
                        "%s '%s' disagrees with the path, which is for %s '%s'; a baseline "
                        "copied or renamed by hand? Move it where its %s says, or remove it",
                        field, qqb_qs(&a, got), field, qqb_qs(&b, want), field);
}

/* A flow list of unsigned 32-bit integers (a metric's run or launch). */
int qqb__rd_u32_list(struct rd *r, const char *field, uint32_t **v, size_t *n)
{
    size_t cap = 0;
    int rc = qqb__rd_expect(r, YAML_SEQUENCE_START_EVENT, "a list of whole numbers", field);
    while (!rc && !(rc = qqb_ycur_next(&r->y)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
        const char *s = r->y.ev.type == YAML_SCALAR_EVENT ? qqb__rd_sval(r) : "";
        char *end;
        unsigned long long u = strtoull(s, &end, 10);
        if (r->y.ev.type != YAML_SCALAR_EVENT ||
            r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE || !*s || *end ||
            !isdigit((unsigned char)s[0]) || u > UINT32_MAX)
            return qqb__rd_mismatch(r, "a whole number", field);
        uint32_t *nv = qqb_grow(*v, *n, &cap, sizeof *nv, 16);
        if (!nv)
            return qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
        *v = nv;
        (*v)[(*n)++] = (uint32_t)u;
    }
    return rc;
}

int qqb__rd_double_list(struct rd *r, const char *field, double **v, size_t *n, yaml_mark_t **marks)
{
    size_t cap = 0, mcap = 0;
    double d = 0;
    int rc = qqb__rd_expect(r, YAML_SEQUENCE_START_EVENT, "a list of numbers", field);
    while (!rc && !(rc = qqb_ycur_next(&r->y)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
        if ((rc = qqb__rd_cur_double(r, field, 1, &d)))
            break;
        double *nv = qqb_grow(*v, *n, &cap, sizeof *nv, 16);
        if (!nv)
            return qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
        *v = nv;
        if (marks) {
            yaml_mark_t *nm = qqb_grow(*marks, *n, &mcap, sizeof *nm, 16);
            if (!nm)
                return qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
            *marks = nm;
            nm[*n] = *qqb__rd_here(r);
        }
        (*v)[(*n)++] = d;
    }
    return rc;
}
/* A flow list of strings, NULL-ended, into *DST. */
int qqb__rd_strv(struct rd *r, const char *field, char ***dst)
{
    size_t n = 0;
    char **v = calloc(1, sizeof *v);
    int rc = v ? qqb__rd_expect(r, YAML_SEQUENCE_START_EVENT, "a list of strings", field)
               : qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
    while (!rc && !(rc = qqb_ycur_next(&r->y)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
        if (r->y.ev.type != YAML_SCALAR_EVENT) {
            rc = qqb__rd_mismatch(r, "a string", field);
            break;
        }
        char **nv = realloc(v, (n + 2) * sizeof *nv);
        if (!nv) {
            rc = qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
            break;
        }
        v = nv;
        v[n] = strdup(qqb__rd_sval(r));
        v[n + 1] = NULL;
        if (!v[n]) {
            rc = qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
            break;
        }
        n++;
    }
    if (rc) {
        for (size_t i = 0; v && i < n; i++)
            free(v[i]);
        free(v);
        return -1;
    }
    *dst = v;
    return 0;
}

/* Open PATH and read up to the top-level mapping's start. */
int qqb__rd_open(struct rd *r, const char *path, char *err, size_t errlen)
{
    if (qqb_ycur_open_stored(&r->y, path, "baseline", MAX_BASELINE_SIZE, err, errlen))
        return -1;
    if (qqb__rd_expect(r, YAML_STREAM_START_EVENT, "a YAML stream", NULL) || qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type == YAML_STREAM_END_EVENT)
        return qqb__rd_fail(r, qqb__rd_here(r), "empty file; expected a qqbench baseline");
    if (r->y.ev.type != YAML_DOCUMENT_START_EVENT)
        return qqb__rd_mismatch(r, "a YAML document", NULL);
    return qqb__rd_expect(r, YAML_MAPPING_START_EVENT, "a mapping (a qqbench baseline)", NULL);
}

int qqb__rd_each(struct rd *r, const char *field, const char *list, const char *what,
                 int (*item)(struct rd *r, void *ctx), void *ctx)
{
    int rc = qqb__rd_expect(r, YAML_SEQUENCE_START_EVENT, list, field);
    while (!rc && !(rc = qqb_ycur_next(&r->y)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT)
        rc = r->y.ev.type != YAML_MAPPING_START_EVENT ? qqb__rd_mismatch(r, what, field)
                                                      : item(r, ctx);
    return rc;
}
