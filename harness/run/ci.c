/* ci.c - qqbench ci (ci.h): the suite and both revisions checked, the reference checked out in a
 * git worktree, both revisions built the same way, the suite run against the reference's kernels,
 * everything of ci's removed; its steps in qqb_ci, over one struct ci. */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

#include "ci.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ci_exec.h"
#include "ci_gate.h"
#include "clock.h"
#include "git.h"
#include "outputs.h"
#include "plot.h"
#include "suite.h"

/* The lines of a failed build's log shown in the job's log. */
#define CI_TAIL_LINES 30

/* One run of qqbench ci: what was asked, and the folders it uses. */
struct ci {
    struct qqb_ci_opts *o;
    struct qqb_suite *suite; /* parsed without its kernels, which may not be built yet */
    char *suite_build;       /* the suite's build:, when it gives the command */
    char **targets;          /* the suite's kernels by name, the default build's targets */
    size_t ntargets;
    struct qqb_ci_env env;
    char top[4096], rev[128], given[160];
    char dir[4096], src[4200], bld[4200], chg_out[4200];
    char logdir[4096], reflog[4200], chglog[4200];
    int templogs; /* the build logs are in dir, removed with it */
    char kernels[8600];
    char btype[64];    /* the default line's CMAKE_BUILD_TYPE: the change's */
    const char *phase; /* what a signal stops: "build", "run" */
    int rc;            /* the exit code */
};

void qqb_ci_opts_init(struct qqb_ci_opts *o)
{
    memset(o, 0, sizeof *o);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o->njobs = cpus > 0 && cpus < 1024 ? (int)cpus : 2;
    qqb_run_opts_init(&o->ro);
}

void qqb_ci_opts_free(struct qqb_ci_opts *o)
{
    qqb_run_opts_free(&o->ro);
}

/* The default reference: the merge base of HEAD with origin/main, else
 * main (then origin/master, master), into BUF; the ref taken into *REF. */
static int default_base(char *buf, size_t len, const char **ref)
{
    static const char *const refs[] = {"origin/main", "main", "origin/master", "master"};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        const char *const args[] = {"merge-base", "HEAD", refs[i], NULL};
        *ref = refs[i];
        if (qqb_git_line(".", args, buf, len, NULL) == 0 && buf[0])
            return 0;
    }
    return -1;
}

/* The commit SPEC names into REV: 0, or -1. */
static int commit_of(const char *spec, char *rev, size_t revlen)
{
    char full[1100];
    snprintf(full, sizeof full, "%s^{commit}", spec);
    const char *const rev_args[] = {"rev-parse", "--verify", "--quiet", full, NULL};
    return qqb_git_line(".", rev_args, rev, revlen, NULL) == 0 && rev[0] ? 0 : -1;
}

/* The reference: this checkout's top folder into C->top, and the commit
 * C->base names into C->rev (C->base NULL: the default reference, spelled
 * into C->given). A reference that is HEAD's commit compares a build with
 * itself: refused unless --allow-same. 0, or -1 with the error said. */
