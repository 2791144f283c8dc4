/* test_judge_counts.c - verdicts on counts (judge_counts.c): the one rule on synthetic launches
 * (deterministic equal, one instruction more per hit, non-deterministic with its spread, a
 * threshold in instructions per hit), and the judge's rows between two variants: A/A, a planted
 * instruction, calls that changed, gated only with gate: counts. */
#include "judge_fixture.h"

/* A metric of N launches reading V[i % NV]. */
static void fill(struct qqb_metric *m, const double *v, size_t nv, size_t n)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < n; i++)
        CHECK_INT_EQ(qqb_metric_add(m, v[i % nv]), 0);
}

static void test_deterministic_equal(void)
{
    struct qqb_metric a, b;
    struct qqb_count_change x;
    fill(&a, (double[]){1000}, 1, 10);
    fill(&b, (double[]){1000}, 1, 10);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 0, 0.95, &x), 0);
    CHECK_INT_EQ(x.exact, 1);
    CHECK_DBL_NEAR(x.delta, 0, 0);
    CHECK_DBL_NEAR(x.pct, 0, 0);
    CHECK_INT_EQ(x.verdict, QQB_UNCHANGED);
    CHECK_DBL_NEAR(x.base.value, 1000, 0);
    free(a.samples);
    free(b.samples);
}

/* A launch that read NaN among equal ones: not exact (the side has no
 * value), whatever its place among the launches. */
static void test_nan_launch_not_exact(void)
{
    struct qqb_metric a, b;
    struct qqb_count_change x;
    fill(&a, (double[]){1000, NAN, 1000}, 3, 3);
    fill(&b, (double[]){1000}, 1, 3);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 0, 0.95, &x), 0);
    CHECK_INT_EQ(x.exact, 0);
    CHECK(isnan(x.base.value));
    CHECK_DBL_NEAR(x.cur.value, 1000, 0);
    free(a.samples);
    free(b.samples);
}

/* One instruction more per hit, of 50: +2% exact, beyond the default 1%;
 * the total of 1000 hits moves by exactly 1000. */
static void test_one_more_per_hit(void)
{
    struct qqb_metric a, b, ta, tb;
    struct qqb_count_change x, t;
    fill(&a, (double[]){50}, 1, 5);
    fill(&b, (double[]){51}, 1, 5);
    fill(&ta, (double[]){50000}, 1, 5);
    fill(&tb, (double[]){51000}, 1, 5);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 0, 0.95, &x), 0);
    CHECK_INT_EQ(x.exact, 1);
    CHECK_DBL_NEAR(x.delta, 1, 0);
    CHECK_DBL_NEAR(x.pct, 2, 1e-12);
    CHECK_INT_EQ(x.verdict, QQB_REGRESSED);
    CHECK_INT_EQ(qqb_count_decide(&ta, &tb, 1.0, 0, 0.95, &t), 0);
    CHECK_DBL_NEAR(t.delta, 1000, 0);
    /* And the same change the other way is improved, at the same size. */
    CHECK_INT_EQ(qqb_count_decide(&b, &a, 1.0, 0, 0.95, &x), 0);
    CHECK_INT_EQ(x.verdict, QQB_IMPROVED);
    CHECK_DBL_NEAR(x.delta, -1, 0);
    free(a.samples);
    free(b.samples);
    free(ta.samples);
    free(tb.samples);
}

/* A threshold in instructions per hit replaces the percent: +1 is within
 * 2 per hit, beyond 0.5; exactly at it is unchanged (strictly beyond). */
static void test_threshold_per_hit(void)
{
    struct qqb_metric a, b;
    struct qqb_count_change x;
    fill(&a, (double[]){50}, 1, 4);
    fill(&b, (double[]){51}, 1, 4);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 2.0, 0.95, &x), 0);
    CHECK_INT_EQ(x.verdict, QQB_UNCHANGED);
    CHECK_DBL_NEAR(x.threshold_pct, 4, 1e-12);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 0.5, 0.95, &x), 0);
    CHECK_INT_EQ(x.verdict, QQB_REGRESSED);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 1.0, 0.95, &x), 0);
    CHECK_INT_EQ(x.verdict, QQB_UNCHANGED);
    free(a.samples);
    free(b.samples);
}

/* A count that differs between launches of one side: named, its spread
 * kept, judged on the launches (a 10% shift of launches spread by 0.4% is
 * regressed; the same launches on both sides unchanged, never exact). */
