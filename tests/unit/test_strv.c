/* test_strv.c - NULL-ended string arrays (util/strv.h): a deep copy, equality (two NULLs equal,
 * NULL and an empty array not), the rule of a list that selects (empty selects everything), and
 * the case rule built on them (store/results.h: a command missing on either side differs from
 * nothing). */
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "strv.h"
#include "test.h"

static void strv_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static void test_dup(void)
{
    char a0[] = "mpirun", a1[] = "-np", a2[] = "2";
    char *src[] = {a0, a1, a2, NULL};
    char **d = (char **)1;
    CHECK_INT_EQ(qqb_strv_dup(NULL, &d), 0);
    CHECK(d == NULL);
    CHECK_INT_EQ(qqb_strv_dup(src, &d), 0);
    CHECK(d && d[0] && d[1] && d[2] && !d[3]);
    if (!d || !d[2])
        return;
    /* A deep copy: the original's bytes change, the copy's do not. */
    CHECK(d[0] != src[0]);
    a2[0] = '4';
    CHECK(!strcmp(d[2], "2"));
    char *empty[] = {NULL};
    char **e = NULL;
    CHECK_INT_EQ(qqb_strv_dup(empty, &e), 0);
    CHECK(e && !e[0]);
    strv_free(d);
    strv_free(e);
}

static void test_equal(void)
{
    char *ab[] = {"a", "b", NULL}, *ab2[] = {"a", "b", NULL}, *a[] = {"a", NULL};
    char *ac[] = {"a", "c", NULL}, *empty[] = {NULL};
    CHECK(qqb_strv_equal(ab, ab2));
    CHECK(qqb_strv_equal(NULL, NULL));
    CHECK(!qqb_strv_equal(NULL, empty));
    CHECK(!qqb_strv_equal(empty, NULL));
    CHECK(qqb_strv_equal(empty, empty));
    CHECK(!qqb_strv_equal(ab, a)); /* a prefix is not the same */
    CHECK(!qqb_strv_equal(a, ab));
    CHECK(!qqb_strv_equal(ab, ac));
}

static void test_selects(void)
{
    char *keys[] = {"Km", "Ka"};
    CHECK(qqb_strv_selects(keys, 0, "anything")); /* no choice made: all are in */
    CHECK(qqb_strv_selects(keys, 2, "Ka"));
    CHECK(!qqb_strv_selects(keys, 2, "K"));
    CHECK(!qqb_strv_selects(keys, 1, "Ka")); /* only the first N count */
}

static void test_command_differs(void)
{
    char *one[] = {"k", "--steps", "10", NULL}, *two[] = {"k", "--steps", "20", NULL};
    struct qqb_case_result a = {0}, b = {0};
    CHECK(!qqb_case_command_differs(&a, &b));
    a.command = one;
    CHECK(!qqb_case_command_differs(&a, &b)); /* stored before commands were */
    b.command = one;
    CHECK(!qqb_case_command_differs(&a, &b));
    b.command = two;
    CHECK(qqb_case_command_differs(&a, &b));
}

int main(void)
{
    test_dup();
    test_equal();
    test_selects();
    test_command_differs();
    return TEST_DONE();
}
