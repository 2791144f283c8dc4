/* test_kbuild.c - a kernel's build read from its ELF file (store/kbuild.c): this test's own
 * program gives a build ID, a compiler and producers; files that are not ELF give nothing;
 * hostile copies (bytes changed in the headers, the section table and anywhere, cut short)
 * are read without a fault and give only bounded printable strings; the comparison and the
 * brief of what differs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <elf.h>

#include "kbuild.h"
#include "strbuf.h"
#include "test.h"

/* Every string of B bounded and printable, at most QQB_KBUILD_MAX of each. */
static int sane(const struct qqb_kbuild *b)
{
    if (b->id) {
        size_t n = strlen(b->id);
        if (n == 0 || n % 2 || n > 128 || strspn(b->id, "0123456789abcdef") != n)
            return 0;
    }
    char **lists[2] = {b->compiler, b->producer};
    for (int l = 0; l < 2; l++) {
        size_t k = 0;
        for (; lists[l] && lists[l][k]; k++) {
            const char *s = lists[l][k];
            size_t n = strlen(s);
            if (n == 0 || n > 512)
                return 0;
            for (size_t i = 0; i < n; i++)
                if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
                    return 0;
        }
        if (k > QQB_KBUILD_MAX)
            return 0;
    }
    return 1;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            unsigned char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        size_t got = fread(buf + *n, 1, cap - *n, f);
        if (!got)
            break;
        *n += got;
    }
    fclose(f);
    return buf;
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(b, 1, n, f) == n);
        fclose(f);
    }
}

static void test_self(void)
{
    struct qqb_kbuild b;
    char err[256];
    CHECK_INT_EQ(qqb_kbuild_read("/proc/self/exe", &b, err, sizeof err), 0);
    CHECK(sane(&b));
    CHECK(b.id != NULL && strlen(b.id) >= 16); /* Debian's linker adds one */
    CHECK(b.compiler != NULL && b.compiler[0] != NULL);
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
    /* gcc with -g (RelWithDebInfo, the tests' build) records its switches. */
    if (b.producer) {
        int o2 = 0;
        for (size_t i = 0; b.producer[i]; i++)
            o2 |= strstr(b.producer[i], " -O") != NULL;
        CHECK(o2);
    }
#endif
    struct qqb_kbuild c;
    CHECK_INT_EQ(qqb_kbuild_copy(&c, &b), 0);
    CHECK_STR_EQ(c.id, b.id);
    CHECK(!qqb_kbuild_differs(&b, &c));
    qqb_kbuild_free(&c);
    qqb_kbuild_free(&b);
    CHECK(b.id == NULL && b.compiler == NULL && b.producer == NULL);
}

static void test_not_elf(void)
{
    struct qqb_kbuild b;
    char err[256];
    spit("script.sh", (const unsigned char *)"#!/bin/sh\necho hi\n", 18);
    spit("empty", (const unsigned char *)"", 0);
    spit("magic", (const unsigned char *)"\177ELF", 4);
    const char *paths[] = {"script.sh", "empty", "magic", ".", "no-such-file"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        CHECK_INT_EQ(qqb_kbuild_read(paths[i], &b, err, sizeof err), 0);
        CHECK(b.id == NULL && b.compiler == NULL && b.producer == NULL);
        qqb_kbuild_free(&b);
    }
}

/* Positions worth changing: the ELF header, the program and section header
 * tables, the section names; then anywhere. */
static size_t target(const unsigned char *orig, size_t n, uint64_t *rs)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)orig;
    uint64_t r = test_rand(rs);
    size_t shtab = eh->e_shoff < n ? (size_t)eh->e_shoff : 0;
    size_t shlen = (size_t)eh->e_shnum * sizeof(Elf64_Shdr);
    switch (r % 4) {
    case 0:
        return (size_t)(test_rand(rs) % sizeof *eh);
    case 1:
        return shtab && shlen ? shtab + (size_t)(test_rand(rs) % shlen) % (n - shtab) : 0;
    case 2:
        return eh->e_phoff < n ? (size_t)(eh->e_phoff + test_rand(rs) % 512) % n : 0;
    default:
        return (size_t)(test_rand(rs) % n);
    }
}

static void test_hostile(void)
{
    size_t n = 0;
    unsigned char *orig = slurp("/proc/self/exe", &n);
    CHECK(orig != NULL && n > sizeof(Elf64_Ehdr));
    if (!orig || n <= sizeof(Elf64_Ehdr))
        return;
    unsigned char *buf = malloc(n);
    CHECK(buf != NULL);
    uint64_t rs = 0x9e3779b97f4a7c15ull;
    size_t read_any = 0;
    for (int it = 0; buf && it < 600; it++) {
        memcpy(buf, orig, n);
        size_t len = n;
        int flips = 1 + (int)(test_rand(&rs) % 24);
        for (int f = 0; f < flips; f++)
            buf[target(orig, n, &rs)] ^= (unsigned char)(1u + test_rand(&rs) % 255);
        if (it % 5 == 4) /* cut short */
            len = (size_t)(test_rand(&rs) % n);
        spit("hostile", buf, len);
        struct qqb_kbuild b;
        char err[256];
        CHECK_INT_EQ(qqb_kbuild_read("hostile", &b, err, sizeof err), 0);
        CHECK(sane(&b));
        read_any += b.id || b.compiler || b.producer;
        qqb_kbuild_free(&b);
    }
    /* The mutations leave most files readable in part: the test reached the
     * parsers, not only the first check. */
    CHECK(read_any > 100);
    free(buf);
    free(orig);
}

