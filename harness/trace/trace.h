/* trace.h - a .qq file as one time line: node and key selections, ticks to seconds with the tick
 * offsets applied. */
#ifndef QQB_TRACE_H
#define QQB_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "qq_file.h"

/*
 * The run's time line is node 0's counter: node n's tick t is at
 * t - tick_offset[n] there (docs/FORMAT.md). Time 0 is the run's start,
 * the earliest base tick of any node on that line, whatever is selected,
 * so two views of one file share their time axis.
 */
struct qqb_trace {
    struct qq_file *f;
    const char *path;
    uint32_t nnodes, nkeys;
    unsigned char *node_on; /* nnodes flags: the node is selected */
    unsigned char *key_on;  /* nkeys flags: the key is selected */
    int64_t start;          /* the run's start on node 0's counter */
};

/* Open PATH with every node and key selected. Returns 0, or -1 with one
 * line in ERR (the reader's message: what is wrong and where). Close the
 * trace either way. The file is streamed (qq_file_open_stream): its
 * entries stay on disk, read with qqb_events_open, checked as they are
 * read, so memory does not grow with the file. */
int qqb_trace_open(struct qqb_trace *t, const char *path, char *err, size_t errsz);
void qqb_trace_close(struct qqb_trace *t);

/*
 * One node's entries, one at a time in recorded order, from a file opened
 * either way: the harness's one way to read entries, over the reader's
 * chunks (qq_file_chunks_open: 256 KiB at most in memory per open cursor;
 * several may be open on one file at once).
 *
 *     struct qqb_events it;
 *     const struct qq_event *e;
 *     qqb_events_open(f, node, &it);
 *     while ((e = qqb_events_next(&it)))
 *         ... *e ...
 *     if (qqb_events_close(&it) != 0)
 *         ... qq_file_errmsg(f) says what and where ...
 *
 * Each entry is checked before it is handed out (key in range, a state 0
 * or 1, a value finite: the messages of qq_file_open) and stays valid until
 * the next call. next returns NULL at the end and at the first error: a
 * damaged entry (QQ_ECORRUPT), a file that shrank after it was opened
 * (QQ_ETRUNCATED), a failed read (QQ_EIO), QQ_ENOMEM, or a node out of
 * range (QQ_EINVAL). open returns 0 or that error; close returns it (0 when
 * every entry was read, or the end not reached, without one). Close the
 * cursor either way.
 */
struct qqb_events {
    struct qq_chunks *c;
    const struct qq_event *e; /* the current chunk */
    size_t n, i;              /* its entries; the next one's place */
    int rc;                   /* 0, or the error met */
};
int qqb_events_open(const struct qq_file *f, uint32_t node, struct qqb_events *it);
/* The same over one thread's entries of NODE (qq_file_chunks_open_thread). */
int qqb_events_open_thread(const struct qq_file *f, uint32_t node, uint32_t thread,
                           struct qqb_events *it);
const struct qq_event *qqb_events_refill(struct qqb_events *it); /* next's slow path */
static inline const struct qq_event *qqb_events_next(struct qqb_events *it)
{
    return it->i < it->n ? &it->e[it->i++] : qqb_events_refill(it);
}
int qqb_events_close(struct qqb_events *it);

/* Select the nodes SPEC names: "0-3", "5", "0,2,6-7" (node numbers as in
 * the file, each in range, ranges low-high). Returns 0, or -1 with ERR. */
int qqb_trace_select_nodes(struct qqb_trace *t, const char *spec, char *err, size_t errsz);

/* Select the keys SPEC names, separated by commas ("Km,MessageBus::Sync"),
 * each by its exact name. Returns 0, or -1 with ERR naming the unknown key
 * and the file's keys. */
int qqb_trace_select_keys(struct qqb_trace *t, const char *spec, char *err, size_t errsz);

/* Node NODE's tick on the run's time line (node 0's counter). */
int64_t qqb_trace_tick(const struct qqb_trace *t, uint32_t node, uint64_t tick);

/* Seconds since the run's start of node NODE's tick TICK, offsets applied. */
double qqb_trace_sec(const struct qqb_trace *t, uint32_t node, uint64_t tick);

/* Seconds since node NODE's own base time (no offset): the file's view. */
double qqb_trace_node_sec(const struct qqb_trace *t, uint32_t node, uint64_t tick);

/* The bound on node NODE's offset error in seconds, or -1 when the file
 * has no measured offset for it. */
double qqb_trace_offset_error_sec(const struct qqb_trace *t, uint32_t node);

/* One line on how a node's ticks were read, from its calibration: the
 * path, why it was taken, and a warning when the ticks are not a time
 * ("rdtscp (CPUID offers RDTSCP; the TSC is invariant)"). */
void qqb_tick_path_text(const struct qq_calib *c, char *buf, size_t bufsz);

/* 0 when every node's ticks are a time; otherwise -1 with one line in ERR
 * naming PATH and the node whose counter CPUID does not call invariant:
 * such ticks are not judged (a TSC forced with QQ_TICKS on such a
 * processor). */
int qqb_ticks_judgeable(const struct qq_file *f, const char *path, char *err, size_t errsz);

/* "state", "mark", "count", "value". */
const char *qqb_trace_type_name(uint32_t type);

#endif /* QQB_TRACE_H */
