/* test_suite_value.c - suite/suite_value.c's numbers on crafted suite YAML: an integer in its
 * range and a finite number in its (open or closed at the low end) are taken from a plain
 * scalar; a quoted number is said to be a string, a number past the top is "too large", and
 * anything else (signed below the range, a fraction for an integer, trailing text, empty, nan,
 * inf, 1e999, a list) is "expected ..., got ...", each at the value's line and column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite_int.h"
#include "test.h"

#define FILE_NAME "v.yaml"

static struct cur c;
static char err[512];

/* A file "v: VALUE", the cursor on the value. 0, or -1. */
static int at(const char *value)
{
    FILE *f = fopen(FILE_NAME, "w");
    if (!f || fprintf(f, "v: %s\n", value) < 0 || fclose(f) != 0)
        return -1;
    memset(&c, 0, sizeof c);
    err[0] = '\0';
    if (qqb_ycur_open(&c.y, FILE_NAME, "suite file", 1 << 20, err, sizeof err) != 0)
        return -1;
    for (int i = 0; i < 5; i++) /* stream, document, mapping, key, value */
        if (qqb_ycur_next(&c.y) != 0)
            return -1;
    return 0;
}

static int to_int(const char *value, long long *v)
{
    if (at(value) != 0)
        return -2;
    int rc = qqb__suite_to_int(&c, 1, 1000, "an integer from 1 to 1000", "for 'v'", v);
    qqb_ycur_close(&c.y);
    return rc;
}

static int to_num(const char *value, int lo_open, double *v)
{
    if (at(value) != 0)
        return -2;
    int rc = qqb__suite_to_num(&c, 0, lo_open, 100, "a number from 0 to 100", "for 'v'", v);
    qqb_ycur_close(&c.y);
    return rc;
}

static void test_int(void)
{
    long long v = -7;
    CHECK_INT_EQ(to_int("12", &v), 0);
    CHECK(v == 12);
    CHECK_INT_EQ(to_int("1000", &v), 0);
    CHECK(v == 1000);
    v = -7;
    CHECK_INT_EQ(to_int("1001", &v), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected an integer from 1 to 1000 for 'v', got "
                                "'1001' (too large)");
    CHECK_INT_EQ(to_int("99999999999999999999", &v), -1);
    CHECK_STR_CONTAINS(err, "(too large)");
    CHECK_INT_EQ(to_int("'12'", &v), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected an integer from 1 to 1000 for 'v', got the "
                                "quoted string '12' (write numbers without quotes)");
    static const char *const bad[] = {"0",   "-3", "-99999999999999999999", "1.5", "12x",
                                      "1e3", "[1]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT_EQ(to_int(bad[i], &v), -1);
        CHECK_STR_CONTAINS(err, FILE_NAME ":1:4: error: expected an integer from 1 to 1000 for "
                                          "'v', got ");
    }
    CHECK_INT_EQ(to_int("", &v), -1);
    CHECK_STR_CONTAINS(err, "got an empty value");
    CHECK(v == -7); /* never written by a refusal */
}

static void test_num(void)
{
    double v = -7;
    CHECK_INT_EQ(to_num("2.5", 0, &v), 0);
    CHECK(v == 2.5);
    CHECK_INT_EQ(to_num("0", 0, &v), 0);
    CHECK(v == 0);
    CHECK_INT_EQ(to_num("100", 1, &v), 0);
    /* Open at 0: 0 refused, the smallest number above it taken. */
    v = -7;
    CHECK_INT_EQ(to_num("0", 1, &v), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected a number from 0 to 100 for 'v', got '0'");
    CHECK_INT_EQ(to_num("1e-300", 1, &v), 0);
    static const char *const bad[] = {"-0.5", "100.01", "nan",  "inf",
                                      ".inf", "1e999",  "2.5%", "[1]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = -7;
        CHECK_INT_EQ(to_num(bad[i], 0, &v), -1);
        CHECK_STR_CONTAINS(err,
                           FILE_NAME ":1:4: error: expected a number from 0 to 100 for 'v', got ");
        CHECK(v == -7);
    }
    CHECK_INT_EQ(to_num("\"5\"", 0, &v), -1);
    CHECK_STR_CONTAINS(err, "got the quoted string '5' (write numbers without quotes)");
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    if (t && *t && chdir(t) != 0) {
        perror(t);
        return 1;
    }
    RUN(test_int);
    RUN(test_num);
    unlink(FILE_NAME);
    return TEST_DONE();
}
