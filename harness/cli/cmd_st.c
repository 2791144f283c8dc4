/* cmd_st.c - qqbench st: the options; trace/st.c prints the summary table of the paper's Figure 5,
 * plus marks, counts, values, memory (qqb_st_files). */
#include <limits.h>
#include <stdlib.h>

#include "cmds.h"
#include "opts.h"
#include "pipeline.h"
#include "st.h"

/* The usage's prose around the option lines, which the table in cmd_st
 * generates. */
static const struct qqb_opts_cmd st_cmd = {
    "st",
    "usage: qqbench st [--node N] [--threads] FILE...\n"
    "(options before or after the files; \"--\" before a file named \"-x\")\n\n"
    "Summarise QQ output files as the paper's st program does: per node\n"
    "the tick frequency, keys, state events, tick range and elapsed time;\n"
    "per state key the intervals (on to off), millions of cycles in the state and the\n"
    "percent of elapsed time; then marks (hits), counts (hits, sum, min,\n"
    "max), values (hits, mean, min, max), dropped events and the memory\n"
    "table when the program used memory keys. Under the state table, the\n"
    "ticks per hit of each state (docs/STATISTICS.md: the mean of short\n"
    "intervals, the 10th percentile of long ones) and the same net of the\n"
    "empty-state cost that QQInit calibrated (docs/TIMING.md). A node's\n"
    "figures are over all its threads (each state's on paired with the\n"
    "next off of its own thread, ticks per hit over every thread's\n"
    "intervals pooled); a node with several threads lists them, and with\n"
    "--threads each thread's state table follows (docs/THREADS.md).\n\n",
    "\nFiles are streamed (read once, in chunks, in bounded memory), so the\n"
    "nodes before a damaged entry are printed before the error.\n\n"
    "Exit: 0, or 2 when a file is missing or damaged (one line on stderr).\n"};

int cmd_st(int argc, char **argv)
{
    int node = -1, per_thread = 0, signature = 0;
    char **files = NULL;
    size_t nfiles = 0;
    const struct qqb_opt table[] = {
        {.kind = QQB_OPTK_INT,
         .name = "--node",
         .arg = "N",
         .value = &node,
         .min = 0,
         .max = INT_MAX,
         .expect = "a node number",
         .help = "only node N"},
        {.kind = QQB_OPTK_FLAG,
         .name = "--threads",
         .value = &per_thread,
         .help = "each thread's state table too"},
        {.kind = QQB_OPTK_FLAG,
         .name = "--signature",
         .value = &signature,
         .help = "each state key's signature: its sig:KEY:FIELD\n"
                 "counts (docs/MODELS.md)"},
        QQB_OPT_POSITIONALS("FILE", &files, &nfiles),
        QQB_OPT_END,
    };
    /* Options before or after the files, as report, view and export take
     * them ("--" before a file named "-x"). */
    int prc = qqb_opts_parse(&st_cmd, table, argc, argv, NULL);
    if (prc != 0 || nfiles == 0) {
        if (prc == 0)
            qqb_opts_usage(&st_cmd, table, stderr);
        free(files);
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    }
    int rc = qqb_st_files(files, nfiles, node, per_thread, signature);
    free(files);
    return rc == 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
}
