/* test_judge_sig.c - judge/judge_sig.c on hand-made results (figures crafted, exact): a state
 * key with "sig:KEY:FIELD" counts becomes a row (a working set alone, a key without counts, the
 * counts' own keys and the reference build's cases do not), its counts per node, measured from
 * its ticks and predicted on the machine's profile; against a baseline of another machine with
 * a profile of its own, how much of the change the profiles explain; the table and the JSON say
 * it, and say when there is no profile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_sig.h"
#include "run_json.h"
#include "test.h"

/* A profile of 2.5 GFLOP/s (this machine) or 5 (the other). */
static int profile(struct qqb_profile *p, double gflops)
{
    char text[512], err[256];
    snprintf(text, sizeof text,
             "profile: 1\ntimer:\n  tick_mhz: 2000.0\nmemory:\n"
             "  - bytes: 1024\n    bandwidth_gbps: 100\n    latency_ns: 1\n"
             "  - bytes: 1048576\n    bandwidth_gbps: 10\n    latency_ns: 100\n"
             "flops:\n  fma_chains: 8\n  gflops: %g\n",
             gflops);
    if (qqb_profile_parse("p.yaml", text, strlen(text), p, err, sizeof err) != 0) {
        TEST_FAIL_AT("profile: %s", err);
        return -1;
    }
    return 0;
}

static void add(struct qqb_case_result *c, const char *key, const char *what, double v)
{
    struct qqb_metric *m = qqb_case_metric(c, key, what);
    CHECK(m && qqb_metric_add(m, v) == 0);
}

/* Results on machine ID: "k@1" (the change build) and its reference build, at 2000 MHz on
 * NODES nodes; state 'work' takes TICKS a launch and counts 2.5e9 flops over the nodes;
 * 'idle' has a working set alone, 'plain' no counts. */
static void results(struct qqb_results *r, const char *id, int nodes, double ticks)
{
    const char *names[] = {"k@1", "k@1 (reference build)"};
    memset(r, 0, sizeof *r);
    CHECK_INT_EQ(qqb_results_init(r, names, 2), 0);
    snprintf(r->fp.id, sizeof r->fp.id, "%s", id);
    for (size_t i = 0; i < r->ncases; i++) {
        struct qqb_case_result *c = r->cases[i];
        c->nodes = nodes;
        c->mhz = 2000;
        for (int l = 0; l < 3; l++)
            add(c, "work", "ticks", ticks * (l == 1 ? 1.1 : 1)); /* median: TICKS */
        add(c, "sig:work:flops", "sum", 2.5e9);
        add(c, "idle", "ticks", 1000);
        add(c, "sig:idle:working_set", "sum", 4096);
        add(c, "plain", "ticks", 1000);
    }
}

static void plan(struct qqb_plan *p, struct qqb_plan_case *cases)
{
    memset(p, 0, sizeof *p);
    memset(cases, 0, 2 * sizeof *cases);
    cases[0].build = QQB_BUILD_CHANGE;
    cases[1].build = QQB_BUILD_REFERENCE;
    p->cases = cases;
    p->ncases = 2;
}

/* What PRINT writes for J, into B. */
static const char *printed(const struct qqb_sig_judgement *j, char *b, size_t n)
{
    memset(b, 0, n);
    FILE *f = fmemopen(b, n - 1, "w");
    if (!f)
        return "";
    qqb_sig_judgement_print(f, j);
    fclose(f);
    return b;
}

