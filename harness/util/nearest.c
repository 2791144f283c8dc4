/* nearest.c - "did you mean": the choice nearest to a mistyped word. */
#include "nearest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Optimal-string-alignment distance, case-insensitive; LIMIT+1 when the
 * words are too long to bother. */
static size_t distance(const char *a, const char *b, size_t limit)
{
    enum { MAXW = 64 };
    size_t la = strlen(a), lb = strlen(b), i, j;
    size_t rows[3][MAXW + 1], *pp, *p, *cur;

    if (la > MAXW || lb > MAXW)
        return limit + 1;
    for (j = 0; j <= lb; j++)
        rows[1][j] = j;
    pp = rows[0];
    p = rows[1];
    cur = rows[2];
    for (i = 1; i <= la; i++) {
        size_t *t;
        cur[0] = i;
        for (j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]);
            int cb = tolower((unsigned char)b[j - 1]);
            size_t cost = ca != cb, v = p[j - 1] + cost;
            if (p[j] + 1 < v)
                v = p[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < v)
                v = pp[j - 2] + 1;
            cur[j] = v;
        }
        t = pp;
        pp = p;
        p = cur;
        cur = t;
    }
    return p[lb];
}

const char *qqb_nearest(const char *word, const char *const *choices, size_t n)
{
    size_t len, limit, best = (size_t)-1, i, d, nprefix = 0;
    const char *pick = NULL, *prefix = NULL;

    if (!word || !choices)
        return NULL;
    len = strlen(word);
    limit = len <= 2 ? 0 : len <= 5 ? 1 : len <= 8 ? 2 : 3;
    for (i = 0; i < n; i++) {
        if (!choices[i])
            continue;
        d = distance(word, choices[i], limit);
        if (d <= limit && d < best) {
            best = d;
            pick = choices[i];
        }
        if (len >= 3 && strncmp(choices[i], word, len) == 0) {
            prefix = choices[i];
            nprefix++;
        }
    }
    if (pick)
        return pick;
    return nprefix == 1 ? prefix : NULL;
}
