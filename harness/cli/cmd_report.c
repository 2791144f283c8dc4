/* cmd_report.c - qqbench report: draw the run report (pictures and index.html) from a `qqbench run
 * --json` file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opts.h"
#include "pictures.h"

/* The usage's prose around the option lines, which the table in
 * cmd_report generates. */
static const struct qqb_opts_cmd report_cmd = {
    "report",
    "usage: qqbench report RESULT.json [--out DIR] [--no-plot]\n\n"
    "Draw the report of a run from the file 'qqbench run --json' wrote: a folder\n"
    "with index.html (the verdict tables and every picture, no network needed)\n"
    "and, per picture, its data, the gnuplot script that draws it (re-draw with\n"
    "'gnuplot NAME.gp' in the folder), SVG and PNG. The pictures: change per key\n"
    "with its interval (per comparison kind), every launch's samples, memory per\n"
    "object type, scaling over node counts, A/B pairs side by side\n"
    "(docs/REPORTS.md).\n\n",
    "\nExit: 0; 2 for a missing or damaged file, a bad option, or gnuplot failing\n"
    "(one line on stderr).\n"};

int cmd_report(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    int no_plot = 0;
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--out", "DIR", &out,
                       "the folder (default: RESULT's name without .json, plus -report)"),
        QQB_OPT_FLAG("--no-plot", 0, &no_plot,
                     "write the data, scripts and index.html but do not run gnuplot"),
        QQB_OPT_POSITIONAL("RESULT.json", &file),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&report_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (!file) {
        qqb_opts_error(&report_cmd, "no RESULT.json given");
        return QQB_EXIT_USAGE;
    }
    char *alloc = NULL;
    if (!out) {
        /* RESULT's name without .json, plus -report, in the current folder. */
        const char *base = strrchr(file, '/');
        base = base ? base + 1 : file;
        size_t len = strlen(base);
        if (len > 5 && !strcmp(base + len - 5, ".json"))
            len -= 5;
        alloc = malloc(len + sizeof "-report");
        if (!alloc) {
            fprintf(stderr, "qqbench report: error: out of memory\n");
            return QQB_EXIT_USAGE;
        }
        memcpy(alloc, base, len);
        memcpy(alloc + len, "-report", sizeof "-report");
        out = alloc;
    }
    char err[1024];
    if (qqb_report_write(file, out, no_plot, err, sizeof err) != 0) {
        fprintf(stderr, "qqbench report: %s\n", err);
        free(alloc);
        return QQB_EXIT_USAGE;
    }
    printf("qqbench report: wrote %s/index.html\n", out);
    free(alloc);
    return QQB_EXIT_OK;
}
