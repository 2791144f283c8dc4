/* test_words.c - a count with its noun ("1 case", not "1 cases") and a change with its sign
 * (a figure that rounds to zero is "+0.00", not "-0.00"), as every report line says them. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "words.h"

static void test_count(void)
{
    struct qqb_count b;
    CHECK_STR_EQ(qqb_count(&b, 1, "case"), "1 case");
    CHECK_STR_EQ(qqb_count(&b, 0, "case"), "0 cases");
    CHECK_STR_EQ(qqb_count(&b, 2, "case"), "2 cases");
    CHECK_STR_EQ(qqb_count(&b, 1, "launch"), "1 launch");
    CHECK_STR_EQ(qqb_count(&b, 6, "launch"), "6 launches");
    CHECK_STR_EQ(qqb_count(&b, 3, "process"), "3 processes");
    CHECK_STR_EQ(qqb_count(&b, 1, "node"), "1 node");
    CHECK_STR_EQ(qqb_count(&b, 18446744073709551615ull, "run"), "18446744073709551615 runs");
}

static void test_signed(void)
{
    struct qqb_signed b;
    CHECK_STR_EQ(qqb_signed(&b, -0.001, 2), "+0.00");
    CHECK_STR_EQ(qqb_signed(&b, -0.0, 2), "+0.00");
    CHECK_STR_EQ(qqb_signed(&b, -0.04, 1), "+0.0");
    CHECK_STR_EQ(qqb_signed(&b, -0.4, 0), "+0");
    CHECK_STR_EQ(qqb_signed(&b, 0.0, 2), "+0.00");
    CHECK_STR_EQ(qqb_signed(&b, -0.005001, 2), "-0.01");
    CHECK_STR_EQ(qqb_signed(&b, 1.254, 2), "+1.25");
    CHECK_STR_EQ(qqb_signed(&b, -12.5, 1), "-12.5");
    CHECK_STR_EQ(qqb_signed(&b, -10.0, 2), "-10.00");
    CHECK_STR_EQ(qqb_signed(&b, NAN, 2), "nan");
    CHECK_STR_EQ(qqb_signed(&b, INFINITY, 2), "+inf");
    CHECK_STR_EQ(qqb_signed(&b, -INFINITY, 2), "-inf");
    /* A hostile figure from a file still fits. */
    CHECK_STR_EQ(qqb_signed(&b, -1e300, 2), "-1e+300");
    CHECK(strlen(qqb_signed(&b, -9.99e14, 9)) < sizeof b.s);
}

/* A cut at a character's end: ASCII to the byte, a 2-, 3- and 4-byte
 * character kept whole or left out whole, a string shorter than MAX whole. */
static void test_utf8_fit(void)
{
    CHECK_INT_EQ(qqb_utf8_fit("abcdef", 4), 4);
    CHECK_INT_EQ(qqb_utf8_fit("abc", 24), 3);
    CHECK_INT_EQ(qqb_utf8_fit("", 24), 0);
    CHECK_INT_EQ(qqb_utf8_fit("a\xc3\xa9"
                              "b",
                              2),
                 1); /* "é" would be cut: left out */
    CHECK_INT_EQ(qqb_utf8_fit("a\xc3\xa9"
                              "b",
                              3),
                 3); /* "é" fits whole */
    CHECK_INT_EQ(qqb_utf8_fit("\xe2\x82\xac"
                              "x",
                              2),
                 0); /* "€" */
    CHECK_INT_EQ(qqb_utf8_fit("\xe2\x82\xac"
                              "x",
                              3),
                 3);
    CHECK_INT_EQ(qqb_utf8_fit("ab\xf0\x9f\x98\x80", 5), 2); /* a 4-byte emoji */
    CHECK_INT_EQ(qqb_utf8_fit("ab\xf0\x9f\x98\x80", 6), 6);
    CHECK_INT_EQ(qqb_utf8_fit("abc", 0), 0);
}

int main(void)
{
    RUN(test_count);
    RUN(test_signed);
    RUN(test_utf8_fit);
    return TEST_DONE();
}
