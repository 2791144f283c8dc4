/* builds.h - the kernels' builds in qqbench run (docs/BASELINES.md, "The kernels' builds"):
 * read once per kernel before anything is launched, compared between the change and the
 * reference build (--against: a warning) and with the stored baseline (a refusal unless
 * --allow-other-flags), and stored with the run. */
#ifndef QQB_BUILDS_H
#define QQB_BUILDS_H

#include <stddef.h>
#include <stdio.h>

#include "plan.h"
#include "results.h"
#include "strbuf.h"

/* One build per plan case (case I of the plan: B[I]). */
struct qqb_run_builds {
    struct qqb_kbuild *b;
    size_t n;
};

/* Read the build of every plan case's kernel, each file once. 0, or -1 with
 * ERR (out of memory). */
int qqb_run_builds_read(const struct qqb_plan *p, struct qqb_run_builds *rb, char *err,
                        size_t errlen);

/* One warning line on OUT per kernel whose change build and reference
 * build (--against) were built differently (qqb_kbuild_differs), naming
 * what differs. Returns the number of lines. */
size_t qqb_run_builds_warn_against(const struct qqb_plan *p, const struct qqb_run_builds *rb,
                                   FILE *out);

/* The change build's kernels that BASE's cases (by case name) say were
 * built differently: "kernel 'k' (-O0 here, -O2 in the baseline)" per
 * kernel, "; "-separated, into WHAT. Returns how many kernels differ. */
size_t qqb_run_builds_versus(const struct qqb_plan *p, const struct qqb_run_builds *rb,
                             const struct qqb_results *base, struct qqb_strbuf *what);

/* Copy each case's build into CUR (case I of CUR is case I of the plan).
 * 0 or -1 on out of memory. */
int qqb_run_builds_attach(const struct qqb_run_builds *rb, struct qqb_results *cur);

void qqb_run_builds_free(struct qqb_run_builds *rb);

#endif /* QQB_BUILDS_H */
