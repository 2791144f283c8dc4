/* trace.c - a .qq file as one time line: node and key selections, ticks to seconds with the tick
 * offsets applied. */
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int qqb_trace_open(struct qqb_trace *t, const char *path, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    if (qq_file_open_stream(path, &t->f) != 0) {
        snprintf(err, errsz, "%s", t->f ? qq_file_errmsg(t->f) : "out of memory");
        return -1;
    }
    t->nnodes = qq_file_nnodes(t->f);
    t->nkeys = qq_file_nkeys(t->f);
    t->node_on = malloc(t->nnodes + 1u);
    t->key_on = malloc(t->nkeys + 1u);
    if (!t->node_on || !t->key_on) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    memset(t->node_on, 1, t->nnodes + 1u);
    memset(t->key_on, 1, t->nkeys + 1u);
    for (uint32_t n = 0; n < t->nnodes; n++) {
        const struct qq_node_info *ni = qq_file_node(t->f, n);
        int64_t b = qqb_trace_tick(t, n, ni->base_tick);
        if (n == 0 || b < t->start)
            t->start = b;
    }
    return 0;
}

void qqb_trace_close(struct qqb_trace *t)
{
    qq_file_close(t->f);
    free(t->node_on);
    free(t->key_on);
    memset(t, 0, sizeof *t);
}

int qqb_events_open(const struct qq_file *f, uint32_t node, struct qqb_events *it)
{
    memset(it, 0, sizeof *it);
    it->rc = qq_file_chunks_open(f, node, &it->c);
    return it->rc;
}

int qqb_events_open_thread(const struct qq_file *f, uint32_t node, uint32_t thread,
                           struct qqb_events *it)
{
    memset(it, 0, sizeof *it);
    it->rc = qq_file_chunks_open_thread(f, node, thread, &it->c);
    return it->rc;
}

const struct qq_event *qqb_events_refill(struct qqb_events *it)
{
    if (it->rc != 0 || !it->c)
        return NULL;
    int r = qq_chunks_next(it->c, &it->e, &it->n);
    if (r <= 0) {
        it->rc = r;
        it->n = it->i = 0;
        return NULL;
    }
    it->i = 1;
    return &it->e[0];
}

int qqb_events_close(struct qqb_events *it)
{
    qq_chunks_close(it->c);
    it->c = NULL;
    it->n = it->i = 0;
    return it->rc;
}

/* A node number at *P (decimal digits only); advances *P. */
static int node_number(const char **p, unsigned long *out)
{
    if (**p < '0' || **p > '9')
        return -1;
    char *end;
    errno = 0;
    *out = strtoul(*p, &end, 10);
    if (errno)
        return -1;
    *p = end;
    return 0;
}

int qqb_trace_select_nodes(struct qqb_trace *t, const char *spec, char *err, size_t errsz)
{
    memset(t->node_on, 0, t->nnodes + 1u);
    const char *p = spec;
    for (;;) {
        unsigned long lo, hi;
        if (node_number(&p, &lo) != 0)
            goto bad;
        hi = lo;
        if (*p == '-') {
            p++;
            if (node_number(&p, &hi) != 0)
                goto bad;
        }
        if (*p != ',' && *p != '\0')
            goto bad;
        if (hi < lo) {
            snprintf(err, errsz, "--nodes '%s': the range %lu-%lu runs backwards", spec, lo, hi);
            return -1;
        }
        if (hi >= t->nnodes) {
            snprintf(err, errsz, "--nodes '%s': %s has %u node%s (0-%u), no node %lu", spec,
                     t->path, t->nnodes, t->nnodes == 1 ? "" : "s", t->nnodes ? t->nnodes - 1 : 0,
                     hi);
            return -1;
        }
        for (unsigned long n = lo; n <= hi; n++)
            t->node_on[n] = 1;
        if (*p == '\0')
            return 0;
        p++;
    }
bad:
    snprintf(err, errsz, "--nodes '%s': expected node numbers and ranges such as 0-3 or 0,2,5-7",
             spec);
    return -1;
}

