/* cmd_whatif.c - qqbench whatif: re-lay a recorded timeline with one key's intervals made faster or
 * slower. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opts.h"
#include "qq_file.h"
#include "trace.h"

/* The usage's prose around the option lines, which the table in
 * cmd_whatif generates. */
static const struct qqb_opts_cmd whatif_cmd = {
    "whatif",
    "usage: qqbench whatif FILE.qq (--scale KEY=F | --per-hit KEY=T)\n"
    "                      [--waiting KEY]... [--measured OTHER.qq]\n\n"
    "Is this line worth optimising? Re-lay each node's recorded timeline\n"
    "with the intervals of state KEY made F times as costly (--scale\n"
    "Km=0.5: half the cost), or costing T net ticks per hit (--per-hit\n"
    "Km=11), keeping the order of events, and print the predicted run time\n"
    "(first to last event) per node and overall (the slowest node) against\n"
    "the measured one.\n\n"
    "A short key (its per-hit figure a fenced mean: docs/STATISTICS.md)\n"
    "changes each interval by (F - 1) x its net ticks per hit on that node,\n"
    "not by F x the interval's own length: an interval an interrupt\n"
    "stretched keeps the interrupt. A long key (10th percentile or median)\n"
    "has the net part of each interval (its length minus the calibrated\n"
    "empty state) multiplied by F: long intervals differ for real (load).\n"
    "Either way QQ's own cost in the interval stays.\n\n"
    "Waiting states (--waiting, e.g. MessageBus::Sync around a barrier)\n"
    "absorb or grow: when every node has the same number of intervals of\n"
    "the waiting key, the k-th of each node is taken as one collective: it\n"
    "ends, on every node, when the last node arrives (re-laid) plus that\n"
    "node's measured release latency. Otherwise a wait ends at its measured\n"
    "time if the node now arrives earlier, at once if later.\n\n",
    "\nExit: 0, or 2 for bad input.\n"};

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

/* The largest factor or per-hit figure taken: a billion times (or ticks)
 * is far past any question a prediction answers, and a product of ticks
 * that large still fits a double with room (1e308 printed "inf ms"). */
#define QQB_WHATIF_MAX 1e9

/* --scale KEY=F or --per-hit KEY=T: which of the two was given (one at
 * most), the key and the figure. */
struct whatif_change {
    int mode; /* 1 scale, 2 per-hit, 0 neither yet */
    char key[256];
    double amount;
};

static int parse_kv(const char *opt, int mode, const char *v, void *ctx, char *err, size_t errlen)
{
    struct whatif_change *c = ctx;
    const char *eq = strrchr(v, '=');
    char *end;
    if (c->mode) {
        snprintf(err, errlen, "one --scale or --per-hit");
        return -1;
    }
    if (!eq || eq == v || (size_t)(eq - v) >= sizeof c->key) {
        snprintf(err, errlen, "%s needs KEY=NUMBER", opt);
        return -1;
    }
    memcpy(c->key, v, (size_t)(eq - v));
    c->key[eq - v] = '\0';
    /* Decimal only: strtod would also take 0x10 as 16, and inf or nan. */
    if (eq[1] == '\0' || strspn(eq + 1, "0123456789.eE+-") != strlen(eq + 1)) {
        snprintf(err, errlen, "%s %s: '%s' is not a decimal number", opt, v, eq + 1);
        return -1;
    }
    c->amount = strtod(eq + 1, &end);
    if (end == eq + 1 || *end || !isfinite(c->amount) || c->amount < 0 ||
        c->amount > QQB_WHATIF_MAX) {
        snprintf(err, errlen, "%s %s: '%s' is not a number from 0 to %g", opt, v, eq + 1,
                 QQB_WHATIF_MAX);
        return -1;
    }
    c->mode = mode;
    return 0;
}

static int parse_scale(const char *v, void *ctx, char *err, size_t errlen)
{
    return parse_kv("--scale", 1, v, ctx, err, errlen);
}

static int parse_per_hit(const char *v, void *ctx, char *err, size_t errlen)
{
    return parse_kv("--per-hit", 2, v, ctx, err, errlen);
}

