/* channel.c - NCS ion-channel currents (slides 9-19): two-cell compartments with Km, Ka and Kahp
 * channels, pow vs direct. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "qq.h"
#include "kcommon.h"

#define PROG "channel"

/*
 * The model, after NCS's 2-cell model (slide 8): each cell is one
 * compartment, an integrate-and-fire membrane (leak, threshold, reset) whose
 * voltage is modulated by potassium channels with Hodgkin-Huxley-style
 * gating. A stimulus current drives cell 1; each spike of cell 1 reaches
 * cell 2 through an excitatory synapse after a delay. --size pairs are
 * simulated, each with seeded variations of strength and stimulus.
 *
 * Units: mV, ms, nA, uS, nF.
 */

#define DT           0.1     /* ms per timestep */
#define C_M          1.0     /* nF */
#define G_LEAK       0.05    /* uS: tau_m = 20 ms */
#define E_LEAK       (-65.0) /* mV */
#define V_THRESH     (-50.0) /* mV */
#define V_RESET      (-70.0) /* mV */
#define E_K          (-90.0) /* mV */
#define E_SYN        0.0     /* mV, excitatory */
#define SYN_W        0.09    /* uS per arriving spike */
#define SYN_TAU      5.0     /* ms */
#define SYN_DELAY    20      /* timesteps (2 ms) */
#define STIM_AMP     1.3     /* nA into cell 1 */
#define STIM_START   100     /* timestep */
#define BIAS2        0.2     /* nA into cell 2 */
#define NOISE_AMP    0.1     /* nA, uniform in [-amp/2, amp/2) per step */
#define CA_PER_SPIKE 0.2     /* Kahp's calcium jump per spike */
#define CA_TAU       80.0    /* ms */
#define CA_KD        0.5

enum chan_type { CH_KM, CH_KA, CH_KAHP, CH_NTYPES };

/*
 * Channel parameters by type, as NCS reads them from its input file. Not
 * const and not static: the powers are data, so the compiler cannot know
 * that Km's mPower is 1 and fold pow(m, mPower) into m; the pow variant
 * really calls pow.
 */
struct chan_params {
    const char *name;
    double unitaryG; /* uS */
    double mPower, hPower;
    double reversePot;
};
struct chan_params channel_table[CH_NTYPES] = {
    [CH_KM] = {"Km", 0.03, 1.0, 0.0, E_K},
    [CH_KA] = {"Ka", 0.10, 3.0, 1.0, E_K},
    [CH_KAHP] = {"Kahp", 0.06, 2.0, 0.0, E_K},
};

struct channel {
    int type;
    double unitaryG, strength, mPower, hPower, reversePot;
    double m, h; /* gating variables */
    double I;    /* last current, nA */
};

struct compartment {
    double V;  /* membrane voltage, mV */
    double ca; /* calcium for Kahp */
    double g_syn;
    double stim;
    struct channel ch[CH_NTYPES];
    long spikes;
};

struct pair {
    struct compartment cell[2];
    unsigned char arrive[SYN_DELAY + 1]; /* spikes due at step % (delay+1) */
    struct krng noise;
};

/* Steady states and time constants of the gates. */
static double km_minf(double v)
{
    return 1.0 / (1.0 + exp(-(v + 40.0) / 8.0));
}
static double ka_minf(double v)
{
    return 1.0 / (1.0 + exp(-(v + 50.0) / 8.0));
}
static double ka_hinf(double v)
{
    return 1.0 / (1.0 + exp((v + 68.0) / 6.0));
}
#define KM_TAU   60.0 /* ms, slow muscarinic current */
#define KA_TAU_M 1.0  /* ms */
#define KA_TAU_H 25.0
#define KAHP_TAU 5.0

