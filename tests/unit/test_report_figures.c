/* test_report_figures.c - the reporters read the judgement's figures and
 * compute none (issue 35): qqb_judgement_figures makes them once (the cost
 * part of each row, every metric's summaries, the keys nothing was compared
 * with), and a figure planted in the judgement is the one the text and the
 * run JSON print. All figures crafted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "run_json.h"
#include "test.h"

static void add(struct qqb_case_result *c, const char *what, const double *v, size_t n)
{
    struct qqb_metric *m = qqb_case_metric(c, "step", what);
    CHECK(m != NULL);
    for (size_t i = 0; m && i < n; i++)
        CHECK(qqb_metric_add(m, v[i]) == 0);
}

/* Case "alone" (measured only, 5 launches) and case "judged" (a baseline
 * row whose count per launch doubled), crafted. */
static void craft(struct qqb_results *res, struct qqb_judgement *j)
{
    static const char *const names[] = {"alone", "judged"};
    CHECK(qqb_results_init(res, names, 2) == 0);
    res->suite = strdup("figures");
    snprintf(res->fp.id, sizeof res->fp.id, "crafted-machine");
    struct qqb_case_result *a = res->cases[0], *b = res->cases[1];
    a->bench = strdup("alone");
    b->bench = strdup("judged");
    a->nodes = b->nodes = 1;
    a->launches = 5;
    b->launches = 2;
    add(a, "per_hit", (const double[]){100, 110, 120, 130, 1000}, 5); /* crafted */
    add(a, "hits", (const double[]){4, 4, 4, 4, 4}, 5);
    add(b, "per_hit", (const double[]){200, 210}, 2); /* crafted */
    j->ncmp = 1;
    j->cmp = calloc(1, sizeof *j->cmp);
    CHECK(j->cmp != NULL);
    if (!j->cmp)
        return;
    struct qqb_cmp *c = &j->cmp[0];
    c->case_idx = 1;
    c->case_name = b->name;
    c->key = "step";
    c->ab = QQB_CMP_BASELINE;
    c->base_median = 190;
    c->cur_median = 205;
    c->threshold = 5;
    c->count_base = 10;
    c->count_cur = 20;
    c->count_pct = 100;
    c->ch = (struct qqb_change){.status = QQB_CHANGE_OK, .pct = 4, .lo = 1, .hi = 7, .ci_ok = 1};
    c->verdict = QQB_REGRESSED;
}

/* The figures as made: what the stats functions give on the samples. */
static void test_made(void)
{
    struct qqb_results res = {0};
    struct qqb_judgement j = {0};
    craft(&res, &j);
    CHECK_INT_EQ(qqb_judgement_figures(&j, &res), 0);
    const struct qqb_metric *pa = &res.cases[0]->metrics[0];
    CHECK_DBL_NEAR(j.cmp[0].cost_pct, 20.0 / 10.0 * 4.0, 1e-12);
    CHECK_INT_EQ(j.nmeasured, 1); /* "judged" has a row: not measured */
    CHECK_INT_EQ(j.measured[0].case_idx, 0);
    CHECK_INT_EQ(j.measured[0].metric, 0);
    CHECK_DBL_NEAR(j.measured[0].median, 120, 0);
    CHECK_DBL_NEAR(j.measured[0].noise_pct, qqb_noise_pct(pa->samples, pa->n), 0);
    CHECK_DBL_NEAR(j.measured[0].events, 4, 0);
    CHECK_INT_EQ(j.nfigures, 2);
    CHECK_DBL_NEAR(j.figures[0].metric[0].median, 120, 0);
    CHECK_DBL_NEAR(j.figures[0].metric[0].min, 100, 0);
    CHECK_DBL_NEAR(j.figures[0].metric[0].mad, qqb_mad_scaled(pa->samples, pa->n), 0);
    CHECK_DBL_NEAR(j.figures[1].metric[0].median, 205, 0);
    /* No count per launch: no cost part. */
    j.cmp[0].count_pct = NAN;
    CHECK_INT_EQ(qqb_judgement_figures(&j, &res) == 0 && isnan(j.cmp[0].cost_pct), 1);
    qqb_judgement_figures_free(&j);
    qqb_judgement_figures_free(&j); /* twice: nothing left to free */
    free(j.cmp);
    qqb_results_free(&res);
}

/* One free releases the judgement with its figures: freed twice, nothing is
 * freed again; a figure left behind is a leak the sanitizer reports. */
static void test_one_free(void)
{
    struct qqb_results res = {0};
    struct qqb_judgement j = {0};
    craft(&res, &j);
    CHECK_INT_EQ(qqb_judgement_figures(&j, &res), 0);
    CHECK(j.figures != NULL && j.measured != NULL);
    qqb_judgement_free(&j);
    CHECK(j.figures == NULL && j.measured == NULL && j.cmp == NULL);
    qqb_judgement_free(&j); /* twice: nothing left to free */
    qqb_results_free(&res);
}

/* Planted figures are what the reporters print. */
static void test_read(void)
{
    struct qqb_results res = {0};
    struct qqb_judgement j = {0};
    craft(&res, &j);
    struct qqb_report r = {
        .suite = "figures", .baseline_path = "crafted.yaml", .results = &res, .j = &j};
    char err[512];
    /* Not finished: the JSON reporter has no summaries to write. */
    CHECK(qqb_report_json("figures.json", &r, err, sizeof err) != 0);
    CHECK_INT_EQ(qqb_judgement_figures(&j, &res), 0);
    j.measured[0].median = 5555;
    j.measured[0].noise_pct = 3.25;
    j.figures[1].metric[0].median = 7777;
    j.cmp[0].cost_pct = 12.5;

    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp != NULL);
    if (fp) {
        qqb_report_print(fp, &r);
        fclose(fp);
        CHECK_STR_CONTAINS(text, "   5.6k cyc");               /* not the samples' 120.0 */
        CHECK_STR_CONTAINS(text, "   3.25%");                  /* the planted noise */
        CHECK_STR_CONTAINS(text, "cost per interval +12.5%]"); /* not +8.0% */
        CHECK(strstr(text, "120.0") == NULL);
    }
    free(text);

    CHECK(qqb_report_json("figures.json", &r, err, sizeof err) == 0);
    struct qqb_run run;
    CHECK(qqb_run_read("figures.json", &run, err, sizeof err) == 0);
    if (run.n_cases == 2 && run.n_comparisons == 1) {
        CHECK_DBL_NEAR(run.cases[1].metrics[0].median, 7777, 0); /* not 205 */
        CHECK_DBL_NEAR(run.cases[0].metrics[0].median, 120, 0);
        CHECK_DBL_NEAR(run.comparisons[0].cost_part_pct, 12.5, 0);
    } else {
        TEST_FAIL_AT("figures.json: %zu cases, %zu comparisons: %s", run.n_cases, run.n_comparisons,
                     err);
    }
    qqb_run_free(&run);
    remove("figures.json");
    qqb_judgement_figures_free(&j);
    free(j.cmp);
    qqb_results_free(&res);
}

int main(void)
{
    RUN(test_made);
    RUN(test_one_free);
    RUN(test_read);
    return TEST_DONE();
}
