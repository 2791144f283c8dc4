/* whatif.c - a recorded run re-laid with one state key's intervals changed (whatif.h): each node
 * read forward once, its events shifted as the key's intervals grow or shrink, waits absorbing or
 * growing. */
#include "whatif.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* What re-laying a node keeps as it walks the node's events. */
struct relay {
    double shift;              /* predicted - measured tick of the current event */
    double last_new, last_old; /* the last event re-laid: predicted, measured */
    int key_on;                /* the scaled key is on, since on_tick */
    double on_tick;
};

struct node_plan {
    struct qqb_events it; /* the node's events, read forward once */
    double delta;         /* short key: ticks added to each interval */
    double factor;        /* long key: its net part is multiplied by this */
    double empty;         /* the calibrated empty interval (raw - net) */
    int proportional;     /* 1: the key's intervals are long (p10/median rule) */
    double net;           /* measured net per hit of the key on this node */
    double offset;        /* tick_offset: global = tick - offset */
    uint64_t n;           /* events */
    double first;         /* the first event's tick */
    uint64_t nwait;       /* waiting intervals */
    struct relay r;       /* the node re-laid so far */
    /* The wait being read: its key, its on's and off's measured ticks, and
     * the node re-laid past its on as if it never closed (relay_wait). */
    uint32_t wait_key;
    double t_on, t_off;
    struct relay alt;
    int found_on;         /* the lockstep's round found an on on this node */
    struct qq_event held; /* read but not yet re-laid: the off that closed a wait */
    int has_held;
};

static int key_index(const struct qq_file *f, const char *name, uint32_t *k)
{
    for (uint32_t i = 0; i < qq_file_nkeys(f); i++)
        if (!strcmp(qq_file_key(f, i)->name, name)) {
            if (qq_file_key(f, i)->type != QQ_TYPE_STATE)
                return -2;
            *k = i;
            return 0;
        }
    return -1;
}

static int is_wait_on(const struct qq_event *e, const uint32_t *wait, int nwait)
{
    if (e->info.i != 1)
        return 0;
    for (int w = 0; w < nwait; w++)
        if (e->key == wait[w])
            return 1;
    return 0;
}

/* The waiting intervals of NODE (the "on"s of the waiting keys): 0, or the
 * reader's error. */
static int count_waits(const struct qq_file *f, uint32_t node, const uint32_t *wait, int nwait,
                       uint64_t *count)
{
    struct qqb_events it;
    const struct qq_event *e;
    *count = 0;
    qqb_events_open(f, node, &it);
    while ((e = qqb_events_next(&it)))
        *count += (uint64_t)is_wait_on(e, wait, nwait);
    return qqb_events_close(&it);
}

/* Re-lay event E of node P into R: an interval of the scaled key that ends
 * here grows or shrinks, and moves every event after it. */
static void relay_event(const struct node_plan *p, struct relay *r, const struct qq_event *e,
                        uint32_t key)
{
    if (e->key == key) {
        if (e->info.i == 1) {
            r->on_tick = (double)e->tick;
            r->key_on = 1;
        } else if (r->key_on) {
            double old = (double)e->tick - r->on_tick;
            double grown = p->proportional
                               ? (old > p->empty ? p->empty + (old - p->empty) * p->factor : old)
                               : old + p->delta;
            if (grown < 0)
                grown = 0;
            r->shift += grown - old;
            r->key_on = 0;
        }
    }
    r->last_new = (double)e->tick + r->shift;
    r->last_old = (double)e->tick;
}

/* Node P's next event: the one held back, else the next read. NULL at the
 * end, or when the reader met an error (p->it.rc). */
static const struct qq_event *next_event(struct node_plan *p)
{
    if (p->has_held) {
        p->has_held = 0;
        return &p->held;
    }
    return qqb_events_next(&p->it);
}

/*
 * Re-lay node P's next events up to and including the next "on" of a
 * waiting key (STOP_AT_WAIT; its key and tick in p->wait_key and p->t_on),
 * or to the end. Returns 1 at such an on, 0 at the end. The scaled key
 * counts as off where each call starts.
 */
