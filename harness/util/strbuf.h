/* strbuf.h - one growable string for the harness: append text and formatted text, then take it.
 *
 *     struct qqb_strbuf b = QQB_STRBUF_INIT;
 *     qqb_strbuf_add(&b, "x", 1);
 *     qqb_strbuf_printf(&b, " %d keys", n);
 *     char *s = qqb_strbuf_take(&b);   (NULL: out of memory; free(s) when done)
 *
 * Out of memory is sticky: once an append fails, later ones do nothing, the
 * buffer says so (qqb_strbuf_failed), and take returns NULL. No length is
 * cut: the string grows to what it is given. */
#ifndef QQB_STRBUF_H
#define QQB_STRBUF_H

#include <stddef.h>

struct qqb_strbuf {
    char *s;    /* NUL-terminated once anything was added; NULL before */
    size_t n;   /* bytes held, the NUL not counted */
    size_t cap; /* bytes allocated */
    int failed; /* an append ran out of memory */
};

#define QQB_STRBUF_INIT                                                                            \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }

/* Append the N bytes at S. */
void qqb_strbuf_add(struct qqb_strbuf *b, const char *s, size_t n);
/* Append the string S. */
void qqb_strbuf_str(struct qqb_strbuf *b, const char *s);
/* Append printf(FMT, ...). */
void qqb_strbuf_printf(struct qqb_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far ("" when empty, or after a failure); valid until the next append. */
const char *qqb_strbuf_str_of(const struct qqb_strbuf *b);
/* 1 when an append ran out of memory. */
int qqb_strbuf_failed(const struct qqb_strbuf *b);
/* Hand the string over (an empty one if nothing was added), or NULL when an
 * append failed; B is empty again either way. */
char *qqb_strbuf_take(struct qqb_strbuf *b);
/* Drop what B holds; B is empty again. */
void qqb_strbuf_free(struct qqb_strbuf *b);

#endif /* QQB_STRBUF_H */
