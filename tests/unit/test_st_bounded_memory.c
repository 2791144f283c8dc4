/* test_st_bounded_memory.c - qqbench st streams: its maximum resident memory does not grow with the
 * file (ru_maxrss of the child, against the file's size; no timing). */
#define _DEFAULT_SOURCE /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

/* Run ARGV with stdout to OUT; return its exit status and, in *RSS, its
 * maximum resident set in bytes (wait4: this child's alone; forked from
 * this small process, so the figure is qqbench's own). */
static int run(char *const argv[], const char *out, long *rss)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0)
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

int main(void)
{
    const char *qqbench = getenv("QQBENCH"), *bin = getenv("QQ_BINARY_DIR");
    if (!qqbench || !bin) {
        printf("skip: QQBENCH and QQ_BINARY_DIR are set by ctest\n");
        return 77;
    }
    char gen[4096];
    snprintf(gen, sizeof gen, "%s/tools/qq_bigfile", bin);
    if (access(gen, X_OK) != 0) {
        printf("skip: %s not built\n", gen);
        return 77;
    }
    long rss_gen, small, big;
    char *mk_small[] = {gen, "small.qq", "10000", NULL};
    char *mk_big[] = {gen, "big.qq", "4000000", NULL}; /* 96 MB */
    CHECK_INT_EQ(run(mk_small, "gen.out", &rss_gen), 0);
    CHECK_INT_EQ(run(mk_big, "gen.out", &rss_gen), 0);
    struct stat st;
    CHECK_INT_EQ(stat("big.qq", &st), 0);
    long size = (long)st.st_size;
    CHECK(size > 96000000L);

    char *st_small[] = {(char *)qqbench, "st", "small.qq", NULL};
    char *st_big[] = {(char *)qqbench, "st", "big.qq", NULL};
    CHECK_INT_EQ(run(st_small, "small.out", &small), 0);
    CHECK_INT_EQ(run(st_big, "big.out", &big), 0);
    /* The big file was read to its end: 2.5 x 10^5 intervals of each of the
     * four states (two pairs in every 8 entries). */
    char line[256];
    int found = 0;
    FILE *fp = fopen("big.out", "r");
    while (fp && fgets(line, sizeof line, fp))
        if (strstr(line, " 250000 ") && strstr(line, "'state_d'"))
            found = 1;
    if (fp)
        fclose(fp);
    CHECK(found);
    printf("maximum RSS of qqbench st: %ld bytes for a 240 KB file, %ld bytes for %ld bytes "
           "(+%ld)\n",
           small, big, size, big - small);
    /* Read whole, the file alone would add its size. Streamed, what remains
     * is the 256 KiB chunk and the interval lengths the estimator needs (8
     * bytes per state pair, a twelfth of this file: +9 MB here), with
     * allocator slack (ASan's quarantine keeps the outgrown arrays: +19 MB
     * here). Half the file's size tells the two apart on any machine. */
    CHECK(big - small < size / 2);
    unlink("big.qq");
    unlink("small.qq");
    return TEST_DONE();
}