static int advance(struct node_plan *p, uint32_t key, const uint32_t *wait, int nwait,
                   int stop_at_wait)
{
    const struct qq_event *e;
    p->r.key_on = 0;
    while ((e = next_event(p))) {
        relay_event(p, &p->r, e, key);
        if (stop_at_wait && is_wait_on(e, wait, nwait)) {
            p->wait_key = e->key;
            p->t_on = (double)e->tick;
            return 1;
        }
    }
    return 0;
}

/*
 * After a wait's on (advance returned 1): read on to the off that closes it,
 * the next off of its key; its tick in p->t_off, the off held back for the
 * next advance. The events between move with the wait and are not re-laid
 * in p->r. Since the reader goes forward only, p->alt re-lays them on the
 * way as the node is re-laid when the wait never closes (from just after
 * the on to the end, waits or not): returns 1 at the off, 0 at the end
 * with no off (then p->alt is the whole node re-laid that way).
 */
static int relay_wait(struct node_plan *p, uint32_t key)
{
    const struct qq_event *e;
    p->alt = p->r;
    p->alt.key_on = 0;
    while ((e = next_event(p))) {
        if (e->key == p->wait_key && e->info.i == 0) {
            p->t_off = (double)e->tick;
            p->held = *e;
            p->has_held = 1;
            return 1;
        }
        relay_event(p, &p->alt, e, key);
    }
    return 0;
}

/* The rest of node P re-laid as if its open wait never closed: p->alt,
 * carried on from the off relay_wait held back (if any) to the end. */
static void relay_unclosed(struct node_plan *p, uint32_t key)
{
    const struct qq_event *e;
    p->r = p->alt;
    while ((e = next_event(p)))
        relay_event(p, &p->r, e, key);
}

/* The scaled key and the waiting keys of SPEC as key indices of F. */
static int resolve_keys(const struct qq_file *f, const char *path, const struct qqb_whatif_spec *s,
                        uint32_t *key, uint32_t *wait, char *err, size_t errlen)
{
    int kst = key_index(f, s->key, key);
    if (kst < 0) {
        snprintf(err, errlen, "%s: error: %s '%s'", path,
                 kst == -2 ? "not a state key:" : "no key named", s->key);
        return -1;
    }
    for (int w = 0; w < s->nwaits; w++) {
        int ws = key_index(f, s->waits[w], &wait[w]);
        if (ws < 0) {
            snprintf(err, errlen, "%s: error: --waiting: %s '%s'", path,
                     ws == -2 ? "not a state key:" : "no key named", s->waits[w]);
            return -1;
        }
        if (wait[w] == *key) {
            snprintf(err, errlen, "qqbench whatif: error: '%s' is both scaled and waiting",
                     s->waits[w]);
            return -1;
        }
    }
    return 0;
}

/* Each node's figures for the key (hit stats, first tick) and its waits:
 * the first reads of the node. 0 or the reader's error. */
static int plan_nodes(const struct qq_file *f, struct node_plan *plan, uint32_t nn, uint32_t key,
                      const uint32_t *wait, const struct qqb_whatif_spec *s, struct qq_hit_stat *hs)
{
    for (uint32_t r = 0; r < nn; r++) {
        struct node_plan *p = &plan[r];
        struct qq_node_summary ns;
        int st;
        p->n = qq_file_node(f, r)->entries;
        p->offset = (double)qq_file_node(f, r)->tick_offset;
        if ((st = qq_file_node_stats(f, r, &ns, NULL, hs)) != 0 ||
            (s->nwaits && (st = count_waits(f, r, wait, s->nwaits, &p->nwait)) != 0))
            return st;
        p->net = hs[key].net;
        double target = s->mode == QQB_WHATIF_SCALE ? s->amount * p->net : s->amount;
        p->delta = target - p->net;
        p->factor = p->net > 0 ? target / p->net : 1;
        p->empty = hs[key].raw - hs[key].net;
        p->proportional = hs[key].rule == QQ_HIT_P10 || hs[key].rule == QQ_HIT_MEDIAN;
        p->first = (double)ns.first_tick;
    }
    return 0;
}

