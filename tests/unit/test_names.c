/* test_names.c - util/names.h, the one rule for names read from suites, run JSON, baselines and
 * .qq files: a plain name (a file name's part) is 1 to 128 of [A-Za-z0-9._-] and never "." or
 * ".."; a text name (keys, case names) 1 to 255 bytes of UTF-8 with no control character and
 * no backquote; each refusal says why, with the offending byte and its 1-based place. */
#include <string.h>

#include "names.h"
#include "test.h"

/* The reason KIND refuses S, or "" when it takes it. */
static const char *why_of(enum qqb_name_kind kind, const char *s)
{
    static char why[128];
    why[0] = '\0';
    if (qqb_name_check(kind, s, why, sizeof why) == 0) {
        if (why[0])
            return "(taken, with a reason)";
        return "";
    }
    return why[0] ? why : "(refused, no reason)";
}

static void test_plain(void)
{
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "msg_pack-2.0"), "");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "..."), "");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, ".hidden"), "");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, ""), "is empty");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, NULL), "is empty");
    /* The names a path would climb with. */
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "."), "is '.'");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, ".."), "is '..'");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "a/b"), "has the byte 0x2f at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "../x"), "has the byte 0x2f at 3");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "a b"), "has the byte 0x20 at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "p[a]"), "has the byte 0x5b at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, "caf\xc3\xa9"), "has the byte 0xc3 at 4");
    /* 128 bytes taken, 129 refused by their count. */
    char n[QQB_NAME_PLAIN_MAX + 2];
    memset(n, 'x', sizeof n - 1);
    n[QQB_NAME_PLAIN_MAX] = '\0';
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, n), "");
    n[QQB_NAME_PLAIN_MAX] = 'x';
    n[QQB_NAME_PLAIN_MAX + 1] = '\0';
    CHECK_STR_EQ(why_of(QQB_NAME_PLAIN, n), "is 129 bytes, at most 128");
    /* Every byte: exactly the 65 of the rule. */
    int taken = 0;
    for (int c = 0; c < 256; c++)
        taken += qqb_name_plain_char(c);
    CHECK_INT_EQ(taken, 26 + 26 + 10 + 3);
    CHECK(qqb_name_plain_char('_') && qqb_name_plain_char('.') && qqb_name_plain_char('-'));
    CHECK(!qqb_name_plain_char('/') && !qqb_name_plain_char(0) && !qqb_name_plain_char(-1));
}

static void test_text(void)
{
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "chain[direct]@1"), "");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "g[n=1000]@1 (reference build)"), "");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "time in \xc2\xb5s"), "");    /* µ */
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "\xf0\x9f\x98\x80 key"), ""); /* 4 bytes */
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, ""), "is empty");
    /* A backquote (gnuplot runs `...`), control characters, DEL. */
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "a`rm`"), "has the byte 0x60 at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "a\tb"), "has the byte 0x09 at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "line\n"), "has the byte 0x0a at 5");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "\x1b[31m"), "has the byte 0x1b at 1");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "del\x7f"), "has the byte 0x7f at 4");
    /* Bytes that are not UTF-8: a stray continuation, a lead byte cut short,
     * an overlong '/', a surrogate. */
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "a\x80"), "has the byte 0x80 at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "ab\xc3"), "has the byte 0xc3 at 3");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "\xc0\xaf"), "has the byte 0xc0 at 1");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "x\xed\xa0\x80"), "has the byte 0xed at 2");
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, "\xff"), "has the byte 0xff at 1");
    /* 255 bytes taken, 256 refused by their count. */
    char n[QQB_NAME_TEXT_MAX + 2];
    memset(n, 'k', sizeof n - 1);
    n[QQB_NAME_TEXT_MAX] = '\0';
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, n), "");
    n[QQB_NAME_TEXT_MAX] = 'k';
    n[QQB_NAME_TEXT_MAX + 1] = '\0';
    CHECK_STR_EQ(why_of(QQB_NAME_TEXT, n), "is 256 bytes, at most 255");
    /* A reason cut to the room given, never past it. */
    char small[8] = "xxxxxxx";
    CHECK_INT_EQ(qqb_name_check(QQB_NAME_TEXT, "a`", small, 5), -1);
    CHECK_STR_EQ(small, "has ");
}

static void test_rule(void)
{
    CHECK_STR_CONTAINS(qqb_name_rule(QQB_NAME_PLAIN), "128");
    CHECK_STR_CONTAINS(qqb_name_rule(QQB_NAME_TEXT), "255");
    CHECK_STR_CONTAINS(qqb_name_rule(QQB_NAME_TEXT), "backquote");
}

int main(void)
{
    RUN(test_plain);
    RUN(test_text);
    RUN(test_rule);
    return TEST_DONE();
}
