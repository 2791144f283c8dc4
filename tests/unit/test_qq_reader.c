/* test_qq_reader.c - the reader rejects every kind of damage with a clear message, never a crash.
 */
#define QQ_ENABLE 1
#include <stdint.h>
#include <stdlib.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"

static unsigned char *good;
static size_t good_len;

/* A valid file: 3 keys, 40 entries. */
static void make_good(void)
{
    QQInit(100);
    int s = QQAddState("s"), c = QQAddCount("c");
    QQAddMark("unused");
    for (int i = 0; i < 20; i++) {
        QQStateOn(s);
        QQCount(c, i);
    }
    if (qq_out("good.qq", 0, 1) != 0) {
        fprintf(stderr, "cannot write good.qq: %s\n", qq_out_errmsg());
        exit(1);
    }
    FILE *fp = fopen("good.qq", "rb");
    fseek(fp, 0, SEEK_END);
    good_len = (size_t)ftell(fp);
    rewind(fp);
    good = malloc(good_len);
    if (fread(good, 1, good_len, fp) != good_len)
        exit(1);
    fclose(fp);
}

/* Open a copy of the good file changed by the caller; expect ERR and a
 * message containing WANT. */
static void expect(const unsigned char *data, size_t len, int err, const char *want)
{
    /* A fresh heap copy of exactly LEN bytes, so ASan sees any read past it. */
    unsigned char *copy = malloc(len ? len : 1);
    memcpy(copy, data, len);
    struct qq_file *f;
    int rc = qq_file_open_mem(copy, len, "bad.qq", &f);
    CHECK_INT_EQ(rc, err);
    if (want)
        CHECK_STR_CONTAINS(qq_file_errmsg(f), want);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "bad.qq: ");
    qq_file_close(f);
    free(copy);
}

static unsigned char *copy_good(void)
{
    unsigned char *c = malloc(good_len);
    memcpy(c, good, good_len);
    return c;
}

/* Byte offset of the node table's first record. */
static size_t node_record(const unsigned char *d)
{
    size_t pos = QQ__HEADER_SIZE;
    while (pos < good_len) {
        uint32_t tag;
        uint64_t len;
        memcpy(&tag, d + pos, 4);
        memcpy(&len, d + pos + 8, 8);
        if (tag == QQ__TAG_NODE)
            return pos + QQ__SECTION_HEAD;
        pos += QQ__SECTION_HEAD + len;
    }
    return 0;
}

static void test_good_opens(void)
{
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("good.qq", &f), 0);
    CHECK_U64_EQ(qq_file_node(f, 0)->entries, 40);
    qq_file_close(f);
}

static void test_missing_file(void)
{
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("no-such.qq", &f), QQ_EIO);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "no-such.qq: cannot open");
    qq_file_close(f);
}

static void test_every_truncation(void)
{
    int clean = 1;
    for (size_t len = 0; len < good_len; len++) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, good, len);
        struct qq_file *f;
        int rc = qq_file_open_mem(copy, len, "cut.qq", &f);
        if (rc != QQ_ETRUNCATED && rc != QQ_EMAGIC) {
            TEST_FAIL_AT("truncated to %zu bytes: %s (%s)", len, qq_err_name(rc),
                         qq_file_errmsg(f));
            clean = 0;
        }
        qq_file_close(f);
        free(copy);
        if (!clean)
            break;
    }
    expect(good, 100, QQ_ETRUNCATED, "truncated");
}

static void test_bad_magic_and_version(void)
{
    unsigned char *c = copy_good();
    c[0] = 'X';
    expect(c, good_len, QQ_EMAGIC, "bad magic");
    memcpy(c, good, 8);
    c[8] = 9;
    expect(c, good_len, QQ_EVERSION, "version 9.1");
    free(c);
}

static void test_incomplete(void)
{
    unsigned char *c = copy_good();
    c[16] = 0;
    expect(c, good_len, QQ_EINCOMPLETE, "did not finish");
    free(c);
}

