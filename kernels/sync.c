/* sync.c - NCS MessageBus synchronisation (paper 4.2.1, Figure 6): end-of-step barrier vs the
 * event-horizon scheme. */
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "qq.h"
#include "kcommon.h"

#define PROG "sync"

/*
 * Each rank simulates --size cells; each cell is a soma fed by a passive
 * dendrite cable. The work per timestep (relaxation sweeps of the cables)
 * varies by rank and by time: a rank-shifted sinusoid plus seeded bursts, so
 * the slowest rank changes from step to step as in Figure 6. Every spike
 * sends a synapse firing to --fanout cells on other ranks, arriving
 * delay >= --min-delay timesteps later; the inputs received change later
 * spikes, so the spike pattern is a test of correct delivery.
 *
 * barrier: at every step end each rank sends one packet to every peer, then
 *   waits in MPI_Barrier (the "MessageBus::Sync" state), then receives.
 * horizon: every packet carries its SYNC timestep; NodeTime[p] is the last
 *   step peer p announced. After step t a rank drains what has arrived and
 *   waits (Iprobe/Recv loop, "MessageBus::Sync") only while some peer's
 *   NodeTime < t + 1 - min_delay: nothing a peer sends later can be due
 *   before t + min_delay, so the rank may run ahead that far.
 * Messages are applied at their delivery timestep in an order-independent
 * (integer) way, so both schemes produce the same spikes bit for bit.
 */

#define TAG_PKT   17
#define K_PI      3.14159265358979323846 /* M_PI is not ISO C */
#define ND        16                     /* dendrite compartments per cell */
#define DT        0.1                    /* ms */
#define TAU       10.0                   /* ms */
#define E_REST    (-65.0)
#define V_THRESH  (-52.0)
#define V_RESET   (-68.0)
#define W_UNIT    0.25 /* mV of dendritic input per weight unit */
#define DEND_K    0.2  /* cable coupling per sweep */
#define DEND_LEAK 0.02
#define SOMA_G    0.5 /* dendrite -> soma coupling (per ms) */

/* One synapse firing on the wire: six int32s. */
enum { M_SRC_RANK, M_SRC_CELL, M_SEND, M_DELIVER, M_DEST_CELL, M_WEIGHT, M_INTS };
/* Packet: [sync_step, count, count * M_INTS ints]. */
#define PKT_HEAD 2

struct target {
    int32_t rank, cell, delay, weight;
};

struct cell {
    double V;
    double dend[ND];
};

/* A packet being sent (its buffer lives until the send completes). */
struct outpkt {
    int32_t *buf;
    size_t len, cap;
};

struct sim {
    int rank, nranks;
    long ncells, steps, min_delay, max_delay, fanout, work;
    double imbalance;
    uint64_t seed;
    int horizon;
    struct cell *cells;
    struct target *targets; /* ncells * fanout */
    long ring_len;
    int32_t *ring;      /* ring_len * ncells: weight due per step, cell */
    struct outpkt *out; /* per peer rank: the packet being filled */
    /* horizon: sends in flight */
    MPI_Request *reqs;
    int32_t **req_bufs;
    size_t nreqs, reqs_cap;
    long *node_time; /* horizon: last step each peer announced */
    int32_t *rbuf;
    size_t rbuf_cap;
    /* results */
    uint64_t spike_sum, spikes, delivered, late;
    long last_done; /* last completed step */
};

static int qk_step, qk_compute, qk_sync, qk_spikes, qk_lead;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        kdie(PROG, "out of memory (%zu bytes)", n);
    return q;
}

static void outpkt_push(struct outpkt *o, const int32_t *msg)
{
    if (o->len + M_INTS > o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->buf = xrealloc(o->buf, o->cap * sizeof *o->buf);
    }
    memcpy(o->buf + o->len, msg, M_INTS * sizeof *msg);
    o->len += M_INTS;
}

static void outpkt_reset(struct outpkt *o, long sync_step)
{
    if (o->cap < PKT_HEAD) {
        o->cap = 64;
        o->buf = xrealloc(o->buf, o->cap * sizeof *o->buf);
    }
    o->buf[0] = (int32_t)sync_step;
    o->buf[1] = 0;
    o->len = PKT_HEAD;
}

