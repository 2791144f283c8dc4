/* test_judge_tune.c - judge/judge_tune.c on hand-made results: the value most launches chose
 * (the smaller on a tie), a row per tuned parameter of each case, the baseline's choice beside it
 * and a changed one counted as a note; the text and the JSON say it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_tune.h"
#include "run_json.h"
#include "test.h"

static void add(struct qqb_case_result *c, const char *key, const char *what, double v)
{
    struct qqb_metric *m = qqb_case_metric(c, key, what);
    CHECK(m && qqb_metric_add(m, v) == 0);
}

/* Results on machine ID: case "b@1" chose the N values V for "tile" (and
 * has a state 'iteration'); case "c@1" tuned nothing. */
static void results(struct qqb_results *r, const char *id, const double *v, size_t n)
{
    const char *names[] = {"b@1", "c@1"};
    memset(r, 0, sizeof *r);
    CHECK_INT_EQ(qqb_results_init(r, names, 2), 0);
    snprintf(r->fp.id, sizeof r->fp.id, "%s", id);
    for (size_t i = 0; i < n; i++) {
        add(r->cases[0], QQB_TUNE_PREFIX "tile", QQB_TUNE_METRIC, v[i]);
        add(r->cases[0], "iteration", "per_hit", 1000);
    }
    add(r->cases[1], "iteration", "per_hit", 1000);
}

static void test_mode(void)
{
    size_t agree;
    const double a[] = {16, 64, 16, 32, 64};
    CHECK_DBL_NEAR(qqb_tune_mode(a, 5, &agree), 16, 0); /* 16 and 64 twice: the smaller */
    CHECK_INT_EQ(agree, 2);
    const double b[] = {64, 64, 16};
    CHECK_DBL_NEAR(qqb_tune_mode(b, 3, &agree), 64, 0);
    CHECK_INT_EQ(agree, 2);
    CHECK(isnan(qqb_tune_mode(b, 0, &agree)));
    CHECK_INT_EQ(agree, 0);
}

static char *print(const struct qqb_tune_judgement *j)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    qqb_tune_judgement_print(fp, j);
    fclose(fp);
    return text;
}

static void test_changed(void)
{
    const double now[] = {64, 64, 16}, then[] = {16, 16, 16};
    struct qqb_results cur, base;
    results(&cur, "x86_64-2cpu-aaaa", now, 3);
    results(&base, "x86_64-2cpu-bbbb", then, 3);
    struct qqb_tune_judgement j;
    CHECK_INT_EQ(qqb_judge_tunes(&cur, &base, &j), 0);
    CHECK_INT_EQ(j.n, 1);
    CHECK_INT_EQ(j.changed, 1);
    if (j.n == 1) {
        CHECK_STR_EQ(j.rows[0].case_name, "b@1");
        CHECK_STR_EQ(j.rows[0].name, "tile");
        CHECK_DBL_NEAR(j.rows[0].choice, 64, 0);
        CHECK_INT_EQ(j.rows[0].agree, 2);
        CHECK_INT_EQ(j.rows[0].launches, 3);
        CHECK(j.rows[0].have_base && j.rows[0].changed);
        CHECK_DBL_NEAR(j.rows[0].base_choice, 16, 0);
    }
    char *text = print(&j);
    CHECK_STR_CONTAINS(text, "Tuned by QQTune on x86_64-2cpu-aaaa");
    CHECK_STR_CONTAINS(text, "b@1: tile = 64 (2 of 3 launches); note: the baseline "
                             "(x86_64-2cpu-bbbb) chose 16 (3 of 3 launches)");
    CHECK_STR_CONTAINS(text, "a note, not a regression");
    free(text);
    json_t *a = qqb_tune_judgement_json(&j);
    char *js = json_dumps(a, JSON_SORT_KEYS);
    CHECK_STR_EQ(js, "[{\"agree\": 2, \"baseline_agree\": 3, \"baseline_choice\": 16, "
                     "\"baseline_launches\": 3, \"baseline_machine\": \"x86_64-2cpu-bbbb\", "
                     "\"case\": \"b@1\", \"changed\": true, \"choice\": 64, \"launches\": 3, "
                     "\"machine\": \"x86_64-2cpu-aaaa\", \"name\": \"tile\"}]");
    free(js);
    json_decref(a);
    qqb_tune_judgement_free(&j);
    qqb_results_free(&base);
    qqb_results_free(&cur);
}

static void test_same_and_none(void)
{
    const double v[] = {32, 32};
    struct qqb_results cur, base;
    results(&cur, "m", v, 2);
    results(&base, "m", v, 2);
    struct qqb_tune_judgement j;
    CHECK_INT_EQ(qqb_judge_tunes(&cur, &base, &j), 0);
    CHECK_INT_EQ(j.n, 1);
    CHECK_INT_EQ(j.changed, 0);
    char *text = print(&j);
    CHECK_STR_CONTAINS(text, "b@1: tile = 32 (2 of 2 launches); the baseline chose the same");
    free(text);
    qqb_tune_judgement_free(&j);
    /* No baseline: the choice alone. */
    CHECK_INT_EQ(qqb_judge_tunes(&cur, NULL, &j), 0);
    CHECK_INT_EQ(j.n, 1);
    CHECK(j.n == 1 && !j.rows[0].have_base);
    text = print(&j);
    CHECK(strstr(text, "baseline") == NULL);
    free(text);
    qqb_tune_judgement_free(&j);
    /* Nothing tuned: no row, no line. */
    qqb_results_free(&cur);
    results(&cur, "m", v, 0);
    CHECK_INT_EQ(qqb_judge_tunes(&cur, &base, &j), 0);
    CHECK_INT_EQ(j.n, 0);
    text = print(&j);
    CHECK_STR_EQ(text, "");
    free(text);
    qqb_tune_judgement_free(&j);
    qqb_results_free(&base);
    qqb_results_free(&cur);
}

int main(void)
{
    RUN(test_mode);
    RUN(test_changed);
    RUN(test_same_and_none);
    return TEST_DONE();
}