static void test_rows(void)
{
    struct qqb_plan p;
    struct qqb_plan_case pc[2];
    struct qqb_results cur;
    struct qqb_profile prof;
    struct qqb_sig_judgement j;
    char out[4096];
    plan(&p, pc);
    results(&cur, "m1", 1, 2e9);
    if (profile(&prof, 2.5) != 0)
        return;
    CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, NULL, &prof, NULL, &j), 0);
    /* One row: the change build's 'work'. */
    CHECK_INT_EQ(j.n, 1);
    if (j.n == 1) {
        CHECK_STR_EQ(j.rows[0].case_name, "k@1");
        CHECK_STR_EQ(j.rows[0].key, "work");
        CHECK_INT_EQ(j.rows[0].case_idx, 0);
        CHECK_DBL_NEAR(j.rows[0].s.flops, 2.5e9, 0);
        CHECK_DBL_NEAR(j.rows[0].measured, 1.0, 1e-12);  /* 2e9 ticks at 2000 MHz */
        CHECK_DBL_NEAR(j.rows[0].predicted, 1.0, 1e-12); /* 2.5e9 flops at 2.5 GFLOP/s */
        CHECK_INT_EQ(j.rows[0].bound, QQB_RES_FLOPS);
        CHECK(!j.rows[0].cross);
    }
    CHECK(j.base_id == NULL);
    CHECK_STR_CONTAINS(printed(&j, out, sizeof out), "Predicted from the signature");
    CHECK_STR_CONTAINS(out, "k@1");
    CHECK_STR_CONTAINS(out, "flops");
    CHECK(strstr(out, "How much of the change") == NULL);
    json_t *a = qqb_sig_judgement_json(&j);
    json_t *o = json_array_get(a, 0);
    CHECK(json_array_size(a) == 1 && json_real_value(json_object_get(o, "predicted_s")) == 1.0);
    CHECK_STR_EQ(json_string_value(json_object_get(o, "bound")), "flops");
    CHECK(json_object_get(o, "explained") == NULL);
    json_decref(a);
    qqb_sig_judgement_free(&j);
    CHECK(j.rows == NULL && j.n == 0);
    qqb_results_free(&cur);

    /* Two nodes: the counts per node. No profile: no prediction, and said. */
    results(&cur, "m1", 2, 2e9);
    CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, NULL, NULL, NULL, &j), 0);
    CHECK_INT_EQ(j.n, 1);
    if (j.n == 1) {
        CHECK_DBL_NEAR(j.rows[0].s.flops, 1.25e9, 0);
        CHECK(isnan(j.rows[0].predicted));
    }
    j.profile_path = "/nowhere/profile.yaml";
    CHECK_STR_CONTAINS(printed(&j, out, sizeof out),
                       "1 case key report operation counts, but this machine has no profile "
                       "(/nowhere/profile.yaml)");
    a = qqb_sig_judgement_json(&j);
    o = json_array_get(a, 0);
    CHECK(json_is_null(json_object_get(o, "predicted_s")));
    CHECK(json_object_get(o, "bound") == NULL);
    json_decref(a);
    qqb_sig_judgement_free(&j);
    qqb_results_free(&cur);

    /* No row at all: nothing printed. */
    struct qqb_sig_judgement none = {0};
    CHECK_STR_EQ(printed(&none, out, sizeof out), "");
}

static void test_other_machine(void)
{
    struct qqb_plan p;
    struct qqb_plan_case pc[2];
    struct qqb_results cur, base;
    struct qqb_profile prof, bprof;
    struct qqb_sig_judgement j;
    char out[4096];
    plan(&p, pc);
    if (profile(&prof, 2.5) != 0 || profile(&bprof, 5) != 0)
        return;
    /* Here 1 s, there 0.5 s; the profiles predict 1 s and 0.5 s: all of it explained. */
    results(&cur, "m1", 1, 2e9);
    results(&base, "m2", 1, 1e9);
    CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, &base, &prof, &bprof, &j), 0);
    CHECK_STR_EQ(j.base_id, "m2");
    CHECK_INT_EQ(j.n, 1);
    if (j.n == 1) {
        CHECK(j.rows[0].cross);
        CHECK_DBL_NEAR(j.rows[0].base_measured, 0.5, 1e-12);
        CHECK_DBL_NEAR(j.rows[0].base_predicted, 0.5, 1e-12);
        CHECK_DBL_NEAR(j.rows[0].measured_ratio, 2, 1e-12);
        CHECK_DBL_NEAR(j.rows[0].explained, 1, 1e-12);
    }
    CHECK_STR_CONTAINS(printed(&j, out, sizeof out),
                       "How much of the change from machine m2 the profiles explain");
    CHECK_STR_CONTAINS(out, "2.000x    2.000x       100%");
    json_t *a = qqb_sig_judgement_json(&j);
    json_t *o = json_array_get(a, 0);
    CHECK_STR_EQ(json_string_value(json_object_get(o, "baseline_machine")), "m2");
    CHECK_DBL_NEAR(json_real_value(json_object_get(o, "explained")), 1, 1e-12);
    json_decref(a);
    qqb_sig_judgement_free(&j);
    qqb_results_free(&base);

    /* There 2% faster: too little change to say how much is explained. */
    results(&base, "m2", 1, 2e9 / 1.02);
    CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, &base, &prof, &bprof, &j), 0);
    CHECK_STR_CONTAINS(printed(&j, out, sizeof out), "-: < 5% change");
    qqb_sig_judgement_free(&j);
    /* The other machine without a profile: said, nothing explained. */
    CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, &base, &prof, NULL, &j), 0);
    CHECK(j.n == 1 && !j.rows[0].cross);
    CHECK_STR_CONTAINS(printed(&j, out, sizeof out),
                       "The baseline is machine m2's, which has no profile");
    qqb_sig_judgement_free(&j);
    qqb_results_free(&base);
    /* The same machine's baseline: no comparison across machines. */
    results(&base, "m1", 1, 1e9);
    CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, &base, &prof, &bprof, &j), 0);
    CHECK(j.base_id == NULL && j.n == 1 && !j.rows[0].cross);
    qqb_sig_judgement_free(&j);
    qqb_results_free(&base);
    qqb_results_free(&cur);
}

/* A traced signature: callgrind's counts per key per launch (summed over
 * nodes), on the case itself or on a case of the same benchmark measured
 * for instructions. A loop of N loads over a working set that fits L1 (no
 * L1 miss) is N loads at L1, and predicts N x L1's throughput exactly. */
