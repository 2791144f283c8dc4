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

/* A guard of the figure per machine reference that acted on a baseline row
 * (docs/STATISTICS.md section 19, "Guards"); the row's why says which. */
enum qqb_ref_guard {
    QQB_RG_NONE,
    QQB_RG_MOVED,  /* the reference moved beyond its baseline runs' bound: as measured */
    QQB_RG_BUILD,  /* qqbench's own build differs from the baseline's: as measured */
    QQB_RG_COMMON, /* the group's keys moved together against the reference: the
                      verdict per reference not taken (noisy) */
    QQB_RG_SIGN,   /* the figure as measured moved the other way: not taken (noisy) */
    QQB_RG_RUNS    /* as measured, the group's keys moved together beyond what their
                      baseline runs' common shifts tell from weather (section 20):
                      the verdict not taken (noisy) */
};

/* The machine-reference check of a baseline row (docs/RUNNING.md). */
enum qqb_machine_check {
    QQB_MC_NOT_NEEDED, /* the verdict is not regressed or improved */
    QQB_MC_HELD,       /* the verdict holds relative to the machine */
    QQB_MC_MOVED,      /* it does not: the machine moved; now noisy */
    QQB_MC_SKIPPED,    /* could not be done: machine_why says why */
    QQB_MC_IN_FIGURE   /* the row was judged on figures per machine reference
                          (docs/STATISTICS.md section 19): the test is the check */
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
    double threshold; /* percent: the benchmark's own, which noise never grows */
    enum qqb_threshold_from threshold_from;
    double se_log, se_df;   /* baseline rows: the standard error of the log change
                               and its degrees of freedom (the t test; NaN for pairs,
                               whose MDE is from the sign test and the pair noise) */
    double mde_pct;         /* the smallest change (percent, a slowdown; the same
                               on the log scale for a speed-up) it reads regressed
                               nine times in ten, at the level Holm gives its first
                               step (NaN: none, or its test cannot reach the level) */
    double hide_pct;        /* the change the key's noise hides: noise_multiple x its
                               noise, held at the bound, where that is above the
                               threshold (0: none); an undecided interval within
                               +/- it is blind (qqb_verdict_hidden) */
    double suite_threshold; /* baseline rows: the benchmark's own threshold (percent) */
    const char *seen_by;    /* a blind row: the gate that could see it (static text:
                               "more baseline runs", "more launches", "--against");
                               NULL otherwise */
    int blind_fails;        /* a blind row of a benchmark with fail_on_blind: true */
    double noise_pct;       /* the launch-to-launch (or pair) noise behind it */
    const char *noise_from; /* "baseline", "baseline pairs", "current pairs" */
    size_t base_runs;       /* runs the baseline holds for this case */
    double run_pct;         /* their run-to-run spread (NaN with one run) */
    double run_bound_pct;   /* baseline rows: the half-width of the interval with
                               infinitely many launches (percent): what the runs
                               alone leave unknown */
    double run_var, run_df; /* baseline rows: the run-to-run variance of the log
                               figure, shrunk across keys, and its degrees of freedom */
    double p_value;         /* rows in the family: 2 x the smaller one-sided p
                               against the threshold (decisive at alpha' iff
                               p_value <= alpha'); 1 otherwise */
    size_t look, looks;     /* A/B rows: the look (rounds / repetitions) the row was
                               judged at, of how many the plan allows */
    size_t need_launches;   /* blind or noisy: launches that would decide (0: none) */
    size_t plan_launches;   /* baseline rows: launches at which no change reads
                               unchanged nine times in ten (0: none would) */
    size_t need_runs;       /* blind: baseline runs that would see the threshold (0: none) */
    int not_judged;         /* blind, not judged: the runs move beyond the bound */
    int early;              /* A/B: beyond the threshold, but not at its look's boundary */
    /* Count and cost apart: intervals per launch, exact where every launch
     * of a side read the same (a deterministic kernel); NaN otherwise. The
     * total's change splits as count_pct + (count_cur / count_base) x the
     * change per interval (ch.pct). */
    double count_base, count_cur;
    double count_pct;
    double cost_pct; /* the change per interval's part of the total change:
                        count_cur / count_base x ch.pct (NaN where count_pct
                        is); set by qqb_judgement_figures */
    struct qqb_change ch;
    enum qqb_verdict verdict;
    enum qqb_verdict alone; /* the verdict before family-wise control */
    double level;           /* confidence the final verdict was judged at */
    int holm_held;          /* -1 not tested (not decisive alone), 0 lost, 1 held */
    enum qqb_machine_check machine;
    const char *machine_why;      /* QQB_MC_SKIPPED: why (static text) */
    double machine_pct;           /* baseline rows: change of the machine reference */
    double norm_pct;              /* the change with samples divided by the reference */
    int by_reference;             /* baseline rows: judged on each launch's figure divided by
                                     the machine reference timed just before it */
    enum qqb_ref_guard ref_guard; /* baseline rows: a guard of the figure per machine
                                     reference that acted (docs/STATISTICS.md section 19) */
    double guard_pct;             /* MOVED: the reference's own change; COMMON: the
                                     group's keys' common change against it; SIGN:
                                     the change as measured */
    int command_differs;          /* the baseline measured another command line */
    double step;                  /* the counter step of the two cases (ticks; 0 unknown) */
    double dropped;               /* events lost to a full buffer, both cases' launches */
    int below_step;               /* figures at or below the resolution:
                                     0 none, 1 one of the two (its size is a bound),
                                     2 both (verdict unresolved) */
    char why[200];                /* a noisy or blind row: why, and what would decide it */
    int noisy_runs;               /* noisy in this run and the recorded runs just
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
    int verdict; /* +1 more memory, -1 less, 0 only counts moved (or nothing) */
    int moved;   /* 0: nothing moved: a key of a comparison that gates, listed so
                    every gated key shows (keys all zero on both sides are not) */
};