static int ci_reference(struct ci *c)
{
    static const char *const top_args[] = {"rev-parse", "--show-toplevel", NULL};
    if (qqb_git_line(".", top_args, c->top, sizeof c->top, NULL) != 0 || !c->top[0]) {
        fprintf(stderr, "qqbench ci: error: not in a git checkout (git rev-parse "
                        "--show-toplevel failed); run it from the repository\n");
        return -1;
    }
    const char *ref = NULL;
    if (!c->o->base) {
        if (default_base(c->given, sizeof c->given, &ref) != 0) {
            fprintf(stderr, "qqbench ci: error: no --base given and no main or "
                            "origin/main to take the merge base with\n");
            return -1;
        }
        c->o->base = c->given;
    }
    /* Git's own limit on a ref name is far below this; a longer --base is
     * refused, never cut (a cut lost the ^{commit} and named another rev). */
    if (strlen(c->o->base) > 1024) {
        fprintf(stderr, "qqbench ci: error: --base is %zu characters, at most 1024\n",
                strlen(c->o->base));
        return -1;
    }
    if (commit_of(c->o->base, c->rev, sizeof c->rev) != 0) {
        fprintf(stderr, "qqbench ci: error: --base '%s' is not a commit of this repository\n",
                c->o->base);
        return -1;
    }
    char head[128];
    if (commit_of("HEAD", head, sizeof head) != 0) {
        fprintf(stderr, "qqbench ci: error: HEAD is not a commit (a repository with no commit "
                        "yet?)\n");
        return -1;
    }
    if (strcmp(head, c->rev) == 0 && !c->o->allow_same) {
        char what[1200];
        if (ref)
            snprintf(what, sizeof what, "the merge base of HEAD with %s", ref);
        else
            snprintf(what, sizeof what, "--base %s", c->o->base);
        fprintf(stderr,
                "qqbench ci: error: the reference, %s, is HEAD's own commit %.12s: both builds "
                "would be the same; give --base REV (--allow-same for an A/A run, or to compare "
                "uncommitted changes)\n",
                what, head);
        return -1;
    }
    return 0;
}

/* PATH made absolute (from the current folder) with "." and ".." taken
 * out, into OUT. */
static void absolute(const char *path, char *out, size_t len)
{
    char cwd[PATH_MAX], real[PATH_MAX];
    if (realpath(path, real))
        snprintf(out, len, "%s", real);
    else
        qqb_ci_normalize(path, path[0] != '/' && getcwd(cwd, sizeof cwd) ? cwd : NULL, out, len);
}

/* Without a build command, the default CMake line: refused, before
 * anything is built, in a checkout with no CMakeLists.txt (a Makefile
 * project got CMake's error, blamed on the reference). 0, or -1 with the
 * error said. */
static int ci_default_build(const struct ci *c)
{
    char lists[4200];
    snprintf(lists, sizeof lists, "%s/CMakeLists.txt", c->top);
    if (c->o->build || access(lists, F_OK) == 0)
        return 0;
    fprintf(stderr,
            "qqbench ci: error: no build command and no CMakeLists.txt in %s for the default "
            "CMake build: give --build CMD (e.g. --build make), or 'build: CMD' in the suite\n",
            c->top);
    return -1;
}

/* Where the reference's kernels are (C->kernels): see the usage; with
 * the default line, --kernels BUILD/SUB and --kernels-subdir SUB, the
 * change's build folder is BUILD, built again there (it built build/,
 * which the run never looked at, and judged the kernels left in
 * BUILD/SUB). 0, or -1 with the error said. */
static int ci_kernels(struct ci *c)
{
    const struct qqb_ci_opts *o = c->o;
    char k[PATH_MAX + 100];
    if (o->ro.kernel_dir)
        absolute(o->ro.kernel_dir, k, sizeof k);
    if (!o->build && o->sub && o->ro.kernel_dir &&
        qqb_ci_change_out(k, o->sub, c->chg_out, sizeof c->chg_out) != 0) {
        fprintf(stderr,
                "qqbench ci: error: --kernels %s does not end with --kernels-subdir %s: the "
                "default CMake build builds the change in the folder holding SUB; give --kernels "
                "BUILD/SUB, or --build CMD\n",
                o->ro.kernel_dir, o->sub);
        return -1;
    }
    switch (qqb_ci_kernels(o->build, o->sub, o->ro.kernel_dir ? k : NULL, c->chg_out, c->top,
                           c->src, c->bld, c->kernels, sizeof c->kernels)) {
    case QQB_CI_KERNELS_OK:
        return 0;
    case QQB_CI_KERNELS_NOT_BELOW:
        fprintf(stderr,
                "qqbench ci: error: --kernels %s is not below this checkout's build/, where %s: "
                "give --kernels build/... , or --kernels-subdir SUB (the reference's kernels at "
                "BUILD/SUB, e.g. kernels)%s\n",
                o->ro.kernel_dir,
                o->build ? "{out} in --build CMD builds the change"
                         : "the default CMake build's kernels are looked for",
                o->build ? "" : ", or --build CMD");
        return -1;
    case QQB_CI_KERNELS_OUTSIDE:
    default:
        fprintf(stderr,
                "qqbench ci: error: --kernels %s is outside this checkout (%s): the reference's "
                "kernels cannot be found at the same place in its build; give --kernels-subdir "
                "SUB (before the suite) for BUILD/SUB\n",
                o->ro.kernel_dir, c->top);
        return -1;
    }
}

