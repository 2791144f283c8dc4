/* qq_stat.c - ticks per hit of state intervals: the one estimator, and per-key figures of a file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double qq_short_ticks(double mhz, double step)
{
    double a = mhz > 0 ? QQ_SHORT_NS * mhz / 1000.0 : 0;
    double b = step > 0 ? QQ_SHORT_STEPS * step : 0;
    return a > b ? a : b;
}

double qq_resolution_ticks(double step)
{
    double r = QQ_RESOLVE_STEPS * step;
    return r > 1.0 ? r : 1.0;
}

int qq_calib_resolved(const struct qq_calib *cal)
{
    return cal->empty_typical > qq_resolution_ticks(cal->step);
}

/* Exchange-based quickselect: after it, V[K] holds the K-th smallest of
 * V[0..N), everything before it is <= and everything after >= it. Hoare's
 * partition splits runs of equal values (quantised intervals have many)
 * evenly; past a depth of 2 log2(N) rounds, the rest is sorted, so no input
 * costs more than O(N log N). */
static void select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1, depth = 2;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    while (hi > lo) {
        if (depth-- == 0) {
            qsort(v + lo, hi - lo + 1, sizeof *v, cmp_double);
            return;
        }
        /* Median of three as the pivot. */
        size_t mid = lo + (hi - lo) / 2;
        double a = v[lo], b = v[mid], c = v[hi];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi;
        /* The pivot is one of v[lo..hi]: both scans stop inside. */
        // NOLINTBEGIN(clang-analyzer-core.UndefinedBinaryOperatorResult)
        for (;;) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            // NOLINTEND(clang-analyzer-core.UndefinedBinaryOperatorResult)
            if (i >= j)
                break;
            double t = v[i];
            v[i] = v[j];
            v[j] = t;
            i++;
            j--;
        }
        /* [lo, j] <= pivot <= [j + 1, hi] */
        if (k <= j)
            hi = j;
        else
            lo = j + 1;
    }
}

/* The largest of V[0..N), N >= 1. */
static double max_of(const double *v, size_t n)
{
    double m = v[0];
    for (size_t i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

/*
 * Ranks by counting: interval lengths are whole ticks, and a state's are
 * mostly a few hundred ticks or less. One pass counts the values below
 * HIST_BINS (the rest in one last bin); a rank that falls below it is read
 * off the counts, without the unpredictable branches of a partition.
 */
#define HIST_BINS QQ__HIST_BINS
#define HIST_MIN  QQ__HIST_MIN /* fewer values: selecting is as fast */

struct hist {
    size_t *count; /* HIST_BINS + 1 */
};

/* The values are V (doubles) or, when V is NULL, U (32-bit ticks). 0, or -1
 * when a double is not a whole number >= 0 (NaN included). */
static int hist_build(struct hist *h, const double *v, const uint32_t *u, size_t n)
{
    size_t *c = h->count;
    memset(c, 0, (HIST_BINS + 1) * sizeof *c);
    if (!v) {
        for (size_t i = 0; i < n; i++)
            c[u[i] < HIST_BINS ? u[i] : HIST_BINS]++;
        return 0;
    }
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        double x = v[i];
        if (x >= 0 && x < HIST_BINS) {
            size_t b = (size_t)x;
            ok &= (double)b == x;
            c[b]++;
        } else if (x >= HIST_BINS) {
            c[HIST_BINS]++;
        } else {
            ok = 0;
        }
    }
    return ok ? 0 : -1;
}

/* The K-th smallest value (0-based) into *X; -1 when it is in the last bin. */
static int hist_rank(const struct hist *h, size_t k, double *x)
{
    size_t seen = 0;
    for (size_t b = 0; b < HIST_BINS; b++) {
        seen += h->count[b];
        if (seen > k) {
            *x = (double)b;
            return 0;
        }
    }
    return -1;
}

/* From the counts: the sum of the values <= FENCE into *SUM, their number
 * into *K. -1 when the counts cannot tell (FENCE reaches the last bin) or
 * the sum reaches 2^53, where the doubles' sum rounds. */
static int hist_fenced_sum(const struct hist *h, double fence, double *sum, size_t *k)
{
    if (!(fence >= 0 && fence < HIST_BINS))
        return -1;
    size_t top = (size_t)fence, kept = 0;
    uint64_t s = 0;
    for (size_t b = 0; b <= top; b++) {
        s += (uint64_t)b * h->count[b];
        kept += h->count[b];
    }
    if (s >= (UINT64_C(1) << 53))
        return -1;
    *sum = (double)s;
    *k = kept;
    return 0;
}

/* The sum of the values <= FENCE (>= 0), their number into *K. Whole ticks:
 * the 64-bit sum is the doubles' sum, exactly, below 2^53. */
static double fenced_sum(const double *v, const uint32_t *u, size_t n, double fence, size_t *k)
{
    size_t kept = 0;
    double sum = 0;
    if (!v) {
        uint32_t f = fence >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)fence;
        uint64_t s = 0;
        for (size_t i = 0; i < n; i++)
            if (u[i] <= f) {
                s += u[i];
                kept++;
            }
        if (s < (UINT64_C(1) << 53)) {
            *k = kept;
            return (double)s;
        }
        kept = 0; /* the doubles' rounding, in the doubles' order */
        for (size_t i = 0; i < n; i++)
            if (u[i] <= f) {
                sum += u[i];
                kept++;
            }
        *k = kept;
        return sum;
    }
    for (size_t i = 0; i < n; i++)
        if (v[i] <= fence) {
            sum += v[i];
            kept++;
        }
    *k = kept;
    return sum;
}

