/* pipeline.c - qqbench run (pipeline.h): the steps from the suite to what is stored, over one
 * struct run. What a step decides (which baseline, what is gated, the exit code, what is
 * stored) is gate.c's; a step does the reading, launching and writing around it. */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include "pipeline.h"
#include "judge_plan.h"
#include "judge_runs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "builds.h"
#include "clock.h"
#include "fingerprint.h"
#include "gate.h"
#include "git.h"
#include "history.h"
#include "instrs.h"
#include "judge.h"
#include "judge_model.h"
#include "judge_sig.h"
#include "judge_tune.h"
#include "measure.h"
#include "outputs.h"
#include "pictures.h"
#include "plan.h"
#include "plot.h"
#include "profile.h"
#include "report.h"
#include "runner.h"
#include "strbuf.h"
#include "suite.h"
#include "words.h"

/* One run, from the options to what is stored. A step returns 0 to go
 * on, or -1 with the error said and oc.stopped set (fail()); what the run
 * came to goes into oc, and finish makes the exit code of it. */
struct run {
    const struct qqb_run_opts *o;
    char err[1024];
    char kbuf[4096];
    const char *kernel_dir; /* --kernels, else the default */
    char *against;          /* --against DIR, absolute; NULL without */
    struct qqb_suite *suite;
    struct qqb_plan plan;
    char bdirbuf[4096];
    const char *bdir; /* where the baselines live */
    struct qqb_run_paths paths;
    struct qqb_results cur, base, membase;
    int have_base, have_mem;
    struct qqb_profile prof, base_prof;
    int have_prof, have_base_prof;
    char prof_path[4200];
    struct qqb_measure m;
    const char **names;
    char workdir[4096];
    int measured; /* the work folder exists */
    struct qqb_judgement jd;
    struct qqb_model_judgement models;
    struct qqb_sig_judgement sigs;
    struct qqb_tune_judgement tunes;
    struct qqb_run_gate gate;
    struct qqb_strbuf note; /* what is not gated */
    struct qqb_report rep;
    struct qqb_run_outcome oc;
    size_t first_dropped;
    struct qqb_results stored;    /* cur, the change build's cases only */
    struct qqb_run_builds builds; /* each plan case's kernel build */
    struct qqb_strbuf crossing;   /* the kernels the baseline's builds differ in */
};

/* ---------------------------------------------------------------------
 * Helpers.
 * --------------------------------------------------------------------- */

/* The run stopped, with exit code CODE: -1. */
static int fail(struct run *r, int code)
{
    r->oc.stopped = code;
    return -1;
}

