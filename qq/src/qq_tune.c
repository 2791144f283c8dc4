/* qq_tune.c - QQTune: a parameter tuned in a program's first iterations, one candidate per rank,
 * agreed on and recorded in the file (docs/TUNE.md). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"

/* The records QQOut writes (TUNE sections), in the order they were made. */
struct tune_rec {
    char *name;
    uint32_t n, choice, nodes, reps;
    struct qq_tune_cand *cand;
};
static struct tune_rec *recs;
static uint32_t nrecs;

/* ---------------------------------------------------------------------
 * The planner's pure parts: which candidates a rank times, and the pick.
 * --------------------------------------------------------------------- */

int qq__tune_slots(int n, int size)
{
    return n < 1 || size < 1 ? 0 : (n + size - 1) / size;
}

int qq__tune_slot_index(int n, int rank, int size, int slot)
{
    /* Rank R times candidates R, R + SIZE, ...: every candidate is timed
     * by one rank, each rank has the same number of slots, so the ranks
     * reach the agreement together. A slot past the candidates times one
     * again (a second opinion, from another rank). */
    long i = (long)rank + (long)slot * size;
    return (int)(i % n);
}

int qq__tune_pick(const double *best, int n)
{
    int pick = 0;
    for (int i = 1; i < n; i++)
        if (best[i] < best[pick])
            pick = i; /* ties: the first listed */
    return pick;
}

void qq__tune_trials(int n, int reps, int rank, int size, qq__tune_timer timer, void *ctx,
                     double *best, uint32_t *runs)
{
    for (int i = 0; i < n; i++) {
        best[i] = DBL_MAX;
        runs[i] = 0;
    }
    int slots = qq__tune_slots(n, size);
    /* Round after round over the slots, not one candidate's repetitions in
     * a row: a slow spell (another process, a frequency step) then touches
     * one run of several candidates rather than every run of one. */
    for (int r = 0; r < reps; r++)
        for (int s = 0; s < slots; s++) {
            int i = qq__tune_slot_index(n, rank, size, s);
            double t = timer(i, ctx);
            if (t < best[i])
                best[i] = t; /* the fastest run: load only ever adds time */
            runs[i]++;
        }
}

/* ---------------------------------------------------------------------
 * The records.
 * --------------------------------------------------------------------- */

static void rec_free(struct tune_rec *r)
{
    free(r->name);
    free(r->cand);
}

/* Keep R (its memory taken over): replacing a record of the same name. */
static int rec_keep(struct tune_rec *r)
{
    for (uint32_t i = 0; i < nrecs; i++)
        if (strcmp(recs[i].name, r->name) == 0) {
            rec_free(&recs[i]);
            recs[i] = *r;
            return 0;
        }
    struct tune_rec *v = realloc(recs, (nrecs + 1) * sizeof *v);
    if (!v)
        return QQ_ENOMEM;
    recs = v;
    recs[nrecs++] = *r;
    return 0;
}

int qq__encode_tune(struct qq__buf *b)
{
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < nrecs; i++) {
        const struct tune_rec *r = &recs[i];
        size_t at;
        rc = qq__begin_section(b, QQ__TAG_TUNE, QQ__FILE_LEVEL, &at);
        rc = rc ? rc : qq__put_u32(b, (uint32_t)strlen(r->name));
        rc = rc ? rc : qq__put_u32(b, r->n);
        rc = rc ? rc : qq__put_u32(b, r->choice);
        rc = rc ? rc : qq__put_u32(b, r->nodes);
        rc = rc ? rc : qq__put_u32(b, r->reps);
        rc = rc ? rc : qq__put_u32(b, 0);
        rc = rc ? rc : qq__put_bytes(b, r->name, strlen(r->name));
        rc = rc ? rc : qq__put_pad8(b);
        for (uint32_t c = 0; rc == 0 && c < r->n; c++) {
            rc = qq__put_u64(b, (uint64_t)r->cand[c].value);
            rc = rc ? rc : qq__put_u32(b, r->cand[c].node);
            rc = rc ? rc : qq__put_u32(b, r->cand[c].runs);
            rc = rc ? rc : qq__put_f64(b, r->cand[c].seconds);
        }
        rc = rc ? rc : qq__end_section(b, at);
    }
    return rc;
}

