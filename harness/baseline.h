/* baseline.h - the baseline store: per-machine YAML files of results in git (docs/BASELINES.md). */
#ifndef QQB_BASELINE_H
#define QQB_BASELINE_H

#include <stddef.h>

#include "results.h"

/* The file format version this code writes and the only one it reads. */
#define QQB_BASELINE_VERSION 1

/* How long qqb_baseline_write waits for another writer's lock by default. */
#define QQB_BASELINE_LOCK_SECONDS 30.0

/* Where a baseline lives: DIR/FP_ID/SUITE.yaml, or with a label (a history
 * snapshot, --record LABEL) DIR/FP_ID/history/SUITE@LABEL.yaml with every
 * character of LABEL outside [A-Za-z0-9._-] replaced by '_'. DIR NULL means
 * "baselines". Only fp->id is used. Returns 0, or -1 when SUITE or fp->id is
 * not a plain name ([A-Za-z0-9._-], not "." or ".."), LABEL is empty or
 * longer than 128 bytes, or OUT is too small. */
int qqb_baseline_path(const char *dir, const char *suite,
                      const struct qqb_fingerprint *fp, const char *label,
                      char *out, size_t outlen);

/* Write R to PATH atomically: mkdir -p the parent, take the exclusive lock
 * PATH.lock (waiting up to the lock timeout), remove stale PATH.tmp.* files,
 * write PATH.tmp.PID, fsync, rename over PATH, fsync the directory. A NULL
 * r->date is written as the current UTC time, a NULL r->version as this
 * qqbench's. Every sample must be finite. Returns 0, or -1 with a one-line
 * message in ERR (PATH untouched). */
int qqb_baseline_write(const char *path, const struct qqb_results *r, char *err,
                       size_t errlen);

/* Read-merge-write under one lock (--update-baseline with only some cases
 * run): if PATH exists, its cases not in CUR are kept (qqb_baseline_merge),
 * and the result is written as qqb_baseline_write does. Two concurrent
 * updates of different cases both survive. Returns 0 or -1 with ERR. */
int qqb_baseline_update(const char *path, const struct qqb_results *cur,
                        char *err, size_t errlen);

/* Parse PATH into OUT (which needs no initialisation; free it with
 * qqb_results_free). Returns 0, or -1 with "PATH:LINE:COLUMN: error: ..."
 * (or "PATH: error: ...") in ERR and OUT left empty. */
int qqb_baseline_read(const char *path, struct qqb_results *out, char *err,
                      size_t errlen);

/* Cases of CUR replace the cases of BASE with the same name (in place);
 * CUR's other cases are appended. The header (label, date, version, commit,
 * fingerprint) becomes CUR's, since the merged result is what gets written
 * now. Returns 0, or -1 (BASE unchanged) when the suites or the fingerprint
 * ids differ (both set) or memory runs out. */
int qqb_baseline_merge(struct qqb_results *base, const struct qqb_results *cur);

/* Fingerprint ids other than EXCEPT_ID (may be NULL) with a baseline of
 * SUITE under DIR, sorted by name. *IDS is a malloc'd array of malloc'd
 * strings (free with qqb_baseline_free_list). A missing DIR gives 0 ids.
 * Returns 0 or -1 (read error, out of memory). */
int qqb_baseline_find_others(const char *dir, const char *suite,
                             const char *except_id, char ***ids, size_t *n);

/* The labels of the history snapshots of SUITE for FP_ID, oldest first (by
 * the date inside each file, then by label; a file whose date cannot be read
 * sorts last). Each label is the one stored in the file (the user's
 * spelling), or the file name's when the file has none; qqb_baseline_path
 * maps it back to the file. Missing history gives 0 labels. Returns 0 or -1. */
int qqb_baseline_history(const char *dir, const char *suite, const char *fp_id,
                         char ***labels, size_t *n);

/* Free a list from qqb_baseline_find_others or qqb_baseline_history. */
void qqb_baseline_free_list(char **list, size_t n);

/* Change the lock wait of qqb_baseline_write/update (seconds, > 0); for
 * tests and impatient callers. Not thread-safe; set it before writing. */
void qqb_baseline_set_lock_timeout(double seconds);

/* The commit checked out in the git working tree holding REPO_DIR (REPO_DIR
 * or a parent with .git), read from .git/HEAD and the ref file or
 * packed-refs without running git; .git files (worktrees, submodules) are
 * followed. OUT gets the full hex hash. Returns 0, or -1 when not a git
 * checkout, the ref cannot be resolved, or LEN is too small. */
int qqb_git_commit(const char *repo_dir, char *out, size_t len);

#endif /* QQB_BASELINE_H */
