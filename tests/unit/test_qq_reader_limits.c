/* test_qq_reader_limits.c - the reader on what is not a file, on big files, amplification, count
 * overflow and NaN values. */
#define _DEFAULT_SOURCE /* mknod, makedev, ftruncate */
#define QQ_ENABLE       1
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"
#include "craft.h"

static int kc, kv, ks; /* a count, a value and a state key */

/* Bytes this process has read through read(2) and friends, or -1. */
static long long rchar(void)
{
    FILE *fp = fopen("/proc/self/io", "r");
    if (!fp)
        return -1;
    char line[128];
    long long v = -1;
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "rchar: %lld", &v) == 1)
            break;
    fclose(fp);
    return v;
}

static void expect_open(const char *path, int err, const char *want)
{
    struct qq_file *f;
    int rc = qq_file_open(path, &f);
    CHECK_INT_EQ(rc, err);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), want);
    qq_file_close(f);
}

/* ---------------------------------------------------------------------
 * Not files.
 * --------------------------------------------------------------------- */

static void test_directory(void)
{
    rmdir("adir.qq");
    CHECK_INT_EQ(mkdir("adir.qq", 0755), 0);
    expect_open("adir.qq", QQ_EIO, "adir.qq: is a directory, not a QQ file");
    rmdir("adir.qq");
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: qq_file_open blocked on a FIFO\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    _exit(1);
}

static void test_fifo_without_writer(void)
{
    unlink("fifo.qq");
    CHECK_INT_EQ(mkfifo("fifo.qq", 0644), 0);
    signal(SIGALRM, on_alarm);
    alarm(30); /* a reader that blocks fails here instead of hanging */
    expect_open("fifo.qq", QQ_EIO, "is a FIFO, not a QQ file");
    alarm(0);
    unlink("fifo.qq");
}

static void test_device(void)
{
    expect_open("/dev/null", QQ_EIO, "is a character device, not a QQ file");
}

/* ---------------------------------------------------------------------
 * A big file is judged by its header before it is read.
 * --------------------------------------------------------------------- */

static void test_big_file_header_first(void)
{
    long long before = rchar();
    if (before < 0) {
        printf("  skipped: no /proc/self/io to count bytes read\n");
        return;
    }
    int fd = open("big.qq", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    int sparse = fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0; /* 2 GB of holes */
    if (fd >= 0)
        close(fd);
    if (!sparse) {
        printf("  skipped: cannot make a 2 GB sparse file here\n");
        unlink("big.qq");
        return;
    }
    before = rchar();
    expect_open("big.qq", QQ_EMAGIC, "not a QQ file");
    long long read = rchar() - before;
    printf("  2 GB of zeros: %lld bytes read to refuse it\n", read);
    CHECK(read < (1 << 20));

    /* A real header at the front, but the header's size is not the file's. */
    size_t n = 0;
    uint64_t cnt = 0;
    const struct qq_event *none[1] = {NULL};
    unsigned char *p = craft(1, none, &cnt, 0, &n);
    CHECK(p != NULL);
    fd = open("big.qq", O_WRONLY);
    CHECK(fd >= 0 && p && pwrite(fd, p, n, 0) == (ssize_t)n);
    close(fd);
    before = rchar();
    expect_open("big.qq", QQ_ECORRUPT, "the header says");
    read = rchar() - before;
    printf("  2 GB with a 1-node header: %lld bytes read to refuse it\n", read);
    CHECK(read < (1 << 20));
    free(p);
    unlink("big.qq");
}

/* ---------------------------------------------------------------------
 * Amplification: nodes sharing one entry section.
 * --------------------------------------------------------------------- */

static void test_shared_entry_section(void)
{
    enum { NODES = 2000, EVENTS = 2000 };
    struct qq_event *ev = calloc(EVENTS, sizeof *ev);
    for (int j = 0; j < EVENTS; j++) {
        ev[j].key = (uint32_t)ks;
        ev[j].info.i = j % 2 == 0;
        ev[j].tick = (uint64_t)j;
    }
    const struct qq_event *evs[NODES];
    uint64_t n[NODES];
    for (int i = 0; i < NODES; i++) {
        evs[i] = ev;
        n[i] = EVENTS;
    }
    size_t len = 0;
    unsigned char *p = craft(NODES, evs, n, 1, &len);
    CHECK(p != NULL);
    printf("  %u nodes sharing %d entries: a %zu-byte file\n", NODES, EVENTS, len);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open_mem(p, len, "shared.qq", &f), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "node 1: its entries at byte");
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "belong to another node");
    qq_file_close(f);
    free(p);

    /* The same nodes with entry sections of their own open fine. */
    p = craft(3, evs, n, 0, &len);
    CHECK(p != NULL);
    CHECK_INT_EQ(qq_file_open_mem(p, len, "own.qq", &f), 0);
    if (f)
        CHECK_INT_EQ(qq_file_nnodes(f), 3);
    qq_file_close(f);
    free(p);
    free(ev);
}

