/* export_chrome.c - qqbench export --format chrome: Chrome trace-event JSON (the "JSON Object
 * Format" of the Trace Event Format document), for Perfetto and chrome://tracing, streamed: one
 * small jansson object per event. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "export.h"

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

struct chrome {
    FILE *fp;
    size_t events;  /* trace events written (metadata included) */
    size_t skipped; /* values that JSON cannot hold (NaN, infinity) */
    int failed;     /* out of memory */
    int read_rc;    /* the reader's error, or 0 */
};

/* Write EV (taking the reference) as the next element of traceEvents. */
static void put(struct chrome *c, json_t *ev)
{
    if (!ev) {
        c->failed = 1;
        return;
    }
    if (c->events++)
        fputs(",\n", c->fp);
    if (json_dumpf(ev, c->fp, JSON_FLAGS) != 0)
        c->failed = 1;
    json_decref(ev);
}

/* Microseconds since the run's start, to the nanosecond. */
static json_t *ts_us(double sec)
{
    return json_real(round(sec * 1e9) / 1e3);
}

static void meta(struct chrome *c, const char *what, uint32_t pid, uint32_t tid, json_t *args)
{
    put(c, json_pack("{s:s, s:s, s:I, s:I, s:o}", "name", what, "ph", "M", "pid", (json_int_t)pid,
                     "tid", (json_int_t)tid, "args", args));
}

/* The lane (Chrome's tid) of state or mark key K recorded by thread TH of
 * node N: the thread's OS id when the file has it (format 1.1: a thread's
 * states nest on its own track, as Tracy and Perfetto show threads); for a
 * file without thread ids, K + 1 (one track per key). 0 holds the
 * counters' process. */
static json_int_t lane(const struct qqb_trace *t, uint32_t n, uint32_t th, uint32_t k)
{
    const struct qq_thread_info *ti = qq_file_thread(t->f, n, th);
    return ti && ti->tid ? (json_int_t)ti->tid : (json_int_t)k + 1;
}

/* Name the tracks: each thread with an OS id that recorded, or each
 * state and mark key shown (files without thread ids). */
static void name_tracks(const struct qqb_trace *t, struct chrome *c, uint32_t n, uint32_t pid)
{
    int by_thread = 0;
    for (uint32_t th = 0; th < qq_file_nthreads(t->f, n); th++) {
        const struct qq_thread_info *ti = qq_file_thread(t->f, n, th);
        if (!ti->tid)
            continue;
        by_thread = 1;
        if (!ti->events)
            continue;
        char name[300];
        if (ti->name[0])
            snprintf(name, sizeof name, "%s (thread %u)", ti->name, th);
        else
            snprintf(name, sizeof name, "thread %u", th);
        meta(c, "thread_name", pid, (uint32_t)ti->tid, json_pack("{s:s}", "name", name));
        meta(c, "thread_sort_index", pid, (uint32_t)ti->tid,
             json_pack("{s:I}", "sort_index", (json_int_t)th));
    }
    for (uint32_t k = 0; k < t->nkeys && !by_thread; k++) {
        const struct qq_key_info *ki = qq_file_key(t->f, k);
        if (!t->key_on[k] || (ki->type != QQ_TYPE_STATE && ki->type != QQ_TYPE_MARK))
            continue;
        meta(c, "thread_name", pid, k + 1, json_pack("{s:s}", "name", ki->name));
        meta(c, "thread_sort_index", pid, k + 1, json_pack("{s:I}", "sort_index", (json_int_t)k));
    }
}

/* States still on when thread TH's entries end: a slice each to its last
 * entry (LAST seconds), marked unbalanced; ON is reset for the next thread. */
static void close_states(const struct qqb_trace *t, struct chrome *c, uint32_t n, uint32_t th,
                         double *on, double last)
{
    uint32_t pid = qq_file_node(t->f, n)->node;
    for (uint32_t k = 0; k < t->nkeys && !c->failed; k++) {
        if (on[k] >= 0)
            put(c,
                json_pack("{s:s, s:s, s:s, s:o, s:o, s:I, s:I, s:{s:b}}", "name",
                          qq_file_key(t->f, k)->name, "cat", "state", "ph", "X", "ts", ts_us(on[k]),
                          "dur", json_real(round((last - on[k]) * 1e9) / 1e3), "pid",
                          (json_int_t)pid, "tid", lane(t, n, th, k), "args", "unbalanced", 1));
        on[k] = -1;
    }
}

/* One entry E (at SEC seconds) of thread TH. */
static void export_entry(const struct qqb_trace *t, struct chrome *c, uint32_t n, uint32_t th,
                         const struct qq_event *e, double sec, double *on)
{
    uint32_t k = e->key;
    json_int_t pid = (json_int_t)qq_file_node(t->f, n)->node;
    const struct qq_key_info *ki = qq_file_key(t->f, k);
    switch (ki->type) {
    case QQ_TYPE_STATE:
        if (e->info.i && on[k] < 0) {
            on[k] = sec;
        } else if (!e->info.i && on[k] >= 0) {
            put(c, json_pack("{s:s, s:s, s:s, s:o, s:o, s:I, s:I}", "name", ki->name, "cat",
                             "state", "ph", "X", "ts", ts_us(on[k]), "dur",
                             json_real(round((sec - on[k]) * 1e9) / 1e3), "pid", pid, "tid",
                             lane(t, n, th, k)));
            on[k] = -1;
        }
        break;
    case QQ_TYPE_MARK:
        put(c,
            json_pack("{s:s, s:s, s:s, s:s, s:o, s:I, s:I}", "name", ki->name, "cat", "mark", "ph",
                      "i", "s", "t", "ts", ts_us(sec), "pid", pid, "tid", lane(t, n, th, k)));
        break;
    case QQ_TYPE_COUNT:
        put(c,
            json_pack("{s:s, s:s, s:s, s:o, s:I, s:{s:I}}", "name", ki->name, "cat", "count", "ph",
                      "C", "ts", ts_us(sec), "pid", pid, "args", "value", (json_int_t)e->info.i));
        break;
    case QQ_TYPE_VALUE:
        if (!isfinite(e->info.d)) {
            c->skipped++;
            break;
        }
        put(c, json_pack("{s:s, s:s, s:s, s:o, s:I, s:{s:f}}", "name", ki->name, "cat", "value",
                         "ph", "C", "ts", ts_us(sec), "pid", pid, "args", "value", e->info.d));
        break;
    }
}

