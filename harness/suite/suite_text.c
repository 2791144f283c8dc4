/* suite_text.c - the suite's strings: arrays of them, names, "{param}" placeholders and their
 * expansion. */
#include "suite_int.h"

#include <stdint.h>
#include <stdio.h>

#include "names.h"
#include "strbuf.h"

/* Grow *V (elements of SIZE bytes, *N used) by one zeroed element. The
 * capacity doubles: room is made when *N is 0 or a power of two, so an
 * array that only push grows always has room up to the next power of two
 * (growing by one each time copies the array each time: quadratic). */
void *qqb__suite_push(void *v, size_t *n, size_t size)
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

int qqb__suite_push_str(char ***v, size_t *n, const char *s, size_t len)
{
    char *d = dupn(s, len);
    char **nv;
    size_t m = *n;
    if (!d)
        return -1;
    nv = qqb__suite_push(*v, &m, sizeof *nv);
    if (!nv) {
        free(d);
        return -1;
    }
    nv[m - 1] = d;
    *v = nv;
    *n = m;
    return 0;
}

void qqb__suite_free_strs(char **v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The names rule's plain names (names.h): suite, benchmark, variant. */
int qqb__suite_valid_name(const char *s)
{
    char why[80];
    return qqb_name_check(QQB_NAME_PLAIN, s, why, sizeof why) == 0;
}

int qqb__suite_valid_ident(const char *s)
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
const char *qqb__suite_placeholder(const char *s, size_t *len)
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

char *qqb__suite_expand(const char *s, const struct qqb_bench *b, const size_t *point, int nodes)
{
    struct qqb_strbuf out = QQB_STRBUF_INIT;
    const char *p;
    size_t len, j;

    while ((p = qqb__suite_placeholder(s, &len)) != NULL) {
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