int cmd_whatif(int argc, char **argv)
{
    const char *path = NULL, *measured = NULL, *waits[16];
    char **wlist = NULL;
    size_t nw = 0;
    struct whatif_change c = {.mode = 0, .amount = 1};
    const struct qqb_opt table[] = {
        QQB_OPT_CALLBACK("--scale", "KEY=F", parse_scale, &c,
                         "make KEY's intervals F times as costly (0 to 1e9)"),
        QQB_OPT_CALLBACK("--per-hit", "KEY=T", parse_per_hit, &c,
                         "make KEY's intervals cost T net ticks per hit"),
        QQB_OPT_LIST("--waiting", "KEY", &wlist, &nw, 16,
                     "a waiting state (repeatable, at most 16)"),
        QQB_OPT_STRING("--measured", "OTHER.qq", &measured,
                       "the run of the changed program: print its run\n"
                       "time and the prediction's error"),
        QQB_OPT_POSITIONAL("FILE.qq", &path),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&whatif_cmd, table, argc, argv, NULL);
    int nwaits = wlist ? (int)nw : 0, mode = c.mode; /* the parser allocates WLIST */
    for (int w = 0; w < nwaits; w++)
        waits[w] = wlist[w];
    free(wlist);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (!path || !mode) {
        qqb_opts_usage(&whatif_cmd, table, stderr);
        return QQB_EXIT_USAGE;
    }
    const char *keyname = c.key;
    double amount = c.amount;
    struct qq_file *f = NULL, *g = NULL;
    struct node_plan *plan = NULL;
    struct qq_hit_stat *hs = NULL;
    double *measured_ticks = NULL;
    int rc = QQB_EXIT_USAGE;
    int st = qq_file_open_stream(path, &f);
    if (st != 0) {
        fprintf(stderr, "%s: error: %s\n", path, f ? qq_file_errmsg(f) : qq_strerror(st));
        goto out;
    }
    if (measured && (st = qq_file_open_stream(measured, &g)) != 0) {
        fprintf(stderr, "%s: error: %s\n", measured, g ? qq_file_errmsg(g) : qq_strerror(st));
        goto out;
    }
    char terr[600];
    if (qqb_ticks_judgeable(f, path, terr, sizeof terr) != 0 ||
        (g && qqb_ticks_judgeable(g, measured, terr, sizeof terr) != 0)) {
        fprintf(stderr, "qqbench whatif: error: %s\n", terr);
        goto out;
    }
    uint32_t key, wait[16];
    int kst = key_index(f, keyname, &key);
    if (kst < 0) {
        fprintf(stderr, "%s: error: %s '%s'\n", path,
                kst == -2 ? "not a state key:" : "no key named", keyname);
        goto out;
    }
    for (int w = 0; w < nwaits; w++) {
        int ws = key_index(f, waits[w], &wait[w]);
        if (ws < 0) {
            fprintf(stderr, "%s: error: --waiting: %s '%s'\n", path,
                    ws == -2 ? "not a state key:" : "no key named", waits[w]);
            goto out;
        }
        if (wait[w] == key) {
            fprintf(stderr,
                    "qqbench whatif: error: '%s' is both scaled and "
                    "waiting\n",
                    waits[w]);
            goto out;
        }
    }
    uint32_t nn = qq_file_nnodes(f), nk = qq_file_nkeys(f);
    plan = calloc(nn ? nn : 1, sizeof *plan);
    hs = calloc(nk ? nk : 1, sizeof *hs);
    measured_ticks = calloc(nn ? nn : 1, sizeof *measured_ticks);
    if (!plan || !hs || !measured_ticks) {
        fprintf(stderr, "qqbench whatif: error: out of memory\n");
        goto out;
    }
    /* The file is read forward, a node at a time: first its hit stats (and
     * first tick), then its waits, then the re-lay. An error the reader
     * meets on the way (a damaged entry, a file that shrank) ends the run
     * before anything is printed. */
    for (uint32_t r = 0; r < nn; r++) {
        struct node_plan *p = &plan[r];
        struct qq_node_summary ns;
        p->n = qq_file_node(f, r)->entries;
        p->offset = (double)qq_file_node(f, r)->tick_offset;
        if ((st = qq_file_node_stats(f, r, &ns, NULL, hs)) != 0 ||
            (nwaits && (st = count_waits(f, r, wait, nwaits, &p->nwait)) != 0))
            goto bad_read;
        p->net = hs[key].net;
        double target = mode == 1 ? amount * p->net : amount;
        p->delta = target - p->net;
        p->factor = p->net > 0 ? target / p->net : 1;
        p->empty = hs[key].raw - hs[key].net;
        p->proportional = hs[key].rule == QQ_HIT_P10 || hs[key].rule == QQ_HIT_MEDIAN;
        p->first = (double)ns.first_tick;
    }
    int collective = nwaits > 0 && nn > 1;
    for (uint32_t r = 1; r < nn; r++)
        if (plan[r].nwait != plan[0].nwait)
            collective = 0;

    if (collective) {
        /* The nodes in lockstep, wait by wait: every node's reader open (a
         * chunk each in memory, so never more than the file). */
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
                    goto bad_read_open;
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
    }
    for (uint32_t r = 0; r < nn; r++) {
        struct node_plan *p = &plan[r];
        if (!collective) {
            /* Per node: a wait ends at its measured time, or at once when
             * the node now arrives later. */
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
        if ((st = qqb_events_close(&p->it)) != 0)
            goto bad_read_open;
    }
    /* The other run's time per node, first to last event. */
    for (uint32_t r = 0; g && r < nn && r < qq_file_nnodes(g); r++) {
        struct qq_node_summary ns;
        if ((st = qq_file_node_stats(g, r, &ns, NULL, NULL)) != 0) {
            fprintf(stderr, "%s: error: %s\n", measured,
                    st == QQ_ENOMEM ? "out of memory" : qq_file_errmsg(g));
            goto out;
        }
        measured_ticks[r] = (double)(ns.last_tick - ns.first_tick);
    }

    double mhz = qq_file_node(f, 0)->mhz;
    printf("whatif: %s, intervals of '%s' %s", path, keyname, mode == 1 ? "scaled by" : "at");
    printf(mode == 1 ? " %g of their net cost\n" : " %g net ticks per hit\n", amount);
    if (nwaits)
        printf("waiting: %d key%s, %s\n", nwaits, nwaits == 1 ? "" : "s",
               collective ? "collective (the same number of waits on every "
                            "node: each ends when the last node arrives)"
                          : "per node (a wait ends at its measured time, or "
                            "at once if the node arrives later)");
    printf("\n%-6s %10s %10s %16s %16s %9s", "node", "net/hit", "new/hit", "measured ticks",
           "predicted ticks", "change");
    if (g)
        printf(" %16s %9s", "other run", "error");
    printf("\n");
    double worst_old = 0, worst_new = 0, worst_g = 0;
    for (uint32_t r = 0; r < nn; r++) {
        struct node_plan *p = &plan[r];
        double old = p->n ? p->r.last_old - p->first : 0;
        double new_ = p->n ? p->r.last_new - p->first : 0;
        if (old > worst_old)
            worst_old = old;
        if (new_ > worst_new)
            worst_new = new_;
        printf("%-6" PRIu32 " %10.1f %10.1f %16.0f %16.0f %8.2f%%", r, p->net, p->net + p->delta,
               old, new_, old > 0 ? 100 * (new_ - old) / old : 0);
        if (g && r < qq_file_nnodes(g)) {
            double m = measured_ticks[r];
            if (m > worst_g)
                worst_g = m;
            printf(" %16.0f %8.2f%%", m, m > 0 ? 100 * (new_ - m) / m : 0);
        }
        printf("\n");
    }
    printf("%-6s %10s %10s %16.0f %16.0f %8.2f%%", "all", "", "", worst_old, worst_new,
           worst_old > 0 ? 100 * (worst_new - worst_old) / worst_old : 0);
    if (g)
        printf(" %16.0f %8.2f%%", worst_g, worst_g > 0 ? 100 * (worst_new - worst_g) / worst_g : 0);
    printf("\n");
    if (mhz > 0)
        printf("\nrun time (slowest node): measured %.3f ms, predicted %.3f ms%s",
               worst_old / mhz / 1e3, worst_new / mhz / 1e3, g ? "" : "\n");
    if (g && mhz > 0)
        printf(", other run %.3f ms (prediction error %+.2f%%)\n", worst_g / mhz / 1e3,
               worst_g > 0 ? 100 * (worst_new - worst_g) / worst_g : 0);
    rc = QQB_EXIT_OK;
    goto out;
bad_read_open:
    for (uint32_t r = 0; r < nn; r++)
        if (plan[r].it.rc)
            st = plan[r].it.rc;
bad_read:
    if (st == QQ_ENOMEM)
        fprintf(stderr, "qqbench whatif: error: out of memory\n");
    else
        fprintf(stderr, "%s: error: %s\n", path, qq_file_errmsg(f));
out:
    for (uint32_t r = 0; plan && r < qq_file_nnodes(f); r++)
        qqb_events_close(&plan[r].it);
    free(measured_ticks);
    free(hs);
    free(plan);
    qq_file_close(g);
    qq_file_close(f);
    return rc;
}