/* Work units of RANK at step T: a sinusoid shifted by rank, plus bursts. */
static long step_work(const struct sim *s, long t)
{
    double phase = 2.0 * K_PI * ((double)t / 97.0 + (double)s->rank / s->nranks);
    double base = (double)(s->ncells * s->work);
    double w = base * (1.0 + s->imbalance * sin(phase));
    uint64_t h =
        kmix64(s->seed ^ kmix64(((uint64_t)s->rank << 40) ^ (uint64_t)t ^ UINT64_C(0x5bd1e995)));
    if (h % 50 == 0) /* a burst: 2% of steps */
        w += 2.0 * base;
    return w < 1.0 ? 1 : (long)w;
}

/* External drive of a cell at a step, from a hash: independent of order. */
static double ext_drive(const struct sim *s, long cell, long t)
{
    uint64_t h =
        kmix64(s->seed + kmix64(((uint64_t)(s->rank * s->ncells + cell) << 24) ^ (uint64_t)t));
    return 1.3 + 0.6 * ((double)(h >> 11) * 0x1.0p-53 - 0.5);
}

static void setup(struct sim *s)
{
    s->cells = kxcalloc(PROG, (size_t)s->ncells, sizeof *s->cells);
    s->targets = kxcalloc(PROG, (size_t)(s->ncells * s->fanout), sizeof *s->targets);
    s->ring_len = s->min_delay + s->max_delay + 2;
    s->ring = kxcalloc(PROG, (size_t)(s->ring_len * s->ncells), sizeof *s->ring);
    s->out = kxcalloc(PROG, (size_t)s->nranks, sizeof *s->out);
    s->node_time = kxcalloc(PROG, (size_t)s->nranks, sizeof *s->node_time);
    for (int p = 0; p < s->nranks; p++)
        s->node_time[p] = -1;
    struct krng r;
    krng_seed(&r, s->seed, 1000 + (uint64_t)s->rank);
    for (long c = 0; c < s->ncells; c++) {
        s->cells[c].V = E_REST + 10.0 * krng_uniform(&r);
        for (int i = 0; i < ND; i++)
            s->cells[c].dend[i] = 0.0;
        for (long f = 0; f < s->fanout; f++) {
            struct target *tg = &s->targets[c * s->fanout + f];
            if (s->nranks > 1) {
                /* Only other ranks: the traffic is what is studied. */
                int32_t off = 1 + (int32_t)krng_below(&r, (uint64_t)s->nranks - 1);
                tg->rank = (s->rank + off) % s->nranks;
            } else {
                tg->rank = 0;
            }
            tg->cell = (int32_t)krng_below(&r, (uint64_t)s->ncells);
            tg->delay =
                (int32_t)(s->min_delay +
                          (long)krng_below(&r, (uint64_t)(s->max_delay - s->min_delay + 1)));
            /* Mostly excitatory, some inhibitory: input changes spikes. */
            tg->weight = (int32_t)krng_below(&r, 12) - 3;
        }
    }
}

static void teardown(struct sim *s)
{
    for (int p = 0; p < s->nranks; p++)
        free(s->out[p].buf);
    free(s->out);
    free(s->cells);
    free(s->targets);
    free(s->ring);
    free(s->node_time);
    free(s->reqs);
    free(s->req_bufs);
    free(s->rbuf);
}