/* One side of a verdict on counts: a per-launch integer metric (calls,
 * instructions) over the launches of a case. */
struct qqb_count_side {
    double value;    /* what every launch read, where all read the same
                        (deterministic); NaN where they differ or none did */
    double min, max; /* the spread over the launches (NaN: none) */
    size_t n;        /* launches */
};

/* The decision on a count (qqb_count_decide): exact where both sides are
 * deterministic, the launches' statistics otherwise. */
struct qqb_count_change {
    struct qqb_count_side base, cur;
    int exact;            /* both sides deterministic: no statistics */
    double delta;         /* exact: cur - base; else the median's (NaN: none) */
    double pct;           /* 100 (cur / base - 1): exact, or the estimate */
    double threshold_pct; /* the threshold it was judged at (percent of base) */
    struct qqb_change ch; /* not exact: the change of the launches (HL/MW) */
    enum qqb_verdict verdict;
};

/* The one rule of a verdict on any per-launch integer metric (by its
 * `what`: "intervals", "hits", "instr", ...), for every gate: BASE against
 * CUR (the baseline's, reference variant's or reference build's launches,
 * and this run's). Where every launch of each side read one value the
 * verdict is the exact change against the threshold: regressed beyond
 * +THRESHOLD_PCT (strictly), improved beyond -THRESHOLD_PCT, unchanged
 * within; THRESHOLD_ABS > 0 (units of the metric, e.g. instructions per
 * hit) replaces the percent by that change. Otherwise the metric is
 * non-deterministic: the spread of each side is kept and the launches are
 * judged by the statistics of timing (qqb_change at CONFIDENCE,
 * qqb_verdict_sym). 0; -1 where a side has no sample (OUT says nothing). */
int qqb_count_decide(const struct qqb_metric *base, const struct qqb_metric *cur,
                     double threshold_pct, double threshold_abs, double confidence,
                     struct qqb_count_change *out);

/* V with its thousands grouped ("1,200"; two decimals where V is not
 * whole), and a side as "1,000" (deterministic) or "990..1,010" (its
 * spread), into BUF; BUF returned. */
const char *qqb_count_grouped(char *buf, size_t len, double v);
const char *qqb_count_side_text(char *buf, size_t len, const struct qqb_count_side *s);

/* One verdict on counts of a key of a case (judge_counts.c): its calls per
 * launch (the state's intervals, another key's hits), or its instructions
 * per hit, against the baseline, the reference variant or the reference
 * build (ab, as struct qqb_cmp's). */
struct qqb_countcmp {
    size_t case_idx, ref_idx; /* plan cases (ref_idx: A/B and build rows) */
    int ab;
    const char *case_name, *key, *ref_name;
    const char *what; /* the metric judged: "intervals", "hits", "instr_per_hit" */
    int calls;        /* 1: calls per launch; 0: the cost per hit (instructions) */
    struct qqb_count_change c;
    /* A cost row whose calls are exact on both sides: the total per launch
     * and its change split, dtotal = dcalls x cost + calls' x dcost (NaN
     * otherwise). */
    double calls_base, calls_cur;
    double total_base, total_cur, count_part, cost_part;
    int gated;     /* its regressed fails the run: a cost row against the
                      baseline or the reference build; a calls row where its
                      benchmark says gate: counts */
    int timing;    /* the cycles row of the same case, key and kind: its verdict
                      (-1: none) */
    char why[256]; /* what the row says beyond its numbers */
};