/* qq_per_hit of V, or when V is NULL of U: then 1 when the counts cannot
 * answer (the values must be selected, as doubles), else 0. */
static int per_hit(double *v, const uint32_t *u, size_t n, double short_ticks, double step,
                   int *rule, size_t *kept, double *out, double *fence_out)
{
    int r = QQ_HIT_NONE;
    size_t k = 0;
    double x = 0;
    struct hist h = {NULL};
    double lo, hi, med = 0;
    int counted = 0;
    if (n >= HIST_MIN && (h.count = malloc((HIST_BINS + 1) * sizeof *h.count)) != NULL &&
        hist_build(&h, v, u, n) == 0 && hist_rank(&h, (n - 1) / 2, &lo) == 0 &&
        hist_rank(&h, n / 2, &hi) == 0) {
        med = n % 2 ? hi : (lo + hi) / 2;
        counted = 1;
    }
    if (n > 0) {
        if (!counted && !v) {
            free(h.count);
            return 1;
        }
        if (!counted) {
            select_kth(v, n, n / 2);
            med = n % 2 ? v[n / 2] : (max_of(v, n / 2) + v[n / 2]) / 2;
        }
        if (med < short_ticks) {
            double fence = 4.0 * med + 16.0 * step, sum;
            if (fence_out)
                *fence_out = fence;
            if (!counted || hist_fenced_sum(&h, fence, &sum, &k) != 0)
                sum = fenced_sum(v, u, n, fence, &k);
            r = QQ_HIT_MEAN;
            x = sum / (double)k; /* k >= 1: the smallest value is <= med */
        } else if (n >= 10) {
            r = QQ_HIT_P10;
            if (!counted) {
                select_kth(v, n / 2, n / 10); /* n / 10 < n / 2: in the lower half */
                x = v[n / 10];
            } else if (hist_rank(&h, n / 10, &x) != 0) {
                x = 0; /* below the median, which was counted: cannot happen */
            }
            k = n;
        } else {
            r = QQ_HIT_MEDIAN;
            x = med;
            k = n;
        }
    }
    free(h.count);
    if (rule)
        *rule = r;
    if (kept)
        *kept = k;
    *out = x;
    return 0;
}

/* The rule is in qq_file.h; its measured bias in docs/STATISTICS.md. The
 * median and the 10th percentile are counted or selected, not sorted for:
 * a state of 10^7 intervals costs a few passes over them. Interval lengths
 * are whole ticks, so the fenced mean's sum is exact in any order (below
 * 2^53). */
