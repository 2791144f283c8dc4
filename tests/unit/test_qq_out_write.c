/* test_qq_out_write.c - QQOut's write path: all bytes out in order, a failed write reported with
 * its reason and no file left, an old file kept. */
#define _DEFAULT_SOURCE /* struct iovec */
#define QQ_ENABLE       1
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "qq_internal.h" /* qq__pwritev_all, tested directly */
#include "test.h"

#define EVENTS 100000 /* 2.4 MB of entries */

static long file_size(const char *name)
{
    struct stat st;
    return stat(name, &st) == 0 ? (long)st.st_size : -1;
}

static unsigned char *slurp(const char *name, long *len)
{
    *len = file_size(name);
    if (*len < 0)
        return NULL;
    unsigned char *p = malloc((size_t)*len + 1);
    FILE *f = fopen(name, "rb");
    if (!p || !f || fread(p, 1, (size_t)*len, f) != (size_t)*len) {
        free(p);
        p = NULL;
    }
    if (f)
        fclose(f);
    return p;
}

static int set_fsize_limit(rlim_t bytes)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) != 0)
        return -1;
    rl.rlim_cur = bytes;
    return setrlimit(RLIMIT_FSIZE, &rl);
}

static void record_events(void)
{
    QQInit(EVENTS);
    int s = QQAddState("s"), c = QQAddCount("c"), v = QQAddValue("v");
    for (int i = 0; i < EVENTS / 4; i++) {
        QQStateOn(s);
        QQCount(c, i);
        QQValue(v, 0.5 * i);
        QQStateOff(s);
    }
}

/* Every entry read back is the one recorded, in order. */
static void test_read_back(void)
{
    unlink("all.qq");
    CHECK_INT_EQ(qq_out("all.qq", 0, 1), 0);
    struct qq_file *f = NULL;
    CHECK_INT_EQ(qq_file_open("all.qq", &f), 0);
    if (!f)
        return;
    CHECK_U64_EQ(qq_file_node(f, 0)->entries, EVENTS);
    const struct qq_event *e = qq_file_entries(f, 0);
    int bad = 0;
    uint64_t prev = 0;
    for (int i = 0; e && i < EVENTS; i++) {
        int j = i / 4;
        const struct qq_event *x = &e[i];
        switch (i % 4) {
        case 0:
        case 3:
            bad += x->key != 0 || x->info.i != (i % 4 == 0);
            break;
        case 1:
            bad += x->key != 1 || x->info.i != j;
            break;
        default:
            bad += x->key != 2 || x->info.d != 0.5 * j;
        }
        bad += x->tick < prev;
        prev = x->tick;
    }
    CHECK(e != NULL);
    CHECK_INT_EQ(bad, 0);
    qq_file_close(f);
}

/* A limit on the file size (the disk full, as far as write() tells): the
 * write stops part-way, QQOut says why, and leaves no file and no
 * temporary; a file already under the name stays as it was. */
static void test_file_too_large(void)
{
    long full = file_size("all.qq");
    CHECK(full > 24L * EVENTS);
    unlink("big.qq");
    CHECK_INT_EQ(set_fsize_limit((rlim_t)full / 2), 0);
    int rc = qq_out("big.qq", 0, 1);
    CHECK_INT_EQ(rc, QQ_EIO);
    CHECK_STR_CONTAINS(qq_out_errmsg(), "big.qq");
    CHECK_STR_CONTAINS(qq_out_errmsg(), "write failed");
    CHECK_STR_CONTAINS(qq_out_errmsg(), strerror(EFBIG));
    CHECK(access("big.qq", F_OK) != 0);
    CHECK_INT_EQ(test_temporaries("big.qq"), 0);

    /* Over an existing file: the old bytes survive. */
    long old_len;
    unsigned char *old = slurp("all.qq", &old_len);
    CHECK_INT_EQ(qq_out("all.qq", 0, 1), QQ_EIO);
    long now_len;
    unsigned char *now = slurp("all.qq", &now_len);
    CHECK(old && now && old_len == now_len && memcmp(old, now, (size_t)old_len) == 0);
    CHECK_INT_EQ(test_temporaries("all.qq"), 0);
    free(old);
    free(now);

    /* A limit of exactly the file's size is enough, and gives the same
     * bytes as without a limit (same process: same events and metadata). */
    CHECK_INT_EQ(set_fsize_limit((rlim_t)full), 0);
    CHECK_INT_EQ(qq_out("exact.qq", 0, 1), 0);
    CHECK_INT_EQ(set_fsize_limit(RLIM_INFINITY), 0);
    long a_len, b_len;
    unsigned char *a = slurp("all.qq", &a_len), *b = slurp("exact.qq", &b_len);
    CHECK(a && b && a_len == b_len && memcmp(a, b, (size_t)a_len) == 0);
    free(a);
    free(b);
    unlink("exact.qq");
}

/* The vector writer resumes where a short write stopped, across pieces,
 * and skips empty ones: a limit cuts each call, the result is whole. */
static void test_pwritev_pieces(void)
{
    static unsigned char p1[3000], p3[5000];
    for (size_t i = 0; i < sizeof p1; i++)
        p1[i] = (unsigned char)(i * 7);
    for (size_t i = 0; i < sizeof p3; i++)
        p3[i] = (unsigned char)(i * 13 + 1);
    int fd = open("pieces.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    struct iovec v[4] = {{NULL, 0}, {p1, sizeof p1}, {NULL, 0}, {p3, sizeof p3}};
    CHECK_INT_EQ(qq__pwritev_all(fd, v, 4, 100), 0);
    close(fd);
    long len;
    unsigned char *got = slurp("pieces.bin", &len);
    CHECK_INT_EQ(len, 100 + 3000 + 5000);
    CHECK(got && memcmp(got + 100, p1, sizeof p1) == 0 &&
          memcmp(got + 100 + sizeof p1, p3, sizeof p3) == 0);
    free(got);

    /* Past the limit: the error, with errno saying why. */
    fd = open("pieces.bin", O_RDWR | O_TRUNC);
    CHECK(fd >= 0);
    CHECK_INT_EQ(set_fsize_limit(4096), 0);
    struct iovec w[2] = {{p1, sizeof p1}, {p3, sizeof p3}};
    errno = 0;
    CHECK_INT_EQ(qq__pwritev_all(fd, w, 2, 0), QQ_EIO);
    CHECK_INT_EQ(errno, EFBIG);
    CHECK_INT_EQ(set_fsize_limit(RLIM_INFINITY), 0);
    close(fd);
    CHECK_INT_EQ(file_size("pieces.bin"), 4096);
    unlink("pieces.bin");
}

int main(void)
{
    /* Past the limit the kernel sends SIGXFSZ, which kills by default;
     * ignored, the write fails with EFBIG instead. */
    signal(SIGXFSZ, SIG_IGN);
    record_events();
    RUN(test_read_back);
    RUN(test_file_too_large);
    RUN(test_pwritev_pieces);
    unlink("all.qq");
    return TEST_DONE();
}
