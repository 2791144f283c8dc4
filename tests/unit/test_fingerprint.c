/* test_fingerprint.c - store/fingerprint.c: this machine's fingerprint has a CPU model, a tick
 * rate rounded to 10 MHz, its online cores and the build; its id is ARCH-NCPU-HASH, the hash
 * (FNV-1a) of exactly those fields, so two machines that differ in any of them differ in id;
 * QQBENCH_FINGERPRINT stands in for the id (tests only) when it fits, and is ignored when empty
 * or too long. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fingerprint.h"
#include "test.h"

/* The id FP's fields give. */
static void id_of(const struct qqb_fingerprint *fp, char *out, size_t n)
{
    char desc[512];
    snprintf(desc, sizeof desc, "%s|%.0f|%d|%d|%s|%s", fp->cpu, fp->mhz, fp->invariant, fp->cores,
             fp->compiler, fp->flags);
    uint32_t h = 2166136261u;
    for (const char *s = desc; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    const char *dash = strchr(fp->id, '-');
    snprintf(out, n, "%.*s-%dcpu-%08x", dash ? (int)(dash - fp->id) : 0, fp->id, fp->cores, h);
}

static void test_this(void)
{
    unsetenv("QQBENCH_FINGERPRINT");
    struct qqb_fingerprint fp;
    memset(&fp, 0x5a, sizeof fp);
    qqb_fingerprint_this(&fp);
    CHECK(fp.cpu[0] != '\0' && memchr(fp.cpu, '\0', sizeof fp.cpu) != NULL);
    CHECK(fp.mhz > 0 && fp.mhz == 10.0 * (double)(long)(fp.mhz / 10.0));
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK_INT_EQ(fp.cores, n > 0 ? (int)n : 1);
    CHECK(fp.invariant == 0 || fp.invariant == 1);
    CHECK(fp.compiler[0] != '\0');
    char want[64];
    id_of(&fp, want, sizeof want);
    CHECK_STR_EQ(fp.id, want);
    CHECK(!strncmp(fp.id, "x86_64-", 7) || !strncmp(fp.id, "aarch64-", 8) ||
          !strncmp(fp.id, "other-", 6));
    /* Any field changed changes the hash. */
    struct qqb_fingerprint other = fp;
    other.mhz += 10;
    char moved[64];
    id_of(&other, moved, sizeof moved);
    CHECK(strcmp(moved, fp.id) != 0);
    other = fp;
    other.cpu[0] ^= 1;
    id_of(&other, moved, sizeof moved);
    CHECK(strcmp(moved, fp.id) != 0);
}

static void test_stand_in(void)
{
    struct qqb_fingerprint fp, real;
    unsetenv("QQBENCH_FINGERPRINT");
    qqb_fingerprint_this(&real);
    setenv("QQBENCH_FINGERPRINT", "other-machine", 1);
    qqb_fingerprint_this(&fp);
    CHECK_STR_EQ(fp.id, "other-machine");
    CHECK_STR_EQ(fp.cpu, real.cpu); /* the rest stays this machine's */
    /* Empty, or no room for it (31 characters fit, 32 do not): the real id's form. */
    setenv("QQBENCH_FINGERPRINT", "", 1);
    qqb_fingerprint_this(&fp);
    CHECK(strcmp(fp.id, "") != 0 && strstr(fp.id, "cpu-") != NULL);
    setenv("QQBENCH_FINGERPRINT", "0123456789012345678901234567890", 1);
    qqb_fingerprint_this(&fp);
    CHECK_STR_EQ(fp.id, "0123456789012345678901234567890");
    setenv("QQBENCH_FINGERPRINT", "01234567890123456789012345678901", 1);
    qqb_fingerprint_this(&fp);
    CHECK(strstr(fp.id, "cpu-") != NULL);
    unsetenv("QQBENCH_FINGERPRINT");
}

int main(void)
{
    RUN(test_this);
    RUN(test_stand_in);
    return TEST_DONE();
}
