/* cmd_run.c - qqbench run: the options, then the pipeline plan -> measure -> judge -> report. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "clock.h"
#include "cmds.h"
#include "fingerprint.h"
#include "git.h"
#include "history.h"
#include "judge.h"
#include "judge_model.h"
#include "judge_sig.h"
#include "measure.h"
#include "names.h"
#include "opts.h"
#include "yamlcur.h"
#include "plan.h"
#include "pictures.h"
#include "plot.h"
#include "profile.h"
#include "report.h"
#include "runner.h"
#include "stats.h"
#include "suite.h"

struct run_opts {
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
    int require_baseline;
    int have_seed;
    uint64_t seed;
    size_t keep_runs;
    double threshold_bound; /* --threshold-bound; 0: the suite's */
    char **only;
    size_t nonly;
};

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The usage's prose around the option lines, which the table in
 * parse_opts generates. */
static const struct qqb_opts_cmd run_cmd = {
    "run",
    "usage: qqbench run [options] SUITE.yaml\n\n"
    "Run every benchmark of a suite (docs/SUITE.md): each case (benchmark x\n"
    "variant x node count x parameter point) is launched `warmup` times, then\n"
    "`repetitions` rounds, variants interleaved, each round's lead drawn at\n"
    "random (each variant leads once in every block of rounds). Each\n"
    "launch is one sample (docs/STATISTICS.md). Compares cycles per hit of\n"
    "every state key, and memory per key, against this machine's baseline,\n"
    "and every variant against the first variant; a regression is measured\n"
    "again before it counts.\n\n"
    "options:\n",
    "\nExit: 0 nothing regressed (or --update-baseline accepted the run); 1 a\n"
    "regression (timing or memory; with --fail-on-noisy also noisy); 2 bad\n"
    "input or usage; 3 a kernel failed (crash, non-zero exit, timeout, no or\n"
    "damaged output); the other cases' results are still shown.\n"};

/* ---------------------------------------------------------------------
 * The command.
 * --------------------------------------------------------------------- */

/* The report folder (docs/REPORTS.md): the run's JSON as DIR/run.json, then
 * the pictures and index.html drawn from it, exactly as 'qqbench report'
 * draws them from a --json file anywhere else. The default folder's failure
 * is a warning. -2 when the folder cannot be made, -1 when the report
 * cannot be drawn, 0 when it is written. */
static int write_pictures(const struct run_opts *o, const struct qqb_report *rep, const char *suite)
{
    char dir[4096], json[4200], err[512];
    if (o->report_dir)
        snprintf(dir, sizeof dir, "%s", o->report_dir);
    else
        snprintf(dir, sizeof dir, "reports/latest/%s", suite);
    int rc = qqb_plot_mkdir(dir, err, sizeof err);
    int usage = rc != 0; /* a folder that cannot be made: the option's fault */
    snprintf(json, sizeof json, "%s/run.json", dir);
    if (rc == 0)
        rc = qqb_report_json(json, rep, err, sizeof err);
    if (rc == 0)
        rc = qqb_report_write(json, dir, 0, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "qqbench run: %s: the report was not written: %s%s\n",
                o->report_dir ? "error" : "warning", err,
                o->report_dir ? "" : " (--no-report skips it)");
        return usage ? -2 : -1;
    }
    if (!o->quiet)
        fprintf(stderr, "qqbench: report: %s/index.html\n", dir);
    return 0;
}

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

