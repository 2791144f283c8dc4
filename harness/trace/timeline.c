/* timeline.c - qqbench view's strips: which strips and keys, the window, one pass over each
 * strip's entries, the keys past QQB_TL_MAX_DRAWN folded (report/view.c draws them). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

static int push_span(struct qqb_tl_key *k, struct qqb_tl_span s)
{
    if (k->nspans == k->capspans) {
        size_t cap = k->capspans ? 2 * k->capspans : 64;
        struct qqb_tl_span *p = realloc(k->spans, cap * sizeof *p);
        if (!p)
            return -1;
        k->spans = p, k->capspans = cap;
    }
    k->spans[k->nspans++] = s;
    return 0;
}

static int push_pt(struct qqb_tl_key *k, struct qqb_tl_pt p)
{
    if (k->npts == k->cappts) {
        size_t cap = k->cappts ? 2 * k->cappts : 64;
        struct qqb_tl_pt *q = realloc(k->pts, cap * sizeof *q);
        if (!q)
            return -1;
        k->pts = q, k->cappts = cap;
    }
    k->pts[k->npts++] = p;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Collect: one pass over each shown node's entries.                      */

/* Per key while walking one node. */
struct walk {
    int open;       /* the state is on */
    double on;      /* since */
    uint32_t depth; /* selected states open when it went on */
    int pending;    /* an interval waiting to be merged with the next */
    struct qqb_tl_span p;
    long last_col; /* marks, lines: picture column of the last point */
    int have_lo;   /* lines: the column's lowest and highest points */
    struct qqb_tl_pt lo, hi;
};

/* An interval of key K: clipped to the window; one that starts within a
 * picture column of the previous one's end (same depth) extends it, so
 * the data stays proportional to the picture, not to the run. */
static int emit_span(struct qqb_timeline *v, struct walk *w, struct qqb_tl_key *k, uint32_t row,
                     double a, double b, uint32_t depth)
{
    if (b < v->t0 || a > v->t1)
        return 0;
    if (a < v->t0)
        a = v->t0;
    if (b > v->t1)
        b = v->t1;
    if (k->idle)
        v->idle_sec[row] += b - a;
    if (w->pending && w->p.depth == depth && a - w->p.b <= v->px) {
        if (b > w->p.b)
            w->p.b = b;
        return 0;
    }
    if (w->pending && push_span(k, w->p) != 0)
        return -1;
    w->pending = 1;
    w->p = (struct qqb_tl_span){a, b, row, depth};
    return 0;
}

/* A count or value: per picture column its lowest and highest points, in
 * time order, keep the line's envelope. */
static int flush_line(struct qqb_tl_key *k, struct walk *w)
{
    if (!w->have_lo)
        return 0;
    w->have_lo = 0;
    const struct qqb_tl_pt *first = w->lo.t <= w->hi.t ? &w->lo : &w->hi;
    const struct qqb_tl_pt *second = first == &w->lo ? &w->hi : &w->lo;
    if (push_pt(k, *first) != 0)
        return -1;
    if (second->t != first->t || second->v != first->v)
        return push_pt(k, *second);
    return 0;
}

/* Returns 0; -1 out of memory; -2 when the reader met an error (a damaged
 * entry, a file that shrank: qq_file_errmsg says it). */