static void test_non_deterministic(void)
{
    struct qqb_metric a, b;
    struct qqb_count_change x;
    fill(&a, (double[]){996, 1000, 1004, 998, 1002}, 5, 20);
    fill(&b, (double[]){1096, 1100, 1104, 1098, 1102}, 5, 20);
    CHECK_INT_EQ(qqb_count_decide(&a, &b, 1.0, 0, 0.95, &x), 0);
    CHECK_INT_EQ(x.exact, 0);
    CHECK(isnan(x.base.value) && isnan(x.cur.value));
    CHECK_DBL_NEAR(x.base.min, 996, 0);
    CHECK_DBL_NEAR(x.base.max, 1004, 0);
    CHECK_DBL_NEAR(x.cur.min, 1096, 0);
    CHECK_INT_EQ(x.ch.status, QQB_CHANGE_OK);
    CHECK_DBL_NEAR(x.pct, 10, 0.1);
    CHECK_INT_EQ(x.verdict, QQB_REGRESSED);
    CHECK_INT_EQ(qqb_count_decide(&a, &a, 1.0, 0, 0.95, &x), 0);
    CHECK_INT_EQ(x.exact, 0);
    CHECK_INT_EQ(x.verdict, QQB_UNCHANGED);
    free(a.samples);
    free(b.samples);
    CHECK_INT_EQ(qqb_count_decide(NULL, &a, 1.0, 0, 0.95, &x), -1);
}

/* Case CI's key KEY: LAUNCHES launches, each with INTERVALS intervals of
 * PER_HIT instructions and a cycles figure with launch noise. */
static void launches(struct qqb_case_result *c, const char *key, double intervals, double per_hit,
                     uint32_t n, double noise)
{
    for (uint32_t r = 0; r < n; r++) {
        qqb_metric_add_at(qqb_case_metric(c, key, QQB_VERDICT_METRIC),
                          1000 * (1 + noise * ((r * 7) % 5 - 2)), 0, r);
        qqb_metric_add_at(qqb_case_metric(c, key, "intervals"), intervals, 0, r);
        qqb_metric_add_at(qqb_case_metric(c, key, "hits"), 2 * intervals, 0, r);
        qqb_metric_add_at(qqb_case_metric(c, key, "instr_per_hit"), per_hit, 0, r);
        qqb_metric_add_at(qqb_case_metric(c, key, "instr"), per_hit * intervals, 0, r);
    }
    c->launches = n;
}

static const struct qqb_countcmp *count_row(const struct qqb_judgement *j, const char *key,
                                            int calls)
{
    for (size_t i = 0; i < j->ncounts; i++)
        if (j->counts[i].ab == QQB_CMP_VARIANT && !strcmp(j->counts[i].key, key) &&
            j->counts[i].calls == calls)
            return &j->counts[i];
    return NULL;
}

/* Variants a and b of one benchmark with keys x and y; b as DX, DY say. */
static void judge_ab(const char *extra, double calls_b, double per_hit_b, struct qqb_judgement *j,
                     struct qqb_plan *p, struct qqb_results *cur, struct qqb_suite **s)
{
    char body[512];
    snprintf(body, sizeof body, "    variants:\n      a: []\n      b: []\n%s", extra);
    *s = fixture_suite(body);
    char err[256];
    CHECK(*s != NULL);
    CHECK_INT_EQ(qqb_plan_make(*s, NULL, 0, 0, p, err, sizeof err), 0);
    fixture_results(p, cur, 1000);
    launches(cur->cases[0], "x", 1000, 50, 8, 0.002);
    launches(cur->cases[0], "y", 200, 700, 8, 0.004);
    launches(cur->cases[1], "x", calls_b, per_hit_b, 8, 0.003);
    launches(cur->cases[1], "y", 200, 700, 8, 0.001);
    CHECK_INT_EQ(qqb_judge(p, cur, NULL, j), 0);
}

static void done(struct qqb_judgement *j, struct qqb_plan *p, struct qqb_results *cur,
                 struct qqb_suite *s)
{
    qqb_judgement_free(j);
    qqb_results_free(cur);
    qqb_plan_free(p);
    qqb_suite_free(s);
}

/* A/A: the same counts on both sides: every count row exact and
 * unchanged (0 false, 0 noisy, 0 blind), nothing fails. */
static void test_aa(void)
{
    struct qqb_judgement j;
    struct qqb_plan p;
    struct qqb_results cur;
    struct qqb_suite *s;
    judge_ab("", 1000, 50, &j, &p, &cur, &s);
    CHECK_INT_EQ(j.ncounts, 4); /* x and y: calls, instructions per hit */
    size_t v[QQB_NVERDICTS] = {0};
    for (size_t i = 0; i < j.ncounts; i++) {
        v[j.counts[i].c.verdict]++;
        CHECK_INT_EQ(j.counts[i].c.exact, 1);
    }
    CHECK_INT_EQ(v[QQB_UNCHANGED], 4);
    CHECK_INT_EQ(v[QQB_REGRESSED] + v[QQB_IMPROVED] + v[QQB_NOISY] + v[QQB_BLIND], 0);
    CHECK_INT_EQ(j.counts_regressed, 0);
    CHECK_INT_EQ(j.counts_nondet, 0);
    done(&j, &p, &cur, s);
}

