/* test_report_counts.c - the verdicts on counts as the reports give them: instructions beside
 * the cycles of the same key in the text ("instructions +4.10% exact; cycles blind at this
 * machine's noise"), the total's split, the non-deterministic spread, the run JSON's
 * count_comparisons read back, and JUnit's gated rows. Rows crafted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pictures.h"
#include "report.h"
#include "run_json.h"
#include "test.h"

/* One case "c" with a blind cycles row against the baseline, and two
 * count rows: instructions per hit 1,000 -> 1,041 exact (the total of 200
 * calls split), calls non-deterministic 990..1,010 -> 995..1,005. */
static void craft(struct qqb_results *res, struct qqb_judgement *j)
{
    static const char *const names[] = {"c"};
    CHECK(qqb_results_init(res, names, 1) == 0);
    res->suite = strdup("counts");
    snprintf(res->fp.id, sizeof res->fp.id, "crafted-machine");
    res->cases[0]->bench = strdup("c");
    res->cases[0]->launches = 3;
    j->ncmp = 1;
    j->cmp = calloc(1, sizeof *j->cmp);
    j->ncounts = 2;
    j->counts = calloc(2, sizeof *j->counts);
    if (!j->cmp || !j->counts)
        return;
    struct qqb_cmp *t = &j->cmp[0];
    t->case_name = "c";
    t->key = "step";
    t->ab = QQB_CMP_BASELINE;
    t->base_median = 5000;
    t->cur_median = 5100;
    t->threshold = 2;
    t->count_base = t->count_cur = t->count_pct = NAN;
    t->ch = (struct qqb_change){.status = QQB_CHANGE_OK, .pct = 2, .lo = -3, .hi = 7, .ci_ok = 1};
    t->verdict = QQB_BLIND;
    struct qqb_countcmp *c = &j->counts[0];
    c->case_name = "c";
    c->key = "step";
    c->what = "instr_per_hit";
    c->ab = QQB_CMP_BASELINE;
    c->c = (struct qqb_count_change){.base = {1000, 1000, 1000, 3},
                                     .cur = {1041, 1041, 1041, 3},
                                     .exact = 1,
                                     .delta = 41,
                                     .pct = 4.1,
                                     .threshold_pct = 1,
                                     .verdict = QQB_REGRESSED};
    c->gated = 1;
    c->timing = QQB_BLIND;
    c->calls_base = c->calls_cur = 200;
    c->total_base = 200000;
    c->total_cur = 208200;
    c->count_part = 0;
    c->cost_part = 8200;
    snprintf(c->why, sizeof c->why, "1,000 -> 1,041 instructions per hit (+41 exact)");
    c = &j->counts[1];
    c->case_name = "c";
    c->key = "step";
    c->what = "intervals";
    c->calls = 1;
    c->ab = QQB_CMP_BASELINE;
    c->c = (struct qqb_count_change){.base = {NAN, 990, 1010, 3},
                                     .cur = {NAN, 995, 1005, 3},
                                     .delta = 0,
                                     .pct = 0.1,
                                     .threshold_pct = 1,
                                     .verdict = QQB_UNCHANGED};
    c->timing = QQB_BLIND;
    c->count_part = c->cost_part = NAN;
    snprintf(c->why, sizeof c->why, "non-deterministic: 990..1,010 -> 995..1,005 calls per launch");
    j->counts_regressed = 1;
    j->counts_nondet = 1;
}