/* Compute step T: apply inputs due now, sweep cables, fire, queue messages. */
static void compute_step(struct sim *s, long t)
{
    long work = step_work(s, t);
    int32_t *due = &s->ring[(t % s->ring_len) * s->ncells];
    for (long c = 0; c < s->ncells; c++) {
        s->cells[c].dend[0] += W_UNIT * due[c];
        due[c] = 0;
    }
    /* The load: WORK cable sweeps spread over the cells. */
    for (long k = 0; k < work; k++) {
        struct cell *cl = &s->cells[k % s->ncells];
        double *d = cl->dend;
        double prev = d[0];
        d[0] += DEND_K * (d[1] - d[0]) - DEND_LEAK * d[0];
        for (int i = 1; i < ND - 1; i++) {
            double cur = d[i];
            d[i] += DEND_K * (prev - 2.0 * cur + d[i + 1]) - DEND_LEAK * cur;
            prev = cur;
        }
        d[ND - 1] += DEND_K * (prev - d[ND - 1]) - DEND_LEAK * d[ND - 1];
    }
    int nspk = 0;
    for (long c = 0; c < s->ncells; c++) {
        struct cell *cl = &s->cells[c];
        double din = cl->dend[ND / 2];
        cl->V += DT * (-(cl->V - E_REST) / TAU + SOMA_G * din + ext_drive(s, c, t));
        if (cl->V >= V_THRESH) {
            cl->V = V_RESET;
            nspk++;
            uint64_t gid = (uint64_t)s->rank * (uint64_t)s->ncells + (uint64_t)c;
            s->spike_sum += kmix64(((uint64_t)t << 32) ^ gid ^ UINT64_C(0xa5a5));
            s->spikes++;
            for (long f = 0; f < s->fanout; f++) {
                const struct target *tg = &s->targets[c * s->fanout + f];
                int32_t m[M_INTS];
                m[M_SRC_RANK] = s->rank;
                m[M_SRC_CELL] = (int32_t)c;
                m[M_SEND] = (int32_t)t;
                m[M_DELIVER] = (int32_t)(t + tg->delay);
                m[M_DEST_CELL] = tg->cell;
                m[M_WEIGHT] = tg->weight;
                outpkt_push(&s->out[tg->rank], m);
            }
        }
    }
    QQCount(qk_spikes, nspk);
}

/* File the messages of a received packet into the ring; returns its SYNC. */
static long absorb_packet(struct sim *s, const int32_t *pkt, int nints)
{
    if (nints < PKT_HEAD || (nints - PKT_HEAD) % M_INTS != 0 ||
        pkt[1] != (nints - PKT_HEAD) / M_INTS)
        kdie(PROG, "rank %d: malformed packet (%d ints)", s->rank, nints);
    const int32_t *m = pkt + PKT_HEAD;
    for (int32_t i = 0; i < pkt[1]; i++, m += M_INTS) {
        long d = m[M_DELIVER];
        if (d <= s->last_done) {
            s->late++; /* would be a protocol bug: checked at the end */
            continue;
        }
        if (d >= s->steps)
            continue; /* due after the run ends */
        if (d - s->last_done >= s->ring_len)
            kdie(PROG, "rank %d: message for step %ld too far ahead of %ld", s->rank, d,
                 s->last_done);
        s->ring[(d % s->ring_len) * s->ncells + m[M_DEST_CELL]] += m[M_WEIGHT];
        s->delivered++;
    }
    return pkt[0];
}