/* One instruction more per hit in key x of b: its row regressed at the
 * exact delta (+1 per hit, +1000 a launch, all of it the cost part); y
 * unchanged. Between variants a cost verdict does not gate. */
static void test_planted_instruction(void)
{
    struct qqb_judgement j;
    struct qqb_plan p;
    struct qqb_results cur;
    struct qqb_suite *s;
    judge_ab("", 1000, 51, &j, &p, &cur, &s);
    const struct qqb_countcmp *x = count_row(&j, "x", 0), *y = count_row(&j, "y", 0);
    CHECK(x != NULL && y != NULL);
    if (x && y) {
        CHECK_INT_EQ(x->c.verdict, QQB_REGRESSED);
        CHECK_DBL_NEAR(x->c.delta, 1, 0);
        CHECK_DBL_NEAR(x->total_cur - x->total_base, 1000, 0);
        CHECK_DBL_NEAR(x->cost_part, 1000, 0);
        CHECK_DBL_NEAR(x->count_part, 0, 0);
        CHECK_STR_CONTAINS(x->why, "50 -> 51 instructions per hit (+1 exact)");
        CHECK_INT_EQ(x->gated, 0);
        CHECK_INT_EQ(y->c.verdict, QQB_UNCHANGED);
    }
    CHECK_INT_EQ(j.counts_regressed, 0);
    done(&j, &p, &cur, s);
}

/* x called 1,000 -> 1,200 times per launch in b: a verdict of its own,
 * exact; the total's change split into count and cost parts; it gates
 * only where the benchmark says gate: counts. */
static void test_calls(void)
{
    for (int gate = 0; gate < 2; gate++) {
        struct qqb_judgement j;
        struct qqb_plan p;
        struct qqb_results cur;
        struct qqb_suite *s;
        judge_ab(gate ? "    gate: counts\n" : "", 1200, 50, &j, &p, &cur, &s);
        const struct qqb_countcmp *calls = count_row(&j, "x", 1), *cost = count_row(&j, "x", 0);
        CHECK(calls != NULL && cost != NULL);
        if (calls && cost) {
            CHECK_STR_EQ(calls->what, "intervals");
            CHECK_INT_EQ(calls->c.verdict, QQB_REGRESSED);
            CHECK_DBL_NEAR(calls->c.pct, 20, 1e-9);
            CHECK_STR_CONTAINS(calls->why, "called 1,000 -> 1,200 times per launch");
            CHECK_INT_EQ(calls->gated, gate);
            CHECK_INT_EQ(cost->c.verdict, QQB_UNCHANGED);
            CHECK_DBL_NEAR(cost->count_part, 10000, 0); /* 200 calls x 50 */
            CHECK_DBL_NEAR(cost->cost_part, 0, 0);
        }
        CHECK_INT_EQ(j.counts_regressed, (size_t)gate);
        done(&j, &p, &cur, s);
    }
}

static const struct qqb_countcmp *row_of(const struct qqb_judgement *j, int ab, size_t ci,
                                         int calls)
{
    for (size_t i = 0; i < j->ncounts; i++)
        if (j->counts[i].ab == ab && j->counts[i].case_idx == ci &&
            !strcmp(j->counts[i].key, "x") && j->counts[i].calls == calls)
            return &j->counts[i];
    return NULL;
}

/* Every gate uses the rule: against the reference build (--against: the
 * change build's x one instruction more per hit) and against a stored
 * baseline of one run (counts need no run-to-run spread: no timing row is
 * made from one run, the count rows are). Both gate the instructions. */
