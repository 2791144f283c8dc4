/* msg_pack.c - NCS synapse-firing message passing (paper 4.2.1, slide 35): NCS3's 60-byte layered
 * messages vs NCS5's 20-byte packed packets. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "qq.h"
#include "kcommon.h"
/* After every system header (and mpi.h): malloc & co are recorded. */
#include "qq_mem.h"

#define PROG "msg_pack"

/*
 * Each rank owns --size synapses whose target cells live on other ranks.
 * Every timestep a seeded pseudo-random fraction (--rate, < 1%) of them
 * fire; each firing must reach its destination rank.
 *
 * ncs3: a 60-byte message object pre-allocated for every synapse (type
 *   field, addresses, time, weight, padding). A firing writes its object,
 *   which is copied by the MessageMgr, by the MessageBus, into the send
 *   buffer, then sent as an individual MPI message (after a count per
 *   destination). The receiver copies each into its bus queue, checks the
 *   type, copies it to the MessageMgr and reads it.
 * ncs5: a 20-byte firing record written once, straight into a 1 KB packet
 *   taken from a shared pool that grows as needed; packets are sent per
 *   destination (the last of a step flagged) and read once on arrival.
 *
 * Both variants deliver the same firings: each receiver sums a hash of
 * (source rank, synapse, destination cell, timestep) - a sum, so the
 * order of arrival does not matter - and rank 0 prints the reduction.
 */

static int key_messages, key_packets;
static int qk_pack, qk_send, qk_recv, qk_unpack, qk_bytes;

#define TAG_COUNT  21
#define TAG_MSG    22
#define TAG_PKT    23
#define MSG_FIRING 1 /* NCS3's type field: firing (vs stimulus, report) */

/* NCS3's message object: 60 bytes. */
struct msg60 {
    int32_t type;
    int32_t src_rank, src_syn;
    int32_t dest_rank, dest_cell;
    int32_t step, delay;
    float weight;
    unsigned char pad[28]; /* the fields NCS3 carried for other uses */
};
_Static_assert(sizeof(struct msg60) == 60, "NCS3 messages are 60 bytes");

/* NCS5's firing record: 20 bytes; the source rank is the packet's. */
struct msg20 {
    int32_t src_syn, dest_cell, step, delay;
    float weight;
};
_Static_assert(sizeof(struct msg20) == 20, "NCS5 messages are 20 bytes");

#define PACKET_BYTES 1024
struct packet {
    int32_t count, last;
    struct msg20 msg[(PACKET_BYTES - 2 * sizeof(int32_t)) / sizeof(struct msg20)];
    struct packet *next; /* pool / queue link (not sent) */
};
#define PACKET_CAP ((int)(sizeof(((struct packet *)0)->msg) / sizeof(struct msg20)))

struct syn {
    int32_t dest_rank, dest_cell, delay;
    float weight;
};

struct result {
    uint64_t hash_sum, received, sent, bytes;
    double input_sum;
};

struct ctx {
    int rank, nranks;
    long nsyn, ncells, steps;
    double rate;
    struct syn *syn;    /* scaffolding (kxcalloc) */
    double *cell_input; /* per local cell */
    struct krng fire_rng;
    int32_t *firing; /* this step's firing synapses */
    long nfiring;
    struct result res;
    /* The application signature (docs/MODELS.md): bytes the NCS3 pack
     * layers move (each copy read and written), messages received. */
    uint64_t sig_pack_bytes, sig_msgs, sig_msg_bytes;
};

/* Grow an array under memory key KEY (the MessageMgr and MessageBus queues
 * of NCS3, all under "messages"). */
static void *grow(int key, void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = MemRealloc(key, p, n * elem);
    if (!q)
        kdie(PROG, "out of memory");
    *cap = n;
    return q;
}

static uint64_t firing_hash(int src_rank, int32_t syn, int32_t cell, int32_t step)
{
    return kmix64(((uint64_t)(uint32_t)src_rank << 48) ^ ((uint64_t)(uint32_t)syn << 20) ^
                  kmix64(((uint64_t)(uint32_t)cell << 32) | (uint32_t)step));
}

