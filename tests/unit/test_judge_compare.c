/* test_judge_compare.c - judge/judge_compare.c: two .qq files' keys summed over nodes and each
 * key's change as numbers (qqbench compare prints them): a count's sum changed, the same sum, a
 * key only in one file. */
#define QQ_ENABLE 1
#include <stdint.h>

#include "craft.h"
#include "judge_compare.h"
#include "qq.h"
#include "test.h"

static int kc;

/* The row of count key "c" comparing files A and B. */
static struct qqb_key_cmp compare_c(const char *a, const char *b)
{
    struct qqb_qq_side s[2];
    struct qqb_key_cmp *rows = NULL, row;
    size_t n = 0;
    char err[256];
    memset(s, 0, sizeof s);
    memset(&row, 0, sizeof row);
    for (int i = 0; i < 2; i++) {
        CHECK_INT_EQ(qq_file_open_stream(i ? b : a, &s[i].f), 0);
        CHECK_INT_EQ(qqb_qq_side_load(&s[i], err, sizeof err), 0);
    }
    CHECK_INT_EQ(qqb_compare_keys(&s[0], &s[1], &rows, &n), 0);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].name, "c"))
            row = rows[i];
    CHECK(row.name != NULL);
    row.name = NULL; /* borrowed from a file closed below */
    row.sa = row.sb = NULL;
    free(rows);
    for (int i = 0; i < 2; i++) {
        qqb_qq_side_free(&s[i]);
        qq_file_close(s[i].f);
    }
    return row;
}

static void test_count_changed(void)
{
    const int64_t a[] = {40, 2}, b[] = {-8};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, a, 2), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, b, 1), 0);
    struct qqb_key_cmp r = compare_c("a.qq", "b.qq");
    CHECK_INT_EQ(r.kind, QQB_CHANGE_SUM);
    CHECK(r.sum_change == -50);
    CHECK_INT_EQ(r.same, 0);
}

static void test_count_same(void)
{
    const int64_t a[] = {40, 2}, b[] = {42};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, a, 2), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, b, 1), 0);
    struct qqb_key_cmp r = compare_c("a.qq", "b.qq");
    CHECK_INT_EQ(r.kind, QQB_CHANGE_NONE);
    CHECK_INT_EQ(r.same, 0); /* two hits against one */
    const int64_t c[] = {21, 21};
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, c, 2), 0);
    r = compare_c("a.qq", "b.qq");
    CHECK_INT_EQ(r.kind, QQB_CHANGE_NONE);
    CHECK_INT_EQ(r.same, 1);
}

static void test_count_saturated(void)
{
    const int64_t a[] = {INT64_MAX, INT64_MAX, 7}, b[] = {-5};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, a, 3), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, b, 1), 0);
    struct qqb_key_cmp r = compare_c("a.qq", "b.qq");
    CHECK_INT_EQ(r.kind, QQB_CHANGE_SUM_SATURATED);
    const int64_t lo[] = {INT64_MIN + 10}, hi[] = {INT64_MAX - 10};
    CHECK_INT_EQ(craft_counts_file("a.qq", kc, lo, 1), 0);
    CHECK_INT_EQ(craft_counts_file("b.qq", kc, hi, 1), 0);
    r = compare_c("a.qq", "b.qq");
    CHECK_INT_EQ(r.kind, QQB_CHANGE_SUM_WIDE);
    CHECK(r.change > 1.8e19);
}

int main(void)
{
    QQInit(10);
    kc = QQAddCount("c");
    RUN(test_count_changed);
    RUN(test_count_same);
    RUN(test_count_saturated);
    return TEST_DONE();
}
