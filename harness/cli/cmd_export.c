/* cmd_export.c - qqbench export: the options; trace/export.c writes a .qq file as Chrome
 * trace-event JSON (Perfetto, chrome://tracing) or CSV, one exporter per format. */
#include <stdio.h>

#include "cmds.h"
#include "export.h"
#include "opts.h"

/* The usage's prose around the option lines, which the table in
 * cmd_export generates. */
static const struct qqb_opts_cmd export_cmd = {
    "export",
    "usage: qqbench export FILE.qq --format chrome|csv [--out F] [--nodes LIST]\n"
    "                      [--keys LIST]\n\n",
    "\nExit: 0; 2 for a missing or damaged file, a bad option, a node or key the\n"
    "file does not have, or an unwritable output (one line on stderr).\n"};

int cmd_export(int argc, char **argv)
{
    struct qqb_export_opts o = {0};
    static const char *const formats[] = {"chrome", "csv", NULL};
    const struct qqb_opt table[] = {
        QQB_OPT_CHOICE("--format", "chrome|csv", &o.format, formats,
                       "chrome: Chrome trace-event JSON, for https://ui.perfetto.dev\n"
                       "and chrome://tracing: each node a process, each thread\n"
                       "that recorded a track (tid: its OS thread id) of complete\n"
                       "('X') slices (files without thread ids: a track per state\n"
                       "key), marks instant ('i')\n"
                       "events, counts and values counter ('C') tracks. Times in\n"
                       "microseconds since the run's start, the tick offsets\n"
                       "applied (each node's error bound is its process label).\n"
                       "csv: one row per event: node,key,type,info,tick,seconds,\n"
                       "run_seconds,thread,tid (seconds since the node's base time,\n"
                       "and since the run's start with the offset applied; the\n"
                       "recording thread's index and OS id)"),
        QQB_OPT_STRING("--out", "F", &o.out, "write to F (default: standard output)"),
        QQB_OPT_STRING("--nodes", "LIST", &o.nodes, "only these nodes: 0-3, 5, 0,2,6-7"),
        QQB_OPT_STRING("--keys", "LIST", &o.keys, "only these keys, by name, comma-separated"),
        QQB_OPT_POSITIONAL("FILE.qq", &o.file),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&export_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (!o.file || !o.format) {
        qqb_opts_error(&export_cmd, "%s",
                       !o.file ? "no .qq file given"
                               : "--format chrome or --format csv is required");
        return QQB_EXIT_USAGE;
    }
    char err[1024] = "";
    int rc = qqb_export(&o, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "qqbench export: error: %s\n", err);
    return rc == 0 ? QQB_EXIT_OK : rc == -2 ? QQB_EXIT_KERNEL : QQB_EXIT_USAGE;
}
