/* clock.h - the harness's two clocks: seconds for deadlines, and the UTC date it stamps. */
#ifndef QQB_CLOCK_H
#define QQB_CLOCK_H

#include <stddef.h>

/* Seconds on a monotonic clock. */
double qqb_now(void);

/* The date and time now, UTC, as 2026-11-25T22:03:44Z, in BUF. */
void qqb_utc_now(char *buf, size_t len);

#endif /* QQB_CLOCK_H */
