/* test_run_json.c - the run JSON, byte for byte: a crafted run written by qqb_report_json
 * must equal tests/data/run_json/golden.json (written by the code before the schema moved to
 * run_json.c). QQB_GOLDEN_UPDATE=1 rewrites the golden file instead of comparing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "run_json.h"
#include "test.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
    }
    fclose(fp);
    *len = n;
    return buf;
}

/* TEXT (LEN bytes; NULL fails) is the file at PATH, byte for byte. */
static void same_as_file(const char *text, size_t len, const char *path)
{
    size_t lg = 0;
    char *g = slurp(path, &lg);
    CHECK(text != NULL);
    CHECK(g != NULL);
    if (text && g) {
        CHECK_INT_EQ(len, lg);
        CHECK(memcmp(text, g, len < lg ? len : lg) == 0);
    }
    free(g);
}

/* The file WRITTEN is the file GOLDEN, byte for byte. */
static void same_files(const char *written, const char *golden)
{
    size_t lw = 0;
    char *w = slurp(written, &lw);
    same_as_file(w, lw, golden);
    free(w);
}

static void add(struct qqb_case_result *c, const char *key, const char *what, const double *v,
                size_t n)
{
    struct qqb_metric *m = qqb_case_metric(c, key, what);
    CHECK(m != NULL);
    for (size_t i = 0; m && i < n; i++)
        CHECK(qqb_metric_add(m, v[i]) == 0);
}

/* The terminal's report and the JUnit file of R equal golden.txt and
 * golden.junit.xml. */
static void same_text(const struct qqb_report *r, const char *data)
{
    char path[4096], err[512];
    FILE *fp = fopen("written.txt", "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    qqb_report_print(fp, r);
    fclose(fp);
    CHECK(qqb_report_junit("written.junit.xml", r, err, sizeof err) == 0);
    static const char *const names[2][2] = {{"written.txt", "golden.txt"},
                                            {"written.junit.xml", "golden.junit.xml"}};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/run_json/%s", data, names[i][1]);
        same_files(names[i][0], path);
    }
}

/* Three cases (a benchmark with two variants on two node counts, one that
 * failed), every comparison kind, a memory change, missing numbers. */
