/* main.c - qqbench: the global options and the table of subcommands. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "nearest.h"

struct cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct cmd commands[] = {
    {"run", cmd_run, "run a YAML suite, compare with the baseline, give verdicts"},
    {"ci", cmd_ci, "build a reference revision and run a suite against it"},
    {"compare", cmd_compare, "compare two .qq files key by key"},
    {"st", cmd_st, "summarise a .qq file (the paper's st program)"},
    {"view", cmd_view, "draw a .qq file's per-node timeline (the paper's Figure 6)"},
    {"export", cmd_export, "write a .qq file as Chrome trace JSON (Perfetto) or CSV"},
    {"whatif", cmd_whatif, "predict a run with one key's intervals faster or slower"},
    {"profile-machine", cmd_profile, "measure this machine's rates into profile.yaml"},
    {"predict", cmd_predict, "predict a run's signed keys on another machine's profile"},
    {"model", cmd_model, "fit a performance model to a params sweep or BigSim lines"},
    {"history", cmd_history, "a suite's --record snapshots as series per case and key"},
    {"report", cmd_report, "draw a run's pictures and index.html from its --json file"},
};

static void usage(FILE *fp)
{
    fprintf(fp, "usage: qqbench [--version] [--help] <command> [<args>]\n"
                "       qqbench help [<command>]\n\n"
                "Benchmark-regression harness for QQ-instrumented programs.\n\n"
                "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(fp, "  %-16s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\n'qqbench help <command>' (or 'qqbench <command> --help') describes a\n"
                "command.\n"
                "Exit codes: 0 all good, 1 a regression, 2 bad input or usage,\n"
                "3 a kernel failed.\n");
}

/* A command's verdict table lost to a full disk or a closed pipe is a
 * result that was not delivered: exit 3 (results not stored), not 0, so a
 * CI job cannot pass on output nobody saw. Usage errors keep their 2. */
static int output_checked(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    int e = errno;
    fprintf(stderr, "qqbench: error: cannot write the output: %s\n",
            e ? strerror(e) : "write error");
    return rc == QQB_EXIT_USAGE ? rc : QQB_EXIT_KERNEL;
}

#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The command named NAME, or NULL with the error (and the nearest name)
 * printed, as WHO ("qqbench" or "qqbench help") says it. */
static const struct cmd *find_command(const char *name, const char *who)
{
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (!strcmp(name, commands[i].name))
            return &commands[i];
        names[i] = commands[i].name;
    }
    const char *near = qqb_nearest(name, names, NCOMMANDS);
    fprintf(stderr, "%s: '%s' is not a command%s%s%s; see 'qqbench --help'\n", who, name,
            near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    return NULL;
}

/* qqbench help [CMD]: the command list, or CMD's usage as 'qqbench CMD
 * --help' prints it. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        usage(stdout);
        return QQB_EXIT_OK;
    }
    if (argc > 3) {
        fprintf(stderr, "qqbench help: error: one command at a time; see 'qqbench --help'\n");
        return QQB_EXIT_USAGE;
    }
    const struct cmd *c = find_command(argv[2], "qqbench help: error");
    if (!c)
        return QQB_EXIT_USAGE;
    char name[32], opt[] = "--help";
    snprintf(name, sizeof name, "%s", c->name);
    char *args[] = {name, opt, NULL};
    return c->fn(2, args);
}

int main(int argc, char **argv)
{
    /* A file-size limit reached while writing a baseline or report fails
     * that write (EFBIG), which is reported and cleaned up, rather than
     * killing qqbench half-way with its temporary file left behind. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return QQB_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return output_checked(QQB_EXIT_OK);
    }
    if (!strcmp(argv[1], "help"))
        return output_checked(help(argc, argv));
    if (!strcmp(argv[1], "--version")) {
        printf("qqbench %s\n", QQB_VERSION);
        return output_checked(QQB_EXIT_OK);
    }
    const struct cmd *c = find_command(argv[1], "qqbench");
    if (!c)
        return QQB_EXIT_USAGE;
    return output_checked(c->fn(argc - 1, argv + 1));
}
