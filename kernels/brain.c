/* brain.c - NCS's objects and their memory per type (slides 22-23): a small brain, each type under
 * its own memory key. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq.h"
#include "brain_model.h"
#include "kcommon.h"
/* After every system header: from here on malloc & co are recorded under
 * the MEM_KEY in force where each call is written. */
#include "qq_mem.h"

#define PROG "brain"

/*
 * NCS's object types, one memory key each, as on slide 23. Objects are made
 * with kxcalloc (not intercepted, as NCS's C++ new was not) and recorded by
 * MEMADDOBJECT in their constructor and MEMFREEOBJECT in their destructor;
 * the dynamic arrays they own are malloc'd under their type's key. The
 * MessageBus is a single static object that records no object, only its
 * packet buffer (slide 23: 0 created, 1 KB allocated).
 */
static int KEY_BRAIN, KEY_CELLMANAGER, KEY_CELL, KEY_CHANNEL, KEY_COMPARTMENT, KEY_MESSAGEMGR,
    KEY_MESSAGEBUS, KEY_REPORT, KEY_STIMULUS, KEY_SYNAPSE;

static int qk_update, qk_fire, qk_deliver, qk_spikes, qk_firings;

#define MAX_DELAY     40 /* timesteps */
#define MSGBUS_PACKET 1024

typedef struct Channel {
    int type; /* 0 Km, 1 Ka, 2 Kahp */
    double unitaryG, strength, mPower;
    double m, tau;
    double *gateTable; /* m_inf sampled over voltage: owned, Channel key */
} Channel;

typedef struct Compartment {
    int id;
    double V, g_syn, stim;
    int nchannels;
    Channel **channels; /* Compartment key */
    int nsyn_in;
} Compartment;

typedef struct Synapse {
    int id;
    int source; /* presynaptic cell */
    Compartment *target;
    float weight;
    int delay;
    int fired;                    /* times fired */
    struct SynapseFiring *active; /* dynamic firing states */
} Synapse;

/* The dynamic state of one firing: allocated at firing, freed at delivery
 * (paper 4.2.1: a running brain needs as much dynamic as static memory). */
typedef struct SynapseFiring {
    Synapse *syn;
    int due;
    struct SynapseFiring *next_due; /* MessageMgr's list for its step */
} SynapseFiring;

typedef struct Cell {
    int id;
    int ncomp;
    Compartment **comps; /* Cell key */
    int nout;
    Synapse **out; /* outgoing synapses: Cell key */
    long spikes;
    int spiked_now; /* spiked in the current step */
} Cell;

typedef struct CellManager {
    int ncells;
    Cell **cells; /* CellManager key */
} CellManager;

typedef struct MessageMgr {
    int slots;
    SynapseFiring **due; /* MessageMgr key: per step mod slots */
    long queued, delivered;
} MessageMgr;

typedef struct MessageBus {
    unsigned char *packet; /* MessageBus key */
    size_t used;
} MessageBus;

typedef struct Report {
    int cell;
    long nsamples, cap;
    float *samples; /* Report key */
} Report;

typedef struct Stimulus {
    int ncells;
    int *cells;        /* Stimulus key */
    double *amplitude; /* Stimulus key */
    int start;
} Stimulus;

typedef struct Brain {
    CellManager *cm;
    MessageMgr *mm;
    MessageBus *bus;
    Report *report;
    Stimulus *stim;
    int ncomps, nchannels, nsyn;
    Compartment **comps; /* Brain key */
    Channel **channels;  /* Brain key */
    Synapse *synapses;   /* the objects, one block (recorded per object) */
    uint64_t digest;
    long spikes, firings;
} Brain;

static MessageBus the_bus; /* static: no object record */

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_CHANNEL

static Channel *channel_new(int type, struct krng *r)
{
    Channel *c = kxcalloc(PROG, 1, sizeof *c);
    MEMADDOBJECT(c, sizeof *c);
    c->type = type;
    c->unitaryG = brain_ch_g[type];
    c->mPower = brain_ch_p[type];
    c->tau = brain_ch_tau[type];
    c->strength = 0.8 + 0.4 * krng_uniform(r);
    c->gateTable = malloc(GATE_N * sizeof *c->gateTable);
    if (!c->gateTable)
        kdie(PROG, "out of memory");
    for (int i = 0; i < GATE_N; i++)
        c->gateTable[i] = brain_gate_minf(type, -100.0 + 2.0 * i);
    c->m = c->gateTable[17]; /* about -65 mV */
    return c;
}