static void test_differs(void)
{
    char *o0[] = {"GNU C17 12.2.0 -mtune=generic -g -O0", "GNU C11 12.2.0 -g -O2 -fPIC", NULL};
    char *o2[] = {"GNU C11 12.2.0 -g -O2 -fPIC", "GNU C17 12.2.0 -mtune=generic -g -O2", NULL};
    char *o2r[] = {"GNU C17 12.2.0 -mtune=generic -g -O2", "GNU C11 12.2.0 -g -O2 -fPIC", NULL};
    char *gcc12[] = {"GCC: (Debian 12.2.0-14) 12.2.0", NULL};
    char *gcc13[] = {"GCC: (Debian 13.1.0-1) 13.1.0", NULL};
    struct qqb_kbuild a = {.producer = o0, .compiler = gcc12};
    struct qqb_kbuild b = {.producer = o2, .compiler = gcc12};
    struct qqb_kbuild b2 = {.producer = o2r, .compiler = gcc13};
    struct qqb_kbuild none = {0}, c12 = {.compiler = gcc12}, c13 = {.compiler = gcc13};
    CHECK(qqb_kbuild_differs(&a, &b));
    CHECK(!qqb_kbuild_differs(&b, &b2));   /* the same units in another order */
    CHECK(!qqb_kbuild_differs(&a, &none)); /* one side does not say */
    /* Producers on one side only, both read from ELF files: the other was
     * built without -g, and says so. */
    CHECK(qqb_kbuild_differs(&a, &c13));
    CHECK(qqb_kbuild_differs(&c12, &b));
    CHECK(qqb_kbuild_differs(&c12, &c13)); /* compilers alone */
    CHECK(!qqb_kbuild_differs(&c12, &c12));
    struct qqb_strbuf sa = QQB_STRBUF_INIT, sb = QQB_STRBUF_INIT;
    qqb_kbuild_brief(&a, &b, &sa, &sb);
    /* The library's unit (-fPIC) is on both sides: only the kernel's differ. */
    CHECK_STR_EQ(qqb_strbuf_str_of(&sa), "-O0");
    CHECK_STR_EQ(qqb_strbuf_str_of(&sb), "-O2");
    qqb_strbuf_free(&sa);
    qqb_strbuf_free(&sb);
    qqb_kbuild_brief(&c12, &a, &sa, &sb);
    CHECK_STR_EQ(qqb_strbuf_str_of(&sa), QQB_KBUILD_NO_G);
    CHECK(strstr(qqb_strbuf_str_of(&sb), "-O0") != NULL);
    qqb_strbuf_free(&sa);
    qqb_strbuf_free(&sb);
    qqb_kbuild_brief(&c12, &c13, &sa, &sb);
    CHECK_STR_EQ(qqb_strbuf_str_of(&sa), "12.2.0-14) 12.2.0"); /* "(Debian" is on both */
    CHECK_STR_EQ(qqb_strbuf_str_of(&sb), "13.1.0-1) 13.1.0");
    qqb_strbuf_free(&sa);
    qqb_strbuf_free(&sb);
    /* A baseline's words reach the terminal printable only, and briefly. */
    char *evil[] = {"GNU C17 -O3 \033[2J-x", NULL};
    char *many[] = {"GNU C17 -fa1 -fa2 -fa3 -fa4 -fa5 -fa6 -fa7 -fa8 -fa9 -fa10 -fa11 -fa12 -fa13 "
                    "-fa14 -fa15 -fa16 -fa17 -fa18",
                    NULL};
    struct qqb_kbuild e = {.producer = evil}, m = {.producer = many};
    qqb_kbuild_brief(&e, &m, &sa, &sb);
    CHECK_STR_EQ(qqb_strbuf_str_of(&sa), "-O3 ?[2J-x");
    CHECK(strlen(qqb_strbuf_str_of(&sb)) < 80);
    CHECK_STR_CONTAINS(qqb_strbuf_str_of(&sb), " ...");
    qqb_strbuf_free(&sa);
    qqb_strbuf_free(&sb);
}

int main(void)
{
    RUN(test_self);
    RUN(test_not_elf);
    RUN(test_hostile);
    RUN(test_differs);
    return TEST_DONE();
}