double qq_per_hit(double *v, size_t n, double short_ticks, double step, int *rule, size_t *kept)
{
    double x = 0;
    if (!v)
        n = 0;
    (void)per_hit(v, NULL, n, short_ticks, step, rule, kept, &x, NULL);
    return x;
}

/* V's lengths as doubles, in an array of CAP (at least N) doubles. 0, or
 * QQ_ENOMEM with V unchanged. */
static int ivals_widen(struct qq__ivals *v, size_t cap)
{
    if (cap < v->n)
        cap = v->n;
    if (cap == 0)
        cap = 64;
    double *d = malloc(cap * sizeof *d);
    if (!d)
        return QQ_ENOMEM;
    for (size_t i = 0; i < v->n; i++)
        d[i] = (double)v->u[i];
    free(v->u);
    v->d = d;
    v->u = NULL;
    v->ucap = 0;
    v->dcap = cap;
    return 0;
}

/* P (*CAP elements of SIZE bytes) reallocated to twice as many (64 at
 * first), *CAP updated; NULL, and P and *CAP unchanged, when out of memory. */
static void *grow(void *p, size_t *cap, size_t size)
{
    size_t c = *cap ? 2 * *cap : 64;
    void *np = realloc(p, c * size);
    if (np)
        *cap = c;
    return np;
}

/* V's lengths below HIST_BINS counted, the rest kept. 0, or QQ_ENOMEM. */
static int ivals_count(struct qq__ivals *v)
{
    size_t *c = calloc(HIST_BINS + 1, sizeof *c);
    if (!c)
        return QQ_ENOMEM;
    size_t kept = 0;
    for (size_t i = 0; i < v->n; i++) {
        double x = v->d ? v->d[i] : (double)v->u[i];
        if (x < HIST_BINS)
            c[(size_t)x]++; /* whole ticks, >= 0 */
        else if (v->d)
            v->d[kept++] = x;
        else
            v->u[kept++] = v->u[i];
    }
    v->n = kept;
    v->count = c;
    return 0;
}

int qq__ivals_grow(struct qq__ivals *v, uint64_t len)
{
    if (!v->count && v->n >= HIST_MIN && ivals_count(v) != 0)
        return QQ_ENOMEM;
    if (v->count && len < HIST_BINS) {
        v->count[len]++;
        return 0;
    }
    if (!v->d && len <= UINT32_MAX) {
        if (v->n == v->ucap) {
            uint32_t *nu = grow(v->u, &v->ucap, sizeof *nu);
            if (!nu)
                return QQ_ENOMEM;
            v->u = nu;
        }
        v->u[v->n++] = (uint32_t)len;
        return 0;
    }
    if (!v->d && ivals_widen(v, v->ucap) != 0)
        return QQ_ENOMEM;
    if (v->n == v->dcap) {
        double *nd = grow(v->d, &v->dcap, sizeof *nd);
        if (!nd)
            return QQ_ENOMEM;
        v->d = nd;
    }
    v->d[v->n++] = (double)len;
    return 0;
}

/* The step for files without a calibration: the writer's bare-read step
 * from the metadata, else 0 (every interval is then treated as long). */
static double fallback_step(const struct qq_file *f)
{
    const char *ms = qq_file_meta(f, "tick_step");
    double s = ms ? strtod(ms, NULL) : 0;
    return s > 0 ? s : 0;
}

/* The spread of a MEAN-rule figure S over the N intervals of V: the kept
 * ones are those at or below FENCE. Their squared deviations from raw give
 * se; one length among them all is a locked phase. */
static void mean_spread(const struct qq__ivals *v, size_t n, double fence, struct qq_hit_stat *s)
{
    double ss = 0, lo = INFINITY, hi = -INFINITY;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double x = v->d ? v->d[i] : (double)v->u[i];
        if (!(x <= fence))
            continue;
        ss += (x - s->raw) * (x - s->raw);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        k++;
    }
    s->se = k > 1 ? sqrt(ss / (double)(k - 1) / (double)k) : 0;
    s->locked = k > 0 && lo == hi;
}

