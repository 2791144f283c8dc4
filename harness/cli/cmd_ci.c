/* cmd_ci.c - qqbench ci: the options (ci's table, then run's); run/ci.c builds both revisions
 * and runs the suite (qqb_ci). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"
#include "cmds.h"
#include "opts.h"

/* The usage's prose around the option lines, which the tables in ci_options
 * generate (ci's, then run's). */
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
    "options, --update-baseline, --record, --baselines, ..., need it).\n",
    "\nWith --json FILE and no --report DIR, the report is FILE alone (no\n"
    "reports/latest/). The build logs (ci-reference-build.log,\n"
    "ci-change-build.log) go to the folder of --json FILE, else the report\n"
    "folder (--report DIR, else reports/latest/SUITE; with --no-report and\n"
    "no --json, the temporary folder, removed), not to the job's log; a build\n"
    "that fails shows its last 30 lines and where its log is kept. Exit: as 'qqbench\n"
    "run' (0, 1 a regression, 3 a kernel failed), and 2 for bad usage, a bad\n"
    "suite, a REV that is not a commit or is HEAD itself (without\n"
    "--allow-same), or a build that fails.\n"};

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

/* ci's options, the suite, and run's options after it, into O: ci's own
 * come first (one of run's there is said so, not taken for a misspelt
 * option of ci's); after the suite, run's table then ci's (git's
 * parse_options_concat: --keep there is run's). Exception to the return
 * convention: -1 when ci goes on, else the exit code to end with (the
 * help printed: QQB_EXIT_OK). */
static int ci_options(int argc, char **argv, struct qqb_ci_opts *o)
{
    const struct qqb_opt ci[] = {
        QQB_OPT_GROUP("options of ci, before the suite or after it:"),
        QQB_OPT_STRING("--base", "REV", &o->base,
                       "the reference: a commit, branch or tag (default: the merge\n"
                       "base of HEAD with origin/main, else with main)"),
        QQB_OPT_CALLBACK("--build", "CMD", ci_build_cmd, &o->build,
                         "build both revisions with /bin/sh -c CMD, {src} and {out}\n"
                         "replaced by the sources' and a build folder (default: the\n"
                         "suite's build:, else the reference alone with CMake)"),
        QQB_OPT_FLAG("--allow-same", 0, &o->allow_same,
                     "run even when REV is HEAD's own commit (an A/A run,\n"
                     "or uncommitted changes against HEAD)"),
        QQB_OPT_FLAG("--with-baseline", 0, &o->with_baseline,
                     "also compare with this machine's stored baseline and\n"
                     "the memory baseline (read only, unless --update-baseline\n"
                     "or --record; other flags: a warning, not a refusal);\n"
                     "without it ci neither reads nor writes baselines/"),
        QQB_OPT_FLAG("--keep", 0, &o->keep,
                     "keep the reference's worktree and build folder (before\n"
                     "the suite; after it, --keep is run's)"),
        QQB_OPT_INT("--jobs", "N", &o->njobs, 1, 1024,
                    "parallel jobs of the default CMake build (default:\n"
                    "the processors online)"),
        QQB_OPT_CALLBACK("--kernels-subdir", "SUB", ci_subdir, &o->sub,
                         "the reference's kernels are BUILD/SUB ({out}, or the\n"
                         "worktree when CMD does not name {out}); default: where\n"
                         "--kernels is in this checkout, else kernels/"),
        QQB_OPT_END,
    };
    static const struct qqb_opt head[] = {QQB_OPT_GROUP("options of run, after the suite:"),
                                          QQB_OPT_END};
    struct qqb_opt run[CMD_RUN_NOPTS];
    cmd_run_table(&o->ro, run);
    struct qqb_opt *runs = qqb_opts_concat(head, run);
    struct qqb_opt *before = runs ? qqb_opts_concat(ci, runs) : NULL;
    struct qqb_opt *after = runs ? qqb_opts_concat(runs, ci) : NULL;
    int rc = QQB_EXIT_USAGE, i = 1, prc;
    if (!before || !after) {
        fprintf(stderr, "qqbench ci: error: out of memory\n");
        goto done;
    }
    for (int k = 1; k < argc && argv[k][0] == '-' && strcmp(argv[k], "--") != 0; k++) {
        const struct qqb_opt *opt = qqb_opts_find(ci, argv[k]);
        if (opt) {
            k += !strchr(argv[k], '=') && opt->kind != QQB_OPTK_FLAG;
            continue;
        }
        if (qqb_opts_find(run, argv[k])) {
            qqb_opts_error(&ci_cmd,
                           "'%.*s' is an option of run: run's options go after the suite "
                           "(qqbench ci [ci's options] SUITE.yaml [run's options])",
                           (int)strcspn(argv[k], "="), argv[k]);
            goto done;
        }
        break; /* not run's either: the parse below says so */
    }
    prc = qqb_opts_parse(&ci_cmd, before, argc, argv, &i);
    if (prc == 0 && i < argc && argv[i][0] != '-')
        o->suite = o->ro.suite_path = argv[i++];
    if (prc == 0 && !o->suite) {
        qqb_opts_error(&ci_cmd,
                       "no suite given: name it after ci's options (qqbench ci [--base REV] "
                       "SUITE.yaml [run's options])");
        prc = -1;
    }
    /* Past the suite, argv[i - 1] (the suite) stands in for the command's
     * name. */
    if (prc == 0)
        prc = qqb_opts_parse(&ci_cmd, after, argc - i + 1, argv + i - 1, NULL);
    if (prc == 0 && cmd_run_check(&o->ro) != 0)
        prc = -1;
    rc = prc == 0 ? -1 : prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
done:
    free(runs);
    free(before);
    free(after);
    return rc;
}

int cmd_ci(int argc, char **argv)
{
    struct qqb_ci_opts o;
    qqb_ci_opts_init(&o);
    int rc = ci_options(argc, argv, &o);
    if (rc < 0)
        rc = qqb_ci(&o);
    qqb_ci_opts_free(&o);
    return rc;
}
