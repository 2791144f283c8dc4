/* test_pic_util.c - report/pic_util.c, the run report's shared helpers: round steps (1, 2 or 5
 * times a power of ten, the smallest that cuts a span into at most N) and the axis tics built on
 * them (one plain unit per axis, ns/µs/ms/s or k/M/G, each label the figure at its place), on
 * fixed and on seeded ranges; short and file-safe names; byte sizes; quartiles; verdict classes
 * and words per comparison kind; picture stems kept apart; the multiplot grid. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pic.h"
#include "test.h"

/* Is S 1, 2 or 5 times a power of ten? */
static int round_figure(double s)
{
    if (!(s > 0) || !isfinite(s))
        return 0;
    double p = pow(10, floor(log10(s) + 1e-12)), m = s / p;
    return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9;
}

/* The round figure below S (5 -> 2, 2 -> 1, 1 -> 0.5). */
static double round_below(double s)
{
    double p = pow(10, floor(log10(s) + 1e-12)), m = s / p;
    return m < 1.5 ? 0.5 * p : m < 3 ? p : 2 * p;
}

static void test_round_step(void)
{
    CHECK_DBL_NEAR(pic_round_step(10, 5), 2, 1e-12);
    CHECK_DBL_NEAR(pic_round_step(5, 5), 1, 1e-12); /* exactly 1 a step: 1, not 2 */
    CHECK_DBL_NEAR(pic_round_step(7, 5), 2, 1e-12);
    CHECK_DBL_NEAR(pic_round_step(0.3, 5), 0.1, 1e-15);
    CHECK_DBL_NEAR(pic_round_step(26, 5), 10, 1e-12);
    CHECK_DBL_NEAR(pic_round_step(4e6, 4), 1e6, 1e-6);
    /* Not a positive figure, or no step allowed: 1. */
    CHECK(pic_round_step(0, 5) == 1 && pic_round_step(-3, 5) == 1);
    CHECK(pic_round_step(NAN, 5) == 1 && pic_round_step(INFINITY, 5) == 1);
    CHECK(pic_round_step(10, 0) == 1);
    /* Seeded spans over 24 decades: round, at most MOST steps, and the round
     * figure below it would take more. */
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        double span = pow(10, (double)(test_rand(&seed) % 2400000) / 100000.0 - 12);
        int most = 1 + (int)(test_rand(&seed) % 8);
        double s = pic_round_step(span, most);
        if (!round_figure(s) || span / s > most * (1 + 1e-9) ||
            span / round_below(s) <= most * (1 - 1e-9))
            bad++;
    }
    CHECK_INT_EQ(bad, 0);
}

/* The figure a label reads in its unit: "196 µs" -> 196, "39.8k" -> 39.8, "0" -> 0. */
static double label_figure(const char *l)
{
    return strtod(l, NULL);
}

static void test_tics_fixed(void)
{
    struct pic_tics t;
    /* 195..205 µs in ns: µs, a step of 2, 196 to 204. */
    CHECK_INT_EQ(pic_tics(195000, 205000, PIC_TIME_NS, &t), 0);
    CHECK_STR_EQ(t.unit, " \xc2\xb5s");
    CHECK_DBL_NEAR(t.step, 2, 1e-12);
    CHECK(t.n == 5 && !strcmp(t.label[0], "196 \xc2\xb5s") && !strcmp(t.label[4], "204 \xc2\xb5s"));
    CHECK_DBL_NEAR(t.at[0], 196000, 1e-6);
    /* Cycles 0..39.8k: k, "0" for zero. */
    CHECK_INT_EQ(pic_tics(0, 39800, PIC_COUNT, &t), 0);
    CHECK_STR_EQ(t.unit, "k");
    CHECK(t.n == 4 && !strcmp(t.label[0], "0") && !strcmp(t.label[3], "30k"));
    /* 1.5M..1.62M: a step of 0.05M, two decimals, as the step needs. */
    CHECK_INT_EQ(pic_tics(1.5e6, 1.62e6, PIC_COUNT, &t), 0);
    CHECK(t.n >= 2 && !strcmp(t.label[0], "1.50M") && !strcmp(t.label[1], "1.55M"));
    /* Below a unit's 1: the unit under it (999 ns, not 0.999 µs). */
    CHECK_INT_EQ(pic_tics(900, 999, PIC_TIME_NS, &t), 0);
    CHECK_STR_EQ(t.unit, " ns");
    /* Past the largest unit: still seconds (3000 s). */
    CHECK_INT_EQ(pic_tics(1e12, 3e12, PIC_TIME_NS, &t), 0);
    CHECK_STR_EQ(t.unit, " s");
    CHECK_STR_EQ(t.label[t.n - 1], "3000 s");
    /* Across zero: signed labels, zero as "0". */
    CHECK_INT_EQ(pic_tics(-5, 5, PIC_COUNT, &t), 0);
    CHECK(t.n == 5 && !strcmp(t.label[0], "-4") && !strcmp(t.label[2], "0"));
    /* Empty, reversed, not finite, too narrow for its figures: -1. */
    CHECK_INT_EQ(pic_tics(5, 5, PIC_COUNT, &t), -1);
    CHECK_INT_EQ(pic_tics(6, 5, PIC_COUNT, &t), -1);
    CHECK_INT_EQ(pic_tics(NAN, 5, PIC_COUNT, &t), -1);
    CHECK_INT_EQ(pic_tics(0, INFINITY, PIC_TIME_NS, &t), -1);
    CHECK_INT_EQ(pic_tics(1e18, 1e18 + 1e3, PIC_COUNT, &t), -1);
    CHECK_INT_EQ(t.n, 0);
}

