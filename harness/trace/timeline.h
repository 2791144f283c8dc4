/* timeline.h - a .qq file's strips for qqbench view: a strip per node (or thread), each key's
 * state intervals and points within a window, merged to the picture's resolution, the keys past
 * QQB_TL_MAX_DRAWN folded (report/view.c draws them). */
#ifndef QQB_TIMELINE_H
#define QQB_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define QQB_TL_MICRO       "\xc2\xb5" /* U+00B5 in UTF-8 */
#define QQB_TL_PIXELS      1500       /* time steps per picture width: finer detail is merged */
#define QQB_TL_MAX_DRAWN   24         /* keys drawn each their own; the rest fold */
#define QQB_TL_MAX_STRIPS  64         /* strips drawn; the rest are left out */
#define QQB_TL_ALL_THREADS UINT32_MAX /* a strip of a node's every thread */

struct qqb_tl_span {
    double a, b; /* seconds since the run's start */
    uint32_t row, depth;
};

struct qqb_tl_pt {
    double t, v;
    uint32_t row;
};

/* One key's intervals (states) or points (marks, counts, values). */
struct qqb_tl_key {
    struct qqb_tl_span *spans;
    size_t nspans, capspans;
    struct qqb_tl_pt *pts;
    size_t npts, cappts;
    double vmin, vmax; /* counts and values: range over the points shown */
    size_t hue;        /* its place in the colour cycle (the waiting keys have none) */
    int idle;          /* a waiting state */
};

struct qqb_timeline {
    struct qqb_trace tr;
    uint32_t *rows;       /* node index of each strip, top to bottom */
    uint32_t *row_thread; /* its thread, or QQB_TL_ALL_THREADS: the node's one strip */
    uint32_t nrows;
    size_t strips_left;    /* strips past QQB_TL_MAX_STRIPS, not drawn */
    struct qqb_tl_key *kp; /* nkeys + 1: the last is "other", the folded states */
    double *idle_sec;      /* per strip: seconds in waiting keys, in the window */
    double t0, t1, px;     /* the window in seconds; one picture column */
    double scale;          /* seconds to the axis unit */
    const char *unit;      /* "s", "ms" or QQB_TL_MICRO "s" */
    int any_marks, any_lines, any_idle;
    uint32_t folded, dropped; /* states folded into "other"; other keys not drawn */
};

/* What to read: FILE, the nodes and keys (NULL: all; the syntax of
 * qqb_trace_select_nodes and _keys), the waiting keys (NULL: guessed from
 * the names: sync, wait, barrier, idle), the window (HAS_FROM, HAS_TO 0:
 * the run's start, the last entry shown). */
struct qqb_timeline_opts {
    const char *file, *nodes, *keys, *idle;
    double from, to;
    int has_from, has_to;
};

/* Open the file and choose the strips, keys and window; then read each
 * strip's entries once, and fold the keys past QQB_TL_MAX_DRAWN with
 * something to draw (every waiting key and the heaviest others keep their
 * own; the other states are "other", the other marks, counts and values
 * are dropped). 0, or -1 with one line in ERR. Free TL either way. */
int qqb_timeline_read(struct qqb_timeline *tl, const struct qqb_timeline_opts *o, char *err,
                      size_t errsz);
void qqb_timeline_free(struct qqb_timeline *tl);

/* Strip R's name into BUF: "node N", or "node N t3" when the node has a
 * strip per thread. */
const char *qqb_timeline_strip_label(const struct qqb_timeline *tl, uint32_t r, char *buf,
                                     size_t len);

#endif /* QQB_TIMELINE_H */