/* A key of a case that nothing was compared with (no baseline row, no row
 * against the reference build of it or its twin): the figures the report
 * gives of its verdict metric. */
struct qqb_measured {
    size_t case_idx, metric; /* into the results */
    double median;           /* ticks per interval, the median over launches */
    double noise_pct;        /* qqb_noise_pct of its launches */
    double events;           /* the median of the key's hits per launch (NaN: none) */
};

/* The summaries of every metric of one case of the results (the run
 * JSON's): metric m of the case at metric[m], metric m of its thread row t
 * at thread[t].metric[m]. */
struct qqb_thread_figures {
    struct qqb_summary *metric;
};
struct qqb_case_figures {
    struct qqb_summary *metric;
    struct qqb_thread_figures *thread;
    size_t nthreads;
};

struct qqb_judgement {
    struct qqb_cmp *cmp;
    size_t ncmp, capcmp;
    struct qqb_memcmp *mem;
    size_t nmem, capmem;
    size_t family;        /* baseline timing rows under family-wise control */
    double family_alpha;  /* the family-wise error rate (1 - confidence) */
    size_t few_run_cases; /* cases whose baseline holds fewer than QQB_MIN_BASE_RUNS
                             runs: timing not gated against it */
    double shrink_s0;     /* the run-to-run prior across keys (percent; NaN: none) */
    double shrink_d0;     /* its degrees of freedom (0: no shrinkage) */
    /* The baseline rows' run figure (docs/STATISTICS.md section 19), chosen
     * per group: per machine reference where every row of the group has the
     * reference in both runs and the baseline's runs agree clearly better so
     * (QQB_REF_GAIN); by_reference: some row is judged so. ref_ratio the
     * geometric mean over ref_rows rows of the run-to-run variance per
     * reference / as measured (NaN: not compared); ref_lacking rows lack
     * the reference in a launch of the baseline or this run. */
    int by_reference;
    double ref_ratio;
    size_t ref_rows, ref_lacking;
    int ref_refused;         /* the suite asked for the figure per reference, and
                                ref_lacking rows lack it: judged as measured */
    int ref_build_differs;   /* qqbench's version, compiler or flags differ from the
                                baseline's (or it does not say): the figure per
                                reference refused */
    size_t ref_moved_cases;  /* cases whose reference moved beyond its baseline runs'
                                bound: judged as measured */
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
    size_t build_blind; /* rows against the reference build whose pairs cannot see
                           the benchmark's own threshold */
    /* Verdicts on counts (judge_counts.c): every row; of them, gated rows
     * regressed (they fail the run) and rows that read non-deterministic. */
    struct qqb_countcmp *counts;
    size_t ncounts, capcounts;
    size_t counts_regressed, counts_nondet;
    /* The figures the reports print beyond the rows, made once where the
     * judgement is finished (qqb_judgement_figures): case i of the results'
     * summaries at figures[i]; the keys nothing was compared with. */
    struct qqb_case_figures *figures;
    size_t nfigures;
    struct qqb_measured *measured;
    size_t nmeasured;
};

/* Events the launches of C lost to a full buffer, summed (0 when none or
 * unknown). */
double qqb_case_dropped(const struct qqb_case_result *c);
/* Cases of the change build that dropped events where their benchmark does
 * not allow it (allow_dropped); *FIRST (may be NULL) the first of them.
 * Such a run gates nothing and becomes no baseline. */
size_t qqb_judge_incomplete_case(const struct qqb_plan *p, const struct qqb_results *cur,
                                 size_t *first);
void qqb_judgement_free(struct qqb_judgement *j);

/* judge_figures.c: the figures of J that the reports print and no row
 * holds, from CUR (the results J judged): every row's cost_pct, every
 * metric's summaries (figures), the keys nothing was compared with
 * (measured). Made once, where the judgement is finished (made again, the
 * ones before are released); a report reads them and computes none. 0, or
 * -1 out of memory. Released by qqb_judgement_figures_free, which
 * qqb_judgement_free calls: one free releases the whole judgement. */
int qqb_judgement_figures(struct qqb_judgement *j, const struct qqb_results *cur);
void qqb_judgement_figures_free(struct qqb_judgement *j);

const char *qqb_threshold_from_name(enum qqb_threshold_from f);
const char *qqb_machine_check_name(enum qqb_machine_check m);
/* A guard's name in the run JSON's reference_guard (docs/STATISTICS.md
 * section 19); NULL for QQB_RG_NONE. */
const char *qqb_ref_guard_name(enum qqb_ref_guard g);

#endif /* QQB_JUDGE_H */
