/* test_pictures_model.c - report/pictures_model.c on crafted "models" JSON, gnuplot not run: a
 * fit of one parameter becomes model_N.dat (this run's points with their residuals, the fitted
 * curve log-spaced over a sweep of a factor of 10 or more, the baseline's where it has one) and
 * model_N.gp (log x, the series and formula quoted), and a figure in the page with the names
 * escaped; what cannot be drawn (no array, a formula that does not parse, coefficients that do
 * not match it, no points) draws nothing and fails nothing; at most 256 points a set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "pictures_model.h"
#include "test.h"

/* The whole of DIR/NAME, or NULL (the caller frees). */
static char *slurp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = calloc(1, 1 << 20);
    if (b)
        (void)fread(b, 1, (1 << 20) - 1, f);
    fclose(f);
    return b;
}

/* Lines of S that start with a digit or '-' (data rows), between the
 * blank-line pairs: the count in gnuplot index IDX. */
static int rows_in_index(const char *s, int idx)
{
    int at = 0, n = 0;
    for (const char *p = s; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0 && e && e[1] == '\n') { /* "\n\n": the next index */
            at++;
            p = e + 2;
            continue;
        }
        if (at == idx && len && (p[0] == '-' || (p[0] >= '0' && p[0] <= '9')))
            n++;
        p = e ? e + 1 : p + len;
    }
    return n;
}

static json_t *model_row(const char *series, const char *formula, json_t *coef, json_t *points)
{
    json_t *cur = json_object();
    if (coef)
        json_object_set_new(cur, "coefficients", coef);
    if (points)
        json_object_set_new(cur, "points", points);
    json_t *row = json_pack("{s:s, s:s}", "series", series, "formula", formula);
    json_object_set_new(row, "current", cur);
    return row;
}

/* Points of 10 + 2n at n = 1, 10, 100, ... (N of them). */
static json_t *line_points(int n)
{
    json_t *a = json_array();
    double x = 1;
    for (int i = 0; i < n; i++, x *= (i % 3 ? 1 : 10)) {
        double y = 10 + 2 * (x + i);
        json_array_append_new(
            a, json_pack("{s:[f], s:f, s:f, s:f}", "x", x + i, "y", y, "sigma", 1.0, "fit", y));
    }
    return a;
}

static void test_nothing_to_draw(const char *dir)
{
    char err[256] = "";
    char sub[480];
    snprintf(sub, sizeof sub, "%s/none", dir);
    /* Not an array, empty: 0, and no folder made. */
    CHECK_INT_EQ(qqb_model_pictures(NULL, sub, 1, NULL, err, sizeof err), 0);
    json_t *empty = json_array();
    CHECK_INT_EQ(qqb_model_pictures(empty, sub, 1, NULL, err, sizeof err), 0);
    CHECK(access(sub, F_OK) != 0);
    json_decref(empty);
    /* Rows that cannot be drawn: skipped, each, and nothing written. */
    json_t *bad = json_array();
    json_array_append_new(bad,
                          model_row("a", "1 + (", json_pack("[f,f]", 1.0, 2.0), line_points(3)));
    json_array_append_new(bad, model_row("b", "1 + n", json_pack("[f]", 1.0), line_points(3)));
    json_array_append_new(bad, model_row("c", "1 + n", json_string("x"), line_points(3)));
    json_array_append_new(bad, model_row("d", "1 + n", json_pack("[f,f]", 1.0, 2.0), NULL));
    json_array_append_new(bad, json_string("not a row"));
    json_array_append_new(bad, json_pack("{s:i}", "formula", 3));
    CHECK_INT_EQ(qqb_model_pictures(bad, sub, 1, NULL, err, sizeof err), 0);
    char *s = slurp(sub, "model_1.dat");
    CHECK(s == NULL);
    free(s);
    s = slurp(sub, "model_4.gp");
    CHECK(s == NULL);
    free(s);
    json_decref(bad);
}

