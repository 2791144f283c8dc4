/* cmd_run.c - qqbench run: the options; run/pipeline.c runs the suite (qqb_run). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "cmds.h"
#include "names.h"
#include "opts.h"
#include "yamlcur.h"
#include "pipeline.h"
#include "suite.h"
#include "stats.h"

/* --budget TIME: seconds, or with s, m or h. */
static int run_budget(const char *v, void *ctx, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double t = strtod(v, &end);
    double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1
                  : !strcmp(end, "m")                   ? 60
                  : !strcmp(end, "h")                   ? 3600
                                                        : -1;
    if (end == v || errno || unit < 0 || !(t >= 0) || !isfinite(t)) {
        snprintf(err, errlen, "--budget '%s': expected a time such as 90s, 10m or 1h", v);
        return -1;
    }
    *(double *)ctx = t * unit;
    return 0;
}

static int run_figure(const char *v, void *ctx, char *err, size_t errlen)
{
    int k = qqb_run_figure_parse(v);
    if (k < 0) {
        snprintf(err, errlen, "--run-figure '%s': expected %s", v, QQB_RUN_FIGURE_NAMES);
        return -1;
    }
    *(int *)ctx = k;
    return 0;
}

/* The usage's prose around the option lines, which the table in
 * cmd_run_table generates. */
static const struct qqb_opts_cmd run_cmd = {
    "run",
    "usage: qqbench run [options] SUITE.yaml\n\n"
    "Run every benchmark of a suite (docs/SUITE.md): each case (benchmark x\n"
    "variant x node count x parameter point) is launched `warmup` times, then\n"
    "`repetitions` rounds, variants interleaved, each round's lead drawn at\n"
    "random (each variant leads once in every block of rounds). Each\n"
    "launch is one sample (docs/STATISTICS.md). Compares cycles per hit of\n"
    "every state key, and memory per key, against this machine's baseline,\n"
    "and every variant against the first variant. Against a stored baseline\n"
    "a case takes the rounds a decision at the threshold needs (--budget);\n"
    "a verdict is final: a regression is not measured again.\n",
    "\nExit: 0 nothing regressed (or --update-baseline accepted the run); 1 a\n"
    "regression (timing or memory; with --fail-on-noisy also noisy, with\n"
    "--fail-on-blind also blind); 2 bad\n"
    "input or usage; 3 a kernel failed (crash, non-zero exit, timeout, no or\n"
    "damaged output); the other cases' results are still shown.\n"};

/* --record LABEL: a label is a file name's part, refused outside the names
 * rule, never changed ('a/b' and 'a_b' were one snapshot). */
static int run_record(const char *v, void *ctx, char *err, size_t errlen)
{
    char why[80];
    if (qqb_name_check(QQB_NAME_PLAIN, v, why, sizeof why) != 0) {
        struct qqb_qbuf q;
        snprintf(err, errlen, "--record '%s' %s; expected %s", qqb_qs(&q, v), why,
                 qqb_name_rule(QQB_NAME_PLAIN));
        return -1;
    }
    *(const char **)ctx = v;
    return 0;
}

/* --metric cycles|instructions|both. */
static int run_metric(const char *v, void *ctx, char *err, size_t errlen)
{
    int k = qqb_metric_parse(v);
    if (k < 0) {
        snprintf(err, errlen, "--metric '%s': expected %s", v, QQB_METRIC_NAMES);
        return -1;
    }
    *(int *)ctx = k;
    return 0;
}

/* --seed N: any whole number a uint64_t holds. */
static int run_seed(const char *v, void *ctx, char *err, size_t errlen)
{
    struct qqb_run_opts *o = ctx;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || !*v || errno || v[0] == '-') {
        snprintf(err, errlen, "--seed '%s': expected a whole number from 0 to %llu", v,
                 (unsigned long long)UINT64_MAX);
        return -1;
    }
    o->seed = n;
    o->have_seed = 1;
    return 0;
}