static void channel_delete(Channel *c)
{
    free(c->gateTable);
    MEMFREEOBJECT(c, sizeof *c);
    kxfree(c);
}

static double channel_current(Channel *c, double V)
{
    return brain_channel_step(c->gateTable, &c->m, c->tau, c->unitaryG, c->strength, c->mPower, V);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_COMPARTMENT

static Compartment *compartment_new(int id, int nchannels)
{
    Compartment *c = kxcalloc(PROG, 1, sizeof *c);
    MEMADDOBJECT(c, sizeof *c);
    c->id = id;
    c->V = E_LEAK;
    c->nchannels = 0;
    c->channels = calloc((size_t)(nchannels ? nchannels : 1), sizeof *c->channels);
    if (!c->channels)
        kdie(PROG, "out of memory");
    return c;
}

static void compartment_delete(Compartment *c)
{
    free(c->channels);
    MEMFREEOBJECT(c, sizeof *c);
    kxfree(c);
}

/* Forward Euler; returns 1 on a spike. */
static int compartment_update(Compartment *c)
{
    double I = G_LEAK * (E_LEAK - c->V) + c->g_syn * (E_SYN - c->V) + c->stim;
    for (int i = 0; i < c->nchannels; i++)
        I += channel_current(c->channels[i], c->V);
    c->V += DT * I;
    c->g_syn -= DT * c->g_syn / SYN_TAU;
    if (c->V >= V_THRESH) {
        c->V = V_RESET;
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_CELL

static Cell *cell_new(int id, int ncomp, int nout)
{
    Cell *c = kxcalloc(PROG, 1, sizeof *c);
    MEMADDOBJECT(c, sizeof *c);
    c->id = id;
    c->comps = calloc((size_t)ncomp, sizeof *c->comps);
    c->out = calloc((size_t)(nout ? nout : 1), sizeof *c->out);
    if (!c->comps || !c->out)
        kdie(PROG, "out of memory");
    return c;
}

static void cell_delete(Cell *c)
{
    free(c->comps);
    free(c->out);
    MEMFREEOBJECT(c, sizeof *c);
    kxfree(c);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_CELLMANAGER

static CellManager *cellmanager_new(int ncells)
{
    CellManager *m = kxcalloc(PROG, 1, sizeof *m);
    MEMADDOBJECT(m, sizeof *m);
    m->ncells = ncells;
    m->cells = calloc((size_t)ncells, sizeof *m->cells);
    if (!m->cells)
        kdie(PROG, "out of memory");
    return m;
}

static void cellmanager_delete(CellManager *m)
{
    for (int i = 0; i < m->ncells; i++)
        cell_delete(m->cells[i]);
    free(m->cells);
    MEMFREEOBJECT(m, sizeof *m);
    kxfree(m);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_SYNAPSE

static void synapse_init(Synapse *s, int id, int source, Compartment *target, float weight,
                         int delay)
{
    MEMADDOBJECT(s, sizeof *s);
    s->id = id;
    s->source = source;
    s->target = target;
    s->weight = weight;
    s->delay = delay;
    s->fired = 0;
    s->active = NULL;
}

static void synapse_fini(Synapse *s)
{
    MEMFREEOBJECT(s, sizeof *s);
}

/* A firing: its dynamic state is allocated under the Synapse key. */
static SynapseFiring *synapse_fire(Synapse *s, int now)
{
    SynapseFiring *f = malloc(sizeof *f);
    if (!f)
        kdie(PROG, "out of memory");
    f->syn = s;
    f->due = now + s->delay;
    f->next_due = NULL;
    s->fired++;
    return f;
}

static void synapse_firing_done(SynapseFiring *f)
{
    free(f);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_MESSAGEMGR

static MessageMgr *messagemgr_new(int slots)
{
    MessageMgr *m = kxcalloc(PROG, 1, sizeof *m);
    MEMADDOBJECT(m, sizeof *m);
    m->slots = slots;
    m->due = calloc((size_t)slots, sizeof *m->due);
    if (!m->due)
        kdie(PROG, "out of memory");
    return m;
}

static void messagemgr_queue(MessageMgr *m, SynapseFiring *f)
{
    SynapseFiring **slot = &m->due[f->due % m->slots];
    f->next_due = *slot;
    *slot = f;
    m->queued++;
}

static void messagemgr_delete(MessageMgr *m)
{
    /* Firings still in flight when the run ends. */
    for (int i = 0; i < m->slots; i++)
        while (m->due[i]) {
            SynapseFiring *f = m->due[i];
            m->due[i] = f->next_due;
            synapse_firing_done(f);
        }
    free(m->due);
    MEMFREEOBJECT(m, sizeof *m);
    kxfree(m);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_MESSAGEBUS

static MessageBus *messagebus_open(void)
{
    the_bus.packet = malloc(MSGBUS_PACKET);
    if (!the_bus.packet)
        kdie(PROG, "out of memory");
    the_bus.used = 0;
    return &the_bus;
}

/* Local firings pass the bus as packet records (here only counted). */
static void messagebus_post(MessageBus *b, const SynapseFiring *f)
{
    if (b->used + sizeof(int32_t) * 2 > MSGBUS_PACKET)
        b->used = 0;
    int32_t rec[2] = {f->syn->id, f->due};
    memcpy(b->packet + b->used, rec, sizeof rec);
    b->used += sizeof rec;
}

static void messagebus_close(MessageBus *b)
{
    free(b->packet);
    b->packet = NULL;
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_REPORT

static Report *report_new(int cell, long cap)
{
    Report *r = kxcalloc(PROG, 1, sizeof *r);
    MEMADDOBJECT(r, sizeof *r);
    r->cell = cell;
    r->cap = cap;
    r->samples = malloc((size_t)cap * sizeof *r->samples);
    if (!r->samples)
        kdie(PROG, "out of memory");
    return r;
}

static void report_delete(Report *r)
{
    free(r->samples);
    MEMFREEOBJECT(r, sizeof *r);
    kxfree(r);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_STIMULUS

static Stimulus *stimulus_new(int ncells_total, struct krng *r)
{
    Stimulus *s = kxcalloc(PROG, 1, sizeof *s);
    MEMADDOBJECT(s, sizeof *s);
    /* A tenth of the cells get a steady current. */
    s->ncells = ncells_total / 10 > 0 ? ncells_total / 10 : 1;
    s->cells = malloc((size_t)s->ncells * sizeof *s->cells);
    s->amplitude = malloc((size_t)s->ncells * sizeof *s->amplitude);
    if (!s->cells || !s->amplitude)
        kdie(PROG, "out of memory");
    for (int i = 0; i < s->ncells; i++) {
        s->cells[i] = (int)krng_below(r, (uint64_t)ncells_total);
        s->amplitude[i] = 1.0 + 0.6 * krng_uniform(r);
    }
    s->start = 10;
    return s;
}

static void stimulus_delete(Stimulus *s)
{
    free(s->cells);
    free(s->amplitude);
    MEMFREEOBJECT(s, sizeof *s);
    kxfree(s);
}

/* ------------------------------------------------------------------ */
#undef MEM_KEY
#define MEM_KEY KEY_BRAIN

struct brain_size {
    long cells, channels, compartments, synapses, steps;
};

static Brain *brain_new(const struct brain_size *z, uint64_t seed)
{
    struct krng r;
    krng_seed(&r, seed, 7);
    Brain *b = kxcalloc(PROG, 1, sizeof *b);
    MEMADDOBJECT(b, sizeof *b);
    int ncells = (int)z->cells;
    b->ncomps = (int)z->compartments;
    b->nchannels = (int)z->channels;
    b->nsyn = (int)z->synapses;
    b->digest = KDIGEST_INIT;

    b->comps = malloc((size_t)b->ncomps * sizeof *b->comps);
    b->channels = malloc((size_t)(b->nchannels ? b->nchannels : 1) * sizeof *b->channels);
    if (!b->comps || !b->channels)
        kdie(PROG, "out of memory");
    /* Compartments round-robin over cells, channels over compartments. */
    for (int i = 0; i < b->ncomps; i++) {
        int nch = b->nchannels / b->ncomps + (i < b->nchannels % b->ncomps);
        b->comps[i] = compartment_new(i, nch);
    }
    for (int i = 0; i < b->nchannels; i++) {
        Compartment *c = b->comps[i % b->ncomps];
        b->channels[i] = channel_new(c->nchannels % 3, &r);
        c->channels[c->nchannels++] = b->channels[i];
    }

    /* Synapses: random source cell, target compartment; counted first so
     * that each cell's outgoing array is sized exactly. */
    int *src = kxcalloc(PROG, (size_t)(b->nsyn ? b->nsyn : 1), sizeof *src);
    int *nout = kxcalloc(PROG, (size_t)ncells, sizeof *nout);
    for (int i = 0; i < b->nsyn; i++) {
        src[i] = (int)krng_below(&r, (uint64_t)ncells);
        nout[src[i]]++;
    }
    b->cm = cellmanager_new(ncells);
    for (int i = 0; i < ncells; i++) {
        int ncomp = b->ncomps / ncells + (i < b->ncomps % ncells);
        Cell *c = cell_new(i, ncomp, nout[i]);
        for (int k = 0; k < ncomp; k++)
            c->comps[c->ncomp++] = b->comps[i + k * ncells];
        b->cm->cells[i] = c;
    }
    b->synapses = kxcalloc(PROG, (size_t)(b->nsyn ? b->nsyn : 1), sizeof *b->synapses);
    double wscale = 40.0 / (b->nsyn > 0 ? (double)b->nsyn / ncells : 1.0);
    for (int i = 0; i < b->nsyn; i++) {
        Compartment *t = b->comps[krng_below(&r, (uint64_t)b->ncomps)];
        float w = (float)(wscale * 0.01 * (0.5 + krng_uniform(&r)));
        int delay = 5 + (int)krng_below(&r, MAX_DELAY - 5);
        synapse_init(&b->synapses[i], i, src[i], t, w, delay);
        t->nsyn_in++;
        Cell *c = b->cm->cells[src[i]];
        c->out[c->nout++] = &b->synapses[i];
    }
    kxfree(src);
    kxfree(nout);

    b->mm = messagemgr_new(MAX_DELAY + 1);
    b->bus = messagebus_open();
    b->report = report_new(0, z->steps);
    b->stim = stimulus_new(ncells, &r);
    return b;
}

static void brain_delete(Brain *b)
{
    stimulus_delete(b->stim);
    report_delete(b->report);
    messagebus_close(b->bus);
    messagemgr_delete(b->mm);
    for (int i = 0; i < b->nsyn; i++)
        synapse_fini(&b->synapses[i]);
    kxfree(b->synapses);
    cellmanager_delete(b->cm);
    for (int i = 0; i < b->nchannels; i++)
        channel_delete(b->channels[i]);
    for (int i = 0; i < b->ncomps; i++)
        compartment_delete(b->comps[i]);
    free(b->comps);
    free(b->channels);
    MEMFREEOBJECT(b, sizeof *b);
    kxfree(b);
}

/* One timestep: update compartments, fire synapses of spiking cells,
 * deliver the firings due now. */
static void brain_step(Brain *b, int t)
{
    CellManager *cm = b->cm;
    Stimulus *st = b->stim;
    int nspk = 0, nfire = 0;

    QQStateOn(qk_update);
    for (int i = 0; i < st->ncells; i++)
        cm->cells[st->cells[i]]->comps[0]->stim = t >= st->start ? st->amplitude[i] : 0.0;
    for (int i = 0; i < cm->ncells; i++) {
        Cell *c = cm->cells[i];
        int spiked = 0;
        for (int k = 0; k < c->ncomp; k++)
            spiked |= compartment_update(c->comps[k]);
        c->spiked_now = spiked;
        if (spiked) {
            c->spikes++;
            nspk++;
            b->digest = kdigest_u64(b->digest, ((uint64_t)t << 32) | (uint64_t)i);
        }
    }
    Report *rp = b->report;
    if (rp->nsamples < rp->cap)
        rp->samples[rp->nsamples++] = (float)cm->cells[rp->cell]->comps[0]->V;
    QQStateOff(qk_update);

    QQStateOn(qk_fire);
    for (int i = 0; i < cm->ncells; i++) {
        Cell *c = cm->cells[i];
        if (!c->spiked_now)
            continue;
        for (int k = 0; k < c->nout; k++) {
            SynapseFiring *f = synapse_fire(c->out[k], t);
            messagebus_post(b->bus, f);
            messagemgr_queue(b->mm, f);
            nfire++;
        }
    }
    QQStateOff(qk_fire);

    QQStateOn(qk_deliver);
    SynapseFiring **slot = &b->mm->due[t % b->mm->slots];
    while (*slot) {
        SynapseFiring *f = *slot;
        *slot = f->next_due;
        f->syn->target->g_syn += f->syn->weight;
        b->mm->delivered++;
        synapse_firing_done(f);
    }
    QQStateOff(qk_deliver);

    b->spikes += nspk;
    b->firings += nfire;
    QQCount(qk_spikes, nspk);
    QQCount(qk_firings, nfire);
}

static long g_cells = 100, g_channels = 300, g_compartments = 100, g_synapses = 10000;
static int g_mem;

int main(int argc, char **argv)
{
    static const struct kopt extra[] = {
        {"cells", KOPT_LONG, &g_cells, 1, "cells (default 100; times --size)"},
        {"channels", KOPT_LONG, &g_channels, 0, "channels (default 300; times --size)"},
        {"compartments", KOPT_LONG, &g_compartments, 1,
         "compartments, >= cells (default 100; times --size)"},
        {"synapses", KOPT_LONG, &g_synapses, 0, "synapses (default 10000; times --size)"},
        {"mem", KOPT_FLAG, &g_mem, 0, "print the MemPrint table"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const char *const variants[] = {"ncs", NULL};
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "NCS objects and memory per type (slides 22-23): Brain, "
                   "CellManager, Cell, Channel,\nCompartment, MessageMgr, MessageBus, "
                   "Report, Stimulus, Synapse, each under its own\nmemory key "
                   "(MEMADDOBJECT in constructors, malloc of owned arrays). A "
                   "Stimulus drives\na tenth of the cells; spikes fire the cells' "
                   "synapses (< 1% per step), firings are\nqueued by delay and "
                   "delivered into compartment conductances. Counts are the\n"
                   "options times --size. With --print or --mem, MemPrint's table "
                   "(before teardown).",
        .keys = "  states  update, fire, deliver\n  counts  spikes, firings "
                "(per step)\n  memory  Brain CellManager Cell Channel "
                "Compartment MessageMgr MessageBus\n          Report Stimulus "
                "Synapse",
        .variants = variants,
        .size_default = 1,
        .steps_default = 2000,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    struct brain_size z = {g_cells * a.size, g_channels * a.size, g_compartments * a.size,
                           g_synapses * a.size, a.steps};
    if (z.compartments < z.cells) {
        fprintf(stderr, "%s: --compartments must be >= --cells\n", PROG);
        return 2;
    }
    if (z.cells > 100000000L || z.compartments > 100000000L || z.channels > 100000000L ||
        z.synapses > 1000000000L) {
        fprintf(stderr, "%s: sizes too large\n", PROG);
        return 2;
    }

    KEY_BRAIN = MemAddKey("Brain");
    KEY_CELLMANAGER = MemAddKey("CellManager");
    KEY_CELL = MemAddKey("Cell");
    KEY_CHANNEL = MemAddKey("Channel");
    KEY_COMPARTMENT = MemAddKey("Compartment");
    KEY_MESSAGEMGR = MemAddKey("MessageMgr");
    KEY_MESSAGEBUS = MemAddKey("MessageBus");
    KEY_REPORT = MemAddKey("Report");
    KEY_STIMULUS = MemAddKey("Stimulus");
    KEY_SYNAPSE = MemAddKey("Synapse");

    QQInit(kqq_events((uint64_t)a.steps * 8 + 64));
    qk_update = QQAddState("update");
    qk_fire = QQAddState("fire");
    qk_deliver = QQAddState("deliver");
    qk_spikes = QQAddCount("spikes");
    qk_firings = QQAddCount("firings");

    Brain *b = brain_new(&z, a.seed);
    QQBaseTime();
    for (long t = 0; t < a.steps; t++)
        brain_step(b, (int)t);

    /* Output and the table while the brain is alive (slide 23: nothing
     * deleted yet), then tear down so that every object is freed. */
    int rc = kqq_out(PROG, "brain.qq", 0, 1);
    if (a.print) {
        printf("cells %ld\nchannels %ld\ncompartments %ld\nsynapses %ld\n", z.cells, z.channels,
               z.compartments, z.synapses);
        printf("steps %ld\nseed %llu\n", a.steps, (unsigned long long)a.seed);
        printf("sizeof Brain %zu\nsizeof CellManager %zu\nsizeof Cell %zu\n"
               "sizeof Channel %zu\nsizeof Compartment %zu\n"
               "sizeof MessageMgr %zu\nsizeof Report %zu\n"
               "sizeof Stimulus %zu\nsizeof Synapse %zu\n",
               sizeof(Brain), sizeof(CellManager), sizeof(Cell), sizeof(Channel),
               sizeof(Compartment), sizeof(MessageMgr), sizeof(Report), sizeof(Stimulus),
               sizeof(Synapse));
        printf("spikes %ld\nfirings %ld\nfiring_fraction %.6f\n", b->spikes, b->firings,
               z.synapses && a.steps ? (double)b->firings / ((double)z.synapses * (double)a.steps)
                                     : 0.0);
        printf("delivered %ld\ndigest %016llx\n", b->mm->delivered, (unsigned long long)b->digest);
    }
    if (a.print || g_mem) {
        fflush(stdout);
        MemPrint(stdout);
    }
    brain_delete(b);
    return rc;
}