/* The K-th smallest (0-based) of V's lengths, BELOW of them counted, into
 * *X: from the counts, or selected among those kept (made doubles, and
 * reordered). 0, or QQ_ENOMEM. */
static int counted_rank(struct qq__ivals *v, size_t below, size_t k, double *x)
{
    struct hist h = {v->count};
    if (k < below && hist_rank(&h, k, x) == 0)
        return 0;
    if (!v->d && ivals_widen(v, v->n) != 0)
        return QQ_ENOMEM;
    if (!v->d || k - below >= v->n)
        return QQ_ENOMEM; /* cannot happen: k < below + n */
    select_kth(v->d, v->n, k - below);
    *x = v->d[k - below];
    return 0;
}

/* The MEAN rule's figure of V's lengths at or below FENCE (BELOW of them
 * counted): the sum of whole ticks, exact in 64 bits, and the spread as
 * mean_spread gives it (the counted lengths a length at a time, times its
 * count). */
static void counted_mean(const struct qq__ivals *v, double fence, struct qq_hit_stat *s)
{
    uint64_t sum = 0;
    size_t k = 0, top = fence >= HIST_BINS - 1 ? HIST_BINS - 1 : (size_t)fence;
    for (size_t b = 0; b <= top; b++) {
        sum += (uint64_t)b * v->count[b];
        k += v->count[b];
    }
    for (size_t i = 0; i < v->n; i++) {
        double x = v->d ? v->d[i] : (double)v->u[i];
        if (x <= fence) {
            sum += (uint64_t)x;
            k++;
        }
    }
    s->kept = k;
    s->raw = (double)sum / (double)k; /* k >= 1: the smallest length is <= the median */
    double ss = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t b = 0; b <= top; b++)
        if (v->count[b]) {
            double x = (double)b;
            ss += (double)v->count[b] * (x - s->raw) * (x - s->raw);
            lo = x < lo ? x : lo;
            hi = x;
        }
    for (size_t i = 0; i < v->n; i++) {
        double x = v->d ? v->d[i] : (double)v->u[i];
        if (x <= fence) {
            ss += (x - s->raw) * (x - s->raw);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    }
    s->se = k > 1 ? sqrt(ss / (double)(k - 1) / (double)k) : 0;
    s->locked = k > 0 && lo == hi;
}

/* The figures of a state key whose short lengths were counted (V->count):
 * the same rule and figures as per_hit's of every length (at least
 * HIST_MIN of them, so never the median rule). 0, or QQ_ENOMEM. */
static int counted_figures(struct qq__ivals *v, double short_ticks, double step,
                           struct qq_hit_stat *s)
{
    size_t below = 0;
    double all = 0;
    for (size_t b = 0; b < HIST_BINS; b++) {
        below += v->count[b];
        all += (double)b * (double)v->count[b];
    }
    v->count[HIST_BINS] = v->n;
    size_t n = below + v->n;
    for (size_t i = 0; i < v->n; i++)
        all += v->d ? v->d[i] : (double)v->u[i];
    s->intervals = n;
    /* Exact when no length wrapped the 64-bit sum: the doubles' sum in any order. */
    s->mean = (!v->d && n <= UINT32_MAX && v->sum < (UINT64_C(1) << 53) ? (double)v->sum : all) /
              (double)n;
    double lo, hi;
    if (counted_rank(v, below, (n - 1) / 2, &lo) != 0 || counted_rank(v, below, n / 2, &hi) != 0)
        return QQ_ENOMEM;
    double med = n % 2 ? hi : (lo + hi) / 2;
    if (med < short_ticks) {
        s->rule = QQ_HIT_MEAN;
        counted_mean(v, 4.0 * med + 16.0 * step, s);
        return 0;
    }
    s->rule = QQ_HIT_P10;
    s->kept = n;
    return counted_rank(v, below, n / 10, &s->raw);
}

/* The figures of every state key from its intervals IV (reordered, or
 * widened to doubles). 0, or QQ_ENOMEM. */
