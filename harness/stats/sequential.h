/* sequential.h - tests that look more than once, and one-sided p-values against a minimum
 * effect (docs/STATISTICS.md section 17). Pure maths. */
#ifndef QQB_SEQUENTIAL_H
#define QQB_SEQUENTIAL_H

#include <stddef.h>

/*
 * O'Brien-Fleming's group-sequential boundary for K equally spaced looks at
 * an overall two-sided level ALPHA: the nominal two-sided level of look K_AT
 * (1..K). A test that, at whichever look it stops (for any reason, its own
 * data or another comparison's), rejects only when its p-value is at most
 * that look's nominal level, rejects a true null with probability at most
 * ALPHA under the normal approximation. The boundary is found by numerical
 * integration of the random walk of the looks (Armitage, McPherson and
 * Rowe's recursion) and bisection; K = 1 gives ALPHA. Early looks are
 * strict (about 5e-9 at the first of 8 for ALPHA 0.05), the last close to
 * ALPHA (0.038 at the 8th). NaN on an argument not usable.
 */
double qqb_gs_nominal(double alpha, size_t k_at, size_t k);

/* The probability that a random walk of K standard normal steps, started
 * at 0, leaves (-B, B) at one of its K positions: the error rate of the
 * boundary B on the sum's scale (exposed for its test). */
double qqb_gs_crossing(double b, size_t k);

/*
 * The sign test against a minimum effect: of the N paired log ratios D,
 * *UP = P(Binomial(n, 1/2) >= #{d > log(1 + t/100)}), the one-sided p for
 * "slower by more than T percent" (H0: the median ratio <= +t), and *DOWN
 * the same for #{d < -log(1 + t/100)}. A ratio exactly at the threshold
 * counts for H0. N = 0 gives 1 and 1.
 */
void qqb_sign_p_beyond(const double *d, size_t n, double threshold_pct, double *up, double *down);

#endif
