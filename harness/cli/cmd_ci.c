/* cmd_ci.c - qqbench ci: build a reference revision beside the working tree and run a suite against
 * it. */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "git.h"
#include "opts.h"
#include "runner.h"

/* The usage's prose around the option lines, which the table in cmd_ci
 * generates. */
static const struct qqb_opts_cmd ci_cmd = {
    "ci",
    "usage: qqbench ci [--base REV] [--keep] [--jobs N] [--kernels-subdir SUB]\n"
    "                  [SUITE.yaml] [run options]\n\n"
    "Check a change in one job, on whatever machine the job got: build the\n"
    "reference revision REV of this git checkout in a temporary folder with\n"
    "the project's own build (cmake), then run SUITE (default\n"
    "configs/ci.yaml) with 'qqbench run SUITE --against REFERENCE-KERNELS',\n"
    "so every case runs from both builds, interleaved and paired by round.\n"
    "The change build is this qqbench's own build (its kernels are found as\n"
    "'qqbench run' finds them; another project passes --kernels DIR after the\n"
    "suite). Options after the suite go to 'qqbench run'\n"
    "(--kernels, --json, --junit, --report, --require-baseline, ...).\n\n",
    "\nThe reference's build log goes to a file (its path is printed), not to\n"
    "the job's log. Exit: as 'qqbench run' (0, 1 a regression, 3 a kernel\n"
    "failed), and 2 for bad usage, when REV is not a commit, or when REV\n"
    "does not build.\n"};

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

/* SIGINT, SIGTERM or SIGHUP while the reference is checked out and built:
 * the signal, 0 until then. The build is stopped, the worktree and the
 * folder removed, and ci ends by the same signal (it left cmake running
 * under init, the folder in TMPDIR and the worktree registered). */
static volatile sig_atomic_t ci_stop;
static const int ci_sigs[] = {SIGINT, SIGTERM, SIGHUP};
#define NCISIG (sizeof ci_sigs / sizeof ci_sigs[0])
static struct sigaction ci_old[NCISIG];

static void on_ci_signal(int sig)
{
    ci_stop = sig;
}

static void ci_trap(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_ci_signal; /* no SA_RESTART: waitpid returns EINTR */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCISIG; i++)
        sigaction(ci_sigs[i], on ? &sa : &ci_old[i], on ? &ci_old[i] : NULL);
}

/* Run ARGV with stdout and stderr to LOG (appended), or to /dev/null when
 * LOG is NULL; stdin from /dev/null; in a process group of its own, which
 * a signal to ci stops. Returns the exit status, or -1 when it could not
 * run, died by a signal or was stopped. */
static int run_logged(char *const argv[], const char *log, const char *cwd)
{
    if (ci_stop)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out =
            log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644) : open("/dev/null", O_WRONLY);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
            _exit(127);
        if (cwd && chdir(cwd) != 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* both sides: whichever runs first */
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
        if (ci_stop) {
            qqb_stop_group(pid);
            return -1;
        }
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The default reference: the merge base of HEAD with origin/main, else main. */
static int default_base(char *buf, size_t len)
{
    static const char *const refs[] = {"origin/main", "main", "origin/master", "master"};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        const char *const args[] = {"merge-base", "HEAD", refs[i], NULL};
        if (qqb_git_line(".", args, buf, len, NULL) == 0 && buf[0])
            return 0;
    }
    return -1;
}

/* Remove DIR and everything below it (rm -rf, by argv). */
static void remove_tree(const char *dir)
{
    char *argv[] = {"rm", "-rf", "--", (char *)dir, NULL};
    run_logged(argv, NULL, NULL);
}

/* The reference: this checkout's top folder into TOP, and the commit *BASE
 * names into REV (*BASE NULL: the default reference, spelled into GIVEN).
 * 0, or -1 with the error said. */
static int ci_reference(const char **base, char *given, size_t glen, char *top, size_t toplen,
                        char *rev, size_t revlen)
{
    static const char *const top_args[] = {"rev-parse", "--show-toplevel", NULL};
    if (qqb_git_line(".", top_args, top, toplen, NULL) != 0 || !top[0]) {
        fprintf(stderr, "qqbench ci: error: not in a git checkout (git rev-parse "
                        "--show-toplevel failed); run it from the repository\n");
        return -1;
    }
    if (!*base) {
        if (default_base(given, glen) != 0) {
            fprintf(stderr, "qqbench ci: error: no --base given and no main or "
                            "origin/main to take the merge base with\n");
            return -1;
        }
        *base = given;
    }
    char spec[1100];
    /* Git's own limit on a ref name is far below this; a longer --base is
     * refused, never cut (a cut lost the ^{commit} and named another rev). */
    if (strlen(*base) > 1024) {
        fprintf(stderr, "qqbench ci: error: --base is %zu characters, at most 1024\n",
                strlen(*base));
        return -1;
    }
    snprintf(spec, sizeof spec, "%s^{commit}", *base);
    const char *const rev_args[] = {"rev-parse", "--verify", "--quiet", spec, NULL};
    if (qqb_git_line(".", rev_args, rev, revlen, NULL) != 0 || !rev[0]) {
        fprintf(stderr,
                "qqbench ci: error: --base '%s' is not a commit of this "
                "repository\n",
                *base);
        return -1;
    }
    return 0;
}

