/* runner.h - launch one kernel run (directly or through a launcher) and turn its .qq file into
 * samples. */
#ifndef QQB_RUNNER_H
#define QQB_RUNNER_H

#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>

#include "results.h"

enum qqb_launch_status {
    QQB_LAUNCH_OK = 0,
    QQB_LAUNCH_SPAWN,   /* could not start the program */
    QQB_LAUNCH_EXIT,    /* exited with a non-zero status */
    QQB_LAUNCH_SIGNAL,  /* killed by a signal (crash) */
    QQB_LAUNCH_TIMEOUT, /* ran past its time limit (its process group was killed) */
    QQB_LAUNCH_NOFILE,  /* exited 0 but left no .qq file */
    QQB_LAUNCH_BADFILE, /* left a .qq file the reader refuses */
    QQB_LAUNCH_LEFTOVER /* exited 0 but left processes running (killed) */
};

struct qqb_launch {
    char *const *argv;         /* program and arguments, NULL-ended */
    double timeout;            /* seconds */
    const char *out_path;      /* where QQOut must write (QQ_OUTPUT) */
    const char *log_path;      /* the last 64 KiB of the program's stdout and stderr */
    int64_t events;            /* QQ_EVENTS for the program, 0: unset */
    const char *callgrind_key; /* QQ_CALLGRIND_KEY for the program (an instructions
                                  launch under callgrind, instrs.c); NULL: unset */
};

struct qqb_launch_result {
    enum qqb_launch_status status;
    int code;         /* exit status or signal number */
    double seconds;   /* wall time of the launch */
    char reason[512]; /* one line: what went wrong, with the log's last line */
};

/* Run L to completion or its timeout. Returns 0 when it ran and exited 0
 * with a file, -1 otherwise (R says why). The program runs in its own
 * process group; a timeout kills the whole group (SIGTERM, then SIGKILL).
 * qqbench becomes a child subreaper (Linux) on the first call: whatever a
 * launch leaves running, in its group or not (setsid), is killed when the
 * launch ends, and a launch that exited 0 but left processes fails. */
int qqb_launch_run(const struct qqb_launch *l, struct qqb_launch_result *r);

/* From now on SIGINT, SIGTERM, SIGHUP and SIGPIPE end qqbench cleanly: the running
 * launch's process group is stopped (SIGTERM, then SIGKILL after 2 s), the
 * files in WORKDIR and WORKDIR itself are removed (NULL: kept), and qqbench
 * ends by the same signal (exit status 128+N in a shell). A baseline is
 * never half-written by this: baselines are renamed into place whole.
 * Returns 0 or -1. */
int qqb_runner_trap_signals(const char *workdir);
/* Back to the dispositions before qqb_runner_trap_signals. */
void qqb_runner_untrap_signals(void);

struct qq_file;
/* Read the .qq file F (open, streamed or whole) in one pass per node, every
 * entry checked, and add one sample per metric of each key (see results.h)
 * to case C; KEYS (NKEYS > 0) limits the keys. Also fills C's memory table
 * (summed over nodes) and tick MHz. Returns 0, or -1 with a one-line
 * reason in ERR. */
int qqb_collect(struct qq_file *f, char *const *keys, size_t nkeys, struct qqb_case_result *c,
                char *err, size_t errlen);

double qqb_reference_ticks(void);

/* Where bare kernel names are found by default: $QQBENCH_KERNELS, else the
 * kernels folder next to this qqbench (build/harness/qqbench ->
 * build/kernels; bin/qqbench -> libexec/qqbench/kernels), in BUF; NULL
 * when none exists. */
const char *qqb_default_kernel_dir(char *buf, size_t len);

#endif /* QQB_RUNNER_H */
