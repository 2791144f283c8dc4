/* judge.h - judge: samples + baseline -> comparisons and verdicts (docs/STATISTICS.md,
 * docs/RUNNING.md). */
#ifndef QQB_JUDGE_H
#define QQB_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "results.h"
#include "stats.h"

/* A threshold derived from noise is bounded by this many percent (or the
 * benchmark's fixed threshold when that is larger): a key whose noise asks
 * for more can still be found 2x slower, and `improved` stays possible. The
 * default; a suite's threshold_bound: or --threshold-bound sets another
 * (qqb_settings.threshold_bound). */
#define QQB_THRESHOLD_BOUND QQB_DEFAULT_THRESHOLD_BOUND

/* A net ticks-per-hit figure at or below the counter's resolution
 * (qq_resolution_ticks in qq_file.h: half a counter step) cannot be
 * resolved (docs/TIMING.md, "Calibration"). */

/* Where a row's threshold came from. */
enum qqb_threshold_from {
    QQB_THR_FIXED,  /* the benchmark's threshold (the floor) */
    QQB_THR_NOISE,  /* noise_multiple x the launch-to-launch noise */
    QQB_THR_RUNS,   /* the run-to-run bound of the baseline's runs */
    QQB_THR_BOUNDED /* the noise asked for more: held at the bound */
};

/* The machine-reference check of a baseline row (docs/RUNNING.md). */
enum qqb_machine_check {
    QQB_MC_NOT_NEEDED, /* the verdict is not regressed or improved */
    QQB_MC_HELD,       /* the verdict holds relative to the machine */
    QQB_MC_MOVED,      /* it does not: the machine moved; now noisy */
    QQB_MC_SKIPPED     /* could not be done: machine_why says why */
};

/* What a comparison row compares with (the `ab` field of the rows). */
enum {
    QQB_CMP_BASELINE = 0, /* the stored baseline */
    QQB_CMP_VARIANT = 1,  /* the reference variant of its group (A/B) */
    QQB_CMP_BUILD = 2     /* the same case of the reference build (--against) */
};

/* One timing comparison: a key of a case against the baseline (ab = 0),
 * against the reference variant of its group (ab = 1) or against its twin
 * of the reference build (ab = 2: paired by round as variants are). Indices are into
 * the plan (= the current results); names are borrowed from the results. */
struct qqb_cmp {
    size_t case_idx;    /* plan case */
    size_t ref_idx;     /* A/B: the plan case of the reference variant */
    size_t metric;      /* index of the metric in the current case */
    size_t base_idx;    /* baseline rows: the baseline's case (QQB_NO_MATCH otherwise) */
    size_t base_metric; /* baseline rows: its metric (QQB_NO_MATCH: it has none) */
    const char *case_name, *key;
    const char *ref_name;           /* A/B: the reference case */
    int ab;                         /* QQB_CMP_BASELINE, _VARIANT or _BUILD */
    int paired;                     /* the interval is from pairs of one round */
    size_t npairs, rounds;          /* A/B: pairs used, rounds that ran */
    double base_median, cur_median; /* ticks per interval */
    double base_mhz, mhz;
    double threshold; /* percent */
    enum qqb_threshold_from threshold_from;
    double suite_threshold; /* baseline rows: the benchmark's own threshold (percent) */
    const char *seen_by;    /* a blind row: the gate that could see it (static text:
                               "more baseline runs", "more launches", "--against");
                               NULL otherwise */
    int blind_fails;        /* a blind row of a benchmark with fail_on_blind: true */
    double noise_pct;       /* the launch-to-launch (or pair) noise behind it */
    const char *noise_from; /* "baseline", "baseline pairs", "current pairs" */
    size_t base_runs;       /* runs the baseline holds for this case */
    double run_pct;         /* their run-to-run spread (NaN with one run) */
    double run_bound_pct;   /* the prediction bound it gives (NaN: one run) */
    struct qqb_change ch;
    enum qqb_verdict verdict;
    enum qqb_verdict alone; /* the verdict before family-wise control */
    double level;           /* confidence the final verdict was judged at */
    int holm_held;          /* -1 not tested (not decisive alone), 0 lost, 1 held */
    int confirmed;          /* -1 not needed, 0 did not hold, 1 held */
    double confirm_pct;     /* the confirmation's estimate */
    enum qqb_machine_check machine;
    const char *machine_why; /* QQB_MC_SKIPPED: why (static text) */
    double machine_pct;      /* baseline rows: change of the machine reference */
    double norm_pct;         /* the change with samples divided by the reference */
    int command_differs;     /* the baseline measured another command line */
    double step;             /* the counter step of the two cases (ticks; 0 unknown) */
    double dropped;          /* events lost to a full buffer, both cases' launches */
    int below_step;          /* figures at or below the resolution:
                                0 none, 1 one of the two (its size is a bound),
                                2 both (verdict unresolved) */
    char why[200];           /* a noisy or blind row: why, and what would decide it */
    int noisy_runs;          /* noisy in this run and the recorded runs just
                                before it: how many in a row (0: not noisy;
                                qqb_history_noisy_runs) */
};

