/* yamlcur.c - the libyaml event cursor of suites and baselines: positions, refusals, messages. */
#include "yamlcur.h"

#include "atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one rule for a user string in a message: control characters escaped
 * or replaced, cut with "..." (never inside a UTF-8 character) to fit CAP. */
static const char *printable(char *out, size_t cap, const char *s)
{
    size_t n = 0, max = cap - 4;
    for (; *s && n < max; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\n' || ch == '\t' || ch == '\r') {
            if (n + 2 > max)
                break;
            out[n++] = '\\';
            out[n++] = ch == '\n' ? 'n' : ch == '\t' ? 't' : 'r';
        } else {
            out[n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
        }
    }
    if (*s) {
        /* do not leave half a UTF-8 character before the dots */
        while (n > 0 && ((unsigned char)*s & 0xC0) == 0x80 && (unsigned char)out[n - 1] >= 0x80) {
            n--;
            s--;
        }
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

const char *qqb_qs(struct qqb_qbuf *b, const char *s)
{
    return printable(b->s, sizeof b->s, s);
}

const char *qqb_qp(struct qqb_qpath *b, const char *s)
{
    return printable(b->s, sizeof b->s, s);
}

static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

int qqb_vyerr(char *err, size_t errlen, const char *path, int line, int col, const char *fmt,
              va_list ap)
{
    int n;

    if (!err || errlen == 0)
        return -1;
    if (line > 0)
        n = snprintf(err, errlen, "%s:%d:%d: error: ", path, line, col);
    else
        n = snprintf(err, errlen, "%s: error: ", path);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    one_line(err);
    return -1;
}

int qqb_yerr(char *err, size_t errlen, const char *path, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_vyerr(err, errlen, path, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int qqb_ycur_vfail_at(struct qqb_ycur *c, int line, int col, const char *fmt, va_list ap)
{
    return qqb_vyerr(c->err, c->errlen, c->path, line, col, fmt, ap);
}

int qqb_ycur_fail_at(struct qqb_ycur *c, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_ycur_vfail_at(c, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int qqb_ycur_expected(struct qqb_ycur *c, const char *what, const char *where)
{
    struct qqb_qbuf b;
    return qqb_ycur_fail_at(c, qqb_ycur_line(c), qqb_ycur_col(c), "expected %s%s%s, got %s", what,
                            where ? " " : "", where ? where : "", qqb_ycur_got(&b, c));
}

int qqb_ycur_expect(struct qqb_ycur *c, yaml_event_type_t type, const char *what, const char *where)
{
    if (qqb_ycur_next(c))
        return -1;
    return c->ev.type == type ? 0 : qqb_ycur_expected(c, what, where);
}

int qqb_ycur_line(const struct qqb_ycur *c)
{
    return (int)c->ev.start_mark.line + 1;
}

int qqb_ycur_col(const struct qqb_ycur *c)
{
    return (int)c->ev.start_mark.column + 1;
}

static int read_all(struct qqb_ycur *c, size_t max_size)
{
    char why[96] = "";
    FILE *f = c->flags & QQB_YCUR_REGULAR ? qqb_open_regular(c->path, why, sizeof why)
                                          : fopen(c->path, "rb");
    unsigned char *np;
    size_t cap = 0, got;
    int e = 0;

    if (!f)
        return qqb_yerr(c->err, c->errlen, c->path, 0, 0, "cannot open the %s: %s", c->kind,
                        why[0] ? why : strerror(errno));
    for (;;) {
        if (c->len == cap) {
            cap = cap ? cap * 2 : 4096;
            if (cap > max_size || !(np = realloc(c->buf, cap))) {
                e = cap > max_size ? EFBIG : ENOMEM;
                break;
            }
            c->buf = np;
        }
        got = fread(c->buf + c->len, 1, cap - c->len, f);
        c->len += got;
        if (got == 0) {
            if (ferror(f))
                e = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (e)
        return qqb_yerr(c->err, c->errlen, c->path, 0, 0, "cannot read the %s: %s", c->kind,
                        strerror(e));
    return 0;
}

static int open_as(struct qqb_ycur *c, const char *path, const char *kind, size_t max_size,
                   char *err, size_t errlen, unsigned flags)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->kind = kind;
    c->flags = flags;
    c->err = err;
    c->errlen = errlen;
    if (read_all(c, max_size))
        return -1;
    /* libyaml reads UTF-16 after a byte-order mark; qqbench's files are
     * UTF-8 (docs/SUITE.md), and a UTF-16 suite was accepted. */
    if (c->len >= 2 &&
        ((c->buf[0] == 0xFF && c->buf[1] == 0xFE) || (c->buf[0] == 0xFE && c->buf[1] == 0xFF)))
        return qqb_yerr(err, errlen, path, 1, 1,
                        "the %s is UTF-16 (it starts with a byte-order mark); qqbench reads "
                        "UTF-8",
                        kind);
    if (!yaml_parser_initialize(&c->parser))
        return qqb_yerr(err, errlen, path, 0, 0, "out of memory");
    c->parser_ok = 1;
    yaml_parser_set_input_string(&c->parser, c->buf ? c->buf : (const unsigned char *)"", c->len);
    return 0;
}

int qqb_ycur_open(struct qqb_ycur *c, const char *path, const char *kind, size_t max_size,
                  char *err, size_t errlen)
{
    return open_as(c, path, kind, max_size, err, errlen, 0);
}

int qqb_ycur_open_stored(struct qqb_ycur *c, const char *path, const char *kind, size_t max_size,
                         char *err, size_t errlen)
{
    return open_as(c, path, kind, max_size, err, errlen, QQB_YCUR_REGULAR);
}

void qqb_ycur_close(struct qqb_ycur *c)
{
    if (c->have)
        yaml_event_delete(&c->ev);
    c->have = 0;
    if (c->parser_ok)
        yaml_parser_delete(&c->parser);
    c->parser_ok = 0;
    free(c->buf);
    c->buf = NULL;
    c->len = 0;
}

/* Line and column of byte OFF, for reader errors that carry only that. */
static void offset_pos(const struct qqb_ycur *c, size_t off, int *line, int *col)
{
    *line = *col = 1;
    for (size_t i = 0; i < off && i < c->len; i++) {
        if (c->buf[i] == '\n') {
            ++*line;
            *col = 1;
        } else if ((c->buf[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

static int syntax_error(struct qqb_ycur *c)
{
    const yaml_parser_t *ps = &c->parser;
    const char *problem = ps->problem ? ps->problem : "unknown problem";
    int line, col;

    if (ps->error == YAML_MEMORY_ERROR)
        return qqb_ycur_fail_at(c, 1, 1, "out of memory while parsing");
    if (ps->error == YAML_READER_ERROR) {
        offset_pos(c, ps->problem_offset, &line, &col);
        if (ps->problem_value != -1)
            return qqb_ycur_fail_at(c, line, col,
                                    "invalid YAML: %s (byte 0x%02X); %ss must be UTF-8", problem,
                                    (unsigned)ps->problem_value & 0xFFu, c->kind);
        return qqb_ycur_fail_at(c, line, col, "invalid YAML: %s; %ss must be UTF-8", problem,
                                c->kind);
    }
    line = (int)ps->problem_mark.line + 1;
    col = (int)ps->problem_mark.column + 1;
    if (ps->context)
        return qqb_ycur_fail_at(c, line, col, "invalid YAML: %s (%s at line %d, column %d)",
                                problem, ps->context, (int)ps->context_mark.line + 1,
                                (int)ps->context_mark.column + 1);
    return qqb_ycur_fail_at(c, line, col, "invalid YAML: %s", problem);
}

int qqb_ycur_next(struct qqb_ycur *c)
{
    const yaml_char_t *anchor = NULL;
    struct qqb_qbuf b;

    if (c->have) {
        yaml_event_delete(&c->ev);
        c->have = 0;
    }
    if (!c->parser_ok || !yaml_parser_parse(&c->parser, &c->ev))
        return c->parser_ok ? syntax_error(c) : -1;
    c->have = 1;
    switch (c->ev.type) {
    case YAML_ALIAS_EVENT:
        return qqb_ycur_fail_at(c, qqb_ycur_line(c), qqb_ycur_col(c),
                                "aliases are not allowed (found '*%s'); write the value out",
                                qqb_qs(&b, (const char *)c->ev.data.alias.anchor));
    case YAML_SCALAR_EVENT:
        anchor = c->ev.data.scalar.anchor;
        break;
    case YAML_SEQUENCE_START_EVENT:
        anchor = c->ev.data.sequence_start.anchor;
        c->depth++;
        break;
    case YAML_MAPPING_START_EVENT:
        anchor = c->ev.data.mapping_start.anchor;
        c->depth++;
        break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        c->depth--;
        break;
    default:
        break;
    }
    if (anchor)
        return qqb_ycur_fail_at(c, qqb_ycur_line(c), qqb_ycur_col(c),
                                "anchors are not allowed (found '&%s'); write the value out",
                                qqb_qs(&b, (const char *)anchor));
    if (c->depth > QQB_YAML_MAX_DEPTH)
        return qqb_ycur_fail_at(c, qqb_ycur_line(c), qqb_ycur_col(c),
                                "lists and mappings nested more than %d deep; a %s never is",
                                QQB_YAML_MAX_DEPTH, c->kind);
    return 0;
}

const char *qqb_ycur_got(struct qqb_qbuf *b, const struct qqb_ycur *c)
{
    switch (c->ev.type) {
    case YAML_SCALAR_EVENT: {
        struct qqb_qbuf t;
        if (c->ev.data.scalar.length == 0 && c->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
            return "an empty value";
        snprintf(b->s, sizeof b->s, "'%.92s'", qqb_qs(&t, (const char *)c->ev.data.scalar.value));
        return b->s;
    }
    case YAML_SEQUENCE_START_EVENT:
        return "a list";
    case YAML_MAPPING_START_EVENT:
        return "a mapping";
    case YAML_SEQUENCE_END_EVENT:
        return "the end of the list";
    case YAML_MAPPING_END_EVENT:
        return "the end of the mapping";
    default:
        return "the end of the document";
    }
}

int qqb_ycur_skip(struct qqb_ycur *c)
{
    int depth = 0;
    for (;;) {
        switch (c->ev.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            depth++;
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        default:
            break;
        }
        if (depth == 0)
            return 0;
        if (qqb_ycur_next(c))
            return -1;
    }
}

int qqb_yaml_quote(char *out, size_t outsz, const char *s)
{
    yaml_emitter_t e;
    yaml_event_t ev;
    size_t written = 0;
    int ok = outsz > 1 && yaml_emitter_initialize(&e);
    if (outsz)
        out[0] = '\0';
    if (!ok)
        return -1;
    yaml_emitter_set_output_string(&e, (unsigned char *)out, outsz - 1, &written);
    yaml_emitter_set_unicode(&e, 1);
    yaml_emitter_set_width(&e, -1); /* one line, however long */
    ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && yaml_emitter_emit(&e, &ev);
    ok = ok && yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
         yaml_emitter_emit(&e, &ev);
    ok = ok &&
         yaml_scalar_event_initialize(&ev, NULL, NULL, (const yaml_char_t *)s, (int)strlen(s), 1, 1,
                                      YAML_DOUBLE_QUOTED_SCALAR_STYLE) &&
         yaml_emitter_emit(&e, &ev);
    ok = ok && yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev);
    ok = ok && yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev);
    ok = ok && yaml_emitter_flush(&e);
    yaml_emitter_delete(&e);
    /* The scalar, and the line break (and any "..." line) after it, cut. */
    out[ok ? written : 0] = '\0';
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
    if (!ok || out[0] != '"') {
        out[0] = '\0';
        return -1;
    }
    return 0;
}