/* Receive one packet whose envelope is in ST. */
static void recv_packet(struct sim *s, MPI_Status *st)
{
    int n;
    MPI_Get_count(st, MPI_INT, &n);
    if ((size_t)n > s->rbuf_cap) {
        s->rbuf_cap = (size_t)n * 2;
        s->rbuf = xrealloc(s->rbuf, s->rbuf_cap * sizeof *s->rbuf);
    }
    MPI_Recv(s->rbuf, n, MPI_INT, st->MPI_SOURCE, TAG_PKT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long sync = absorb_packet(s, s->rbuf, n);
    int p = st->MPI_SOURCE;
    if (sync != s->node_time[p] + 1)
        kdie(PROG, "rank %d: packet from %d for step %ld, expected %ld", s->rank, p, sync,
             s->node_time[p] + 1);
    s->node_time[p] = sync;
}

/* Retire completed sends (horizon), freeing their buffers. */
static void reap_sends(struct sim *s, int wait_all)
{
    size_t k = 0;
    for (size_t i = 0; i < s->nreqs; i++) {
        int done = 0;
        if (wait_all) {
            MPI_Wait(&s->reqs[i], MPI_STATUS_IGNORE);
            done = 1;
        } else {
            MPI_Test(&s->reqs[i], &done, MPI_STATUS_IGNORE);
        }
        if (done) {
            free(s->req_bufs[i]);
        } else {
            s->reqs[k] = s->reqs[i];
            s->req_bufs[k] = s->req_bufs[i];
            k++;
        }
    }
    s->nreqs = k;
}

/* Send this step's packet to every peer (SYNC = T), even if empty. */
static void send_packets(struct sim *s, long t)
{
    for (int p = 0; p < s->nranks; p++) {
        if (p == s->rank)
            continue;
        struct outpkt *o = &s->out[p];
        o->buf[1] = (int32_t)((o->len - PKT_HEAD) / M_INTS);
        if (s->nreqs == s->reqs_cap) {
            s->reqs_cap = s->reqs_cap ? 2 * s->reqs_cap : 16;
            s->reqs = xrealloc(s->reqs, s->reqs_cap * sizeof *s->reqs);
            s->req_bufs = xrealloc(s->req_bufs, s->reqs_cap * sizeof *s->req_bufs);
        }
        /* The buffer travels with the request; the peer slot starts anew. */
        s->req_bufs[s->nreqs] = o->buf;
        MPI_Isend(o->buf, (int)o->len, MPI_INT, p, TAG_PKT, MPI_COMM_WORLD, &s->reqs[s->nreqs]);
        s->nreqs++;
        o->buf = NULL;
        o->cap = 0;
        outpkt_reset(o, t + 1);
    }
}

/* Smallest NodeTime over the peers (T when there are none). */
static long min_peer_time(const struct sim *s, long t)
{
    long m = t;
    for (int p = 0; p < s->nranks; p++)
        if (p != s->rank && s->node_time[p] < m)
            m = s->node_time[p];
    return m;
}

static void run(struct sim *s)
{
    for (int p = 0; p < s->nranks; p++)
        outpkt_reset(&s->out[p], 0);
    s->last_done = -1;
    for (long t = 0; t < s->steps; t++) {
        QQStateOn(qk_step);
        QQStateOn(qk_compute);
        compute_step(s, t);
        QQStateOff(qk_compute);
        /* Self-targeted firings (one rank only) never touch the network. */
        if (s->nranks == 1) {
            struct outpkt *o = &s->out[0];
            o->buf[1] = (int32_t)((o->len - PKT_HEAD) / M_INTS);
            s->last_done = t;
            absorb_packet(s, o->buf, (int)o->len);
            outpkt_reset(o, t + 1);
        } else {
            send_packets(s, t);
        }
        s->last_done = t;
        if (!s->horizon) {
            QQStateOn(qk_sync);
            MPI_Barrier(MPI_COMM_WORLD);
            QQStateOff(qk_sync);
            for (int p = 0; p < s->nranks; p++) {
                if (p == s->rank)
                    continue;
                MPI_Status st;
                MPI_Probe(p, TAG_PKT, MPI_COMM_WORLD, &st);
                recv_packet(s, &st);
            }
            reap_sends(s, 1);
            QQCount(qk_lead, 0);
        } else {
            /*
             * Before step t+1 we need every firing due at t+1: it was sent
             * at a step <= t+1-min_delay. On the last step we need all.
             */
            long need = t + 1 < s->steps ? t + 1 - s->min_delay : s->steps - 1;
            QQStateOn(qk_sync);
            for (;;) {
                int flag;
                MPI_Status st;
                MPI_Iprobe(MPI_ANY_SOURCE, TAG_PKT, MPI_COMM_WORLD, &flag, &st);
                if (flag) {
                    recv_packet(s, &st);
                    continue;
                }
                if (min_peer_time(s, t) >= need)
                    break;
                sched_yield();
            }
            QQStateOff(qk_sync);
            reap_sends(s, t + 1 == s->steps);
            QQCount(qk_lead, (int)(t - min_peer_time(s, t)));
        }
        QQStateOff(qk_step);
    }
    reap_sends(s, 1);
}

static const char *const variants[] = {"barrier", "horizon", NULL};

int main(int argc, char **argv)
{
    int provided_rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &provided_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    static long min_delay = 10, delay_spread = 10, fanout = 4, work = 8;
    static double imbalance = 0.6;
    static const struct kopt extra[] = {
        {"min-delay", KOPT_LONG, &min_delay, 1,
         "minimum synaptic delay dt_min in timesteps (default 10)"},
        {"delay-spread", KOPT_LONG, &delay_spread, 0,
         "delays are dt_min .. dt_min+spread (default 10)"},
        {"fanout", KOPT_LONG, &fanout, 0, "synapses per cell (default 4)"},
        {"work", KOPT_LONG, &work, 1, "mean cable sweeps per cell per step (default 8)"},
        {"imbalance", KOPT_DOUBLE, &imbalance, 0,
         "amplitude of the per-rank load sinusoid, 0..1 (default 0.6)"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "NCS MessageBus synchronisation (MPI). Each rank simulates --size "
                   "cells (soma + dendrite\ncable) with a load that varies by rank "
                   "and time; spikes send firings to cells on\nother ranks with "
                   "delay >= --min-delay steps. barrier: MPI_Barrier after every "
                   "step.\nhorizon: event horizon: packets carry SYNC steps, a rank "
                   "runs ahead up to dt_min\nsteps and waits only for peers more "
                   "than dt_min behind. Same spikes either way.\nRun: mpirun -np 4 "
                   "--oversubscribe sync --variant horizon --print",
        .keys = "  states  step, compute, MessageBus::Sync (barrier wait / "
                "horizon drain+wait)\n  counts  spikes (per step), lead "
                "(horizon: steps ahead of the slowest peer)",
        .variants = variants,
        .size_default = 64,
        .steps_default = 1000,
        .extra = extra,
    };
    struct kargs a;
    int prc = kargs_parse(&spec, argc, argv, &a, provided_rank != 0);
    if (prc == KARGS_OK && imbalance > 1.0) {
        if (provided_rank == 0)
            fprintf(stderr, "%s: --imbalance must be in 0..1\n", PROG);
        prc = KARGS_ERROR;
    }
    if (prc != KARGS_OK) {
        MPI_Finalize();
        return prc == KARGS_HELP ? 0 : 2;
    }

    struct sim s;
    memset(&s, 0, sizeof s);
    s.rank = provided_rank;
    s.nranks = nranks;
    s.ncells = a.size;
    s.steps = a.steps;
    s.min_delay = min_delay;
    s.max_delay = min_delay + delay_spread;
    s.fanout = fanout;
    s.work = work;
    s.imbalance = imbalance;
    s.seed = a.seed;
    s.horizon = a.variant_index == 1;
    setup(&s);

    QQInit(kqq_events((uint64_t)a.steps * 12 + 64));
    qk_step = QQAddState("step");
    qk_compute = QQAddState("compute");
    qk_sync = QQAddState("MessageBus::Sync");
    qk_spikes = QQAddCount("spikes");
    qk_lead = QQAddCount("lead");
    QQBaseTime();

    run(&s);

    /* Every rank has received exactly one packet per step from every peer,
     * and every send is complete: nothing is left unmatched. */
    int bad = 0;
    for (int p = 0; p < nranks; p++)
        if (p != s.rank && s.node_time[p] != s.steps - 1)
            bad = 1;
    if (s.late)
        bad = 1;
    if (bad)
        fprintf(stderr, "%s: rank %d: protocol error (%llu late messages)\n", PROG, s.rank,
                (unsigned long long)s.late);

    uint64_t local[4] = {s.spike_sum, s.spikes, s.delivered, (uint64_t)bad};
    uint64_t total[4];
    MPI_Reduce(local, total, 4, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);

    int rc = kqq_out(PROG, "sync.qq", s.rank, nranks);
    if (s.rank == 0 && a.print) {
        uint64_t d = kdigest_u64(kdigest_u64(KDIGEST_INIT, total[0]), total[1]);
        printf("variant %s\nranks %d\ncells %ld\nsteps %ld\nseed %llu\n", a.variant, nranks,
               s.ncells, s.steps, (unsigned long long)a.seed);
        printf("spikes %llu\nmessages %llu\ndigest %016llx\n", (unsigned long long)total[1],
               (unsigned long long)total[2], (unsigned long long)d);
    }
    int err = rc || bad || (s.rank == 0 && total[3] != 0);
    teardown(&s);
    MPI_Finalize();
    return err ? 1 : 0;
}