/* The folder the build logs go to (the usage says which), made. 0, or -1
 * with the error said. */
static int ci_logdir(struct ci *c)
{
    struct qqb_run_opts *o = &c->o->ro;
    const struct qqb_suite *s = c->suite;
    /* The report where --json says: no second one in reports/latest/
     * unless --report DIR asks for it. */
    if (o->json && !o->report_dir)
        o->no_report = 1;
    enum qqb_ci_logs where =
        qqb_ci_logdir(o->json, o->report_dir, o->no_report, c->logdir, sizeof c->logdir);
    if (where == QQB_CI_LOGS_TEMP)
        return 0; /* no output folder: the temporary one (ci_templogs) */
    /* The run's own default report folder, its reports/ made with the
     * .gitignore that hides it (made here first, as a plain folder, it
     * showed in git status). */
    char err[512];
    if (where == QQB_CI_LOGS_DEFAULT &&
        qqb_run_report_dir(s->dir, s->name, c->logdir, sizeof c->logdir, err, sizeof err) != 0) {
        fprintf(stderr, "qqbench ci: error: cannot make the report folder for the build logs: %s\n",
                err);
        return -1;
    }
    if (qqb_plot_mkdir(c->logdir, err, sizeof err) != 0) {
        fprintf(stderr, "qqbench ci: error: cannot make the folder for the build logs: %s\n", err);
        return -1;
    }
    snprintf(c->reflog, sizeof c->reflog, "%s/ci-reference-build.log", c->logdir);
    snprintf(c->chglog, sizeof c->chglog, "%s/ci-change-build.log", c->logdir);
    return 0;
}

/* With no output folder (--no-report, no --json) the build logs go to the
 * temporary folder C->dir, removed with it: nothing is written in the
 * user's tree. */
static void ci_templogs(struct ci *c)
{
    if (c->logdir[0])
        return;
    c->templogs = 1;
    snprintf(c->logdir, sizeof c->logdir, "%s", c->dir);
    snprintf(c->reflog, sizeof c->reflog, "%s/ci-reference-build.log", c->logdir);
    snprintf(c->chglog, sizeof c->chglog, "%s/ci-change-build.log", c->logdir);
}

/* The log LOG of a build that failed, kept: a log in the temporary folder
 * (which ci removes) is moved beside it, to TMPDIR/qqbench-ci-NAME-XXXXXX.
 * The path it is at now into KEPT. */
