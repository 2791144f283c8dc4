/* collect.c - what a launch wrote: the .qq file's keys as a case's metrics, its memory tables as
 * memory rows. */
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_file.h"
#include "runner.h"
#include "strv.h"
#include "words.h"

static int add(struct qqb_case_result *c, const char *key, const char *what, double v, char *err,
               size_t errlen)
{
    struct qqb_metric *m = qqb_case_metric(c, key, what);
    if (!m || qqb_metric_add(m, v) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int collect_mem(const struct qq_file *f, struct qqb_case_result *c)
{
    /* Memory is deterministic: each launch should give the same table, so
     * the last launch's table stands for the case. Summed over nodes. */
    for (size_t i = 0; i < c->nmem; i++)
        free(c->mem[i].key);
    free(c->mem);
    c->mem = NULL;
    c->nmem = 0;
    for (uint32_t n = 0; n < qq_file_nnodes(f); n++) {
        struct qq_mem_table t;
        if (!qq_file_mem(f, n, &t))
            continue;
        for (uint32_t r = 0; r < t.nrows; r++) {
            const struct qq_mem_row *row = &t.rows[r];
            size_t k;
            for (k = 0; k < c->nmem; k++)
                if (!strcmp(c->mem[k].key, row->name))
                    break;
            if (k == c->nmem) {
                struct qqb_mem *v = realloc(c->mem, (c->nmem + 1) * sizeof *v);
                if (!v)
                    return -1;
                c->mem = v;
                memset(&c->mem[k], 0, sizeof c->mem[k]);
                c->mem[k].key = strdup(row->name);
                if (!c->mem[k].key)
                    return -1;
                c->nmem++;
            }
            struct qqb_mem *m = &c->mem[k];
            m->obj_size = row->obj_size;
            m->created += row->created;
            m->deleted += row->deleted;
            m->obj_bytes += row->obj_bytes;
            m->alloc_bytes += row->alloc_bytes;
            m->peak_bytes += row->peak_bytes;
            m->peak_gap += row->peak_bytes -
                           (row->peak_low < row->peak_bytes ? row->peak_low : row->peak_bytes);
        }
    }
    return 0;
}

/*
 * A state's figures per launch come from the reader (qq_file_hit_stats):
 * one estimator, qq_per_hit, for libqq, st and here; its rule and measured
 * bias are in qq_file.h and docs/STATISTICS.md. The judged figure is NET:
 * the calibrated empty-state cost of the launch's own QQInit subtracted.
 */

/* Is a net figure resolved by its own data (docs/STATISTICS.md section
 * 16, "Resolution from the data")? The mean of intervals on two or more
 * quantisation levels, at a phase the code does not lock, is unbiased below
 * a counter step: the figure is resolved when it stands clear of zero by
 * two standard errors of the difference net = raw - empty. Raw's is the
 * kept intervals' (h->se); the calibration's empty mean, of CAL->samples
 * quantised intervals, is taken at one step / sqrt(samples), an upper bound
 * for intervals on adjacent levels (their sd is at most half a step). A
 * locked phase (every interval one length), a figure from another rule, or
 * a launch without a calibration is resolved only above the resolution
 * (qq_resolution_ticks: half a step). */
static int net_resolved(const struct qq_hit_stat *h, const struct qq_calib *cal)
{
    if (h->rule == QQ_HIT_MEAN && !h->locked && h->kept >= 2 && cal->samples > 0 && cal->step > 0) {
        double se = sqrt(h->se * h->se + cal->step * cal->step / (double)cal->samples);
        return h->net > 2.0 * se && h->net > 0;
    }
    return h->net > qq_resolution_ticks(cal->step);
}

/* A figure that is not resolved cannot be told from zero (nor from
 * another such): it is stored as the resolution, so ratios stay finite,
 * and its launch says so (per_hit_floored 1). The raw figure is kept
 * beside it (per_hit_raw). */
static double net_floor(double net, double step)
{
    double floor = qq_resolution_ticks(step);
    return net > floor ? net : floor;
}

/* The metrics of key K (its info KEY) summed or maxed over the NN nodes'
 * summaries KS and HS (NK keys a node), added to C; CAL is node 0's
 * calibration (net figures not resolved are floored). 0 or -1 with ERR. */
static int collect_key(struct qqb_case_result *c, const struct qq_key_info *key, uint32_t k,
                       uint32_t nk, uint32_t nn, const struct qq_key_summary *ks,
                       const struct qq_hit_stat *hs, const struct qq_calib *cal, char *err,
                       size_t errlen)
{
    int rc = 0;
    double hits = 0, maxticks = 0, sumticks = 0, maxnet = 0, maxraw = 0, maxmean = 0, sum = 0,
           dsum = 0, intervals = 0;
    int resolved = 0;
    for (uint32_t n = 0; n < nn; n++) {
        const struct qq_key_summary *s = &ks[(size_t)n * nk + k];
        const struct qq_hit_stat *h = &hs[(size_t)n * nk + k];
        hits += (double)s->hits;
        intervals += (double)h->intervals;
        double t = (double)s->state_ticks;
        sumticks += t;
        if (t > maxticks)
            maxticks = t;
        /* The slowest node's figure (the first node sets the start). */
        if (n == 0 || h->net > maxnet) {
            maxnet = h->net;
            resolved = net_resolved(h, cal);
        }
        if (h->raw > maxraw)
            maxraw = h->raw;
        if (h->mean > maxmean)
            maxmean = h->mean;
        sum += (double)s->isum;
        dsum += s->dsum;
    }
    rc |= add(c, key->name, "hits", hits, err, errlen);
    switch (key->type) {
    case QQ_TYPE_STATE:
        /* A key that never completed an interval in this launch has no
         * cycles to compare. */
        if (maxticks > 0) {
            rc |= add(c, key->name, "ticks", maxticks, err, errlen);
            rc |= add(c, key->name, "per_hit", resolved ? maxnet : net_floor(maxnet, cal->step),
                      err, errlen);
            rc |= add(c, key->name, "per_hit_floored", resolved ? 0 : 1, err, errlen);
            rc |= add(c, key->name, "intervals", intervals, err, errlen);
            rc |= add(c, key->name, "per_hit_raw", maxraw, err, errlen);
            rc |= add(c, key->name, "mean_hit", maxmean, err, errlen);
            if (nn > 1)
                rc |= add(c, key->name, "imbalance", maxticks / (sumticks / nn), err, errlen);
        }
        break;
    case QQ_TYPE_COUNT:
        rc |= add(c, key->name, "sum", sum, err, errlen);
        break;
    case QQ_TYPE_VALUE:
        rc |= add(c, key->name, "mean", hits > 0 ? dsum / hits : 0, err, errlen);
        break;
    default:
        break;
    }
    return rc;
}

/* Thread TH of node N into its row of C: its identity (the last launch's)
 * and one sample per launch of each selected state key's figures, from a
 * pass over that thread's entries alone. KS and HS hold the file's keys.
 * 0; -1 out of memory; -2 the reader's error (qq_file_errmsg). */
static int collect_thread(struct qq_file *f, uint32_t n, uint32_t th, char *const *keys,
                          size_t nkeys, struct qqb_case_result *c, struct qq_key_summary *ks,
                          struct qq_hit_stat *hs)
{
    const struct qq_thread_info *ti = qq_file_thread(f, n, th);
    struct qqb_thread_row *t = qqb_case_thread(c, n, th);
    struct qq_node_summary ns;
    if (!t)
        return -1;
    if (qq_file_thread_stats(f, n, th, &ns, ks, hs) != 0)
        return -2; /* the reader's error */
    char *name = strdup(ti->name);
    if (!name)
        return -1;
    free(t->name);
    t->name = name;
    t->tid = ti->tid;
    t->events = ti->events;
    t->dropped = ti->dropped;
    for (uint32_t k = 0; k < qq_file_nkeys(f); k++) {
        const struct qq_key_info *key = qq_file_key(f, k);
        if (key->type != QQ_TYPE_STATE || !qqb_strv_selects(keys, nkeys, key->name) ||
            ks[k].hits == 0)
            continue;
        const double v[] = {(double)ks[k].hits, (double)ks[k].intervals, hs[k].net,
                            (double)ks[k].state_ticks};
        static const char *const what[] = {"hits", "intervals", "per_hit", "ticks"};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            struct qqb_metric *m = qqb_thread_metric(t, key->name, what[i]);
            if (!m || qqb_metric_add(m, v[i]) != 0)
                return -1;
        }
    }
    return 0;
}

/* Per-thread rows of every node with more than one thread (docs/THREADS.md):
 * the case's own figures are over all threads; these say how each thread
 * did. 0, or -1 with ERR. */
static int collect_threads(struct qq_file *f, char *const *keys, size_t nkeys,
                           struct qqb_case_result *c, char *err, size_t errlen)
{
    uint32_t nk = qq_file_nkeys(f);
    struct qq_key_summary *ks = calloc(nk + 1u, sizeof *ks);
    struct qq_hit_stat *hs = calloc(nk + 1u, sizeof *hs);
    int rc = ks && hs ? 0 : -1;
    for (uint32_t n = 0; rc == 0 && n < qq_file_nnodes(f); n++)
        for (uint32_t th = 0; rc == 0 && qq_file_nthreads(f, n) > 1 && th < qq_file_nthreads(f, n);
             th++)
            if (qq_file_thread(f, n, th)->events > 0)
                rc = collect_thread(f, n, th, keys, nkeys, c, ks, hs);
    if (rc != 0)
        snprintf(err, errlen, "%s", rc == -2 ? qq_file_errmsg(f) : "out of memory");
    free(ks);
    free(hs);
    return rc;
}

/* Each parameter QQTune chose: its value, one sample per launch (the key
 * QQB_TUNE_PREFIX and the record's name). 0 or -1. */
static int collect_tunes(const struct qq_file *f, struct qqb_case_result *c, char *err,
                         size_t errlen)
{
    int rc = 0;
    for (uint32_t i = 0; i < qq_file_ntunes(f) && rc == 0; i++) {
        const struct qq_tune_info *t = qq_file_tune(f, i);
        size_t len = strlen(QQB_TUNE_PREFIX) + strlen(t->name) + 1;
        char *key = malloc(len);
        if (!key) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        snprintf(key, len, "%s%s", QQB_TUNE_PREFIX, t->name);
        rc = add(c, key, QQB_TUNE_METRIC, (double)t->cand[t->choice].value, err, errlen);
        free(key);
    }
    return rc;
}

int qqb_collect(struct qq_file *f, char *const *keys, size_t nkeys, struct qqb_case_result *c,
                char *err, size_t errlen)
{
    uint32_t nk = qq_file_nkeys(f), nn = qq_file_nnodes(f);
    size_t cells = (size_t)nk * (nn ? nn : 1) + 1;
    struct qq_key_summary *ks = calloc(cells, sizeof *ks);
    struct qq_hit_stat *hs = calloc(cells, sizeof *hs);
    int rc = 0;
    if (!ks || !hs) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto out;
    }
    for (uint32_t n = 0; n < nn && rc == 0; n++) {
        struct qq_node_summary ns;
        /* One pass over the node's entries (streamed: checked as read). */
        if (qq_file_node_stats(f, n, &ns, ks + (size_t)n * nk, hs + (size_t)n * nk) != 0) {
            snprintf(err, errlen, "%s", qq_file_errmsg(f));
            rc = -1;
        }
        const struct qq_node_info *ni = qq_file_node(f, n);
        if (ni->dropped > 0 && c->failure == NULL) {
            /* Not a failure, but the numbers undercount: say so once. */
            char buf[160];
            snprintf(buf, sizeof buf, "node %u dropped %s (buffer full; raise QQ_EVENTS)", n,
                     QQB_COUNT(ni->dropped, "event"));
            c->failure = strdup(buf);
        }
    }
    c->mhz = qq_file_node(f, 0) ? qq_file_node(f, 0)->mhz : 0;
    double dropped = 0;
    for (uint32_t n = 0; n < nn; n++)
        dropped += (double)qq_file_node(f, n)->dropped;
    if (rc == 0)
        rc |= add(c, QQB_EVENTS_KEY, "dropped", dropped, err, errlen);
    /* Node 0's calibration: the launch's empty-state cost and step. */
    struct qq_calib cal;
    if (rc == 0 && nn > 0 && qq_file_calib(f, 0, &cal)) {
        rc |= add(c, QQB_TIMER_KEY, "empty", cal.empty_typical, err, errlen);
        rc |= add(c, QQB_TIMER_KEY, "step", cal.step, err, errlen);
    } else {
        memset(&cal, 0, sizeof cal);
    }
    for (uint32_t k = 0; k < nk && rc == 0; k++) {
        const struct qq_key_info *key = qq_file_key(f, k);
        if (!qqb_strv_selects(keys, nkeys, key->name))
            continue;
        rc |= collect_key(c, key, k, nk, nn, ks, hs, &cal, err, errlen);
    }
    if (rc == 0)
        rc = collect_threads(f, keys, nkeys, c, err, errlen);
    if (rc == 0)
        rc = collect_tunes(f, c, err, errlen);
    if (rc == 0 && collect_mem(f, c) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
out:
    free(hs);
    free(ks);
    return rc ? -1 : 0;
}