static void compartment_init(struct compartment *c, struct krng *r, double stim)
{
    c->V = E_LEAK;
    c->ca = 0.0;
    c->g_syn = 0.0;
    c->stim = stim;
    c->spikes = 0;
    for (int t = 0; t < CH_NTYPES; t++) {
        struct channel *ch = &c->ch[t];
        ch->type = t;
        ch->unitaryG = channel_table[t].unitaryG;
        ch->mPower = channel_table[t].mPower;
        ch->hPower = channel_table[t].hPower;
        ch->reversePot = channel_table[t].reversePot;
        /* Seeded spread of +-20% in channel density. */
        ch->strength = 0.8 + 0.4 * krng_uniform(r);
        ch->m = t == CH_KM ? km_minf(E_LEAK) : t == CH_KA ? ka_minf(E_LEAK) : 0.0;
        ch->h = t == CH_KA ? ka_hinf(E_LEAK) : 1.0;
        ch->I = 0.0;
    }
}

/* Gate updates, forward Euler on dm/dt = (minf - m) / tau. */
static void gates_update(struct compartment *c)
{
    double v = c->V;
    struct channel *km = &c->ch[CH_KM], *ka = &c->ch[CH_KA], *kahp = &c->ch[CH_KAHP];
    km->m += DT * (km_minf(v) - km->m) / KM_TAU;
    ka->m += DT * (ka_minf(v) - ka->m) / KA_TAU_M;
    ka->h += DT * (ka_hinf(v) - ka->h) / KA_TAU_H;
    c->ca -= DT * c->ca / CA_TAU;
    kahp->m += DT * (c->ca / (c->ca + CA_KD) - kahp->m) / KAHP_TAU;
}

static int qk_step, qk_type[CH_NTYPES], qk_v1, qk_spikes;

/*
 * The channel currents: the line measured on slide 16, each channel type
 * under its own state key. DIRECT drops the pow for Km (mPower is 1).
 */
static double channel_currents(struct compartment *c, int direct)
{
    double CmpV = c->V, total = 0.0;
    for (int t = 0; t < CH_NTYPES; t++) {
        struct channel *ch = &c->ch[t];
        double I;
        switch (ch->type) {
        case CH_KM:
            if (direct) {
                QQStateOn(qk_type[CH_KM]);
                I = ch->unitaryG * ch->strength * ch->m * (ch->reversePot - CmpV);
                QQKeep(I);
                QQStateOff(qk_type[CH_KM]);
            } else {
                QQStateOn(qk_type[CH_KM]);
                I = ch->unitaryG * ch->strength * pow(ch->m, ch->mPower) * (ch->reversePot - CmpV);
                QQKeep(I);
                QQStateOff(qk_type[CH_KM]);
            }
            break;
        case CH_KA:
            QQStateOn(qk_type[CH_KA]);
            I = ch->unitaryG * ch->strength * pow(ch->m, ch->mPower) * pow(ch->h, ch->hPower) *
                (ch->reversePot - CmpV);
            QQKeep(I);
            QQStateOff(qk_type[CH_KA]);
            break;
        default: /* CH_KAHP */
            QQStateOn(qk_type[CH_KAHP]);
            I = ch->unitaryG * ch->strength * pow(ch->m, ch->mPower) * (ch->reversePot - CmpV);
            QQKeep(I);
            QQStateOff(qk_type[CH_KAHP]);
            break;
        }
        ch->I = I;
        total += I;
    }
    return total;
}

/* One Euler step of a compartment; returns 1 if it spiked. */
static int compartment_step(struct compartment *c, double inoise, int direct)
{
    double Ich = channel_currents(c, direct);
    double Isyn = c->g_syn * (E_SYN - c->V);
    double Ileak = G_LEAK * (E_LEAK - c->V);
    c->V += DT * (Ileak + Ich + Isyn + c->stim + inoise) / C_M;
    c->g_syn -= DT * c->g_syn / SYN_TAU;
    gates_update(c);
    if (c->V >= V_THRESH) {
        c->V = V_RESET;
        c->ca += CA_PER_SPIKE;
        c->spikes++;
        return 1;
    }
    return 0;
}

