/* test_qq_out_says.c - the paper's void QQOut says why on stderr when it writes no file; qq_out
 * stays silent. */
#define _DEFAULT_SOURCE
#define QQ_ENABLE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qq.h"
#include "test.h"

/* What a child that runs FN writes on stderr, into BUF. */
static void stderr_of(void (*fn)(void), char *buf, size_t n)
{
    int p[2];
    buf[0] = '\0';
    if (pipe(p) != 0) {
        TEST_FAIL_AT("pipe");
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 2);
        close(p[0]);
        fn();
        _exit(0);
    }
    close(p[1]);
    size_t got = 0;
    ssize_t k;
    while (got + 1 < n && (k = read(p[0], buf + got, n - 1 - got)) > 0)
        got += (size_t)k;
    buf[got] = '\0';
    close(p[0]);
    waitpid(pid, NULL, 0);
}

static void bad_node(void)
{
    QQInit(10);
    QQOut("never.qq", 3, 2);
}

static void bad_folder(void)
{
    QQInit(10);
    QQOut("no/such/folder/x.qq", 0, 1);
}

static void silent(void)
{
    QQInit(10);
    (void)qq_out("no/such/folder/x.qq", 0, 1);
}

static void fine(void)
{
    QQInit(10);
    QQOut("fine.qq", 0, 1);
}

/* A path of about 4000 bytes whose folders' names are past NAME_MAX: the
 * system says "File name too long", and the message keeps that reason (the
 * 512-byte message cut the path short before it). */
static char long_path[4100];

static void make_long_path(void)
{
    size_t n = 0;
    for (int d = 0; d < 13; d++) {
        memset(long_path + n, 'a' + d, 300);
        n += 300;
        long_path[n++] = '/';
    }
    memcpy(long_path + n, "x.qq", 5);
}

static void too_long(void)
{
    QQInit(10);
    QQOut(long_path, 0, 1);
}

static void test_long_path(void)
{
    unsetenv(QQ_OUTPUT_ENV);
    make_long_path();
    CHECK(strlen(long_path) > 3900);
    QQInit(10);
    CHECK(qq_out(long_path, 0, 1) < 0);
    const char *m = qq_out_errmsg();
    CHECK(strlen(m) < 512);
    CHECK(strncmp(m, "aaaaaaaaaa", 10) == 0);         /* the path's start */
    CHECK_STR_CONTAINS(m, "...");                     /* its middle left out */
    CHECK_STR_CONTAINS(m, "mmmmmmmmmm/x.qq: cannot"); /* its end */
    CHECK_STR_CONTAINS(m, "File name too long");      /* and the reason */
    char buf[1024];
    stderr_of(too_long, buf, sizeof buf);
    CHECK(strncmp(buf, "QQOut: aaaaaaaaaa", 17) == 0);
    CHECK_STR_CONTAINS(buf, "File name too long\n");
    CHECK(strchr(buf, '\n') == buf + strlen(buf) - 1); /* one line */
}

static void test_qq_out_says(void)
{
    unsetenv(QQ_OUTPUT_ENV);
    char buf[1024];
    stderr_of(bad_node, buf, sizeof buf);
    CHECK_STR_EQ(buf, "QQOut: node 3 of 2 nodes is out of range\n");
    CHECK(access("never.qq", F_OK) != 0);
    stderr_of(bad_folder, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "QQOut: no/such/folder/");
    CHECK_STR_CONTAINS(buf, "No such file or directory");
    CHECK(strchr(buf, '\n') == buf + strlen(buf) - 1); /* one line */
    stderr_of(silent, buf, sizeof buf);
    CHECK_STR_EQ(buf, "");
    stderr_of(fine, buf, sizeof buf);
    CHECK_STR_EQ(buf, "");
    CHECK(access("fine.qq", F_OK) == 0);
}

int main(void)
{
    RUN(test_qq_out_says);
    RUN(test_long_path);
    return TEST_DONE();
}