static int nomem(struct run *r)
{
    fprintf(stderr, "qqbench run: error: out of memory\n");
    return fail(r, QQB_EXIT_USAGE);
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
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

/* measure/'s callbacks, into judge/: is group G of R still undecided
 * (--max-repetitions), and the rounds the plan wants of each group. */
static int undecided(const struct qqb_measure *m, size_t g, const struct qqb_results *r)
{
    return qqb_judge_ab_undecided(m->plan, g, r, m->base);
}

static void planned(const struct qqb_measure *m, size_t *want)
{
    if (qqb_judge_plan_start(m->plan, m->base, want) != 0)
        for (size_t g = 0; g < m->plan->ngroups; g++)
            want[g] = 0; /* out of memory: no more rounds than the suite's */
}

/* A positive number from the environment variable NAME into *V (0 where
 * NAME is unset or empty); -1, said, where it is not one. */
static int env_positive(const char *name, double *v)
{
    *v = 0;
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end;
    double x = strtod(s, &end);
    if (*end || !(x > 0) || !isfinite(x)) {
        fprintf(stderr, "qqbench run: error: %s='%s' is not a positive number\n", name, s);
        return -1;
    }
    *v = x;
    return 0;
}

/* The test hooks of the machine reference (docs/RUNNING.md):
 * QQBENCH_REFERENCE_SCALE, the machine that much slower;
 * QQBENCH_REFERENCE_TICKS, the reference that figure instead of timed,
 * for kernels whose figures are declared, not timed (synth): their runs
 * then do not depend on the machine's load through it. */
static int reference_hooks(struct qqb_measure *m)
{
    if (env_positive("QQBENCH_REFERENCE_SCALE", &m->ref_scale) != 0 ||
        env_positive("QQBENCH_REFERENCE_TICKS", &m->ref_ticks) != 0)
        return -1;
    if (m->ref_scale == 0)
        m->ref_scale = 1.0;
    return 0;
}

/* A baseline that could not be written (RC from qqb_baseline_write or
 * _update, message ERR): said, and kept in the outcome (qqb_run_exit_code:
 * the file system's refusal is exit 3, the rest 2). */
static void store_failed(struct run *r, int rc, const char *err, const char *as_was)
{
    fprintf(stderr, "%s\n", err);
    if (rc == -2)
        fprintf(stderr, "qqbench run: error: the results could not be stored; %s\n", as_was);
    r->oc.store_rc = rc;
}

/* ---------------------------------------------------------------------
 * The suite, its plan and the baselines.
 * --------------------------------------------------------------------- */

/* The kernels, the reference build's folder, and the suite. */
static int step_inputs(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    r->kernel_dir = o->kernel_dir ? o->kernel_dir : qqb_default_kernel_dir(r->kbuf, sizeof r->kbuf);
    if (o->against && (!is_dir(o->against) || !(r->against = realpath(o->against, NULL)))) {
        fprintf(stderr,
                "qqbench run: error: --against %s: not a folder (expected "
                "the reference build's kernel folder, e.g. REF/build/kernels)\n",
                o->against);
        return fail(r, QQB_EXIT_USAGE);
    }
    if (qqb_suite_load(o->suite_path, r->kernel_dir, &r->suite, r->err, sizeof r->err) != 0) {
        fprintf(stderr, "%s\n", r->err);
        return fail(r, QQB_EXIT_USAGE);
    }
    return 0;
}

/* Plan: the suite expanded once, with the options' settings. */
static int step_plan(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    struct qqb_plan_args a = {
        .only = o->only,
        .nonly = o->nonly,
        .reps = o->reps,
        .once = o->memory_only, /* memory is deterministic: one launch per case, no warmup */
        .against = r->against,
        .kernel_dir = r->kernel_dir,
        .threshold_bound = o->threshold_bound,
        .run_figure = o->run_figure,
        .passes = o->passes > 0 ? o->passes : QQB_DEFAULT_PASSES,
        .max_reps = o->max_reps,
    };
    if (qqb_plan_make_with(r->suite, &a, &r->plan, r->err, sizeof r->err) != 0) {
        fprintf(stderr, "%s\n", r->err);
        return fail(r, QQB_EXIT_USAGE);
    }
    return 0;
}

/* The machine profile of fingerprint ID beside the baselines in BDIR into
 * P, its path into PATH (set even when there is none), *FOUND 1 when one
 * was read: 0 (read, or none), or -1 when it is damaged (said). */
static int load_profile(const char *bdir, const char *id, struct qqb_profile *p, char *path,
                        size_t len, int *found)
{
    char err[1024];
    *found = 0;
    if (qqb_profile_path(bdir, id, path, len) != 0 || access(path, F_OK) != 0)
        return 0;
    if (qqb_profile_read(path, p, err, sizeof err) != 0) {
        fprintf(stderr,
                "%s\nqqbench run: error: the machine profile is damaged; measure it "
                "again (qqbench profile-machine) or remove it\n",
                err);
        return -1;
    }
    *found = 1;
    return 0;
}

/* No baseline for this machine: said, with the machines that have one. */
static void say_no_baseline(const struct run *r)
{
    char **ids = NULL;
    size_t nids = 0;
    qqb_baseline_find_others(r->bdir, r->suite->name, r->cur.fp.id, &ids, &nids);
    /* ci --with-baseline reads a stored baseline but writes one only when
     * asked (--update-baseline, --record). */
    int records = r->o->stored == QQB_STORED_ALL || r->o->update || r->o->record;
    fprintf(stderr, "qqbench: no baseline of suite '%s' for this machine (%s) at %s: %s.\n",
            r->suite->name, r->cur.fp.id, r->paths.bpath,
            records ? "this run records one" : "none is written without --update-baseline");
    if (nids) {
        fprintf(stderr, "qqbench: baselines exist for other machines:");
        for (size_t i = 0; i < nids; i++)
            fprintf(stderr, " %s", ids[i]);
        fprintf(stderr, " (compare with --baseline-from ID)\n");
    }
    qqb_baseline_free_list(ids, nids);
}

/* The baseline to compare with, *FOUND 1 when one was read: 0 (read, or
 * none yet), or -1 on an error (said). */
static int load_baseline(struct run *r, int *found)
{
    const struct qqb_run_opts *o = r->o;
    *found = 0;
    const char *bpath = r->paths.bpath;
    if (access(bpath, F_OK) == 0) {
        if (qqb_baseline_read_as(bpath, r->suite->name,
                                 o->baseline_from ? o->baseline_from : r->cur.fp.id, &r->base,
                                 r->err, sizeof r->err) != 0) {
            fprintf(stderr, "%s\n", r->err);
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
                    o->baseline_from, r->cur.fp.id);
        *found = 1;
        return 0;
    }
    if (o->baseline_from) {
        fprintf(stderr,
                "qqbench run: error: no baseline of suite '%s' for machine "
                "'%s' (%s)\n",
                r->suite->name, o->baseline_from, bpath);
        return -1;
    }
    if (!o->quiet && !o->require_baseline)
        say_no_baseline(r);
    return 0;
}

/* The memory baseline (every machine's), when there is one. */
static int load_memory_baseline(struct run *r)
{
    const char *mpath = r->paths.mpath;
    if (access(mpath, F_OK) != 0)
        return 0;
    if (qqb_baseline_read_as(mpath, r->suite->name, QQB_MEMORY_ID, &r->membase, r->err,
                             sizeof r->err) != 0) {
        fprintf(stderr,
                "%s\nqqbench run: error: the memory baseline is damaged; "
                "fix it or remove it (git checkout %s)\n",
                r->err, mpath);
        return -1;
    }
    r->have_mem = 1;
    return 0;
}

/* The baselines: this machine's, or another's when asked; the machine
 * profiles (profile-machine) of this machine and of the baseline's when
 * that is another; the memory baseline. */
static int step_baselines(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    qqb_fingerprint_this(&r->cur.fp);
    r->bdir = o->baselines_dir;
    if (!r->bdir) {
        /* Of the repository holding the suite, not of the current folder. */
        if (qqb_git_baselines_dir(r->suite->dir, r->bdirbuf, sizeof r->bdirbuf) != 0) {
            fprintf(stderr, "qqbench run: error: the suite's folder %s is too long\n",
                    r->suite->dir);
            return fail(r, QQB_EXIT_USAGE);
        }
        r->bdir = r->bdirbuf;
    }
    if (qqb_run_paths(r->bdir, r->suite->name, &r->cur.fp, o->baseline_from, o->record, &r->paths,
                      r->err, sizeof r->err) != 0) {
        fprintf(stderr, "qqbench run: error: %s\n", r->err);
        return fail(r, QQB_EXIT_USAGE);
    }
    /* ci compares with its reference build: no stored baseline unless asked. */
    if (o->stored == QQB_STORED_NONE)
        return 0;
    if (!o->memory_only && load_baseline(r, &r->have_base) != 0)
        return fail(r, QQB_EXIT_USAGE);
    const char *other_id =
        qqb_run_other_machine(o->baseline_from, r->have_base, r->base.fp.id, r->cur.fp.id);
    char other_path[sizeof r->prof_path];
    if (load_profile(r->bdir, r->cur.fp.id, &r->prof, r->prof_path, sizeof r->prof_path,
                     &r->have_prof) != 0 ||
        (other_id && load_profile(r->bdir, other_id, &r->base_prof, other_path, sizeof other_path,
                                  &r->have_base_prof) != 0))
        return fail(r, QQB_EXIT_USAGE);
    if (load_memory_baseline(r) != 0)
        return fail(r, QQB_EXIT_USAGE);
    return 0;
}

/* The kernels' builds (docs/BASELINES.md, "The kernels' builds"): a
 * warning per kernel the reference build was built differently; a baseline
 * whose kernels were is refused before anything is launched, unless
 * --allow-other-flags or --update-baseline says to go on. */
static int step_builds(struct run *r)
{
    if (qqb_run_builds_read(&r->plan, &r->builds, r->err, sizeof r->err) != 0) {
        fprintf(stderr, "%s\n", r->err);
        return fail(r, QQB_EXIT_USAGE);
    }
    if (r->against)
        qqb_run_builds_warn_against(&r->plan, &r->builds, stderr);
    if (!r->have_base || !qqb_run_builds_versus(&r->plan, &r->builds, &r->base, &r->crossing))
        return 0;
    if (qqb_strbuf_failed(&r->crossing))
        return nomem(r);
    if (!r->o->allow_other_flags && !r->o->update) {
        fprintf(stderr,
                "qqbench run: error: the baseline's kernels were built with other flags: %s; "
                "its timings and instruction counts are of another program (--allow-other-flags "
                "compares anyway, "
                "--update-baseline records this build)\n",
                qqb_strbuf_str_of(&r->crossing));
        return fail(r, QQB_EXIT_USAGE);
    }
    fprintf(stderr, "qqbench: WARNING: timing compared across builds: %s\n",
            qqb_strbuf_str_of(&r->crossing));
    return 0;
}

/* ---------------------------------------------------------------------
 * The launches.
 * --------------------------------------------------------------------- */

/* The measurement's settings, and the work folder it writes in. */
static int step_workdir(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    struct qqb_measure *m = &r->m;
    m->plan = &r->plan;
    m->base = r->have_base ? &r->base : NULL;
    m->quiet = o->quiet;
    m->verbose = o->verbose;
    m->keep = o->keep;
    m->tty = isatty(STDERR_FILENO);
    m->max_reps = r->plan.max_reps;
    m->seed = qqb_run_seed(o, (uint64_t)time(NULL), (uint64_t)getpid());
    m->undecided = o->memory_only ? NULL : undecided;
    /* Against a stored baseline, the plan: as many rounds as its rows need
     * to decide, up to 8x (or --max-repetitions), within --budget. */
    m->planned = r->have_base && !o->update && !o->memory_only ? planned : NULL;
    m->budget = o->budget;
    m->max_planned = o->max_reps; /* 0: each group's 8x */
    m->workdir = r->workdir;
    snprintf(r->workdir, sizeof r->workdir, "%s/qqbench.XXXXXX",
             qqb_run_work_parent(o->work_parent, getenv("TMPDIR")));
    if (reference_hooks(m) != 0)
        return fail(r, QQB_EXIT_USAGE);
    if (!mkdtemp(r->workdir)) {
        fprintf(stderr, "qqbench run: error: cannot make a work folder %s: %s\n", r->workdir,
                strerror(errno));
        return fail(r, QQB_EXIT_USAGE);
    }
    qqb_runner_trap_signals(o->keep ? NULL : r->workdir); /* SIGINT & co: clean up */
    r->measured = 1;
    return 0;
}

/* Measure: results sized from the plan, case i = plan case i, every
 * group's launches; a key of the suite that a benchmark's first file does
 * not name stops it (bad input). */
static int step_measure(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    struct qqb_results *cur = &r->cur;
    r->names = qqb_plan_names(&r->plan);
    if (!r->names || qqb_results_init(cur, r->names, r->plan.ncases) != 0 ||
        qqb_run_builds_attach(&r->builds, cur) != 0 || qqb_measure_init(&r->m) != 0)
        return nomem(r);
    struct qqb_count nl;
    if (!o->quiet)
        fprintf(stderr, "qqbench: suite '%s': %s on %s\n", r->suite->name,
                qqb_count(&nl, r->plan.launches, "launch"), cur->fp.id);
    char date[64];
    qqb_utc_now(date, sizeof date);
    cur->suite = strdup(r->suite->name);
    cur->date = strdup(date);
    cur->version = strdup(QQB_VERSION);
    cur->label = o->record ? strdup(o->record) : NULL;
    char commit[64];
    if (qqb_git_commit(r->suite->dir, commit, sizeof commit) == 0)
        cur->commit = strdup(commit);
    char err[800], vgbuf[4200];
    struct qqb_instrs in = {&r->plan, r->workdir, NULL, o->metric, o->reps, o->quiet, o->keep, 0};
    size_t ncycles = 0, ninstr = 0;
    for (size_t i = 0; i < r->plan.ncases; i++) {
        int kind = qqb_instrs_case_metric(&in, &r->plan.cases[i]);
        ncycles += kind != QQB_METRIC_INSTRUCTIONS;
        ninstr += kind != QQB_METRIC_CYCLES;
    }
    if (ninstr && !(in.valgrind = qqb_instrs_valgrind(vgbuf, sizeof vgbuf))) {
        struct qqb_count nc;
        if (o->require_metric) {
            fprintf(stderr,
                    "qqbench run: error: valgrind is not on PATH: %s of instructions cannot be "
                    "measured (--require-metric)\n",
                    qqb_count(&nc, ninstr, "case"));
            return fail(r, QQB_EXIT_USAGE);
        }
        fprintf(stderr, "qqbench: valgrind is not on PATH: %s of instructions skipped\n",
                qqb_count(&nc, ninstr, "case"));
    }
    if (ncycles && qqb_measure_all(&r->m, cur, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return fail(r, QQB_EXIT_USAGE);
    }
    if (ninstr && qqb_instrs_measure(&in, cur) != 0)
        return nomem(r);
    return 0;
}

/* ---------------------------------------------------------------------
 * The verdicts.
 * --------------------------------------------------------------------- */

/* The models' growth; the verdicts, the growth rows in one Holm family
 * with the timing rows; the keys noisy run after run; the signatures
 * against the machine profiles. */
static int step_judge(struct run *r)
{
    const struct qqb_results *base = r->have_base ? &r->base : NULL;
    /* `model:` fits over each sweep, and their growth against the baseline's runs. */
    if (qqb_judge_models(&r->plan, &r->cur, base, &r->models) != 0)
        return nomem(r);
    /* Memory against the memory baseline; without one, against the
     * machine's baseline (which also holds memory, as before). */
    if (qqb_judge_all(&r->plan, &r->cur, base, r->have_mem ? &r->membase : base, &r->models,
                      &r->jd) != 0)
        return nomem(r);
    /* The figures the reports print beyond the rows, made once here. */
    if (qqb_judgement_figures(&r->jd, &r->cur) != 0)
        return nomem(r);
    /* Keys noisy in this run and in the recorded runs before it. */
    if (r->have_base &&
        qqb_history_noisy_runs(r->bdir, r->suite->name, r->cur.fp.id, &r->jd, QQB_NOISY_RUNS))
        return nomem(r);
    /* Signatures x profiles: predicted against measured, and between machines. */
    if (qqb_judge_signatures(&r->plan, &r->cur, base, r->have_prof ? &r->prof : NULL,
                             r->have_base_prof ? &r->base_prof : NULL, &r->sigs) != 0)
        return nomem(r);
    r->sigs.profile_path = r->prof_path;
    /* QQTune's choices, and the baseline's where it chose otherwise. */
    if (qqb_judge_tunes(&r->cur, base, &r->tunes) != 0)
        return nomem(r);
    return 0;
}

/* ---------------------------------------------------------------------
 * The report.
 * --------------------------------------------------------------------- */

/* What no baseline leaves ungated (docs/BASELINES.md, "A missing
 * baseline"): the report's note, loud in CI, an error with
 * --require-baseline. */
static int gate_run(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    int in_ci = qqb_run_in_ci(getenv("CI"), isatty(STDOUT_FILENO));
    qqb_run_gate(r->have_base, r->have_mem, r->against != NULL, o->require_baseline, o->update,
                 in_ci, &r->gate);
    /* Against the reference build with no stored baseline: what is read
     * and written, as step_store does it (the report said "this run
     * becomes the baseline" where ci wrote none). */
    if (r->against && !r->have_base && !o->memory_only)
        r->rep.no_baseline_note =
            o->stored == QQB_STORED_NONE
                ? "Against the reference build alone: no stored baseline read or written "
                  "(qqbench ci without --with-baseline)."
            : o->stored == QQB_STORED_ASKED && !o->update
                ? "No baseline for this machine: compared against the reference build alone; "
                  "no baseline is written (--update-baseline records one)."
                : "No baseline for this machine: compared against the reference build alone; "
                  "the change build's cases become the baseline.";
    /* --memory-only leaves timing out by choice (and reads no timing
     * baseline): its own note says so, not "no timing baseline". */
    if (!r->gate.ungated || o->memory_only)
        return 0;
    qqb_run_gate_note(&r->note, &r->gate, r->cur.fp.id, r->paths.bpath, r->paths.mpath);
    if (qqb_strbuf_failed(&r->note))
        return nomem(r);
    r->rep.no_baseline_summary = qqb_strbuf_str_of(&r->note);
    r->rep.no_baseline_note = r->gate.title_note;
    if (r->gate.warn) {
        struct qqb_strbuf w = QQB_STRBUF_INIT;
        qqb_run_gate_warning(&w, r->rep.no_baseline_summary);
        if (qqb_strbuf_failed(&w))
            return nomem(r);
        fputs(qqb_strbuf_str_of(&w), stderr);
        qqb_strbuf_free(&w);
    }
    return 0;
}

/* The report folder (docs/REPORTS.md): the run's JSON as DIR/run.json, then
 * the pictures and index.html drawn from it, exactly as 'qqbench report'
 * draws them from a --json file anywhere else. The default folder's failure
 * is a warning. -2 when the folder cannot be made, -1 when the report
 * cannot be drawn, 0 when it is written. */
static int write_pictures(const struct qqb_run_opts *o, const struct qqb_report *rep,
                          const struct qqb_suite *suite)
{
    char dir[4096], json[4200], err[512];
    int rc = 0;
    if (o->report_dir)
        snprintf(dir, sizeof dir, "%s", o->report_dir);
    else /* ROOT/reports/latest/SUITE, reports/ ignored by git (outputs.h) */
        rc = qqb_run_report_dir(suite->dir, suite->name, dir, sizeof dir, err, sizeof err);
    if (rc == 0)
        rc = qqb_plot_mkdir(dir, err, sizeof err);
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

/* The report: the table on stdout, the run's JSON and JUnit files, the
 * report folder; the outcome's verdicts and outputs. */
static int step_report(struct run *r)
{
    const struct qqb_run_opts *o = r->o;
    struct qqb_report *rep = &r->rep;
    rep->suite = r->suite->name;
    rep->baseline_path = r->have_base ? r->paths.bpath : NULL;
    rep->baseline_other = o->baseline_from != NULL;
    if (r->crossing.n)
        rep->baseline_other_build = qqb_strbuf_str_of(&r->crossing);
    rep->against = r->against;
    rep->memory_baseline_path = r->have_mem ? r->paths.mpath : NULL;
    if (gate_run(r) != 0)
        return -1;
    rep->memory_only = o->memory_only;
    if (o->memory_only)
        rep->no_baseline_note = "--memory-only: timing is not compared; one launch per case "
                                "rewrites the memory baseline.";
    rep->results = &r->cur;
    rep->j = &r->jd;
    rep->models = &r->models;
    rep->sigs = &r->sigs;
    rep->tunes = &r->tunes;
    rep->kernel_failures = r->m.kernel_failures;
    rep->fail_on_noisy = o->fail_on_noisy;
    rep->fail_on_blind = o->fail_on_blind;
    rep->seed = r->m.seed;
    rep->passes = r->m.passes;
    rep->elapsed = qqb_now() - r->m.t0;
    struct qqb_run_outcome *oc = &r->oc;
    oc->kernel_failures = r->m.kernel_failures;
    oc->failed = qqb_run_failed(&r->jd, &r->models, o->fail_on_noisy, o->fail_on_blind);
    oc->refused = r->gate.refused;
    oc->update = o->update;
    oc->have_base = r->have_base;
    oc->have_mem = r->have_mem;
    oc->baseline_from = o->baseline_from != NULL;
    oc->record = o->record != NULL;
    oc->memory_only = o->memory_only;
    oc->stored = o->stored;
    /* A launch that lost events measured part of the run: nothing it gave
     * is compared as if complete (the rows say incomplete), nor stored. */
    oc->ndropped = qqb_judge_incomplete_case(&r->plan, &r->cur, &r->first_dropped);
    rep->exit_code = qqb_run_exit_code(oc); /* the verdicts' (no output written yet) */
    qqb_report_print(stdout, rep);
    if (oc->ndropped) {
        const struct qqb_case_result *c = r->cur.cases[r->first_dropped];
        fprintf(stderr,
                "qqbench run: error: %s: %.0f events dropped (the event buffer was full)%s: "
                "its numbers undercount; raise 'events:' in the suite (QQ_EVENTS), or set "
                "'allow_dropped: true'\n",
                c->name, qqb_case_dropped(c), oc->ndropped > 1 ? " (and in other cases)" : "");
    }
    oc->json_failed = o->json && qqb_report_json(o->json, rep, r->err, sizeof r->err) != 0;
    if (oc->json_failed)
        fprintf(stderr, "%s\n", r->err);
    oc->junit_failed = o->junit && qqb_report_junit(o->junit, rep, r->err, sizeof r->err) != 0;
    if (oc->junit_failed)
        fprintf(stderr, "%s\n", r->err);
    oc->pictures = o->no_report ? 0 : write_pictures(o, rep, r->suite);
    oc->report_named = o->report_dir != NULL;
    return 0;
}

/* ---------------------------------------------------------------------
 * What is stored.
 * --------------------------------------------------------------------- */

/* The memory baseline's view of the stored run: memory only, under the
 * memory fingerprint, no label. */
static int memory_view(const struct run *r, struct qqb_results *memv)
{
    if (qqb_results_view(&r->stored, NULL, 1, memv) != 0)
        return -1;
    memv->fp = r->paths.memfp;
    memv->label = NULL;
    return 0;
}

/* 1 when the memory baseline holds the memory MEMV does (said unless
 * --quiet): rewriting it would change its date, commit and tick rates
 * alone, a diff in the user's tree on every --update-baseline. */
static int memory_unchanged(const struct run *r, const struct qqb_results *memv)
{
    if (!r->have_mem || !qqb_results_same_memory(memv, &r->membase))
        return 0;
    if (!r->o->quiet)
        fprintf(stderr, "qqbench: memory baseline unchanged: %s (every machine)\n", r->paths.mpath);
    return 1;
}

/* This machine's baseline, and the memory baseline with it when it is due
 * (both or neither: a refused memory lock left the timing baseline
 * updated, and the message said it was as it was). Always this machine's
 * own file: --baseline-from only chooses what to compare against, it never
 * writes another machine's baseline. */
static int store_baseline(struct run *r, const struct qqb_run_store *s)
{
    const struct qqb_run_opts *o = r->o;
    const char *own = r->paths.own, *mpath = r->paths.mpath;
    /* The main baseline carries no label: labels name history snapshots. */
    char *label = r->stored.label;
    r->stored.label = NULL;
    int own_exists = access(own, F_OK) == 0;
    int urc, memory = s->memory;
    struct qqb_results memv;
    if (memory && memory_view(r, &memv) != 0) {
        r->stored.label = label;
        return nomem(r);
    }
    if (memory && memory_unchanged(r, &memv)) {
        free(memv.cases);
        memory = 0;
    }
    if (memory) {
        urc = qqb_baseline_update_both(own, &r->stored, o->keep_runs, mpath, &memv, 1, r->err,
                                       sizeof r->err);
        free(memv.cases);
    } else {
        urc = qqb_baseline_update(own, &r->stored, o->keep_runs, r->err, sizeof r->err);
    }
    r->stored.label = label;
    if (urc != 0) {
        store_failed(r, urc, r->err,
                     memory ? "neither the baseline nor the memory baseline was written"
                            : "the baseline is as it was");
        return 0;
    }
    if (memory && !o->quiet)
        fprintf(stderr, "qqbench: memory baseline %s %s (every machine)\n",
                r->have_mem ? "updated:" : "recorded:", mpath);
    if (s->accepted)
        fprintf(stdout,
                "Accepted as the new baseline: %zu regressed, %zu "
                "noisy comparison%s and %zu memory regression%s (exit 0).\n",
                r->jd.regressed, r->jd.noisy, r->jd.noisy == 1 ? "" : "s", r->jd.mem_regressed,
                r->jd.mem_regressed == 1 ? "" : "s");
    struct qqb_count nk;
    if (!o->quiet)
        fprintf(stderr, "qqbench: baseline %s %s (keeps the last %s)\n",
                own_exists ? "updated:" : "recorded:", own, qqb_count(&nk, o->keep_runs, "run"));
    return 0;
}

/* The --record snapshot: it keeps the run's verdicts (a key noisy run
 * after run). */
static void store_snapshot(struct run *r)
{
    const char *hpath = r->paths.hpath;
    int wrc = qqb_history_notes(&r->jd, &r->stored);
    if (wrc == 0)
        wrc = qqb_baseline_write(hpath, &r->stored, r->err, sizeof r->err);
    else
        snprintf(r->err, sizeof r->err, "%.900s: error: out of memory", hpath);
    qqb_results_drop_verdicts(&r->stored);
    if (wrc != 0)
        store_failed(r, wrc, r->err, "no snapshot was written");
    else if (!r->o->quiet)
        fprintf(stderr, "qqbench: snapshot '%s' recorded: %s\n", r->o->record, hpath);
}

/* The memory baseline alone (every machine's). History snapshots of
 * --record hold memory too: qqbench history reads every machine's. */
static int store_memory(struct run *r)
{
    struct qqb_results memv;
    if (memory_view(r, &memv) != 0)
        return nomem(r);
    if (memory_unchanged(r, &memv)) {
        free(memv.cases);
        return 0;
    }
    int mrc = qqb_baseline_update(r->paths.mpath, &memv, 1, r->err, sizeof r->err);
    if (mrc != 0)
        store_failed(r, mrc, r->err, "the memory baseline is as it was");
    else if (!r->o->quiet)
        fprintf(stderr, "qqbench: memory baseline %s %s (every machine)\n",
                r->have_mem ? "updated:" : "recorded:", r->paths.mpath);
    free(memv.cases);
    return 0;
}

/* The change build's cases only: the reference build's are for this
 * run's comparison. */
static int stored_view(struct run *r)
{
    r->stored = r->cur;
    if (!r->plan.reference_cases)
        return 0;
    char *keep = malloc(r->plan.ncases);
    if (!keep)
        return -1;
    for (size_t i = 0; i < r->plan.ncases; i++)
        keep[i] = r->plan.cases[i].build == QQB_BUILD_CHANGE;
    int rc = qqb_results_view(&r->cur, keep, 0, &r->stored);
    free(keep);
    if (rc != 0)
        r->stored = r->cur;
    return rc;
}

/* Baselines, the snapshot and the memory baseline, as qqb_run_store_plan
 * says. */
static int step_store(struct run *r)
{
    if (stored_view(r) != 0)
        return nomem(r);
    struct qqb_run_store s;
    qqb_run_store_plan(&r->oc, &s);
    if (s.held)
        fprintf(stderr, "qqbench: %s: the baseline was not written\n", s.held);
    if (s.baseline && store_baseline(r, &s) != 0)
        return -1;
    if (s.snapshot)
        store_snapshot(r);
    if (s.memory && !s.baseline && store_memory(r) != 0)
        return -1;
    return 0;
}

/* ---------------------------------------------------------------------
 * The run.
 * --------------------------------------------------------------------- */

/* The work folder removed (or kept, and said), the signals back, and
 * everything the run held freed. Returns the run's exit code: the one
 * place it is made (qqb_run_exit_code of the outcome). */
static int finish(struct run *r)
{
    if (r->measured) {
        if (!r->o->keep)
            remove_workdir(r->workdir, r->m.files);
        else
            fprintf(stderr, "qqbench: launch files kept in %s\n", r->workdir);
    }
    qqb_runner_untrap_signals();
    if (r->stored.cases && r->stored.cases != r->cur.cases)
        free(r->stored.cases);
    free(r->names);
    qqb_measure_free(&r->m);
    qqb_judgement_free(&r->jd);
    qqb_model_judgement_free(&r->models);
    qqb_sig_judgement_free(&r->sigs);
    qqb_tune_judgement_free(&r->tunes);
    qqb_results_free(&r->cur);
    qqb_results_free(&r->base);
    qqb_results_free(&r->membase);
    qqb_plan_free(&r->plan);
    qqb_suite_free(r->suite);
    qqb_strbuf_free(&r->note);
    qqb_strbuf_free(&r->crossing);
    qqb_run_builds_free(&r->builds);
    free(r->against);
    return qqb_run_exit_code(&r->oc);
}

/* What the run found into T (qqb_run_tally). */
static void tally(const struct run *r, struct qqb_run_tally *t)
{
    const struct qqb_judgement *j = &r->jd;
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < j->ncmp; i++) {
        if (j->cmp[i].ab != QQB_CMP_BUILD)
            continue;
        enum qqb_verdict v = j->cmp[i].verdict;
        t->regressed += v == QQB_REGRESSED;
        t->improved += v == QQB_IMPROVED;
        t->unchanged += v == QQB_UNCHANGED;
        t->noisy += v == QQB_NOISY;
        t->blind += v == QQB_BLIND;
    }
    t->mem_regressed = j->build_mem_regressed;
    t->base_regressed = j->regressed + j->mem_regressed;
    t->kernel_failures = r->oc.kernel_failures;
    t->counts_regressed = j->counts_regressed;
}

void qqb_run_opts_init(struct qqb_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->confirm = 1;
    o->run_figure = -1;
    o->metric = -1;
    o->budget = QQB_DEFAULT_BUDGET;
    o->keep_runs = QQB_BASELINE_KEEP_RUNS;
}

void qqb_run_opts_free(struct qqb_run_opts *o)
{
    free(o->only);
    o->only = NULL;
    o->nonly = 0;
}

int qqb_run(const struct qqb_run_opts *o)
{
    struct run r = {0};
    r.o = o;
    if (step_inputs(&r) == 0) {
        if (step_plan(&r) == 0 && step_baselines(&r) == 0 && step_builds(&r) == 0 &&
            step_workdir(&r) == 0 && step_measure(&r) == 0 && step_judge(&r) == 0 &&
            step_report(&r) == 0)
            step_store(&r);
        if (o->tally)
            tally(&r, o->tally);
    }
    return finish(&r);
}
