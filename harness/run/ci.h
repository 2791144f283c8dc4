/* ci.h - qqbench ci: build a reference revision beside the working tree (and the change, the
 * same way) and run a suite against it: qqb_ci, its steps in run/ci.c, its decisions in
 * run/ci_gate.c, its commands run by run/ci_exec.c. */
#ifndef QQB_CI_H
#define QQB_CI_H

#include "pipeline.h"

/* What qqbench ci was asked (its option table and run's fill it). */
struct qqb_ci_opts {
    const char *base;  /* --base REV; NULL: the merge base with origin/main, else main */
    const char *build; /* --build CMD; NULL: the suite's build:, else the default CMake line */
    const char *sub;   /* --kernels-subdir SUB; NULL: none */
    const char *suite; /* SUITE.yaml */
    int keep, njobs, allow_same, with_baseline;
    struct qqb_run_opts ro; /* the run's options; ro.suite_path is the suite */
};

/* O's defaults: --jobs the processors online (2 when unknown), run's
 * defaults. */
void qqb_ci_opts_init(struct qqb_ci_opts *o);
void qqb_ci_opts_free(struct qqb_ci_opts *o);

/* Check O (the suite, both revisions, the kernels' place) before anything
 * is built, build both revisions, run the suite against the reference's
 * kernels. Exception to the return convention: the exit code (as qqbench
 * run's; 2 for bad usage, a bad suite or revision, a build that fails).
 * Ends the process by the signal that stopped ci, once cleaned up. */
int qqb_ci(struct qqb_ci_opts *o);

#endif /* QQB_CI_H */