/* --seed N: any whole number a uint64_t holds. */
static int run_seed(const char *v, void *ctx, char *err, size_t errlen)
{
    struct run_opts *o = ctx;
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

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
    const struct qqb_opt table[] = {
        QQB_OPT_FLAG("--update-baseline", 0, &o->update,
                     "accept this run: add it to this machine's baseline\n"
                     "(which keeps the last --keep-runs runs) and exit 0"),
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
        QQB_OPT_STRING("--baseline-from", "ID", &o->baseline_from,
                       "compare against another machine's baseline (loud)"),
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
                    "while a variant's A/B comparison is noisy, measure\n"
                    "more rounds, up to N (default: no more)"),
        QQB_OPT_FLAG_OFF("--no-confirm", &o->confirm,
                         "do not re-measure regressions before failing"),
        QQB_OPT_FLAG("--fail-on-noisy", 0, &o->fail_on_noisy,
                     "a noisy comparison against the baseline fails too"),
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
        QQB_OPT_CALLBACK("--seed", "N", run_seed, o,
                         "seed of the round order (default: from the clock)"),
        QQB_OPT_STRING("--json", "FILE", &o->json, "write every number as JSON"),
        QQB_OPT_STRING("--junit", "FILE", &o->junit,
                       "write a JUnit XML report (a test case per case and key)"),
        QQB_OPT_STRING("--report", "DIR", &o->report_dir,
                       "write the pictures, their data and .gp scripts, the\n"
                       "run's JSON (run.json) and index.html into DIR\n"
                       "(default: reports/latest/SUITE, from where qqbench runs)"),
        QQB_OPT_FLAG("--no-report", 0, &o->no_report, "no report folder"),
        QQB_OPT_STRING("--work", "DIR", &o->work_parent, "where launches write (default: $TMPDIR)"),
        QQB_OPT_FLAG("--keep", 0, &o->keep, "keep the launches' files and logs"),
        QQB_OPT_FLAG("--quiet", 'q', &o->quiet, "no progress, only the table and summary"),
        QQB_OPT_FLAG("--verbose", 'v', &o->verbose, "a line per launch"),
        QQB_OPT_REQUIRED_POSITIONAL("SUITE.yaml", &o->suite_path),
        QQB_OPT_END,
    };
    return qqb_opts_parse(&run_cmd, table, argc, argv, NULL);
}

