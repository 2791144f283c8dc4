/* test_strbuf.c - the harness's one string builder: appends, formatted appends past any fixed
 * size, take and free, and out of memory (sticky, and take says so). */
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "test.h"

static void test_build(void)
{
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    CHECK_STR_EQ(qqb_strbuf_str_of(&b), "");
    qqb_strbuf_str(&b, "abc");
    qqb_strbuf_add(&b, "defgh", 2);
    qqb_strbuf_printf(&b, "|%d|%s", 42, "x");
    CHECK_STR_EQ(qqb_strbuf_str_of(&b), "abcde|42|x");
    CHECK(b.n == strlen("abcde|42|x"));
    char *s = qqb_strbuf_take(&b);
    CHECK_STR_EQ(s, "abcde|42|x");
    CHECK(b.s == NULL && b.n == 0);
    free(s);
    s = qqb_strbuf_take(&b); /* nothing added: an empty string, not NULL */
    CHECK(s && !strcmp(s, ""));
    free(s);
}

static void test_long(void)
{
    /* Far past the fixed 4096-byte buffers it stands in for: nothing is cut. */
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    for (int i = 0; i < 5000; i++)
        qqb_strbuf_printf(&b, "%04d,", i);
    CHECK(b.n == 25000);
    CHECK(!strncmp(qqb_strbuf_str_of(&b) + 24995, "4999,", 5));
    qqb_strbuf_free(&b);
    CHECK(b.s == NULL);
}

static void test_failed(void)
{
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    qqb_strbuf_str(&b, "abc");
    /* A length no allocation can hold fails the buffer, and stays failed. */
    qqb_strbuf_add(&b, "x", (size_t)-1 / 2);
    CHECK(qqb_strbuf_failed(&b));
    qqb_strbuf_str(&b, "more");
    CHECK_STR_EQ(qqb_strbuf_str_of(&b), "");
    CHECK(qqb_strbuf_take(&b) == NULL);
    CHECK(b.s == NULL && !b.failed);
}

int main(void)
{
    RUN(test_build);
    RUN(test_long);
    RUN(test_failed);
    return TEST_DONE();
}
