/* export.h - qqbench export: a .qq file's selected nodes and keys in another tool's format, one
 * exporter per format (export_chrome.c, export_csv.c) behind one table. */
#ifndef QQB_EXPORT_H
#define QQB_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "trace.h"

/* An exporter writes T's selected nodes and keys to FP. It returns 0; 1
 * when the reader met an error (a damaged entry, a file that shrank:
 * qq_file_errmsg says it); or -1 with ERR (out of memory, a name the
 * format cannot hold). A write that failed is left to ferror(FP). */
typedef int qqb_export_fn(const struct qqb_trace *t, FILE *fp, char *err, size_t errsz);

struct qqb_exporter {
    const char *name; /* --format's word */
    qqb_export_fn *write;
};

/* Every exporter, ended by { NULL, NULL }. */
extern const struct qqb_exporter qqb_exporters[];

qqb_export_fn qqb_export_chrome; /* Chrome trace-event JSON (Perfetto, chrome://tracing) */
qqb_export_fn qqb_export_csv;    /* node,key,type,info,tick,seconds,run_seconds,thread,tid */

struct qqb_export_opts {
    const char *file;   /* the .qq file */
    const char *format; /* an exporter's name */
    const char *out;    /* NULL or "-": standard output */
    const char *nodes;  /* NULL: all (qqb_trace_select_nodes) */
    const char *keys;   /* NULL: all (qqb_trace_select_keys) */
};

/*
 * Export O->file to O->out: a regular file, or a name not yet taken, is
 * written into a temporary beside it and renamed over it once the export
 * is complete (util/atomic.h), so a damaged entry met halfway, a full disk
 * or an interrupt leaves it as it was; a symbolic link is followed to its
 * file; a device or a FIFO (/dev/null, a pipe) is written in place.
 * Returns 0; -1 with ERR for bad input (a missing or damaged file, a node
 * or key it does not have, an output that cannot be opened, an exporter's
 * own failure); -2 with ERR when a write failed (a full device: the
 * export was not stored).
 */
int qqb_export(const struct qqb_export_opts *o, char *err, size_t errsz);

#endif /* QQB_EXPORT_H */
