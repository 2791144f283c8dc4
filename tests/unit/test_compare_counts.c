/* test_compare_counts.c - qqbench compare sums counts over nodes without signed overflow, and says
 * when a sum saturated. */
#define QQ_ENABLE 1
#include <stdint.h>

#include "cmd_output.h"
#include "cmds.h"
#include "craft.h"
#include "qq.h"
#include "test.h"

static int kc;

/* Run `qqbench compare A B` with stdout into OUT; returns its exit status. */
static int compare(const char *a, const char *b, char *out, size_t outlen)
{
    char *argv[] = {"compare", "--all", (char *)a, (char *)b, NULL};
    return cmd_output(cmd_compare, 4, argv, out, outlen);
}

static void test_sum_over_nodes_saturates(void)
{
    const int64_t a[] = {INT64_MAX, INT64_MAX, 7}; /* beyond 64 bits over nodes */
    const int64_t b[] = {-5};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, a, 3), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, b, 1), 0);
    char out[8192];
    CHECK_INT_EQ(compare("a.qq", "b.qq", out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "sum saturated");
}

static void test_change_beyond_64_bits(void)
{
    const int64_t a[] = {INT64_MIN + 10};
    const int64_t b[] = {INT64_MAX - 10};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, a, 1), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, b, 1), 0);
    char out[8192];
    CHECK_INT_EQ(compare("a.qq", "b.qq", out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "sum +1.845e+19");
}

static void test_ordinary_change(void)
{
    const int64_t a[] = {40, 2};
    const int64_t b[] = {-8};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, a, 2), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, b, 1), 0);
    char out[8192];
    CHECK_INT_EQ(compare("a.qq", "b.qq", out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "sum -50");
}

int main(void)
{
    QQInit(10);
    kc = QQAddCount("c");
    RUN(test_sum_over_nodes_saturates);
    RUN(test_change_beyond_64_bits);
    RUN(test_ordinary_change);
    return TEST_DONE();
}
