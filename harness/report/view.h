/* view.h - qqbench view: a .qq file's per-node timeline (trace/timeline.h) drawn with gnuplot. */
#ifndef QQB_VIEW_H
#define QQB_VIEW_H

#include <stddef.h>

#include "timeline.h"

struct qqb_view_opts {
    struct qqb_timeline_opts tl; /* the file, strips, keys and window */
    const char *out;             /* the folder (NULL: FILE's name without .qq, plus -view) */
    int no_plot;                 /* write the data and view.gp, do not run gnuplot */
};

/* Read the strips, write view-nodes.dat, view-states.dat, view-events.dat,
 * view-share.dat and view.gp into the folder, run gnuplot (view.svg,
 * view.png), and say on stdout what was drawn. 0, or -1 with one line in
 * ERR. */
int qqb_view(const struct qqb_view_opts *o, char *err, size_t errsz);

#endif /* QQB_VIEW_H */
