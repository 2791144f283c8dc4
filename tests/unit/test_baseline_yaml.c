/* test_baseline_yaml.c - store/baseline_yaml.c, a baseline's text before it is written: what the
 * reader would refuse is refused first, with one line naming the file and the case, metric and
 * sample (no suite, a suite or machine id that is not a plain name, a case without its name or
 * benchmark, no nodes, a sample that is not finite, a memory row without its key); results that
 * pass become YAML naming every case, key and sample, and a name that is not UTF-8 is refused
 * there. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_int.h"
#include "test.h"

#define P "bl/m1/s.yaml"

/* Results of suite "s" on machine m1: case "k@1" of bench k, key 'work' with 2 samples. */
static void make(struct qqb_results *r)
{
    const char *names[] = {"k@1"};
    memset(r, 0, sizeof *r);
    CHECK_INT_EQ(qqb_results_init(r, names, 1), 0);
    r->suite = strdup("s");
    r->date = strdup("2026-11-29T12:00:00Z");
    snprintf(r->fp.id, sizeof r->fp.id, "m1");
    r->fp.mhz = 2450;
    r->cases[0]->bench = strdup("k");
    r->cases[0]->nodes = 1;
    r->cases[0]->mhz = 2450;
    struct qqb_metric *m = qqb_case_metric(r->cases[0], "work", "ticks");
    CHECK(m && qqb_metric_add(m, 1250) == 0 && qqb_metric_add(m, 1300.5) == 0);
}

static void test_check(void)
{
    struct qqb_results r;
    char err[512];
    make(&r);
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), 0);

    char *keep = r.suite;
    r.suite = NULL;
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), -1);
    CHECK_STR_EQ(err, P ": error: cannot write a baseline: no suite name");
    r.suite = "../s";
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), -1);
    CHECK_STR_EQ(err, P ": error: cannot write a baseline: invalid suite name");
    r.suite = keep;

    snprintf(r.fp.id, sizeof r.fp.id, "../x");
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), -1);
    CHECK_STR_EQ(err, P ": error: cannot write a baseline: invalid fingerprint id '../x'");
    snprintf(r.fp.id, sizeof r.fp.id, "m1");

    char *bench = r.cases[0]->bench;
    r.cases[0]->bench = NULL;
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), -1);
    CHECK_STR_EQ(err, P ": error: cannot write a baseline: case 1 has no benchmark name");
    r.cases[0]->bench = bench;

    r.cases[0]->nodes = 0;
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), -1);
    CHECK_STR_EQ(err, P ": error: cannot write a baseline: case 'k@1' has 0 nodes");
    r.cases[0]->nodes = 1;

    struct qqb_metric *m = qqb_case_metric(r.cases[0], "work", "ticks");
    if (m && m->n == 2) {
        m->samples[1] = NAN;
        CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), -1);
        CHECK_STR_EQ(err, P ": error: cannot write a baseline: case 'k@1', metric 'work' (ticks): "
                            "sample 2 is not a finite number");
        m->samples[1] = 1300.5;
    }
    CHECK_INT_EQ(qqb__bl_check_results(P, &r, err, sizeof err), 0);
    qqb_results_free(&r);
}

static void test_text(void)
{
    struct qqb_results r;
    char err[512] = "", *text = NULL;
    size_t len = 0;
    make(&r);
    CHECK_INT_EQ(qqb__bl_text(P, &r, &text, &len, err, sizeof err), 0);
    CHECK(text && len == strlen(text));
    if (text) {
        CHECK_STR_CONTAINS(text, "suite: s\n");
        CHECK_STR_CONTAINS(text, "k@1");
        CHECK_STR_CONTAINS(text, "work");
        CHECK_STR_CONTAINS(text, "1250");
        CHECK_STR_CONTAINS(text, "1300.5");
        CHECK_STR_CONTAINS(text, "2026-11-29T12:00:00Z");
    }
    free(text);
    /* A key that is not UTF-8: refused, naming the file, nothing returned. */
    struct qqb_metric *m = qqb_case_metric(r.cases[0], "w\xff", "ticks");
    CHECK(m && qqb_metric_add(m, 1) == 0);
    text = (char *)1;
    CHECK_INT_EQ(qqb__bl_text(P, &r, &text, &len, err, sizeof err), -1);
    CHECK(text == NULL);
    CHECK_STR_CONTAINS(err, P ": error: ");
    qqb_results_free(&r);
}

int main(void)
{
    RUN(test_check);
    RUN(test_text);
    return TEST_DONE();
}
