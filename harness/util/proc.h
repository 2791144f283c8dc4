/* proc.h - the one spawner: a child process in a process group of its own, its output where the
 * caller says, waited for with a time limit or a stop flag that a signal handler sets, and its
 * group stopped (SIGTERM, then SIGKILL). measure/runner.c's launches, ci's commands and its run,
 * and profile-machine's MPI helper all start and stop their children here. */
#ifndef QQB_PROC_H
#define QQB_PROC_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* struct qqb_proc's in, out and err: qqbench's own descriptor (kept as
 * is), or /dev/null; any other value is a descriptor of the parent's. */
enum { QQB_PROC_KEEP = -1, QQB_PROC_DEVNULL = -2 };

/* What to start. Every field is read in the child between fork and exec. */
struct qqb_proc {
    char *const *argv;     /* execvp'd; NULL: FN runs instead */
    int (*fn)(void *);     /* with ARGV NULL: FN(ARG) in the child, its result the exit status
                              (exit(), so atexit's handlers run and stdio's buffers are written) */
    void *arg;             /* FN's and SETUP's argument */
    void (*setup)(void *); /* in the child, before the descriptors and the exec (environment) */
    const char *cwd;       /* the child's folder (not entered: exit 126); NULL: this one */
    int in, out, err;      /* the child's stdin, stdout, stderr: a descriptor, QQB_PROC_KEEP
                              or QQB_PROC_DEVNULL */
    int same_group;        /* 1: stay in qqbench's process group (a terminal's ^C reaches both);
                              0: a group of its own, led by the child */
    const int *dfl;        /* signals set back to SIG_DFL in the child (NDFL of them) */
    size_t ndfl;
    const sigset_t *mask; /* the child's signal mask; NULL: inherited */
    int pdeathsig;        /* Linux: the signal the child gets should qqbench die; 0: none */
    int say_exec_error;   /* 1: a failed exec says "qqbench: cannot run PROG: why" on the
                             child's stderr (then exits 127, as always) */
};

/* Start P: the child's pid, or -1 (errno set) when fork failed. With FN,
 * stdio's buffers are flushed first (nothing is written twice). With its
 * own group, the group is set on both sides of the fork: whichever runs
 * first. */
pid_t qqb_proc_spawn(const struct qqb_proc *p);

/* How to wait. Zeroed: wait until the child ends. */
struct qqb_proc_wait {
    double timeout;                   /* seconds from the call; 0: none */
    volatile sig_atomic_t *stop;      /* non-NULL: a handler sets *STOP to a signal */
    int forward;                      /* on *STOP: 1 pass the signal to the child once and
                                         wait on; 0 stop the child's group and return -1 */
    void (*idle)(void *arg, long ms); /* between looks at the child, in place of sleeping MS
                                         (draining a pipe); NULL with no timeout: waitpid
                                         blocks, woken by a signal (EINTR) */
    void *arg;
};

/* Wait for PID by W: its wait status into *STATUS. Past W's timeout the
 * child's group gets SIGTERM, then SIGKILL 2 s later, and the child is
 * reaped. Returns 0 when it ended, 1 when it timed out, -1 when waitpid
 * failed or *STOP stopped it (W->forward 0). */
int qqb_proc_wait(pid_t pid, const struct qqb_proc_wait *w, int *status);

/* Stop process group G: SIGTERM first (mpirun then stops its ranks and
 * cleans up), SIGKILL after 2 s for whatever is left, all reaped.
 * Async-signal-safe (a trap's handler calls it). */
void qqb_proc_stop_group(pid_t g);

/* A wait status as a shell's exit status: the exit code, or -1 when the
 * child died by a signal. */
int qqb_proc_exit_code(int status);

#endif /* QQB_PROC_H */
