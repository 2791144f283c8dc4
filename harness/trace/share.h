/* share.h - one node's states per picture column: how much of each column's time each state is
 * the innermost one on, and how many times states went on or off in it (qqbench view draws the
 * columns that hold many intervals as stacked shares, docs/REPORTS.md). */
#ifndef QQB_SHARE_H
#define QQB_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* No slot: a key whose time is not counted. */
#define QQB_SHARE_NONE UINT32_MAX

/* THREAD: every thread of the node. */
#define QQB_SHARE_ALL_THREADS UINT32_MAX

/*
 * Walk node NODE's entries once (or only its thread THREAD's, when it is
 * not QQB_SHARE_ALL_THREADS: a strip of qqbench view per thread). The window [T0, T1] (seconds
 * since the run's start) is cut into NCOLS equal columns. At every moment the time goes to the
 * innermost selected state on (the one that went on last and is still on: what the view draws on
 * top), counted in the slot SLOT_OF[key] (QQB_SHARE_NONE: not counted, though it still hides the
 * states under it); a state still on at the node's last entry runs to it,
 * as the view draws it. SEC (NCOLS x NSLOTS, row-major, zeroed here) gets
 * the seconds per column and slot, CHANGES (NCOLS, zeroed here) the
 * selected states' on and off entries per column. Returns 0; -1 out of
 * memory; -2 when the reader met an error (qq_file_errmsg says it).
 */
int qqb_share_node(const struct qqb_trace *t, uint32_t node, uint32_t thread, double t0, double t1,
                   size_t ncols, const uint32_t *slot_of, uint32_t nslots, double *sec,
                   uint32_t *changes);

#endif /* QQB_SHARE_H */
