/* number.c - the one parser of decimal numbers given on a command line or read from a file. */
#include "number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int qqb_decimal(const char *s, double *out)
{
    if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end)
        return -1;
    if (!isfinite(v))
        return -2;
    *out = v;
    return 0;
}
