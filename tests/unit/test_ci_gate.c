/* test_ci_gate.c - qqbench ci's decisions (run/ci_gate.h), row by row: the stored-baseline
 * option that needs --with-baseline, paths normalised and below others, the change's build folder
 * from --kernels and --kernels-subdir, where the reference's kernels are, a CMakeCache line's
 * build type, where the build logs go, and the cause on ci's last line. */
#include <string.h>

#include "ci_gate.h"
#include "test.h"

static void test_baseline_option(void)
{
    struct qqb_run_opts o;
    memset(&o, 0, sizeof o);
    CHECK(qqb_ci_baseline_option(&o) == NULL);
    o.allow_other_flags = 1;
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--allow-other-flags");
    o.require_baseline = 1;
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--require-baseline");
    o.baseline_from = "m";
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--baseline-from");
    o.baselines_dir = "b";
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--baselines");
    o.record = "r";
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--record");
    o.memory_only = 1;
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--memory-only");
    o.update = 1; /* the first of the list, whatever else is given */
    CHECK_STR_EQ(qqb_ci_baseline_option(&o), "--update-baseline");
}

static void test_normalize(void)
{
    static const char *const rows[][3] = {
        /* path, cwd, result */
        {"build/kernels", "/w/p", "/w/p/build/kernels"},
        {"./build/../out/./k/", "/w/p", "/w/p/out/k"},
        {"/a//b/../c", "/ignored", "/a/c"},
        {"../../..", "/w/p", "/"},
        {".", "/", "/"},
        {"rel/x", NULL, "/rel/x"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char out[256];
        qqb_ci_normalize(rows[i][0], rows[i][1], out, sizeof out);
        CHECK_STR_EQ(out, rows[i][2]);
    }
}

static void test_below(void)
{
    CHECK_STR_EQ(qqb_ci_below("/w/build/kernels", "/w/build"), "kernels");
    CHECK_STR_EQ(qqb_ci_below("/w/build", "/w/build"), "");
    CHECK(qqb_ci_below("/w/build2/kernels", "/w/build") == NULL); /* a prefix, not a folder */
    CHECK(qqb_ci_below("/w", "/w/build") == NULL);
}

static void test_change_out(void)
{
    char out[64];
    CHECK_INT_EQ(qqb_ci_change_out("/w/out/kernels", "kernels", out, sizeof out), 0);
    CHECK_STR_EQ(out, "/w/out");
    CHECK_INT_EQ(qqb_ci_change_out("/w/out/a/b", "a/b//", out, sizeof out), 0);
    CHECK_STR_EQ(out, "/w/out");
    CHECK_INT_EQ(qqb_ci_change_out("/w/out/kernels", "bin", out, sizeof out), -1);
    CHECK_INT_EQ(qqb_ci_change_out("/w/outkernels", "kernels", out, sizeof out), -1);
    CHECK_INT_EQ(qqb_ci_change_out("/kernels", "kernels", out, sizeof out), -1);
    CHECK_INT_EQ(qqb_ci_change_out("/w/out/kernels", "kernels", out, 4), -1); /* too small */
}

static void test_kernels(void)
{
    static const struct {
        const char *build, *sub, *k;
        enum qqb_ci_where where;
        const char *out;
    } rows[] = {
        /* No --kernels: BUILD/kernels, the build {out}'s or the worktree's. */
        {NULL, NULL, NULL, QQB_CI_KERNELS_OK, "/t/build/kernels"},
        {"make", NULL, NULL, QQB_CI_KERNELS_OK, "/t/src/kernels"},
        {"make O={out}", NULL, NULL, QQB_CI_KERNELS_OK, "/t/build/kernels"},
        /* --kernels-subdir SUB wins over --kernels. */
        {"make", "bin", "/w/elsewhere", QQB_CI_KERNELS_OK, "/t/src/bin"},
        {NULL, "k", "/w/out/k", QQB_CI_KERNELS_OK, "/t/build/k"},
        /* --kernels below build/: the same place below the reference's. */
        {NULL, NULL, "/w/build/kernels/x", QQB_CI_KERNELS_OK, "/t/build/kernels/x"},
        {"cmake -B {out}", NULL, "/w/build/k", QQB_CI_KERNELS_OK, "/t/build/k"},
        {NULL, NULL, "/w/out/kernels", QQB_CI_KERNELS_NOT_BELOW, ""},
        {"cmake -B {out}", NULL, "/w/_build/k", QQB_CI_KERNELS_NOT_BELOW, ""},
        /* A CMD without {out}: the same place in the worktree. */
        {"make", NULL, "/w/bin/k", QQB_CI_KERNELS_OK, "/t/src/bin/k"},
        {"make", NULL, "/elsewhere/k", QQB_CI_KERNELS_OUTSIDE, ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char out[256] = "";
        enum qqb_ci_where w = qqb_ci_kernels(rows[i].build, rows[i].sub, rows[i].k, "/w/build",
                                             "/w", "/t/src", "/t/build", out, sizeof out);
        CHECK_INT_EQ(w, rows[i].where);
        if (w == QQB_CI_KERNELS_OK)
            CHECK_STR_EQ(out, rows[i].out);
    }
}

static void test_build_type(void)
{
    static const struct {
        const char *line;
        int at_start, rc;
        const char *btype;
    } rows[] = {
        {"CMAKE_BUILD_TYPE:STRING=Release\n", 1, 1, "Release"},
        {"CMAKE_BUILD_TYPE:STRING=\n", 1, 1, ""},
        {"CMAKE_BUILD_TYPE:STRING=Rel With\n", 1, 0, "was"}, /* not plain: the default */
        {"CMAKE_BUILD_TYPE:STRING=$(rm)\r\n", 1, 0, "was"},  /* hostile */
        {"CMAKE_BUILD_TYPE:STRING=Release\n", 0, -1, "was"}, /* a piece of a longer line */
        {"CMAKE_BUILD_TYPE:STRING\n", 1, -1, "was"},         /* no '=' */
        {"CMAKE_C_FLAGS:STRING=-O2\n", 1, -1, "was"},
        {"CMAKE_BUILD_TYPE:STRING=ABCDEFGHIJKLMNOP\n", 1, 0, "was"}, /* longer than BTYPE */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char btype[16] = "was";
        CHECK_INT_EQ(qqb_ci_build_type_line(rows[i].line, rows[i].at_start, btype, sizeof btype),
                     rows[i].rc);
        CHECK_STR_EQ(btype, rows[i].btype);
    }
}

static void test_logdir(void)
{
    static const struct {
        const char *json, *report;
        int no_report;
        enum qqb_ci_logs where;
        const char *out;
    } rows[] = {
        {"out/r.json", NULL, 0, QQB_CI_LOGS_JSON, "out"},
        {"out/r.json", "rep", 1, QQB_CI_LOGS_JSON, "out"}, /* --json's folder first */
        {"/r.json", NULL, 0, QQB_CI_LOGS_JSON, "/"},
        {"r.json", NULL, 0, QQB_CI_LOGS_JSON, "."},
        {NULL, "rep/x", 0, QQB_CI_LOGS_REPORT, "rep/x"},
        {NULL, "rep/x", 1, QQB_CI_LOGS_TEMP, ""},
        {NULL, NULL, 1, QQB_CI_LOGS_TEMP, ""},
        {NULL, NULL, 0, QQB_CI_LOGS_DEFAULT, ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char out[64] = "";
        CHECK_INT_EQ(
            qqb_ci_logdir(rows[i].json, rows[i].report, rows[i].no_report, out, sizeof out),
            rows[i].where);
        CHECK_STR_EQ(out, rows[i].out);
    }
}

static void test_cause(void)
{
    struct qqb_run_tally t;
    memset(&t, 0, sizeof t);
    char buf[160];
    CHECK_INT_EQ(qqb_ci_cause(QQB_EXIT_OK, &t, buf, sizeof buf), 0);
    CHECK_STR_EQ(buf, "nothing regressed");
    CHECK_INT_EQ(qqb_ci_cause(QQB_EXIT_USAGE, &t, buf, sizeof buf), -1);
    t.kernel_failures = 1;
    CHECK_INT_EQ(qqb_ci_cause(QQB_EXIT_KERNEL, &t, buf, sizeof buf), 0);
    CHECK_STR_EQ(buf, "1 kernel failure");
    t.kernel_failures = 2;
    qqb_ci_cause(QQB_EXIT_KERNEL, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "2 kernel failures");
    /* A regression: the reference's comparisons, then memory, then the
     * verdicts on counts, then the stored baseline, else the comparison
     * the table shows. */
    qqb_ci_cause(QQB_EXIT_REGRESSION, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "a failing comparison (see above)");
    t.base_regressed = 1;
    qqb_ci_cause(QQB_EXIT_REGRESSION, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "regressed vs the stored baseline (--with-baseline)");
    t.counts_regressed = 2;
    qqb_ci_cause(QQB_EXIT_REGRESSION, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "2 counts regressed (calls or instructions: the Counts table)");
    t.mem_regressed = 1;
    qqb_ci_cause(QQB_EXIT_REGRESSION, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "memory regressed vs reference build");
    t.regressed = 1;
    qqb_ci_cause(QQB_EXIT_REGRESSION, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "1 comparison regressed vs reference build");
    t.regressed = 3;
    qqb_ci_cause(QQB_EXIT_REGRESSION, &t, buf, sizeof buf);
    CHECK_STR_EQ(buf, "3 comparisons regressed vs reference build");
}

int main(void)
{
    test_baseline_option();
    test_normalize();
    test_below();
    test_change_out();
    test_kernels();
    test_build_type();
    test_logdir();
    test_cause();
    return TEST_DONE();
}
