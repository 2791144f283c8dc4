/* test_suite_text.c - suite/suite_text.c, the suite's strings: arrays grown by doubling with
 * zeroed elements, names and identifiers, "{param}" placeholders (braces around anything else
 * are plain text) and their expansion for one point (a value is put in once, never expanded
 * again; an unknown placeholder stays as written). */
#include <stdlib.h>
#include <string.h>

#include "suite_int.h"
#include "test.h"

static void test_push(void)
{
    long *v = NULL;
    size_t n = 0;
    int bad = 0;
    for (long i = 0; i < 1000; i++) {
        long *nv = qqb__suite_push(v, &n, sizeof *v);
        if (!nv) {
            TEST_FAIL_AT("push %ld: out of memory", i);
            break;
        }
        v = nv;
        bad += v[n - 1] != 0; /* zeroed */
        v[n - 1] = i * 3;
    }
    CHECK_INT_EQ(n, 1000);
    for (size_t i = 0; v && i < n; i++)
        bad += v[i] != (long)i * 3;
    CHECK_INT_EQ(bad, 0);
    free(v);

    char **s = NULL;
    size_t ns = 0;
    CHECK_INT_EQ(qqb__suite_push_str(&s, &ns, "abcdef", 3), 0);
    CHECK_INT_EQ(qqb__suite_push_str(&s, &ns, "", 0), 0);
    CHECK_INT_EQ(qqb__suite_push_str(&s, &ns, "x\0y", 3), 0);
    CHECK(ns == 3 && s && !strcmp(s[0], "abc") && !strcmp(s[1], "") && !strcmp(s[2], "x"));
    qqb__suite_free_strs(s, ns);
}

static void test_names(void)
{
    CHECK(qqb__suite_valid_name("msg_pack-2.0"));
    CHECK(!qqb__suite_valid_name("."));
    CHECK(!qqb__suite_valid_name("a/b"));
    CHECK(!qqb__suite_valid_name(""));
    CHECK(qqb__suite_valid_ident("n"));
    CHECK(qqb__suite_valid_ident("_x1"));
    CHECK(!qqb__suite_valid_ident("1n"));
    CHECK(!qqb__suite_valid_ident(""));
    CHECK(!qqb__suite_valid_ident("a-b"));
    CHECK(!qqb__suite_valid_ident("a b"));
}

/* The place of S's next placeholder and its length, or -1. */
static long ph(const char *s, size_t *len)
{
    *len = 0;
    const char *p = qqb__suite_placeholder(s, len);
    return p ? (long)(p - s) : -1;
}

static void test_placeholder(void)
{
    size_t len;
    CHECK_INT_EQ(ph("--work={n}", &len), 7);
    CHECK_INT_EQ(len, 1);
    CHECK_INT_EQ(ph("{nodes}", &len), 0);
    CHECK_INT_EQ(len, 5);
    /* Braces around anything but an identifier: plain text. */
    CHECK_INT_EQ(ph("{}", &len), -1);
    CHECK_INT_EQ(ph("{1}", &len), -1);
    CHECK_INT_EQ(ph("{ n}", &len), -1);
    CHECK_INT_EQ(ph("{n", &len), -1);
    CHECK_INT_EQ(ph("{n-1}", &len), -1);
    CHECK_INT_EQ(ph("awk '{print $1}'", &len), -1);
    CHECK_INT_EQ(ph("", &len), -1);
    /* The first identifier in braces after plain ones. */
    CHECK_INT_EQ(ph("{{n}}", &len), 1);
    CHECK_INT_EQ(ph("{a-b}{c}", &len), 5);
    CHECK_INT_EQ(len, 1);
}

static void test_expand(void)
{
    char *nv[] = {"1000", "20000"}, *sv[] = {"{nodes}"};
    struct qqb_param params[] = {{.name = "n", .values = nv, .nvalues = 2},
                                 {.name = "s", .values = sv, .nvalues = 1}};
    struct qqb_bench b = {.name = "p", .params = params, .nparams = 2};
    size_t point[] = {1, 0};
    char *e = qqb__suite_expand("--work {n} on {nodes}: {other} {n", &b, point, 4);
    CHECK_STR_EQ(e, "--work 20000 on 4: {other} {n");
    free(e);
    /* A value put in once: "{nodes}" as a value stays as it is. */
    e = qqb__suite_expand("s={s}", &b, point, 4);
    CHECK_STR_EQ(e, "s={nodes}");
    free(e);
    /* nodes as the run gives it. */
    e = qqb__suite_expand("{nodes}{nodes}", &b, point, -2);
    CHECK_STR_EQ(e, "-2-2");
    free(e);
    /* No bench: nodes only; no placeholder: the text whole. */
    e = qqb__suite_expand("{n}@{nodes}", NULL, NULL, 16);
    CHECK_STR_EQ(e, "{n}@16");
    free(e);
    e = qqb__suite_expand("", &b, point, 1);
    CHECK_STR_EQ(e, "");
    free(e);
    /* 10,000 of them: each put in. */
    size_t k = 10000;
    char *big = malloc(3 * k + 1);
    if (big) {
        for (size_t i = 0; i < k; i++)
            memcpy(big + 3 * i, "{n}", 3);
        big[3 * k] = '\0';
        e = qqb__suite_expand(big, &b, point, 1);
        CHECK(e && strlen(e) == 5 * k && !strncmp(e, "2000020000", 10));
        free(e);
        free(big);
    }
}

int main(void)
{
    RUN(test_push);
    RUN(test_names);
    RUN(test_placeholder);
    RUN(test_expand);
    return TEST_DONE();
}