void cmd_run_table(struct qqb_run_opts *o, struct qqb_opt *t)
{
    const struct qqb_opt table[] = {
        QQB_OPT_GROUP("baseline options:"),
        QQB_OPT_FLAG("--update-baseline", 0, &o->update,
                     "accept this run: add it to this machine's baseline\n"
                     "(which keeps the last --keep-runs runs) and exit 0"),
        QQB_OPT_FLAG("--memory-only", 0, &o->memory_only,
                     "with --update-baseline: accept a memory change alone:\n"
                     "one launch per case (memory is deterministic) rewrites\n"
                     "the memory baseline; no timing baseline is written"),
        QQB_OPT_SIZE("--keep-runs", "K", &o->keep_runs, 1, 1000,
                     "runs a baseline keeps per case (default 5)"),
        QQB_OPT_CALLBACK("--record", "LABEL", run_record, &o->record,
                         "also keep a labelled snapshot (history for reports)"),
        QQB_OPT_STRING("--baselines", "DIR", &o->baselines_dir,
                       "where baselines live (default: baselines/ at the root\n"
                       "of the git checkout holding the suite, else next to\n"
                       "the suite file)"),
        QQB_OPT_FLAG("--require-baseline", 0, &o->require_baseline,
                     "a run that gates nothing (no timing baseline for\n"
                     "this machine and no --against, or no memory\n"
                     "baseline) is an error (exit 2), and records nothing"),
        QQB_OPT_FLAG("--allow-other-flags", 0, &o->allow_other_flags,
                     "compare timing with a baseline whose kernels were\n"
                     "built with other flags (refused otherwise: exit 2);\n"
                     "the table says it crosses builds; memory is gated\n"
                     "either way"),
        QQB_OPT_STRING("--baseline-from", "ID", &o->baseline_from,
                       "compare against another machine's baseline (loud)"),
        QQB_OPT_GROUP("measurement options:"),
        QQB_OPT_STRING("--kernels", "DIR", &o->kernel_dir,
                       "where bare kernel names are found\n"
                       "(default: $QQBENCH_KERNELS, else next to qqbench)"),
        QQB_OPT_STRING("--against", "DIR", &o->against,
                       "also run every case from a reference build whose\n"
                       "kernels are in DIR (same names; a kernel path under\n"
                       "--kernels maps to the same path under DIR, any other\n"
                       "to its basename in DIR), interleaved and paired by\n"
                       "round; a regression vs reference build fails the run;\n"
                       "a noisy one measures up to 8x the rounds (unless\n"
                       "--max-repetitions says otherwise)"),
        QQB_OPT_LIST("--only", "NAME", &o->only, &o->nonly, 0,
                     "run only this benchmark (repeatable)"),
        QQB_OPT_INT("--repetitions", "N", &o->reps, QQB_MIN_REPS, 100000,
                    "override every benchmark's repetitions"),
        QQB_OPT_INT("--max-repetitions", "N", &o->max_reps, QQB_MIN_REPS, 100000,
                    "the most rounds a group takes: while a variant's A/B\n"
                    "comparison is noisy (default: no more), and as the\n"
                    "plan against a stored baseline wants (default: 8x)"),
        QQB_OPT_INT("--passes", "N", &o->passes, 1, 1000,
                    "passes over the suite: each takes every group's share\n"
                    "of its rounds, so a case's launches spread over the\n"
                    "run's time (default 5; 1: each group's rounds in one\n"
                    "go; at most a group's repetitions)"),
        QQB_OPT_FLAG_OFF("--no-confirm", &o->confirm,
                         "accepted and ignored, for scripts of an earlier\n"
                         "qqbench (docs/STATISTICS.md section 17)"),
        QQB_OPT_CALLBACK("--budget", "TIME", run_budget, &o->budget,
                         "against a stored baseline, measure as many rounds as\n"
                         "a decision at the threshold needs (up to 8x, or\n"
                         "--max-repetitions), within TIME for the whole run\n"
                         "(90s, 10m, 1h; default 10m; 0: no limit)"),
        QQB_OPT_CALLBACK("--metric", "M", run_metric, &o->metric,
                         "what every case measures: cycles, instructions (each\n"
                         "key's count under callgrind) or both (default: each\n"
                         "benchmark's metric:, else cycles; docs/INSTRUCTIONS.md)"),
        QQB_OPT_FLAG("--require-metric", 0, &o->require_metric,
                     "an instructions case without valgrind is an error\n"
                     "(exit 2), not skipped with a note"),
        QQB_OPT_CALLBACK("--seed", "N", run_seed, o,
                         "seed of the round order (default: from the clock)"),
        QQB_OPT_GROUP("verdict options:"),
        QQB_OPT_FLAG("--fail-on-noisy", 0, &o->fail_on_noisy,
                     "a noisy comparison against the baseline fails too"),
        QQB_OPT_FLAG("--fail-on-blind", 0, &o->fail_on_blind,
                     "a blind comparison against the baseline fails too"),
        {.kind = QQB_OPTK_DOUBLE,
         .name = "--threshold-bound",
         .arg = "P",
         .value = &o->threshold_bound,
         .min = 0,
         .max = 1e6,
         .flags = QQB_OPT_ABOVE_MIN,
         .expect = "a number of percent above 0 (at most 1000000)",
         .help = "cap noise- and run-derived thresholds at P percent\n"
                 "(default: the suite's threshold_bound:, else 30)"},
        QQB_OPT_CALLBACK("--run-figure", "F", run_figure, &o->run_figure,
                         "against a stored baseline, judge each launch as\n"
                         "measured, or divided by the machine reference timed\n"
                         "just before it (auto, measured, reference; default:\n"
                         "the suite's run_figure:, else auto: the one the\n"
                         "baseline's runs agree on better)"),
        QQB_OPT_GROUP("output options:"),
        QQB_OPT_STRING("--json", "FILE", &o->json, "write every number as JSON"),
        QQB_OPT_STRING("--junit", "FILE", &o->junit,
                       "write a JUnit XML report (a test case per case and key)"),
        QQB_OPT_STRING("--report", "DIR", &o->report_dir,
                       "write the pictures, their data and .gp scripts, the\n"
                       "run's JSON (run.json) and index.html into DIR\n"
                       "(default: reports/latest/SUITE at the root of the\n"
                       "suite's git checkout, else beside the suite file;\n"
                       "a reports/ folder qqbench makes gets a .gitignore\n"
                       "of '*', so git add -A leaves it out)"),
        QQB_OPT_FLAG("--no-report", 0, &o->no_report, "no report folder"),
        QQB_OPT_STRING("--work", "DIR", &o->work_parent, "where launches write (default: $TMPDIR)"),
        QQB_OPT_FLAG("--keep", 0, &o->keep, "keep the launches' files and logs"),
        QQB_OPT_FLAG("--quiet", 'q', &o->quiet, "no progress, only the table and summary"),
        QQB_OPT_FLAG("--verbose", 'v', &o->verbose, "a line per launch"),
        QQB_OPT_REQUIRED_POSITIONAL("SUITE.yaml", &o->suite_path),
        QQB_OPT_END,
    };
    _Static_assert(sizeof table / sizeof table[0] <= CMD_RUN_NOPTS, "CMD_RUN_NOPTS too small");
    memset(t, 0, CMD_RUN_NOPTS * sizeof *t);
    memcpy(t, table, sizeof table);
}

