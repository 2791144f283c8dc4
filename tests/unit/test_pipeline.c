/* test_pipeline.c - the decisions of qqbench run (run/gate.h), each alone: which baseline
 * applies, how the launches run, CI and what is gated with the notes' text, the exit-code
 * ladder row by row, and what a run stores. */
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "gate.h"
#include "pipeline.h"
#include "test.h"
/* after test.h: the fixture uses its checks */
#include "judge_fixture.h"

static struct qqb_fingerprint machine(const char *id)
{
    struct qqb_fingerprint fp;
    memset(&fp, 0, sizeof fp);
    snprintf(fp.id, sizeof fp.id, "%s", id);
    snprintf(fp.cpu, sizeof fp.cpu, "a cpu");
    return fp;
}

/* ---------------------------------------------------------------------
 * Which baseline applies.
 * --------------------------------------------------------------------- */

static void test_paths_own(void)
{
    struct qqb_fingerprint fp = machine("x86_64-2cpu-1a2b3c4d");
    struct qqb_run_paths p;
    char err[256] = "";
    CHECK_INT_EQ(qqb_run_paths("bl", "suite", &fp, NULL, NULL, &p, err, sizeof err), 0);
    CHECK_STR_EQ(p.bpath, "bl/x86_64-2cpu-1a2b3c4d/suite.yaml");
    CHECK_STR_EQ(p.own, p.bpath);
    CHECK_STR_EQ(p.mpath, "bl/suite.memory.yaml");
    CHECK_STR_EQ(p.hpath, "");
    CHECK_STR_EQ(p.from.id, fp.id);
    CHECK_STR_EQ(p.from.cpu, "a cpu");
    /* The memory fingerprint: every machine's. */
    CHECK_STR_EQ(p.memfp.id, QQB_MEMORY_ID);
    CHECK_STR_EQ(p.memfp.id, "any-machine");
    CHECK_STR_EQ(p.memfp.cpu, "any machine");
}

static void test_paths_from_and_record(void)
{
    struct qqb_fingerprint fp = machine("this-1");
    struct qqb_run_paths p;
    char err[256] = "";
    /* --baseline-from chooses what is compared; what is written stays this machine's. */
    CHECK_INT_EQ(qqb_run_paths("bl", "s", &fp, "other-2", "v1.0", &p, err, sizeof err), 0);
    CHECK_STR_EQ(p.bpath, "bl/other-2/s.yaml");
    CHECK_STR_EQ(p.own, "bl/this-1/s.yaml");
    CHECK_STR_EQ(p.hpath, "bl/this-1/history/s@v1.0.yaml");
    CHECK_STR_EQ(p.from.id, "other-2");
    CHECK_STR_EQ(p.from.cpu, "a cpu");
    CHECK_STR_EQ(p.memfp.id, "any-machine");
    /* A --baseline-from longer than an id is cut to the id's size. */
    char longid[80];
    memset(longid, 'k', sizeof longid - 1);
    longid[sizeof longid - 1] = '\0';
    CHECK_INT_EQ(qqb_run_paths("bl", "s", &fp, longid, NULL, &p, err, sizeof err), 0);
    CHECK(strlen(p.from.id) == sizeof p.from.id - 1);
}

static void test_paths_refused(void)
{
    struct qqb_fingerprint fp = machine("this-1");
    struct qqb_run_paths p;
    char err[256] = "";
    CHECK_INT_EQ(qqb_run_paths("bl", "s", &fp, "a/b", NULL, &p, err, sizeof err), -1);
    CHECK_STR_EQ(err, "cannot make a baseline path for suite 's' (machine 'a/b')");
    CHECK_INT_EQ(qqb_run_paths("bl", "s", &fp, "..", "lbl", &p, err, sizeof err), -1);
    CHECK_STR_EQ(err, "cannot make a baseline path for suite 's' (machine '..', label lbl)");
    /* A label longer than 128 bytes makes no snapshot path. */
    char label[200];
    memset(label, 'x', sizeof label - 1);
    label[sizeof label - 1] = '\0';
    CHECK_INT_EQ(qqb_run_paths("bl", "s", &fp, NULL, label, &p, err, sizeof err), -1);
    CHECK(strstr(err, "(machine 'this-1', label xxx") != NULL);
    /* A folder too long for the paths. */
    char *dir = malloc(5000);
    memset(dir, 'd', 4999);
    dir[4999] = '\0';
    CHECK_INT_EQ(qqb_run_paths(dir, "s", &fp, NULL, NULL, &p, err, sizeof err), -1);
    free(dir);
}

