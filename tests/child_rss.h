/* child_rss.h - tests' runs of a program as a child: its exit status and its maximum resident set,
 * for the bounds on qqbench's memory against a big file's size. */
#ifndef QQ_TEST_CHILD_RSS_H
#define QQ_TEST_CHILD_RSS_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* wait4 is BSD's and Linux's, not POSIX: the test defines _DEFAULT_SOURCE. */

/* Run ARGV with stdout and stderr to OUT; return its exit status and, in *RSS, its
 * maximum resident set in bytes (wait4: this child's alone; forked from
 * this small process, so the figure is the program's own). */
static inline int child_rss(char *const argv[], const char *out, long *rss)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
        return -1;
    *rss = ru.ru_maxrss * 1024L;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * small.qq (10^4 events, 240 KB) and big.qq (4 x 10^6 events, 96 MB) in
 * the working directory, written by tools/qq_bigfile (its mix: of every 8
 * entries two state pairs over 4 state keys, a mark, a count, a value and
 * a mark). Returns big.qq's size in bytes; 0 with a line on stdout when
 * the programs are not there (outside ctest: the test skips); -1 with a
 * line when the files could not be written.
 */
static inline long child_rss_files(void)
{
    const char *qqbench = getenv("QQBENCH"), *bin = getenv("QQ_BINARY_DIR");
    if (!qqbench || !bin) {
        printf("skip: QQBENCH and QQ_BINARY_DIR are set by ctest\n");
        return 0;
    }
    char gen[4096];
    snprintf(gen, sizeof gen, "%s/tools/qq_bigfile", bin);
    if (access(gen, X_OK) != 0) {
        printf("skip: %s not built\n", gen);
        return 0;
    }
    long rss;
    char *mk_small[] = {gen, "small.qq", "10000", NULL};
    char *mk_big[] = {gen, "big.qq", "4000000", NULL};
    struct stat st;
    if (child_rss(mk_small, "gen.out", &rss) != 0 || child_rss(mk_big, "gen.out", &rss) != 0 ||
        stat("big.qq", &st) != 0) {
        printf("FAIL: %s could not write the files\n", gen);
        return -1;
    }
    return (long)st.st_size;
}

#endif /* QQ_TEST_CHILD_RSS_H */
