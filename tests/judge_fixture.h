/* judge_fixture.h - the judge tests' suite and results, made without launching anything: one
 * benchmark k whose kernel is /bin/true, and results sized from its plan. Header-only: each test
 * is one executable. */
#ifndef QQB_TEST_JUDGE_FIXTURE_H
#define QQB_TEST_JUDGE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "results.h"
#include "suite.h"
#include "test.h"

/* A suite of one benchmark k; BODY is the rest of the benchmark's mapping
 * (variants, threshold, repetitions ...). NULL where it does not load (the
 * reason on stderr). */
static inline struct qqb_suite *fixture_suite(const char *body)
{
    static int serial;
    char path[64], err[512];
    snprintf(path, sizeof path, "judge-%ld-%d.yaml", (long)getpid(), serial++);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f, "suite: j\nbenchmarks:\n  - name: k\n    kernel: /bin/true\n%s", body);
    fclose(f);
    struct qqb_suite *s = NULL;
    if (qqb_suite_load(path, NULL, &s, err, sizeof err) != 0)
        fprintf(stderr, "%s\n", err);
    unlink(path);
    return s;
}

/* Results sized from PLAN, each case of benchmark k on one node at MHZ. */
static inline void fixture_results(const struct qqb_plan *p, struct qqb_results *r, double mhz)
{
    memset(r, 0, sizeof *r);
    const char **names = qqb_plan_names(p);
    CHECK_INT_EQ(qqb_results_init(r, names, p->ncases), 0);
    free(names);
    for (size_t i = 0; i < p->ncases; i++) {
        r->cases[i]->bench = strdup("k");
        r->cases[i]->nodes = 1;
        r->cases[i]->mhz = mhz;
    }
}

#endif
