/* ci_exec.h - what qqbench ci runs and how: commands with their output in a log, in a process
 * group that a signal to ci stops; the build command's placeholders; qqbench's install prefix. */
#ifndef QQB_CI_EXEC_H
#define QQB_CI_EXEC_H

#include <stddef.h>
#include <stdio.h>

/* SIGINT, SIGTERM, SIGHUP and SIGPIPE caught (ON 1: a command running is stopped,
 * qqb_ci_run returns -1) or given back their former handlers (ON 0). */
void qqb_ci_trap(int on);
/* The signal that stopped ci since the trap was set, 0 if none. */
int qqb_ci_stopped(void);
/* Forget that signal so the clean-up's own commands run; returns it. */
int qqb_ci_unstop(void);

/* Where a build finds QQ: qqbench's install prefix and its library folder
 * (empty strings when this qqbench is not installed). */
struct qqb_ci_env {
    char prefix[4096];
    char libdir[4200];
};

/* The install prefix of the running qqbench (/proc/self/exe is
 * PREFIX/bin/qqbench) into ENV, when PREFIX holds QQ's CMake package
 * (lib/cmake/QQ/QQConfig.cmake, lib64/..., lib/ARCH/...); else ENV's
 * strings are empty. */
void qqb_ci_find_prefix(struct qqb_ci_env *env);

/* Run ARGV (execvp; stdin /dev/null, stdout and stderr appended to LOG, or
 * to /dev/null when LOG is NULL) in CWD (NULL: here), in a process group of
 * its own, with ENV's prefix put first in CMAKE_PREFIX_PATH and its
 * pkgconfig folder first in PKG_CONFIG_PATH (ENV may be NULL). Exception
 * to the return convention: the command's exit status, or -1 when it
 * could not run, died by a signal or was stopped by one to ci. */
int qqb_ci_run(char *const argv[], const char *log, const char *cwd, const struct qqb_ci_env *env);

/* FN(ARG) in a child process, in ci's process group (a terminal's ^C
 * reaches both), with the dispositions from before ci's trap (FN sets its
 * own: qqb_run's stops its launch, removes its work folder and ends the
 * process by the signal, which left ci's worktree and folder behind when
 * it ran in ci's process). A signal to ci while FN runs is passed on to
 * the child. Returns FN's result as the child's exit status; -1 when the
 * child could not run or died by a signal: by SIGINT, SIGTERM, SIGHUP or SIGPIPE,
 * that signal is taken as ci's stop (qqb_ci_stopped), so ci's clean-up
 * runs and ci ends by it. */
int qqb_ci_run_fn(int (*fn)(void *), void *arg);

/* rm -rf DIR. */
void qqb_ci_remove_tree(const char *dir);

/* The last N lines of the file LOG to FP, each prefixed with "  | ". */
void qqb_ci_log_tail(const char *log, int n, FILE *fp);

/* CMD with every "{src}" and "{out}" replaced by SRC and OUT, each quoted
 * for /bin/sh ('...'), so a folder with blanks or quotes stays one word.
 * malloc'd; NULL when out of memory. */
char *qqb_ci_expand(const char *cmd, const char *src, const char *out);

#endif /* QQB_CI_EXEC_H */
