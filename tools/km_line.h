/* km_line.h - the Km current line of kernels/channel.c, pow and direct, for the side-by-side tools
 * (gbench_km, km_count). */
#ifndef KM_LINE_H
#define KM_LINE_H

#include <math.h>

/*
 * The inputs of one Km line as channel.c holds them: unitaryG, strength,
 * m, mPower and reversePot from the channel, CmpV from the compartment.
 * The tools keep one instance in a non-const object with external linkage
 * (as channel.c's channel_table), so the compiler cannot know that mPower
 * is 1 and fold pow(m, mPower) into m: the pow variant really calls pow.
 */
struct km_inputs {
    double unitaryG, strength, m, mPower, reversePot, CmpV;
};

/* The line, with channel.c's operand order (left to right). */
static inline double km_line_pow(double g, double s, double m, double mp, double E, double V)
{
    return g * s * pow(m, mp) * (E - V);
}

static inline double km_line_direct(double g, double s, double m, double E, double V)
{
    return g * s * m * (E - V);
}

/*
 * The dependent form, as channel.c's km_bulk: every input of the next line
 * is made from the previous result (eps is about 1e-12 of a current of a
 * few nA, far below the inputs' last bit, so the values stay put), so
 * repetitions cannot overlap and all inputs arrive together, as the loads
 * do when a state opens. The carry (one multiply, four adds) is the same in
 * both variants and cancels in their difference.
 */
static inline double km_next_pow(double I, double g0, double s0, double m0, double mp, double E,
                                 double V0)
{
    double eps = I * 1e-12;
    double g = g0 + eps, st = s0 + eps, m = m0 + eps, CmpV = V0 + eps;
    return km_line_pow(g, st, m, mp, E, CmpV);
}

static inline double km_next_direct(double I, double g0, double s0, double m0, double E, double V0)
{
    double eps = I * 1e-12;
    double g = g0 + eps, st = s0 + eps, m = m0 + eps, CmpV = V0 + eps;
    return km_line_direct(g, st, m, E, CmpV);
}

/* The Km channel at rest as channel.c starts it (V = E_LEAK = -65 mV,
 * m = km_minf(V), strength 1.0 = the middle of its seeded spread). */
#define KM_INPUTS_AT_REST                                                                          \
    {                                                                                              \
        0.03, 1.0, 0.042087727915618836 /* 1/(1+exp(25/8)) */, 1.0, -90.0, -65.0                   \
    }

#endif