static void test_one_fit(const char *dir)
{
    char err[256] = "";
    json_t *models = json_array();
    json_array_append_new(models, model_row("chain <b>'x'\n", "1 + n",
                                            json_pack("[f,f]", 10.0, 2.0), line_points(6)));
    /* A baseline whose coefficients do not match: no baseline drawn. */
    json_t *second = model_row("p", "1 + n", json_pack("[f,f]", 10.0, 2.0), line_points(2));
    json_object_set_new(second, "baseline", json_pack("{s:[f]}", "coefficients", 1.0));
    json_array_append_new(models, second);
    char html_path[480];
    snprintf(html_path, sizeof html_path, "%s/page.html", dir);
    FILE *html = fopen(html_path, "w");
    CHECK_INT_EQ(qqb_model_pictures(models, dir, 1, html, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    if (html)
        fclose(html);
    char *d = slurp(dir, "model_1.dat"), *g = slurp(dir, "model_1.gp");
    char *h = slurp(dir, "page.html"), *d2 = slurp(dir, "model_2.dat");
    CHECK(d && g && h && d2);
    if (d && g && h && d2) {
        /* This run's 6 points, no baseline's, the curve's 201, none for the baseline. */
        CHECK_INT_EQ(rows_in_index(d, 0), 6);
        CHECK_INT_EQ(rows_in_index(d, 1), 0);
        CHECK_INT_EQ(rows_in_index(d, 2), 201);
        CHECK_INT_EQ(rows_in_index(d, 3), 0);
        /* The curve is the formula: 10 + 2n from the sweep's first x. */
        CHECK_STR_CONTAINS(d, "# the fitted curve of this run\n1\t12\n");
        /* A fit through every point: residuals of 0. */
        CHECK_STR_CONTAINS(d, "\t0\t");
        /* The sweep spans 100x: log x; the title quoted as one gnuplot string. */
        CHECK_STR_CONTAINS(g, "\nset logscale x\n");
        CHECK_STR_CONTAINS(
            g, "set multiplot layout 2,1 title 'chain <b>''x'' : 1 + n (net ticks per hit)'");
        CHECK_STR_CONTAINS(g, "set xlabel 'n'");
        /* The page: the names escaped, never markup. */
        CHECK(strstr(h, "<b>'x'") == NULL);
        CHECK_STR_CONTAINS(h, "chain &lt;b&gt;");
        CHECK_STR_CONTAINS(h, "id=\"model_1\"");
        CHECK_STR_CONTAINS(h, "id=\"model_2\"");
        /* The second row: two points, a baseline that did not match left out. */
        CHECK_INT_EQ(rows_in_index(d2, 0), 2);
        CHECK_INT_EQ(rows_in_index(d2, 1), 0);
    }
    free(d), free(g), free(h), free(d2);
    json_decref(models);
}

static void test_many_points(const char *dir)
{
    char err[256] = "", sub[480];
    snprintf(sub, sizeof sub, "%s/many", dir);
    json_t *pts = json_array();
    for (int i = 0; i < 300; i++)
        json_array_append_new(pts, json_pack("{s:[i], s:f, s:s, s:f}", "x", i + 1, "y",
                                             0.0 + (i % 2), "sigma", "not a number", "fit", 0.5));
    json_t *models = json_array();
    json_array_append_new(models, model_row("s", "1 + n", json_pack("[f,f]", 0.5, 0.0), pts));
    CHECK_INT_EQ(qqb_model_pictures(models, sub, 1, NULL, err, sizeof err), 0);
    char *d = slurp(sub, "model_1.dat");
    CHECK(d != NULL);
    if (d) {
        CHECK_INT_EQ(rows_in_index(d, 0), 256);
        /* y = 0: a residual of 0, not a division by it; a sigma that is no number: 0. */
        CHECK(strstr(d, "inf") == NULL && strstr(d, "nan\t") == strstr(d, "nan\tnan\tnan"));
        CHECK_STR_CONTAINS(d, "\n1\t0\t0\t0.5\t0\t0\n");
    }
    free(d);
    json_decref(models);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    char dir[400];
    snprintf(dir, sizeof dir, "%s/test_pictures_model.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        perror(dir);
        return 1;
    }
    test_nothing_to_draw(dir);
    printf("%s test_nothing_to_draw\n", test__failures ? "FAIL" : "ok  ");
    int before = test__failures;
    test_one_fit(dir);
    printf("%s test_one_fit\n", test__failures == before ? "ok  " : "FAIL");
    before = test__failures;
    test_many_points(dir);
    printf("%s test_many_points\n", test__failures == before ? "ok  " : "FAIL");
    return TEST_DONE();
}
