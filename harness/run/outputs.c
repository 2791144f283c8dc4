/* outputs.c - where qqbench run's outputs go by default (outputs.h). */
#include "outputs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git.h"

/* ROOT/reports made, with its .gitignore: 0, or -1 with ERR. */
static int make_reports(const char *reports, char *err, size_t errlen)
{
    if (mkdir(reports, 0777) != 0) {
        if (errno == EEXIST)
            return 0; /* the user's folder (or one made before): as it is */
        snprintf(err, errlen, "cannot make %s: %s", reports, strerror(errno));
        return -1;
    }
    char path[4300];
    int w = snprintf(path, sizeof path, "%s/.gitignore", reports);
    if (w < 0 || (size_t)w >= sizeof path) {
        snprintf(err, errlen, "the folder %s is too long", reports);
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    static const char text[] = "# qqbench's reports: generated, not committed.\n*\n";
    ssize_t n = fd >= 0 ? write(fd, text, sizeof text - 1) : -1;
    if (fd < 0 || n != (ssize_t)(sizeof text - 1) || close(fd) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0)
            unlink(path);
        return -1;
    }
    return 0;
}

int qqb_run_report_dir(const char *suite_dir, const char *suite, char *out, size_t len, char *err,
                       size_t errlen)
{
    char root[4096];
    size_t n;
    if (qqb_git_baselines_dir(suite_dir, root, sizeof root) != 0 ||
        (n = strlen(root)) < strlen("baselines")) {
        snprintf(err, errlen, "the suite's folder %s is too long", suite_dir);
        return -1;
    }
    /* ROOT/baselines -> ROOT/reports */
    root[n - strlen("baselines")] = '\0';
    char reports[4200];
    int w = snprintf(reports, sizeof reports, "%sreports", root);
    int w2 = snprintf(out, len, "%s/latest/%s", reports, suite);
    if (w < 0 || (size_t)w >= sizeof reports || w2 < 0 || (size_t)w2 >= len) {
        snprintf(err, errlen, "the suite's folder %s is too long", suite_dir);
        return -1;
    }
    return make_reports(reports, err, errlen);
}
