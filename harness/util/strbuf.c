/* strbuf.c - one growable string for the harness (strbuf.h). */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for N more bytes and the NUL; 0, or -1 (B marked failed). */
static int reserve(struct qqb_strbuf *b, size_t n)
{
    if (b->failed)
        return -1;
    if (n > (size_t)-1 / 2 - b->n) {
        b->failed = 1;
        return -1;
    }
    if (b->n + n + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 32;
    while (cap < b->n + n + 1)
        cap *= 2;
    char *p = realloc(b->s, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->s = p;
    b->cap = cap;
    return 0;
}

void qqb_strbuf_add(struct qqb_strbuf *b, const char *s, size_t n)
{
    if (reserve(b, n) != 0 || !b->s) /* b->s holds cap > n bytes after reserve */
        return;
    if (n)
        memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void qqb_strbuf_str(struct qqb_strbuf *b, const char *s)
{
    qqb_strbuf_add(b, s, strlen(s));
}

void qqb_strbuf_printf(struct qqb_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) {
        b->failed = 1;
        return;
    }
    if (reserve(b, (size_t)need) != 0 || !b->s)
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)need + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

const char *qqb_strbuf_str_of(const struct qqb_strbuf *b)
{
    return b->s && !b->failed ? b->s : "";
}

int qqb_strbuf_failed(const struct qqb_strbuf *b)
{
    return b->failed;
}

char *qqb_strbuf_take(struct qqb_strbuf *b)
{
    if (!b->failed && !b->s)
        qqb_strbuf_add(b, "", 0);
    char *s = b->failed ? NULL : b->s;
    if (b->failed)
        free(b->s);
    *b = (struct qqb_strbuf)QQB_STRBUF_INIT;
    return s;
}

void qqb_strbuf_free(struct qqb_strbuf *b)
{
    free(b->s);
    *b = (struct qqb_strbuf)QQB_STRBUF_INIT;
}
