/* test_atomic.c - util/atomic.h: a file replaced whole (its old bytes gone, no temporary left, a
 * new inode), a device or FIFO written in place and never replaced, a symbolic link, a folder or
 * a socket refused with the reason and errno; two files prepared and committed (the target
 * untouched until the commit, nothing left by an abort, a commit of nothing refused); a regular
 * file opened for reading while a FIFO, a folder or a device is refused at once (no read that
 * waits); mkdir -p, and the folder it could not make named. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "atomic.h"
#include "test.h"

/* The bytes of PATH (at most N - 1) into B; their count, or -1. */
static long slurp(const char *path, char *b, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t k = fread(b, 1, n - 1, f);
    b[k] = '\0';
    fclose(f);
    return (long)k;
}

static ino_t inode(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? st.st_ino : 0;
}

static void test_replace_whole(void)
{
    char err[256] = "", b[256];
    CHECK_INT_EQ(qqb_write_atomic("out.json", "a longer first text\n", 20, err, sizeof err), 0);
    CHECK_INT_EQ(slurp("out.json", b, sizeof b), 20);
    CHECK_STR_EQ(b, "a longer first text\n");
    ino_t first = inode("out.json");
    /* Shorter: none of the old bytes stay behind; a new file took its name. */
    CHECK_INT_EQ(qqb_write_atomic("out.json", "short", 5, err, sizeof err), 0);
    CHECK_INT_EQ(slurp("out.json", b, sizeof b), 5);
    CHECK_STR_EQ(b, "short");
    CHECK(inode("out.json") != first);
    CHECK_INT_EQ(test_temporaries("out.json"), 0);
    /* Nothing to write: an empty file, not a missing one. */
    CHECK_INT_EQ(qqb_write_atomic("out.json", "", 0, err, sizeof err), 0);
    CHECK_INT_EQ(slurp("out.json", b, sizeof b), 0);
    /* Bytes past a NUL are bytes. */
    CHECK_INT_EQ(qqb_write_atomic("out.json", "a\0b", 3, err, sizeof err), 0);
    CHECK_INT_EQ(slurp("out.json", b, sizeof b), 3);
    CHECK(b[0] == 'a' && b[1] == '\0' && b[2] == 'b');
    /* A folder that is not there: the reason, errno, no temporary anywhere. */
    errno = 0;
    CHECK_INT_EQ(qqb_write_atomic("nowhere/out.json", "x", 1, err, sizeof err), -1);
    CHECK_INT_EQ(errno, ENOENT);
    CHECK_STR_CONTAINS(err, "cannot create its temporary file");
    unlink("out.json");
}