static void test_build_and_baseline(void)
{
    struct qqb_suite *s = fixture_suite("");
    struct qqb_plan p;
    struct qqb_results cur, base;
    struct qqb_judgement j;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(
        qqb_plan_make_against(s, NULL, 0, 0, "/nonexistent-ref", NULL, &p, err, sizeof err), 0);
    CHECK(p.ncases == 2 && p.cases[0].twin == 1);
    fixture_results(&p, &cur, 1000);
    launches(cur.cases[0], "x", 1000, 51, 6, 0.002);
    launches(cur.cases[1], "x", 1000, 50, 6, 0.002);
    CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
    const struct qqb_countcmp *r = row_of(&j, QQB_CMP_BUILD, 0, 0);
    CHECK(r != NULL);
    if (r) {
        CHECK(r->c.exact && r->c.delta == 1 && r->c.verdict == QQB_REGRESSED && r->gated);
        CHECK_INT_EQ(r->ref_idx, 1);
    }
    CHECK_INT_EQ(j.counts_regressed, 1);
    qqb_judgement_free(&j);
    qqb_plan_free(&p);

    /* The baseline: one run of the same case at 50 per hit. */
    CHECK_INT_EQ(qqb_plan_make(s, NULL, 0, 0, &p, err, sizeof err), 0);
    qqb_results_free(&cur);
    fixture_results(&p, &cur, 1000);
    fixture_results(&p, &base, 1000);
    launches(cur.cases[0], "x", 1000, 51, 6, 0.002);
    launches(base.cases[0], "x", 1000, 50, 6, 0.003);
    CHECK_INT_EQ(qqb_judge(&p, &cur, &base, &j), 0);
    CHECK_INT_EQ(j.ncmp, 0); /* one baseline run: no timing row */
    r = row_of(&j, QQB_CMP_BASELINE, 0, 0);
    CHECK(r != NULL);
    if (r)
        CHECK(r->c.exact && r->c.delta == 1 && r->c.verdict == QQB_REGRESSED && r->gated &&
              r->ref_name == NULL);
    r = row_of(&j, QQB_CMP_BASELINE, 0, 1);
    CHECK(r != NULL && r->c.verdict == QQB_UNCHANGED && !r->gated);
    CHECK_INT_EQ(j.counts_regressed, 1);
    qqb_judgement_free(&j);
    qqb_results_free(&cur);
    qqb_results_free(&base);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* A case measured for instructions alone (no intervals, no cycles): its
 * rows are made at instr_per_hit, and the total splits with the calls the
 * exact total over the exact figure per hit gives (1,000 -> 1,200 calls of
 * 50: the count part 10,000, the cost part 0). */
static void test_instructions_alone(void)
{
    struct qqb_suite *s = fixture_suite("    variants:\n      a: []\n      b: []\n");
    struct qqb_plan p;
    struct qqb_results cur;
    struct qqb_judgement j;
    char err[256];
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_INT_EQ(qqb_plan_make(s, NULL, 0, 0, &p, err, sizeof err), 0);
    fixture_results(&p, &cur, 1000);
    for (uint32_t r = 0; r < 3; r++)
        for (int k = 0; k < 2; k++) {
            double calls = k ? 1200 : 1000;
            qqb_metric_add_at(qqb_case_metric(cur.cases[k], "x", "instr_per_hit"), 50, 0, r);
            qqb_metric_add_at(qqb_case_metric(cur.cases[k], "x", "instr"), 50 * calls, 0, r);
            cur.cases[k]->launches = 3;
        }
    CHECK_INT_EQ(qqb_judge(&p, &cur, NULL, &j), 0);
    CHECK_INT_EQ(j.ncmp, 0);
    CHECK_INT_EQ(j.ncounts, 1); /* no calls metric: the instructions row alone */
    const struct qqb_countcmp *r = count_row(&j, "x", 0);
    CHECK(r != NULL);
    if (r) {
        CHECK_INT_EQ(r->c.verdict, QQB_UNCHANGED);
        CHECK_DBL_NEAR(r->calls_base, 1000, 0);
        CHECK_DBL_NEAR(r->calls_cur, 1200, 0);
        CHECK_DBL_NEAR(r->count_part, 10000, 0);
        CHECK_DBL_NEAR(r->cost_part, 0, 0);
    }
    qqb_judgement_free(&j);
    qqb_results_free(&cur);
    qqb_plan_free(&p);
    qqb_suite_free(s);
}

/* The suite's fields: gate is cost or counts, threshold_instr a number
 * of instructions per hit above 0; both settings, so a benchmark
 * overrides defaults:. */
static void test_suite_fields(void)
{
    struct qqb_suite *s = fixture_suite("    gate: sometimes\n");
    CHECK(s == NULL);
    qqb_suite_free(s);
    s = fixture_suite("    threshold_instr: 0\n");
    CHECK(s == NULL);
    qqb_suite_free(s);
    s = fixture_suite("    threshold_instr: 2.5\n    gate: counts\n");
    CHECK(s != NULL);
    if (s) {
        CHECK_DBL_NEAR(s->bench[0].s.threshold_instr, 2.5, 0);
        CHECK_INT_EQ(s->bench[0].s.gate_counts, 1);
    }
    qqb_suite_free(s);
    s = fixture_suite("");
    CHECK(s != NULL);
    if (s)
        CHECK(s->bench[0].s.threshold_instr == 0 && s->bench[0].s.gate_counts == 0);
    qqb_suite_free(s);
}

int main(void)
{
    RUN(test_suite_fields);
    RUN(test_deterministic_equal);
    RUN(test_nan_launch_not_exact);
    RUN(test_one_more_per_hit);
    RUN(test_threshold_per_hit);
    RUN(test_non_deterministic);
    RUN(test_aa);
    RUN(test_planted_instruction);
    RUN(test_calls);
    RUN(test_build_and_baseline);
    RUN(test_instructions_alone);
    return TEST_DONE();
}