static void test_tics_seeded(void)
{
    uint64_t seed = 12345;
    int bad = 0, done = 0;
    for (int i = 0; i < 20000; i++) {
        double lo = pow(10, (double)(test_rand(&seed) % 1000000) / 100000.0);
        double width = lo * pow(10, (double)(test_rand(&seed) % 400000) / 100000.0 - 3);
        enum pic_scale sc = (test_rand(&seed) & 1) ? PIC_TIME_NS : PIC_COUNT;
        struct pic_tics t;
        if (pic_tics(lo, lo + width, sc, &t) != 0) {
            bad++;
            continue;
        }
        done++;
        /* 2 to 6 tics inside the range, a round step, each label its place. */
        int ok = t.n >= 2 && t.n <= 6 && round_figure(t.step);
        for (size_t k = 0; k < t.n && ok; k++) {
            ok = t.at[k] >= lo * (1 - 1e-9) && t.at[k] <= (lo + width) * (1 + 1e-9) &&
                 fabs(label_figure(t.label[k]) * t.unit_size - t.at[k]) <=
                     1e-6 * fmax(1, fabs(t.at[k])) &&
                 !strchr(t.label[k], 'e') && (k == 0 || t.at[k] > t.at[k - 1]);
        }
        /* The unit reads the range's top figure from 1 up. */
        ok = ok && (lo + width) / t.unit_size >= 1;
        bad += !ok;
    }
    CHECK_INT_EQ(bad, 0);
    CHECK_INT_EQ(done, 20000);
}

static void test_names(void)
{
    char b[64];
    struct rcase c = {.name = "channel[pow]@1", .bench = "channel"};
    pic_short_name(b, sizeof b, &c);
    CHECK_STR_EQ(b, "pow @1");
    c = (struct rcase){.name = "p[n=1000]@1 (reference build)", .bench = "p"};
    pic_short_name(b, sizeof b, &c);
    CHECK_STR_EQ(b, "n=1000 @1 (reference build)");
    c = (struct rcase){.name = "p@2", .bench = "p"};
    pic_short_name(b, sizeof b, &c);
    CHECK_STR_EQ(b, "@2");
    /* Another bench's name, or one the bench only starts: whole. */
    c = (struct rcase){.name = "pack@1", .bench = "p"};
    pic_short_name(b, sizeof b, &c);
    CHECK_STR_EQ(b, "pack@1");
    c = (struct rcase){.name = "[]", .bench = NULL};
    pic_short_name(b, sizeof b, &c);
    CHECK_STR_EQ(b, " ");
    c = (struct rcase){.name = "channel[pow]@1", .bench = "channel"};
    pic_short_name(b, 4, &c);
    CHECK_STR_EQ(b, "pow");

    pic_safe_name(b, sizeof b, "a b/c.d\xc3\xa9-_9");
    CHECK_STR_EQ(b, "a_b_c_d__-_9");
    pic_safe_name(b, sizeof b, NULL);
    CHECK_STR_EQ(b, "");
    pic_safe_name(b, 4, "abcdef");
    CHECK_STR_EQ(b, "abc");
}

