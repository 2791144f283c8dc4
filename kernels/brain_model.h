/* brain_model.h - the NCS cell model that brain.c (objects, memory per type) and
 * brain_threads.c (the same update in threads) share: constants, the K channels'
 * parameters and their gate, one channel's Euler step. */
#ifndef BRAIN_MODEL_H
#define BRAIN_MODEL_H

#include <math.h>

#define DT       0.1
#define E_LEAK   (-65.0)
#define G_LEAK   0.05
#define V_THRESH (-50.0)
#define V_RESET  (-70.0)
#define E_K      (-90.0)
#define E_SYN    0.0
#define SYN_TAU  3.0
#define GATE_N   64 /* m_inf sampled from -100 to +27 mV in 2 mV steps */
#define NCHAN    3  /* Km, Ka, Kahp */

/* Per channel type (Km, Ka, Kahp): unitary conductance, gate power, time
 * constant, and the gate's half-activation and slope. */
static const double brain_ch_g[NCHAN] = {0.03, 0.02, 0.03};
static const double brain_ch_p[NCHAN] = {1.0, 3.0, 2.0};
static const double brain_ch_tau[NCHAN] = {60.0, 1.0, 20.0};
static const double brain_ch_half[NCHAN] = {40.0, 50.0, 30.0};
static const double brain_ch_slope[NCHAN] = {8.0, 8.0, 5.0};

/* The gate's steady state of channel TYPE at V millivolts. */
static inline double brain_gate_minf(int type, double v)
{
    return 1.0 / (1.0 + exp(-(v + brain_ch_half[type]) / brain_ch_slope[type]));
}

/* One Euler step of a channel whose gate table is TABLE (GATE_N samples of
 * brain_gate_minf from -100 mV in 2 mV steps): the gate *M moves toward
 * m_inf(V) with TAU; returns the channel's current at V. */
static inline double brain_channel_step(const double *table, double *m, double tau, double g,
                                        double strength, double p, double v)
{
    double x = (v + 100.0) / 2.0;
    int i = x < 0 ? 0 : x >= GATE_N - 1 ? GATE_N - 2 : (int)x;
    double f = x - i;
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    double minf = table[i] * (1.0 - f) + table[i + 1] * f;
    *m += DT * (minf - *m) / tau;
    return g * strength * pow(*m, p) * (E_K - v);
}

#endif
