/* test_qq_tune.c - QQTune: a planted candidate is found, the trials are spread over ranks, the
 * TUNE record read back, damaged records refused; its choice against an exhaustive sweep, in
 * simulation. */
#define QQ_ENABLE 1
#include <float.h>
#include <unistd.h>

#include "qq_file_internal.h" /* the TUNE layout, qq__tune_trials and qq__tune_pick */
#include "test.h"

/* ---------------------------------------------------------------------
 * Which candidates a rank times.
 * --------------------------------------------------------------------- */

/* Every candidate is timed by some rank, every rank makes the same number
 * of calls, and no rank times a candidate twice while some candidate is
 * left to it. */
static void test_slots(void)
{
    for (int n = 1; n <= 9; n++)
        for (int size = 1; size <= 8; size++) {
            int slots = qq__tune_slots(n, size), seen[9] = {0};
            CHECK_INT_EQ(slots, (n + size - 1) / size);
            for (int r = 0; r < size; r++)
                for (int s = 0; s < slots; s++) {
                    int i = qq__tune_slot_index(n, r, size, s);
                    CHECK(i >= 0 && i < n);
                    if (i >= 0 && i < n)
                        seen[i]++;
                }
            for (int i = 0; i < n; i++)
                CHECK(seen[i] >= 1);
            if (n % size == 0)
                for (int i = 0; i < n; i++)
                    CHECK_INT_EQ(seen[i], 1);
        }
    CHECK_INT_EQ(qq__tune_slots(0, 2), 0);
}

static void test_pick(void)
{
    const double t[] = {3, 2, 5, 2, DBL_MAX};
    CHECK_INT_EQ(qq__tune_pick(t, 5), 1); /* the first of a tie */
    CHECK_INT_EQ(qq__tune_pick(t, 1), 0);
}

/* ---------------------------------------------------------------------
 * A planted candidate, timed for real.
 * --------------------------------------------------------------------- */

struct plant {
    int planted;
    long calls;
    double sink;
};

/* The planted candidate does one unit of dependent work, every other
 * five: it loses only if every one of its calls (~0.3 ms) is preempted,
 * p ~ 0.1 a call on a loaded machine: 7 calls (6 for "second") leave
 * 1e-6 a tuning, where 3 left 1e-3 and 2 left 1e-2. */
static void planted_work(int value, void *p)
{
    struct plant *w = p;
    long units = value == w->planted ? 1 : 5;
    double x = w->sink;
    for (long i = 0; i < units * 200000; i++)
        x = x * 0.999999 + 1e-9;
    w->sink = x;
    w->calls++;
}

static const int cand[] = {32, 4, 8, 16, 64, 128, 256};
#define NCAND 7

static void test_planted(void)
{
    const int plants[] = {32, 16, 256};
    for (int p = 0; p < 3; p++) {
        struct plant w = {plants[p], 0, 1.0};
        int got = QQTune("plant", cand, NCAND, 7, planted_work, &w);
        CHECK_INT_EQ(got, plants[p]);
        CHECK_INT_EQ(w.calls, 7 * NCAND); /* one rank: every candidate, every round */
    }
    /* What QQTune returns when it cannot time. */
    struct plant w = {4, 0, 1.0};
    CHECK_INT_EQ(QQTune("one", cand + 1, 1, 3, planted_work, &w), 4);
    CHECK_INT_EQ(QQTune("none", cand, 0, 3, planted_work, &w), 0);
    CHECK_INT_EQ(w.calls, 0);
}

/* The record of the last "plant" (planted 256) and of "second" (planted
 * 8), written and read back: three tunings of "plant" left one record. */