static void test_traced(void)
{
    const double N = 4e6;
    struct qqb_plan p;
    struct qqb_plan_case pc[2];
    struct qqb_results cur;
    struct qqb_profile prof;
    struct qqb_sig_judgement j;
    char err[256], out[4096];
    const char *text = "levels:\n  l1:\n    bytes: 32768\n    latency_ns: 1\n"
                       "    throughput_ns: 0.25\n  l2:\n    bytes: 524288\n"
                       "    latency_ns: 5\n    throughput_ns: 0.5\n  memory:\n"
                       "    latency_ns: 100\n    throughput_ns: 4\n"
                       "issue:\n  int_ns: 0.125\n  fp_ns: 0.5\n  fp_dep_ns: 2\n";
    CHECK_INT_EQ(qqb_profile_parse("p.yaml", text, strlen(text), &prof, err, sizeof err), 0);
    plan(&p, pc);
    const char *names[] = {"loop@2", "loop@2 (reference build)"};
    for (int sibling = 0; sibling < 2; sibling++) {
        memset(&cur, 0, sizeof cur);
        CHECK_INT_EQ(qqb_results_init(&cur, names, 2), 0);
        for (size_t i = 0; i < 2; i++) {
            struct qqb_case_result *c = cur.cases[i];
            c->nodes = 2;
            c->mhz = 2000;
            c->bench = "loop";
            add(c, "loop", "ticks", 2000);
            add(c, "loop", "per_hit", 100);        /* net ticks per interval */
            add(c, "loop", "intervals", 2 * 1000); /* over the two nodes */
        }
        /* the counts on the case itself, or on the other case of the same
         * benchmark (here the reference build's slot stands in for the
         * case measured for instructions) */
        struct qqb_case_result *t = cur.cases[sibling];
        const char *w[] = {"instr", "dr", "d1mr", "dlmr", "dw", "d1mw", "dlmw"};
        double v[] = {2 * 3 * N, 2 * N, 0, 0, 0, 0, 0}; /* two nodes' sums */
        for (int k = 0; k < 7; k++)
            add(t, "loop", w[k], v[k]);
        CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, NULL, &prof, NULL, &j), 0);
        CHECK_INT_EQ(j.n, 1);
        if (j.n == 1) {
            const struct qqb_sig_row *r = &j.rows[0];
            CHECK(r->traced);
            /* measured: net 100 ticks x 1000 intervals a node at 2000 MHz,
             * not the gross 2000 ticks */
            CHECK_DBL_NEAR(r->measured, 5e-5, 1e-15);
            CHECK_DBL_NEAR(r->s.loads[QQB_SIG_L1], N, 0);
            CHECK_DBL_NEAR(r->s.loads[QQB_SIG_LL] + r->s.loads[QQB_SIG_MEM], 0, 0);
            CHECK_DBL_NEAR(r->s.instr, 3 * N, 0);
            /* N loads at 0.25 ns = 1 ms; 3N instructions at 0.125 ns = 1.5 ms */
            CHECK_DBL_NEAR(r->parts[QQB_RES_MEMORY], N * 0.25e-9, 1e-15);
            CHECK_DBL_NEAR(r->predicted, 3 * N * 0.125e-9, 1e-15);
            CHECK_INT_EQ(r->bound, QQB_RES_FLOPS);
        }
        CHECK_STR_CONTAINS(printed(&j, out, sizeof out), "(traced)");
        qqb_sig_judgement_free(&j);
        /* misses split the loads by level; a written count overrides */
        add(t, "loop", "d1mr", 2 * 0.25 * N);
        add(t, "loop", "d1mr", 2 * 0.25 * N);
        add(t, "loop", "dlmr", 2 * 0.1 * N);
        add(t, "loop", "dlmr", 2 * 0.1 * N);
        add(cur.cases[0], "sig:loop:dep_loads", "sum", 2 * N);
        CHECK_INT_EQ(qqb_judge_signatures(&p, &cur, NULL, &prof, NULL, &j), 0);
        if (j.n == 1) {
            const struct qqb_sig_row *r = &j.rows[0];
            CHECK_DBL_NEAR(r->s.loads[QQB_SIG_L1], 0.75 * N, 1e-6);
            CHECK_DBL_NEAR(r->s.loads[QQB_SIG_LL], 0.15 * N, 1e-6);
            CHECK_DBL_NEAR(r->s.loads[QQB_SIG_MEM], 0.1 * N, 1e-6);
            /* every load dependent: 0.75N x 1 + 0.15N x 5 (L2) + 0.1N x 100 ns */
            CHECK_DBL_NEAR(r->parts[QQB_RES_LATENCY], N * (0.75 + 0.75 + 10) * 1e-9, 1e-12);
            CHECK_DBL_NEAR(r->parts[QQB_RES_MEMORY], 0, 0);
            CHECK_INT_EQ(r->bound, QQB_RES_LATENCY);
        }
        qqb_sig_judgement_free(&j);
        for (size_t i = 0; i < 2; i++)
            cur.cases[i]->bench = NULL;
        qqb_results_free(&cur);
    }
}

int main(void)
{
    RUN(test_traced);
    RUN(test_rows);
    RUN(test_other_machine);
    return TEST_DONE();
}
