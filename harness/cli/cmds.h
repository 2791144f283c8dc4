/* cmds.h - the qqbench subcommands: each returns the process exit status. */
#ifndef QQB_CMDS_H
#define QQB_CMDS_H

/* Exit codes (README.md, "Exit codes"). */
enum qqb_exit {
    QQB_EXIT_OK = 0,         /* all good */
    QQB_EXIT_REGRESSION = 1, /* a regression */
    QQB_EXIT_USAGE = 2,      /* bad input or usage */
    QQB_EXIT_KERNEL = 3      /* a kernel failed */
};

int cmd_st(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_ci(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif /* QQB_CMDS_H */