static void test_read_back(void)
{
    struct plant w = {8, 0, 1.0};
    CHECK_INT_EQ(QQTune("second", cand, NCAND, 6, planted_work, &w), 8);
    CHECK_INT_EQ(qq_out("tune.qq", 0, 1), 0);
    struct qq_file *f = NULL;
    CHECK_INT_EQ(qq_file_open("tune.qq", &f), 0);
    CHECK_INT_EQ(qq_file_ntunes(f), 2);
    const struct qq_tune_info *t = qq_file_tune(f, 0);
    CHECK(qq_file_tune(f, 2) == NULL);
    if (t) {
        CHECK_STR_EQ(t->name, "plant");
        CHECK_INT_EQ(t->ncand, NCAND);
        CHECK_INT_EQ(t->cand[t->choice].value, 256);
        CHECK_INT_EQ(t->nodes, 1);
        CHECK_INT_EQ(t->reps, 7);
        for (uint32_t c = 0; c < t->ncand; c++) {
            CHECK_INT_EQ(t->cand[c].value, cand[c]);
            CHECK_INT_EQ(t->cand[c].runs, 7);
            CHECK_INT_EQ(t->cand[c].node, 0);
            CHECK(t->cand[c].seconds > 0);
            CHECK(t->cand[c].seconds >= t->cand[t->choice].seconds);
        }
    }
    const struct qq_tune_info *s = qq_file_tune(f, 1);
    if (s) {
        CHECK_STR_EQ(s->name, "second");
        CHECK_INT_EQ(s->cand[s->choice].value, 8);
        CHECK_INT_EQ(s->reps, 6);
    }
    /* The trials are states of the file too: "second=8" ran twice. */
    int found = 0;
    for (uint32_t k = 0; k < qq_file_nkeys(f); k++)
        if (!strcmp(qq_file_key(f, k)->name, "second=8")) {
            found = 1;
            CHECK_INT_EQ(qq_file_key(f, k)->type, QQ_TYPE_STATE);
        }
    CHECK(found);
    qq_file_close(f);
}

/* ---------------------------------------------------------------------
 * Damaged records: one line naming the record, QQ_ECORRUPT, for the file
 * read whole and streamed alike.
 * --------------------------------------------------------------------- */

static unsigned char *slurp(const char *name, size_t *len)
{
    FILE *fp = fopen(name, "rb");
    unsigned char *p = NULL;
    *len = 0;
    if (fp && fseek(fp, 0, SEEK_END) == 0) {
        long n = ftell(fp);
        p = n > 0 ? malloc((size_t)n) : NULL;
        rewind(fp);
        if (p && fread(p, 1, (size_t)n, fp) != (size_t)n) {
            free(p);
            p = NULL;
        }
        *len = p ? (size_t)n : 0;
    }
    if (fp)
        fclose(fp);
    return p;
}

/* The offset of the first TUNE section's payload in D. */
static size_t tune_at(const unsigned char *d, size_t len)
{
    for (size_t pos = QQ__HEADER_SIZE; pos + QQ__SECTION_HEAD <= len;
         pos += QQ__SECTION_HEAD + (size_t)ld64(d + pos + 8))
        if (ld32(d + pos) == QQ__TAG_TUNE)
            return pos + QQ__SECTION_HEAD;
    return 0;
}

/* D with the MUT-th change at the first TUNE payload (P), opened both ways. */
static void expect_refused(const unsigned char *d, size_t len, const char *want)
{
    struct qq_file *f = NULL;
    CHECK_INT_EQ(qq_file_open_mem(d, len, "bad.qq", &f), QQ_ECORRUPT);
    const char *m = qq_file_errmsg(f);
    CHECK_STR_CONTAINS(m, "bad.qq: tune record 0");
    CHECK_STR_CONTAINS(m, want);
    CHECK(strchr(m, '\n') == NULL);
    qq_file_close(f);
    FILE *fp = fopen("bad.qq", "wb");
    CHECK(fp && fwrite(d, 1, len, fp) == len);
    if (fp)
        fclose(fp);
    CHECK_INT_EQ(qq_file_open_stream("bad.qq", &f), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), want);
    qq_file_close(f);
}

static void store32(unsigned char *p, uint32_t v)
{
    qq__store_u32(p, v);
}

