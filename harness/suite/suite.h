/* suite.h - suite files (docs/SUITE.md): model, loader, case expansion. */
#ifndef QQB_SUITE_H
#define QQB_SUITE_H

#include <stddef.h>
#include <stdint.h>

/* ======================================================================
 * Settings: what `defaults:` holds and what a benchmark may override.
 * ====================================================================== */

#define QQB_DEFAULT_REPETITIONS      10
#define QQB_DEFAULT_WARMUP           1
#define QQB_DEFAULT_TIMEOUT          60.0
#define QQB_DEFAULT_THRESHOLD        2.0
#define QQB_DEFAULT_NOISE_MULTIPLE   0.0
#define QQB_DEFAULT_CONFIDENCE       0.95
#define QQB_DEFAULT_MEMORY_TOLERANCE 0
/* The threshold of a verdict on counts (calls, instructions per hit),
 * percent: a count is exact, so no noise asks for more (threshold_instr:
 * gives one in instructions per hit instead). */
#define QQB_DEFAULT_COUNT_THRESHOLD  1.0
/* Thresholds that come from noise or run-to-run spread are capped here
 * (percent; a fixed threshold above it stands): threshold_bound:,
 * --threshold-bound (docs/STATISTICS.md). */
#define QQB_DEFAULT_THRESHOLD_BOUND  30.0
/* The largest node count a suite may ask for unless it sets max_nodes:. */
#define QQB_DEFAULT_MAX_NODES        1024
#define QQB_DEFAULT_LAUNCHER         "mpirun -np {nodes} --oversubscribe"

/* Bits of qqb_settings.set: which fields the file gave (rather than the
 * built-in default). */
enum {
    QQB_SET_REPETITIONS = 1u << 0,
    QQB_SET_WARMUP = 1u << 1,
    QQB_SET_TIMEOUT = 1u << 2,
    QQB_SET_THRESHOLD = 1u << 3,
    QQB_SET_NOISE_MULTIPLE = 1u << 4,
    QQB_SET_CONFIDENCE = 1u << 5,
    QQB_SET_MEMORY_TOLERANCE = 1u << 6,
    QQB_SET_LAUNCHER = 1u << 7,
    QQB_SET_EVENTS = 1u << 8,
    QQB_SET_ALLOW_DROPPED = 1u << 9,
    QQB_SET_FAIL_ON_BLIND = 1u << 10,
    QQB_SET_THRESHOLD_INSTR = 1u << 11,
    QQB_SET_GATE = 1u << 12,
    QQB_SET_METRIC = 1u << 13,
    QQB_SET_CACHE_SIM = 1u << 14
};

struct qqb_settings {
    int repetitions;          /* launches measured per case, >= 2 */
    int warmup;               /* launches discarded first, >= 0 */
    double timeout;           /* seconds per launch, > 0 */
    double threshold;         /* smallest change that counts, percent, > 0 */
    double noise_multiple;    /* > 0: threshold = k * baseline noise; 0: off */
    double threshold_bound;   /* percent, > 0: the cap of a noise or run threshold;
                                 the suite's (threshold_bound:) for every benchmark */
    double confidence;        /* 0.5 .. 0.999 */
    int64_t memory_tolerance; /* bytes of per-key memory difference allowed */
    int64_t events;           /* QQ_EVENTS buffer hint; 0: not given */
    int allow_dropped;        /* 1: keys of launches that dropped events are
                                 judged anyway (default 0: incomplete) */
    int fail_on_blind;        /* 1: a blind baseline row fails the run, as
                                 --fail-on-blind makes every one (default 0) */
    double threshold_instr;   /* instructions per hit: the threshold of an instructions
                                 verdict in place of QQB_DEFAULT_COUNT_THRESHOLD percent
                                 (0: not given) */
    int gate_counts;          /* gate: counts: a change of a key's calls per launch
                                 fails the run (default 0: reported, not gated) */
    int metric;               /* enum qqb_metric_kind: what a case measures (metric:;
                                 default cycles; docs/INSTRUCTIONS.md) */
    int cache_sim;            /* cache_sim: true: instructions runs simulate the caches
                                 (callgrind --cache-sim=yes, fixed geometry) */
    char *launcher;           /* template, "{nodes}" substituted; never NULL */
    unsigned set;             /* QQB_SET_* bits given in the file */
};

/* ======================================================================
 * The suite. Every string and array is owned by the suite and freed by
 * qqb_suite_free(). Positions (line, col) are 1-based, in the suite file.
 * ====================================================================== */

struct qqb_variant {
    char *name;
    char **args; /* extra arguments as written ("{param}" not substituted) */
    size_t nargs;
    int line, col;
};

/* Where a value was written in the suite file. */
struct qqb_spot {
    int line, col;
};

struct qqb_param {
    char *name;
    char **values; /* as written, non-empty, distinct */
    size_t nvalues;
    int line, col;
};

