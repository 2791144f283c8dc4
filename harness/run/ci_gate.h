/* ci_gate.h - the decisions of qqbench ci, as pure functions: which stored-baseline option needs
 * --with-baseline, where the reference's kernels are, which folder the change's default build is,
 * the build type build/ gives, where the build logs go, and the cause on ci's last line. None
 * reads a file, the environment or the clock: the caller passes what it read, so each is tested
 * row by row (tests/unit/test_ci_gate.c). */
#ifndef QQB_CI_GATE_H
#define QQB_CI_GATE_H

#include <stddef.h>

#include "pipeline.h"

/* The run option O holds that is about a stored baseline (--update-baseline,
 * --memory-only, --record, --baselines, --baseline-from,
 * --require-baseline, --allow-other-flags: the first given), which ci takes
 * only with --with-baseline; NULL when none is given. */
const char *qqb_ci_baseline_option(const struct qqb_run_opts *o);

/* PATH with "." and ".." taken out, made absolute from CWD when relative
 * (CWD NULL: from the root), into OUT ("/" at least; a name that does not
 * fit is left out). */
void qqb_ci_normalize(const char *path, const char *cwd, char *out, size_t len);

/* What follows BASE in PATH when PATH is BASE or below it ("" or "a/b"),
 * else NULL. */
const char *qqb_ci_below(const char *path, const char *base);

/* The change's build folder of the default CMake line with --kernels K
 * (absolute) and --kernels-subdir SUB: K without its "/SUB" at the end
 * (trailing slashes of SUB aside), into OUT. 0, or -1 when K does not end
 * with /SUB or OUT is too small. */
int qqb_ci_change_out(const char *k, const char *sub, char *out, size_t len);

/* Where the reference's kernels are (the usage of qqbench ci says it):
 * BUILD is --build's command (NULL: the default CMake line), SUB
 * --kernels-subdir (NULL: none), K --kernels made absolute (NULL: not
 * given), CHG_OUT the change's build folder, TOP this checkout, SRC and
 * BLD the reference's worktree and build folder. */
enum qqb_ci_where {
    QQB_CI_KERNELS_OK = 0,    /* OUT holds the reference's kernel folder */
    QQB_CI_KERNELS_NOT_BELOW, /* K not below CHG_OUT, where {out} or the default line builds */
    QQB_CI_KERNELS_OUTSIDE,   /* K outside TOP: no same place in the reference's build */
};
enum qqb_ci_where qqb_ci_kernels(const char *build, const char *sub, const char *k,
                                 const char *chg_out, const char *top, const char *src,
                                 const char *bld, char *out, size_t len);

/* One line LINE of a CMakeCache.txt (AT_START: it begins a line, not a
 * piece of a longer one): -1 when it is not CMAKE_BUILD_TYPE's; 0 when it
 * is, but its value is not plain (letters, digits, '_') or does not fit;
 * 1 when taken into BTYPE (LEN bytes; "" for an empty type). */
int qqb_ci_build_type_line(const char *line, int at_start, char *btype, size_t len);

/* Where the build logs go (the usage says it). */
enum qqb_ci_logs {
    QQB_CI_LOGS_JSON,    /* the folder of --json FILE (OUT) */
    QQB_CI_LOGS_REPORT,  /* --report DIR (OUT) */
    QQB_CI_LOGS_DEFAULT, /* the run's default report folder, reports/latest/SUITE */
    QQB_CI_LOGS_TEMP,    /* no output folder: the temporary one, removed */
};
/* With --json FILE (JSON; NULL none), --report DIR (REPORT), --no-report
 * (NO_REPORT): where the logs go, and the folder into OUT for JSON and
 * REPORT. */
enum qqb_ci_logs qqb_ci_logdir(const char *json, const char *report, int no_report, char *out,
                               size_t len);

/* The cause on ci's last line for the exit code RC and the run's tally T
 * into BUF ("nothing regressed", "2 comparisons regressed vs reference
 * build", ...): 0, or -1 when RC has no such line (bad input: said on
 * stderr). */
int qqb_ci_cause(int rc, const struct qqb_run_tally *t, char *buf, size_t len);

#endif /* QQB_CI_GATE_H */