static void test_other_machine(void)
{
    /* --baseline-from names it; else the baseline's machine when it is another. */
    CHECK_STR_EQ(qqb_run_other_machine("m2", 1, "m3", "m1"), "m2");
    CHECK_STR_EQ(qqb_run_other_machine("m2", 0, "", "m1"), "m2");
    CHECK_STR_EQ(qqb_run_other_machine(NULL, 1, "m3", "m1"), "m3");
    CHECK(qqb_run_other_machine(NULL, 1, "m1", "m1") == NULL);
    CHECK(qqb_run_other_machine(NULL, 0, "m3", "m1") == NULL);
}

/* ---------------------------------------------------------------------
 * How the launches run.
 * --------------------------------------------------------------------- */

static void test_launch_settings(void)
{
    CHECK_STR_EQ(qqb_run_work_parent("w", "/t"), "w");
    CHECK_STR_EQ(qqb_run_work_parent(NULL, "/t"), "/t");
    CHECK_STR_EQ(qqb_run_work_parent(NULL, ""), "/tmp");
    CHECK_STR_EQ(qqb_run_work_parent(NULL, NULL), "/tmp");

    struct qqb_run_opts o;
    qqb_run_opts_init(&o);
    CHECK_INT_EQ(o.confirm, 1);
    CHECK_INT_EQ(o.keep_runs, QQB_BASELINE_KEEP_RUNS);
    CHECK(o.suite_path == NULL && o.update == 0 && o.nonly == 0 && o.threshold_bound == 0);
    CHECK(qqb_run_seed(&o, 1000, 77) == ((1000ull * 0x9e3779b97f4a7c15ull) ^ 77ull));
    o.have_seed = 1;
    o.seed = 42;
    CHECK(qqb_run_seed(&o, 1000, 77) == 42);
    o.have_seed = 0;
    CHECK(qqb_run_seed(&o, 1000, 77) != qqb_run_seed(&o, 1000, 78));
    qqb_run_opts_free(&o);

    struct qqb_plan_group groups[] = {{0, 0, 2, 10, 1}, {1, 2, 2, 30, 1}, {2, 4, 1, 20, 1}};
    struct qqb_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.groups = groups;
    plan.ngroups = 3;
    CHECK_INT_EQ(qqb_plan_max_reps(&plan, 0, 0), 0);   /* off */
    CHECK_INT_EQ(qqb_plan_max_reps(&plan, 0, 50), 50); /* --max-repetitions */
    CHECK_INT_EQ(qqb_plan_max_reps(&plan, 1, 0), 240); /* against: 8x the largest */
    CHECK_INT_EQ(qqb_plan_max_reps(&plan, 1, 50), 50); /* the option wins */
}

/* The options are the plan's arguments: the suite stays as loaded, the
 * plan carries --threshold-bound, --run-figure, --passes, --max-repetitions
 * and --memory-only. */