static void craft(struct qqb_results *res, struct qqb_judgement *j)
{
    static const char *const names[] = {"chain[direct]@1", "chain[pow]@2", "broken"};
    CHECK(qqb_results_init(res, names, 3) == 0);
    res->suite = strdup("golden");
    res->date = strdup("2026-01-02T03:04:05Z");
    res->version = strdup("9.9.9");
    res->commit = NULL;
    snprintf(res->fp.cpu, sizeof res->fp.cpu, "Crafted CPU @ 2.10GHz");
    res->fp.mhz = 2100.0;
    res->fp.invariant = 1;
    res->fp.cores = 8;
    snprintf(res->fp.compiler, sizeof res->fp.compiler, "GNU 12.2.0");
    snprintf(res->fp.flags, sizeof res->fp.flags, "RelWithDebInfo");
    snprintf(res->fp.id, sizeof res->fp.id, "x86_64-8cpu-0badf00d");

    struct qqb_case_result *a = res->cases[0], *b = res->cases[1], *f = res->cases[2];
    a->bench = strdup("chain");
    a->variant = strdup("direct");
    a->point = strdup("ops=40");
    a->nodes = 1;
    a->mhz = 2100.0;
    a->launches = 5;
    static const double pa[] = {2703.25, 2710.5, 2699.0, 2701.125, 2800.0};
    static const double ha[] = {40, 40, 40, 40, 40};
    add(a, "step", "per_hit", pa, 5);
    add(a, "step", "hits", ha, 5);
    add(a, "@machine", "reference", (const double[]){1.0e6, 1.01e6, 0.99e6}, 3);
    a->command = calloc(3, sizeof *a->command);
    a->command[0] = strdup("chain");
    a->command[1] = strdup("--ops=40");
    /* The kernel's build (store/kbuild.h); case b says none. */
    a->build.id = strdup("741fd3d846a8416731f802ddb0714d586e2ec98d");
    a->build.compiler = calloc(2, sizeof *a->build.compiler);
    a->build.compiler[0] = strdup("GCC: (Debian 12.2.0-14) 12.2.0");
    a->build.producer = calloc(3, sizeof *a->build.producer);
    a->build.producer[0] = strdup("GNU C11 12.2.0 -mtune=generic -march=x86-64 -g -O2 -fPIC");
    a->build.producer[1] = strdup("GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O0");
    a->mem = calloc(1, sizeof *a->mem);
    a->nmem = 1;
    a->mem[0] = (struct qqb_mem){strdup("Node"), 48, 100, 90, 480, 4096, 1u << 20, 0};

    b->bench = strdup("chain");
    b->variant = strdup("pow");
    b->point = NULL;
    b->nodes = 2;
    b->mhz = 2100.0;
    b->launches = 4;
    static const double pb[] = {1351.0, 1349.5, NAN, 1360.75};
    add(b, "step", "per_hit", pb, 4);
    add(b, "step", "imbalance", (const double[]){1.02, 1.05, 1.01, 1.03}, 4);
    /* A threaded case: per-thread rows (docs/THREADS.md), written only for
     * it (the other cases have none and no "threads" field). */
    for (uint32_t th = 0; th < 2; th++) {
        struct qqb_thread_row *t = qqb_case_thread(b, 1, th);
        CHECK(t != NULL && qqb_case_thread(b, 1, th) == t);
        t->name = strdup(th ? "worker-1" : "main");
        t->tid = 4242 + th;
        t->events = 80;
        t->dropped = th;
        struct qqb_metric *m = qqb_thread_metric(t, "step", "per_hit");
        CHECK(m != NULL && qqb_thread_metric(t, "step", "per_hit") == m);
        for (int i = 0; m && i < 4; i++)
            CHECK(qqb_metric_add(m, 1350.0 + th + i) == 0);
    }

    f->bench = strdup("broken");
    f->nodes = 1;
    f->mhz = NAN;
    f->launches = 0;
    f->failures = 2;
    f->failure = strdup("exit status 3 \"quoted\" <tag> & tab\there");

    j->ncmp = 3;
    j->cmp = calloc(3, sizeof *j->cmp);
    struct qqb_cmp *c = &j->cmp[0];
    c->case_idx = 0;
    c->case_name = a->name;
    c->key = "step";
    c->ab = QQB_CMP_BASELINE;
    c->base_median = 2600.0;
    c->cur_median = 2703.25;
    c->base_mhz = 2100.0;
    c->mhz = 2100.0;
    c->threshold = 2.5;
    c->threshold_from = QQB_THR_NOISE;
    c->noise_pct = 0.8125;
    c->noise_from = "baseline";
    c->base_runs = 3;
    c->run_pct = 0.5;
    c->run_bound_pct = 1.75;
    c->ch = (struct qqb_change){.status = QQB_CHANGE_OK,
                                .pct = 3.97,
                                .lo = 3.1,
                                .hi = 4.9,
                                .ci_ok = 1,
                                .confidence = 0.95,
                                .p_value = 0.001953125};
    c->verdict = QQB_REGRESSED;
    c->alone = QQB_REGRESSED;
    c->level = 0.975;
    c->holm_held = 1;
    c->p_value = 0.004;
    c->look = 2;
    c->looks = 8;
    c->count_base = 1000;
    c->count_cur = 1200;
    c->count_pct = 20;
    c->machine = QQB_MC_HELD;
    c->machine_pct = 0.25;
    c->norm_pct = 3.7;
    c->step = 1.0;
    c->noisy_runs = 0;

    c = &j->cmp[1];
    c->case_idx = 1;
    c->ref_idx = 0;
    c->case_name = b->name;
    c->key = "step";
    c->ref_name = a->name;
    c->ab = QQB_CMP_VARIANT;
    c->paired = 1;
    c->npairs = 3;
    c->rounds = 4;
    c->base_median = 2703.25;
    c->cur_median = 1351.0;
    c->base_mhz = 2100.0;
    c->mhz = 0; /* unknown: no nanoseconds */
    c->threshold = 5;
    c->threshold_from = QQB_THR_FIXED;
    c->noise_pct = NAN;
    c->noise_from = "current pairs";
    c->run_pct = NAN;
    c->run_bound_pct = NAN;
    c->ch = (struct qqb_change){.status = QQB_CHANGE_OK,
                                .pct = -50.02,
                                .lo = -51.5,
                                .hi = -48.0,
                                .ci_ok = 0,
                                .confidence = 0.95,
                                .p_value = NAN};
    c->verdict = QQB_IMPROVED;
    c->alone = QQB_IMPROVED;
    c->level = 0.95;
    c->holm_held = -1;
    c->p_value = 1;
    c->plan_launches = 24;
    c->count_base = c->count_cur = c->count_pct = NAN;
    c->machine = QQB_MC_SKIPPED;
    c->machine_why = "no reference loop";
    c->machine_pct = NAN;
    c->norm_pct = NAN;
    c->command_differs = 1;
    c->dropped = 12;
    c->below_step = 1;
    snprintf(c->why, sizeof c->why, "straddles +5%% by 0.4; about 12 launches would decide");
    c->noisy_runs = 3;

    c = &j->cmp[2];
    c->case_idx = 0;
    c->case_name = a->name;
    c->key = "step";
    c->ref_name = a->name;
    c->ab = QQB_CMP_BUILD;
    c->base_median = NAN;
    c->cur_median = 2703.25;
    c->base_mhz = 2100.0;
    c->mhz = 2100.0;
    c->threshold = 2;
    c->ch = (struct qqb_change){.status = QQB_CHANGE_TOO_FEW,
                                .pct = NAN,
                                .lo = NAN,
                                .hi = NAN,
                                .confidence = 0.95,
                                .p_value = NAN};
    c->verdict = QQB_NOISY;
    c->alone = QQB_NOISY;
    c->level = NAN;
    c->holm_held = 0;
    c->p_value = 0.2;
    c->need_launches = 40;
    c->need_runs = 7;
    c->count_base = c->count_cur = 500;
    c->count_pct = 0;
    c->machine_pct = NAN;
    c->norm_pct = NAN;
    c->run_pct = NAN;
    c->run_bound_pct = NAN;
    c->noise_pct = NAN;

    j->nmem = 1;
    j->mem = calloc(1, sizeof *j->mem);
    j->mem[0] = (struct qqb_memcmp){0,         a->name,
                                    "Node",    QQB_CMP_BASELINE,
                                    NULL,      {"Node", 48, 90, 90, 432, 4096, 1u << 19, 0},
                                    a->mem[0], +1,
                                    1};
    j->family = 1;
    j->family_alpha = 0.05;
}