static void test_refused(void)
{
    char err[256], b[64];
    /* A symbolic link: neither followed nor replaced. */
    CHECK_INT_EQ(qqb_write_atomic("target", "kept", 4, err, sizeof err), 0);
    CHECK_INT_EQ(symlink("target", "link"), 0);
    err[0] = '\0';
    errno = 0;
    CHECK_INT_EQ(qqb_output_check("link", err, sizeof err), -1);
    CHECK_INT_EQ(errno, ELOOP);
    CHECK_STR_CONTAINS(err, "symbolic link");
    CHECK_INT_EQ(qqb_write_atomic("link", "new", 3, err, sizeof err), -1);
    struct stat st;
    CHECK(lstat("link", &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_INT_EQ(slurp("target", b, sizeof b), 4);
    CHECK_STR_EQ(b, "kept");
    CHECK_INT_EQ(test_temporaries("link"), 0);
    /* A folder. */
    CHECK_INT_EQ(mkdir("dir", 0755), 0);
    errno = 0;
    CHECK_INT_EQ(qqb_write_atomic("dir", "x", 1, err, sizeof err), -1);
    CHECK_INT_EQ(errno, EISDIR);
    CHECK_STR_CONTAINS(err, "folder");
    CHECK(lstat("dir", &st) == 0 && S_ISDIR(st.st_mode));
    /* A socket. */
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "sock");
    CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
    errno = 0;
    CHECK_INT_EQ(qqb_output_check("sock", err, sizeof err), -1);
    CHECK_INT_EQ(errno, EINVAL);
    CHECK_STR_CONTAINS(err, "socket");
    CHECK_INT_EQ(qqb_write_atomic("sock", "x", 1, err, sizeof err), -1);
    if (s >= 0)
        close(s);
    /* What is written whole: a regular file, a name not taken. */
    CHECK_INT_EQ(qqb_output_check("target", err, sizeof err), 0);
    CHECK_INT_EQ(qqb_output_check("not-yet", err, sizeof err), 0);
    unlink("link"), unlink("target"), unlink("sock"), rmdir("dir");
}

static void test_in_place(void)
{
    char err[256], b[64];
    /* /dev/null is written, and stays a device (a rename over it made it a
     * regular file for the whole machine). */
    CHECK_INT_EQ(qqb_output_check("/dev/null", err, sizeof err), 1);
    CHECK_INT_EQ(qqb_write_atomic("/dev/null", "gone", 4, err, sizeof err), 0);
    struct stat st;
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    /* A FIFO with its reader: the bytes arrive, the FIFO stays one. */
    CHECK_INT_EQ(mkfifo("pipe", 0600), 0);
    CHECK_INT_EQ(qqb_output_check("pipe", err, sizeof err), 1);
    int rd = open("pipe", O_RDONLY | O_NONBLOCK);
    CHECK(rd >= 0);
    CHECK_INT_EQ(qqb_write_atomic("pipe", "through", 7, err, sizeof err), 0);
    ssize_t k = rd >= 0 ? read(rd, b, sizeof b - 1) : -1;
    CHECK_INT_EQ(k, 7);
    b[k > 0 ? k : 0] = '\0';
    CHECK_STR_EQ(b, "through");
    CHECK(lstat("pipe", &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK_INT_EQ(test_temporaries("pipe"), 0);
    if (rd >= 0)
        close(rd);
    unlink("pipe");
}

static void test_two_steps(void)
{
    char err[256] = "", b[64];
    struct qqb_atomic a, c;
    CHECK_INT_EQ(qqb_write_atomic("one", "old1", 4, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_write_atomic("two", "old2", 4, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_atomic_prepare(&a, "one", "new1", 4, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_atomic_prepare(&c, "two", "new2", 4, err, sizeof err), 0);
    CHECK(a.ready && c.ready);
    /* Prepared: the targets untouched, each temporary there. */
    CHECK_INT_EQ(slurp("one", b, sizeof b), 4);
    CHECK_STR_EQ(b, "old1");
    CHECK_INT_EQ(test_temporaries("one"), 1);
    CHECK_INT_EQ(qqb_atomic_commit(&a, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_atomic_commit(&c, err, sizeof err), 0);
    CHECK(slurp("one", b, sizeof b) == 4 && !strcmp(b, "new1"));
    CHECK(slurp("two", b, sizeof b) == 4 && !strcmp(b, "new2"));
    CHECK_INT_EQ(test_temporaries("one") + test_temporaries("two"), 0);
    /* A second commit of the same: nothing prepared. */
    errno = 0;
    CHECK_INT_EQ(qqb_atomic_commit(&a, err, sizeof err), -1);
    CHECK_INT_EQ(errno, EINVAL);
    CHECK_STR_CONTAINS(err, "nothing prepared");
    /* An abort: the temporary gone, the target as it was; twice is harmless. */
    CHECK_INT_EQ(qqb_atomic_prepare(&a, "one", "never", 5, err, sizeof err), 0);
    qqb_atomic_abort(&a);
    qqb_atomic_abort(&a);
    CHECK(!a.ready);
    CHECK_INT_EQ(test_temporaries("one"), 0);
    CHECK(slurp("one", b, sizeof b) == 4 && !strcmp(b, "new1"));
    /* A name too long for its temporary: refused before anything is made. */
    char *longname = malloc(sizeof a.path + 16);
    if (longname) {
        memset(longname, 'x', sizeof a.path - 4);
        longname[sizeof a.path - 4] = '\0';
        errno = 0;
        CHECK_INT_EQ(qqb_atomic_prepare(&a, longname, "x", 1, err, sizeof err), -1);
        CHECK_INT_EQ(errno, ENAMETOOLONG);
        CHECK(!a.ready);
        CHECK_STR_CONTAINS(err, "cannot name its temporary file");
        free(longname);
    }
    unlink("one"), unlink("two");
}

static void test_open_regular(void)
{
    char err[256], b[64];
    CHECK_INT_EQ(qqb_write_atomic("file", "read me", 7, err, sizeof err), 0);
    FILE *f = qqb_open_regular("file", err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        CHECK_INT_EQ(fread(b, 1, sizeof b, f), 7);
        /* Blocking again: a read at the end is the end, not EAGAIN. */
        CHECK(fgetc(f) == EOF && feof(f) && !ferror(f));
        fclose(f);
    }
    /* A FIFO with no writer: refused at once, never waited on. */
    CHECK_INT_EQ(mkfifo("fifo", 0600), 0);
    errno = 0;
    CHECK(qqb_open_regular("fifo", err, sizeof err) == NULL);
    CHECK_INT_EQ(errno, EINVAL);
    CHECK_STR_EQ(err, "is a FIFO, not a regular file");
    CHECK_INT_EQ(mkdir("folder", 0755), 0);
    CHECK(qqb_open_regular("folder", err, sizeof err) == NULL);
    CHECK_STR_EQ(err, "is a folder, not a regular file");
    CHECK(qqb_open_regular("/dev/zero", err, sizeof err) == NULL);
    CHECK_STR_EQ(err, "is a device, not a regular file");
    errno = 0;
    CHECK(qqb_open_regular("missing", err, sizeof err) == NULL);
    CHECK_INT_EQ(errno, ENOENT);
    CHECK_STR_EQ(err, strerror(ENOENT));
    unlink("file"), unlink("fifo"), rmdir("folder");
}

static void test_mkdirs(void)
{
    char failed[PATH_MAX] = "";
    struct stat st;
    CHECK_INT_EQ(qqb_mkdirs("m/a/b/c", failed, sizeof failed), 0);
    CHECK(stat("m/a/b/c", &st) == 0 && S_ISDIR(st.st_mode));
    /* There already, a trailing slash, nothing at all: fine. */
    CHECK_INT_EQ(qqb_mkdirs("m/a/b/c", failed, sizeof failed), 0);
    CHECK_INT_EQ(qqb_mkdirs("m/d/", failed, sizeof failed), 0);
    CHECK(stat("m/d", &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_INT_EQ(qqb_mkdirs("", failed, sizeof failed), 0);
    CHECK_INT_EQ(qqb_mkdirs("/", failed, sizeof failed), 0);
    /* Through a regular file: the folder that could not be made, errno. */
    char err[64];
    CHECK_INT_EQ(qqb_write_atomic("m/file", "x", 1, err, sizeof err), 0);
    errno = 0;
    CHECK_INT_EQ(qqb_mkdirs("m/file/sub/deeper", failed, sizeof failed), -1);
    CHECK_INT_EQ(errno, ENOTDIR);
    CHECK_STR_EQ(failed, "m/file/sub");
    /* No room for the name named: errno alone. */
    errno = 0;
    CHECK_INT_EQ(qqb_mkdirs("m/file/sub", NULL, 0), -1);
    CHECK_INT_EQ(errno, ENOTDIR);
    /* PATH_MAX bytes: ENAMETOOLONG, the whole name named. */
    static char big[PATH_MAX + 1], bigf[PATH_MAX + 8];
    memset(big, 'd', PATH_MAX);
    errno = 0;
    CHECK_INT_EQ(qqb_mkdirs(big, bigf, sizeof bigf), -1);
    CHECK_INT_EQ(errno, ENAMETOOLONG);
    CHECK_INT_EQ(strlen(bigf), PATH_MAX);
    unlink("m/file");
    rmdir("m/a/b/c"), rmdir("m/a/b"), rmdir("m/a"), rmdir("m/d"), rmdir("m");
}

int main(void)
{
    /* A folder of its own: every name here is relative to it. */
    const char *t = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/test_atomic.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir) || chdir(dir) != 0) {
        perror(dir);
        return 1;
    }
    RUN(test_replace_whole);
    RUN(test_refused);
    RUN(test_in_place);
    RUN(test_two_steps);
    RUN(test_open_regular);
    RUN(test_mkdirs);
    if (chdir("/") != 0 || rmdir(dir) != 0)
        TEST_FAIL_AT("%s: not empty after the tests (%s)", dir, strerror(errno));
    return TEST_DONE();
}
