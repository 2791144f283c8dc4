/* test_qq_stat.c - ticks per hit: the estimator's bias on a simulated quantised clock, its rules,
 * and the calibration in the file. */
#define QQ_ENABLE 1
#include <stdint.h>
#include <stdlib.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"

/* splitmix64: a fixed seed, so every run sees the same numbers. */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uniform(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* A counter that advances in steps of STEP ticks, read at a random phase:
 * an interval of TRUE ticks reads as step * (floor((p + true) / step) -
 * floor(p / step)). OUTLIERS of every 1000 intervals get an interrupt's
 * 20,000 ticks added. */
static void simulate(double *v, size_t n, double truth, double step, int outliers)
{
    for (size_t i = 0; i < n; i++) {
        double p = uniform() * step;
        v[i] = step * (floor((p + truth) / step) - floor(p / step));
        if ((int)(i % 1000) < outliers)
            v[i] += 20000;
    }
}

static double median_of(double *v, size_t n)
{
    double *c = malloc(n * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && c[j - 1] > c[j]; j--) {
            double t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

/* The mean of quantised intervals is unbiased, outliers or not; the median
 * (and any percentile) is a quantisation level. */
static void test_mean_unbiased_on_quantised_clock(void)
{
    enum { N = 20000 };
    static double v[N];
    const double steps[] = {21, 26, 2};
    const double truths[] = {0.5, 7.3, 30.3, 63.7, 140.2};
    for (size_t si = 0; si < sizeof steps / sizeof steps[0]; si++) {
        for (size_t ti = 0; ti < sizeof truths / sizeof truths[0]; ti++) {
            double s = steps[si], t = truths[ti];
            simulate(v, N, t, s, 5); /* 0.5% interrupts */
            int rule;
            size_t kept;
            double est = qq_per_hit(v, N, qq_short_ticks(2600, s), s, &rule, &kept);
            CHECK_INT_EQ(rule, QQ_HIT_MEAN);
            /* 100 outliers, all of them left out, nothing else. */
            CHECK_INT_EQ(N - kept, N / 1000 * 5);
            /* Standard error <= step/2/sqrt(N) = 0.0035 steps: 0.05 steps
             * is 14 standard errors. */
            CHECK_DBL_NEAR(est, t, 0.05 * s);
            printf("  step %4.0f  true %6.1f  fenced mean %8.3f  median %6.1f\n", s, t, est,
                   median_of(v, N));
        }
    }
    /* The median is biased where the interval is not a whole number of
     * steps: 30.3 ticks at step 21 reads 21 or 42, median one of them. */
    simulate(v, N, 30.3, 21, 0);
    double med = median_of(v, N);
    CHECK(fabs(med - 30.3) > 5);
}

static void test_rules(void)
{
    double v[20];
    int rule;
    size_t kept;
    /* No interval. */
    CHECK_DBL_NEAR(qq_per_hit(v, 0, 1000, 2, &rule, &kept), 0, 0);
    CHECK_INT_EQ(rule, QQ_HIT_NONE);
    CHECK_INT_EQ(kept, 0);
    /* Long, 20 intervals 1000..1019 shuffled: the element at n/10 = 1002. */
    for (int i = 0; i < 20; i++)
        v[i] = 1000 + (i * 7) % 20;
    CHECK_DBL_NEAR(qq_per_hit(v, 20, 500, 2, &rule, &kept), 1002, 0);
    CHECK_INT_EQ(rule, QQ_HIT_P10);
    CHECK_INT_EQ(kept, 20);
    /* Long, 5 intervals: the median, not the minimum. */
    double w[5] = {1300, 1000, 1200, 1100, 9000};
    CHECK_DBL_NEAR(qq_per_hit(w, 5, 500, 2, &rule, &kept), 1200, 0);
    CHECK_INT_EQ(rule, QQ_HIT_MEDIAN);
    /* Short: median 51, the fence 4 x 51 + 16 steps = 236. */
    double x[8] = {50, 48, 52, 50, 236, 237, 5000, 50};
    double est = qq_per_hit(x, 8, 1000, 2, &rule, &kept);
    CHECK_INT_EQ(rule, QQ_HIT_MEAN);
    CHECK_INT_EQ(kept, 6);
    CHECK_DBL_NEAR(est, (48 + 50 + 50 + 50 + 52 + 236) / 6.0, 1e-12);
    /* One interval, short: itself. */
    double y[1] = {42};
    CHECK_DBL_NEAR(qq_per_hit(y, 1, 1000, 21, &rule, NULL), 42, 0);
    CHECK_INT_EQ(rule, QQ_HIT_MEAN);
}

static void test_short_bound(void)
{
    CHECK_DBL_NEAR(qq_short_ticks(2600, 2), 2600, 1e-9);   /* 1 us of ticks */
    CHECK_DBL_NEAR(qq_short_ticks(2600, 100), 5000, 1e-9); /* 50 coarse steps */
    CHECK_DBL_NEAR(qq_short_ticks(0, 21), 1050, 1e-9);
    CHECK_DBL_NEAR(qq_short_ticks(0, 0), 0, 0);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    *len = (size_t)ftell(fp);
    rewind(fp);
    unsigned char *p = malloc(*len);
    if (fread(p, 1, *len, fp) != *len) {
        free(p);
        p = NULL;
    }
    fclose(fp);
    return p;
}

/* Offset of the first section with TAG, or 0. */
static size_t find_section(const unsigned char *d, size_t len, uint32_t tag)
{
    size_t pos = QQ__HEADER_SIZE;
    while (pos + QQ__SECTION_HEAD <= len) {
        uint32_t t = (uint32_t)d[pos] | (uint32_t)d[pos + 1] << 8 | (uint32_t)d[pos + 2] << 16 |
                     (uint32_t)d[pos + 3] << 24;
        uint64_t l = 0;
        for (int i = 7; i >= 0; i--)
            l = l << 8 | d[pos + 8 + i];
        if (t == tag)
            return pos;
        pos += QQ__SECTION_HEAD + l;
    }
    return 0;
}

/* QQInit calibrates the reads the program uses and the file carries it;
 * the reader's net figure is the raw one minus the calibrated cost. */
static void test_calibration_in_file(void)
{
    QQInit(1000);
    int s = QQAddState("empty");
    for (int i = 0; i < 200; i++) {
        QQStateOn(s);
        QQStateOff(s);
    }
    CHECK_INT_EQ(qq_out("cal.qq", 0, 1), 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("cal.qq", &f), 0);
    struct qq_calib c;
    CHECK_INT_EQ(qq_file_calib(f, 0, &c), 1);
    CHECK_INT_EQ(c.ordered, QQ_ORDERED);
    CHECK_INT_EQ(c.samples, 4096);
    /* Not > 0: where a counter step exceeds the empty state's cost (a
     * coarse counter, 62.5 MHz on aarch64; a step of 40 ticks) the
     * shortest empty interval reads 0. */
    CHECK(c.empty_min >= 0);
    CHECK(c.empty_min <= c.empty_median);
    CHECK(c.empty_min <= c.empty_typical);
    CHECK(c.step >= 0);
    struct qq_hit_stat h[1];
    CHECK_INT_EQ(qq_file_hit_stats(f, 0, h), 0);
    CHECK_U64_EQ(h[0].intervals, 200);
    CHECK(h[0].kept >= 1 && h[0].kept <= 200);
    CHECK_DBL_NEAR(h[0].net, h[0].raw - c.empty_typical, 1e-9);
    CHECK_INT_EQ(qq_file_hit_stats(f, 1, h), QQ_EINVAL);
    CHECK_INT_EQ(qq_file_calib(f, 1, &c), 0);
    qq_file_close(f);
}

/* A file without the section (an older writer: here the tag renamed, so
 * the reader skips it as an unknown extension) reads, with net == raw; a
 * damaged calibration is refused with a message. */
static void test_calibration_absent_or_damaged(void)
{
    size_t len;
    unsigned char *d = slurp("cal.qq", &len);
    CHECK(d != NULL);
    if (!d)
        return;
    size_t at = find_section(d, len, QQ__TAG_CALB);
    CHECK(at != 0);
    unsigned char *e = malloc(len);
    struct qq_file *f;
    struct qq_calib c;
    struct qq_hit_stat h[1];

    memcpy(e, d, len);
    memcpy(e + at, "XCAL", 4);
    CHECK_INT_EQ(qq_file_open_mem(e, len, "old", &f), 0);
    CHECK_INT_EQ(qq_file_calib(f, 0, &c), 0);
    CHECK_INT_EQ(qq_file_hit_stats(f, 0, h), 0);
    CHECK_DBL_NEAR(h[0].net, h[0].raw, 0);
    qq_file_close(f);

    /* empty_typical (payload bytes 16..23) = NaN */
    memcpy(e, d, len);
    memset(e + at + QQ__SECTION_HEAD + 16, 0xff, 8);
    CHECK_INT_EQ(qq_file_open_mem(e, len, "nan", &f), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "calibration of node 0");
    qq_file_close(f);

    /* ordered = 7 */
    memcpy(e, d, len);
    e[at + QQ__SECTION_HEAD] = 7;
    CHECK_INT_EQ(qq_file_open_mem(e, len, "mode", &f), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "inconsistent");
    qq_file_close(f);
    free(e);
    free(d);
}

/* The calibrated empty state is a figure only above the counter's
 * resolution: half a step, at least one tick. */
static void test_calib_resolved(void)
{
    struct qq_calib c = {.ordered = 1, .samples = 4096}; /* every interval 0 ticks */
    CHECK_INT_EQ(qq_calib_resolved(&c), 0);
    c.empty_typical = 0.02;
    c.step = 1;
    CHECK_INT_EQ(qq_calib_resolved(&c), 0); /* qemu-user's 62.5 MHz */
    c.empty_typical = 1.0;
    CHECK_INT_EQ(qq_calib_resolved(&c), 0); /* at the resolution */
    c.empty_typical = 1.5;
    CHECK_INT_EQ(qq_calib_resolved(&c), 1);
    c.step = 26;
    c.empty_typical = 13.0;
    CHECK_INT_EQ(qq_calib_resolved(&c), 0); /* half of a 26-tick step */
    c.empty_typical = 14.0;
    CHECK_INT_EQ(qq_calib_resolved(&c), 1);
    c.step = 2;
    c.empty_typical = 52.5;
    CHECK_INT_EQ(qq_calib_resolved(&c), 1);
}

int main(void)
{
    RUN(test_mean_unbiased_on_quantised_clock);
    RUN(test_rules);
    RUN(test_short_bound);
    RUN(test_calibration_in_file);
    RUN(test_calibration_absent_or_damaged);
    RUN(test_calib_resolved);
    return TEST_DONE();
}