struct qqb_bench {
    char *name;
    char *kernel;      /* as written */
    char *kernel_path; /* resolved absolute path of an executable file */
    char **args;       /* as written ("{param}" not substituted) */
    size_t nargs;
    int *nodes; /* distinct, >= 1; [1] when not given */
    size_t nnodes;
    int max_node, max_node_line, max_node_col; /* the largest given, and where (0: none) */
    struct qqb_variant *variants;              /* in file order; [0] is the reference */
    size_t nvariants;
    struct qqb_param *params; /* in file order */
    size_t nparams;
    char **keys; /* keys to compare; nkeys == 0: all of them */
    size_t nkeys;
    struct qqb_spot *keys_at; /* where each of keys is (its first character) */
    /* keys judged against the stored baseline; 0: all compared keys (the
     * others are still stored and compared between variants) */
    char **baseline_keys;
    size_t nbaseline_keys;
    struct qqb_settings s; /* effective: defaults merged with overrides */
    int line, col;         /* the benchmark's mapping */
    /* `model:` (docs/MODELS.md): a formula over the params' names, fitted
     * per key over the sweep; NULL when not given. Where its first
     * character is. */
    char *model;
    int model_line, model_col;
};

/* What a case measures (`metric:`, `qqbench run --metric`): cycles (QQ's
 * ticks), instructions (each key's count under callgrind), or both. */
enum qqb_metric_kind { QQB_METRIC_CYCLES = 0, QQB_METRIC_INSTRUCTIONS = 1, QQB_METRIC_BOTH = 2 };
#define QQB_METRIC_NAMES "cycles, instructions or both"
/* NAME as the enum, or -1; and the enum's name. */
int qqb_metric_parse(const char *name);
const char *qqb_metric_name(int kind);

/* The baseline rows' figure (`run_figure:`, `--run-figure`). */
enum qqb_run_figure { QQB_FIGURE_AUTO, QQB_FIGURE_MEASURED, QQB_FIGURE_REFERENCE };
#define QQB_RUN_FIGURE_NAMES "auto, measured or reference"
/* NAME ("auto", "measured", "reference") as the enum, or -1. */
int qqb_run_figure_parse(const char *name);

struct qqb_suite {
    char *name;
    char *description; /* NULL when not given */
    /* `build:` (docs/SUITE.md): the shell command qqbench ci builds both
     * revisions with ({src}, {out} placeholders); NULL when not given. */
    char *build;
    char *path; /* as passed to qqb_suite_load() */
    char *dir;  /* absolute directory of the suite file */
    struct qqb_settings defaults;
    int max_nodes; /* no benchmark may ask for more nodes (max_nodes:) */
    /* `run_figure:` (docs/STATISTICS.md section 19): the baseline rows'
     * figure, as measured or per machine reference; AUTO (the default)
     * takes the one the baseline's runs agree on better. */
    enum qqb_run_figure run_figure;
    size_t nbench;
    struct qqb_bench *bench;
};

/*
 * Load the suite file PATH. Bare kernel names are looked up in KERNEL_DIR
 * (may be NULL: then only paths are accepted); kernel paths that are
 * relative are relative to the suite file's directory. Returns 0 and
 * *OUT, or -1 with ERR holding one line "path:line:column: error: ..."
 * (1-based; "path: error: ..." when the file cannot be read at all).
 */
int qqb_suite_load(const char *path, const char *kernel_dir, struct qqb_suite **out, char *err,
                   size_t errlen);
/* PATH checked as qqb_suite_load checks it, except that the kernels are
 * not looked for (every kernel_path is NULL): qqbench ci checks the suite
 * before anything is built. 0, or -1 with ERR as qqb_suite_load's. */
int qqb_suite_parse(const char *path, struct qqb_suite **out, char *err, size_t errlen);
void qqb_suite_free(struct qqb_suite *s);

/* ======================================================================
 * Cases: one run configuration of a benchmark. Case i of a benchmark is
 * a point of the parameters' cartesian product (outermost, first param
 * varying slowest), a node count, then a variant (innermost), so the
 * variants of one point and node count are adjacent.
 * ====================================================================== */

struct qqb_case {
    size_t index;
    int nodes;
    int variant;         /* index into variants, -1 when there are none */
    size_t *point;       /* per param: index into its values (nparams) */
    const char **values; /* per param: its value (borrowed from the bench) */
    char **argv;         /* kernel_path, args, variant args; NULL-ended */
    size_t argc;
    char *name; /* e.g. "km_channel[direct,size=200]@2" */
};

size_t qqb_bench_ncases(const struct qqb_bench *b);
/* Fill *C for case I (0 <= I < ncases). Returns 0, or -1 (I out of
 * range, out of memory) with *C zeroed. Free with qqb_case_free(). */
int qqb_bench_case(const struct qqb_bench *b, size_t i, struct qqb_case *c);
void qqb_case_free(struct qqb_case *c);

/* ======================================================================
 * Launcher templates and small helpers.
 * ====================================================================== */

const char *qqb_launcher_default(void);
/* Split TMPL on blanks and substitute "{nodes}" (also inside a word, as in
 * "-n{nodes}"). Returns 0 with a NULL-ended *ARGV (free with
 * qqb_argv_free) and *ARGC, or -1 (empty template, NODES < 1, no memory). */
int qqb_launcher_argv(const char *tmpl, int nodes, char ***argv, size_t *argc);
/* Free a NULL-ended array of strings and the strings. */
void qqb_argv_free(char **argv);

#endif /* QQB_SUITE_H */
