/* cmd_view.c - qqbench view: the options; report/view.c draws the paper's Figure 6 (a strip per
 * node coloured by state, marks as ticks, values as lines) from trace/timeline.c's strips. */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "opts.h"
#include "timeline.h"
#include "view.h"

/* The usage's prose around the option lines, which the table in cmd_view
 * generates. */
static const struct qqb_opts_cmd view_cmd = {
    "view",
    "usage: qqbench view FILE.qq [--nodes 0-3] [--keys K1,K2] [--from S] [--to S]\n"
    "                    [--idle K1,K2] [--out DIR] [--no-plot]\n\n"
    "Draw the per-node timeline of a QQ file (the QQ paper's Figure 6): a\n"
    "strip per node, each state key a colour, states nested in others drawn\n"
    "over them; marks as ticks above the strip, counts and values as a line\n"
    "(scaled to the key's range over the nodes shown). Time is seconds (or\n"
    "ms, " QQB_TL_MICRO "s) since the run's start on node 0's clock: each node's tick\n"
    "offset is applied, and its error bound is printed under the node.\n"
    "Waiting keys (names with sync, wait, barrier or idle, or --idle) are\n"
    "vermillion, and the share of the time shown each node spends in them\n"
    "is printed at the right of its strip and on stdout. At most 64 strips are\n"
    "drawn (a strip per thread where a node has several): past that, those\n"
    "with the most entries, and stdout says how many were left out.\n\n",
    "\nExit: 0; 2 for a missing or damaged file, a bad option, a node or key\n"
    "the file does not have, or gnuplot failing (one line on stderr).\n"};

/* --from and --to: seconds since the run's start, within 31 years either
 * way (past that gnuplot's axis overflowed: --to 1e308). */
#define MAX_SEC 1e9

int cmd_view(int argc, char **argv)
{
    struct qqb_view_opts v;
    memset(&v, 0, sizeof v);
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--nodes", "LIST", &v.tl.nodes,
                       "nodes to draw: 0-3, 5, 0,2,6-7 (default all)"),
        QQB_OPT_STRING("--keys", "LIST", &v.tl.keys,
                       "keys to draw, by name, comma-separated (default all)"),
        {.kind = QQB_OPTK_DOUBLE,
         .name = "--from",
         .arg = "S",
         .value = &v.tl.from,
         .min = -MAX_SEC,
         .max = MAX_SEC,
         .expect = "seconds, a decimal number from -1e9 to 1e9",
         .given = &v.tl.has_from,
         .help = "start of the window, seconds since the run's start"},
        {.kind = QQB_OPTK_DOUBLE,
         .name = "--to",
         .arg = "S",
         .value = &v.tl.to,
         .min = -MAX_SEC,
         .max = MAX_SEC,
         .expect = "seconds, a decimal number from -1e9 to 1e9",
         .given = &v.tl.has_to,
         .help = "end of the window (default: the last event)"},
        QQB_OPT_STRING("--idle", "LIST", &v.tl.idle,
                       "the waiting keys, instead of guessing from the names"),
        QQB_OPT_STRING("--out", "DIR", &v.out,
                       "folder for view.gp, its data, view.svg and view.png\n"
                       "(default: FILE's name without .qq, plus -view)"),
        QQB_OPT_FLAG("--no-plot", 0, &v.no_plot,
                     "write the data and view.gp but do not run gnuplot"),
        QQB_OPT_POSITIONAL("FILE.qq", &v.tl.file),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&view_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (!v.tl.file) {
        qqb_opts_error(&view_cmd, "no .qq file given");
        return QQB_EXIT_USAGE;
    }
    char err[1024] = "";
    if (qqb_view(&v, err, sizeof err) != 0) {
        fprintf(stderr, "qqbench view: error: %s\n", err);
        return QQB_EXIT_USAGE;
    }
    return QQB_EXIT_OK;
}