/* PATH read by the one reader and written again by the one writer is the
 * same bytes (a JSON of a real run: `test_run_json FILE...`). */
static void round_trip(const char *path)
{
    char err[512];
    struct qqb_run run;
    CHECK(qqb_run_read(path, &run, err, sizeof err) == 0);
    char *again = qqb_run_dumps(&run);
    same_as_file(again, again ? strlen(again) : 0, path);
    free(again);
    qqb_run_free(&run);
}

/* A model's fit as run_json.c writes it ("models"), read back by the same
 * file: coefficients, points, a null spread as 0; a row without
 * coefficients of the model's size is refused. */
static void model_fit_round_trip(void)
{
    struct qqb_model m;
    char err[256];
    int col = 0;
    CHECK(qqb_model_parse("1 + n", &m, err, sizeof err, &col) == 0);
    struct qqb_fit f;
    memset(&f, 0, sizeof f);
    f.c[0] = 2, f.c[1] = 3;
    f.p = 2;
    double x[] = {1, 4}, y[] = {5.5, 13.25};
    struct qqb_model_points pts = {.n = 2, .x = x, .y = y};
    json_t *o = qqb_model_fit_json(&m, &f, &pts);
    json_t *row = json_pack("{s:s, s:s, s:O, s:n}", "formula", "1 + n", "series", "k", "current", o,
                            "baseline");
    const char *formula, *series;
    const json_t *cur, *base;
    qqb_run_model_row(row, &formula, &series, &cur, &base);
    CHECK_STR_EQ(formula, "1 + n");
    CHECK_STR_EQ(series, "k");
    CHECK(cur != NULL && base == NULL);
    struct qqb_fit back;
    struct qqb_run_fit_point p[4];
    size_t n = 9;
    CHECK_INT_EQ(qqb_run_model_fit_read(cur, &m, &back, p, 4, &n), 0);
    CHECK(n == 2 && back.p == 2 && back.c[0] == 2 && back.c[1] == 3);
    CHECK(p[1].x[0] == 4 && p[1].y == 13.25 && p[1].sigma == 0 && p[1].fit == 14);
    CHECK_INT_EQ(qqb_run_model_fit_read(cur, &m, &back, p, 1, &n), 0); /* the first MAX */
    CHECK(n == 1 && p[0].y == 5.5);
    json_object_set_new(o, "coefficients", json_pack("[f]", 1.0));
    CHECK_INT_EQ(qqb_run_model_fit_read(o, &m, &back, p, 4, &n), -1);
    CHECK(n == 0);
    json_decref(o);
    json_decref(row);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            round_trip(argv[i]);
        return TEST_DONE();
    }
    model_fit_round_trip();
    struct qqb_results res = {0};
    struct qqb_judgement j = {0};
    craft(&res, &j);
    CHECK(qqb_judgement_figures(&j, &res) == 0);
    struct qqb_report r = {.suite = "golden",
                           .baseline_path = "baselines/x86_64-8cpu-0badf00d/golden.yaml",
                           .baseline_other = 0,
                           .baseline_other_build = "kernel 'chain' (-O0 here, -O2 in the baseline)",
                           .against = "../ref-build",
                           .memory_baseline_path = NULL,
                           .no_baseline_summary = NULL,
                           .results = &res,
                           .j = &j,
                           .kernel_failures = 1,
                           .seed = 0xfedcba9876543210ull,
                           .elapsed = 12.5,
                           .exit_code = 1};
    const char *data = getenv("QQ_TEST_DATA");
    char golden[4096], err[512];
    snprintf(golden, sizeof golden, "%s/run_json/golden.json", data ? data : "tests/data");
    const char *update = getenv("QQB_GOLDEN_UPDATE");
    if (update && !strcmp(update, "1")) {
        CHECK(qqb_report_json(golden, &r, err, sizeof err) == 0);
        printf("wrote %s\n", golden);
        return TEST_DONE();
    }
    if (update && !strcmp(update, "text")) {
        /* The terminal's report and the JUnit file of the same run. */
        char path[4096];
        snprintf(path, sizeof path, "%s/run_json/golden.txt", data ? data : "tests/data");
        FILE *fp = fopen(path, "w");
        CHECK(fp != NULL);
        if (fp) {
            qqb_report_print(fp, &r);
            fclose(fp);
        }
        snprintf(path, sizeof path, "%s/run_json/golden.junit.xml", data ? data : "tests/data");
        CHECK(qqb_report_junit(path, &r, err, sizeof err) == 0);
        return TEST_DONE();
    }
    same_text(&r, data ? data : "tests/data");
    CHECK(qqb_report_json("written.json", &r, err, sizeof err) == 0);
    same_files("written.json", golden);

    /* Round trip: the golden file read by the one reader and written again
     * by the one writer is the same bytes. */
    round_trip(golden);
    struct qqb_run run;
    CHECK(qqb_run_read(golden, &run, err, sizeof err) == 0);
    /* What the reader made of it. */
    CHECK_INT_EQ(run.n_cases, 3);
    CHECK_INT_EQ(run.n_comparisons, 3);
    CHECK_INT_EQ(run.n_memory_changes, 1);
    CHECK_STR_EQ(run.cases[0].name, "chain[direct]@1");
    CHECK_INT_EQ(run.cases[0].n_command, 2);
    CHECK_INT_EQ(run.cases[1].metrics[0].n_samples, 4);
    CHECK(isnan(run.cases[1].metrics[0].samples[2]));
    CHECK_INT_EQ(run.cases[0].n_threads, 0);
    CHECK_INT_EQ(run.cases[1].n_threads, 2);
    CHECK_STR_EQ(run.cases[1].threads[1].name, "worker-1");
    CHECK_INT_EQ(run.cases[1].threads[1].node, 1);
    CHECK_INT_EQ(run.cases[1].threads[1].thread, 1);
    CHECK_INT_EQ(run.cases[1].threads[1].tid, 4243);
    CHECK_INT_EQ(run.cases[1].threads[1].dropped, 1);
    CHECK_INT_EQ(run.cases[1].threads[1].metrics[0].n_samples, 4);
    CHECK_DBL_NEAR(run.cases[1].threads[1].metrics[0].median, 1352.5, 1e-9);
    CHECK_INT_EQ(run.comparisons[1].holm, -1);
    CHECK_INT_EQ(run.comparisons[2].holm, 0);
    CHECK_INT_EQ(run.memory_changes[0].before.peak_bytes, 1 << 19);
    CHECK_INT_EQ(run.round_order_seed, 0x7edcba9876543210LL);
    CHECK(run.models == NULL);
    qqb_run_free(&run);
    qqb_judgement_figures_free(&j);
    free(j.cmp);
    free(j.mem);
    qqb_results_free(&res);
    return TEST_DONE();
}