static void test_plan_args(void)
{
    struct qqb_suite *s = fixture_suite("    repetitions: 6\n    warmup: 2\n"
                                        "    variants:\n      a: []\n      b: []\n");
    CHECK(s != NULL);
    if (!s)
        return;
    double bound = s->bench[0].s.threshold_bound;
    enum qqb_run_figure figure = s->run_figure;
    char err[512];
    struct qqb_plan p;
    struct qqb_plan_args a = {.run_figure = -1};
    /* No option: the suite itself, one pass, no growth. */
    CHECK_INT_EQ(qqb_plan_make_with(s, &a, &p, err, sizeof err), 0);
    CHECK(p.suite == s && p.view == NULL);
    CHECK_INT_EQ(p.passes, 1);
    CHECK_INT_EQ(p.max_reps, 0);
    CHECK_INT_EQ(p.groups[0].reps, 6);
    CHECK_INT_EQ(p.groups[0].warmup, 2);
    CHECK(p.launches == 2 * (6 + 2));
    qqb_plan_free(&p);
    /* Every option: in the plan (its view of the suite), not in the suite. */
    a.threshold_bound = bound + 7;
    a.run_figure = figure == QQB_FIGURE_MEASURED ? QQB_FIGURE_REFERENCE : QQB_FIGURE_MEASURED;
    a.passes = 3;
    a.max_reps = 40;
    CHECK_INT_EQ(qqb_plan_make_with(s, &a, &p, err, sizeof err), 0);
    CHECK(p.suite != s && p.suite == p.view);
    CHECK(p.suite->bench[0].s.threshold_bound == bound + 7);
    CHECK_INT_EQ((int)p.suite->run_figure, a.run_figure);
    CHECK_STR_EQ(p.suite->bench[0].name, "k");
    CHECK(s->bench[0].s.threshold_bound == bound && s->run_figure == figure);
    CHECK_INT_EQ(p.passes, 3);
    CHECK_INT_EQ(p.max_reps, 40);
    qqb_plan_free(&p);
    /* --memory-only: every case once, without warmup. */
    memset(&a, 0, sizeof a);
    a.run_figure = -1;
    a.once = 1;
    a.reps = 9;
    CHECK_INT_EQ(qqb_plan_make_with(s, &a, &p, err, sizeof err), 0);
    CHECK_INT_EQ(p.groups[0].reps, 1);
    CHECK_INT_EQ(p.groups[0].warmup, 0);
    CHECK(p.launches == 2);
    qqb_plan_free(&p);
    /* Against a reference build: 8x the largest group's repetitions by default. */
    memset(&a, 0, sizeof a);
    a.run_figure = -1;
    a.against = "/nonexistent-ref";
    CHECK_INT_EQ(qqb_plan_make_with(s, &a, &p, err, sizeof err), 0);
    CHECK_INT_EQ(p.max_reps, 48);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* ---------------------------------------------------------------------
 * What is gated.
 * --------------------------------------------------------------------- */

static void test_in_ci(void)
{
    /* A terminal and no $CI: not CI. */
    CHECK_INT_EQ(qqb_run_in_ci(NULL, 1), 0);
    CHECK_INT_EQ(qqb_run_in_ci("", 1), 0);
    CHECK_INT_EQ(qqb_run_in_ci("false", 1), 0);
    CHECK_INT_EQ(qqb_run_in_ci("0", 1), 0);
    /* $CI set to anything else. */
    CHECK_INT_EQ(qqb_run_in_ci("true", 1), 1);
    CHECK_INT_EQ(qqb_run_in_ci("1", 1), 1);
    CHECK_INT_EQ(qqb_run_in_ci("yes", 1), 1);
    CHECK_INT_EQ(qqb_run_in_ci("FALSE", 1), 1); /* only the exact words */
    CHECK_INT_EQ(qqb_run_in_ci("00", 1), 1);
    /* stdout no terminal: CI whatever $CI says. */
    CHECK_INT_EQ(qqb_run_in_ci(NULL, 0), 1);
    CHECK_INT_EQ(qqb_run_in_ci("false", 0), 1);
    CHECK_INT_EQ(qqb_run_in_ci("0", 0), 1);
}

static void test_gate(void)
{
    struct qqb_run_gate g;
    /* have_base, have_mem, against, require, update, in_ci */
    qqb_run_gate(1, 1, 0, 0, 0, 1, &g);
    CHECK(g.timing && g.memory && !g.ungated && !g.refused && !g.warn && !g.title_note);
    qqb_run_gate(1, 0, 0, 1, 0, 1, &g); /* the machine's baseline gates memory too */
    CHECK(g.timing && g.memory && !g.ungated && !g.refused && !g.warn && !g.title_note);
    qqb_run_gate(0, 0, 1, 1, 0, 1, &g); /* --against gates both */
    CHECK(g.timing && g.memory && !g.ungated && !g.refused && !g.warn);
    qqb_run_gate(0, 1, 0, 0, 0, 0, &g); /* memory only, not in CI */
    CHECK(!g.timing && g.memory && g.ungated && !g.refused && !g.warn && !g.title_note);
    qqb_run_gate(0, 1, 0, 0, 0, 1, &g); /* in CI: the warning */
    CHECK(g.ungated && !g.refused && g.warn);
    qqb_run_gate(0, 0, 0, 1, 0, 1, &g); /* nothing, --require-baseline */
    CHECK(!g.timing && !g.memory && g.ungated && g.refused && g.warn);
    CHECK_STR_EQ(g.title_note, "No baseline and --require-baseline: this run is an error "
                               "(exit 2) and records nothing.");
    /* --update-baseline: neither refused nor warned; the note stays. */
    qqb_run_gate(0, 0, 0, 1, 1, 1, &g);
    CHECK(g.ungated && !g.refused && !g.warn && g.title_note != NULL);
}

static void check_note(int have_base, int have_mem, const char *want)
{
    struct qqb_run_gate g;
    qqb_run_gate(have_base, have_mem, 0, 0, 0, 1, &g);
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    qqb_run_gate_note(&b, &g, "m-1", "bl/m-1/s.yaml", "bl/s.memory.yaml");
    CHECK_STR_EQ(qqb_strbuf_str_of(&b), want);
    qqb_strbuf_free(&b);
}

static void test_gate_notes(void)
{
    check_note(0, 0,
               "no baseline: nothing gated (no timing baseline for m-1 at bl/m-1/s.yaml, no "
               "memory baseline at bl/s.memory.yaml, no --against)");
    check_note(0, 1,
               "no timing baseline for this machine (m-1 at bl/m-1/s.yaml) and no --against: "
               "timing not gated; memory gated against bl/s.memory.yaml");
    check_note(1, 1, "");
    /* Timing gated, memory not: qqb_run_gate never says so (a timing
     * baseline gates memory too), but the note has the line, as before. */
    struct qqb_run_gate g = {1, 0, 1, 0, 0, NULL};
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    qqb_run_gate_note(&b, &g, "m-1", "bl/m-1/s.yaml", "bl/s.memory.yaml");
    CHECK_STR_EQ(qqb_strbuf_str_of(&b), "no memory baseline (bl/s.memory.yaml): memory not gated");
    qqb_strbuf_free(&b);

    /* Paths past the 1400 bytes the note once cut them to: whole. */
    char *path = malloc(3001), *want = malloc(7000);
    memset(path, 'p', 3000);
    path[3000] = '\0';
    snprintf(want, 7000,
             "no baseline: nothing gated (no timing baseline for m-1 at %s, no memory baseline "
             "at %s, no --against)",
             path, path);
    qqb_run_gate(0, 0, 0, 0, 0, 1, &g);
    qqb_run_gate_note(&b, &g, "m-1", path, path);
    CHECK(strlen(qqb_strbuf_str_of(&b)) > 6000);
    CHECK_STR_EQ(qqb_strbuf_str_of(&b), want);
    qqb_strbuf_free(&b);
    free(path);
    free(want);

    qqb_run_gate_warning(&b, "no memory baseline (x): memory not gated");
    CHECK_STR_EQ(qqb_strbuf_str_of(&b),
                 "qqbench: WARNING: no memory baseline (x): memory not gated.\n"
                 "qqbench: WARNING: this run checks less than it seems. Compare against a "
                 "reference build in the same job (qqbench ci, or run --against; docs/CI.md), "
                 "commit baselines (--update-baseline), or make this an error with "
                 "--require-baseline.\n");
    qqb_strbuf_free(&b);
}

/* ---------------------------------------------------------------------
 * The exit code.
 * --------------------------------------------------------------------- */

static void test_failed(void)
{
    struct qqb_judgement j;
    struct qqb_model_judgement mj;
    memset(&j, 0, sizeof j);
    memset(&mj, 0, sizeof mj);
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 0);
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 1, 0), 0);
    CHECK_INT_EQ(qqb_run_failed(&j, NULL, 1, 0), 0);
    size_t *fields[] = {&j.regressed,           &j.mem_regressed,    &j.build_regressed,
                        &j.build_mem_regressed, &j.counts_regressed, &mj.regressed};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        *fields[i] = 1;
        CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 1);
        *fields[i] = 0;
    }
    /* Noisy fails only with --fail-on-noisy; a regression fails either way. */
    j.noisy = 2;
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 0);
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 1, 0), 1);
    j.noisy = 0;
    j.build_noisy = 1;
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 0);
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 1, 0), 1);
    j.build_noisy = 0;
    /* Blind fails only with --fail-on-blind, or where its benchmark says
     * fail_on_blind: true; --fail-on-noisy does not make it fail. */
    j.blind = 2;
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 0);
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 1, 0), 0);
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 1), 1);
    j.blind_failing = 1;
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 1);
    j.blind = j.blind_failing = 0;
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 1, 1), 0);
    j.regressed = 1;
    CHECK_INT_EQ(qqb_run_failed(&j, &mj, 0, 0), 1);
}

