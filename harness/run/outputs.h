/* outputs.h - where qqbench run's outputs go by default (docs/REPORTS.md, "The run report"). */
#ifndef QQB_OUTPUTS_H
#define QQB_OUTPUTS_H

#include <stddef.h>

/*
 * The default report folder of suite SUITE whose file is in SUITE_DIR:
 * ROOT/reports/latest/SUITE, ROOT being where the suite's baselines live
 * by default (util/git.h qqb_git_baselines_dir: the root of the git
 * checkout holding the suite, else the suite's folder), never the current
 * folder. When ROOT/reports does not exist it is made with a .gitignore
 * holding `*`, so `git add -A` leaves the reports out; a reports folder
 * that exists is left as it is. 0, or -1 with ERR (a path too long, a
 * folder or file that cannot be made).
 */
int qqb_run_report_dir(const char *suite_dir, const char *suite, char *out, size_t len, char *err,
                       size_t errlen);

#endif /* QQB_OUTPUTS_H */
