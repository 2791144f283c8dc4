/* cmd_ci.c - qqbench ci: build a reference revision beside the working tree (and, with a build
 * command, the change too, the same way) and run a suite against it. */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

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
#include "clock.h"
#include "cmds.h"
#include "git.h"
#include "opts.h"
#include "outputs.h"
#include "plot.h"
#include "suite.h"

/* The usage's prose around the option lines, which the table in cmd_ci
 * generates. */
static const struct qqb_opts_cmd ci_cmd = {
    "ci",
    "usage: qqbench ci [--base REV] [--build CMD] [--allow-same] [--keep] [--jobs N]\n"
    "                  [--kernels-subdir SUB] [--with-baseline] SUITE.yaml [run options]\n\n"
    "Check a change in one job, on whatever machine the job got: build the\n"
    "reference revision REV of this git checkout in a temporary git worktree,\n"
    "then run SUITE (which must be named) with 'qqbench run SUITE\n"
    "--against REFERENCE-KERNELS', so every case runs from both builds,\n"
    "interleaved and paired by round. The suite and both revisions are\n"
    "checked before anything is built.\n\n"
    "The build: --build CMD, else the suite's 'build:', runs CMD with /bin/sh\n"
    "-c in this checkout for the change, then in the reference's worktree\n"
    "(both built the same way); {src} and {out} in CMD are replaced by the\n"
    "sources' folder and a build folder (the reference's: a temporary one;\n"
    "the change's: build/ in this checkout). Without either, the reference\n"
    "is built by 'cmake -S {src} -B {out} -DQQ_BUILD_TESTS=OFF\n"
    "-DCMAKE_BUILD_TYPE=TYPE' (TYPE: build/'s, from its CMakeCache.txt;\n"
    "RelWithDebInfo when build/ has none) with CMAKE_PREFIX_PATH set to this\n"
    "qqbench's install prefix, then 'cmake --build {out} --target KERNELS'\n"
    "(the suite's kernels by file name; the whole build when one is not a\n"
    "target), and the change's build/ is built again the same way (its\n"
    "configure step only when build/ has no CMakeCache.txt), so its kernels\n"
    "are HEAD's tree's, not those of a commit built earlier.\n"
    "Every build runs with that prefix first in CMAKE_PREFIX_PATH and its\n"
    "lib/pkgconfig first in PKG_CONFIG_PATH, so find_package(QQ) and\n"
    "pkg-config qq find this qqbench's QQ.\n\n"
    "The reference's kernels are at the same place in its build as --kernels\n"
    "DIR (a run option) is in this one: under {out} when CMD names {out},\n"
    "else under the worktree; without --kernels, the build's kernels/.\n"
    "Options after the suite go to 'qqbench run' (--kernels, --json, --junit,\n"
    "--report, ...), but ci's own, which may stand on either side (--keep\n"
    "after the suite is the run's).\n\n"
    "ci compares the two builds; it neither reads nor writes a stored baseline\n"
    "(baselines/) unless --with-baseline asks for one (and run's baseline\n"
    "options, --update-baseline, --record, --baselines, ..., need it).\n\n",
    "\nWith --json FILE and no --report DIR, the report is FILE alone (no\n"
    "reports/latest/). The build logs (ci-reference-build.log,\n"
    "ci-change-build.log) go to the folder of --json FILE, else the report\n"
    "folder (--report DIR, else reports/latest/SUITE; with --no-report and\n"
    "no --json, the temporary folder, removed), not to the job's log; a build\n"
    "that fails shows its last 30 lines and where its log is kept. Exit: as 'qqbench\n"
    "run' (0, 1 a regression, 3 a kernel failed), and 2 for bad usage, a bad\n"
    "suite, a REV that is not a commit or is HEAD itself (without\n"
    "--allow-same), or a build that fails.\n"};

/* The lines of a failed build's log shown in the job's log. */
#define CI_TAIL_LINES 30