/* One row of the exit-code ladder: the outcome's fields that decide it. */
struct exit_row {
    int stopped, store_rc;
    size_t kernel_failures, ndropped;
    int failed, refused, update;
    int json_failed, junit_failed, pictures, report_named;
    int want;
};

static void check_exit_rows(const struct exit_row *rows, size_t n, const char *table)
{
    for (size_t i = 0; i < n; i++) {
        struct qqb_run_outcome oc;
        memset(&oc, 0, sizeof oc);
        oc.stopped = rows[i].stopped;
        oc.store_rc = rows[i].store_rc;
        oc.kernel_failures = rows[i].kernel_failures;
        oc.ndropped = rows[i].ndropped;
        oc.failed = rows[i].failed;
        oc.refused = rows[i].refused;
        oc.update = rows[i].update;
        oc.json_failed = rows[i].json_failed;
        oc.junit_failed = rows[i].junit_failed;
        oc.pictures = rows[i].pictures;
        oc.report_named = rows[i].report_named;
        int got = qqb_run_exit_code(&oc);
        if (got != rows[i].want)
            TEST_FAIL_AT("%s row %zu: exit %d, expected %d", table, i, got, rows[i].want);
    }
}

static void test_exit_code(void)
{
    /* stopped, store_rc, kernel_failures, ndropped, failed, refused, update,
     * json_failed, junit_failed, pictures, report_named: want */
    static const struct exit_row rows[] = {
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_OK},
        /* Each row of the verdicts' ladder alone. */
        {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, QQB_EXIT_REGRESSION},
        {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        /* Each row beats every row below it: a kernel's failure dropped
         * events, those a regression, that a refusal. */
        {0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        {0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, QQB_EXIT_REGRESSION},
        /* --update-baseline accepts a failed run, not the rows above it. */
        {0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, QQB_EXIT_OK},
        {0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, QQB_EXIT_USAGE},
    };
    check_exit_rows(rows, sizeof rows / sizeof rows[0], "verdicts");
    /* From the verdicts: a regression fails the run whatever is noisy;
     * noisy alone fails it only with --fail-on-noisy. */
    struct qqb_judgement j;
    memset(&j, 0, sizeof j);
    struct qqb_run_outcome oc;
    memset(&oc, 0, sizeof oc);
    j.noisy = 3;
    oc.failed = qqb_run_failed(&j, NULL, 0, 0);
    CHECK_INT_EQ(qqb_run_exit_code(&oc), QQB_EXIT_OK);
    oc.failed = qqb_run_failed(&j, NULL, 1, 0);
    CHECK_INT_EQ(qqb_run_exit_code(&oc), QQB_EXIT_REGRESSION);
    /* Blind alone: 0, 1 with --fail-on-blind (like noisy with
     * --fail-on-noisy); --update-baseline accepts it. */
    j.noisy = 0;
    j.blind = 4;
    oc.failed = qqb_run_failed(&j, NULL, 0, 0);
    CHECK_INT_EQ(qqb_run_exit_code(&oc), QQB_EXIT_OK);
    oc.failed = qqb_run_failed(&j, NULL, 0, 1);
    CHECK_INT_EQ(qqb_run_exit_code(&oc), QQB_EXIT_REGRESSION);
    oc.update = 1;
    CHECK_INT_EQ(qqb_run_exit_code(&oc), QQB_EXIT_OK);
    oc.update = 0;
    j.regressed = 1;
    oc.failed = qqb_run_failed(&j, NULL, 0, 0);
    CHECK_INT_EQ(qqb_run_exit_code(&oc), QQB_EXIT_REGRESSION);
}

static void test_exit_code_outputs(void)
{
    static const struct exit_row rows[] = {
        {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, QQB_EXIT_REGRESSION},
        /* A --json or --junit file not written is 2, over any verdict. */
        {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, QQB_EXIT_USAGE},
        {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, QQB_EXIT_USAGE},
        {0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, QQB_EXIT_USAGE},
        /* The default folder's failure is a warning only. */
        {0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, QQB_EXIT_OK},
        {0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 0, QQB_EXIT_OK},
        /* --report DIR: not made 2, not drawn 3; never over a verdict. */
        {0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 1, QQB_EXIT_USAGE},
        {0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 1, QQB_EXIT_KERNEL},
        {0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 1, QQB_EXIT_REGRESSION},
        {0, 0, 0, 0, 0, 0, 0, 1, 0, -1, 1, QQB_EXIT_USAGE},
        /* --update-baseline's 0 is a 0 the folder's failure may replace. */
        {0, 0, 0, 0, 1, 0, 1, 0, 0, -1, 1, QQB_EXIT_KERNEL},
    };
    check_exit_rows(rows, sizeof rows / sizeof rows[0], "outputs");
}

static void test_exit_code_stopped_and_store(void)
{
    static const struct exit_row rows[] = {
        /* A step that stopped the run: its code, whatever else was filled
         * (a store step out of memory after a failed write included). */
        {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {2, -2, 0, 0, 1, 0, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        /* A store write refused by the file system: 3; by its writer: 2. */
        {0, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        /* ... over a regression, a refusal, --update-baseline's 0 and the
         * outputs (a failed store is the last thing the run says). */
        {0, -2, 0, 0, 1, 0, 0, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 0, QQB_EXIT_USAGE},
        {0, -2, 0, 0, 0, 1, 0, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, -2, 0, 0, 1, 0, 1, 0, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, -2, 0, 0, 0, 0, 0, 1, 0, 0, 0, QQB_EXIT_KERNEL},
        {0, -1, 0, 0, 0, 0, 0, 0, 0, -1, 1, QQB_EXIT_USAGE},
    };
    check_exit_rows(rows, sizeof rows / sizeof rows[0], "stopped/store");
}

/* ---------------------------------------------------------------------
 * What is stored.
 * --------------------------------------------------------------------- */

static void check_store(const struct qqb_run_outcome *oc, int baseline, int memory, int snapshot,
                        int accepted, const char *held, int line)
{
    struct qqb_run_store s;
    qqb_run_store_plan(oc, &s);
    if (s.baseline != baseline || s.memory != memory || s.snapshot != snapshot ||
        s.accepted != accepted || (held ? !s.held || strcmp(s.held, held) : s.held != NULL)) {
        fprintf(stderr,
                "%s:%d: FAIL: store plan: baseline %d memory %d snapshot %d accepted %d "
                "held %s\n",
                __FILE__, line, s.baseline, s.memory, s.snapshot, s.accepted,
                s.held ? s.held : "(none)");
        test__failures++;
    }
}
#define CHECK_STORE(oc, b, m, s, a, h) check_store(oc, b, m, s, a, h, __LINE__)

static void test_store(void)
{
    struct qqb_run_outcome oc;
    /* A first run, no baseline of either kind: it records both. */
    memset(&oc, 0, sizeof oc);
    CHECK_STORE(&oc, 1, 1, 0, 0, NULL);
    /* A later run, both baselines there, nothing regressed: nothing stored. */
    oc.have_base = oc.have_mem = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    /* The memory baseline missing: it alone is recorded. */
    oc.have_mem = 0;
    CHECK_STORE(&oc, 0, 1, 0, 0, NULL);
    /* ... unless the run regressed. */
    oc.failed = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    /* A run with regressions and both baselines: nothing. */
    oc.have_mem = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    /* A first run that regressed (against a reference build): no timing
     * baseline either, and said why. */
    oc.have_base = oc.have_mem = 0;
    CHECK_STORE(&oc, 0, 0, 0, 0, "a regression (--update-baseline accepts it)");
    /* --update-baseline: both, and a failed run is said accepted. */
    memset(&oc, 0, sizeof oc);
    oc.update = oc.have_base = oc.have_mem = 1;
    CHECK_STORE(&oc, 1, 1, 0, 0, NULL);
    oc.failed = 1;
    CHECK_STORE(&oc, 1, 1, 0, 1, NULL);
    /* --record: the snapshot, beside whatever else. */
    memset(&oc, 0, sizeof oc);
    oc.record = oc.have_base = oc.have_mem = 1;
    CHECK_STORE(&oc, 0, 0, 1, 0, NULL);
    oc.failed = 1;
    CHECK_STORE(&oc, 0, 0, 1, 0, NULL);
    oc.have_base = oc.have_mem = oc.failed = 0;
    CHECK_STORE(&oc, 1, 1, 1, 0, NULL);
    /* --baseline-from: never writes a baseline, nor a missing memory one. */
    memset(&oc, 0, sizeof oc);
    oc.baseline_from = 1;
    oc.have_base = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    oc.update = 1; /* --update-baseline writes this machine's own */
    CHECK_STORE(&oc, 1, 1, 0, 0, NULL);
    /* --require-baseline refused: no baseline, no memory baseline; a
     * --record snapshot still is written. */
    memset(&oc, 0, sizeof oc);
    oc.refused = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    oc.record = 1;
    CHECK_STORE(&oc, 0, 0, 1, 0, NULL);
}

static void test_store_memory_only_and_ci(void)
{
    struct qqb_run_outcome oc;
    /* --memory-only: the memory baseline alone, never a timing baseline,
     * a snapshot or "accepted"; a failed kernel still spoils it. */
    memset(&oc, 0, sizeof oc);
    oc.memory_only = oc.update = oc.failed = oc.record = 1;
    CHECK_STORE(&oc, 0, 1, 0, 0, NULL);
    oc.kernel_failures = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, "a kernel failed");
    /* ci (QQB_STORED_NONE): nothing, and nothing said. */
    memset(&oc, 0, sizeof oc);
    oc.stored = QQB_STORED_NONE;
    oc.update = oc.record = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    oc.kernel_failures = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    /* ci --with-baseline (QQB_STORED_ASKED): no first baseline nor
     * memory baseline unasked; --record's snapshot; --update-baseline all. */
    memset(&oc, 0, sizeof oc);
    oc.stored = QQB_STORED_ASKED;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    oc.failed = 1; /* the held regression is not said: none was due */
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    oc.record = 1;
    CHECK_STORE(&oc, 0, 0, 1, 0, "a regression (--update-baseline accepts it)");
    oc.record = 0;
    oc.update = 1;
    CHECK_STORE(&oc, 1, 1, 0, 1, NULL);
}

static void test_store_spoiled(void)
{
    struct qqb_run_outcome oc;
    /* A kernel failed: nothing at all, and said when a baseline was due
     * (a first run, --update-baseline, --record). */
    memset(&oc, 0, sizeof oc);
    oc.kernel_failures = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, "a kernel failed");
    oc.have_base = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, NULL);
    oc.update = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, "a kernel failed");
    oc.update = 0;
    oc.record = 1;
    CHECK_STORE(&oc, 0, 0, 0, 0, "a kernel failed");
    /* Dropped events: no baseline; as today, the memory baseline and a
     * snapshot still are. */
    memset(&oc, 0, sizeof oc);
    oc.ndropped = 1;
    CHECK_STORE(&oc, 0, 1, 0, 0, "events were dropped");
    oc.record = 1;
    oc.have_base = oc.have_mem = 1;
    CHECK_STORE(&oc, 0, 0, 1, 0, "events were dropped");
}

int main(void)
{
    RUN(test_paths_own);
    RUN(test_paths_from_and_record);
    RUN(test_paths_refused);
    RUN(test_other_machine);
    RUN(test_launch_settings);
    RUN(test_plan_args);
    RUN(test_in_ci);
    RUN(test_gate);
    RUN(test_gate_notes);
    RUN(test_failed);
    RUN(test_exit_code);
    RUN(test_exit_code_outputs);
    RUN(test_exit_code_stopped_and_store);
    RUN(test_store);
    RUN(test_store_memory_only_and_ci);
    RUN(test_store_spoiled);
    return TEST_DONE();
}