int qqb_trace_select_keys(struct qqb_trace *t, const char *spec, char *err, size_t errsz)
{
    memset(t->key_on, 0, t->nkeys + 1u);
    const char *p = spec;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        uint32_t k;
        for (k = 0; k < t->nkeys; k++) {
            const char *name = qq_file_key(t->f, k)->name;
            if (strlen(name) == len && !memcmp(name, p, len))
                break;
        }
        if (k == t->nkeys) {
            /* Name the file's keys so the user can correct the spelling. */
            int w =
                snprintf(err, errsz, "--keys: %s has no key '%.*s' (keys:", t->path, (int)len, p);
            for (uint32_t j = 0; j < t->nkeys && w >= 0 && (size_t)w < errsz; j++)
                w += snprintf(err + w, errsz - (size_t)w, "%s %s", j ? "," : "",
                              qq_file_key(t->f, j)->name);
            if (w >= 0 && (size_t)w < errsz)
                snprintf(err + w, errsz - (size_t)w, ")");
            return -1;
        }
        t->key_on[k] = 1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int64_t qqb_trace_tick(const struct qqb_trace *t, uint32_t node, uint64_t tick)
{
    /* In unsigned arithmetic: the reader holds offsets to 2^62, but a
     * tick is any 64 bits of the file (wraps, never overflows). */
    return (int64_t)(tick - (uint64_t)qq_file_node(t->f, node)->tick_offset);
}

static double mhz(const struct qqb_trace *t, uint32_t node)
{
    double m = qq_file_node(t->f, node)->mhz;
    return m > 0 ? m : 1.0;
}

double qqb_trace_sec(const struct qqb_trace *t, uint32_t node, uint64_t tick)
{
    return (double)(int64_t)((uint64_t)qqb_trace_tick(t, node, tick) - (uint64_t)t->start) /
           (mhz(t, node) * 1e6);
}

double qqb_trace_node_sec(const struct qqb_trace *t, uint32_t node, uint64_t tick)
{
    const struct qq_node_info *ni = qq_file_node(t->f, node);
    return (double)(int64_t)(tick - ni->base_tick) / (mhz(t, node) * 1e6);
}

double qqb_trace_offset_error_sec(const struct qqb_trace *t, uint32_t node)
{
    const struct qq_node_info *ni = qq_file_node(t->f, node);
    if (!(ni->flags & QQ_NODE_OFFSET_VALID))
        return -1;
    return ni->offset_error / (mhz(t, node) * 1e6);
}

const char *qqb_trace_type_name(uint32_t type)
{
    switch (type) {
    case QQ_TYPE_STATE:
        return "state";
    case QQ_TYPE_MARK:
        return "mark";
    case QQ_TYPE_COUNT:
        return "count";
    case QQ_TYPE_VALUE:
        return "value";
    }
    return "unknown";
}

void qqb_tick_path_text(const struct qq_calib *c, char *buf, size_t bufsz)
{
    uint32_t fl = c->path_flags;
    int tsc = c->path == QQ_TICKS_LFENCE || c->path == QQ_TICKS_RDTSCP;
    const char *why = "";
    if (c->path == QQ_TICKS_UNSET) {
        snprintf(buf, bufsz, "not recorded (written before QQ recorded it)");
        return;
    }
    if (fl & QQ_CALIB_REFUSED)
        why = "QQ_TICKS was not honoured: no such path, or one this processor does not offer; ";
    else if (fl & QQ_CALIB_FORCED)
        why = "forced by QQ_TICKS; ";
    if (c->path == QQ_TICKS_CNTVCT) {
        snprintf(buf, bufsz, "%s (%sthe generic timer)", qq_tick_path_name((int)c->path), why);
        return;
    }
    if (!(fl & QQ_CALIB_TSC)) {
        snprintf(buf, bufsz, "%s (%sno usable time-stamp counter)", qq_tick_path_name((int)c->path),
                 why);
        return;
    }
    snprintf(buf, bufsz, "%s (%sCPUID %s RDTSCP; the TSC is %s%s)", qq_tick_path_name((int)c->path),
             why, fl & QQ_CALIB_RDTSCP ? "offers" : "does not offer",
             fl & QQ_CALIB_INVARIANT ? "invariant" : "NOT invariant (0x80000007 EDX bit 8 is 0)",
             !tsc || (fl & QQ_CALIB_INVARIANT)
                 ? ""
                 : ": these ticks are not a time, and are not judged");
}

int qqb_ticks_judgeable(const struct qq_file *f, const char *path, char *err, size_t errsz)
{
    for (uint32_t n = 0; n < qq_file_nnodes(f); n++) {
        if (!qq_file_ticks_variant(f, n))
            continue;
        struct qq_calib c;
        qq_file_calib(f, n, &c);
        snprintf(err, errsz,
                 "%s: node %u read the time-stamp counter (%s), which CPUID does not call "
                 "invariant: its ticks are not a time, so they are not judged (record with "
                 "QQ_TICKS=clock, or leave QQ_TICKS unset)",
                 path, n, qq_tick_path_name((int)c.path));
        return -1;
    }
    return 0;
}
