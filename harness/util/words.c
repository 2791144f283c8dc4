/* words.c - how a number is said: a count with its noun, a change with its sign. */
#include "words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

/* The two write into OUT (SIZE bytes), a plain buffer: what the caller's
 * struct holds. */
static const char *count_into(char *out, size_t size, unsigned long long n, const char *one)
{
    const char *plural = n == 1 ? ""
                         : ends_with(one, "s") || ends_with(one, "x") || ends_with(one, "z") ||
                                 ends_with(one, "ch") || ends_with(one, "sh")
                             ? "es"
                             : "s";
    snprintf(out, size, "%llu %s%s", n, one, plural);
    return out;
}

static const char *signed_into(char *out, size_t size, double v, int prec)
{
    if (prec < 0)
        prec = 0;
    if (prec > 9)
        prec = 9;
    if (isnan(v))
        snprintf(out, size, "nan");
    else if (!(fabs(v) < 1e15))
        snprintf(out, size, "%+.3g", v);
    else
        snprintf(out, size, "%+.*f", prec, v);
    /* "-0.00": a negative figure that rounds to zero is zero. */
    if (out[0] == '-' && strspn(out + 1, "0.") == strlen(out + 1))
        out[0] = '+';
    return out;
}

const char *qqb_count(struct qqb_count *b, unsigned long long n, const char *one)
{
    return count_into(b->s, sizeof b->s, n, one);
}

const char *qqb_signed(struct qqb_signed *b, double v, int prec)
{
    return signed_into(b->s, sizeof b->s, v, prec);
}

int qqb_utf8_fit(const char *s, int max)
{
    int n = 0;
    while (n < max && s[n])
        n++;
    if (s[n] == '\0')
        return n;
    /* S goes on past MAX: back off continuation bytes, then the lead byte
     * whose character they do not finish. */
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n;
}
