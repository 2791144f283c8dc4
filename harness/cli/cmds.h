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
/* The most entries of run's option table (cmd_run_table), QQB_OPT_END's included. */
#define CMD_RUN_NOPTS 48
struct qqb_opt;
/* run's option table, its values going to O, into T (CMD_RUN_NOPTS entries, those after its
 * QQB_OPT_END zeroed): qqbench ci parses it after its own (opts.h). */
void cmd_run_table(struct qqb_run_opts *o, struct qqb_opt *t);
/* What run checks of O once parsed (--memory-only's company, the outputs
 * that would be refused after the run): 0, or -1 said on stderr. */
int cmd_run_check(const struct qqb_run_opts *o);
int cmd_history(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif /* QQB_CMDS_H */
