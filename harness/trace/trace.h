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
 * trace either way. */
int qqb_trace_open(struct qqb_trace *t, const char *path, char *err, size_t errsz);
void qqb_trace_close(struct qqb_trace *t);

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