static const char *const variants[] = {"pow", "direct", NULL};

/*
 * The Km line timed in bulk, with no QQ in it: REPS repetitions between two
 * ordered reads (one of --bulk's KBULK_BLOCKS short blocks, in bursts
 * interleaved with the timesteps; the median block is recorded), as ticks
 * per repetition. The independent check of the Km
 * state's net figure (tests/integration/test_run_attribution.sh).
 *
 * Each repetition's inputs (m, g, s, V) are made from the previous result,
 * so repetitions cannot overlap and all inputs arrive together, as the
 * loads do when the state opens: the critical path is then the line's own,
 * in both variants (with m alone carried, direct's path would skip the
 * g*s product that it waits for in the state, and the deltas would differ
 * by one multiply). The carry adds the same multiply and add to both
 * variants; it cancels in their difference.
 */
static double km_bulk(const struct channel *ch, double V0, int direct, long reps)
{
    const double g0 = ch->unitaryG, s0 = ch->strength, m0 = ch->m, E = ch->reversePot,
                 mp = ch->mPower;
    double I = 0.0;
    uint64_t t0 = qq_ticks_open();
    if (direct) {
        for (long r = 0; r < reps; r++) {
            double eps = I * 1e-12;
            double g = g0 + eps, st = s0 + eps, m = m0 + eps, CmpV = V0 + eps;
            I = g * st * m * (E - CmpV);
        }
    } else {
        for (long r = 0; r < reps; r++) {
            double eps = I * 1e-12;
            double g = g0 + eps, st = s0 + eps, m = m0 + eps, CmpV = V0 + eps;
            I = g * st * pow(m, mp) * (E - CmpV);
        }
    }
    KKEEP(I);
    uint64_t t1 = qq_ticks_close();
    return (double)(t1 - t0) / (double)reps;
}

