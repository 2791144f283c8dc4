/* test_whatif_stream.c - qqbench whatif reads each node forward once, in chunks: on random files
 * (collective waits, per-node waits, waits left open, nested waits, clock offsets) it predicts what
 * the whole-file re-lay it replaced predicted, to the tick, at every chunk size. */
#define QQ_ENABLE 1
#include <math.h>
#include <stdint.h>

#include "cmd_output.h"
#include "cmds.h"
#include "craft.h"
#include "qq.h"
#include "qq_file.h"
#include "test.h"

static int kcompute, ksync, kbarrier, kother, kmark, kcount, kvalue;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
    return test_rand(&rng);
}

/* ----------------------------------------------------------------------
 * The re-lay before streaming, kept as the oracle: the whole file in
 * memory, each node's entries indexed, a wait's off found by looking ahead.
 * ---------------------------------------------------------------------- */

struct ref_plan {
    const struct qq_event *e;
    uint64_t n, pos;
    double delta, factor, empty, offset, shift, first, last_new, last_old;
    int proportional;
    uint64_t nwait;
};

static uint64_t ref_advance(struct ref_plan *p, uint32_t key, const uint32_t *wait, int nwait,
                            int stop_at_wait)
{
    int depth_on = 0;
    double on_tick = 0;
    for (; p->pos < p->n; p->pos++) {
        const struct qq_event *e = &p->e[p->pos];
        if (e->key == key) {
            if (e->info.i == 1) {
                on_tick = (double)e->tick;
                depth_on = 1;
            } else if (depth_on) {
                double old = (double)e->tick - on_tick;
                double grown =
                    p->proportional
                        ? (old > p->empty ? p->empty + (old - p->empty) * p->factor : old)
                        : old + p->delta;
                p->shift += (grown < 0 ? 0 : grown) - old;
                depth_on = 0;
            }
        }
        p->last_new = (double)e->tick + p->shift;
        p->last_old = (double)e->tick;
        if (stop_at_wait && e->info.i == 1)
            for (int w = 0; w < nwait; w++)
                if (e->key == wait[w])
                    return p->pos++;
    }
    return UINT64_MAX;
}

static uint64_t ref_wait_end(const struct ref_plan *p, uint64_t on)
{
    for (uint64_t i = on + 1; i < p->n; i++)
        if (p->e[i].key == p->e[on].key && p->e[i].info.i == 0)
            return i;
    return UINT64_MAX;
}

/* Measured and predicted ticks of each node (at most 8), and whether the
 * waits were taken as collectives. */
static void ref_whatif(const char *path, uint32_t key, const uint32_t *wait, int nwaits, int mode,
                       double amount, double *old, double *new_, int *collective)
{
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open(path, &f), 0);
    uint32_t nn = qq_file_nnodes(f);
    struct ref_plan plan[8];
    struct qq_hit_stat hs[16];
    memset(plan, 0, sizeof plan);
    for (uint32_t r = 0; r < nn; r++) {
        struct ref_plan *p = &plan[r];
        p->e = qq_file_entries(f, r);
        p->n = qq_file_node(f, r)->entries;
        p->offset = (double)qq_file_node(f, r)->tick_offset;
        CHECK_INT_EQ(qq_file_hit_stats(f, r, hs), 0);
        double net = hs[key].net, target = mode == 1 ? amount * net : amount;
        p->delta = target - net;
        p->factor = net > 0 ? target / net : 1;
        p->empty = hs[key].raw - hs[key].net;
        p->proportional = hs[key].rule == QQ_HIT_P10 || hs[key].rule == QQ_HIT_MEDIAN;
        p->first = p->n ? (double)p->e[0].tick : 0;
        for (uint64_t i = 0; i < p->n; i++)
            for (int w = 0; w < nwaits; w++)
                p->nwait += p->e[i].key == wait[w] && p->e[i].info.i == 1;
    }
    *collective = nwaits > 0 && nn > 1;
    for (uint32_t r = 1; r < nn; r++)
        if (plan[r].nwait != plan[0].nwait)
            *collective = 0;
    if (*collective) {
        for (uint64_t k = 0; k < plan[0].nwait; k++) {
            uint64_t on[8], off[8];
            double arrive_old = -INFINITY, arrive_new = -INFINITY;
            int broken = 0;
            for (uint32_t r = 0; r < nn; r++) {
                on[r] = ref_advance(&plan[r], key, wait, nwaits, 1);
                off[r] = on[r] == UINT64_MAX ? UINT64_MAX : ref_wait_end(&plan[r], on[r]);
                if (off[r] == UINT64_MAX) {
                    broken = 1;
                    continue;
                }
                double t = (double)plan[r].e[on[r]].tick - plan[r].offset;
                arrive_old = t > arrive_old ? t : arrive_old;
                arrive_new = t + plan[r].shift > arrive_new ? t + plan[r].shift : arrive_new;
            }
            if (broken)
                break;
            for (uint32_t r = 0; r < nn; r++) {
                struct ref_plan *p = &plan[r];
                double t_on = (double)p->e[on[r]].tick - p->offset;
                double t_off = (double)p->e[off[r]].tick - p->offset;
                double new_off = arrive_new + (t_off - arrive_old);
                if (new_off < t_on + p->shift)
                    new_off = t_on + p->shift;
                p->pos = off[r];
                p->shift = new_off - t_off;
            }
        }
    } else if (nwaits) {
        for (uint32_t r = 0; r < nn; r++) {
            struct ref_plan *p = &plan[r];
            uint64_t on;
            while ((on = ref_advance(p, key, wait, nwaits, 1)) != UINT64_MAX) {
                uint64_t off = ref_wait_end(p, on);
                if (off == UINT64_MAX)
                    break;
                double t_on = (double)p->e[on].tick, t_off = (double)p->e[off].tick;
                double new_off = t_off > t_on + p->shift ? t_off : t_on + p->shift;
                p->pos = off;
                p->shift = new_off - t_off;
            }
        }
    }
    for (uint32_t r = 0; r < nn; r++) {
        ref_advance(&plan[r], key, wait, nwaits, 0);
        old[r] = plan[r].n ? plan[r].last_old - plan[r].first : 0;
        new_[r] = plan[r].n ? plan[r].last_new - plan[r].first : 0;
    }
    qq_file_close(f);
}