static void test_damaged(void)
{
    size_t len = 0;
    unsigned char *orig = slurp("tune.qq", &len), *d = malloc(len ? len : 1);
    size_t p = orig ? tune_at(orig, len) : 0;
    CHECK(p > 0);
    if (!p || !d) {
        free(orig);
        free(d);
        return;
    }
    uint32_t namelen = ld32(orig + p), ncand = ld32(orig + p + 4);
    size_t rows = p + (QQ__TUNE_HEAD + namelen + 7) / 8 * 8;
    struct {
        size_t at;
        uint64_t v;
        int wide;
        const char *want;
    } cases[] = {
        {p + 8, ncand, 0, "choice 7 of 7 candidates"},
        {p + 4, ncand + 1, 0, "8 candidates do not fill"},
        {p + 4, 0, 0, "0 candidates do not fill"},
        {p + 4, UINT32_MAX, 0, "candidates do not fill"},
        {p, 300, 0, "name of 300 bytes"},
        {p, 4096, 0, "name of 4096 bytes"},
        {p + 12, 0, 0, "0 ranks of the file's 1"},
        {p + 12, 2, 0, "2 ranks of the file's 1"},
        {p + 16, 0, 0, "0 rounds"},
        {p + QQ__TUNE_HEAD, 0x1b, 0, "breaks the rule for names at byte 1"},
        {rows + 8, 1, 0, "candidate 0 was timed by rank 1 of 1"},
        {rows + 16, 0x7ff8000000000000ull, 1, "candidate 0 has time nan"},
        {rows + 16, 0xbff0000000000000ull, 1, "candidate 0 has time -1"},
        {rows + QQ__TUNE_ROW, 1ull << 40, 1, "candidate 1 is 1099511627776, past an int"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(d, orig, len);
        if (cases[i].at == p + QQ__TUNE_HEAD)
            d[cases[i].at] = (unsigned char)cases[i].v;
        else if (cases[i].wide)
            qq__store_u64(d + cases[i].at, cases[i].v);
        else
            store32(d + cases[i].at, (uint32_t)cases[i].v);
        expect_refused(d, len, cases[i].want);
    }
    /* Two records of one name: the second renamed as the first. */
    memcpy(d, orig, len);
    size_t q = p + QQ__SECTION_HEAD + (size_t)ld64(d + p - 8);
    CHECK_INT_EQ(ld32(d + q - QQ__SECTION_HEAD), QQ__TAG_TUNE);
    store32(d + q, 5);
    memcpy(d + q + QQ__TUNE_HEAD, "plant", 5);
    struct qq_file *f = NULL;
    CHECK_INT_EQ(qq_file_open_mem(d, len, "bad.qq", &f), QQ_ECORRUPT);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "tune records 0 and 1 are both named 'plant'");
    qq_file_close(f);
    /* A section shorter than its head. */
    memcpy(d, orig, len);
    qq__store_u64(d + p - 8, 16);
    store32(d + p + 16, QQ__TAG('P', 'A', 'D', 'S'));
    qq__store_u64(d + p + 24, ld64(orig + p - 8) - 32);
    expect_refused(d, len, "is 16 bytes, shorter than its 24-byte head");
    /* A reader that does not know the tag skips it: renamed, the file
     * opens with no record (the rule older readers follow). */
    memcpy(d, orig, len);
    store32(d + p - QQ__SECTION_HEAD, QQ__TAG('T', 'U', 'N', 'X'));
    store32(d + q - QQ__SECTION_HEAD, QQ__TAG('T', 'U', 'N', 'X'));
    CHECK_INT_EQ(qq_file_open_mem(d, len, "old.qq", &f), 0);
    CHECK_INT_EQ(qq_file_ntunes(f), 0);
    qq_file_close(f);
    unlink("bad.qq");
    free(orig);
    free(d);
}

/* ---------------------------------------------------------------------
 * Against an exhaustive sweep, in simulation: the real trials and pick,
 * a simulated machine under load (fixed seeds).
 * --------------------------------------------------------------------- */

/* Seconds per iteration of each tile of blocked.c's list, as measured
 * here (docs/TUNE.md): several within 5% of the best, two far off. */
static const double true_cost[NCAND] = {1.00, 1.12, 1.04, 1.01, 1.03, 1.60, 1.45};

struct sim {
    uint64_t rng;
    double spike; /* the chance a call is slowed by load */
};

