/* test_proc.c - the one spawner (util/proc.h): exit statuses, a program that cannot run, output
 * to a descriptor, a folder not entered (126), a function in the child, the process group, a time
 * limit, a stop flag that stops the group or is passed on, and a group stopped with its
 * grandchildren. */
#define _DEFAULT_SOURCE /* prctl's constants */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "proc.h"
#include "test.h"

/* ARGV run to its end: its wait status. */
static int run_argv(char *const *argv, int out, int err)
{
    struct qqb_proc p = {.argv = argv, .in = QQB_PROC_DEVNULL, .out = out, .err = err};
    p.say_exec_error = 1;
    pid_t pid = qqb_proc_spawn(&p);
    CHECK(pid > 0);
    int st = -1;
    CHECK_INT_EQ(qqb_proc_wait(pid, NULL, &st), 0);
    return st;
}

static void test_status(void)
{
    char *three[] = {"/bin/sh", "-c", "exit 3", NULL};
    CHECK_INT_EQ(qqb_proc_exit_code(run_argv(three, QQB_PROC_DEVNULL, QQB_PROC_DEVNULL)), 3);
    char *killed[] = {"/bin/sh", "-c", "kill -9 $$", NULL};
    int st = run_argv(killed, QQB_PROC_DEVNULL, QQB_PROC_DEVNULL);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    CHECK_INT_EQ(qqb_proc_exit_code(st), -1);
    /* A folder that cannot be entered: 126, not the 127 of a program not
     * found (report/plot.c tells the two apart). */
    char *pwd[] = {"/bin/sh", "-c", "exit 0", NULL};
    struct qqb_proc p = {.argv = pwd,
                         .cwd = "/no/such/folder",
                         .in = QQB_PROC_DEVNULL,
                         .out = QQB_PROC_DEVNULL,
                         .err = QQB_PROC_DEVNULL};
    pid_t pid = qqb_proc_spawn(&p);
    CHECK_INT_EQ(qqb_proc_wait(pid, NULL, &st), 0);
    CHECK_INT_EQ(qqb_proc_exit_code(st), 126);
}

/* stdout and stderr to one pipe; a program that cannot run says so there
 * and exits 127. */
static void test_output(void)
{
    int fd[2];
    CHECK_INT_EQ(pipe(fd), 0);
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    char *both[] = {"/bin/sh", "-c", "printf out; printf err >&2", NULL};
    CHECK_INT_EQ(qqb_proc_exit_code(run_argv(both, fd[1], fd[1])), 0);
    char *missing[] = {"/no/such/program", NULL};
    CHECK_INT_EQ(qqb_proc_exit_code(run_argv(missing, fd[1], fd[1])), 127);
    close(fd[1]);
    char buf[512];
    ssize_t n = read(fd[0], buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    close(fd[0]);
    CHECK(!strncmp(buf, "outerr", 6));
    CHECK(strstr(buf, "qqbench: cannot run /no/such/program: ") != NULL);
}

static int seven(void *arg)
{
    return *(int *)arg + (getpgid(0) == getpid() ? 100 : 0);
}

/* A function in the child: its result the exit status; its own group
 * unless same_group. */
static void test_fn(void)
{
    int base = 7;
    for (int same = 0; same < 2; same++) {
        struct qqb_proc p = {.fn = seven,
                             .arg = &base,
                             .in = QQB_PROC_KEEP,
                             .out = QQB_PROC_KEEP,
                             .err = QQB_PROC_KEEP,
                             .same_group = same};
        pid_t pid = qqb_proc_spawn(&p);
        int st;
        CHECK_INT_EQ(qqb_proc_wait(pid, NULL, &st), 0);
        CHECK_INT_EQ(qqb_proc_exit_code(st), same ? 7 : 107);
    }
}

static void idle_count(void *arg, long ms)
{
    (void)ms;
    ++*(int *)arg;
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
}

/* Past the time limit the group is stopped, a grandchild with it; the
 * idle callback ran meanwhile. */
static void test_timeout(void)
{
    char *slow[] = {"/bin/sh", "-c", "sleep 30 & sleep 30", NULL};
    struct qqb_proc p = {
        .argv = slow, .in = QQB_PROC_DEVNULL, .out = QQB_PROC_DEVNULL, .err = QQB_PROC_DEVNULL};
    pid_t pid = qqb_proc_spawn(&p);
    int idles = 0, st;
    struct qqb_proc_wait w = {.timeout = 0.2, .idle = idle_count, .arg = &idles};
    CHECK_INT_EQ(qqb_proc_wait(pid, &w, &st), 1);
    CHECK(WIFSIGNALED(st));
    CHECK(idles > 0);
    qqb_proc_stop_group(pid); /* the sleep in the background, reaped */
    errno = 0;
    CHECK(kill(-pid, 0) != 0 && errno == ESRCH);
}

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
    (void)sig;
    stop = SIGTERM;
}

/* A stop flag set by a handler: without forward, the group is stopped and
 * the wait returns -1; with forward, the signal is passed on and the
 * child's end is waited for. Both the blocking wait and the polling one. */
static void test_stop(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    char *slow[] = {"/bin/sh", "-c", "sleep 30 & sleep 30", NULL};
    for (int forward = 0; forward < 2; forward++)
        for (int polled = 0; polled < 2; polled++) {
            struct qqb_proc p = {.argv = slow,
                                 .in = QQB_PROC_DEVNULL,
                                 .out = QQB_PROC_DEVNULL,
                                 .err = QQB_PROC_DEVNULL};
            stop = 0;
            pid_t pid = qqb_proc_spawn(&p);
            struct qqb_proc_wait w = {
                .stop = &stop, .forward = forward, .timeout = polled ? 60 : 0};
            int st;
            struct itimerval in = {{0, 0}, {0, 100000}};
            setitimer(ITIMER_REAL, &in, NULL);
            int rc = qqb_proc_wait(pid, &w, &st);
            CHECK_INT_EQ(rc, forward ? 0 : -1);
            if (forward)
                CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
            qqb_proc_stop_group(pid);
            errno = 0;
            CHECK(kill(-pid, 0) != 0 && errno == ESRCH);
        }
    sigaction(SIGALRM, &old, NULL);
}

int main(void)
{
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
    /* The grandchildren, orphaned, are ours to reap (as qqbench's are:
     * measure/runner.c): a zombie still counts in its group. */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
    test_status();
    test_output();
    test_fn();
    test_timeout();
    test_stop();
    return TEST_DONE();
}
