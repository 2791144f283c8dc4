/* clock.c - the harness's two clocks: seconds for deadlines, and the UTC date it stamps. */
#include "clock.h"

#include <stdio.h>
#include <time.h>

double qqb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void qqb_utc_now(char *buf, size_t len)
{
    /* Formatted whole, then copied: strftime into a buffer too small
     * leaves it unterminated. */
    char s[32] = "1970-01-01T00:00:00Z";
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (len)
        snprintf(buf, len, "%s", s);
}