void qq__tune_reset(void)
{
    for (uint32_t i = 0; i < nrecs; i++)
        rec_free(&recs[i]);
    free(recs);
    recs = NULL;
    nrecs = 0;
}

/* ---------------------------------------------------------------------
 * QQTune.
 * --------------------------------------------------------------------- */

struct real_ctx {
    const int *cand;
    void (*work)(int, void *);
    void *arg;
    const int *keys; /* a state per candidate, "NAME=VALUE" */
};

/* One call of the program's work with candidate I, under its state: the
 * state's interval is what the file shows, the same reads what we keep. */
static double real_timer(int i, void *p)
{
    const struct real_ctx *c = p;
    QQStateOn(c->keys[i]);
    uint64_t t0 = qq_ticks_open();
    c->work(c->cand[i], c->arg);
    uint64_t t1 = qq_ticks_close();
    QQStateOff(c->keys[i]);
    return (double)(t1 - t0);
}

static int add_states(const char *name, const int *cand, int n, int *keys)
{
    size_t len = strlen(name) + 32;
    char *buf = malloc(len);
    if (!buf)
        return QQ_ENOMEM;
    for (int i = 0; i < n; i++) {
        snprintf(buf, len, "%s=%d", name, cand[i]);
        keys[i] = QQAddState(buf);
    }
    free(buf);
    return 0;
}

/* The record of a finished tuning: BEST in ticks on this node, made
 * seconds with MHZ (ranks may count at different rates). */
static int record(const char *name, const int *cand, int n, int reps, int choice, int size,
                  const double *sec, const uint32_t *node, const uint32_t *runs)
{
    struct tune_rec r = {0};
    r.name = qq__name_clean(name);
    r.cand = calloc((size_t)n, sizeof *r.cand);
    if (!r.name || !r.cand) {
        rec_free(&r);
        return QQ_ENOMEM;
    }
    r.n = (uint32_t)n;
    r.choice = (uint32_t)choice;
    r.nodes = (uint32_t)size;
    r.reps = (uint32_t)reps;
    for (int i = 0; i < n; i++)
        r.cand[i] = (struct qq_tune_cand){cand[i], node[i], runs[i], sec[i]};
    int rc = rec_keep(&r);
    if (rc)
        rec_free(&r);
    return rc;
}

int qq_tune(const char *name, const int *candidates, int n, int reps,
            void (*work)(int value, void *arg), void *arg)
{
    if (!candidates || n < 1)
        return 0;
    if (!work || n == 1)
        return candidates[0];
    if (reps < 1)
        reps = 1;
    int rank = 0, size = 1;
#if defined(QQ__MPI) && QQ__MPI
    qq__tune_ranks(&rank, &size);
#endif
    double *best = malloc((size_t)n * sizeof *best);
    uint32_t *runs = malloc((size_t)n * sizeof *runs), *node = calloc((size_t)n, sizeof *node);
    int *keys = malloc((size_t)n * sizeof *keys);
    int bad = !best || !runs || !node || !keys || add_states(name ? name : "", candidates, n, keys);
    int choice = 0;
    if (!bad && best && runs && keys) {
        struct real_ctx c = {candidates, work, arg, keys};
        qq__tune_trials(n, reps, rank, size, real_timer, &c, best, runs);
        double mhz = qq__mhz > 0 ? qq__mhz : qq__measure_mhz();
        for (int i = 0; i < n; i++)
            if (runs[i] > 0)
                best[i] /= mhz > 0 ? mhz * 1e6 : 1e9;
    }
#if defined(QQ__MPI) && QQ__MPI
    /* Every rank takes its part, a rank that had no memory too (the
     * others would wait for it): then no rank records and all return the
     * first candidate. */
    if (size > 1)
        bad = qq__tune_agree(n, bad, best, node, runs, rank) != 0;
#endif
    if (!bad && best && node && runs) {
        choice = qq__tune_pick(best, n);
        record(name ? name : "", candidates, n, reps, choice, size, best, node, runs);
    }
    free(best);
    free(runs);
    free(node);
    free(keys);
    return candidates[choice];
}
