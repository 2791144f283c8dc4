/* pingpong_run.c - profile-machine's MPI ping-pong: the launcher and qqb_pingpong (harness/mpi/)
 * spawned in their own process group by util/proc.c, their lines read within 120 s. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "proc.h"

/* The helper's output: its first 4095 bytes kept, the rest read and
 * dropped (a helper never blocks on a full pipe). */
struct text {
    int fd;
    size_t len;
    char buf[4096];
};

/* qqb_proc_wait's idle: wait up to MS for output, then read what there is;
 * at its end the pipe is closed (T->fd -1) and the wait is a sleep. */
static void read_idle(void *arg, long ms)
{
    struct text *t = arg;
    if (t->fd < 0) {
        if (ms > 0)
            nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
        return;
    }
    struct pollfd pf = {t->fd, POLLIN, 0};
    if (poll(&pf, 1, (int)ms) <= 0)
        return;
    static char junk[4096]; /* what is past the buffer: read, never looked at */
    for (;;) {
        size_t room = sizeof t->buf - 1 - t->len;
        ssize_t k = read(t->fd, room ? t->buf + t->len : junk, room ? room : sizeof junk);
        if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
            close(t->fd);
            t->fd = -1;
        }
        if (k <= 0)
            break;
        if (room)
            t->len += (size_t)k;
    }
    t->buf[t->len] = '\0';
}

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
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    struct qqb_proc p = {
        .argv = argv, .in = QQB_PROC_KEEP, .out = fd[1], .err = QQB_PROC_KEEP, .say_exec_error = 1};
    pid_t pid = qqb_proc_spawn(&p);
    int fork_errno = errno;
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        fprintf(stderr, "qqbench profile-machine: error: cannot start %s: %s\n", argv[0],
                strerror(fork_errno));
        return -1;
    }
    /* The helper's lines are read while it runs, and what is left once
     * the launcher has ended; a daemon it left holding the pipe is not
     * waited for: its group is stopped. */
    struct text t = {fd[0], 0, {0}};
    struct qqb_proc_wait w = {.timeout = 120, .idle = read_idle, .arg = &t};
    int ws, rc = qqb_proc_wait(pid, &w, &ws);
    if (rc == 1)
        fprintf(stderr, "qqbench profile-machine: error: the MPI helper "
                        "ran past 120 s; killed\n");
    read_idle(&t, 0);
    if (t.fd >= 0)
        close(t.fd);
    qqb_proc_stop_group(pid); /* anything the launcher left behind */
    if (rc < 0)
        ws = 0;
    char *text = t.buf;
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