static int hit_figures(const struct qq_file *f, uint32_t node, struct qq__ivals *iv,
                       struct qq_hit_stat *out)
{
    uint32_t nk = qq_file_nkeys(f);
    const struct qq_node_info *ni = qq_file_node(f, node);
    struct qq_calib cal;
    int have = qq_file_calib(f, node, &cal);
    double step = have && cal.step > 0 ? cal.step : fallback_step(f);
    double empty = have ? cal.empty_typical : 0;
    double short_ticks = qq_short_ticks(ni->mhz, step);
    memset(out, 0, (size_t)nk * sizeof *out);
    for (uint32_t k = 0; k < nk; k++) {
        struct qq_hit_stat *s = &out[k];
        struct qq__ivals *v = &iv[k];
        size_t n = v->n, kept = 0;
        if (v->count) {
            if (counted_figures(v, short_ticks, step, s) != 0)
                return QQ_ENOMEM;
            s->net = s->raw - empty;
            continue;
        }
        if (n == 0)
            continue;
        double sum = 0;
        if (!v->d && n <= UINT32_MAX && v->sum < (UINT64_C(1) << 53)) { /* no wrap */
            sum = (double)v->sum; /* exact: the doubles' sum, in any order */
        } else if (!v->d) {
            sum = fenced_sum(NULL, v->u, n, (double)UINT32_MAX, &kept); /* all */
        } else {
            for (size_t i = 0; i < n; i++)
                sum += v->d[i];
        }
        s->intervals = n;
        s->mean = sum / (double)n;
        double fence = 0;
        if (!v->d &&
            per_hit(NULL, v->u, n, short_ticks, step, &s->rule, &kept, &s->raw, &fence) == 0) {
            /* counted in 32 bits */
        } else {
            if (!v->d && ivals_widen(v, n) != 0)
                return QQ_ENOMEM;
            /* v->d is set now (ivals_widen); qq_per_hit's guard all the same */
            (void)per_hit(v->d, NULL, v->d ? n : 0, short_ticks, step, &s->rule, &kept, &s->raw,
                          &fence);
        }
        s->kept = kept;
        s->net = s->raw - empty;
        if (s->rule == QQ_HIT_MEAN)
            mean_spread(v, n, fence, s);
    }
    return 0;
}

/* Stats of NODE's entries FROM .. TO - 1. */
static int range_stats(const struct qq_file *f, uint32_t node, uint64_t from, uint64_t to,
                       struct qq_node_summary *ns, struct qq_key_summary *keys,
                       struct qq_hit_stat *hits)
{
    uint32_t nk = qq_file_nkeys(f);
    struct qq__ivals *iv = NULL;
    if (hits && !(iv = calloc(nk ? nk : 1, sizeof *iv)))
        return QQ_ENOMEM;
    int rc = qq__node_pass_range(f, node, from, to, ns, keys, iv);
    if (rc == 0 && hits)
        rc = hit_figures(f, node, iv, hits);
    if (iv)
        for (uint32_t k = 0; k < nk; k++) {
            free(iv[k].u);
            free(iv[k].d);
            free(iv[k].count);
        }
    free(iv);
    return rc;
}

int qq_file_node_stats(const struct qq_file *f, uint32_t node, struct qq_node_summary *ns,
                       struct qq_key_summary *keys, struct qq_hit_stat *hits)
{
    const struct qq_node_info *ni = qq_file_node(f, node);
    if (!ni)
        return QQ_EINVAL;
    return range_stats(f, node, 0, ni->entries, ns, keys, hits);
}

int qq_file_thread_stats(const struct qq_file *f, uint32_t node, uint32_t thread,
                         struct qq_node_summary *ns, struct qq_key_summary *keys,
                         struct qq_hit_stat *hits)
{
    const struct qq_thread_info *t = qq_file_thread(f, node, thread);
    if (!t)
        return QQ_EINVAL;
    return range_stats(f, node, t->first, t->first + t->events, ns, keys, hits);
}

int qq_file_hit_stats(const struct qq_file *f, uint32_t node, struct qq_hit_stat *out)
{
    struct qq_node_summary ns;
    return qq_file_node_stats(f, node, &ns, NULL, out);
}
