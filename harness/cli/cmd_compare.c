/* cmd_compare.c - qqbench compare A.qq B.qq: the options; run/compare_run.c compares the two
 * files key by key (qqb_compare_run). */
#include "cmds.h"
#include "compare_run.h"
#include "opts.h"
#include "pipeline.h"

/* The usage's prose around the option lines, which the table in
 * cmd_compare generates. */
static const struct qqb_opts_cmd compare_cmd = {
    "compare",
    "usage: qqbench compare [--all] A.qq B.qq\n\n"
    "Compare two QQ files key by key, summed over nodes: the count (a\n"
    "state's intervals, on to off; the other keys' hits), cycles in each\n"
    "state, net cycles per interval (the per-hit estimator of\n"
    "docs/STATISTICS.md minus the empty-state cost QQInit calibrated, the\n"
    "slowest node's) and the change from A to B (in ticks where a figure\n"
    "is within the counter's resolution, half a counter step, of zero);\n"
    "then memory per key (live and peak bytes, objects). One file per side is one "
    "launch: there is no statistics\n"
    "here. For verdicts with intervals, run both versions through\n"
    "'qqbench run' (variants or a baseline).\n\n",
    "\nExit: 0, or 2 when a file is missing or damaged.\n"};

int cmd_compare(int argc, char **argv)
{
    int all = 0;
    const char *files[2] = {NULL, NULL};
    const struct qqb_opt table[] = {
        QQB_OPT_FLAG("--all", 0, &all, "also list keys whose numbers did not change"),
        QQB_OPT_REQUIRED_POSITIONAL("A.qq", &files[0]),
        QQB_OPT_REQUIRED_POSITIONAL("B.qq", &files[1]),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&compare_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    return qqb_compare_run(files[0], files[1], all);
}
