/* pingpong_run.c - profile-machine's MPI ping-pong: the launcher and qqb_pingpong (harness/mpi/)
 * spawned in their own process group, their lines read within 120 s. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"

extern char **environ;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Run the launcher + helper, collect its lines; -1 on failure (said why). */
int qqb_pingpong_run(const char *launcher, const char *helper, struct qqb_pingpong *out)
{
    char *argv[32], buf[512];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", launcher);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 30;
         w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc++] = (char *)helper;
    argv[argc] = NULL;
    if (geteuid() == 0) { /* Open MPI refuses root without these */
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    int fd[2];
    if (pipe(fd) < 0) {
        fprintf(stderr, "qqbench profile-machine: error: pipe: %s\n", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    pid_t pid;
    int st = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fd[1]);
    if (st != 0) {
        close(fd[0]);
        fprintf(stderr, "qqbench profile-machine: error: cannot start %s: %s\n", argv[0],
                strerror(st));
        return -1;
    }
    char text[4096];
    size_t len = 0;
    double deadline = now() + 120;
    for (;;) {
        struct pollfd p = {fd[0], POLLIN, 0};
        int left = (int)((deadline - now()) * 1000);
        if (left <= 0 || poll(&p, 1, left) <= 0) {
            kill(-pid, SIGKILL);
            fprintf(stderr, "qqbench profile-machine: error: the MPI helper "
                            "ran past 120 s; killed\n");
            break;
        }
        ssize_t k = read(fd[0], text + len, sizeof text - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
        if (len == sizeof text - 1)
            break;
    }
    text[len] = '\0';
    close(fd[0]);
    int ws;
    waitpid(pid, &ws, 0);
    kill(-pid, SIGKILL); /* anything the launcher left behind */
    out->n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && out->n < QQB_PINGPONG_MAX;
         l = strtok_r(NULL, "\n", &save)) {
        char *e1, *e2, *e3;
        errno = 0;
        long size = strtol(l, &e1, 10);
        double us = strtod(e1, &e2), mbps = strtod(e2, &e3);
        if (errno == 0 && e1 != l && e2 != e1 && e3 != e2) {
            out->size[out->n] = size;
            out->us[out->n] = us;
            out->mbps[out->n] = mbps;
            out->n++;
        }
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || out->n == 0) {
        fprintf(stderr,
                "qqbench profile-machine: error: '%s %s' failed "
                "(%s %d) with %d results\n",
                launcher, helper, WIFEXITED(ws) ? "exit" : "signal",
                WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws), out->n);
        return -1;
    }
    return 0;
}
