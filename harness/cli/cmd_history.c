/* cmd_history.c - qqbench history: the options; run/history_run.c prints a suite's labelled
 * snapshots (--record) as series per case and key (qqb_history_run). */
#include "cmds.h"
#include "history_run.h"
#include "opts.h"
#include "pipeline.h"

/* The usage's prose around the option lines, which the table in
 * cmd_history generates. */
static const struct qqb_opts_cmd history_cmd = {
    "history",
    "usage: qqbench history SUITE.yaml|SUITE [--baselines DIR] [--key K]\n"
    "                       [--machine ID]\n\n"
    "Print, per case and key, the series across the labelled snapshots that\n"
    "'qqbench run --record LABEL' kept (oldest first): net cycles per interval\n"
    "(the median over launches) measured on this machine (or --machine ID),\n"
    "and memory per key (live and peak bytes, objects created) from the\n"
    "snapshots of every machine, since memory does not depend on it. A '*'\n"
    "marks a change from the label before (cycles: beyond the larger of the\n"
    "two labels' noise; memory: any change).\n\n",
    "\nExit: 0; 2 for bad usage, or when there is no snapshot at all.\n"};

int cmd_history(int argc, char **argv)
{
    const char *arg = NULL, *bdir = NULL, *only = NULL, *machine = NULL, *plot = NULL;
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--baselines", "DIR", &bdir,
                       "where baselines live (default: as 'qqbench run')"),
        QQB_OPT_STRING("--key", "K", &only, "only this key"),
        QQB_OPT_STRING("--machine", "ID", &machine,
                       "cycles of this machine fingerprint (default: this one)"),
        QQB_OPT_STRING("--plot", "DIR", &plot,
                       "also draw the series (history-cycles, history-memory:\n"
                       "data, .gp script, SVG and PNG) into DIR"),
        QQB_OPT_REQUIRED_POSITIONAL("SUITE", &arg),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&history_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    return qqb_history_run(arg, bdir, machine, only, plot);
}