/* ---------------------------------------------------------------------- */

enum shape { EVEN, UNCLOSED, UNEVEN, NESTED, NSHAPES };

/* One node: compute intervals (a few left open), waits on sync or barrier
 * with events inside, other states, marks, counts and values. UNCLOSED
 * drops the off of a wait now and then; NESTED opens waits inside waits;
 * UNEVEN gives the node a number of waits of its own. */
static uint64_t make_node(struct qq_event *ev, uint64_t cap, enum shape shape, uint64_t waits)
{
    uint64_t n = 0, tick = 1000 + next_rand() % 4000, done = 0;
#define PUT(k, v)                                                                                  \
    do {                                                                                           \
        if (n < cap) {                                                                             \
            ev[n].key = (uint32_t)(k);                                                             \
            ev[n].info.i = (v);                                                                    \
            ev[n++].tick = tick;                                                                   \
        }                                                                                          \
    } while (0)
    while (n + 12 < cap) {
        uint64_t r = next_rand() % 100;
        tick += 1 + next_rand() % 50;
        if (r < 35) {
            PUT(kcompute, 1);
            tick += 1 + next_rand() % 3000;
            if (next_rand() % 40)
                PUT(kcompute, 0);
        } else if (r < 50 && done < waits) {
            int k = next_rand() % 5 ? ksync : kbarrier;
            PUT(k, 1);
            done++;
            for (uint64_t i = next_rand() % 4; i > 0; i--) {
                tick += 1 + next_rand() % 100;
                uint64_t what = next_rand() % 4;
                if (shape == NESTED && what == 0)
                    PUT(k, 1);
                else
                    PUT(what == 1   ? kcompute
                        : what == 2 ? kmark
                                    : kother,
                        (int64_t)(next_rand() % 2));
            }
            tick += 1 + next_rand() % 5000;
            if (shape != UNCLOSED || next_rand() % 50)
                PUT(k, 0);
        } else if (r < 60) {
            PUT(kmark, 0);
        } else if (r < 70) {
            PUT(kcount, (int64_t)(next_rand() % 200) - 100);
        } else if (r < 80) {
            double v = (double)(next_rand() % 1000) / 8;
            if (n < cap) {
                ev[n].key = (uint32_t)kvalue;
                ev[n].info.d = v;
                ev[n++].tick = tick;
            }
        } else {
            PUT(next_rand() % 2 ? kother : kcompute, (int64_t)(next_rand() % 2));
        }
    }
#undef PUT
    return n;
}

/* NN nodes of SHAPE written to PATH, node i's clock I x 97 - 150 ticks off
 * node 0's (the node table patched: craft writes no offsets). */