/* The receiver's use of a firing: read once, into the cell's input. */
static void deliver(struct ctx *c, int src_rank, int32_t syn, int32_t cell, int32_t step,
                    float weight)
{
    if (cell < 0 || cell >= c->ncells)
        kdie(PROG, "rank %d: firing for cell %d out of range", c->rank, (int)cell);
    c->cell_input[cell] += weight;
    c->res.hash_sum += firing_hash(src_rank, syn, cell, step);
    c->res.received++;
}

/* Choose this step's firing synapses: geometric gaps, same for both variants. */
static void choose_firings(struct ctx *c)
{
    c->nfiring = 0;
    if (c->rate <= 0.0)
        return;
    /* Gaps between firings are geometric: P(gap = k) = (1-p)^(k-1) p,
     * drawn by inversion. */
    double lq = log1p(-c->rate);
    long i = -1;
    for (;;) {
        double u = krng_uniform(&c->fire_rng);
        double g = c->rate >= 1.0 ? 0.0 : floor(log1p(-u) / lq);
        if (g >= (double)(c->nsyn - i))
            break;
        i += 1 + (long)g;
        if (i >= c->nsyn)
            break;
        c->firing[c->nfiring++] = (int32_t)i;
    }
}

/* ====================================================================== */
#undef MEM_KEY
#define MEM_KEY key_messages

struct ncs3 {
    struct msg60 *objects; /* one per synapse, pre-allocated */
    struct msg60 *mgr_q;   /* MessageMgr queue */
    size_t mgr_cap;
    struct msg60 **bus_q; /* MessageBus queue per destination */
    size_t *bus_cap, *bus_len;
    struct msg60 **send_buf; /* send buffer per destination */
    size_t *send_cap;
    int32_t *counts_out, *counts_in;
    struct msg60 *recv_buf;
    size_t recv_cap;
    struct msg60 *rbus_q; /* receiving MessageBus queue */
    size_t rbus_cap;
    MPI_Request *reqs;
    size_t reqs_cap;
};

static void ncs3_init(struct ncs3 *n, const struct ctx *c)
{
    memset(n, 0, sizeof *n);
    size_t P = (size_t)c->nranks;
    n->objects = calloc((size_t)c->nsyn, sizeof *n->objects);
    n->bus_q = calloc(P, sizeof *n->bus_q);
    n->bus_cap = calloc(P, sizeof *n->bus_cap);
    n->bus_len = calloc(P, sizeof *n->bus_len);
    n->send_buf = calloc(P, sizeof *n->send_buf);
    n->send_cap = calloc(P, sizeof *n->send_cap);
    n->counts_out = calloc(P, sizeof *n->counts_out);
    n->counts_in = calloc(P, sizeof *n->counts_in);
    if (!n->objects || !n->bus_q || !n->bus_cap || !n->bus_len || !n->send_buf || !n->send_cap ||
        !n->counts_out || !n->counts_in)
        kdie(PROG, "out of memory");
}

static void ncs3_fini(struct ncs3 *n, const struct ctx *c)
{
    for (int p = 0; p < c->nranks; p++) {
        free(n->bus_q[p]);
        free(n->send_buf[p]);
    }
    free(n->objects);
    free(n->mgr_q);
    free(n->bus_q);
    free(n->bus_cap);
    free(n->bus_len);
    free(n->send_buf);
    free(n->send_cap);
    free(n->counts_out);
    free(n->counts_in);
    free(n->recv_buf);
    free(n->rbus_q);
    free(n->reqs);
}

