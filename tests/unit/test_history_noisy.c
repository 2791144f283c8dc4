/* test_history_noisy.c - snapshots keep the run's verdicts, and a key noisy run after run is
 * counted. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "history.h"
#include "test.h"

static char root[64];

/* A snapshot LABEL of suite "s" dated DATE whose verdict for (c@1, KEY) is
 * VERDICT and for (c@1, K2) is V2. */
static void snapshot(const char *label, const char *date, const char *v1, const char *v2)
{
    struct qqb_results r = {0};
    struct qqb_verdict_note notes[2] = {{"c@1", "K", (char *)v1}, {"c@1", "K2", (char *)v2}};
    char path[512], err[512] = "";
    r.suite = "s";
    r.label = (char *)label;
    r.date = (char *)date;
    snprintf(r.fp.id, sizeof r.fp.id, "x86_64-test");
    snprintf(r.fp.cpu, sizeof r.fp.cpu, "cpu");
    r.verdicts = notes;
    r.nverdicts = 2;
    CHECK_INT_EQ(qqb_baseline_path(root, "s", &r.fp, label, path, sizeof path), 0);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
}

static void test_notes_round_trip(void)
{
    struct qqb_results back;
    struct qqb_fingerprint fp = {0};
    char path[512], err[512] = "";
    snapshot("v0", "2026-01-01T00:00:00Z", "noisy", "unchanged");
    snprintf(fp.id, sizeof fp.id, "x86_64-test");
    CHECK_INT_EQ(qqb_baseline_path(root, "s", &fp, "v0", path, sizeof path), 0);
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    CHECK_U64_EQ(back.nverdicts, 2);
    if (back.nverdicts == 2) {
        CHECK_STR_EQ(back.verdicts[0].case_name, "c@1");
        CHECK_STR_EQ(back.verdicts[0].key, "K");
        CHECK_STR_EQ(back.verdicts[0].verdict, "noisy");
        CHECK_STR_EQ(back.verdicts[1].verdict, "unchanged");
    }
    qqb_results_free(&back);
}

/* K: noisy, unchanged, noisy, noisy (oldest first); K2 noisy in the newest
 * only; K3 not noisy now. This run finds all but K3 noisy. */
static void test_noisy_runs(void)
{
    snapshot("v1", "2026-01-02T00:00:00Z", "noisy", "unchanged");
    snapshot("v2", "2026-01-03T00:00:00Z", "unchanged", "unchanged");
    snapshot("v3", "2026-01-04T00:00:00Z", "noisy", "unchanged");
    snapshot("v4", "2026-01-05T00:00:00Z", "noisy", "noisy");
    struct qqb_cmp rows[4];
    memset(rows, 0, sizeof rows);
    const char *keys[4] = {"K", "K2", "K3", "K"};
    for (int i = 0; i < 4; i++) {
        rows[i].case_name = "c@1";
        rows[i].key = keys[i];
        rows[i].ab = QQB_CMP_BASELINE;
        rows[i].verdict = QQB_NOISY;
    }
    rows[2].verdict = QQB_UNCHANGED;
    rows[3].ab = QQB_CMP_VARIANT; /* A/B rows are not the baseline's */
    struct qqb_judgement j;
    memset(&j, 0, sizeof j);
    j.cmp = rows;
    j.ncmp = 4;
    CHECK_INT_EQ(qqb_history_noisy_runs(root, "s", "x86_64-test", &j, QQB_NOISY_RUNS), 0);
    CHECK_INT_EQ(rows[0].noisy_runs, 3); /* this run, v4, v3 */
    CHECK_INT_EQ(rows[1].noisy_runs, 2); /* this run, v4 */
    CHECK_INT_EQ(rows[2].noisy_runs, 0);
    CHECK_INT_EQ(rows[3].noisy_runs, 0);
    /* Looking further back: v2 ends K's run of noisy at 3. */
    CHECK_INT_EQ(qqb_history_noisy_runs(root, "s", "x86_64-test", &j, 10), 0);
    CHECK_INT_EQ(rows[0].noisy_runs, 3);
    /* Another machine's snapshots (none): only this run. */
    CHECK_INT_EQ(qqb_history_noisy_runs(root, "s", "arm-other", &j, 10), 0);
    CHECK_INT_EQ(rows[0].noisy_runs, 1);
}

/* Verdict notes made from a judgement: the baseline rows only. */
static void test_notes_from_judgement(void)
{
    struct qqb_cmp rows[2];
    memset(rows, 0, sizeof rows);
    rows[0].case_name = rows[1].case_name = "c@1";
    rows[0].key = "K";
    rows[1].key = "K";
    rows[0].ab = QQB_CMP_BASELINE;
    rows[0].verdict = QQB_NOISY;
    rows[1].ab = QQB_CMP_VARIANT;
    struct qqb_judgement j;
    memset(&j, 0, sizeof j);
    j.cmp = rows;
    j.ncmp = 2;
    struct qqb_results r = {0};
    CHECK_INT_EQ(qqb_history_notes(&j, &r), 0);
    CHECK_U64_EQ(r.nverdicts, 1);
    if (r.nverdicts == 1)
        CHECK_STR_EQ(r.verdicts[0].verdict, "noisy");
    qqb_results_drop_verdicts(&r);
}

int main(void)
{
    snprintf(root, sizeof root, "history.XXXXXX");
    if (!mkdtemp(root))
        return 1;
    RUN(test_notes_round_trip);
    RUN(test_noisy_runs);
    RUN(test_notes_from_judgement);
    return TEST_DONE();
}
