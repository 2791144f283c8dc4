/* proc.c - the one spawner: a child in its own process group, waited for with a time limit or a
 * stop flag, its group stopped (proc.h). */
#define _DEFAULT_SOURCE /* prctl's constants with glibc's strict headers */

#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "clock.h"

/* The grace a group gets between SIGTERM and SIGKILL. */
#define QQB_PROC_GRACE 2.0

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* FD (a descriptor, QQB_PROC_KEEP or QQB_PROC_DEVNULL) as the child's
 * descriptor TO, opened with FLAGS for /dev/null. 0, or -1. */
static int put_fd(int fd, int to, int flags)
{
    if (fd == QQB_PROC_KEEP || fd == to)
        return 0;
    int src = fd == QQB_PROC_DEVNULL ? open("/dev/null", flags) : fd;
    if (src < 0 || dup2(src, to) < 0)
        return -1;
    if (fd == QQB_PROC_DEVNULL && src != to)
        close(src);
    return 0;
}

/* The child's side of qqb_proc_spawn; never returns. */
static void child(const struct qqb_proc *p, pid_t parent)
{
    if (!p->same_group)
        setpgid(0, 0);
#if defined(__linux__) && defined(PR_SET_PDEATHSIG)
    if (p->pdeathsig) {
        prctl(PR_SET_PDEATHSIG, p->pdeathsig, 0, 0, 0);
        if (getppid() != parent) /* qqbench died before the line above */
            _exit(127);
    }
#else
    (void)parent;
#endif
    for (size_t i = 0; i < p->ndfl; i++)
        signal(p->dfl[i], SIG_DFL);
    if (p->mask)
        sigprocmask(SIG_SETMASK, p->mask, NULL);
    if (p->setup)
        p->setup(p->arg);
    /* stdout before stderr: an OUT that is also ERR is dup2'd onto both. */
    if (put_fd(p->in, 0, O_RDONLY) != 0 || put_fd(p->out, 1, O_WRONLY) != 0 ||
        put_fd(p->err, 2, O_WRONLY) != 0)
        _exit(127);
    if (p->out >= 0 && p->out > 2 && p->out != p->err)
        close(p->out);
    if (p->err >= 0 && p->err > 2)
        close(p->err);
    if (p->in >= 0 && p->in > 2)
        close(p->in);
    if (p->cwd && chdir(p->cwd) != 0)
        _exit(126); /* as a shell's "cannot execute": there, but not entered */
    if (!p->argv) {
        int rc = p->fn(p->arg);
        exit(rc < 0 || rc > 255 ? 255 : rc);
    }
    execvp(p->argv[0], p->argv);
    if (p->say_exec_error)
        fprintf(stderr, "qqbench: cannot run %s: %s\n", p->argv[0], strerror(errno));
    _exit(127);
}

pid_t qqb_proc_spawn(const struct qqb_proc *p)
{
    if (!p->argv)
        fflush(NULL); /* FN's exit() writes nothing buffered twice */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child(p, parent);
    if (pid > 0 && !p->same_group)
        setpgid(pid, pid); /* also here: whichever runs first wins the race */
    return pid;
}

/* Past the timeout: the group of PID gets SIGTERM, SIGKILL after the
 * grace; PID reaped into *STATUS. */
static void time_out(pid_t pid, const struct qqb_proc_wait *w, int *status)
{
    kill(-pid, SIGTERM);
    double t1 = qqb_now();
    while (waitpid(pid, status, WNOHANG) != pid) {
        if (qqb_now() - t1 > QQB_PROC_GRACE) {
            kill(-pid, SIGKILL);
            waitpid(pid, status, 0);
            return;
        }
        if (w->idle)
            w->idle(w->arg, 0);
        sleep_ms(10);
    }
}

/* qqb_proc_wait with no timeout and no idle: waitpid blocks; a signal to
 * qqbench wakes it (EINTR) to look at *STOP. */
static int wait_blocking(pid_t pid, const struct qqb_proc_wait *w, int *status)
{
    int passed = 0;
    while (waitpid(pid, status, 0) < 0) {
        if (errno != EINTR)
            return -1;
        if (!w->stop || !*w->stop || passed)
            continue;
        if (!w->forward) {
            qqb_proc_stop_group(pid);
            return -1;
        }
        kill(pid, *w->stop);
        passed = 1;
    }
    return 0;
}

int qqb_proc_wait(pid_t pid, const struct qqb_proc_wait *w, int *status)
{
    static const struct qqb_proc_wait none = {0};
    w = w ? w : &none;
    *status = 0;
    if (w->timeout <= 0 && !w->idle)
        return wait_blocking(pid, w, status);
    double t0 = qqb_now();
    long wait_ms = 1;
    int passed = 0;
    for (;;) {
        pid_t got = waitpid(pid, status, WNOHANG);
        if (got == pid)
            return 0;
        if (got < 0 && errno != EINTR)
            return -1;
        if (w->stop && *w->stop && !passed) {
            if (!w->forward) {
                qqb_proc_stop_group(pid);
                return -1;
            }
            kill(pid, *w->stop);
            passed = 1;
        }
        if (w->timeout > 0 && qqb_now() - t0 > w->timeout) {
            time_out(pid, w, status);
            return 1;
        }
        /* Quickly at first (most children are short), then backing off. */
        if (w->idle)
            w->idle(w->arg, wait_ms);
        else
            sleep_ms(wait_ms);
        if (wait_ms < 20)
            wait_ms++;
    }
}

void qqb_proc_stop_group(pid_t g)
{
    kill(-g, SIGTERM);
    for (int i = 0; i < 200; i++) {
        while (waitpid(-g, NULL, WNOHANG) > 0)
            ;
        if (kill(-g, 0) != 0 && errno == ESRCH)
            return;
        struct timespec ts = {0, 10L * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(-g, SIGKILL);
    while (waitpid(-g, NULL, 0) > 0)
        ;
}

int qqb_proc_exit_code(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