/* The first reader error among the nodes' cursors, else ST. */
static int reader_error(const struct node_plan *plan, uint32_t nn, int st)
{
    for (uint32_t r = 0; r < nn; r++)
        if (plan[r].it.rc)
            st = plan[r].it.rc;
    return st;
}

/* The nodes in lockstep, wait by wait: the k-th wait of every node is one
 * collective, ending when the last node arrives plus the node's measured
 * release. Every node's reader stays open (a chunk each in memory, so
 * never more than the file). 0 or the reader's error. */
static int relay_collective(const struct qq_file *f, struct node_plan *plan, uint32_t nn,
                            uint32_t key, const uint32_t *wait, int nwaits)
{
    for (uint32_t r = 0; r < nn; r++)
        qqb_events_open(f, r, &plan[r].it);
    for (uint64_t k = 0; k < plan[0].nwait; k++) {
        double arrive_old = -INFINITY, arrive_new = -INFINITY;
        int broken = 0;
        for (uint32_t r = 0; r < nn; r++) {
            struct node_plan *p = &plan[r];
            p->found_on = advance(p, key, wait, nwaits, 1);
            int closed = p->found_on && relay_wait(p, key);
            if (p->it.rc)
                return reader_error(plan, nn, 0);
            if (!closed) {
                broken = 1;
                continue;
            }
            double t = p->t_on - p->offset;
            if (t > arrive_old)
                arrive_old = t;
            if (t + p->r.shift > arrive_new)
                arrive_new = t + p->r.shift;
        }
        if (broken) {
            /* an unclosed wait: the rest is re-laid per node, from just
             * after the on each node stopped at */
            for (uint32_t r = 0; r < nn; r++)
                if (plan[r].found_on)
                    relay_unclosed(&plan[r], key);
            break;
        }
        for (uint32_t r = 0; r < nn; r++) {
            struct node_plan *p = &plan[r];
            double t_on = p->t_on - p->offset;
            double t_off = p->t_off - p->offset;
            /* The wait ends its measured release after the last arrival. The release
             * may read negative when the nodes' clocks are a few ticks apart (offsets
             * are estimates): kept as it is, so that unchanged arrivals give the
             * measured end exactly; clamping it made scale 1 move such a node. The
             * events inside the wait move with its start. */
            double release = t_off - arrive_old;
            double new_off = arrive_new + release;
            if (new_off < t_on + p->r.shift)
                new_off = t_on + p->r.shift;
            p->r.shift = new_off - t_off;
        }
    }
    return 0;
}

/* The rest of every node (all of it, without collectives): per node, a
 * wait ends at its measured time, or at once when the node now arrives
 * later. 0 or the reader's error. */
static int relay_rest(const struct qq_file *f, struct node_plan *plan, uint32_t nn, uint32_t key,
                      const uint32_t *wait, int nwaits, int collective)
{
    for (uint32_t r = 0; r < nn; r++) {
        struct node_plan *p = &plan[r];
        if (!collective) {
            qqb_events_open(f, r, &p->it);
            while (nwaits && advance(p, key, wait, nwaits, 1)) {
                if (!relay_wait(p, key)) {
                    relay_unclosed(p, key); /* an unclosed wait */
                    break;
                }
                double new_off = p->t_off > p->t_on + p->r.shift ? p->t_off : p->t_on + p->r.shift;
                p->r.shift = new_off - p->t_off;
            }
        }
        advance(p, key, wait, nwaits, 0);
        int st = qqb_events_close(&p->it);
        if (st != 0)
            return reader_error(plan, nn, st);
    }
    return 0;
}

