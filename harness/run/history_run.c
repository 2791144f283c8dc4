/* history_run.c - `qqbench history`: the suite's name and baselines folder, its snapshots
 * (judge/ qqb_history_snaps), printed and drawn (report/ qqb_history_print). */
#include <stdio.h>
#include <string.h>

#include "fingerprint.h"
#include "git.h"
#include "history.h"
#include "history_print.h"
#include "history_run.h"
#include "pipeline.h"
#include "runner.h"
#include "suite.h"

/* The suite's name in NAME (NAMELEN bytes) from ARG, a suite file or a
 * bare name, and where its baselines are in *BDIR when not given: the
 * suite's checkout's (a file), the current checkout's (a name), else
 * baselines. 0, or -1 with the error printed. */
static int suite_and_dir(const char *arg, char *name, size_t namelen, const char **bdir,
                         char *dirbuf, size_t dirlen)
{
    size_t len = strlen(arg);
    if (len > 5 && !strcmp(arg + len - 5, ".yaml")) {
        struct qqb_suite *su;
        char err[1024], kbuf[4096];
        if (qqb_suite_load(arg, qqb_default_kernel_dir(kbuf, sizeof kbuf), &su, err, sizeof err) !=
            0) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
        snprintf(name, namelen, "%s", su->name);
        if (!*bdir && qqb_git_baselines_dir(su->dir, dirbuf, dirlen) == 0)
            *bdir = dirbuf;
        qqb_suite_free(su);
    } else {
        snprintf(name, namelen, "%s", arg);
        if (!*bdir && qqb_git_baselines_dir(".", dirbuf, dirlen) == 0)
            *bdir = dirbuf;
    }
    if (!*bdir)
        *bdir = "baselines";
    return 0;
}

int qqb_history_run(const char *arg, const char *bdir, const char *machine, const char *only,
                    const char *plot)
{
    char name[256], dirbuf[4096];
    if (suite_and_dir(arg, name, sizeof name, &bdir, dirbuf, sizeof dirbuf) != 0)
        return QQB_EXIT_USAGE;
    struct qqb_fingerprint fp;
    qqb_fingerprint_this(&fp);
    if (!machine)
        machine = fp.id;

    struct qqb_snap *s = NULL;
    size_t n = 0;
    int rc = qqb_history_snaps(bdir, name, machine, &s, &n);
    if (rc != 0) {
        fprintf(stderr, "qqbench history: error: cannot read the snapshots under %s\n", bdir);
    } else if (n == 0) {
        fprintf(stderr,
                "qqbench history: error: no snapshot of suite '%s' under %s "
                "(make one with 'qqbench run SUITE.yaml --record LABEL')\n",
                name, bdir);
        rc = -1;
    } else {
        rc = qqb_history_print(s, n, name, bdir, machine, only, plot);
    }
    qqb_history_snaps_free(s, n);
    return rc == 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
}