static void test_numbers(void)
{
    char b[32];
    pic_fmt_bytes(b, sizeof b, 0);
    CHECK_STR_EQ(b, "0 B");
    pic_fmt_bytes(b, sizeof b, 1023);
    CHECK_STR_EQ(b, "1023 B");
    pic_fmt_bytes(b, sizeof b, 1024);
    CHECK_STR_EQ(b, "1.0 KB");
    pic_fmt_bytes(b, sizeof b, 1536);
    CHECK_STR_EQ(b, "1.5 KB");
    pic_fmt_bytes(b, sizeof b, 3.2 * 1024 * 1024);
    CHECK_STR_EQ(b, "3.2 MB");
    pic_fmt_bytes(b, sizeof b, NAN);
    CHECK_STR_EQ(b, "-");
    /* A size that rounds up to the next unit reads in it: never "1024.0 KB". */
    pic_fmt_bytes(b, sizeof b, 1024.0 * 1024 - 1);
    CHECK_STR_EQ(b, "1.0 MB");
    pic_fmt_bytes(b, sizeof b, 1024.0 * 1024 - 52);
    CHECK_STR_EQ(b, "1023.9 KB");
    pic_fmt_bytes(b, sizeof b, 1023.7);
    CHECK_STR_EQ(b, "1.0 KB");

    double q[5];
    CHECK_INT_EQ(pic_five(NULL, 0, q), -1);
    CHECK(isnan(q[0]) && isnan(q[2]) && isnan(q[4]));
    const double v[] = {3, 1, 2, 5, 4};
    CHECK_INT_EQ(pic_five(v, 5, q), 0);
    CHECK(q[0] == 1 && q[2] == 3 && q[4] == 5 && q[1] >= 1 && q[1] <= q[2] && q[3] >= q[2] &&
          q[3] <= 5);
    const double one[] = {7};
    CHECK_INT_EQ(pic_five(one, 1, q), 0);
    CHECK(q[0] == 7 && q[1] == 7 && q[2] == 7 && q[3] == 7 && q[4] == 7);
}

static void test_verdicts(void)
{
    CHECK_INT_EQ(pic_vclass_of("regressed"), V_REGRESSED);
    CHECK_INT_EQ(pic_vclass_of("blind"), V_BLIND);
    CHECK_INT_EQ(pic_vclass_of("Regressed"), V_OTHER);
    CHECK_INT_EQ(pic_vclass_of(NULL), V_OTHER);
    /* Every class its own colour and shape, and a name of its own. */
    for (int a = 0; a < NCLASS; a++)
        for (int b = a + 1; b < NCLASS; b++)
            CHECK(strcmp(pic_vstyle[a].color, pic_vstyle[b].color) != 0 &&
                  pic_vstyle[a].pt != pic_vstyle[b].pt &&
                  strcmp(pic_vstyle[a].name, pic_vstyle[b].name) != 0);
    /* A/B rows say slower and faster; gating rows say the verdict. */
    struct rcmp c = {.kind = "ab", .verdict = "regressed"};
    CHECK_STR_EQ(pic_verdict_word(&c), "slower");
    c.verdict = "improved";
    CHECK_STR_EQ(pic_verdict_word(&c), "faster");
    c.verdict = "something new";
    CHECK_STR_EQ(pic_verdict_word(&c), "something new");
    c.kind = "build";
    c.verdict = "improved";
    CHECK_STR_EQ(pic_verdict_word(&c), "improved");
    c.kind = "baseline";
    c.verdict = NULL;
    CHECK_STR_EQ(pic_verdict_word(&c), "n/a");

    char b[160];
    CHECK_STR_EQ(pic_kind_title("build", b, sizeof b), "Against the reference build");
    CHECK_STR_EQ(pic_kind_title("baseline", b, sizeof b), "Against the baseline");
    CHECK_STR_EQ(pic_kind_title("odd", b, sizeof b), "Comparisons of kind 'odd'");
}

static void test_pictures(void)
{
    struct rep *r = calloc(1, sizeof *r);
    if (!r) {
        TEST_FAIL_AT("out of memory");
        return;
    }
    /* Stems that met after being made file-safe stay apart. */
    struct pic *a = pic_new(r, 2, "samples-p_x");
    struct pic *b = pic_new(r, 2, "samples-p_x");
    struct pic *c = pic_new(r, 2, "samples-p_x");
    CHECK(a && b && c);
    if (a && b && c) {
        CHECK_STR_EQ(a->stem, "samples-p_x");
        CHECK_STR_EQ(b->stem, "samples-p_x-2");
        CHECK_STR_EQ(c->stem, "samples-p_x-3");
        CHECK_INT_EQ(b->section, 2);
    }
    while (r->npics < MAX_PICS)
        CHECK(pic_new(r, 1, "x") != NULL);
    CHECK(pic_new(r, 1, "y") == NULL);
    CHECK_INT_EQ(r->npics, MAX_PICS);
    free(r);

    int rows, cols;
    pic_grid(1, &rows, &cols);
    CHECK(rows == 1 && cols == 1);
    pic_grid(2, &rows, &cols);
    CHECK(rows == 1 && cols == 2);
    pic_grid(5, &rows, &cols);
    CHECK(rows == 3 && cols == 2);
}

int main(void)
{
    RUN(test_round_step);
    RUN(test_tics_fixed);
    RUN(test_tics_seeded);
    RUN(test_names);
    RUN(test_numbers);
    RUN(test_verdicts);
    RUN(test_pictures);
    return TEST_DONE();
}
