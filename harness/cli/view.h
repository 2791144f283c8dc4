/* view.h - qqbench view's parts shared by cmd_view.c (options, collecting the strips) and
 * view_write.c (the data files and the gnuplot script). */
#ifndef QQB_VIEW_H
#define QQB_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define MICRO      "\xc2\xb5" /* U+00B5 in UTF-8 */
#define PIXELS     1500       /* time steps per picture width: finer detail is merged */
#define MAX_DEPTH  3          /* nesting shown by insets; deeper states share the last */
#define MAX_DRAWN  24         /* keys drawn each their own; the rest fold (fold_keys) */
#define DENSE      4          /* state entries in a column from which it is drawn as shares */
#define MAX_STRIPS 64         /* strips drawn; the rest are left out (make_rows) */

/* ---------------------------------------------------------------------- */

struct span {
    double a, b; /* seconds since the run's start */
    uint32_t row, depth;
};

struct pt {
    double t, v;
    uint32_t row;
};

struct keyplot {
    struct span *spans;
    size_t nspans, capspans;
    struct pt *pts;
    size_t npts, cappts;
    double vmin, vmax; /* counts and values: range over the points shown */
    const char *color;
    int idle;
};

struct view {
    struct qqb_trace tr;
    const char *file, *out, *idle_spec;
    double from, to;
    int has_from, has_to, no_plot;
    uint32_t *rows;       /* node index of each strip, top to bottom */
    uint32_t *row_thread; /* its thread, or ALL_THREADS: the node's one strip */
    uint32_t nrows;
    size_t strips_left; /* strips past MAX_STRIPS, not drawn */
    struct keyplot *kp;
    double *idle_sec;  /* per strip: seconds in waiting keys, in the window */
    double t0, t1, px; /* the window in seconds; one picture column */
    double scale;      /* seconds to the axis unit */
    const char *unit;
    int any_marks, any_lines, any_idle;
    uint32_t folded, dropped; /* states folded into "other"; other keys not drawn */
    int any_share;            /* view-share.dat has a column (write_share) */
};

#define ALL_THREADS UINT32_MAX

/* The strip's label ("node 0", "node 0 t1") into BUF. */
const char *qqb_view_strip_label(const struct view *v, uint32_t r, char *buf, size_t len);
/* PATH's last component. */
const char *qqb_view_base_name(const char *path);
/* view.dat, view-share.dat and view.gp in v->out: 0, or -1 with ERR. */
int qqb_view_write_data(struct view *v, char *err, size_t errsz);
int qqb_view_write_share(struct view *v, char *err, size_t errsz);
int qqb_view_write_script(struct view *v, char *err, size_t errsz);

#endif