static double uniform(uint64_t *s)
{
    return (double)(test_rand(s) >> 11) / 9007199254740992.0;
}

/* One call: the true cost, 4% jitter (always a slowdown), and with chance
 * SPIKE a slowdown of 1.2 to 3 times (another process took the core). */
static double sim_timer(int i, void *p)
{
    struct sim *s = p;
    double t = true_cost[i] * (1.0 + 0.04 * uniform(&s->rng));
    if (uniform(&s->rng) < s->spike)
        t *= 1.2 + 1.8 * uniform(&s->rng);
    return t;
}

/* The sweep: every candidate for STEPS calls, the median each; its pick. */
static int sweep_pick(struct sim *s, int steps)
{
    double med[NCAND], v[64];
    for (int i = 0; i < NCAND; i++) {
        for (int k = 0; k < steps; k++)
            v[k] = sim_timer(i, s);
        for (int a = 1; a < steps; a++) /* insertion sort: 40 values */
            for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
                double x = v[b];
                v[b] = v[b - 1];
                v[b - 1] = x;
            }
        med[i] = v[steps / 2];
    }
    return qq__tune_pick(med, NCAND);
}

/* QQTune's pick over SIZE ranks, each with its own trials, combined as
 * the agreement does (each candidate's fastest over the ranks). */
static int tune_pick(struct sim *s, int reps, int size)
{
    double best[NCAND], b[NCAND];
    uint32_t runs[NCAND];
    for (int i = 0; i < NCAND; i++)
        best[i] = DBL_MAX;
    for (int r = 0; r < size; r++) {
        qq__tune_trials(NCAND, reps, r, size, sim_timer, s, b, runs);
        for (int i = 0; i < NCAND; i++)
            if (b[i] < best[i])
                best[i] = b[i];
    }
    return qq__tune_pick(best, NCAND);
}

/* The goal (issue 38): a candidate within 5% of the sweep's best, at less
 * than 20% of its cost, counted in iterations. 1000 machines under load
 * (jitter up to 4%, and 30% of the calls slowed 1.2 to 3 times); the sweep is blocked.c's
 * --sweep (40 iterations a tile), QQTune its default (3 rounds). */
static void test_against_sweep(void)
{
    const int steps = 40, reps = 3, seeds = 1000;
    int naive_worse = 0;
    for (int size = 1; size <= 4; size *= 2) {
        int worse = 0;
        double worst = 1;
        for (int seed = 1; seed <= seeds; seed++) {
            struct sim s = {(uint64_t)seed * 0x9e3779b97f4a7c15ull + (uint64_t)size, 0.3};
            double best = true_cost[sweep_pick(&s, steps)];
            double got = true_cost[tune_pick(&s, reps, size)] / best;
            worse += got > 1.05;
            worst = got > worst ? got : worst;
            /* A planner with one call a candidate: what the rounds buy. */
            naive_worse += true_cost[tune_pick(&s, 1, size)] / best > 1.05;
        }
        long tune_cost = (long)qq__tune_slots(NCAND, size) * reps, sweep_cost = NCAND * steps;
        printf("  %d rank%s: within 5%% of the sweep's best in %d of %d (worst %.3f); one call a "
               "candidate: %d misses so far of %d; cost %ld of %ld iterations a rank (%.1f%%)\n",
               size, size == 1 ? "" : "s", seeds - worse, seeds, worst, naive_worse, seeds,
               tune_cost, sweep_cost, 100.0 * (double)tune_cost / (double)sweep_cost);
        CHECK_INT_EQ(worse, 0);
        CHECK(5 * tune_cost < sweep_cost);
    }
    CHECK(naive_worse > 0); /* the check can fail: a weaker planner does */
}

int main(void)
{
    QQInit(100000);
    qq__tune_reset();
    RUN(test_slots);
    RUN(test_pick);
    RUN(test_planted);
    RUN(test_read_back);
    RUN(test_damaged);
    RUN(test_against_sweep);
    qq__tune_reset();
    unlink("tune.qq");
    return TEST_DONE();
}
