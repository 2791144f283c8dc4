/* stats_int.h - what the files of the statistics share (stats.c,
 * stats_change.c, stats_paired.c); not for other layers. */
#ifndef QQB_STATS_INT_H
#define QQB_STATS_INT_H

#include <stddef.h>

#include "stats.h"

/* Small inputs are sorted on the stack, larger ones in a heap copy. */
#define QQB__STACK_N 64

/* stats.c. Room for n doubles: buf (if n <= QQB__STACK_N) or the heap;
 * NULL if allocation fails. A sorted copy of x in such room. Either is
 * released with qqb__release(room, buf). */
double *qqb__room(size_t n, double *buf);
double *qqb__sorted_copy(const double *x, size_t n, double *buf);
void qqb__release(double *c, double *buf);
/* The ties' correction of a rank test: the sum of g^3 - g over the runs of
 * g equal values in the sorted X. */
double qqb__tie_sum(const double *x, size_t n);

/* stats_change.c: what both changes (qqb_change, qqb_change_paired) do. */
/* Largest u with cdf(u) <= alpha/2 from the lower half pmf LOW[0..K], or
 * -1; *CDF_AT (may be NULL) the cdf there. */
long qqb__critical_from_low(const double *low, size_t k, double alpha, double *cdf_at);
/* OUT failed with ST and WHY (static text): -1. */
int qqb__fail(struct qqb_change *out, enum qqb_change_status st, const char *why);
/* The side summaries both changes report: medians, ratio, spread, level shift. */
void qqb__side_summaries(const double *base, size_t nb, const double *cur, size_t nc,
                         struct qqb_change *out);
/* The confidence strictly between 0 and 1, every sample finite and
 * positive: 0, or qqb__fail's -1. */
int qqb__check_samples(const double *base, size_t nb, const double *cur, size_t nc,
                       double confidence, struct qqb_change *out);
/* The rank k of the interval's bounds from an exact null distribution (LOW:
 * its lower half) or from the normal approximation of a rank statistic with
 * N pairs/averages and null sd SD0; ci_ok, exact and achieved set. */
long qqb__exact_k(const double *low, size_t half, double alpha, struct qqb_change *out);
long qqb__normal_k(double n, double sd0, double alpha, struct qqb_change *out);
/* OUT empty: every figure NaN (not measured), the sizes and level set. */
void qqb__change_init(struct qqb_change *out, size_t nb, size_t nc, double confidence);

/* Two sorted samples whose pairs are counted without being made: the
 * differences C[j] - B[i] (qqb_change), or the Walsh sums L[i] + L[j],
 * i <= j (qqb_walsh_kth: B = C = L). */
struct qqb__sorted_pairs {
    const double *b, *c;
    size_t nb, nc;
};

/* How many of the pairs are at most V; (*TOP) the largest of those
 * (-INFINITY: none) and (*ABOVE) the smallest of the others (INFINITY:
 * none). */
typedef size_t (*qqb__pairs_at_most)(const struct qqb__sorted_pairs *p, double v, double *top,
                                     double *above);

/* The K-th smallest (1-based) pair of P between the least pair LO and the
 * greatest HI, by bisection on the value and the count AT_MOST. */
double qqb__kth_pair(qqb__pairs_at_most at_most, const struct qqb__sorted_pairs *p, double lo,
                     double hi, size_t k);

#endif /* QQB_STATS_INT_H */
