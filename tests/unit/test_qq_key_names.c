/* test_qq_key_names.c - one rule for key names: checked by qq_name_check, cleaned by QQAddState and
 * MemAddKey, held by the reader. */
#define _GNU_SOURCE /* memmem */
#define QQ_ENABLE   1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_mem.h"
#include "test.h"

static size_t check(const char *s)
{
    return qq_name_check(s, strlen(s));
}

static void test_name_check(void)
{
    CHECK_INT_EQ(check(""), 0);
    CHECK_INT_EQ(check("Km"), 0);
    CHECK_INT_EQ(check("MessageBus::Sync"), 0);
    CHECK_INT_EQ(check("sig:chain:flops"), 0);
    CHECK_INT_EQ(check("\xc2\xb5s per hit"), 0); /* U+00B5 */
    CHECK_INT_EQ(check("a\x1b[31m"), 2);         /* ESC */
    CHECK_INT_EQ(check("x`id`"), 2);             /* backquote */
    CHECK_INT_EQ(check("a\tb"), 2);              /* tab */
    CHECK_INT_EQ(check("ab\x7f"), 3);            /* DEL */
    CHECK_INT_EQ(check("a\xc2\x85"), 2);         /* U+0085, a C1 control */
    CHECK_INT_EQ(check("a\xff"), 2);             /* not UTF-8 */
    CHECK_INT_EQ(check("a\xc0\x80"), 2);         /* overlong NUL */
    CHECK_INT_EQ(check("a\xed\xa0\x80"), 2);     /* a surrogate */
    CHECK_INT_EQ(check("a\xe2\x82"), 2);         /* cut short */
    CHECK_INT_EQ(qq_name_check("a\0X", 3), 2);   /* a NUL inside */
    char big[300];
    memset(big, 'a', sizeof big);
    CHECK_INT_EQ(qq_name_check(big, QQ_NAME_MAX), 0);
    CHECK_INT_EQ(qq_name_check(big, QQ_NAME_MAX + 1), QQ_NAME_MAX + 1);
}

static void test_names_cleaned(void)
{
    QQInit(100);
    int a = QQAddState("a\x1b[31m"), b = QQAddState("x`id`"), c = QQAddMark("ok");
    char big[400];
    memset(big, 'k', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    int d = QQAddCount(big);
    /* A name cut at a character's end: 254 ASCII bytes, then a 2-byte one. */
    char edge[300];
    memset(edge, 'e', 254);
    memcpy(edge + 254, "\xc2\xb5z", 4);
    int e = QQAddValue(edge);
    /* The same raw name again is the same key. */
    CHECK_INT_EQ(QQAddState("a\x1b[31m"), a);
    int m = MemAddKey("mem\x01key");
    CHECK(a >= 0 && b >= 0 && c >= 0 && d >= 0 && e >= 0 && m > 0);
    void *blk = MemMalloc(m, 64);
    QQStateOn(a);
    QQStateOff(a);
    CHECK_INT_EQ(qq_out("names.qq", 0, 1), 0);
    struct qq_file *f = NULL;
    int rc = qq_file_open("names.qq", &f);
    CHECK_INT_EQ(rc, 0);
    if (rc != 0) {
        qq_file_close(f);
        return;
    }
    CHECK_STR_EQ(qq_file_key(f, (uint32_t)a)->name, "a?[31m");
    CHECK_STR_EQ(qq_file_key(f, (uint32_t)b)->name, "x?id?");
    CHECK_STR_EQ(qq_file_key(f, (uint32_t)c)->name, "ok");
    CHECK_INT_EQ(strlen(qq_file_key(f, (uint32_t)d)->name), QQ_NAME_MAX);
    CHECK_INT_EQ(strlen(qq_file_key(f, (uint32_t)e)->name), 254); /* U+00B5 would pass 255 */
    struct qq_mem_table t;
    CHECK_INT_EQ(qq_file_mem(f, 0, &t), 1);
    int seen = 0;
    for (uint32_t r = 0; r < t.nrows; r++)
        seen += !strcmp(t.rows[r].name, "mem?key");
    CHECK_INT_EQ(seen, 1);
    qq_file_close(f);
    MemFree(m, blk);
}

/* The reader holds every file to the rule: a name with an ESC, a NUL, a
 * byte that is not UTF-8 is damage (they printed raw, merged keys, and made
 * JSON null). */
static void test_reader_refuses(void)
{
    FILE *fp = fopen("names.qq", "rb");
    if (!fp) {
        TEST_FAIL_AT("names.qq was not written");
        return;
    }
    static unsigned char img[1 << 20];
    size_t n = fread(img, 1, sizeof img, fp);
    fclose(fp);
    unsigned char *at = memmem(img, n, "a?[31m", 6);
    CHECK(at != NULL);
    if (!at)
        return;
    static const unsigned char bad[] = {0x1b, 0x00, 0xff, '`'};
    for (size_t i = 0; i < sizeof bad; i++) {
        at[1] = bad[i];
        struct qq_file *f = NULL;
        int rc = qq_file_open_mem(img, n, "patched.qq", &f);
        CHECK_INT_EQ(rc, QQ_ECORRUPT);
        if (f)
            CHECK_STR_CONTAINS(qq_file_errmsg(f), "breaks the rule for names at byte 2");
        qq_file_close(f);
    }
    at[1] = '?';
}

int main(void)
{
    RUN(test_name_check);
    RUN(test_names_cleaned);
    RUN(test_reader_refuses);
    return TEST_DONE();
}