static void ncs3_step(struct ncs3 *n, struct ctx *c, int32_t step)
{
    int P = c->nranks;
    uint64_t bytes = 0;

    QQStateOn(qk_pack);
    /* Layer 1: each firing synapse fills its own message object. */
    for (long k = 0; k < c->nfiring; k++) {
        int32_t s = c->firing[k];
        struct msg60 *m = &n->objects[s];
        m->type = MSG_FIRING;
        m->src_rank = c->rank;
        m->src_syn = s;
        m->dest_rank = c->syn[s].dest_rank;
        m->dest_cell = c->syn[s].dest_cell;
        m->step = step;
        m->delay = c->syn[s].delay;
        m->weight = c->syn[s].weight;
        memset(m->pad, 0, sizeof m->pad);
    }
    /* Layer 2: the MessageMgr copies them into its queue. */
    n->mgr_q = grow(key_messages, n->mgr_q, &n->mgr_cap, (size_t)c->nfiring + 1, sizeof *n->mgr_q);
    for (long k = 0; k < c->nfiring; k++)
        memcpy(&n->mgr_q[k], &n->objects[c->firing[k]], sizeof(struct msg60));
    /* Layer 3: the MessageBus sorts copies by destination. */
    for (int p = 0; p < P; p++)
        n->bus_len[p] = 0;
    for (long k = 0; k < c->nfiring; k++) {
        int p = n->mgr_q[k].dest_rank;
        n->bus_q[p] =
            grow(key_messages, n->bus_q[p], &n->bus_cap[p], n->bus_len[p] + 1, sizeof **n->bus_q);
        memcpy(&n->bus_q[p][n->bus_len[p]++], &n->mgr_q[k], sizeof(struct msg60));
    }
    /* Layer 4: copies into the send buffers. */
    for (int p = 0; p < P; p++) {
        n->send_buf[p] = grow(key_messages, n->send_buf[p], &n->send_cap[p], n->bus_len[p] + 1,
                              sizeof **n->send_buf);
        if (n->bus_len[p]) /* bus_q[p] is NULL until p gets a message */
            memcpy(n->send_buf[p], n->bus_q[p], n->bus_len[p] * sizeof(struct msg60));
        n->counts_out[p] = (int32_t)n->bus_len[p];
    }
    QQStateOff(qk_pack);
    /* the objects written, then three copies, each read and written */
    c->sig_pack_bytes += 7 * sizeof(struct msg60) * (uint64_t)c->nfiring;

    QQStateOn(qk_send);
    size_t nreq = 0;
    n->reqs = grow(key_messages, n->reqs, &n->reqs_cap, (size_t)(c->nfiring + P), sizeof *n->reqs);
    for (int p = 0; p < P; p++) {
        MPI_Isend(&n->counts_out[p], 1, MPI_INT32_T, p, TAG_COUNT, MPI_COMM_WORLD,
                  &n->reqs[nreq++]);
        bytes += sizeof(int32_t);
        /* Every message on its own. */
        for (int32_t k = 0; k < n->counts_out[p]; k++) {
            MPI_Isend(&n->send_buf[p][k], (int)sizeof(struct msg60), MPI_BYTE, p, TAG_MSG,
                      MPI_COMM_WORLD, &n->reqs[nreq++]);
            bytes += sizeof(struct msg60);
        }
    }
    c->res.sent += (uint64_t)c->nfiring;
    QQStateOff(qk_send);

    QQStateOn(qk_recv);
    size_t total = 0;
    for (int p = 0; p < P; p++) {
        MPI_Recv(&n->counts_in[p], 1, MPI_INT32_T, p, TAG_COUNT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        c->sig_msgs += 1 + (uint64_t)n->counts_in[p];
        c->sig_msg_bytes += sizeof(int32_t) + (uint64_t)n->counts_in[p] * sizeof(struct msg60);
        n->recv_buf = grow(key_messages, n->recv_buf, &n->recv_cap,
                           total + (size_t)n->counts_in[p] + 1, sizeof *n->recv_buf);
        for (int32_t k = 0; k < n->counts_in[p]; k++)
            MPI_Recv(&n->recv_buf[total++], (int)sizeof(struct msg60), MPI_BYTE, p, TAG_MSG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Waitall((int)nreq, n->reqs, MPI_STATUSES_IGNORE);
    QQStateOff(qk_recv);

    QQStateOn(qk_unpack);
    /* The receiving bus copies and checks the type, the MessageMgr copies
     * again and reads the firing. */
    n->rbus_q = grow(key_messages, n->rbus_q, &n->rbus_cap, total + 1, sizeof *n->rbus_q);
    memcpy(n->rbus_q, n->recv_buf, total * sizeof(struct msg60));
    for (size_t k = 0; k < total; k++) {
        if (n->rbus_q[k].type != MSG_FIRING)
            kdie(PROG, "rank %d: message of type %d", c->rank, (int)n->rbus_q[k].type);
        struct msg60 m;
        memcpy(&m, &n->rbus_q[k], sizeof m);
        if (m.dest_rank != c->rank)
            kdie(PROG, "rank %d: message for rank %d", c->rank, (int)m.dest_rank);
        deliver(c, m.src_rank, m.src_syn, m.dest_cell, m.step, m.weight);
    }
    QQStateOff(qk_unpack);

    c->res.bytes += bytes;
    QQCount(qk_bytes, (int)bytes);
}

/* ====================================================================== */
#undef MEM_KEY
#define MEM_KEY key_packets

struct ncs5 {
    struct packet *pool; /* free packets */
    long npackets;       /* allocated so far */
    struct packet **cur; /* per destination: being filled (queue head) */
    struct packet **tail;
    MPI_Request *reqs;
    struct packet **req_pkt;
    size_t reqs_cap;
    struct packet *received; /* this step's received packets */
};

static struct packet *packet_get(struct ncs5 *n)
{
    struct packet *p = n->pool;
    if (p) {
        n->pool = p->next;
    } else {
        /* The pool grows as needed: one 1 KB packet at a time. */
        p = malloc(sizeof *p);
        if (!p)
            kdie(PROG, "out of memory");
        n->npackets++;
    }
    p->count = 0;
    p->last = 0;
    p->next = NULL;
    return p;
}

static void packet_put(struct ncs5 *n, struct packet *p)
{
    p->next = n->pool;
    n->pool = p;
}

static void ncs5_init(struct ncs5 *n, const struct ctx *c)
{
    memset(n, 0, sizeof *n);
    n->cur = calloc((size_t)c->nranks, sizeof *n->cur);
    n->tail = calloc((size_t)c->nranks, sizeof *n->tail);
    if (!n->cur || !n->tail)
        kdie(PROG, "out of memory");
}

static void ncs5_fini(struct ncs5 *n)
{
    while (n->pool) {
        struct packet *p = n->pool;
        n->pool = p->next;
        free(p);
    }
    free(n->cur);
    free(n->tail);
    free(n->reqs);
    free(n->req_pkt);
}

#define PKT_WIRE(p) (2 * (int)sizeof(int32_t) + (p)->count * (int)sizeof(struct msg20))

static void ncs5_step(struct ncs5 *n, struct ctx *c, int32_t step)
{
    int P = c->nranks;
    uint64_t bytes = 0;

    QQStateOn(qk_pack);
    for (int p = 0; p < P; p++)
        n->cur[p] = n->tail[p] = packet_get(n);
    /* Each firing is written once, into its destination's packet. */
    for (long k = 0; k < c->nfiring; k++) {
        int32_t s = c->firing[k];
        const struct syn *sy = &c->syn[s];
        struct packet *pk = n->tail[sy->dest_rank];
        if (pk->count == PACKET_CAP) {
            pk->next = packet_get(n);
            pk = n->tail[sy->dest_rank] = pk->next;
        }
        struct msg20 *m = &pk->msg[pk->count++];
        m->src_syn = s;
        m->dest_cell = sy->dest_cell;
        m->step = step;
        m->delay = sy->delay;
        m->weight = sy->weight;
    }
    QQStateOff(qk_pack);

    QQStateOn(qk_send);
    size_t nreq = 0;
    for (int p = 0; p < P; p++) {
        n->tail[p]->last = 1;
        for (struct packet *pk = n->cur[p]; pk; pk = pk->next) {
            if (nreq == n->reqs_cap) {
                n->reqs_cap = n->reqs_cap ? 2 * n->reqs_cap : 16;
                n->reqs = realloc(n->reqs, n->reqs_cap * sizeof *n->reqs);
                n->req_pkt = realloc(n->req_pkt, n->reqs_cap * sizeof *n->req_pkt);
                if (!n->reqs || !n->req_pkt)
                    kdie(PROG, "out of memory");
            }
            n->req_pkt[nreq] = pk;
            MPI_Isend(pk, PKT_WIRE(pk), MPI_BYTE, p, TAG_PKT, MPI_COMM_WORLD, &n->reqs[nreq++]);
            bytes += (uint64_t)PKT_WIRE(pk);
        }
    }
    c->res.sent += (uint64_t)c->nfiring;
    QQStateOff(qk_send);

    QQStateOn(qk_recv);
    struct packet **rtail = &n->received;
    for (int p = 0; p < P; p++) {
        int last = 0;
        while (!last) {
            struct packet *pk = packet_get(n);
            MPI_Status st;
            int nb;
            MPI_Recv(pk, (int)offsetof(struct packet, next), MPI_BYTE, p, TAG_PKT, MPI_COMM_WORLD,
                     &st);
            MPI_Get_count(&st, MPI_BYTE, &nb);
            c->sig_msgs++;
            c->sig_msg_bytes += (uint64_t)(nb > 0 ? nb : 0);
            if (nb < 8 || pk->count < 0 || pk->count > PACKET_CAP || nb != PKT_WIRE(pk))
                kdie(PROG, "rank %d: malformed packet from %d", c->rank, p);
            last = pk->last;
            pk->last = p; /* remember the source for unpacking */
            *rtail = pk;
            rtail = &pk->next;
        }
    }
    MPI_Waitall((int)nreq, n->reqs, MPI_STATUSES_IGNORE);
    for (size_t k = 0; k < nreq; k++)
        packet_put(n, n->req_pkt[k]);
    QQStateOff(qk_recv);

    QQStateOn(qk_unpack);
    /* Each firing is read once, where it is used. */
    while (n->received) {
        struct packet *pk = n->received;
        n->received = pk->next;
        for (int32_t k = 0; k < pk->count; k++) {
            const struct msg20 *m = &pk->msg[k];
            deliver(c, pk->last, m->src_syn, m->dest_cell, m->step, m->weight);
        }
        packet_put(n, pk);
    }
    QQStateOff(qk_unpack);

    c->res.bytes += bytes;
    QQCount(qk_bytes, (int)bytes);
}

/* ====================================================================== */

static const char *const variants[] = {"ncs3", "ncs5", NULL};

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    static long cells = 1000;
    static double rate = 0.005;
    static int mem = 0;
    static const struct kopt extra[] = {
        {"cells", KOPT_LONG, &cells, 1, "target cells per rank (default 1000)"},
        {"rate", KOPT_DOUBLE, &rate, 0,
         "firing probability per synapse and step, 0..0.5 (default 0.005)"},
        {"mem", KOPT_FLAG, &mem, 0, "rank 0 prints its MemPrint table"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "NCS synapse-firing messages (MPI). Each rank owns --size synapses "
                   "targeting cells on\nother ranks; each step a seeded --rate of them "
                   "fire. ncs3: 60-byte message objects\npre-allocated per synapse, "
                   "copied through MessageMgr, MessageBus and send buffer,\nsent one "
                   "MPI message each. ncs5: 20-byte records written once into 1 KB "
                   "pooled\npackets per destination, read once. Same firings "
                   "delivered either way.\nRun: mpirun -np 4 --oversubscribe msg_pack "
                   "--variant ncs5 --print",
        .keys = "  states  pack, send, recv, unpack\n  count   bytes_sent (per "
                "step)\n  memory  messages (NCS3 objects and queues), packets "
                "(NCS5 pool)",
        .variants = variants,
        .size_default = 10000,
        .steps_default = 500,
        .extra = extra,
    };
    struct kargs a;
    int prc = kargs_parse(&spec, argc, argv, &a, rank != 0);
    if (prc == KARGS_OK && (rate < 0.0 || rate > 0.5)) {
        if (rank == 0)
            fprintf(stderr, "%s: --rate must be in 0..0.5\n", PROG);
        prc = KARGS_ERROR;
    }
    if (prc == KARGS_OK && (a.size > INT32_MAX / 2 || cells > INT32_MAX / 2)) {
        if (rank == 0)
            fprintf(stderr, "%s: sizes too large\n", PROG);
        prc = KARGS_ERROR;
    }
    if (prc != KARGS_OK) {
        MPI_Finalize();
        return prc == KARGS_HELP ? 0 : 2;
    }

    key_messages = MemAddKey("messages");
    key_packets = MemAddKey("packets");

    struct ctx c;
    memset(&c, 0, sizeof c);
    c.rank = rank;
    c.nranks = nranks;
    c.nsyn = a.size;
    c.ncells = cells;
    c.steps = a.steps;
    c.rate = rate;
    c.syn = kxcalloc(PROG, (size_t)c.nsyn, sizeof *c.syn);
    c.cell_input = kxcalloc(PROG, (size_t)c.ncells, sizeof *c.cell_input);
    c.firing = kxcalloc(PROG, (size_t)c.nsyn, sizeof *c.firing);
    struct krng r;
    krng_seed(&r, a.seed, 100 + (uint64_t)rank);
    for (long i = 0; i < c.nsyn; i++) {
        int32_t dest = rank;
        if (nranks > 1)
            dest = (int32_t)((rank + 1 + (int)krng_below(&r, (uint64_t)nranks - 1)) % nranks);
        c.syn[i].dest_rank = dest;
        c.syn[i].dest_cell = (int32_t)krng_below(&r, (uint64_t)c.ncells);
        c.syn[i].delay = 10 + (int32_t)krng_below(&r, 20);
        c.syn[i].weight = (float)(0.1 + krng_uniform(&r));
    }
    krng_seed(&c.fire_rng, a.seed, 200 + (uint64_t)rank);

    int ncs5 = a.variant_index == 1;
    struct ncs3 n3;
    struct ncs5 n5;
    if (ncs5)
        ncs5_init(&n5, &c);
    else
        ncs3_init(&n3, &c);

    QQInit(kqq_events((uint64_t)a.steps * 10 + 64));
    qk_pack = QQAddState("pack");
    qk_send = QQAddState("send");
    qk_recv = QQAddState("recv");
    qk_unpack = QQAddState("unpack");
    qk_bytes = QQAddCount("bytes_sent");
    int qk_sig_pack = QQAddCount("sig:pack:bytes"), qk_sig_ws = QQAddCount("sig:pack:working_set");
    int qk_sig_msgs = QQAddCount("sig:recv:messages");
    int qk_sig_mbytes = QQAddCount("sig:recv:message_bytes");
    QQBaseTime();

    for (long t = 0; t < a.steps; t++) {
        choose_firings(&c);
        if (ncs5)
            ncs5_step(&n5, &c, (int32_t)t);
        else
            ncs3_step(&n3, &c, (int32_t)t);
    }

    uint64_t local[4] = {c.res.hash_sum, c.res.received, c.res.sent, c.res.bytes};
    uint64_t total[4];
    MPI_Reduce(local, total, 4, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);

    kqq_signature(qk_sig_pack, c.sig_pack_bytes);
    /* the pack layers' queues: a step's firings in four copies */
    kqq_signature(qk_sig_ws, c.sig_pack_bytes ? 4 * sizeof(struct msg60) *
                                                    (uint64_t)(c.rate * (double)c.nsyn + 1)
                                              : 0);
    kqq_signature(qk_sig_msgs, c.sig_msgs);
    kqq_signature(qk_sig_mbytes, c.sig_msg_bytes);
    /* Output while the buffers are live, so the memory table shows them. */
    int rc = kqq_out(PROG, "msg_pack.qq", rank, nranks);
    if (rank == 0 && a.print) {
        uint64_t d = kdigest_u64(kdigest_u64(KDIGEST_INIT, total[0]), total[1]);
        printf("variant %s\nranks %d\nsynapses %ld\nsteps %ld\nseed %llu\n", a.variant, nranks,
               c.nsyn, c.steps, (unsigned long long)a.seed);
        printf("sent %llu\nreceived %llu\nbytes_sent %llu\n", (unsigned long long)total[2],
               (unsigned long long)total[1], (unsigned long long)total[3]);
        if (ncs5)
            printf("packets_rank0 %ld\n", n5.npackets);
        printf("digest %016llx\n", (unsigned long long)d);
    }
    if (rank == 0 && mem) {
        fflush(stdout);
        MemPrint(stdout);
    }
    int err = rc || (rank == 0 && total[1] != total[2]);
    if (rank == 0 && total[1] != total[2])
        fprintf(stderr, "%s: sent %llu firings but received %llu\n", PROG,
                (unsigned long long)total[2], (unsigned long long)total[1]);

    if (ncs5)
        ncs5_fini(&n5);
    else
        ncs3_fini(&n3, &c);
    kxfree(c.syn);
    kxfree(c.cell_input);
    kxfree(c.firing);
    MPI_Finalize();
    return err ? 1 : 0;
}
