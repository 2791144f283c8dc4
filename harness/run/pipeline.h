/* pipeline.h - qqbench run as a sequence of steps: the suite and its plan, the baselines, the
 * launches, the verdicts, the report, and what is stored.
 *
 *     struct qqb_run_opts o;
 *     qqb_run_opts_init(&o);
 *     o.suite_path = "configs/ci.yaml";  (or fill it from the command line)
 *     int code = qqb_run(&o);            (the process exit code, enum qqb_exit)
 *     qqb_run_opts_free(&o);
 *
 * The decisions taken on the way (which baseline applies, what is gated,
 * the exit code, what is stored) are gate.h's pure functions. */
#ifndef QQB_PIPELINE_H
#define QQB_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

/* Exit codes (README.md, "Exit codes"). */
enum qqb_exit {
    QQB_EXIT_OK = 0,         /* all good */
    QQB_EXIT_REGRESSION = 1, /* a regression */
    QQB_EXIT_USAGE = 2,      /* bad input or usage */
    QQB_EXIT_KERNEL = 3      /* a kernel failed */
};

/* What a run found, for a caller that says more after it (qqbench ci's
 * last line): the comparisons against the reference build by verdict,
 * memory regressed against it, and regressions against a stored baseline. */
struct qqb_run_tally {
    size_t regressed, improved, unchanged, noisy, blind;
    size_t mem_regressed, base_regressed, kernel_failures;
    size_t counts_regressed; /* gated verdicts on counts regressed (judge.h) */
};

/* Which stored baselines a run reads and writes (qqb_run_opts.stored). */
enum qqb_run_stored {
    QQB_STORED_ALL = 0, /* run: read them; record the first; --update-baseline, --record write */
    QQB_STORED_ASKED,   /* ci --with-baseline: read them; only --update-baseline, --record write */
    QQB_STORED_NONE     /* ci: neither read nor written (the reference build is the comparison) */
};

/* The options of 'qqbench run' (qqbench run --help says what each means). */
struct qqb_run_opts {
    const char *suite_path;
    const char *baselines_dir;
    const char *baseline_from;
    const char *kernel_dir;
    const char *against;
    const char *record;
    const char *json, *junit;
    const char *report_dir; /* --report DIR; NULL: the default folder */
    int no_report;
    const char *work_parent;
    int update, quiet, verbose, confirm, keep, reps, max_reps, fail_on_noisy;
    int fail_on_blind; /* --fail-on-blind: a blind baseline row fails the run */
    int require_baseline;
    int memory_only;             /* --memory-only (with --update-baseline): the memory baseline from
                                    one launch per case, no timing baseline */
    int allow_other_flags;       /* --allow-other-flags: compare timing with a baseline of
                                    kernels built with other flags */
    struct qqb_run_tally *tally; /* filled at the end when not NULL */
    int stored;                  /* which stored baselines the run uses (enum qqb_run_stored) */
    int have_seed;
    uint64_t seed;
    size_t keep_runs;
    double threshold_bound; /* --threshold-bound; 0: the suite's */
    int run_figure;         /* --run-figure (enum qqb_run_figure); -1: the suite's */
    int passes;             /* --passes: passes over the suite (0: QQB_DEFAULT_PASSES) */
    double budget;          /* --budget: seconds the launches may take (0: no limit);
                               the plan against a stored baseline stays within it */
    char **only;
    size_t nonly;
    int metric;         /* --metric (enum qqb_metric_kind); -1: each benchmark's metric: */
    int require_metric; /* --require-metric: a metric that cannot be measured (no
                           valgrind) is an error (exit 2), not a note */
};

/* O with every option at its default: all off, the baseline keeping
 * QQB_BASELINE_KEEP_RUNS runs, the budget QQB_DEFAULT_BUDGET seconds. */
#define QQB_DEFAULT_BUDGET 600.0
/* Passes over the suite a run takes by default (docs/STATISTICS.md section
 * 18): a case's launches spread over the run's time in five stretches. */
#define QQB_DEFAULT_PASSES 5
void qqb_run_opts_init(struct qqb_run_opts *o);
/* Free what O holds (the --only list; the names in it are borrowed). */
void qqb_run_opts_free(struct qqb_run_opts *o);

/* Run the suite O names: plan, measure, judge, report, store. Progress,
 * warnings and errors go to stderr, the table to stdout. Returns the
 * process exit code (enum qqb_exit), not 0/-1: every failure is said on
 * stderr and is one of the codes. */
int qqb_run(const struct qqb_run_opts *o);

#endif /* QQB_PIPELINE_H */
