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
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        snprintf(buf, len, "1970-01-01T00:00:00Z");
}
