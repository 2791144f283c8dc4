/* strv.c - NULL-ended string arrays (strv.h). */
#include "strv.h"

#include <stdlib.h>
#include <string.h>

int qqb_strv_dup(char *const *src, char ***dst)
{
    *dst = NULL;
    if (!src)
        return 0;
    size_t n = 0;
    while (src[n])
        n++;
    char **v = calloc(n + 1, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(v[i] = strdup(src[i]))) {
            for (size_t j = 0; j < i; j++)
                free(v[j]);
            free(v);
            return -1;
        }
    *dst = v;
    return 0;
}

int qqb_strv_equal(char *const *a, char *const *b)
{
    if (!a || !b)
        return a == b;
    size_t i = 0;
    for (; a[i] && b[i]; i++)
        if (strcmp(a[i], b[i]))
            return 0;
    return !a[i] && !b[i];
}

int qqb_strv_selects(char *const *list, size_t n, const char *s)
{
    if (n == 0)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}