static void ci_keep_log(const struct ci *c, const char *log, const char *name, char *kept,
                        size_t len)
{
    snprintf(kept, len, "%s", log);
    if (!c->templogs)
        return;
    const char *tmp = getenv("TMPDIR");
    char path[4300];
    snprintf(path, sizeof path, "%s/qqbench-ci-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    close(fd);
    if (rename(log, path) == 0)
        snprintf(kept, len, "%s", path);
    else
        unlink(path);
}

/* The targets of the default build: the file names of the kernels of the
 * benchmarks that run (--only), each once. 0, or -1 with the error said. */
static int ci_targets(struct ci *c, const struct qqb_suite *s)
{
    c->targets = calloc(s->nbench + 1, sizeof *c->targets);
    if (!c->targets) {
        fprintf(stderr, "qqbench ci: error: out of memory\n");
        return -1;
    }
    for (size_t b = 0; b < s->nbench; b++) {
        const char *k = s->bench[b].kernel, *slash = strrchr(k, '/');
        size_t t = 0, o = 0;
        while (o < c->o->ro.nonly && strcmp(c->o->ro.only[o], s->bench[b].name) != 0)
            o++;
        k = slash ? slash + 1 : k;
        while (t < c->ntargets && c->targets[t] && strcmp(c->targets[t], k) != 0)
            t++;
        if ((c->o->ro.nonly && o == c->o->ro.nonly) || t < c->ntargets || !*k)
            continue;
        char *dup = strdup(k);
        if (!dup) {
            fprintf(stderr, "qqbench ci: error: out of memory\n");
            return -1;
        }
        c->targets[c->ntargets++] = dup;
    }
    return 0;
}

/* Which stored baselines the run uses: none, unless --with-baseline, and
 * then read (written only by --update-baseline or --record), a baseline of
 * kernels built with other flags a warning, never a refusal: ci
 * compares two builds, and a stored baseline is run's business. A run
 * option about stored baselines without --with-baseline is refused, naming
 * it. 0, or -1 with the error said. */
static int ci_stored(struct ci *c)
{
    struct qqb_run_opts *o = &c->o->ro;
    const char *asked = qqb_ci_baseline_option(o);
    if (c->o->with_baseline) {
        o->stored = QQB_STORED_ASKED;
        o->allow_other_flags = 1;
        return 0;
    }
    if (asked) {
        fprintf(stderr,
                "qqbench ci: error: %s is about a stored baseline, which ci uses only with "
                "--with-baseline: add it\n",
                asked);
        return -1;
    }
    o->stored = QQB_STORED_NONE;
    return 0;
}

/* The default line's build type into C->btype: the one the change's
 * build/ is configured with (its CMakeCache.txt's CMAKE_BUILD_TYPE), so
 * both builds are built the same way (the reference at RelWithDebInfo
 * against a build/ at Release, or at none, compared optimisations);
 * RelWithDebInfo when build/ has no cache, and is configured so. A type
 * that is empty is said: both builds are then unoptimised. */
static void ci_build_type(struct ci *c)
{
    char cache[4300], line[256];
    snprintf(c->btype, sizeof c->btype, "RelWithDebInfo");
    snprintf(cache, sizeof cache, "%s/CMakeCache.txt", c->chg_out);
    FILE *f = fopen(cache, "r");
    int at_start = 1, found = -1;
    while (f && found < 0 && fgets(line, sizeof line, f)) {
        int starts = at_start;
        at_start = strchr(line, '\n') != NULL; /* a longer line comes in pieces */
        found = qqb_ci_build_type_line(line, starts, c->btype, sizeof c->btype);
    }
    if (f)
        fclose(f);
    int taken = found == 1;
    if (taken && !c->btype[0])
        fprintf(stderr,
                "qqbench ci: warning: %s is configured with no CMAKE_BUILD_TYPE (no "
                "optimisation): the reference is built the same way; configure build/ with "
                "-DCMAKE_BUILD_TYPE=Release to compare optimised builds\n",
                c->chg_out);
    else if (taken)
        fprintf(stderr,
                "qqbench ci: both builds with CMAKE_BUILD_TYPE=%s, as %s is configured (the "
                "reference is built the same way)\n",
                c->btype, c->chg_out);
    else /* a fresh build/ (or a type not taken): ci's choice, said too */
        fprintf(stderr,
                "qqbench ci: both builds with CMAKE_BUILD_TYPE=%s, ci's default (%s has "
                "none configured to follow)\n",
                c->btype, c->chg_out);
}

/* The default build: configure SRC into OUT with CMake (qqbench's prefix
 * in CMAKE_PREFIX_PATH), then build the suite's kernels' targets alone
 * (a kernel is commonly the target of its name: the rest of a project,
 * its tests and tools, can take most of the build's time); when one is
 * no target of the project, the whole build. The exit status (as
 * qqb_ci_run's). */
static int ci_cmake(const struct ci *c, const char *src, const char *out, const char *log)
{
    char jobs[16], pp[4200 + 32], bt[128];
    snprintf(jobs, sizeof jobs, "%d", c->o->njobs);
    snprintf(bt, sizeof bt, "-DCMAKE_BUILD_TYPE=%s", c->btype);
    snprintf(pp, sizeof pp, "-DCMAKE_PREFIX_PATH=%s", c->env.prefix);
    char *cfg_argv[] = {"cmake",     "-S",
                        (char *)src, "-B",
                        (char *)out, "-DQQ_BUILD_TESTS=OFF",
                        bt,          c->env.prefix[0] ? pp : NULL,
                        NULL};
    /* The change's build/ as configured (its cache, its options), built
     * again from HEAD's tree; configured the reference's way when new. */
    char cache[4300];
    snprintf(cache, sizeof cache, "%s/CMakeCache.txt", out);
    int rc =
        out == c->chg_out && access(cache, F_OK) == 0 ? 0 : qqb_ci_run(cfg_argv, log, src, &c->env);
    char **argv = calloc(c->ntargets + 8, sizeof *argv);
    if (rc != 0 || !argv) {
        free(argv);
        return rc != 0 ? rc : -1;
    }
    size_t n = 0;
    argv[n++] = "cmake";
    argv[n++] = "--build";
    argv[n++] = (char *)out;
    argv[n++] = "-j";
    argv[n++] = jobs;
    if (c->ntargets) {
        argv[n++] = "--target";
        memcpy(argv + n, c->targets, c->ntargets * sizeof *argv);
        rc = qqb_ci_run(argv, log, src, &c->env);
        FILE *f = rc != 0 && !qqb_ci_stopped() ? fopen(log, "a") : NULL;
        if (f) {
            fprintf(f, "qqbench ci: the kernels' targets did not build: the whole build\n");
            fclose(f);
        }
        argv[n - 1] = NULL; /* no --target: the whole build, if it comes to that */
    }
    if (!c->ntargets || rc != 0)
        rc = qqb_ci_run(argv, log, src, &c->env);
    free(argv);
    return rc;
}

/* Build one revision: SRC's sources into OUT, the output to LOG (emptied
 * first), with CMD through /bin/sh in SRC, or without CMD the default
 * CMake line. WHAT names the revision in messages. 0; -1 a failure, said
 * with the log's last lines; -1 as well when a signal stopped it. */
static int ci_build(const struct ci *c, const char *what, const char *src, const char *out,
                    const char *log)
{
    FILE *f = fopen(log, "w");
    if (!f) {
        fprintf(stderr, "qqbench ci: error: cannot write the build log %s: %s\n", log,
                strerror(errno));
        return -1;
    }
    fclose(f);
    double t0 = qqb_now();
    int rc;
    if (c->o->build) {
        char *cmd = qqb_ci_expand(c->o->build, src, out);
        char *sh_argv[] = {"/bin/sh", "-c", cmd, NULL};
        rc = cmd ? qqb_ci_run(sh_argv, log, src, &c->env) : -1;
        free(cmd);
    } else {
        rc = ci_cmake(c, src, out, log);
    }
    if (rc == 0)
        fprintf(stderr, "qqbench ci: %s: its build took %.1f s\n", what, qqb_now() - t0);
    if (rc == 0 || qqb_ci_stopped())
        return rc == 0 ? 0 : -1;
    char kept[4400];
    ci_keep_log(c, log, log == c->reflog ? "reference-build.log" : "change-build.log", kept,
                sizeof kept);
    fprintf(stderr, "qqbench ci: error: %s does not build (see %s); its last %d lines:\n", what,
            kept, CI_TAIL_LINES);
    qqb_ci_log_tail(kept, CI_TAIL_LINES, stderr);
    return -1;
}

/* The reference's worktree and temporary folder removed (kept, and said,
 * with --keep), ci's traps undone; ended by the signal that stopped ci, if
 * one did. */
static void finish(struct ci *c)
{
    char *rm_argv[] = {"git", "-C", c->top, "worktree", "remove", "--force", c->src, NULL};
    int sig = qqb_ci_unstop(); /* the clean-up's own commands must run */
    if (!c->o->keep || sig) {  /* stopped: nothing of it is evidence */
        qqb_ci_run(rm_argv, NULL, NULL, NULL);
        qqb_ci_remove_tree(c->dir);
    } else {
        fprintf(stderr, "qqbench ci: kept %s (git worktree remove --force %s)\n", c->dir, c->src);
    }
    /* Said while the trap holds: on a closed stderr ('2>&1 | head') the
     * write fails, where SIGPIPE's default would end ci by another signal. */
    if (sig)
        fprintf(stderr, "qqbench ci: stopped by signal %d: the %s stopped, %s removed\n", sig,
                c->phase, c->dir);
    qqb_ci_unstop();
    qqb_ci_trap(0);
    if (sig) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* qqb_run of the options ARG (qqb_ci_run_fn's FN). */
static int ci_run_suite(void *arg)
{
    return qqb_run(arg);
}

/* ci's last line, after the run's summary: the exit code and its cause,
 * with the counts against the reference build (the run's own last line
 * counts the comparisons against a stored baseline). */
static void ci_last_line(int rc, const struct qqb_run_tally *t)
{
    char cause[160];
    if (qqb_ci_cause(rc, t, cause, sizeof cause) != 0)
        return; /* bad input: said on stderr */
    printf("qqbench ci: exit %d, %s; vs reference build: %zu regressed, %zu improved, %zu "
           "unchanged, %zu noisy, %zu blind; memory: %zu regressed\n",
           rc, cause, t->regressed, t->improved, t->unchanged, t->noisy, t->blind,
           t->mem_regressed);
    fflush(stdout);
}

/* ---------------------------------------------------------------------
 * The steps of qqb_ci. Each returns 0 to go on, or -1 with C->rc set and
 * the reason said.
 * --------------------------------------------------------------------- */

static int fail(struct ci *c, int code)
{
    c->rc = code;
    return -1;
}

/* The options, the suite (without its kernels, which may not be built
 * yet), the build's targets, both revisions and the log folder: all
 * checked before anything is built. */
static int step_inputs(struct ci *c)
{
    char err[2048];
    if (ci_stored(c) != 0)
        return fail(c, QQB_EXIT_USAGE);
    if (qqb_suite_parse(c->o->suite, &c->suite, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return fail(c, QQB_EXIT_USAGE);
    }
    if (!c->o->build && c->suite->build &&
        !(c->o->build = c->suite_build = strdup(c->suite->build))) {
        fprintf(stderr, "qqbench ci: error: out of memory\n");
        return fail(c, QQB_EXIT_USAGE);
    }
    if (ci_targets(c, c->suite) != 0 || ci_reference(c) != 0 || ci_logdir(c) != 0)
        return fail(c, QQB_EXIT_USAGE);
    return 0;
}

/* ci's temporary folder (the reference's worktree and build, the logs
 * with no output folder), made once ci's trap holds: from its making on,
 * every signal that ends ci removes it (the refusals below printed to a
 * closed stderr before the trap, and SIGPIPE left the folder). */
static int step_folder(struct ci *c)
{
    qqb_ci_find_prefix(&c->env);
    const char *tmp = getenv("TMPDIR");
    snprintf(c->dir, sizeof c->dir, "%s/qqbench-ci-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    qqb_ci_trap(1);
    c->phase = "build";
    if (!mkdtemp(c->dir)) {
        qqb_ci_trap(0);
        fprintf(stderr, "qqbench ci: error: cannot make a folder in %s: %s\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        c->dir[0] = '\0';
        return fail(c, QQB_EXIT_USAGE);
    }
    snprintf(c->src, sizeof c->src, "%s/src", c->dir);
    snprintf(c->bld, sizeof c->bld, "%s/build", c->dir);
    snprintf(c->chg_out, sizeof c->chg_out, "%s/build", c->top);
    ci_templogs(c);
    return 0;
}

/* How the builds are made and where the reference's kernels are; refused,
 * nothing is built, so nothing is kept. */
static int step_kernels(struct ci *c)
{
    if (ci_default_build(c) != 0 || ci_kernels(c) != 0) {
        c->o->keep = 0;
        return fail(c, QQB_EXIT_USAGE);
    }
    if (!c->o->build)
        ci_build_type(c);
    return 0;
}

/* The reference's sources: a detached worktree shares the object store
 * (no copy of the history) and is removed afterwards. */
static int step_checkout(struct ci *c)
{
    const struct qqb_ci_opts *o = c->o;
    char *wt_argv[] = {"git",      "-C",      c->top, "worktree", "add",
                       "--detach", "--force", c->src, c->rev,     NULL};
    fprintf(stderr, "qqbench ci: reference %s (%.12s), built in %s (log: %s)\n", o->base, c->rev,
            c->dir, c->reflog);
    if (o->build)
        fprintf(stderr, "qqbench ci: the change, built in %s (log: %s); build: %s\n",
                strstr(o->build, "{out}") ? c->chg_out : c->top, c->chglog, o->build);
    else
        fprintf(stderr, "qqbench ci: the change, built again in %s from HEAD's tree (log: %s)\n",
                c->chg_out, c->chglog);
    FILE *f = fopen(c->reflog, "w");
    if (f)
        fclose(f);
    if (qqb_ci_run(wt_argv, c->reflog, NULL, NULL) == 0)
        return 0;
    char kept[4400];
    ci_keep_log(c, c->reflog, "reference-build.log", kept, sizeof kept);
    if (!qqb_ci_stopped())
        fprintf(stderr, "qqbench ci: error: cannot check out %s (see %s)\n", o->base, kept);
    return fail(c, QQB_EXIT_USAGE);
}

/* The change first: a change that does not build fails before the
 * reference is built. The default line builds it too (its build/ as it
 * was configured): kernels built at another commit and left in build/
 * were judged as HEAD ('+0.00% unchanged' after a checkout with no
 * rebuild). */
static int step_build(struct ci *c)
{
    char what[300];
    snprintf(what, sizeof what, "the reference %.200s", c->o->base);
    if (ci_build(c, "the change", c->top, c->chg_out, c->chglog) != 0 ||
        ci_build(c, what, c->src, c->bld, c->reflog) != 0)
        return fail(c, QQB_EXIT_USAGE);
    /* A reference without the kernel folder lacks every kernel: the run
     * says which (exit 3), rather than refusing the folder. */
    mkdir(c->kernels, 0755);
    return 0;
}

/* The suite run against the reference's kernels, in a child: its trap
 * ends its process by the signal, and ci's clean-up must still run after
 * it. Its tally is shared with the child. */
static int step_run(struct ci *c)
{
    struct qqb_run_opts *ro = &c->o->ro;
    ro->against = c->kernels;
    c->phase = "run";
    struct qqb_run_tally *t =
        mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (t != MAP_FAILED) {
        memset(t, 0, sizeof *t);
        t->kernel_failures = (size_t)-1; /* not filled yet */
        ro->tally = t;
    }
    int rc = qqb_ci_run_fn(ci_run_suite, ro);
    ro->tally = NULL;
    if (t != MAP_FAILED) {
        if (rc >= 0 && t->kernel_failures != (size_t)-1)
            ci_last_line(rc, t);
        munmap(t, sizeof *t);
    }
    c->rc = rc >= 0 ? rc : QQB_EXIT_KERNEL;
    return 0;
}

int qqb_ci(struct qqb_ci_opts *o)
{
    struct ci c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.rc = QQB_EXIT_USAGE;
    if (step_inputs(&c) == 0 && step_folder(&c) == 0) {
        if (step_kernels(&c) == 0 && step_checkout(&c) == 0 && step_build(&c) == 0)
            step_run(&c);
        if (qqb_ci_stopped())
            c.rc = QQB_EXIT_KERNEL; /* ends by the signal in finish */
        finish(&c);
    }
    qqb_suite_free(c.suite);
    free(c.suite_build);
    for (size_t t = 0; t < c.ntargets; t++)
        free(c.targets[t]);
    free(c.targets);
    return c.rc;
}
