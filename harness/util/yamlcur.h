/* yamlcur.h - the one libyaml event cursor that suites and baselines are read with. */
#ifndef QQB_YAMLCUR_H
#define QQB_YAMLCUR_H

#include <stdarg.h>
#include <stddef.h>
#include <yaml.h>

#if defined(__GNUC__)
#define QQB_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define QQB_PRINTF_LIKE(f, a)
#endif

/* Lists and mappings nested deeper than this are refused: no suite or
 * baseline needs more, and libyaml's cost per event grows with the depth
 * (a value nested 40000 deep took seconds to skip). */
#define QQB_YAML_MAX_DEPTH 64

/* A printable, bounded copy of a user string for a message. */
struct qqb_qbuf {
    char s[96];
};
/* S with control characters escaped or replaced, cut with "..." (never
 * inside a UTF-8 character) to fit B. Returns B->s. */
const char *qqb_qs(struct qqb_qbuf *b, const char *s);
/* The same for a path the harness composed (a kernel's full path): whole
 * up to 1 KiB, so a message names a file deep in a checkout. */
struct qqb_qpath {
    char s[1100];
};
const char *qqb_qp(struct qqb_qpath *b, const char *s);

/* "PATH:LINE:COLUMN: error: " (LINE 0: "PATH: error: ") and the message,
 * into ERR as one line. Returns -1. */
int qqb_yerr(char *err, size_t errlen, const char *path, int line, int col, const char *fmt, ...)
    QQB_PRINTF_LIKE(6, 7);
int qqb_vyerr(char *err, size_t errlen, const char *path, int line, int col, const char *fmt,
              va_list ap) QQB_PRINTF_LIKE(6, 0);

/* The cursor: the whole file in memory (so reader errors, which carry only
 * a byte offset, get a line and column), the current event, the depth. */
struct qqb_ycur {
    yaml_parser_t parser;
    int parser_ok;
    yaml_event_t ev;
    int have; /* ev holds an event to delete */
    int depth;
    const char *path;
    const char *kind; /* "suite file", "baseline": for messages */
    unsigned flags;   /* QQB_YCUR_REGULAR */
    unsigned char *buf;
    size_t len;
    char *err;
    size_t errlen;
};

/* Read PATH (at most MAX_SIZE bytes) and start parsing it. KIND names the
 * file in messages ("cannot open the KIND: ..."). Returns 0, or -1 with
 * "PATH: error: ..." in ERR; qqb_ycur_close() either way. */
int qqb_ycur_open(struct qqb_ycur *c, const char *path, const char *kind, size_t max_size,
                  char *err, size_t errlen);
/* The same for a file qqbench stores (a baseline, a snapshot), which is
 * never piped: anything but a regular file is refused (a FIFO would hang
 * the read). A suite may come through a pipe (qqbench run <(...)). */
#define QQB_YCUR_REGULAR 0x1u
int qqb_ycur_open_stored(struct qqb_ycur *c, const char *path, const char *kind, size_t max_size,
                         char *err, size_t errlen);
void qqb_ycur_close(struct qqb_ycur *c);

/* S as one YAML double-quoted scalar, written by libyaml's emitter (so
 * quotes, backslashes and control characters are escaped as YAML says),
 * into OUT: for the few strings a file qqbench writes by hand (a machine
 * profile's host and launcher). Returns 0, or -1 (S not UTF-8, or longer
 * than OUT holds) with OUT set to "". */
int qqb_yaml_quote(char *out, size_t outsz, const char *s);

/* Advance to the next event. Refused, with the position: anchors, aliases
 * (write the value out), nesting deeper than QQB_YAML_MAX_DEPTH, and every
 * libyaml error (as "invalid YAML: ..."). Returns 0 or -1 (message set). */
int qqb_ycur_next(struct qqb_ycur *c);

/* An error at 1-based LINE, COL (or at the current event: qqb_ycur_fail). */
int qqb_ycur_fail_at(struct qqb_ycur *c, int line, int col, const char *fmt, ...)
    QQB_PRINTF_LIKE(4, 5);
int qqb_ycur_vfail_at(struct qqb_ycur *c, int line, int col, const char *fmt, va_list ap)
    QQB_PRINTF_LIKE(4, 0);

/* The current event's 1-based line and column. */
int qqb_ycur_line(const struct qqb_ycur *c);
int qqb_ycur_col(const struct qqb_ycur *c);

/* What the current event is, for "..., got <this>": "'text'", "an empty
 * value", "a list", "a mapping", "the end of the list", ... */
const char *qqb_ycur_got(struct qqb_qbuf *b, const struct qqb_ycur *c);

/* "expected WHAT WHERE, got <the current event>" (WHERE NULL: "expected
 * WHAT, got ...") at the current event. Returns -1. */
int qqb_ycur_expected(struct qqb_ycur *c, const char *what, const char *where);
/* Advance to the next event, which must be of TYPE: else
 * qqb_ycur_expected(C, WHAT, WHERE). 0 or -1. */
int qqb_ycur_expect(struct qqb_ycur *c, yaml_event_type_t type, const char *what,
                    const char *where);

/* Skip the value whose first event is current (an unknown field): linear
 * in its events, bounded in depth by qqb_ycur_next. */
int qqb_ycur_skip(struct qqb_ycur *c);

#endif /* QQB_YAMLCUR_H */