/* A node: a process (pid = the node), its tracks named, then its entries
 * thread by thread (each thread's entries are one block, in order). */
static void export_node(const struct qqb_trace *t, struct chrome *c, uint32_t n, double *on)
{
    const struct qq_node_info *ni = qq_file_node(t->f, n);
    uint32_t pid = ni->node;
    char label[160];

    snprintf(label, sizeof label, "node %u", ni->node);
    meta(c, "process_name", pid, 0, json_pack("{s:s}", "name", label));
    meta(c, "process_sort_index", pid, 0, json_pack("{s:I}", "sort_index", (json_int_t)pid));
    double err = qqb_trace_offset_error_sec(t, n);
    int len = snprintf(label, sizeof label, "%.3f MHz", ni->mhz);
    if (err >= 0)
        len +=
            snprintf(label + len, sizeof label - (size_t)len, ", clock offset %+.3f us +/- %.3f us",
                     (double)ni->tick_offset / (ni->mhz > 0 ? ni->mhz : 1), err * 1e6);
    if (ni->dropped)
        snprintf(label + len, sizeof label - (size_t)len, ", %" PRIu64 " events dropped",
                 ni->dropped);
    meta(c, "process_labels", pid, 0, json_pack("{s:s}", "labels", label));
    name_tracks(t, c, n, pid);
    for (uint32_t k = 0; k < t->nkeys; k++)
        on[k] = -1;

    double last = 0;
    struct qqb_events it;
    const struct qq_event *e;
    /* A node's entries are its threads' blocks in turn, each entry's
     * thread in its reserved field (checked by the reader against the
     * thread table; a 1.0 file's is one thread): a block's end closes its
     * states. */
    uint32_t th = 0, nt = qq_file_nthreads(t->f, n);
    qqb_events_open(t->f, n, &it);
    while (!c->failed && (e = qqb_events_next(&it))) {
        uint32_t eth = nt > 1 ? e->reserved : 0;
        if (eth != th) {
            close_states(t, c, n, th, on, last);
            th = eth;
        }
        double sec = qqb_trace_sec(t, n, e->tick);
        last = sec;
        if (t->key_on[e->key])
            export_entry(t, c, n, th, e, sec, on);
    }
    if ((c->read_rc = qqb_events_close(&it)) != 0)
        return;
    close_states(t, c, n, th, on, last);
}

/* Returns 0; 1 when the reader met an error (qq_file_errmsg says it); or
 * -1 with ERR. */
int qqb_export_chrome(const struct qqb_trace *t, FILE *fp, char *err, size_t errsz)
{
    struct chrome c = {fp, 0, 0, 0, 0};
    double *on = malloc((t->nkeys + 1u) * sizeof *on);
    json_t *nodes = json_array();
    if (!on || !nodes) {
        free(on);
        json_decref(nodes);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    fputs("{\"traceEvents\":[\n", fp);
    for (uint32_t n = 0; n < t->nnodes && !c.failed; n++) {
        if (!t->node_on[n])
            continue;
        export_node(t, &c, n, on);
        if (c.read_rc) {
            free(on);
            json_decref(nodes);
            return 1;
        }
        const struct qq_node_info *ni = qq_file_node(t->f, n);
        if (json_array_append_new(
                nodes,
                json_pack("{s:I, s:f, s:I, s:I, s:f, s:b, s:I}", "node", (json_int_t)ni->node,
                          "mhz", ni->mhz, "base_tick", (json_int_t)ni->base_tick, "tick_offset",
                          (json_int_t)ni->tick_offset, "offset_error_ticks", ni->offset_error,
                          "offset_measured", (ni->flags & QQ_NODE_OFFSET_VALID) != 0, "dropped",
                          (json_int_t)ni->dropped)) != 0)
            c.failed = 1;
    }
    free(on);
    json_t *other = json_pack("{s:s, s:s, s:o, s:I, s:I}", "producer", "qqbench " QQB_VERSION,
                              "file", t->path, "nodes", nodes, "trace_events", (json_int_t)c.events,
                              "values_skipped", (json_int_t)c.skipped);
    for (size_t i = 0; other; i++) {
        const char *name, *value;
        if (qq_file_meta_at(t->f, i, &name, &value) != 0)
            break;
        json_object_set_new(other, name, json_string(value));
    }
    fputs("\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":", fp);
    if (!other || json_dumpf(other, fp, JSON_FLAGS | JSON_SORT_KEYS) != 0)
        c.failed = 1;
    json_decref(other);
    fputs("}\n", fp);
    if (c.failed) {
        snprintf(err, errsz, "out of memory (or a name that is not UTF-8)");
        return -1;
    }
    return 0;
}