/* The other run's time per node, first to last event. */
static int other_run(const struct qq_file *g, const char *gpath, struct qqb_whatif *w, char *err,
                     size_t errlen)
{
    for (uint32_t r = 0; g && r < w->nnodes && r < qq_file_nnodes(g); r++) {
        struct qq_node_summary ns;
        int st = qq_file_node_stats(g, r, &ns, NULL, NULL);
        if (st != 0) {
            snprintf(err, errlen, "%s: error: %s", gpath,
                     st == QQ_ENOMEM ? "out of memory" : qq_file_errmsg(g));
            return -1;
        }
        w->row[r].other = (double)(ns.last_tick - ns.first_tick);
        w->row[r].has_other = 1;
    }
    return 0;
}

/* Re-lay F's nodes; 0 or the reader's error (QQ_E*). */
static int relay_all(const struct qq_file *f, const struct qqb_whatif_spec *s, uint32_t key,
                     const uint32_t *wait, struct node_plan *plan, struct qq_hit_stat *hs,
                     struct qqb_whatif *w)
{
    uint32_t nn = w->nnodes;
    int st = plan_nodes(f, plan, nn, key, wait, s, hs);
    if (st != 0)
        return st;
    w->collective = s->nwaits > 0 && nn > 1;
    for (uint32_t r = 1; r < nn; r++)
        if (plan[r].nwait != plan[0].nwait)
            w->collective = 0;
    if (w->collective && (st = relay_collective(f, plan, nn, key, wait, s->nwaits)) != 0)
        return st;
    if ((st = relay_rest(f, plan, nn, key, wait, s->nwaits, w->collective)) != 0)
        return st;
    for (uint32_t r = 0; r < nn; r++) {
        const struct node_plan *p = &plan[r];
        struct qqb_whatif_row *row = &w->row[r];
        row->net = p->net;
        row->new_hit = p->net + p->delta;
        row->measured = p->n ? p->r.last_old - p->first : 0;
        row->predicted = p->n ? p->r.last_new - p->first : 0;
    }
    return 0;
}

int qqb_whatif_run(const struct qq_file *f, const char *path, const struct qq_file *g,
                   const char *gpath, const struct qqb_whatif_spec *spec, struct qqb_whatif *out,
                   char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    uint32_t key, wait[QQB_WHATIF_WAITS];
    if (spec->nwaits < 0 || spec->nwaits > QQB_WHATIF_WAITS) {
        snprintf(err, errlen, "qqbench whatif: error: at most %d waiting keys", QQB_WHATIF_WAITS);
        return -1;
    }
    if (resolve_keys(f, path, spec, &key, wait, err, errlen) != 0)
        return -1;
    uint32_t nn = qq_file_nnodes(f), nk = qq_file_nkeys(f);
    struct node_plan *plan = calloc(nn ? nn : 1, sizeof *plan);
    struct qq_hit_stat *hs = calloc(nk ? nk : 1, sizeof *hs);
    out->row = calloc(nn ? nn : 1, sizeof *out->row);
    out->nnodes = nn;
    out->mhz = nn ? qq_file_node(f, 0)->mhz : 0;
    int rc = 0;
    if (!plan || !hs || !out->row) {
        snprintf(err, errlen, "qqbench whatif: error: out of memory");
        rc = -1;
    } else {
        /* An error the reader meets on the way (a damaged entry, a file
         * that shrank) ends the prediction before anything is printed. */
        int st = relay_all(f, spec, key, wait, plan, hs, out);
        if (st == QQ_ENOMEM)
            snprintf(err, errlen, "qqbench whatif: error: out of memory");
        else if (st != 0)
            snprintf(err, errlen, "%s: error: %s", path, qq_file_errmsg(f));
        rc = st != 0 ? -1 : other_run(g, gpath, out, err, errlen);
    }
    for (uint32_t r = 0; plan && r < nn; r++)
        qqb_events_close(&plan[r].it);
    free(plan);
    free(hs);
    if (rc != 0)
        qqb_whatif_free(out);
    return rc;
}

void qqb_whatif_free(struct qqb_whatif *w)
{
    free(w->row);
    memset(w, 0, sizeof *w);
}