/* One run of qqbench ci: what was asked, and the folders it uses. */
struct ci {
    const char *base, *build, *sub, *suite;
    char *suite_build; /* the suite's build:, when it gives the command */
    int keep, njobs, allow_same, with_baseline;
    char **targets; /* the suite's kernels by name, the default build's targets */
    size_t ntargets;
    struct qqb_run_opts ro;
    struct qqb_ci_env env;
    char top[4096], rev[128], given[160];
    char dir[4096], src[4200], bld[4200], chg_out[4200];
    char logdir[4096], reflog[4200], chglog[4200];
    int templogs; /* the build logs are in dir, removed with it */
    char kernels[8600];
    char btype[64];    /* the default line's CMAKE_BUILD_TYPE: the change's */
    const char *phase; /* what a signal stops: "build", "run" */
};

/* --kernels-subdir SUB: a relative folder inside the build. */
static int ci_subdir(const char *v, void *ctx, char *err, size_t errlen)
{
    if (!*v || v[0] == '/' || strstr(v, "..")) {
        snprintf(err, errlen, "--kernels-subdir '%s': expected a relative folder inside the build",
                 v);
        return -1;
    }
    *(const char **)ctx = v;
    return 0;
}

/* --build CMD: a command, not blanks. */
static int ci_build_cmd(const char *v, void *ctx, char *err, size_t errlen)
{
    if (!v[strspn(v, " \t\n")]) {
        snprintf(err, errlen, "--build '%s': expected a shell command", v);
        return -1;
    }
    *(const char **)ctx = v;
    return 0;
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
    if (!c->base) {
        if (default_base(c->given, sizeof c->given, &ref) != 0) {
            fprintf(stderr, "qqbench ci: error: no --base given and no main or "
                            "origin/main to take the merge base with\n");
            return -1;
        }
        c->base = c->given;
    }
    /* Git's own limit on a ref name is far below this; a longer --base is
     * refused, never cut (a cut lost the ^{commit} and named another rev). */
    if (strlen(c->base) > 1024) {
        fprintf(stderr, "qqbench ci: error: --base is %zu characters, at most 1024\n",
                strlen(c->base));
        return -1;
    }
    if (commit_of(c->base, c->rev, sizeof c->rev) != 0) {
        fprintf(stderr, "qqbench ci: error: --base '%s' is not a commit of this repository\n",
                c->base);
        return -1;
    }
    char head[128];
    if (commit_of("HEAD", head, sizeof head) != 0) {
        fprintf(stderr, "qqbench ci: error: HEAD is not a commit (a repository with no commit "
                        "yet?)\n");
        return -1;
    }
    if (strcmp(head, c->rev) == 0 && !c->allow_same) {
        char what[1200];
        if (ref)
            snprintf(what, sizeof what, "the merge base of HEAD with %s", ref);
        else
            snprintf(what, sizeof what, "--base %s", c->base);
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
    if (realpath(path, real)) {
        snprintf(out, len, "%s", real);
        return;
    }
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, len, "%s", path);
    else
        snprintf(out, len, "%s/%s", cwd, path);
    char *w = out; /* the result so far, written over OUT */
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if ((n == 1 && p[0] == '.') || n == 0) {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (w > out && *--w != '/')
                ;
        } else {
            *w++ = '/';
            memmove(w, p, n);
            w += n;
        }
        p += n + (e != NULL);
    }
    if (w == out)
        *w++ = '/';
    *w = '\0';
}

/* REL when PATH is BASE or below it ("" or "a/b"), else NULL. */
static const char *below(const char *path, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(path, base, n) != 0 || (path[n] && path[n] != '/'))
        return NULL;
    return path[n] ? path + n + 1 : path + n;
}

/* Without a build command, the default CMake line: refused, before
 * anything is built, in a checkout with no CMakeLists.txt (a Makefile
 * project got CMake's error, blamed on the reference). 0, or -1 with the
 * error said. */
static int ci_default_build(const struct ci *c)
{
    char lists[4200];
    snprintf(lists, sizeof lists, "%s/CMakeLists.txt", c->top);
    if (c->build || access(lists, F_OK) == 0)
        return 0;
    fprintf(stderr,
            "qqbench ci: error: no build command and no CMakeLists.txt in %s for the default "
            "CMake build: give --build CMD (e.g. --build make), or 'build: CMD' in the suite\n",
            c->top);
    return -1;
}