/* qqbench run SUITE --against KERNELS [the rest]: the rest, ARGV[1..ARGC-1],
 * parsed as run parses it, over the suite and the reference's kernels. */
static int ci_run(const char *suite, const char *kernels, int argc, char **argv)
{
    struct qqb_run_opts ro;
    qqb_run_opts_init(&ro);
    ro.suite_path = suite;
    ro.against = kernels;
    int help = 0, rc = QQB_EXIT_USAGE;
    if (cmd_run_options(argc, argv, &ro, &help) == 0)
        rc = help ? QQB_EXIT_OK : qqb_run(&ro);
    qqb_run_opts_free(&ro);
    return rc;
}

/* The reference's worktree and folder DIR removed (kept, and said, with
 * KEEP), ci's traps undone; ended by the signal that stopped ci, if one did. */
static void ci_clean(const char *top, const char *src, const char *dir, int keep)
{
    char *rm_argv[] = {"git",    "-C",      (char *)top, "worktree",
                       "remove", "--force", (char *)src, NULL};
    int sig = ci_stop;
    ci_stop = 0; /* the clean-up's own commands must run */
    if (sig)
        keep = 0; /* stopped: nothing of it is evidence */
    if (!keep) {
        run_logged(rm_argv, NULL, NULL);
        remove_tree(dir);
    } else {
        fprintf(stderr, "qqbench ci: kept %s\n", dir);
    }
    ci_trap(0);
    if (sig) {
        fprintf(stderr,
                "qqbench ci: stopped by signal %d: the reference build stopped, %s "
                "removed\n",
                sig, dir);
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

int cmd_ci(int argc, char **argv)
{
    const char *base = NULL, *suite = "configs/ci.yaml", *sub = "kernels";
    int keep = 0, njobs = 2, i = 1;
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--base", "REV", &base,
                       "the reference: a commit, branch or tag (default: the merge\n"
                       "base of HEAD with origin/main, else with main)"),
        QQB_OPT_FLAG("--keep", 0, &keep, "keep the reference's folder and its build logs"),
        QQB_OPT_INT("--jobs", "N", &njobs, 1, 1024, "parallel build jobs (default 2)"),
        QQB_OPT_CALLBACK("--kernels-subdir", "SUB", ci_subdir, &sub,
                         "the reference's kernels are BUILD/SUB (default\n"
                         "kernels: the build folder's kernels/, as this project\n"
                         "lays them out); bare names are looked up there"),
        QQB_OPT_END,
    };
    /* ci's options come first; the suite and everything after it are the run's. */
    int prc = qqb_opts_parse(&ci_cmd, table, argc, argv, &i);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    char jobs[16];
    snprintf(jobs, sizeof jobs, "%d", njobs);
    if (i < argc && argv[i][0] != '-')
        suite = argv[i++];
    /* argv[i..] go to 'qqbench run'. */

    char top[4096], rev[128], given[160];
    if (ci_reference(&base, given, sizeof given, top, sizeof top, rev, sizeof rev) != 0)
        return QQB_EXIT_USAGE;

    char dir[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/qqbench-ci-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "qqbench ci: error: cannot make a folder in %s: %s\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return QQB_EXIT_USAGE;
    }
    char src[4200], bld[4200], log[4200], kernels[4500];
    snprintf(src, sizeof src, "%s/src", dir);
    snprintf(bld, sizeof bld, "%s/build", dir);
    snprintf(log, sizeof log, "%s/build.log", dir);
    snprintf(kernels, sizeof kernels, "%s/%.200s", bld, sub);
    fprintf(stderr, "qqbench ci: reference %s (%.12s), built in %s (log: %s)\n", base, rev, dir,
            log);

    /* The reference's sources: a detached worktree shares the object store
     * (no copy of the history) and is removed afterwards. */
    char *wt_argv[] = {"git", "-C", top, "worktree", "add", "--detach", "--force", src, rev, NULL};
    char *cfg_argv[] = {
        "cmake", "-S", src, "-B", bld, "-DQQ_BUILD_TESTS=OFF", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        NULL};
    char *bld_argv[] = {"cmake", "--build", bld, "-j", (char *)jobs, NULL};
    int rc;
    ci_trap(1);
    if (run_logged(wt_argv, log, NULL) != 0 && !ci_stop) {
        fprintf(stderr, "qqbench ci: error: cannot check out %s (see %s)\n", base, log);
        rc = QQB_EXIT_USAGE;
    } else if (ci_stop) {
        rc = QQB_EXIT_KERNEL; /* ends by the signal below */
    } else if (run_logged(cfg_argv, log, NULL) != 0 || run_logged(bld_argv, log, NULL) != 0 ||
               ci_stop) {
        if (ci_stop) {
            rc = QQB_EXIT_KERNEL;
            goto cleanup;
        }
        fprintf(stderr, "qqbench ci: error: the reference %s does not build (see %s)\n", base, log);
        keep = 1; /* the log is the evidence */
        rc = QQB_EXIT_USAGE;
    } else {
        /* A reference without the kernel folder lacks every kernel: the
         * run says which (exit 3), rather than refusing the folder. */
        mkdir(kernels, 0755);
        ci_trap(0); /* the run traps its own */
        /* argv[i - 1], ci's, stands where run's name would. */
        rc = ci_run(suite, kernels, argc - i + 1, argv + i - 1);
    }
cleanup:
    ci_clean(top, src, dir, keep);
    return rc;
}
