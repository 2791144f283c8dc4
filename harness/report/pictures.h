/* pictures.h - the run report: pictures (gnuplot) and index.html drawn from a `qqbench run --json`
 * file. */
#ifndef QQB_PICTURES_H
#define QQB_PICTURES_H

#include <stddef.h>

/*
 * Read JSON_PATH (the report `qqbench run --json` writes) and write into
 * OUTDIR (created if missing): for every picture its data files, the .gp
 * script that draws it (re-runnable with plain 'gnuplot NAME.gp' from
 * OUTDIR), NAME.svg and NAME.png; and index.html, which shows the verdict
 * tables and every picture and needs no network. With NO_PLOT the data,
 * scripts and index.html are written but gnuplot is not run.
 *
 * Only the JSON is read, never the run's code or the baseline store, so a
 * CI artifact can be drawn again anywhere. Fields are read defensively:
 * unknown fields are ignored, missing numbers drawn as missing, and
 * comparison kinds other than "baseline" and "ab" get a picture of their
 * own under their name.
 *
 * Returns 0, or -1 with one line in ERR ("FILE:LINE:COLUMN: error: ..."
 * for JSON that does not parse, "FILE: error: ..." otherwise, or what
 * gnuplot said).
 */
int qqb_report_write(const char *json_path, const char *outdir, int no_plot, char *err,
                     size_t errlen);

#endif /* QQB_PICTURES_H */
