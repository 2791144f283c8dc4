/* share.c - one node's states per picture column (share.h). */
#include "share.h"

#include <stdlib.h>
#include <string.h>

struct cols {
    double t0, t1, px;
    size_t ncols;
    uint32_t nslots;
    double *sec;
};

/* [A, B) of slot S, clipped to the window, spread over the columns. */
static void add(const struct cols *c, uint32_t s, double a, double b)
{
    if (s == QQB_SHARE_NONE || s >= c->nslots)
        return;
    if (a < c->t0)
        a = c->t0;
    if (b > c->t1)
        b = c->t1;
    if (!(b > a))
        return;
    size_t first = (size_t)((a - c->t0) / c->px), last = (size_t)((b - c->t0) / c->px);
    if (first >= c->ncols)
        first = c->ncols - 1;
    if (last >= c->ncols)
        last = c->ncols - 1;
    for (size_t col = first; col <= last; col++) {
        double lo = c->t0 + (double)col * c->px, hi = lo + c->px;
        double x = (b < hi ? b : hi) - (a > lo ? a : lo);
        if (x > 0)
            c->sec[col * c->nslots + s] += x;
    }
}

/* Key K off: out of the stack of open states STACK[0..*DEPTH). */
static void pop_key(uint32_t *stack, uint32_t *depth, uint32_t k)
{
    for (uint32_t i = *depth; i-- > 0;)
        if (stack[i] == k) {
            memmove(stack + i, stack + i + 1, (*depth - i - 1) * sizeof *stack);
            (*depth)--;
            return;
        }
}

int qqb_share_node(const struct qqb_trace *t, uint32_t node, uint32_t thread, double t0, double t1,
                   size_t ncols, const uint32_t *slot_of, uint32_t nslots, double *sec,
                   uint32_t *changes)
{
    struct cols c = {t0, t1, ncols ? (t1 - t0) / (double)ncols : 0, ncols, nslots, sec};
    memset(sec, 0, ncols * nslots * sizeof *sec);
    memset(changes, 0, ncols * sizeof *changes);
    if (!ncols || !(t1 > t0))
        return 0;
    uint32_t nk = t->nkeys, depth = 0;
    uint32_t *stack = malloc((nk ? nk : 1) * sizeof *stack);
    unsigned char *on = calloc(nk ? nk : 1, 1);
    if (!stack || !on) {
        free(stack);
        free(on);
        return -1;
    }
    double last = 0, since = 0; /* the last entry; the top state's time since */
    struct qqb_events it;
    const struct qq_event *e;
    if (thread == QQB_SHARE_ALL_THREADS)
        qqb_events_open(t->f, node, &it);
    else
        qqb_events_open_thread(t->f, node, thread, &it);
    while ((e = qqb_events_next(&it))) {
        double when = qqb_trace_sec(t, node, e->tick);
        last = when;
        uint32_t k = e->key;
        if (!t->key_on[k] || qq_file_key(t->f, k)->type != QQ_TYPE_STATE ||
            (e->info.i != 0) == on[k])
            continue; /* not a selected state, or a second on or off (the view skips it) */
        if (depth)
            add(&c, slot_of[stack[depth - 1]], since, when);
        since = when;
        if (e->info.i) {
            stack[depth++] = k;
            on[k] = 1;
        } else {
            pop_key(stack, &depth, k);
            on[k] = 0;
        }
        if (when >= t0 && when <= t1) {
            size_t col = (size_t)((when - t0) / c.px);
            changes[col < ncols ? col : ncols - 1]++;
        }
    }
    if (depth)
        add(&c, slot_of[stack[depth - 1]], since, last);
    free(stack);
    free(on);
    return qqb_events_close(&it) != 0 ? -2 : 0;
}