static void test_offset_and_count_past_end(void)
{
    unsigned char *c = copy_good();
    size_t rec = node_record(c);
    CHECK(rec > 0);
    qq__store_u64(c + rec + 8, good_len + 4096); /* offset */
    expect(c, good_len, QQ_ECORRUPT, "point past the end");
    memcpy(c, good, good_len);
    qq__store_u64(c + rec + 16, 1000000); /* entry count */
    expect(c, good_len, QQ_ECORRUPT, "point past the end");
    memcpy(c, good, good_len);
    qq__store_u64(c + rec + 16, 39); /* count that fits but mismatches */
    expect(c, good_len, QQ_ECORRUPT, "do not match an entry section");
    memcpy(c, good, good_len);
    qq__store_u64(c + rec + 8, 72); /* offset inside the file, not an entry section */
    expect(c, good_len, QQ_ECORRUPT, "do not match");
    free(c);
}

static void test_unknown_key_and_bad_state(void)
{
    unsigned char *c = copy_good();
    size_t rec = node_record(c);
    uint64_t off;
    memcpy(&off, c + rec + 8, 8);
    qq__store_u32(c + off + 17 * QQ__EVENT_SIZE, 12);
    expect(c, good_len, QQ_ECORRUPT, "entry 17 has key 12, but the file has 3 keys");
    memcpy(c, good, good_len);
    qq__store_u64(c + off + 8, 7); /* state info of entry 0 */
    expect(c, good_len, QQ_ECORRUPT, "not 0 or 1");
    free(c);
}

static void test_section_length_and_counts(void)
{
    unsigned char *c = copy_good();
    qq__store_u64(c + QQ__HEADER_SIZE + 8, UINT64_MAX - 8); /* first section */
    expect(c, good_len, QQ_ECORRUPT, "past the end of the file");
    memcpy(c, good, good_len);
    qq__store_u32(c + 24, 5); /* nnodes: the node table is for 1 */
    expect(c, good_len, QQ_ECORRUPT, "node table");
    memcpy(c, good, good_len);
    qq__store_u32(c + 20, 4000000000u); /* nkeys */
    expect(c, good_len, QQ_ECORRUPT, "claims");
    memcpy(c, good, good_len);
    qq__store_u64(c + 32, good_len - 8); /* file size says shorter */
    expect(c, good_len, QQ_ECORRUPT, "header says");
    free(c);
}

/* Seeded random damage: every result is either success or a clean error. */
static void test_random_damage(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int opened = 0, refused = 0;
    for (int i = 0; i < 3000; i++) {
        unsigned char *c = copy_good();
        for (int k = 0; k < 1 + i % 4; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            c[x % good_len] ^= (unsigned char)(1u << (x >> 32) % 8);
        }
        struct qq_file *f;
        int rc = qq_file_open_mem(c, good_len, "flip.qq", &f);
        if (rc == 0) {
            opened++;
            struct qq_node_summary ns;
            struct qq_key_summary *ks = calloc(qq_file_nkeys(f) + 1, sizeof *ks);
            for (uint32_t n = 0; n < qq_file_nnodes(f); n++)
                CHECK_INT_EQ(qq_file_summarize(f, n, &ns, ks), 0);
            free(ks);
        } else {
            refused++;
            CHECK(strlen(qq_file_errmsg(f)) > 10);
        }
        qq_file_close(f);
        free(c);
    }
    printf("  random damage: %d opened (harmless bytes), %d refused\n", opened, refused);
    CHECK(refused > 0);
}

int main(void)
{
    make_good();
    RUN(test_good_opens);
    RUN(test_missing_file);
    RUN(test_every_truncation);
    RUN(test_bad_magic_and_version);
    RUN(test_incomplete);
    RUN(test_offset_and_count_past_end);
    RUN(test_unknown_key_and_bad_state);
    RUN(test_section_length_and_counts);
    RUN(test_random_damage);
    free(good);
    return TEST_DONE();
}