static void make_file(const char *path, uint32_t nn, enum shape shape)
{
    struct qq_event *ev[8];
    uint64_t n[8];
    uint64_t waits = 3 + next_rand() % 25; /* reached in about 400 entries */
    for (uint32_t i = 0; i < nn; i++) {
        uint64_t cap = 600 + next_rand() % 3000;
        ev[i] = calloc(cap, sizeof **ev);
        n[i] = make_node(ev[i], cap, shape, shape == UNEVEN && i ? waits + next_rand() % 3 : waits);
    }
    const struct qq_event *const *evc = (const struct qq_event *const *)ev;
    size_t len;
    unsigned char *p = craft(nn, evc, n, 0, &len);
    CHECK(p != NULL);
    if (!p)
        return;
    /* The node table: the section tagged NODE after the 64-byte header. */
    for (size_t at = 64; at + 16 <= len;) {
        uint64_t slen;
        memcpy(&slen, p + at + 8, sizeof slen);
        if (!memcmp(p + at, "NODE", 4))
            for (uint32_t i = 1; i < nn; i++)
                qq__store_u64(p + at + 16 + (size_t)i * QQ__NODE_RECORD + 48,
                              (uint64_t)((int64_t)i * 97 - 150));
        at += 16 + (size_t)slen;
    }
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fwrite(p, 1, len, fp) == len);
    if (fp)
        fclose(fp);
    (free)(p);
    for (uint32_t i = 0; i < nn; i++)
        free(ev[i]);
}

/* whatif's measured and predicted ticks of node NODE, as printed. */
static int printed_row(const char *out, uint32_t node, double *measured, double *predicted)
{
    char want[16];
    snprintf(want, sizeof want, "%u", node);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char name[16];
        if (sscanf(l, "%15s", name) == 1 && !strcmp(name, want))
            return sscanf(l, "%*s %*f %*f %lf %lf", measured, predicted) == 2 ? 0 : -1;
    }
    return -1;
}

static void test_same_as_whole_file_relay(void)
{
    static const size_t chunks[] = {24, 72, 1000, (size_t)1 << 18};
    static const char *const names[NSHAPES] = {"even", "unclosed", "uneven", "nested"};
    int runs = 0, collectives = 0;
    char out[16384];
    for (int trial = 0; trial < 48; trial++) {
        enum shape shape = (enum shape)(trial % NSHAPES);
        uint32_t nn = 1 + (uint32_t)(trial / NSHAPES) % 4;
        make_file("w.qq", nn, shape);
        /* The scaled key, the waiting keys, the change. */
        const char *scale = trial % 3 == 0   ? "compute=0.5"
                            : trial % 3 == 1 ? "compute=2"
                                             : "other=0";
        uint32_t key = trial % 3 == 2 ? (uint32_t)kother : (uint32_t)kcompute;
        uint32_t wait[2] = {(uint32_t)ksync, (uint32_t)kbarrier};
        int nwaits = trial % 4 == 3 ? 1 : 2;
        double amount = trial % 3 == 0 ? 0.5 : trial % 3 == 1 ? 2 : 0;
        double old[8], new_[8];
        int collective;
        ref_whatif("w.qq", key, wait, nwaits, 1, amount, old, new_, &collective);
        collectives += collective;
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            qq__read_chunk = chunks[c];
            char *argv[] = {"whatif", "w.qq",      "--scale", (char *)scale, "--waiting",
                            "Sync",   "--waiting", "Barrier", NULL};
            int argc = nwaits == 2 ? 8 : 6;
            argv[argc] = NULL;
            CHECK_INT_EQ(cmd_output(cmd_whatif, argc, argv, out, sizeof out), 0);
            CHECK(!strstr(out, "collective") == !collective);
            for (uint32_t r = 0; r < nn; r++) {
                double m = -1, p = -1;
                char want[64], got[64];
                CHECK_INT_EQ(printed_row(out, r, &m, &p), 0);
                snprintf(want, sizeof want, "%.0f %.0f", old[r], new_[r]);
                snprintf(got, sizeof got, "%.0f %.0f", m, p);
                if (strcmp(want, got) != 0)
                    TEST_FAIL_AT("trial %d (%s, %u nodes), chunk %zu, node %u: printed %s, the "
                                 "whole file's re-lay %s",
                                 trial, names[shape], nn, chunks[c], r, got, want);
            }
            runs++;
        }
    }
    qq__read_chunk = (size_t)1 << 18;
    printf("  %d runs, %d of 48 files collective\n", runs, collectives);
    CHECK(collectives >= 8); /* the lockstep is tried, not only the per-node walk */
}

int main(void)
{
    QQInit(10);
    kcompute = QQAddState("compute");
    ksync = QQAddState("Sync");
    kbarrier = QQAddState("Barrier");
    kother = QQAddState("other");
    kmark = QQAddMark("mark");
    kcount = QQAddCount("count");
    kvalue = QQAddValue("value");
    RUN(test_same_as_whole_file_relay);
    return TEST_DONE();
}
