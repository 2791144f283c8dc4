/* cmds.h - the qqbench subcommands: each returns the process exit status. */
#ifndef QQB_CMDS_H
#define QQB_CMDS_H

/* The exit codes (enum qqb_exit) and qqbench run's options. */
#include "pipeline.h"

int cmd_st(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_ci(int argc, char **argv);
/* qqbench run's options ARGV[1..ARGC-1] parsed into O, over what O holds
 * (qqb_run_opts_init's defaults, or what qqbench ci set first): 0, and
 * *HELP 1 when the help was printed (nothing to run); -1 bad usage (said). */
int cmd_run_options(int argc, char **argv, struct qqb_run_opts *o, int *help);
/* 1 when ARG (--name or --name=VALUE, or -q) is one of run's options. */
int cmd_run_is_option(const char *arg);
int cmd_history(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif /* QQB_CMDS_H */
