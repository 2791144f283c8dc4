/* bigsim.c - parse BigSim's TRACEBIGSIM lines, with the column of any fault. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigsim.h"
#include "names.h"

static int fail(const char *line, const char *at, int *col, char *err, size_t len, const char *fmt,
                ...) __attribute__((format(printf, 6, 7)));

static int fail(const char *line, const char *at, int *col, char *err, size_t len, const char *fmt,
                ...)
{
    va_list ap;
    *col = (int)(at - line) + 1;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *blanks(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

/* A number at P ending at a blank or '}'; *END after it. */
static int number(const char *p, double *v, const char **end)
{
    errno = 0;
    char *e;
    *v = strtod(p, &e);
    if (e == p || errno == ERANGE || !isfinite(*v) || !(*e == ' ' || *e == '\t' || *e == '}'))
        return -1;
    *end = e;
    return 0;
}

int qqb_bigsim_parse_line(const char *line, struct qqb_bigsim_rec *r, int *col, char *err,
                          size_t errlen)
{
    static const char tag[] = "TRACEBIGSIM:";
    const char *p = blanks(line);
    if (strncmp(p, tag, sizeof tag - 1) != 0)
        return 0;
    p += sizeof tag - 1;
    memset(r, 0, sizeof *r);
    r->seqno = -1;
    int have_event = 0, have_time = 0, have_params = 0, have_seq = 0, have_papi = 0;
    for (;;) {
        p = blanks(p);
        if (*p == '\0')
            break;
        const char *f = p;
        while (isalpha((unsigned char)*p))
            p++;
        size_t flen = (size_t)(p - f);
        if (flen == 0 || *p != ':')
            return fail(line, f, col, err, errlen,
                        "expected a field (event:, time:, params:, seqno:, "
                        "PAPI:)");
        int *seen;
        if (flen == 5 && !strncmp(f, "event", 5))
            seen = &have_event;
        else if (flen == 4 && !strncmp(f, "time", 4))
            seen = &have_time;
        else if (flen == 6 && !strncmp(f, "params", 6))
            seen = &have_params;
        else if (flen == 5 && !strncmp(f, "seqno", 5))
            seen = &have_seq;
        else if (flen == 4 && !strncmp(f, "PAPI", 4))
            seen = &have_papi;
        else
            return fail(line, f, col, err, errlen, "unknown field '%.*s:'", (int)flen, f);
        if (*seen)
            return fail(line, f, col, err, errlen, "field '%.*s:' twice", (int)flen, f);
        *seen = 1;
        p = blanks(p + 1);
        if (*p != '{')
            return fail(line, p, col, err, errlen, "expected '{' after '%.*s:'", (int)flen, f);
        const char *open = p;
        const char *close = strchr(p, '}');
        if (!close)
            return fail(line, open, col, err, errlen, "'{' of '%.*s:' is never closed", (int)flen,
                        f);
        p = blanks(open + 1);
        if (seen == &have_event) {
            const char *e = close;
            while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
                e--;
            if (e == p)
                return fail(line, p, col, err, errlen, "empty event name");
            if ((size_t)(e - p) >= sizeof r->event)
                return fail(line, p, col, err, errlen, "event name longer than %zu characters",
                            sizeof r->event - 1);
            memcpy(r->event, p, (size_t)(e - p));
            /* Printed and made a series' name: the names rule, never an
             * escape sequence to the terminal. */
            char why[80];
            if (qqb_name_check(QQB_NAME_TEXT, r->event, why, sizeof why) != 0)
                return fail(line, p, col, err, errlen, "event name %s; expected %s", why,
                            qqb_name_rule(QQB_NAME_TEXT));
        } else if (seen == &have_papi) {
            /* hardware counters: kept out of the fit */
        } else {
            while (p < close) {
                double v;
                const char *e;
                if (number(p, &v, &e) < 0)
                    return fail(line, p, col, err, errlen, "expected a number in '%.*s:'",
                                (int)flen, f);
                if (seen == &have_params) {
                    if (r->nparams == QQB_BIGSIM_MAX_PARAMS)
                        return fail(line, p, col, err, errlen, "more than %d parameters",
                                    QQB_BIGSIM_MAX_PARAMS);
                    r->p[r->nparams++] = v;
                } else if (p != blanks(open + 1)) {
                    return fail(line, p, col, err, errlen, "one number expected in '%.*s:'",
                                (int)flen, f);
                } else if (seen == &have_time) {
                    if (v < 0)
                        return fail(line, p, col, err, errlen, "negative time");
                    r->time = v;
                } else {
                    /* 2^62: far beyond any sequence, and a long holds it
                     * (a larger double would overflow the conversion). */
                    if (v != floor(v) || v < 0 || v > 4611686018427387904.0)
                        return fail(line, p, col, err, errlen,
                                    "seqno must be a whole number from 0 to 2^62");
                    r->seqno = (long)v;
                }
                p = blanks(e);
            }
            if (seen != &have_params && p == blanks(open + 1))
                return fail(line, p, col, err, errlen, "'%.*s:' holds no number", (int)flen, f);
        }
        p = close + 1;
    }
    if (!have_event)
        return fail(line, p, col, err, errlen, "record without event:{ }");
    if (!have_time)
        return fail(line, p, col, err, errlen, "record without time:{ }");
    return 1;
}