/* One memory key whose numbers moved (or appeared, or vanished). */
struct qqb_memcmp {
    size_t case_idx;
    const char *case_name, *key;
    int ab;
    const char *ref_name;
    struct qqb_mem base, cur;
    int verdict; /* +1 more memory, -1 less, 0 only counts moved */
};

struct qqb_judgement {
    struct qqb_cmp *cmp;
    size_t ncmp, capcmp;
    struct qqb_memcmp *mem;
    size_t nmem, capmem;
    size_t family;           /* baseline timing rows under family-wise control */
    double family_alpha;     /* the family-wise error rate (1 - confidence) */
    size_t one_run_cases;    /* cases whose baseline holds one run */
    size_t missing_ref;      /* baseline rows with the machine check skipped */
    size_t command_changed;  /* cases whose command differs from the baseline's */
    size_t regressed, noisy; /* final baseline timing verdicts */
    size_t blind;            /* baseline rows blind at the suite's threshold */
    size_t blind_failing;    /* of them, rows of a benchmark with fail_on_blind: true */
    size_t mem_regressed;
    size_t incomplete; /* rows made incomplete by dropped events */
    /* Against the reference build (--against): final timing verdicts and
     * memory keys that grew; both fail the run as baseline ones do. */
    size_t build_regressed, build_noisy, build_mem_regressed;
};

/* One key against the baseline, the rule every baseline row follows: the
 * threshold from S (the floor), noise_multiple x BM's pooled launch noise
 * and the run-to-run bound of BM's runs, bounded; the Hodges-Lehmann /
 * Mann-Whitney interval of CM against BM at LEVEL; the symmetric verdict,
 * made honest: `blind` where the run-to-run bound is beyond the threshold
 * (not judged), and where the interval is within the threshold but the
 * suite's own threshold (S->threshold) is not what it was held to.
 * Fills ROW's threshold, noise, run and change fields, verdict and alone,
 * and for a blind row seen_by and why.
 * 0 or -1 (out of memory). Pure: the simulations in tests/unit/test_judge.c
 * call it. */
int qqb_judge_metric(const struct qqb_settings *s, const struct qqb_metric *bm,
                     const struct qqb_metric *cm, double level, struct qqb_cmp *row);

/* Judge CUR (the plan's cases, measured) against BASE (may be NULL) and
 * between variants. 0, or -1 on out of memory. */
int qqb_judge(const struct qqb_plan *p, const struct qqb_results *cur,
              const struct qqb_results *base, struct qqb_judgement *out);
/* The same with memory per key judged against MEMBASE (the machine-
 * independent memory baseline; may be NULL: no memory rows against a
 * baseline) instead of BASE's memory. qqb_judge is MEMBASE = BASE. */
int qqb_judge_with(const struct qqb_plan *p, const struct qqb_results *cur,
                   const struct qqb_results *base, const struct qqb_results *membase,
                   struct qqb_judgement *out);

/* The plan groups holding a `regressed` baseline or reference-build row, each once, in plan
 * order: *GROUPS malloc'd. 0 or -1. */
int qqb_judge_flagged_groups(const struct qqb_plan *p, const struct qqb_judgement *j,
                             size_t **groups, size_t *n);

/* Confirmation: every `regressed` baseline row is judged again on CONF (the
 * flagged groups measured afresh, sized from the plan), at the level the row
 * was decided at, with the machine check; every `regressed` row against the
 * reference build is judged again on CONF's pairs of the two builds. One
 * that does not hold again becomes noisy. */
void qqb_judge_confirm(const struct qqb_plan *p, const struct qqb_results *conf,
                       const struct qqb_results *base, struct qqb_judgement *j);

/* 1 when some A/B row of group G in CUR is still noisy (--max-repetitions). */
int qqb_judge_ab_undecided(const struct qqb_plan *p, size_t g, const struct qqb_results *cur,
                           const struct qqb_results *base);

/* Events the launches of C lost to a full buffer, summed (0 when none or
 * unknown). */
double qqb_case_dropped(const struct qqb_case_result *c);
/* Cases of the change build that dropped events where their benchmark does
 * not allow it (allow_dropped); *FIRST (may be NULL) the first of them.
 * Such a run gates nothing and becomes no baseline. */
size_t qqb_judge_incomplete_case(const struct qqb_plan *p, const struct qqb_results *cur,
                                 size_t *first);
void qqb_judgement_free(struct qqb_judgement *j);

const char *qqb_threshold_from_name(enum qqb_threshold_from f);
const char *qqb_machine_check_name(enum qqb_machine_check m);

#endif /* QQB_JUDGE_H */