/* The default line with --kernels BUILD/SUB and --kernels-subdir SUB: the
 * change's build folder is BUILD, built again there (it built build/, which
 * the run never looked at, and judged the kernels left in BUILD/SUB). 0, or
 * -1 with the error said. */
static int ci_change_build(struct ci *c)
{
    char k[PATH_MAX + 100];
    absolute(c->ro.kernel_dir, k, sizeof k);
    size_t n = strlen(k), m = strlen(c->sub);
    while (m > 1 && c->sub[m - 1] == '/')
        m--;
    if (n > m + 1 && k[n - m - 1] == '/' && strncmp(k + n - m, c->sub, m) == 0 &&
        n - m - 1 < sizeof c->chg_out) {
        snprintf(c->chg_out, sizeof c->chg_out, "%.*s", (int)(n - m - 1), k);
        return 0;
    }
    fprintf(stderr,
            "qqbench ci: error: --kernels %s does not end with --kernels-subdir %s: the default "
            "CMake build builds the change in the folder holding SUB; give --kernels BUILD/SUB, "
            "or --build CMD\n",
            c->ro.kernel_dir, c->sub);
    return -1;
}

/* Where the reference's kernels are (C->kernels): see the usage. 0, or -1
 * with the error said. */
static int ci_kernels(struct ci *c)
{
    int uses_out = !c->build || strstr(c->build, "{out}");
    const char *ref_base = uses_out ? c->bld : c->src, *rel = NULL;
    if (!c->build && c->sub && c->ro.kernel_dir && ci_change_build(c) != 0)
        return -1;
    if (c->sub || !c->ro.kernel_dir) {
        snprintf(c->kernels, sizeof c->kernels, "%s/%s", ref_base, c->sub ? c->sub : "kernels");
        return 0;
    }
    char k[PATH_MAX + 100];
    absolute(c->ro.kernel_dir, k, sizeof k);
    if (uses_out && !below(k, c->chg_out)) {
        /* The default line, and a CMD naming {out}, build the reference
         * into a folder of its own and find its kernels by their place
         * below build/ (with CMD, after both builds, a path in the
         * reference's worktree that was not there). */
        fprintf(stderr,
                "qqbench ci: error: --kernels %s is not below this checkout's build/, where %s: "
                "give --kernels build/... , or --kernels-subdir SUB (the reference's kernels at "
                "BUILD/SUB, e.g. kernels)%s\n",
                c->ro.kernel_dir,
                c->build ? "{out} in --build CMD builds the change"
                         : "the default CMake build's kernels are looked for",
                c->build ? "" : ", or --build CMD");
        return -1;
    }
    if (uses_out && (rel = below(k, c->chg_out)) != NULL)
        snprintf(c->kernels, sizeof c->kernels, "%s/%s", c->bld, rel);
    else if ((rel = below(k, c->top)) != NULL)
        snprintf(c->kernels, sizeof c->kernels, "%s/%s", c->src, rel);
    else {
        fprintf(stderr,
                "qqbench ci: error: --kernels %s is outside this checkout (%s): the reference's "
                "kernels cannot be found at the same place in its build; give --kernels-subdir "
                "SUB (before the suite) for BUILD/SUB\n",
                c->ro.kernel_dir, c->top);
        return -1;
    }
    return 0;
}

/* The folder the build logs go to (the usage says which), made. 0, or -1
 * with the error said. */