static void remove_workdir(const char *dir, size_t files)
{
    char path[4300];
    /* Only the files this run made: run<N>.qq, run<N>.log. */
    for (size_t i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/run%zu.log", dir, i);
        unlink(path);
        snprintf(path, sizeof path, "%s/run%zu.qq", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

static int undecided(void *ctx, size_t g, const struct qqb_results *r)
{
    const void *const *c = ctx; /* {plan, base} */
    return qqb_judge_ab_undecided(c[0], g, r, c[1]);
}

/* QQBENCH_REFERENCE_SCALE: tests pretend the machine is that much slower. */
static int reference_scale(double *scale)
{
    *scale = 1.0;
    const char *s = getenv("QQBENCH_REFERENCE_SCALE");
    if (!s || !*s)
        return 0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v > 0) || !isfinite(v)) {
        fprintf(stderr,
                "qqbench run: error: QQBENCH_REFERENCE_SCALE='%s' is not "
                "a positive number\n",
                s);
        return -1;
    }
    *scale = v;
    return 0;
}

/* A baseline that could not be written (RC from qqb_baseline_write or
 * _update, message ERR): the file system's refusal (a full disk, a
 * read-only folder) is exit 3, as a failed launch is; the rest exit 2. */
static int store_failed(int rc, const char *err, const char *as_was)
{
    fprintf(stderr, "%s\n", err);
    if (rc == -2) {
        fprintf(stderr, "qqbench run: error: the results could not be stored; %s\n", as_was);
        return QQB_EXIT_KERNEL;
    }
    return QQB_EXIT_USAGE;
}

/* The machine profile of fingerprint ID beside the baselines in BDIR into
 * P, its path into PATH (set even when there is none): 1 read, 0 none,
 * -1 damaged (said). */
static int load_profile(const char *bdir, const char *id, struct qqb_profile *p, char *path,
                        size_t len)
{
    char err[1024];
    if (qqb_profile_path(bdir, id, path, len) != 0 || access(path, F_OK) != 0)
        return 0;
    if (qqb_profile_read(path, p, err, sizeof err) != 0) {
        fprintf(stderr,
                "%s\nqqbench run: error: the machine profile is damaged; measure it "
                "again (qqbench profile-machine) or remove it\n",
                err);
        return -1;
    }
    return 1;
}

/* The baseline to compare with: 1 read, 0 none (yet), -1 an error (said). */
static int load_baseline(const struct run_opts *o, const struct qqb_suite *suite,
                         const struct qqb_fingerprint *fp, const char *bdir, const char *bpath,
                         struct qqb_results *base)
{
    char err[1024];
    if (access(bpath, F_OK) == 0) {
        if (qqb_baseline_read_as(bpath, suite->name, o->baseline_from ? o->baseline_from : fp->id,
                                 base, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            fprintf(stderr,
                    "qqbench run: error: the baseline cannot be used (the line above "
                    "says why); fix it or remove it (git checkout %s)\n",
                    bpath);
            return -1;
        }
        if (o->baseline_from)
            fprintf(stderr,
                    "qqbench: WARNING: comparing against the baseline of ANOTHER "
                    "machine (%s; this one is %s).\n"
                    "qqbench: WARNING: cycle counts of different machines differ for "
                    "reasons that are not your change; treat verdicts with care.\n",
                    o->baseline_from, fp->id);
        return 1;
    }
    if (o->baseline_from) {
        fprintf(stderr,
                "qqbench run: error: no baseline of suite '%s' for machine "
                "'%s' (%s)\n",
                suite->name, o->baseline_from, bpath);
        return -1;
    }
    if (!o->quiet && !o->require_baseline) {
        char **ids = NULL;
        size_t nids = 0;
        qqb_baseline_find_others(bdir, suite->name, fp->id, &ids, &nids);
        fprintf(stderr,
                "qqbench: no baseline of suite '%s' for this machine (%s) "
                "at %s: this run records one.\n",
                suite->name, fp->id, bpath);
        (void)bdir;
        if (nids) {
            fprintf(stderr, "qqbench: baselines exist for other machines:");
            for (size_t i = 0; i < nids; i++)
                fprintf(stderr, " %s", ids[i]);
            fprintf(stderr, " (compare with --baseline-from ID)\n");
        }
        qqb_baseline_free_list(ids, nids);
    }
    return 0;
}

/* Confirmation: a regression against the baseline counts only if a fresh
 * interleaved measurement of its group says so too (docs/STATISTICS.md
 * section 8 gives the false-confirmation rate). */
static int confirm(struct qqb_measure *m, const struct qqb_plan *plan,
                   const struct qqb_results *base, struct qqb_judgement *j)
{
    size_t *groups, ng;
    if (qqb_judge_flagged_groups(plan, j, &groups, &ng) != 0)
        return -1;
    struct qqb_results conf = {0};
    const char **names = qqb_plan_names(plan);
    int rc = names && qqb_results_init(&conf, names, plan->ncases) == 0 ? 0 : -1;
    free(names);
    if (rc == 0 && !m->quiet)
        fprintf(stderr,
                "qqbench: %zu regression%s: confirming with a fresh "
                "interleaved measurement of %zu group%s\n",
                j->regressed + j->build_regressed,
                j->regressed + j->build_regressed == 1 ? "" : "s", ng, ng == 1 ? "" : "s");
    /* Progress of the confirmation counts its own cases and launches. */
    m->case_at = m->ncases = m->done = m->total = 0;
    for (size_t i = 0; rc == 0 && i < ng; i++) {
        const struct qqb_plan_group *g = &plan->groups[groups[i]];
        m->ncases += g->n;
        m->total += g->n * (size_t)(g->warmup + g->reps);
    }
    for (size_t i = 0; rc == 0 && i < ng; i++)
        rc = qqb_measure_group(m, groups[i], &conf);
    if (rc == 0)
        qqb_judge_confirm(plan, &conf, base, j);
    free(groups);
    qqb_results_free(&conf);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    struct run_opts o = {0};
    o.confirm = 1;
    o.keep_runs = QQB_BASELINE_KEEP_RUNS;
    int prc = parse_opts(argc, argv, &o);
    if (prc != 0) {
        free(o.only);
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    }
    char kbuf[4096];
    if (!o.kernel_dir)
        o.kernel_dir = qqb_default_kernel_dir(kbuf, sizeof kbuf);
    char *against = NULL; /* --against DIR, absolute */
    if (o.against && (!is_dir(o.against) || !(against = realpath(o.against, NULL)))) {
        fprintf(stderr,
                "qqbench run: error: --against %s: not a folder (expected "
                "the reference build's kernel folder, e.g. REF/build/kernels)\n",
                o.against);
        free(o.only);
        return QQB_EXIT_USAGE;
    }

    int exit_code = QQB_EXIT_OK, have_base = 0, have_mem = 0, measured = 0;
    char err[1024];
    struct qqb_suite *suite = NULL;
    struct qqb_plan plan = {0};
    struct qqb_results cur = {0}, base = {0}, membase = {0};
    struct qqb_judgement jd = {0};
    struct qqb_model_judgement models = {0};
    struct qqb_sig_judgement sigs = {0};
    struct qqb_profile prof, base_prof;
    int have_prof = 0, have_base_prof = 0;
    char prof_path[4200] = "";
    struct qqb_measure m = {0};
    const char **names = NULL;

    /* Plan: the suite expanded once. */
    if (qqb_suite_load(o.suite_path, o.kernel_dir, &suite, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        free(o.only);
        free(against);
        return QQB_EXIT_USAGE;
    }
    if (o.threshold_bound > 0)
        for (size_t i = 0; i < suite->nbench; i++)
            suite->bench[i].s.threshold_bound = o.threshold_bound;
    if (qqb_plan_make_against(suite, o.only, o.nonly, o.reps, against, o.kernel_dir, &plan, err,
                              sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }

    /* The baseline: this machine's, or another's when asked. */
    qqb_fingerprint_this(&cur.fp);
    char bdirbuf[4096];
    const char *bdir = o.baselines_dir;
    if (!bdir) {
        /* Of the repository holding the suite, not of the current folder. */
        if (qqb_git_baselines_dir(suite->dir, bdirbuf, sizeof bdirbuf) != 0) {
            fprintf(stderr, "qqbench run: error: the suite's folder %s is too long\n", suite->dir);
            exit_code = QQB_EXIT_USAGE;
            goto done;
        }
        bdir = bdirbuf;
    }
    /* Memory per key: one baseline for every machine. */
    struct qqb_fingerprint memfp = {0};
    snprintf(memfp.id, sizeof memfp.id, "%s", QQB_MEMORY_ID);
    snprintf(memfp.cpu, sizeof memfp.cpu, "any machine");
    char bpath[4096], hpath[4096], own[4096], mpath[4096];
    struct qqb_fingerprint from = cur.fp;
    if (o.baseline_from)
        snprintf(from.id, sizeof from.id, "%s", o.baseline_from);
    if (qqb_baseline_path(bdir, suite->name, &from, NULL, bpath, sizeof bpath) != 0 ||
        qqb_baseline_path(bdir, suite->name, &cur.fp, NULL, own, sizeof own) != 0 ||
        qqb_baseline_memory_path(bdir, suite->name, mpath, sizeof mpath) != 0 ||
        (o.record &&
         qqb_baseline_path(bdir, suite->name, &cur.fp, o.record, hpath, sizeof hpath) != 0)) {
        fprintf(stderr,
                "qqbench run: error: cannot make a baseline path for "
                "suite '%s' (machine '%s'%s%s)\n",
                suite->name, from.id, o.record ? ", label " : "", o.record ? o.record : "");
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    have_base = load_baseline(&o, suite, &cur.fp, bdir, bpath, &base);
    if (have_base < 0) {
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    /* Machine profiles (profile-machine): this machine's, and the
     * baseline's machine's when that is another. */
    const char *other_id = o.baseline_from                                   ? o.baseline_from
                           : have_base && strcmp(base.fp.id, cur.fp.id) != 0 ? base.fp.id
                                                                             : NULL;
    char other_path[sizeof prof_path];
    if ((have_prof = load_profile(bdir, cur.fp.id, &prof, prof_path, sizeof prof_path)) < 0 ||
        (other_id && (have_base_prof = load_profile(bdir, other_id, &base_prof, other_path,
                                                    sizeof other_path)) < 0)) {
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    if (access(mpath, F_OK) == 0) {
        if (qqb_baseline_read_as(mpath, suite->name, QQB_MEMORY_ID, &membase, err, sizeof err) !=
            0) {
            fprintf(stderr,
                    "%s\nqqbench run: error: the memory baseline is damaged; "
                    "fix it or remove it (git checkout %s)\n",
                    err, mpath);
            exit_code = QQB_EXIT_USAGE;
            goto done;
        }
        have_mem = 1;
    }

    /* Measure: results sized from the plan, case i = plan case i. */
    const void *uctx[2] = {&plan, have_base ? &base : NULL};
    m.plan = &plan;
    m.quiet = o.quiet;
    m.verbose = o.verbose;
    m.keep = o.keep;
    m.tty = isatty(STDERR_FILENO);
    m.max_reps = o.max_reps;
    /* Against a reference build, a noisy comparison measures more rounds by
     * default (up to 8x; --max-repetitions sets the maximum): a CI runner
     * shared with other jobs has slow spells that a few pairs cannot outvote.
     * With 4x a planted +3% at a 2% threshold was noisy in one of ten tries
     * on a loaded 2-core machine ([+2.00, +3.10] after 40 rounds, "about 47
     * pairs would decide"); only noisy comparisons pay for the rounds. */
    for (size_t g = 0; against && !o.max_reps && g < plan.ngroups; g++)
        if (8 * plan.groups[g].reps > m.max_reps)
            m.max_reps = 8 * plan.groups[g].reps;
    m.seed =
        o.have_seed ? o.seed : (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    m.undecided = undecided;
    m.ctx = (void *)uctx;
    char workdir[4096];
    m.workdir = workdir;
    const char *tmpdir = getenv("TMPDIR");
    snprintf(workdir, sizeof workdir, "%s/qqbench.XXXXXX",
             o.work_parent ? o.work_parent : (tmpdir && *tmpdir ? tmpdir : "/tmp"));
    if (reference_scale(&m.ref_scale) != 0) {
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    if (!mkdtemp(workdir)) {
        fprintf(stderr, "qqbench run: error: cannot make a work folder %s: %s\n", workdir,
                strerror(errno));
        exit_code = QQB_EXIT_USAGE;
        goto done;
    }
    qqb_runner_trap_signals(o.keep ? NULL : workdir); /* SIGINT & co: clean up */
    measured = 1;
    names = qqb_plan_names(&plan);
    if (!names || qqb_results_init(&cur, names, plan.ncases) != 0 || qqb_measure_init(&m) != 0)
        goto nomem;
    if (!o.quiet)
        fprintf(stderr, "qqbench: suite '%s': %zu launches on %s\n", suite->name, plan.launches,
                cur.fp.id);
    char date[64];
    qqb_utc_now(date, sizeof date);
    cur.suite = strdup(suite->name);
    cur.date = strdup(date);
    cur.version = strdup(QQB_VERSION);
    cur.label = o.record ? strdup(o.record) : NULL;
    char commit[64];
    if (qqb_git_commit(suite->dir, commit, sizeof commit) == 0)
        cur.commit = strdup(commit);
    if (qqb_measure_all(&m, &cur) != 0)
        goto nomem;
    size_t bad_keys = qqb_measure_check_keys(&m, &cur, stderr);

    /* Judge, and confirm what regressed. */
    /* Memory against the memory baseline; without one, against the
     * machine's baseline (which also holds memory, as before). */
    if (qqb_judge_with(&plan, &cur, have_base ? &base : NULL,
                       have_mem    ? &membase
                       : have_base ? &base
                                   : NULL,
                       &jd) != 0)
        goto nomem;
    int confirmed_run = (jd.regressed || jd.build_regressed) && o.confirm && !o.update;
    if (confirmed_run && confirm(&m, &plan, &base, &jd) != 0)
        goto nomem;
    /* Keys noisy in this run and in the recorded runs before it. */
    if (have_base && qqb_history_noisy_runs(bdir, suite->name, cur.fp.id, &jd, QQB_NOISY_RUNS))
        goto nomem;
    /* `model:` fits over each sweep, and their growth against the baseline's. */
    if (qqb_judge_models(&plan, &cur, have_base ? &base : NULL, &models) != 0)
        goto nomem;
    /* Signatures x profiles: predicted against measured, and between machines. */
    if (qqb_judge_signatures(&plan, &cur, have_base ? &base : NULL, have_prof ? &prof : NULL,
                             have_base_prof ? &base_prof : NULL, &sigs) != 0)
        goto nomem;
    sigs.profile_path = prof_path;

    /* Report. */
    struct qqb_report rep = {0};
    rep.suite = suite->name;
    rep.baseline_path = have_base ? bpath : NULL;
    rep.baseline_other = o.baseline_from != NULL;
    rep.against = against;
    rep.memory_baseline_path = have_mem ? mpath : NULL;
    /* What no baseline leaves ungated (docs/BASELINES.md, "A missing
     * baseline"): loud in CI, an error with --require-baseline. */
    int timing_gated = have_base || against, memory_gated = have_mem || have_base || against;
    char gate_note[4600];
    const char *ci = getenv("CI");
    int in_ci = !isatty(STDOUT_FILENO) || (ci && *ci && strcmp(ci, "false") && strcmp(ci, "0"));
    int ungated = !timing_gated || !memory_gated;
    if (!timing_gated && !memory_gated)
        snprintf(gate_note, sizeof gate_note,
                 "no baseline: nothing gated (no timing "
                 "baseline for %s at %.1400s, no memory baseline at %.1400s, no --against)",
                 cur.fp.id, bpath, mpath);
    else if (!timing_gated)
        snprintf(gate_note, sizeof gate_note,
                 "no timing baseline for this machine "
                 "(%s at %.1400s) and no --against: timing not gated; memory gated against "
                 "%.1400s",
                 cur.fp.id, bpath, mpath);
    else if (!memory_gated)
        snprintf(gate_note, sizeof gate_note, "no memory baseline (%.1400s): memory not gated",
                 mpath);
    if (ungated) {
        rep.no_baseline_summary = gate_note;
        if (o.require_baseline)
            rep.no_baseline_note = "No baseline and --require-baseline: this run is an "
                                   "error (exit 2) and records nothing.";
        if (in_ci && !o.update)
            fprintf(stderr,
                    "qqbench: WARNING: %s.\nqqbench: WARNING: this run checks "
                    "less than it seems. Compare against a reference build in the same "
                    "job (qqbench ci, or run --against; docs/CI.md), commit baselines "
                    "(--update-baseline), or make this an error with "
                    "--require-baseline.\n",
                    gate_note);
    }
    rep.results = &cur;
    rep.j = &jd;
    rep.models = &models;
    rep.sigs = &sigs;
    rep.kernel_failures = m.kernel_failures;
    rep.confirmed_run = confirmed_run;
    rep.fail_on_noisy = o.fail_on_noisy;
    rep.seed = m.seed;
    rep.elapsed = qqb_now() - m.t0;
    int failed = jd.regressed || jd.mem_regressed || jd.build_regressed || jd.build_mem_regressed ||
                 models.regressed || (o.fail_on_noisy && (jd.noisy || jd.build_noisy));
    int refused = o.require_baseline && ungated && !o.update;
    /* A launch that lost events measured part of the run: nothing it gave
     * is compared as if complete (the rows say incomplete), nor stored. */
    size_t first_dropped = 0;
    size_t ndropped = qqb_judge_incomplete_case(&plan, &cur, &first_dropped);
    exit_code = bad_keys              ? QQB_EXIT_USAGE
                : m.kernel_failures   ? QQB_EXIT_KERNEL
                : ndropped            ? QQB_EXIT_USAGE
                : failed && !o.update ? QQB_EXIT_REGRESSION
                : refused             ? QQB_EXIT_USAGE
                                      : QQB_EXIT_OK;
    rep.exit_code = exit_code;
    qqb_report_print(stdout, &rep);
    if (ndropped)
        fprintf(stderr,
                "qqbench run: error: %s: %.0f events dropped (the event buffer was full)%s: "
                "its numbers undercount; raise 'events:' in the suite (QQ_EVENTS), or set "
                "'allow_dropped: true'\n",
                cur.cases[first_dropped]->name, qqb_case_dropped(cur.cases[first_dropped]),
                ndropped > 1 ? " (and in other cases)" : "");
    if (o.json && qqb_report_json(o.json, &rep, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit_code = QQB_EXIT_USAGE;
    }
    if (o.junit && qqb_report_junit(o.junit, &rep, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit_code = QQB_EXIT_USAGE;
    }
    /* A report asked for by name that could not be drawn is a result not
     * stored (3), a folder that cannot be made a bad option (2); neither
     * hides a verdict (a regression's 1 stands). */
    int pics = o.no_report ? 0 : write_pictures(&o, &rep, suite->name);
    if (pics != 0 && o.report_dir && exit_code == QQB_EXIT_OK)
        exit_code = pics == -2 ? QQB_EXIT_USAGE : QQB_EXIT_KERNEL;

    /* Baselines: never touched by a run in which a kernel failed or the
     * suite named keys that do not exist. They hold the change build only
     * (the reference build's cases are for this run's comparison). */
    struct qqb_results stored = cur;
    char *keep = NULL;
    if (plan.reference_cases) {
        keep = malloc(plan.ncases);
        if (!keep)
            goto nomem;
        for (size_t i = 0; i < plan.ncases; i++)
            keep[i] = plan.cases[i].build == QQB_BUILD_CHANGE;
        if (qqb_results_view(&cur, keep, 0, &stored) != 0) {
            free(keep);
            goto nomem;
        }
    }
    free(keep);
    /* The memory baseline (every machine's): written with --update-baseline,
     * or when there is none and nothing regressed. */
    int mem_due = !m.kernel_failures && !bad_keys && !refused &&
                  (o.update || (!have_mem && !o.baseline_from && !failed));
    int mem_done = 0;
    if (m.kernel_failures || bad_keys || ndropped) {
        if (o.update || !have_base || o.record)
            fprintf(stderr, "qqbench: %s: the baseline was not written\n",
                    m.kernel_failures ? "a kernel failed"
                    : bad_keys        ? "the suite has errors"
                                      : "events were dropped");
    } else if (refused) {
        /* --require-baseline: the missing baseline is the error. */
    } else if (o.update || (!have_base && !o.baseline_from)) {
        /* The main baseline carries no label: labels name history snapshots. */
        char *label = stored.label;
        stored.label = NULL;
        /* Always this machine's own file: --baseline-from only chooses what
         * to compare against, it never writes another machine's baseline. */
        int own_exists = access(own, F_OK) == 0;
        /* With the memory baseline to update too: both or neither (a
         * refused memory lock left the timing baseline updated, and the
         * message said it was as it was). */
        int urc;
        struct qqb_results memv;
        if (mem_due && qqb_results_view(&stored, NULL, 1, &memv) != 0) {
            stored.label = label;
            goto nomem;
        }
        if (mem_due) {
            memv.fp = memfp;
            memv.label = NULL;
            urc = qqb_baseline_update_both(own, &stored, o.keep_runs, mpath, &memv, 1, err,
                                           sizeof err);
            free(memv.cases);
            mem_done = 1;
        } else {
            urc = qqb_baseline_update(own, &stored, o.keep_runs, err, sizeof err);
        }
        stored.label = label;
        if (urc != 0) {
            exit_code = store_failed(urc, err,
                                     mem_due ? "neither the baseline nor the memory baseline was "
                                               "written"
                                             : "the baseline is as it was");
        } else {
            if (mem_due && !o.quiet)
                fprintf(stderr, "qqbench: memory baseline %s %s (every machine)\n",
                        have_mem ? "updated:" : "recorded:", mpath);
            if (o.update && failed)
                fprintf(stdout,
                        "Accepted as the new baseline: %zu regressed, %zu "
                        "noisy comparison%s and %zu memory regression%s (exit 0).\n",
                        jd.regressed, jd.noisy, jd.noisy == 1 ? "" : "s", jd.mem_regressed,
                        jd.mem_regressed == 1 ? "" : "s");
            if (!o.quiet)
                fprintf(stderr, "qqbench: baseline %s %s (keeps the last %zu runs)\n",
                        own_exists ? "updated:" : "recorded:", own, o.keep_runs);
        }
    }
    if (o.record && !m.kernel_failures && !bad_keys) {
        /* A snapshot keeps the run's verdicts (a key noisy run after run). */
        int wrc = qqb_history_notes(&jd, &stored);
        if (wrc == 0)
            wrc = qqb_baseline_write(hpath, &stored, err, sizeof err);
        else
            snprintf(err, sizeof err, "%.900s: error: out of memory", hpath);
        qqb_results_drop_verdicts(&stored);
        if (wrc != 0) {
            exit_code = store_failed(wrc, err, "no snapshot was written");
        } else if (!o.quiet) {
            fprintf(stderr, "qqbench: snapshot '%s' recorded: %s\n", o.record, hpath);
        }
    }
    /* The memory baseline (every machine's): written with --update-baseline,
     * or when there is none and nothing regressed. (History snapshots of
     * --record hold memory too: qqbench history reads every machine's.) */
    if (mem_due && !mem_done) {
        struct qqb_results memv;
        if (qqb_results_view(&stored, NULL, 1, &memv) != 0)
            goto nomem;
        memv.fp = memfp;
        memv.label = NULL;
        int mrc = qqb_baseline_update(mpath, &memv, 1, err, sizeof err);
        if (mrc != 0) {
            exit_code = store_failed(mrc, err, "the memory baseline is as it was");
        } else if (!o.quiet) {
            fprintf(stderr, "qqbench: memory baseline %s %s (every machine)\n",
                    have_mem ? "updated:" : "recorded:", mpath);
        }
        free(memv.cases);
    }
    if (stored.cases != cur.cases)
        free(stored.cases);
    goto cleanup;

nomem:
    fprintf(stderr, "qqbench run: error: out of memory\n");
    exit_code = QQB_EXIT_USAGE;
cleanup:
    if (measured) {
        if (!o.keep)
            remove_workdir(workdir, m.files);
        else
            fprintf(stderr, "qqbench: launch files kept in %s\n", workdir);
    }
done:
    qqb_runner_untrap_signals();
    free(names);
    qqb_measure_free(&m);
    qqb_judgement_free(&jd);
    qqb_model_judgement_free(&models);
    qqb_sig_judgement_free(&sigs);
    qqb_results_free(&cur);
    qqb_results_free(&base);
    qqb_results_free(&membase);
    qqb_plan_free(&plan);
    qqb_suite_free(suite);
    free(o.only);
    free(against);
    return exit_code;
}
