/* history_run.h - `qqbench history` (cli/cmd_history.c): a suite's labelled snapshots as series
 * per case and key. */
#ifndef QQB_HISTORY_RUN_H
#define QQB_HISTORY_RUN_H

/* The snapshots of suite ARG (a suite file or a bare name) under BDIR (NULL:
 * as `qqbench run` finds them), cycles of MACHINE (NULL: this machine's),
 * ONLY one key when not NULL, with PLOT the pictures in that folder. The
 * exit status (enum qqb_exit: 2 bad input or no snapshot at all). */
int qqb_history_run(const char *arg, const char *bdir, const char *machine, const char *only,
                    const char *plot);

#endif /* QQB_HISTORY_RUN_H */