static int collect_node(struct qqb_timeline *v, uint32_t row, struct walk *w)
{
    uint32_t n = v->rows[row];
    uint32_t nk = v->tr.nkeys, open = 0;
    double last = 0;
    memset(w, 0, nk * sizeof *w);
    for (uint32_t k = 0; k < nk; k++)
        w[k].last_col = -1;
    struct qqb_events it;
    const struct qq_event *e;
    if (v->row_thread[row] == QQB_TL_ALL_THREADS)
        qqb_events_open(v->tr.f, n, &it);
    else
        qqb_events_open_thread(v->tr.f, n, v->row_thread[row], &it);
    while ((e = qqb_events_next(&it))) {
        uint32_t key = e->key;
        double t = qqb_trace_sec(&v->tr, n, e->tick);
        last = t;
        if (!v->tr.key_on[key])
            continue;
        struct walk *kw = &w[key];
        struct qqb_tl_key *kp = &v->kp[key];
        uint32_t type = qq_file_key(v->tr.f, key)->type;
        if (type == QQ_TYPE_STATE) {
            if (e->info.i && !kw->open) {
                kw->open = 1, kw->on = t, kw->depth = open++;
            } else if (!e->info.i && kw->open) {
                kw->open = 0, open--;
                if (emit_span(v, kw, kp, row, kw->on, t, kw->depth) != 0)
                    goto oom;
            }
            continue;
        }
        if (t < v->t0 || t > v->t1)
            continue;
        long col = (long)((t - v->t0) / v->px);
        if (type == QQ_TYPE_MARK) {
            if (col != kw->last_col && push_pt(kp, (struct qqb_tl_pt){t, 0, row}) != 0)
                goto oom;
            kw->last_col = col;
            continue;
        }
        struct qqb_tl_pt p = {t, type == QQ_TYPE_COUNT ? (double)e->info.i : e->info.d, row};
        if (!isfinite(p.v))
            continue;
        if (col != kw->last_col && flush_line(kp, kw) != 0)
            goto oom;
        kw->last_col = col;
        if (!kw->have_lo) {
            kw->have_lo = 1, kw->lo = kw->hi = p;
        } else if (p.v < kw->lo.v) {
            kw->lo = p;
        } else if (p.v > kw->hi.v) {
            kw->hi = p;
        }
    }
    if (qqb_events_close(&it) != 0)
        return -2;
    for (uint32_t k = 0; k < nk; k++) {
        /* A state still on at the end runs to the strip's last entry. */
        if (w[k].open && emit_span(v, &w[k], &v->kp[k], row, w[k].on, last, w[k].depth) != 0)
            return -1;
        if (w[k].pending && push_span(&v->kp[k], w[k].p) != 0)
            return -1;
        if (flush_line(&v->kp[k], &w[k]) != 0)
            return -1;
    }
    return 0;
oom:
    qqb_events_close(&it);
    return -1;
}

/* ---------------------------------------------------------------------- */

/* Is NAME a waiting key? --idle's list, or a guess from the name. */
static int is_idle(const char *name, const char *spec)
{
    if (spec) {
        size_t len = strlen(name);
        for (const char *p = spec;;) {
            const char *c = strchr(p, ',');
            size_t l = c ? (size_t)(c - p) : strlen(p);
            if (l == len && !memcmp(p, name, l))
                return 1;
            if (!c)
                return 0;
            p = c + 1;
        }
    }
    static const char *const words[] = {"sync", "wait", "barrier", "idle"};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        for (const char *p = name; *p; p++) {
            size_t i = 0;
            while (words[w][i] && tolower((unsigned char)p[i]) == words[w][i])
                i++;
            if (!words[w][i])
                return 1;
        }
    return 0;
}

/* The strips: one per shown node, or one per thread that recorded when a
 * node has several (threads' entries are separate blocks of the node's:
 * each strip is read on its own). Past QQB_TL_MAX_STRIPS strips, a picture of
 * them helps nobody (150,000 threads' strips kept view busy past 300 s):
 * the QQB_TL_MAX_STRIPS with the most entries are drawn, in node and thread
 * order, and the others are counted in v->strips_left (said on stdout).
 * One pass over the thread tables. 0, or -1 out of memory. */
struct strip {
    uint32_t node, thread;
    uint64_t events;
    size_t at; /* its place in node and thread order */
};

static int cmp_busiest(const void *a, const void *b)
{
    const struct strip *x = a, *y = b;
    if (x->events != y->events)
        return x->events > y->events ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

static int cmp_place(const void *a, const void *b)
{
    const struct strip *x = a, *y = b;
    return (x->at > y->at) - (x->at < y->at);
}

static int push_strip(struct strip **s, size_t *n, size_t *cap, struct strip x)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        struct strip *p = realloc(*s, c * sizeof *p);
        if (!p)
            return -1;
        *s = p, *cap = c;
    }
    x.at = *n;
    (*s)[(*n)++] = x;
    return 0;
}

