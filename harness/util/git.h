/* git.h - the commit a measurement came from (docs/BASELINES.md, "The git commit"). */
#ifndef QQB_GIT_H
#define QQB_GIT_H

#include <stddef.h>

/* The commit checked out in the git working tree holding REPO_DIR (REPO_DIR
 * or a parent with .git), read from .git/HEAD and the ref file or
 * packed-refs without running git; .git files (worktrees, submodules) are
 * followed. OUT gets the full hex hash. Returns 0, or -1 when not a git
 * checkout, the ref cannot be resolved, or LEN is too small. */
int qqb_git_commit(const char *repo_dir, char *out, size_t len);

/* Where a suite's baselines live by default (docs/BASELINES.md, "Where the
 * files live"): the root of the git checkout holding SUITE_DIR (asking
 * `git rev-parse --show-toplevel`), unless SUITE_DIR is ignored by git (a
 * build folder: `git check-ignore`) or not in a checkout, or git cannot be
 * run: then SUITE_DIR itself. OUT gets "ROOT/baselines". 0, or -1 when
 * LEN is too small. */
int qqb_git_baselines_dir(const char *suite_dir, char *out, size_t len);

/* Run `git -C DIR ARGS...` (at most 5 ARGS, NULL-terminated) quietly, no
 * shell; its first output line into BUF (may be NULL). Returns 0 when it
 * ran and exited 0, else -1; *STATUS (may be NULL) gets its exit status,
 * or -1 when it could not run or died by a signal. */
int qqb_git_line(const char *dir, const char *const *args, char *buf, size_t len, int *status);

#endif /* QQB_GIT_H */
