/* test_model_print.c - report/model_print.c, what 'qqbench model' prints (figures crafted): a
 * fit's header with its counts (one point, not "1 points"), each term's coefficient, standard
 * error and t (infinite where the error is 0), chi2 and R2, every point named by its parameters
 * ("n=1000,m=5"; "-" for a model of none) measured against fitted with its residual; a
 * prediction with its interval; growth against a baseline, the terms that grew marked and the
 * verdict said. */
#include <stdio.h>
#include <string.h>

#include "model_print.h"
#include "test.h"

static char out[8192];

static FILE *open_out(void)
{
    memset(out, 0, sizeof out);
    return fmemopen(out, sizeof out - 1, "w");
}

static struct qqb_model parse(const char *text)
{
    struct qqb_model m;
    char err[200];
    int col;
    memset(&m, 0, sizeof m);
    if (qqb_model_parse(text, &m, err, sizeof err, &col) != 0)
        TEST_FAIL_AT("parse \"%s\": %s", text, err);
    return m;
}

static void test_fit(void)
{
    struct qqb_model m = parse("1 + n + m");
    struct qqb_model_series s = {.label = "pack"};
    double x[] = {1000, 5, 2000, 5, 4000, 10}, y[] = {1012, 2012, 4020}, sg[] = {1, 2, 0.5};
    struct qqb_model_points p = {.n = 3, .x = x, .y = y, .sigma = sg, .nobs = 12};
    struct qqb_fit f = {.n = 3,
                        .p = 3,
                        .weighted = 1,
                        .c = {2, 1, 2},
                        .se = {0.5, 0, 1},
                        .chisq = 1.5,
                        .dof = 0,
                        .r2 = 0.999999};
    FILE *fp = open_out();
    if (!fp)
        return;
    qqb_model_print_fit(fp, &m, &s, &p, &f);
    fclose(fp);
    CHECK_STR_CONTAINS(out,
                       "pack: 3 points, 12 observations, weighted by the spread at each point\n");
    /* t = c / se: 4, infinite with no error, 2. */
    CHECK_STR_CONTAINS(out, "  1                             2          0.5     4.00\n");
    CHECK_STR_CONTAINS(out, "  n                             1            0      inf\n");
    /* No degrees of freedom: chi2/dof is no figure. */
    CHECK_STR_CONTAINS(out, "  chi2 1.5 on 0 dof (chi2/dof nan), R2 0.999999\n");
    /* Each point by its parameters: 2 + 1000 + 2*5 = 1012 fitted, measured 1012. */
    CHECK_STR_CONTAINS(
        out, "  n=1000,m=5                         1012            1           1012     0.00%\n");
    /* 2 + 4000 + 20 = 4022 fitted against 4020: -0.05%. */
    CHECK_STR_CONTAINS(
        out, "  n=4000,m=10                        4020          0.5           4022    -0.05%\n");

    /* One point, unweighted, a model of no parameter. */
    struct qqb_model c = parse("1");
    double x1[] = {0}, y1[] = {7};
    struct qqb_model_points p1 = {.n = 1, .x = x1, .y = y1, .nobs = 1};
    struct qqb_fit f1 = {.n = 1, .p = 1, .c = {7}, .se = {0}, .dof = 1};
    fp = open_out();
    if (!fp)
        return;
    qqb_model_print_fit(fp, &c, &s, &p1, &f1);
    fclose(fp);
    CHECK_STR_CONTAINS(out, "pack: 1 point, 1 observation, unweighted\n");
    CHECK_STR_CONTAINS(
        out, "\n  -                                     7            -              7     0.00%\n");
}

static void test_predict_growth(void)
{
    FILE *fp = open_out();
    if (!fp)
        return;
    qqb_model_print_predict(fp, "n=8000", 16022.4, 31.25, 0.95);
    fclose(fp);
    CHECK_STR_EQ(out, "  predicted at n=8000: 16022.4 +- 31.2 (95% interval of the fitted curve; "
                      "a wrong model is not in it)\n");

    struct qqb_model m = parse("1 + n + n^2");
    struct qqb_fit bf = {.c = {2, 1, 0}}, f = {.c = {2, 1, 0.01}};
    struct qqb_growth g = {.z = {0, 0.5, 7.25}, .flagged = {0, 0, 1}, .regressed = 1};
    fp = open_out();
    if (!fp)
        return;
    qqb_model_print_growth(fp, &m, "v1.0", &bf, &f, &g, 0.5, 1e-9, 3);
    fclose(fp);
    CHECK_STR_CONTAINS(out, "  growth against v1.0:\n");
    CHECK_STR_CONTAINS(out, "  n^2                           0           0.01     7.25  GREW\n");
    CHECK_STR_CONTAINS(out, "  n                             1              1     0.50\n");
    CHECK_STR_CONTAINS(out, "baseline 0.5, current 1e-09\n");
    CHECK_STR_CONTAINS(out, "  REGRESSED: the growth changed (a coefficient rose by more than 3 "
                            "combined standard errors)\n");
    g.regressed = 0;
    g.flagged[2] = 0;
    fp = open_out();
    if (!fp)
        return;
    qqb_model_print_growth(fp, &m, "v1.0", &bf, &f, &g, 0.5, 0.5, 3);
    fclose(fp);
    CHECK(strstr(out, "GREW") == NULL && strstr(out, "REGRESSED") == NULL);
    CHECK_STR_CONTAINS(out, "  growth unchanged\n");
}

int main(void)
{
    RUN(test_fit);
    RUN(test_predict_growth);
    return TEST_DONE();
}