static int make_rows(struct qqb_timeline *v)
{
    const struct qqb_trace *tr = &v->tr;
    size_t n = 0, cap = 0;
    struct strip *s = NULL;
    int rc = 0;
    for (uint32_t node = 0; node < tr->nnodes && rc == 0; node++) {
        if (!tr->node_on[node])
            continue;
        uint32_t busy = 0, nt = qq_file_nthreads(tr->f, node);
        uint64_t all = 0;
        for (uint32_t t = 0; t < nt; t++) {
            busy += qq_file_thread(tr->f, node, t)->events > 0;
            all += qq_file_thread(tr->f, node, t)->events;
        }
        if (busy <= 1) {
            rc = push_strip(&s, &n, &cap, (struct strip){node, QQB_TL_ALL_THREADS, all, 0});
            continue;
        }
        for (uint32_t t = 0; t < nt && rc == 0; t++) {
            uint64_t ev = qq_file_thread(tr->f, node, t)->events;
            if (ev)
                rc = push_strip(&s, &n, &cap, (struct strip){node, t, ev, 0});
        }
    }
    if (rc == 0 && n > QQB_TL_MAX_STRIPS) {
        qsort(s, n, sizeof *s, cmp_busiest);
        v->strips_left = n - QQB_TL_MAX_STRIPS;
        n = QQB_TL_MAX_STRIPS;
        qsort(s, n, sizeof *s, cmp_place);
    }
    v->rows = calloc(n ? n : 1, sizeof *v->rows);
    v->row_thread = calloc(n ? n : 1, sizeof *v->row_thread);
    v->idle_sec = calloc(n ? n : 1, sizeof *v->idle_sec);
    if (rc != 0 || !v->rows || !v->row_thread || !v->idle_sec) {
        free(s);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        v->rows[i] = s[i].node, v->row_thread[i] = s[i].thread;
    v->nrows = (uint32_t)n;
    free(s);
    return 0;
}

/* The latest entry of the shown strips, in seconds since the run's start
 * (each thread's last entry: ticks rise within a thread's block): a
 * thread's strip reads its own, a node's strip its threads'. 0, or -1
 * when the reader met an error (qq_file_errmsg says it). */
static int last_event_sec(const struct qqb_timeline *v, double *last)
{
    const struct qqb_trace *tr = &v->tr;
    for (uint32_t r = 0; r < v->nrows; r++) {
        uint32_t node = v->rows[r], nt = qq_file_nthreads(tr->f, node);
        uint32_t t = v->row_thread[r] == QQB_TL_ALL_THREADS ? 0 : v->row_thread[r];
        uint32_t end = v->row_thread[r] == QQB_TL_ALL_THREADS ? nt : t + 1;
        for (; t < end; t++) {
            const struct qq_thread_info *ti = qq_file_thread(tr->f, node, t);
            struct qq_event e;
            if (!ti->events)
                continue;
            if (qq_file_entry_at(tr->f, node, ti->first + ti->events - 1, &e) != 0)
                return -1;
            double s = qqb_trace_sec(tr, node, e.tick);
            if (s > *last)
                *last = s;
        }
    }
    return 0;
}

static int setup(struct qqb_timeline *v, const struct qqb_timeline_opts *o, char *err, size_t errsz)
{
    struct qqb_trace *tr = &v->tr;
    if (qqb_trace_open(tr, o->file, err, errsz) != 0)
        return -1;
    if (tr->nnodes == 0) {
        snprintf(err, errsz, "%s has no nodes", o->file);
        return -1;
    }
    if (o->nodes && qqb_trace_select_nodes(tr, o->nodes, err, errsz) != 0)
        return -1;
    if (o->keys && qqb_trace_select_keys(tr, o->keys, err, errsz) != 0)
        return -1;
    if (o->idle) {
        /* Every --idle name must be a key of the file. */
        struct qqb_trace probe = *tr;
        unsigned char *saved = malloc(tr->nkeys + 1u);
        if (!saved) {
            snprintf(err, errsz, "out of memory");
            return -1;
        }
        memcpy(saved, tr->key_on, tr->nkeys + 1u);
        int rc = qqb_trace_select_keys(&probe, o->idle, err, errsz);
        memcpy(tr->key_on, saved, tr->nkeys + 1u);
        free(saved);
        if (rc != 0) {
            memcpy(err, "--idle", 6); /* the message starts "--keys:" */
            return -1;
        }
    }
    v->kp = calloc(tr->nkeys + 1u, sizeof *v->kp);
    if (!v->kp || make_rows(v) != 0) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    size_t c = 0;
    for (uint32_t k = 0; k < tr->nkeys; k++) {
        const struct qq_key_info *ki = qq_file_key(tr->f, k);
        struct qqb_tl_key *kp = &v->kp[k];
        kp->idle = ki->type == QQ_TYPE_STATE && is_idle(ki->name, o->idle);
        kp->hue = kp->idle ? 0 : c++;
        kp->vmin = INFINITY, kp->vmax = -INFINITY;
    }

    /* The window: --from/--to, else the run's start to the last event. */
    double last = 0;
    if (last_event_sec(v, &last) != 0) {
        snprintf(err, errsz, "%s", qq_file_errmsg(tr->f));
        return -1;
    }
    v->t0 = o->has_from ? o->from : 0;
    v->t1 = o->has_to ? o->to : last;
    if (v->t1 <= v->t0) {
        if (o->has_to) {
            snprintf(err, errsz, "--to %g must be after --from %g", v->t1, v->t0);
            return -1;
        }
        v->t1 = v->t0 + 1e-6;
    }
    double span = v->t1 - v->t0;
    v->px = span / QQB_TL_PIXELS;
    if (span >= 2)
        v->scale = 1, v->unit = "s";
    else if (span >= 2e-3)
        v->scale = 1e3, v->unit = "ms";
    else
        v->scale = 1e6, v->unit = QQB_TL_MICRO "s";
    return 0;
}

static int collect(struct qqb_timeline *v, char *err, size_t errsz)
{
    uint32_t nk = v->tr.nkeys;
    struct walk *w = calloc(nk + 1u, sizeof *w);
    if (!w) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    for (uint32_t r = 0; r < v->nrows; r++) {
        int rc = collect_node(v, r, w);
        if (rc != 0) {
            free(w);
            snprintf(err, errsz, "%s", rc == -2 ? qq_file_errmsg(v->tr.f) : "out of memory");
            return -1;
        }
    }
    free(w);
    for (uint32_t k = 0; k < nk; k++) {
        struct qqb_tl_key *kp = &v->kp[k];
        uint32_t type = qq_file_key(v->tr.f, k)->type;
        for (size_t i = 0; i < kp->npts; i++) {
            if (kp->pts[i].v < kp->vmin)
                kp->vmin = kp->pts[i].v;
            if (kp->pts[i].v > kp->vmax)
                kp->vmax = kp->pts[i].v;
        }
        v->any_marks |= type == QQ_TYPE_MARK && kp->npts;
        v->any_lines |= (type == QQ_TYPE_COUNT || type == QQ_TYPE_VALUE) && kp->npts;
        v->any_idle |= kp->idle && v->tr.key_on[k];
    }
    return 0;
}

/* Past QQB_TL_MAX_DRAWN keys with something to draw, a legend and a plot clause
 * per key help nobody (100,000 keys kept gnuplot busy past 300 s): every
 * waiting key and the QQB_TL_MAX_DRAWN - 1 others first by the states' time, then
 * the others' points, keep their own colour, the other states are drawn as
 * one grey key "other", and the other marks, counts and values are not
 * drawn (--keys picks any). Said on stdout. */
struct rank {
    int tier; /* 2 waiting, 1 a state, 0 a mark, count or value */
    double w; /* a state's time, or points */
    uint32_t k;
};

static int cmp_rank(const void *a, const void *b)
{
    const struct rank *x = a, *y = b;
    if (x->tier != y->tier)
        return x->tier > y->tier ? -1 : 1;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

static int fold_keys(struct qqb_timeline *v)
{
    uint32_t nk = v->tr.nkeys, n = 0;
    for (uint32_t k = 0; k < nk; k++)
        n += v->kp[k].nspans || v->kp[k].npts;
    if (n <= QQB_TL_MAX_DRAWN)
        return 0;
    struct rank *rk = malloc(n * sizeof *rk);
    if (!rk)
        return -1;
    n = 0;
    for (uint32_t k = 0; k < nk; k++) {
        const struct qqb_tl_key *kp = &v->kp[k];
        if (!kp->nspans && !kp->npts)
            continue;
        /* Waiting keys first, then states by their time, then marks,
         * counts and values by their points: a view is of states. */
        double w = (double)kp->npts;
        if (kp->nspans) {
            w = 0;
            for (size_t i = 0; i < kp->nspans; i++)
                w += kp->spans[i].b - kp->spans[i].a;
        }
        rk[n++] = (struct rank){kp->idle ? 2 : kp->nspans ? 1 : 0, w, k};
    }
    /* Heaviest first, then in key order: the same keys every time. */
    qsort(rk, n, sizeof *rk, cmp_rank);
    struct qqb_tl_key *other = &v->kp[nk];
    int rc = 0;
    for (uint32_t i = QQB_TL_MAX_DRAWN - 1; i < n && rc == 0; i++) {
        struct qqb_tl_key *kp = &v->kp[rk[i].k];
        if (qq_file_key(v->tr.f, rk[i].k)->type == QQ_TYPE_STATE) {
            for (size_t j = 0; j < kp->nspans && rc == 0; j++) {
                if (other->nspans == other->capspans) {
                    size_t cap = other->capspans ? 2 * other->capspans : 64;
                    struct qqb_tl_span *sp = realloc(other->spans, cap * sizeof *sp);
                    if (!sp) {
                        rc = -1;
                        break;
                    }
                    other->spans = sp;
                    other->capspans = cap;
                }
                other->spans[other->nspans++] = kp->spans[j];
            }
            v->folded++;
        } else {
            v->dropped++;
        }
        kp->nspans = 0;
        kp->npts = 0;
    }
    free(rk);
    return rc;
}

int qqb_timeline_read(struct qqb_timeline *tl, const struct qqb_timeline_opts *o, char *err,
                      size_t errsz)
{
    memset(tl, 0, sizeof *tl);
    if (setup(tl, o, err, errsz) != 0 || collect(tl, err, errsz) != 0)
        return -1;
    if (fold_keys(tl) != 0) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    return 0;
}

void qqb_timeline_free(struct qqb_timeline *tl)
{
    for (uint32_t k = 0; tl->kp && k <= tl->tr.nkeys; k++) {
        free(tl->kp[k].spans);
        free(tl->kp[k].pts);
    }
    free(tl->kp);
    free(tl->rows);
    free(tl->row_thread);
    free(tl->idle_sec);
    qqb_trace_close(&tl->tr);
    memset(tl, 0, sizeof *tl);
}

/* Strip R's name: "node N", or "node N t3" when the node has a strip per
 * thread (the thread's name, when it has one, is in the legend of
 * qqbench view's report). */
const char *qqb_timeline_strip_label(const struct qqb_timeline *tl, uint32_t r, char *buf,
                                     size_t len)
{
    uint32_t node = qq_file_node(tl->tr.f, tl->rows[r])->node;
    if (tl->row_thread[r] == QQB_TL_ALL_THREADS)
        snprintf(buf, len, "node %u", node);
    else
        snprintf(buf, len, "node %u t%u", node, tl->row_thread[r]);
    return buf;
}
