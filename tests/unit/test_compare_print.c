/* test_compare_print.c - harness/report/compare_print.c: `qqbench compare`'s tables on hand-made
 * rows, byte for byte: each change kind, a key only in A or in B, the resolution notes, a state
 * counted by intervals and the others by hits, same rows left out unless ALL, a long name cut at
 * 24 bytes, a type out of range; the memory table's header only when it has a row. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_print.h"
#include "test.h"

/* What FN printed on standard output. */
static char *captured(void (*fn)(int), int all)
{
    fflush(stdout);
    int so = dup(1);
    int fd = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    close(fd);
    fn(all);
    fflush(stdout);
    dup2(so, 1);
    close(so);
    FILE *fp = fopen("out.txt", "rb");
    char *p = calloc(1, 8192);
    if (fp && p)
        p[fread(p, 1, 8191, fp)] = '\0';
    if (fp)
        fclose(fp);
    return p;
}

static struct qq_key_summary s1 = {.hits = 9, .intervals = 4}, s2 = {.hits = 11, .intervals = 5};

static void keys(int all)
{
    const struct qqb_key_cmp r[] = {
        {"step", QQ_TYPE_STATE, &s1, &s2, 100.0, 110.0, 0, QQB_CHANGE_PCT, 10.0, 0, 0},
        {"tiny", QQ_TYPE_STATE, &s1, &s2, 2.0, 3.0, 2, QQB_CHANGE_TICKS, 1.0, 0, 0},
        {"half", QQ_TYPE_STATE, &s1, &s2, 2.0, 300.0, 1, QQB_CHANGE_TICKS, 298.0, 0, 0},
        {"queue", QQ_TYPE_COUNT, &s1, &s2, NAN, NAN, 0, QQB_CHANGE_SUM, 0, -42, 0},
        {"V", QQ_TYPE_VALUE, &s1, &s2, NAN, NAN, 0, QQB_CHANGE_SUM_WIDE, 1.5e300, 0, 0},
        {"big", QQ_TYPE_COUNT, &s1, &s2, NAN, NAN, 0, QQB_CHANGE_SUM_SATURATED, 0, 0, 0},
        {"onlyA", QQ_TYPE_MARK, &s1, NULL, NAN, NAN, 0, QQB_CHANGE_NONE, 0, 0, 0},
        {"onlyB", QQ_TYPE_MARK, NULL, &s2, NAN, NAN, 0, QQB_CHANGE_NONE, 0, 0, 0},
        {"same", QQ_TYPE_MARK, &s1, &s1, NAN, NAN, 0, QQB_CHANGE_NONE, 0, 0, 1},
        {"a_name_much_longer_than_twenty_four", 9, &s1, &s2, NAN, NAN, 0, QQB_CHANGE_NONE, 0, 0, 0},
    };
    qqb_compare_print_keys(r, sizeof r / sizeof r[0], all);
}

static void test_keys(void)
{
    const char *head = "key                      type      count A    count B  net cyc/ivl A  "
                       "net cyc/ivl B    change\n";
    const char *rows[] = {
        "step                     state           4          5          100.0          110.0   "
        "+10.00%\n",
        "tiny                     state           4          5            2.0            3.0   "
        "+1.0 tk  (both within the counter's resolution: not resolved)\n",
        "half                     state           4          5            2.0          300.0 "
        "+298.0 tk  (one within the counter's resolution: change in ticks)\n",
        "queue                    count           9         11                                 "
        "sum -42\n",
        "V                        value           9         11                               sum "
        "+1.5e+300\n",
        "big                      count           9         11                               sum "
        "saturated\n",
        "onlyA                    mark            9          -                                     "
        "     (only in A)\n",
        "onlyB                    mark            -         11                                     "
        "     (only in B)\n",
        "same                     mark            9          9                                     "
        "   \n",
        "a_name_much_longer_than_ ?               9         11                                     "
        "   \n",
    };
    char want[8192];
    for (int all = 0; all < 2; all++) {
        snprintf(want, sizeof want, "%s", head);
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (all || strncmp(rows[i], "same ", 5) != 0)
                strcat(want, rows[i]);
        char *got = captured(keys, all);
        CHECK_STR_EQ(got, want);
        free(got);
    }
}

static void mem_same(int all)
{
    const struct qqb_mem_cmp v[] = {{"buf", {10, 10}, {20, 20}, {1, 1}, {1, 1}}};
    qqb_compare_print_mem(v, 1, all);
}

static void mem_rows(int all)
{
    const struct qqb_mem_cmp v[] = {
        {"buf", {10, 10}, {20, 20}, {1, 1}, {1, 1}},
        {"grew", {10, 18446744073709551615u}, {0, 7}, {0, 3}, {1, 1}},
        {"gone", {0, 0}, {0, 0}, {0, 0}, {1, 0}}, /* all zero, but in A alone */
    };
    qqb_compare_print_mem(v, 3, all);
}

/* No header when every key is the same (and ALL 0); the header once, and
 * a key found on one side only printed though its numbers are equal. */
static void test_mem(void)
{
    char *got = captured(mem_same, 0);
    CHECK_STR_EQ(got, "");
    free(got);
    const char *head = "\nmemory key                      live bytes A -> B        peak bytes A -> "
                       "B       objects A -> B\n";
    const char *buf = "buf                                      10 -> 10                 20 -> 20  "
                      "             1 -> 1\n";
    got = captured(mem_same, 1);
    char want[2048];
    snprintf(want, sizeof want, "%s%s", head, buf);
    CHECK_STR_EQ(got, want);
    free(got);
    got = captured(mem_rows, 0);
    snprintf(want, sizeof want, "%s%s%s", head,
             "grew                     10 -> 18446744073709551615                   0 -> 7         "
             "      0 -> 3\n",
             "gone                                       0 -> 0                   0 -> 0           "
             "    0 -> 0\n");
    CHECK_STR_EQ(got, want);
    free(got);
}

static void utf8_names(int all)
{
    /* 1 + 12 x 2 bytes: 24 bytes end inside the twelfth "é". */
    const struct qqb_key_cmp r[] = {{"x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
                                     "\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
                                     QQ_TYPE_MARK, &s1, &s2, NAN, NAN, 0, QQB_CHANGE_NONE, 0, 0,
                                     0}};
    const struct qqb_mem_cmp v[] = {{r[0].name, {1, 2}, {1, 2}, {1, 2}, {1, 1}}};
    qqb_compare_print_keys(r, 1, all);
    qqb_compare_print_mem(v, 1, all);
}

/* A name cut to its column is cut at a character's end: the output is
 * UTF-8 (the first 23 bytes, "x" and eleven "é"), never half a character. */
static void test_utf8_cut(void)
{
    char *got = captured(utf8_names, 0);
    const char *cut = "x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                      "\xc3\xa9\xc3\xa9 ";
    int rows = 0;
    for (const char *p = got; p && (p = strstr(p, "\nx")); p++) {
        CHECK(strncmp(p + 1, cut, strlen(cut)) == 0);
        rows++;
    }
    CHECK_INT_EQ(rows, 2);
    /* No lead byte left without its continuation. */
    for (const unsigned char *p = (const unsigned char *)got; p && *p; p++)
        if (*p == 0xc3)
            CHECK(p[1] == 0xa9);
    free(got);
}

int main(void)
{
    RUN(test_keys);
    RUN(test_mem);
    RUN(test_utf8_cut);
    return TEST_DONE();
}