static int ci_logdir(struct ci *c, const struct qqb_suite *s)
{
    struct qqb_run_opts *o = &c->ro;
    const char *slash = o->json ? strrchr(o->json, '/') : NULL;
    /* The report where --json says: no second one in reports/latest/
     * unless --report DIR asks for it. */
    if (o->json && !o->report_dir)
        o->no_report = 1;
    if (o->json && slash)
        snprintf(c->logdir, sizeof c->logdir, "%.*s", (int)(slash - o->json + (slash == o->json)),
                 o->json);
    else if (o->json)
        snprintf(c->logdir, sizeof c->logdir, ".");
    else if (o->no_report)
        return 0; /* no output folder: the temporary one (ci_templogs) */
    else if (o->report_dir)
        snprintf(c->logdir, sizeof c->logdir, "%s", o->report_dir);
    /* The run's own default report folder, its reports/ made with the
     * .gitignore that hides it (made here first, as a plain folder, it
     * showed in git status). */
    char err[512];
    if (!o->json && !o->report_dir &&
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
        while (o < c->ro.nonly && strcmp(c->ro.only[o], s->bench[b].name) != 0)
            o++;
        k = slash ? slash + 1 : k;
        while (t < c->ntargets && c->targets[t] && strcmp(c->targets[t], k) != 0)
            t++;
        if ((c->ro.nonly && o == c->ro.nonly) || t < c->ntargets || !*k)
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

/* ARGV[FROM..ARGC-1], what follows the suite, split: ci's own options
 * (those of TABLE but --keep, which after the suite is the run's), each
 * with its value, to CI_AV, the rest to RUN_AV (up to a "--", which goes
 * with the rest). Both start with ARGV[0]; *NCI and *NRUN count them. */
static void split_args(const struct qqb_opt *table, int argc, char **argv, int from, char **ci_av,
                       int *nci, char **run_av, int *nrun)
{
    ci_av[(*nci)++] = run_av[(*nrun)++] = argv[0];
    for (int k = from; k < argc; k++) {
        const char *a = argv[k];
        size_t n = strcspn(a, "=");
        const struct qqb_opt *o = table;
        while (
            strcmp(a, "--") != 0 && o->kind != QQB_OPTK_END &&
            (strlen(o->name) != n || strncmp(a, o->name, n) != 0 || strcmp(o->name, "--keep") == 0))
            o++;
        if (strcmp(a, "--") == 0 || o->kind == QQB_OPTK_END) {
            if (strcmp(a, "--") == 0)
                while (k < argc)
                    run_av[(*nrun)++] = argv[k++];
            else
                run_av[(*nrun)++] = argv[k];
            continue;
        }
        ci_av[(*nci)++] = argv[k];
        if (!a[n] && o->kind != QQB_OPTK_FLAG && k + 1 < argc)
            ci_av[(*nci)++] = argv[++k];
    }
}

/* Which stored baselines the run uses: none, unless --with-baseline, and
 * then read (written only by --update-baseline or --record), a baseline of
 * kernels built with other flags a warning, never a refusal: ci
 * compares two builds, and a stored baseline is run's business. A run
 * option about stored baselines without --with-baseline is refused, naming
 * it. 0, or -1 with the error said. */
static int ci_stored(struct ci *c)
{
    struct qqb_run_opts *o = &c->ro;
    const char *asked = o->update              ? "--update-baseline"
                        : o->memory_only       ? "--memory-only"
                        : o->record            ? "--record"
                        : o->baselines_dir     ? "--baselines"
                        : o->baseline_from     ? "--baseline-from"
                        : o->require_baseline  ? "--require-baseline"
                        : o->allow_other_flags ? "--allow-other-flags"
                                               : NULL;
    if (c->with_baseline) {
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

/* Options, suite and revisions, all checked before anything is built.
 * Exception to the return convention: -1 when ci goes on, else the exit
 * code to end with (the help printed: QQB_EXIT_OK). */
static int ci_prepare(struct ci *c, int argc, char **argv)
{
    int i = 1, help = 0;
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--base", "REV", &c->base,
                       "the reference: a commit, branch or tag (default: the merge\n"
                       "base of HEAD with origin/main, else with main)"),
        QQB_OPT_CALLBACK("--build", "CMD", ci_build_cmd, &c->build,
                         "build both revisions with /bin/sh -c CMD, {src} and {out}\n"
                         "replaced by the sources' and a build folder (default: the\n"
                         "suite's build:, else the reference alone with CMake)"),
        QQB_OPT_FLAG("--allow-same", 0, &c->allow_same,
                     "run even when REV is HEAD's own commit (an A/A run,\n"
                     "or uncommitted changes against HEAD)"),
        QQB_OPT_FLAG("--with-baseline", 0, &c->with_baseline,
                     "also compare with this machine's stored baseline and\n"
                     "the memory baseline (read only, unless --update-baseline\n"
                     "or --record; other flags: a warning, not a refusal);\n"
                     "without it ci neither reads nor writes baselines/"),
        QQB_OPT_FLAG("--keep", 0, &c->keep, "keep the reference's worktree and build folder"),
        QQB_OPT_INT("--jobs", "N", &c->njobs, 1, 1024,
                    "parallel jobs of the default CMake build (default:\n"
                    "the processors online)"),
        QQB_OPT_CALLBACK("--kernels-subdir", "SUB", ci_subdir, &c->sub,
                         "the reference's kernels are BUILD/SUB ({out}, or the\n"
                         "worktree when CMD does not name {out}); default: where\n"
                         "--kernels is in this checkout, else kernels/"),
        QQB_OPT_END,
    };
    /* ci's options come first; the suite and everything after it are the
     * run's: one of run's before the suite is said so, not taken for a
     * misspelt option of ci's. */
    for (int k = 1; k < argc && argv[k][0] == '-' && strcmp(argv[k], "--") != 0; k++) {
        size_t n = strcspn(argv[k], "=");
        const struct qqb_opt *o = table;
        while (o->kind != QQB_OPTK_END && (strlen(o->name) != n || strncmp(o->name, argv[k], n)))
            o++;
        if (o->kind != QQB_OPTK_END) {
            k += !argv[k][n] && o->kind != QQB_OPTK_FLAG;
            continue;
        }
        if (cmd_run_is_option(argv[k])) {
            qqb_opts_error(&ci_cmd,
                           "'%.*s' is an option of run: run's options go after the suite "
                           "(qqbench ci [ci's options] SUITE.yaml [run's options])",
                           (int)n, argv[k]);
            return QQB_EXIT_USAGE;
        }
        break; /* not run's either: the parse below says so */
    }
    int prc = qqb_opts_parse(&ci_cmd, table, argc, argv, &i);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (i < argc && argv[i][0] != '-')
        c->suite = argv[i++];
    if (!c->suite) {
        qqb_opts_error(&ci_cmd,
                       "no suite given: name it after ci's options (qqbench ci [--base REV] "
                       "SUITE.yaml [run's options])");
        return QQB_EXIT_USAGE;
    }
    c->ro.suite_path = c->suite;
    /* argv[i..] are the run's, but for ci's own options among them;
     * argv[0], ci's name, stands first in both. */
    char **ci_av = calloc((size_t)argc + 1, sizeof *ci_av);
    char **run_av = calloc((size_t)argc + 1, sizeof *run_av);
    int nci = 0, nrun = 0;
    if (!ci_av || !run_av) {
        free(ci_av);
        free(run_av);
        fprintf(stderr, "qqbench ci: error: out of memory\n");
        return QQB_EXIT_USAGE;
    }
    split_args(table, argc, argv, i, ci_av, &nci, run_av, &nrun);
    prc = qqb_opts_parse(&ci_cmd, table, nci, ci_av, NULL);
    if (prc == 0 && cmd_run_options(nrun, run_av, &c->ro, &help) != 0)
        prc = -1;
    free(ci_av);
    free(run_av);
    if (prc != 0 || help)
        return prc < 0 ? QQB_EXIT_USAGE : QQB_EXIT_OK;
    if (ci_stored(c) != 0)
        return QQB_EXIT_USAGE;
    struct qqb_suite *s = NULL;
    char err[2048];
    if (qqb_suite_parse(c->suite, &s, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return QQB_EXIT_USAGE;
    }
    int rc = QQB_EXIT_USAGE;
    if (!c->build && s->build && !(c->build = c->suite_build = strdup(s->build)))
        fprintf(stderr, "qqbench ci: error: out of memory\n");
    else if (ci_targets(c, s) == 0 && ci_reference(c) == 0 && ci_logdir(c, s) == 0)
        rc = -1;
    qqb_suite_free(s);
    return rc;
}

/* The default line's build type into C->btype: the one the change's
 * build/ is configured with (its CMakeCache.txt's CMAKE_BUILD_TYPE), so
 * both builds are built the same way (the reference at RelWithDebInfo
 * against a build/ at Release, or at none, compared optimisations);
 * RelWithDebInfo when build/ has no cache, and is configured so. A type
 * that is empty is said: both builds are then unoptimised. */
static void ci_build_type(struct ci *c)
{
    static const char key[] = "CMAKE_BUILD_TYPE:";
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
    char cache[4300], line[256];
    snprintf(c->btype, sizeof c->btype, "RelWithDebInfo");
    snprintf(cache, sizeof cache, "%s/CMakeCache.txt", c->chg_out);
    FILE *f = fopen(cache, "r");
    int at_start = 1, found = 0, taken = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        int starts = at_start;
        at_start = strchr(line, '\n') != NULL; /* a longer line comes in pieces */
        if (!starts || strncmp(line, key, sizeof key - 1) != 0)
            continue;
        const char *v = strchr(line, '=');
        if (!v)
            continue;
        size_t n = strcspn(++v, "\r\n");
        found = 1;
        /* Taken only when plain (letters, digits, '_'); else the default. */
        taken = n < sizeof c->btype && strspn(v, plain) == n;
        if (taken)
            snprintf(c->btype, sizeof c->btype, "%.*s", (int)n, v);
    }
    if (f)
        fclose(f);
    if (taken && !c->btype[0])
        fprintf(stderr,
                "qqbench ci: warning: %s is configured with no CMAKE_BUILD_TYPE (no "
                "optimisation): the reference is built the same way; configure build/ with "
                "-DCMAKE_BUILD_TYPE=Release to compare optimised builds\n",
                c->chg_out);
    else if (taken)
        fprintf(stderr, "qqbench ci: both builds with CMAKE_BUILD_TYPE=%s, %s's\n", c->btype,
                c->chg_out);
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
    snprintf(jobs, sizeof jobs, "%d", c->njobs);
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
    if (c->build) {
        char *cmd = qqb_ci_expand(c->build, src, out);
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
static void ci_clean(struct ci *c)
{
    char *rm_argv[] = {"git", "-C", c->top, "worktree", "remove", "--force", c->src, NULL};
    int sig = qqb_ci_unstop(); /* the clean-up's own commands must run */
    if (!c->keep || sig) {     /* stopped: nothing of it is evidence */
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
    if (rc == QQB_EXIT_OK)
        snprintf(cause, sizeof cause, "nothing regressed");
    else if (rc == QQB_EXIT_KERNEL)
        snprintf(cause, sizeof cause, "%zu kernel failure%s", t->kernel_failures,
                 t->kernel_failures == 1 ? "" : "s");
    else if (rc != QQB_EXIT_REGRESSION)
        return; /* bad input: said on stderr */
    else if (t->regressed)
        snprintf(cause, sizeof cause, "%zu comparison%s regressed vs reference build", t->regressed,
                 t->regressed == 1 ? "" : "s");
    else if (t->mem_regressed)
        snprintf(cause, sizeof cause, "memory regressed vs reference build");
    else if (t->base_regressed)
        snprintf(cause, sizeof cause, "regressed vs the stored baseline (--with-baseline)");
    else
        snprintf(cause, sizeof cause, "a failing comparison (see above)");
    printf("qqbench ci: exit %d, %s; vs reference build: %zu regressed, %zu improved, %zu "
           "unchanged, %zu noisy, %zu blind; memory: %zu regressed\n",
           rc, cause, t->regressed, t->improved, t->unchanged, t->noisy, t->blind,
           t->mem_regressed);
    fflush(stdout);
}

/* Check out the reference, build it (and the change with a build
 * command), run the suite against it. The exit code. */
static int ci_build_and_run(struct ci *c)
{
    /* The reference's sources: a detached worktree shares the object store
     * (no copy of the history) and is removed afterwards. */
    char *wt_argv[] = {"git",      "-C",      c->top, "worktree", "add",
                       "--detach", "--force", c->src, c->rev,     NULL};
    fprintf(stderr, "qqbench ci: reference %s (%.12s), built in %s (log: %s)\n", c->base, c->rev,
            c->dir, c->reflog);
    if (c->build)
        fprintf(stderr, "qqbench ci: the change, built in %s (log: %s); build: %s\n",
                strstr(c->build, "{out}") ? c->chg_out : c->top, c->chglog, c->build);
    else
        fprintf(stderr, "qqbench ci: the change, built again in %s from HEAD's tree (log: %s)\n",
                c->chg_out, c->chglog);
    FILE *f = fopen(c->reflog, "w");
    if (f)
        fclose(f);
    if (qqb_ci_run(wt_argv, c->reflog, NULL, NULL) != 0) {
        char kept[4400];
        ci_keep_log(c, c->reflog, "reference-build.log", kept, sizeof kept);
        if (!qqb_ci_stopped())
            fprintf(stderr, "qqbench ci: error: cannot check out %s (see %s)\n", c->base, kept);
        return QQB_EXIT_USAGE;
    }
    char what[300];
    snprintf(what, sizeof what, "the reference %.200s", c->base);
    /* The change first: a change that does not build fails before the
     * reference is built. The default line builds it too (its build/ as
     * it was configured): kernels built at another commit and left in
     * build/ were judged as HEAD ('+0.00% unchanged' after a checkout
     * with no rebuild). */
    if (ci_build(c, "the change", c->top, c->chg_out, c->chglog) != 0 ||
        ci_build(c, what, c->src, c->bld, c->reflog) != 0)
        return QQB_EXIT_USAGE;
    /* A reference without the kernel folder lacks every kernel: the run
     * says which (exit 3), rather than refusing the folder. */
    mkdir(c->kernels, 0755);
    c->ro.against = c->kernels;
    /* The run in a child: its trap ends its process by the signal, and
     * ci's clean-up must still run after it. */
    c->phase = "run";
    /* The run's tally, shared with the child it runs in. */
    struct qqb_run_tally *t =
        mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (t != MAP_FAILED) {
        memset(t, 0, sizeof *t);
        t->kernel_failures = (size_t)-1; /* not filled yet */
        c->ro.tally = t;
    }
    int rc = qqb_ci_run_fn(ci_run_suite, &c->ro);
    c->ro.tally = NULL;
    if (t != MAP_FAILED) {
        if (rc >= 0 && t->kernel_failures != (size_t)-1)
            ci_last_line(rc, t);
        munmap(t, sizeof *t);
    }
    return rc >= 0 ? rc : QQB_EXIT_KERNEL;
}

int cmd_ci(int argc, char **argv)
{
    struct ci c;
    memset(&c, 0, sizeof c);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    c.njobs = cpus > 0 && cpus < 1024 ? (int)cpus : 2;
    qqb_run_opts_init(&c.ro);
    int rc = ci_prepare(&c, argc, argv);
    if (rc >= 0)
        goto done;
    qqb_ci_find_prefix(&c.env);
    const char *tmp = getenv("TMPDIR");
    snprintf(c.dir, sizeof c.dir, "%s/qqbench-ci-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    /* The trap before the folder: from its making on, every signal that
     * ends ci removes it (the refusals below printed to a closed stderr
     * before the trap, and SIGPIPE left the folder). */
    qqb_ci_trap(1);
    c.phase = "build";
    if (!mkdtemp(c.dir)) {
        qqb_ci_trap(0);
        fprintf(stderr, "qqbench ci: error: cannot make a folder in %s: %s\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        rc = QQB_EXIT_USAGE;
        goto done;
    }
    snprintf(c.src, sizeof c.src, "%s/src", c.dir);
    snprintf(c.bld, sizeof c.bld, "%s/build", c.dir);
    snprintf(c.chg_out, sizeof c.chg_out, "%s/build", c.top);
    ci_templogs(&c);
    if (ci_default_build(&c) != 0 || ci_kernels(&c) != 0) {
        c.keep = 0; /* refused: nothing built to keep */
        rc = QQB_EXIT_USAGE;
    } else {
        if (!c.build)
            ci_build_type(&c);
        rc = ci_build_and_run(&c);
    }
    if (qqb_ci_stopped())
        rc = QQB_EXIT_KERNEL; /* ends by the signal in ci_clean */
    ci_clean(&c);
done:
    qqb_run_opts_free(&c.ro);
    free(c.suite_build);
    for (size_t t = 0; t < c.ntargets; t++)
        free(c.targets[t]);
    free(c.targets);
    return rc;
}
