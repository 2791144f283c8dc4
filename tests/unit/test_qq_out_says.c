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
    return TEST_DONE();
}
