/* cmd_run.c - qqbench run: the options; run/pipeline.c runs the suite (qqb_run). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "names.h"
#include "nearest.h"
#include "yamlcur.h"
#include "pipeline.h"
#include "stats.h"

static void run_usage(FILE *fp)
{
    fprintf(fp, "usage: qqbench run [options] SUITE.yaml\n\n"
                "Run every benchmark of a suite (docs/SUITE.md): each case (benchmark x\n"
                "variant x node count x parameter point) is launched `warmup` times, then\n"
                "`repetitions` rounds, variants interleaved, each round's lead drawn at\n"
                "random (each variant leads once in every block of rounds). Each\n"
                "launch is one sample (docs/STATISTICS.md). Compares cycles per hit of\n"
                "every state key, and memory per key, against this machine's baseline,\n"
                "and every variant against the first variant; a regression is measured\n"
                "again before it counts.\n\n"
                "options:\n"
                "  --update-baseline   accept this run: add it to this machine's baseline\n"
                "                      (which keeps the last --keep-runs runs) and exit 0\n"
                "  --keep-runs K       runs a baseline keeps per case (default 5)\n"
                "  --record LABEL      also keep a labelled snapshot (history for reports)\n"
                "  --baselines DIR     where baselines live (default: baselines/ at the root\n"
                "                      of the git checkout holding the suite, else next to\n"
                "                      the suite file)\n"
                "  --require-baseline  a run that gates nothing (no timing baseline for\n"
                "                      this machine and no --against, or no memory\n"
                "                      baseline) is an error (exit 2), and records nothing\n"
                "  --baseline-from ID  compare against another machine's baseline (loud)\n"
                "  --kernels DIR       where bare kernel names are found\n"
                "                      (default: $QQBENCH_KERNELS, else next to qqbench)\n"
                "  --against DIR       also run every case from a reference build whose\n"
                "                      kernels are in DIR (same names; a kernel path under\n"
                "                      --kernels maps to the same path under DIR, any other\n"
                "                      to its basename in DIR), interleaved and paired by\n"
                "                      round; a regression vs reference build fails the run;\n"
                "                      a noisy one measures up to 8x the rounds (unless\n"
                "                      --max-repetitions says otherwise)\n"
                "  --only NAME         run only this benchmark (repeatable)\n"
                "  --repetitions N     override every benchmark's repetitions\n"
                "  --max-repetitions N while a variant's A/B comparison is noisy, measure\n"
                "                      more rounds, up to N (default: no more)\n"
                "  --no-confirm        do not re-measure regressions before failing\n"
                "  --fail-on-noisy     a noisy comparison against the baseline fails too\n"
                "  --threshold-bound P cap noise- and run-derived thresholds at P percent\n"
                "                      (default: the suite's threshold_bound:, else 30)\n"
                "  --seed N            seed of the round order (default: from the clock)\n"
                "  --json FILE         write every number as JSON\n"
                "  --junit FILE        write a JUnit XML report (a test case per case and key)\n"
                "  --report DIR        write the pictures, their data and .gp scripts, the\n"
                "                      run's JSON (run.json) and index.html into DIR\n"
                "                      (default: reports/latest/SUITE, from where qqbench runs)\n"
                "  --no-report         no report folder\n"
                "  --work DIR          where launches write (default: $TMPDIR)\n"
                "  --keep              keep the launches' files and logs\n"
                "  -q, --quiet         no progress, only the table and summary\n"
                "  -v, --verbose       a line per launch\n"
                "  -h, --help          this text\n\n"
                "Exit: 0 nothing regressed (or --update-baseline accepted the run); 1 a\n"
                "regression (timing or memory; with --fail-on-noisy also noisy); 2 bad\n"
                "input or usage; 3 a kernel failed (crash, non-zero exit, timeout, no or\n"
                "damaged output); the other cases' results are still shown.\n");
}

static int parse_opts(int argc, char **argv, struct qqb_run_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_ARG()                                                                                \
    do {                                                                                           \
        if (!next) {                                                                               \
            fprintf(stderr, "qqbench run: error: %s needs an argument\n", a);                      \
            return -1;                                                                             \
        }                                                                                          \
        i++;                                                                                       \
    } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            return 1;
        } else if (!strcmp(a, "--update-baseline")) {
            o->update = 1;
        } else if (!strcmp(a, "--record")) {
            NEEDS_ARG();
            o->record = next;
            /* A label is a file name's part: refused outside the names
             * rule, never changed ('a/b' and 'a_b' were one snapshot). */
            char why[80];
            if (qqb_name_check(QQB_NAME_PLAIN, next, why, sizeof why) != 0) {
                struct qqb_qbuf q;
                fprintf(stderr, "qqbench run: error: --record '%s' %s; expected %s\n",
                        qqb_qs(&q, next), why, qqb_name_rule(QQB_NAME_PLAIN));
                return -1;
            }
        } else if (!strcmp(a, "--baselines")) {
            NEEDS_ARG();
            o->baselines_dir = next;
        } else if (!strcmp(a, "--baseline-from")) {
            NEEDS_ARG();
            o->baseline_from = next;
        } else if (!strcmp(a, "--kernels")) {
            NEEDS_ARG();
            o->kernel_dir = next;
        } else if (!strcmp(a, "--against")) {
            NEEDS_ARG();
            o->against = next;
        } else if (!strcmp(a, "--json")) {
            NEEDS_ARG();
            o->json = next;
        } else if (!strcmp(a, "--junit")) {
            NEEDS_ARG();
            o->junit = next;
        } else if (!strcmp(a, "--report")) {
            NEEDS_ARG();
            o->report_dir = next;
        } else if (!strcmp(a, "--no-report")) {
            o->no_report = 1;
        } else if (!strcmp(a, "--work")) {
            NEEDS_ARG();
            o->work_parent = next;
        } else if (!strcmp(a, "--only")) {
            NEEDS_ARG();
            char **v = realloc(o->only, (o->nonly + 1) * sizeof *v);
            if (!v)
                return -1;
            o->only = v;
            o->only[o->nonly++] = (char *)next;
        } else if (!strcmp(a, "--repetitions")) {
            NEEDS_ARG();
            char *end;
            long r = strtol(next, &end, 10);
            if (*end || r < QQB_MIN_REPS || r > 100000) {
                fprintf(stderr,
                        "qqbench run: error: --repetitions takes a whole "
                        "number >= %d, not '%s'\n",
                        QQB_MIN_REPS, next);
                return -1;
            }
            o->reps = (int)r;
        } else if (!strcmp(a, "--max-repetitions")) {
            NEEDS_ARG();
            char *end;
            long r = strtol(next, &end, 10);
            if (*end || r < QQB_MIN_REPS || r > 100000) {
                fprintf(stderr,
                        "qqbench run: error: --max-repetitions takes a whole "
                        "number >= %d, not '%s'\n",
                        QQB_MIN_REPS, next);
                return -1;
            }
            o->max_reps = (int)r;
        } else if (!strcmp(a, "--no-confirm")) {
            o->confirm = 0;
        } else if (!strcmp(a, "--fail-on-noisy")) {
            o->fail_on_noisy = 1;
        } else if (!strcmp(a, "--require-baseline")) {
            o->require_baseline = 1;
        } else if (!strcmp(a, "--threshold-bound")) {
            NEEDS_ARG();
            char *end;
            errno = 0;
            double v = strtod(next, &end);
            if (end == next || *end || errno || !(v > 0) || v > 1e6) {
                fprintf(stderr,
                        "qqbench run: error: --threshold-bound takes a number of "
                        "percent > 0, not '%s'\n",
                        next);
                return -1;
            }
            o->threshold_bound = v;
        } else if (!strcmp(a, "--keep-runs")) {
            NEEDS_ARG();
            char *end;
            long r = strtol(next, &end, 10);
            if (*end || r < 1 || r > 1000) {
                fprintf(stderr,
                        "qqbench run: error: --keep-runs takes a whole "
                        "number from 1 to 1000, not '%s'\n",
                        next);
                return -1;
            }
            o->keep_runs = (size_t)r;
        } else if (!strcmp(a, "--seed")) {
            NEEDS_ARG();
            char *end;
            errno = 0;
            unsigned long long v = strtoull(next, &end, 10);
            if (*end || !*next || errno || next[0] == '-') {
                fprintf(stderr,
                        "qqbench run: error: --seed takes a whole number, "
                        "not '%s'\n",
                        next);
                return -1;
            }
            o->seed = v;
            o->have_seed = 1;
        } else if (!strcmp(a, "--keep")) {
            o->keep = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = 1;
        } else if (a[0] == '-' && a[1]) {
            static const char *const known[] = {
                "--update-baseline", "--record",          "--baselines",  "--baseline-from",
                "--kernels",         "--against",         "--json",       "--junit",
                "--report",          "--no-report",       "--work",       "--only",
                "--repetitions",     "--max-repetitions", "--no-confirm", "--keep",
                "--fail-on-noisy",   "--keep-runs",       "--seed",       "--require-baseline",
                "--quiet",           "--verbose",         "--help"};
            const char *near = qqb_nearest(a, known, sizeof known / sizeof known[0]);
            fprintf(stderr,
                    "qqbench run: error: unknown option '%s'%s%s%s; see "
                    "'qqbench run --help'\n",
                    a, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
            return -1;
        } else if (o->suite_path) {
            fprintf(stderr, "qqbench run: error: one suite at a time ('%s' and '%s')\n",
                    o->suite_path, a);
            return -1;
        } else {
            o->suite_path = a;
        }
#undef NEEDS_ARG
    }
    if (!o->suite_path) {
        run_usage(stderr);
        return -1;
    }
    return 0;
}

int cmd_run_options(int argc, char **argv, struct qqb_run_opts *o, int *help)
{
    int rc = parse_opts(argc, argv, o);
    *help = rc > 0;
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