/* The whole of file PATH (NULL where it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    if (buf)
        (void)fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    return buf;
}

static void test_text(void)
{
    struct qqb_results res = {0};
    struct qqb_judgement j = {0};
    craft(&res, &j);
    CHECK_INT_EQ(qqb_judgement_figures(&j, &res), 0);
    struct qqb_report r = {
        .suite = "counts", .baseline_path = "crafted.yaml", .results = &res, .j = &j};
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp != NULL);
    if (fp) {
        qqb_report_print(fp, &r);
        fclose(fp);
        CHECK_STR_CONTAINS(text, "regressed: instructions +4.10% exact; cycles blind at this "
                                 "machine's noise (1,000 -> 1,041 instructions per hit (+41 exact))"
                                 " [instructions per launch 200,000 -> 208,200: calls 0, cost "
                                 "8,200] vs baseline");
        CHECK_STR_CONTAINS(text, "calls    990..1,010       995..1,005       +0.10% stats");
        CHECK_STR_CONTAINS(text, "qqbench: counts: 1 regressed (1 failing the run), 0 improved, "
                                 "1 unchanged, 0 noisy; 1 non-deterministic");
    }
    free(text);

    char err[512];
    CHECK(qqb_report_json("counts.json", &r, err, sizeof err) == 0);
    struct qqb_run run;
    CHECK(qqb_run_read("counts.json", &run, err, sizeof err) == 0);
    if (run.n_count_comparisons == 2) {
        const struct qqb_run_count *a = &run.count_comparisons[0], *b = &run.count_comparisons[1];
        CHECK_STR_EQ(a->figure, "instructions");
        CHECK_INT_EQ(a->exact, 1);
        CHECK_DBL_NEAR(a->before, 1000, 0);
        CHECK_DBL_NEAR(a->after, 1041, 0);
        CHECK_DBL_NEAR(a->cost_part, 8200, 0);
        CHECK_STR_EQ(a->cycles_verdict, "blind");
        CHECK_STR_EQ(b->figure, "calls");
        CHECK_INT_EQ(b->exact, 0);
        CHECK(isnan(b->before));
        CHECK_DBL_NEAR(b->before_min, 990, 0);
        CHECK_DBL_NEAR(b->after_max, 1005, 0);
    } else {
        TEST_FAIL_AT("counts.json: %zu count comparisons: %s", run.n_count_comparisons, err);
    }
    qqb_run_free(&run);
    /* Picture 1 draws the instructions beside the cycles of the key. */
    CHECK(qqb_report_write("counts.json", "counts-report", 1, err, sizeof err) == 0);
    char *dat = slurp("counts-report/change-baseline.dat"),
         *gp = slurp("counts-report/change-baseline.gp");
    CHECK(dat != NULL && gp != NULL);
    if (dat && gp) {
        CHECK_STR_CONTAINS(dat, "\tinstructions_pct\n");
        CHECK_STR_CONTAINS(dat, "blind; instructions +4.10%\t4.1\n");
        CHECK_STR_CONTAINS(gp, "'' using (X($9)):1 with points pt 12");
        CHECK_STR_CONTAINS(gp, "title 'instructions per hit'");
    }
    free(dat);
    free(gp);
    remove("counts-report/change-baseline.dat");
    remove("counts-report/change-baseline.gp");
    remove("counts-report/index.html");
    remove("counts-report");
    remove("counts.json");

    CHECK(qqb_report_junit("counts.xml", &r, err, sizeof err) == 0);
    FILE *x = fopen("counts.xml", "r");
    char buf[4096] = "";
    if (x) {
        size_t n = fread(buf, 1, sizeof buf - 1, x);
        buf[n] = '\0';
        fclose(x);
    }
    CHECK_STR_CONTAINS(buf, "name=\"instructions:step\"><failure message=\"regressed: 1,000 -&gt; "
                            "1,041 instructions per hit (+41 exact)\"/>");
    CHECK(strstr(buf, "calls:step") == NULL); /* not gated: not a test case */
    CHECK_STR_CONTAINS(buf, "tests=\"2\" failures=\"1\"");
    remove("counts.xml");
    qqb_judgement_free(&j);
    qqb_results_free(&res);
}

/* A hostile key (markup, quotes, an ampersand; the run JSON's reader
 * refuses a backquote) in the verdicts on counts reaches index.html's
 * counts table and JUnit only as text (qqb_markup_text), and the change
 * picture's script not at all. */
static void test_hostile_key(void)
{
    static const char hostile[] = "<script>x'\"&y";
    struct qqb_results res = {0};
    struct qqb_judgement j = {0};
    craft(&res, &j);
    j.cmp[0].key = hostile;
    j.counts[0].key = j.counts[1].key = hostile;
    j.counts[1].gated = 1;
    CHECK_INT_EQ(qqb_judgement_figures(&j, &res), 0);
    struct qqb_report r = {
        .suite = "counts", .baseline_path = "crafted.yaml", .results = &res, .j = &j};
    char err[512];
    CHECK(qqb_report_json("hostile.json", &r, err, sizeof err) == 0);
    if (qqb_report_write("hostile.json", "hostile-report", 1, err, sizeof err) != 0)
        TEST_FAIL_AT("report: %s", err);
    char *html = slurp("hostile-report/index.html"),
         *gp = slurp("hostile-report/change-baseline.gp");
    CHECK(html != NULL && gp != NULL);
    if (html && gp) {
        CHECK_STR_CONTAINS(html, "<h3>Counts: calls per launch and instructions per hit</h3>");
        CHECK_STR_CONTAINS(html, "<td>&lt;script&gt;x&#39;&quot;&amp;y</td>");
        CHECK(strstr(html, "<script>x") == NULL);
        CHECK(strstr(gp, "script") == NULL);
    }
    free(html);
    free(gp);
    CHECK(qqb_report_junit("hostile.xml", &r, err, sizeof err) == 0);
    char *xml = slurp("hostile.xml");
    CHECK(xml != NULL);
    if (xml) {
        CHECK_STR_CONTAINS(xml, "name=\"calls:&lt;script&gt;x&#39;&quot;&amp;y\">");
        CHECK(strstr(xml, "<script>x") == NULL);
    }
    free(xml);
    const char *const files[] = {"hostile-report/change-baseline.dat",
                                 "hostile-report/change-baseline.gp",
                                 "hostile-report/index.html",
                                 "hostile-report",
                                 "hostile.json",
                                 "hostile.xml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        remove(files[i]);
    qqb_judgement_free(&j);
    qqb_results_free(&res);
}

int main(void)
{
    RUN(test_text);
    RUN(test_hostile_key);
    return TEST_DONE();
}