/* ---------------------------------------------------------------------
 * Sums: counts beyond 64 bits saturate, values must be finite.
 * --------------------------------------------------------------------- */

static int64_t count_sum(const int64_t *v, int nv)
{
    struct qq_event ev[8];
    memset(ev, 0, sizeof ev);
    for (int j = 0; j < nv; j++) {
        ev[j].key = (uint32_t)kc;
        ev[j].info.i = v[j];
        ev[j].tick = (uint64_t)j;
    }
    const struct qq_event *evs[1] = {ev};
    uint64_t n = (uint64_t)nv;
    size_t len = 0;
    unsigned char *p = craft(1, evs, &n, 0, &len);
    struct qq_file *f;
    int64_t sum = 12345;
    if (p && qq_file_open_mem(p, len, "counts.qq", &f) == 0) {
        struct qq_key_summary k[3];
        struct qq_node_summary ns;
        CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, k), 0);
        sum = k[kc].isum;
        CHECK_INT_EQ(k[kc].hits, nv);
    } else {
        TEST_FAIL_AT("crafted count file refused: %s", p ? qq_file_errmsg(f) : "no file");
    }
    qq_file_close(f);
    free(p);
    return sum;
}

static void test_count_sum_saturates(void)
{
    const int64_t up[] = {INT64_MAX, INT64_MAX};
    CHECK_INT_EQ(count_sum(up, 2), INT64_MAX);
    const int64_t down[] = {INT64_MIN, -1, INT64_MIN};
    CHECK_INT_EQ(count_sum(down, 3), INT64_MIN);
    /* Exact whenever the true sum fits, however far the running sum strayed. */
    const int64_t back[] = {INT64_MAX, 1, 5, -7};
    CHECK_INT_EQ(count_sum(back, 4), INT64_MAX - 1);
    const int64_t swing[] = {INT64_MIN, -1, INT64_MAX, 3};
    CHECK_INT_EQ(count_sum(swing, 4), 1);
    const int64_t plain[] = {-3, 10, 4};
    CHECK_INT_EQ(count_sum(plain, 3), 11);
}

static int open_values(const double *v, int nv, struct qq_key_summary *out, char *msg,
                       size_t msglen)
{
    struct qq_event ev[8];
    memset(ev, 0, sizeof ev);
    for (int j = 0; j < nv; j++) {
        ev[j].key = (uint32_t)kv;
        ev[j].info.d = v[j];
        ev[j].tick = (uint64_t)j;
    }
    const struct qq_event *evs[1] = {ev};
    uint64_t n = (uint64_t)nv;
    size_t len = 0;
    unsigned char *p = craft(1, evs, &n, 0, &len);
    struct qq_file *f = NULL;
    int rc = p ? qq_file_open_mem(p, len, "values.qq", &f) : QQ_ENOMEM;
    snprintf(msg, msglen, "%s", qq_file_errmsg(f));
    if (rc == 0) {
        struct qq_key_summary k[3];
        struct qq_node_summary ns;
        qq_file_summarize(f, 0, &ns, k);
        *out = k[kv];
    }
    qq_file_close(f);
    free(p);
    return rc;
}

