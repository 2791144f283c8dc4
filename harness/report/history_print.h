/* history_print.h - report: `qqbench history`'s series and pictures (docs/BASELINES.md). */
#ifndef QQB_HISTORY_PRINT_H
#define QQB_HISTORY_PRINT_H

#include <stddef.h>

#include "history.h"

/* The series of S (N snapshots of suite NAME under BDIR, sorted by date) on
 * stdout: cycles of MACHINE, memory of every machine, ONLY one key when not
 * NULL, a '*' where judge/ qqb_history_moved says it moved; with PLOT, as
 * pictures in that folder. 0, or -1 with the error printed. */
int qqb_history_print(const struct qqb_snap *s, size_t n, const char *name, const char *bdir,
                      const char *machine, const char *only, const char *plot);

#endif /* QQB_HISTORY_PRINT_H */