int cmd_run_check(const struct qqb_run_opts *o)
{
    if (o->memory_only && (!o->update || o->against || o->record)) {
        fprintf(stderr, "qqbench run: error: --memory-only %s\n",
                !o->update ? "accepts a memory change: give --update-baseline with it"
                           : "measures one launch per case for the memory baseline alone: not "
                             "with --against or --record");
        return -1;
    }
    /* An output that will be refused is refused before the run, not after
     * it (util/atomic.h: a symbolic link, a folder). */
    const char *outs[][2] = {{"--json", o->json}, {"--junit", o->junit}};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char why[256];
        if (outs[i][1] && qqb_output_check(outs[i][1], why, sizeof why) < 0) {
            struct qqb_qpath q;
            fprintf(stderr, "qqbench run: error: %s %s: %s\n", outs[i][0], qqb_qp(&q, outs[i][1]),
                    why);
            return -1;
        }
    }
    return 0;
}

int cmd_run_options(int argc, char **argv, struct qqb_run_opts *o, int *help)
{
    struct qqb_opt table[CMD_RUN_NOPTS];
    cmd_run_table(o, table);
    int rc = qqb_opts_parse(&run_cmd, table, argc, argv, NULL);
    *help = rc > 0;
    if (rc == 0 && cmd_run_check(o) != 0)
        rc = -1;
    return rc < 0 ? -1 : 0;
}

int cmd_run(int argc, char **argv)
{
    struct qqb_run_opts o;
    qqb_run_opts_init(&o);
    int help = 0, code = QQB_EXIT_USAGE;
    if (cmd_run_options(argc, argv, &o, &help) == 0)
        code = help ? QQB_EXIT_OK : qqb_run(&o);
    qqb_run_opts_free(&o);
    return code;
}