static void test_values_finite(void)
{
    struct qq_key_summary k;
    char msg[512];
    const double nan_at_2[] = {1.0, 2.0, NAN};
    CHECK_INT_EQ(open_values(nan_at_2, 3, &k, msg, sizeof msg), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(msg, "values.qq: node 0: entry 2 gives value key 'v' the value nan");
    const double inf[] = {-INFINITY};
    CHECK_INT_EQ(open_values(inf, 1, &k, msg, sizeof msg), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(msg, "value key 'v' the value -inf");
    /* Finite values whose sum overflows: saturated, still finite. */
    const double big[] = {DBL_MAX, DBL_MAX, 1.0};
    CHECK_INT_EQ(open_values(big, 3, &k, msg, sizeof msg), 0);
    CHECK(k.dsum == DBL_MAX);
    const double fine[] = {0.5, 1.5};
    CHECK_INT_EQ(open_values(fine, 2, &k, msg, sizeof msg), 0);
    CHECK_DBL_NEAR(k.dsum, 2.0, 0);
}

/* A node's clock offset and its error bound are hostile numbers: an offset
 * of INT64_MIN overflowed the harness's tick - offset (UBSan aborted,
 * Release wrapped), an infinite error bound made export fail as "out of
 * memory". Refused when read, naming the node and the field (issue 33). */
static void patch_node(const char *path, size_t field, uint64_t bits)
{
    struct qq_event ev[2] = {{(uint32_t)ks, 0, {1}, 100}, {(uint32_t)ks, 0, {0}, 200}};
    const struct qq_event *evp[1] = {ev};
    uint64_t n[1] = {2};
    size_t len = 0;
    unsigned char *p = craft(1, evp, n, 0, &len);
    CHECK(p != NULL);
    size_t pos = QQ__HEADER_SIZE;
    while (pos + QQ__SECTION_HEAD <= len) {
        uint32_t tag;
        uint64_t slen;
        memcpy(&tag, p + pos, 4);
        memcpy(&slen, p + pos + 8, 8);
        if (tag == QQ__TAG_NODE)
            break;
        pos += QQ__SECTION_HEAD + slen;
    }
    CHECK(pos + QQ__SECTION_HEAD + QQ__NODE_RECORD <= len);
    qq__store_u64(p + pos + QQ__SECTION_HEAD + field, bits);
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fwrite(p, 1, len, fp) == len);
    fclose(fp);
    free(p);
}

static uint64_t dbl_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static void test_node_offsets(void)
{
    patch_node("offset.qq", 48, (uint64_t)INT64_MIN);
    expect_open("offset.qq", QQ_ECORRUPT,
                "offset.qq: node 0: tick offset -9223372036854775808 "
                "ticks is out of range");
    patch_node("offset.qq", 48, (uint64_t)1 << 62 | 1);
    expect_open("offset.qq", QQ_ECORRUPT, "node 0: tick offset 4611686018427387905");
    patch_node("offset.qq", 56, dbl_bits(INFINITY));
    expect_open("offset.qq", QQ_ECORRUPT, "node 0: tick offset error inf ticks is out of range");
    patch_node("offset.qq", 56, dbl_bits(NAN));
    expect_open("offset.qq", QQ_ECORRUPT, "node 0: tick offset error nan");
    patch_node("offset.qq", 56, dbl_bits(-1.0));
    expect_open("offset.qq", QQ_ECORRUPT, "node 0: tick offset error -1 ticks");
    /* At the bounds: read. */
    patch_node("offset.qq", 48, (uint64_t) - ((int64_t)1 << 62));
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("offset.qq", &f), 0);
    CHECK(qq_file_node(f, 0)->tick_offset == -((int64_t)1 << 62));
    qq_file_close(f);
}

int main(void)
{
    QQInit(10);
    kc = QQAddCount("c");
    kv = QQAddValue("v");
    ks = QQAddState("s");
    RUN(test_directory);
    RUN(test_fifo_without_writer);
    RUN(test_device);
    RUN(test_big_file_header_first);
    RUN(test_shared_entry_section);
    RUN(test_count_sum_saturates);
    RUN(test_values_finite);
    RUN(test_node_offsets);
    return TEST_DONE();
}
