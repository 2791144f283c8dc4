/* qq_stat.c - ticks per hit of state intervals: the one estimator, and per-key figures of a file.
 */
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

/* The rule is in qq_file.h; its measured bias in docs/STATISTICS.md. */
double qq_per_hit(double *v, size_t n, double short_ticks, double step, int *rule, size_t *kept)
{
    int r = QQ_HIT_NONE;
    size_t k = 0;
    double x = 0;
    if (n > 0) {
        qsort(v, n, sizeof *v, cmp_double);
        double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        if (med < short_ticks) {
            double fence = 4.0 * med + 16.0 * step, sum = 0;
            while (k < n && v[k] <= fence)
                sum += v[k++];
            r = QQ_HIT_MEAN;
            x = sum / (double)k; /* k >= 1: the smallest value is <= med */
        } else if (n >= 10) {
            r = QQ_HIT_P10;
            x = v[n / 10];
            k = n;
        } else {
            r = QQ_HIT_MEDIAN;
            x = med;
            k = n;
        }
    }
    if (rule)
        *rule = r;
    if (kept)
        *kept = k;
    return x;
}

/* Interval lengths of one key, grown as the entries are walked. */
struct ivals {
    double *v;
    size_t n, cap;
};

static int ivals_add(struct ivals *iv, double x)
{
    if (iv->n == iv->cap) {
        size_t cap = iv->cap ? 2 * iv->cap : 64;
        double *v = realloc(iv->v, cap * sizeof *v);
        if (!v)
            return QQ_ENOMEM;
        iv->v = v;
        iv->cap = cap;
    }
    iv->v[iv->n++] = x;
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

int qq_file_hit_stats(const struct qq_file *f, uint32_t node, struct qq_hit_stat *out)
{
    uint32_t nk = qq_file_nkeys(f);
    const struct qq_node_info *ni = qq_file_node(f, node);
    if (!ni)
        return QQ_EINVAL;
    memset(out, 0, (size_t)nk * sizeof *out);
    struct ivals *iv = calloc(nk ? nk : 1, sizeof *iv);
    uint64_t *open_at = calloc(nk ? nk : 1, sizeof *open_at);
    int rc = iv && open_at ? 0 : QQ_ENOMEM;
    const struct qq_event *e = qq_file_entries(f, node);
    for (uint64_t j = 0; rc == 0 && j < ni->entries; j++) {
        uint32_t k = e[j].key;
        if (qq_file_key(f, k)->type != QQ_TYPE_STATE)
            continue;
        if (e[j].info.i) {
            if (!open_at[k])
                open_at[k] = e[j].tick + 1; /* +1: 0 means closed */
        } else if (open_at[k]) {
            rc = ivals_add(&iv[k], (double)(e[j].tick - (open_at[k] - 1)));
            open_at[k] = 0;
        }
    }
    struct qq_calib cal;
    int have = qq_file_calib(f, node, &cal);
    double step = have && cal.step > 0 ? cal.step : fallback_step(f);
    double empty = have ? cal.empty_typical : 0;
    for (uint32_t k = 0; rc == 0 && k < nk; k++) {
        struct qq_hit_stat *s = &out[k];
        if (iv[k].n == 0)
            continue;
        double sum = 0;
        for (size_t i = 0; i < iv[k].n; i++)
            sum += iv[k].v[i];
        size_t kept;
        s->intervals = iv[k].n;
        s->mean = sum / (double)iv[k].n;
        s->raw = qq_per_hit(iv[k].v, iv[k].n, qq_short_ticks(ni->mhz, step), step, &s->rule, &kept);
        s->kept = kept;
        s->net = s->raw - empty;
    }
    if (iv)
        for (uint32_t k = 0; k < nk; k++)
            free(iv[k].v);
    free(iv);
    free(open_at);
    return rc;
}
