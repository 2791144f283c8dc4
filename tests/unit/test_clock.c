/* test_clock.c - util/clock.h: the monotonic seconds never go back and follow a sleep; the UTC
 * stamp is 2026-11-25T22:03:44Z to the second of time(), and a buffer too small for it gets
 * the stamp cut short, still a string (strftime left it unterminated). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "test.h"

static void test_now(void)
{
    double prev = qqb_now();
    int back = 0;
    for (int i = 0; i < 100000; i++) {
        double t = qqb_now();
        back += t < prev;
        prev = t;
    }
    CHECK_INT_EQ(back, 0);
    CHECK(prev > 0);
    /* A sleep of 20 ms is at least 20 ms on it (no upper bound: a busy
     * machine may sleep longer). */
    double a = qqb_now();
    struct timespec ts = {0, 20 * 1000 * 1000};
    while (nanosleep(&ts, &ts) != 0)
        ;
    CHECK(qqb_now() - a >= 0.020 - 1e-6);
}

/* Is S YYYY-MM-DDTHH:MM:SSZ? */
static int iso_utc(const char *s)
{
    static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != sizeof pat - 1)
        return 0;
    for (size_t i = 0; pat[i]; i++)
        if (pat[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != pat[i])
            return 0;
    return 1;
}

static void test_utc(void)
{
    char b[32];
    time_t before = time(NULL);
    qqb_utc_now(b, sizeof b);
    time_t after = time(NULL);
    CHECK(iso_utc(b));
    /* Between the stamps of time() around it. */
    char want1[32], want2[32];
    struct tm g;
    strftime(want1, sizeof want1, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&before, &g));
    strftime(want2, sizeof want2, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&after, &g));
    CHECK(strcmp(b, want1) >= 0 && strcmp(b, want2) <= 0);
    /* Exactly room for it; one byte short: the stamp cut, still a string. */
    char exact[21], shortb[20];
    memset(shortb, 'x', sizeof shortb);
    qqb_utc_now(exact, sizeof exact);
    CHECK(iso_utc(exact));
    qqb_utc_now(shortb, sizeof shortb);
    CHECK(memchr(shortb, '\0', sizeof shortb) != NULL);
    CHECK(strlen(shortb) == 19 && !strncmp(shortb, exact, 10));
    char one[1] = {'x'};
    qqb_utc_now(one, sizeof one);
    CHECK(one[0] == '\0');
}

int main(void)
{
    RUN(test_now);
    RUN(test_utc);
    return TEST_DONE();
}