int main(int argc, char **argv)
{
    static long bulk = 0;
    static const struct kopt extra[] = {
        {"bulk", KOPT_LONG, &bulk, 0,
         "time the Km line REPS times in bulk after the run, recorded as the "
         "value Km_bulk (ticks per repetition; default 0: none)"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "Ion-channel currents of NCS's 2-cell model: per pair of cells, "
                   "a stimulus drives\ncell 1, cell 1 drives cell 2 through a "
                   "delayed synapse; every compartment has\nKm, Ka and Kahp "
                   "potassium channels with HH-style gates, forward Euler at\n"
                   "dt = 0.1 ms. --size = number of cell pairs. Variant pow: "
                   "I = g*s*pow(m, mPower)*(E-V)\nfor every channel; direct: Km "
                   "(mPower 1) uses I = g*s*m*(E-V). Both give identical results.",
        .keys =
            "  states  Km, Ka, Kahp (the current line of each channel), "
            "step (one timestep)\n  value   V1 (cell-1 voltage of pair 0, "
            "per step); Km_bulk (with --bulk)\n  count   spikes (spikes of all cells in the step)",
        .variants = variants,
        .size_default = 4,
        .steps_default = 2000,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    int direct = a.variant_index == 1;
    size_t npairs = (size_t)a.size;

    struct pair *pairs = kxcalloc(PROG, npairs, sizeof *pairs);
    struct krng setup;
    krng_seed(&setup, a.seed, 0);
    for (size_t p = 0; p < npairs; p++) {
        double stim = STIM_AMP * (0.9 + 0.2 * krng_uniform(&setup));
        compartment_init(&pairs[p].cell[0], &setup, stim);
        compartment_init(&pairs[p].cell[1], &setup, BIAS2);
        krng_seed(&pairs[p].noise, a.seed, 1 + p);
    }

    /* Events per step: step on/off, V1, spikes, and on/off for 3 channels
     * in 2 compartments of every pair. */
    uint64_t per_step = 4 + 12 * (uint64_t)npairs;
    QQInit(kqq_events((uint64_t)a.steps * per_step + 64));
    qk_step = QQAddState("step");
    qk_type[CH_KM] = QQAddState("Km");
    qk_type[CH_KA] = QQAddState("Ka");
    qk_type[CH_KAHP] = QQAddState("Kahp");
    qk_v1 = QQAddValue("V1");
    qk_spikes = QQAddCount("spikes");
    int qk_bulk = bulk > 0 ? QQAddValue("Km_bulk") : -1;
    QQBaseTime();

    uint64_t digest = KDIGEST_INIT;
    static double block[KBULK_BLOCKS];
    size_t nblocks = 0;
    for (long step = 0; step < a.steps; step++) {
        int spikes = 0;
        int slot = (int)(step % (SYN_DELAY + 1));
        QQStateOn(qk_step);
        for (size_t p = 0; p < npairs; p++) {
            struct pair *pr = &pairs[p];
            struct compartment *c1 = &pr->cell[0], *c2 = &pr->cell[1];
            double n1 = NOISE_AMP * (krng_uniform(&pr->noise) - 0.5);
            double n2 = NOISE_AMP * (krng_uniform(&pr->noise) - 0.5);
            /* Synaptic arrivals due now. */
            c2->g_syn += SYN_W * pr->arrive[slot];
            pr->arrive[slot] = 0;
            double saved_stim = c1->stim;
            if (step < STIM_START)
                c1->stim = 0.0;
            int s1 = compartment_step(c1, n1, direct);
            c1->stim = saved_stim;
            int s2 = compartment_step(c2, n2, direct);
            if (s1) /* arrives SYN_DELAY steps from now */
                pr->arrive[(step + SYN_DELAY) % (SYN_DELAY + 1)]++;
            spikes += s1 + s2;
            digest = kdigest_double(digest, c1->V);
            digest = kdigest_double(digest, c2->V);
        }
        QQValue(qk_v1, pairs[0].cell[0].V);
        QQCount(qk_spikes, spikes);
        QQStateOff(qk_step);
        /* A burst of bulk blocks after every KBULK_POINTS-th of the steps. */
        while (bulk > 0 && nblocks < KBULK_BLOCKS &&
               (step + 1) * KBULK_POINTS >=
                   (long)(nblocks / (KBULK_BLOCKS / KBULK_POINTS) + 1) * a.steps)
            for (int b = 0; b < KBULK_BLOCKS / KBULK_POINTS; b++)
                block[nblocks++] = km_bulk(&pairs[0].cell[0].ch[CH_KM], pairs[0].cell[0].V, direct,
                                           bulk / KBULK_BLOCKS > 0 ? bulk / KBULK_BLOCKS : 1);
    }

    if (bulk > 0)
        QQValue(qk_bulk, kmedian(block, nblocks));

    int rc = kqq_out(PROG, "channel.qq", 0, 1);

    if (a.print) {
        long s1 = 0, s2 = 0;
        for (size_t p = 0; p < npairs; p++) {
            for (int c = 0; c < 2; c++)
                for (int t = 0; t < CH_NTYPES; t++) {
                    const struct channel *ch = &pairs[p].cell[c].ch[t];
                    digest = kdigest_double(digest, ch->m);
                    digest = kdigest_double(digest, ch->h);
                    digest = kdigest_double(digest, ch->I);
                }
            s1 += pairs[p].cell[0].spikes;
            s2 += pairs[p].cell[1].spikes;
        }
        printf("variant %s\n", a.variant);
        printf("pairs %zu\nsteps %ld\nseed %llu\n", npairs, a.steps, (unsigned long long)a.seed);
        printf("spikes_cell1 %ld\nspikes_cell2 %ld\nspikes %ld\n", s1, s2, s1 + s2);
        printf("V1_final %.6f\n", pairs[0].cell[0].V);
        printf("digest %016llx\n", (unsigned long long)digest);
    }
    free(pairs);
    return rc;
}
