/* bigsim.h - BigSim's TRACEBIGSIM timing lines (the seed's interpolation-tool input). */
#ifndef QQB_BIGSIM_H
#define QQB_BIGSIM_H

#include <stddef.h>

#define QQB_BIGSIM_MAX_PARAMS 20

struct qqb_bigsim_rec {
    char event[128];
    double time; /* the bracketed region's duration, as written (seconds) */
    long seqno;  /* -1 if absent */
    int nparams; /* 0..20: p1..pN */
    double p[QQB_BIGSIM_MAX_PARAMS];
};

/*
 * One line: `TRACEBIGSIM: event:{ NAME } [seqno:{ N }] time:{ T }
 * [PAPI:{ counters }] params:{ P1 P2 ... }`, fields after the first in
 * any order, blanks allowed between a field's colon and its brace (BigSim
 * writes "seqno: { 3 }"). Returns 1 with *R filled, 0 for a line that is
 * not a record (its first word is not TRACEBIGSIM:), or -1 with ERR and the
 * 1-based *COL of the fault.
 */
int qqb_bigsim_parse_line(const char *line, struct qqb_bigsim_rec *r, int *col, char *err,
                          size_t errlen);

#endif /* QQB_BIGSIM_H */
