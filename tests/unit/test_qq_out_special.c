/* test_qq_out_special.c - QQOut writes only to a regular file or a new name, never over a FIFO,
 * device or directory. */
#define _DEFAULT_SOURCE /* mknod, makedev */
#define QQ_ENABLE       1
#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "qq.h"
#include "test.h"

/* QQOut to NAME (through QQ_OUTPUT, as qqbench names it) must be refused
 * with a message saying what NAME is, and NAME must stay what it was. */
static void refuses(const char *name, mode_t kind, const char *what)
{
    struct stat before, after;
    CHECK_INT_EQ(lstat(name, &before), 0);
    setenv(QQ_OUTPUT_ENV, name, 1);
    int rc = qq_out("ignored.qq", 0, 1);
    unsetenv(QQ_OUTPUT_ENV);
    CHECK_INT_EQ(rc, QQ_EINVAL);
    CHECK_STR_CONTAINS(qq_out_errmsg(), name);
    CHECK_STR_CONTAINS(qq_out_errmsg(), what);
    CHECK_STR_CONTAINS(qq_out_errmsg(), "will not replace");
    CHECK_INT_EQ(lstat(name, &after), 0);
    CHECK_INT_EQ(after.st_mode & S_IFMT, kind);
    CHECK_U64_EQ(after.st_ino, before.st_ino);
    CHECK_U64_EQ(after.st_rdev, before.st_rdev);
    CHECK_INT_EQ(test_temporaries(name), 0);
    CHECK(access("ignored.qq", F_OK) != 0);
}

static void record_something(void)
{
    QQInit(100);
    int s = QQAddState("s");
    QQStateOn(s);
    QQStateOff(s);
}

static void test_fifo(void)
{
    unlink("out.fifo");
    CHECK_INT_EQ(mkfifo("out.fifo", 0644), 0);
    refuses("out.fifo", S_IFIFO, "a FIFO");
    unlink("out.fifo");
}

static void test_device(void)
{
    /* A /dev/null of the test's own (character device 1,3): root only. */
    unlink("null.dev");
    if (mknod("null.dev", S_IFCHR | 0666, makedev(1, 3)) != 0) {
        printf("  skipped: cannot make a device node here (%s)\n", strerror(errno));
        return;
    }
    refuses("null.dev", S_IFCHR, "a character device");
    unlink("null.dev");
}

static void test_directory_and_link(void)
{
    rmdir("out.dir");
    CHECK_INT_EQ(mkdir("out.dir", 0755), 0);
    refuses("out.dir", S_IFDIR, "a directory");
    rmdir("out.dir");
    /* A link to a FIFO is refused as the FIFO. */
    unlink("out.fifo");
    unlink("link.qq");
    CHECK_INT_EQ(mkfifo("out.fifo", 0644), 0);
    CHECK_INT_EQ(symlink("out.fifo", "link.qq"), 0);
    refuses("link.qq", S_IFLNK, "a FIFO");
    unlink("link.qq");
    unlink("out.fifo");
}

/* A regular file is replaced, a new name created. */
static void test_regular_and_new(void)
{
    unlink("new.qq");
    CHECK_INT_EQ(qq_out("new.qq", 0, 1), 0);
    struct stat st;
    CHECK(stat("new.qq", &st) == 0 && S_ISREG(st.st_mode));
    CHECK_INT_EQ(qq_out("new.qq", 0, 1), 0);
    CHECK(stat("new.qq", &st) == 0 && S_ISREG(st.st_mode));
    unlink("new.qq");
}

int main(void)
{
    record_something();
    RUN(test_fifo);
    RUN(test_device);
    RUN(test_directory_and_link);
    RUN(test_regular_and_new);
    return TEST_DONE();
}
