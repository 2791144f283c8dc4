/* baseline.h - the baseline store: per-machine YAML files of results in git (docs/BASELINES.md). */
#ifndef QQB_BASELINE_H
#define QQB_BASELINE_H

#include <stddef.h>

#include "results.h"

/* The file format version this code writes, and the oldest it reads
 * (version 1 has no command, runs, run or launch: one run, launches in
 * order). */
#define QQB_BASELINE_VERSION     2
#define QQB_BASELINE_VERSION_MIN 1

/* The fingerprint id written into memory baselines, which hold memory per
 * key only and apply on every machine (docs/BASELINES.md, "Memory
 * baselines"). */
#define QQB_MEMORY_ID "any-machine"
/* Where the memory baseline of SUITE lives: DIR/SUITE.memory.yaml, beside
 * the per-machine folders (DIR NULL: "baselines"). 0, or -1 as
 * qqb_baseline_path. */
int qqb_baseline_memory_path(const char *dir, const char *suite, char *out, size_t outlen);
/* Runs of qqbench a baseline keeps per case by default (--keep-runs). */
#define QQB_BASELINE_KEEP_RUNS 5

/* How long qqb_baseline_write waits for another writer's lock by default. */
#define QQB_BASELINE_LOCK_SECONDS 30.0

/* Where a baseline lives: DIR/FP_ID/SUITE.yaml, or with a label (a history
 * snapshot, --record LABEL) DIR/FP_ID/history/SUITE@LABEL.yaml with every
 * character of LABEL outside [A-Za-z0-9._-] replaced by '_'. DIR NULL means
 * "baselines". Only fp->id is used. Returns 0, or -1 when SUITE or fp->id is
 * not a plain name ([A-Za-z0-9._-], not "." or ".."), LABEL is empty or
 * longer than 128 bytes, or OUT is too small. */
int qqb_baseline_path(const char *dir, const char *suite, const struct qqb_fingerprint *fp,
                      const char *label, char *out, size_t outlen);

/* Write R to PATH atomically: mkdir -p the parent, take the exclusive lock
 * PATH.lock (waiting up to the lock timeout), remove stale PATH.tmp.* files,
 * write PATH.tmp.PID, fsync, rename over PATH, fsync the directory. A NULL
 * r->date is written as the current UTC time, a NULL r->version as this
 * qqbench's. Every sample must be finite. Returns 0, or -1 with a one-line
 * message in ERR (PATH untouched): -2 when the file system refused (a full
 * disk or file-size limit, a read-only or missing folder, the lock held by
 * another writer past the timeout, a lock file that is a symbolic link;
 * the message has the errno's words),
 * -1 for anything else. No temporary file is left either way.
 * An exception to the harness's 0/-1 convention, kept: the caller (qqbench
 * run) exits 3 for -2 and 2 for -1, and the unit tests check -2. */
int qqb_baseline_write(const char *path, const struct qqb_results *r, char *err, size_t errlen);

/* Read-merge-write under one lock (--update-baseline): if PATH exists, CUR
 * is merged into it (qqb_baseline_merge, keeping KEEP_RUNS runs per case)
 * and the result is written as qqb_baseline_write does. Two concurrent
 * updates of different cases both survive. Returns 0, -1 or -2 (as
 * qqb_baseline_write) with ERR. */
/* Update two baselines (a timing baseline and the memory baseline) both or
 * neither: both locked (in path order), both merged and prepared beside
 * their files, then both renamed into place. A failure before the renames
 * writes neither (ERR names the file that failed); -1 or -2 as
 * qqb_baseline_update. */
int qqb_baseline_update_both(const char *p1, const struct qqb_results *r1, size_t keep1,
                             const char *p2, const struct qqb_results *r2, size_t keep2, char *err,
                             size_t errlen);
int qqb_baseline_update(const char *path, const struct qqb_results *cur, size_t keep_runs,
                        char *err, size_t errlen);

/* Parse PATH into OUT (which needs no initialisation; free it with
 * qqb_results_free). Returns 0, or -1 with "PATH:LINE:COLUMN: error: ..."
 * (or "PATH: error: ...") in ERR and OUT left empty. */
int qqb_baseline_read(const char *path, struct qqb_results *out, char *err, size_t errlen);

/* qqb_baseline_read, and the file's `suite:` must be SUITE and its
 * fingerprint `id:` FP_ID (either NULL: not checked), as its path says:
 * otherwise -1 with "PATH:LINE:COLUMN: error: suite 'x' disagrees with the
 * path, which is for suite 'y'; ...". */
int qqb_baseline_read_as(const char *path, const char *suite, const char *fp_id,
                         struct qqb_results *out, char *err, size_t errlen);

/* Each case of CUR (one run) is added to the case of BASE with the same
 * name as its newest run, and runs beyond the newest KEEP_RUNS are dropped
 * (KEEP_RUNS 1: CUR's case replaces BASE's); memory, command, tick MHz and
 * failures become CUR's. When the stored command differs from CUR's (both
 * known), the old runs measured another program: CUR's case replaces them.
 * CUR's other cases are appended; BASE's cases not in CUR stay. The header
 * (label, date, version, commit, fingerprint) becomes CUR's. Returns 0, or
 * -1 (BASE unchanged) when the suites or the fingerprint ids differ (both
 * set) or memory runs out. */
int qqb_baseline_merge(struct qqb_results *base, const struct qqb_results *cur, size_t keep_runs);

/* Fingerprint ids other than EXCEPT_ID (may be NULL) with a baseline of
 * SUITE under DIR, sorted by name. *IDS is a malloc'd array of malloc'd
 * strings (free with qqb_baseline_free_list). A missing DIR gives 0 ids.
 * Returns 0 or -1 (read error, out of memory). */
int qqb_baseline_find_others(const char *dir, const char *suite, const char *except_id, char ***ids,
                             size_t *n);

/* Snapshot labels in version order (strverscmp: "v9" before "v10", "1.2"
 * before "1.10"): how snapshots with the same date (to the second) are
 * ordered. */
int qqb_label_cmp(const char *a, const char *b);

/* The labels of the history snapshots of SUITE for FP_ID, oldest first (by
 * the date inside each file, then qqb_label_cmp; a file whose date cannot be read
 * sorts last). Each label is the one stored in the file (the user's
 * spelling), or the file name's when the file has none; qqb_baseline_path
 * maps it back to the file. Missing history gives 0 labels. Returns 0 or -1. */
int qqb_baseline_history(const char *dir, const char *suite, const char *fp_id, char ***labels,
                         size_t *n);

/* Free a list from qqb_baseline_find_others or qqb_baseline_history. */
void qqb_baseline_free_list(char **list, size_t n);

/* Change the lock wait of qqb_baseline_write/update (seconds, > 0); for
 * tests and impatient callers. Not thread-safe; set it before writing. */
void qqb_baseline_set_lock_timeout(double seconds);

#endif /* QQB_BASELINE_H */
