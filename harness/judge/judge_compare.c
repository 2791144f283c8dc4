/* judge_compare.c - two .qq files key by key: sums over nodes, each key's change from A to B. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "judge_compare.h"

/* Counts summed over nodes saturate at the int64 limits, as the reader's
 * per-node sums do (qq_file.h): never a signed overflow. */
static int64_t sat_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

static int saturated(int64_t v)
{
    return v == INT64_MAX || v == INT64_MIN;
}

/* One pass over each node (qq_file_node_stats: the file is read once, as
 * st reads it): the keys' sums, and each state's net ticks per hit. */
int qqb_qq_side_load(struct qqb_qq_side *s, char *err, size_t errlen)
{
    s->nk = qq_file_nkeys(s->f);
    s->sum = calloc(s->nk + 1, sizeof *s->sum);
    s->net = calloc(s->nk + 1, sizeof *s->net);
    struct qq_key_summary *tmp = calloc(s->nk + 1, sizeof *tmp);
    struct qq_hit_stat *h = calloc(s->nk + 1, sizeof *h);
    if (!s->sum || !s->net || !tmp || !h) {
        free(tmp);
        free(h);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < s->nk; k++)
        s->net[k] = NAN;
    s->mhz = qq_file_nnodes(s->f) ? qq_file_node(s->f, 0)->mhz : 0;
    for (uint32_t n = 0; n < qq_file_nnodes(s->f); n++) {
        struct qq_node_summary ns;
        if (qq_file_node_stats(s->f, n, &ns, tmp, h) != 0) {
            free(tmp);
            free(h);
            snprintf(err, errlen, "%s", qq_file_errmsg(s->f));
            return -1;
        }
        for (uint32_t k = 0; k < s->nk; k++) {
            s->sum[k].hits += tmp[k].hits;
            s->sum[k].intervals += tmp[k].intervals;
            s->sum[k].state_ticks += tmp[k].state_ticks;
            s->sum[k].isum = sat_add(s->sum[k].isum, tmp[k].isum);
            s->sum[k].dsum += tmp[k].dsum;
            if (h[k].intervals && (isnan(s->net[k]) || h[k].net > s->net[k]))
                s->net[k] = h[k].net;
        }
    }
    struct qq_calib c;
    s->step = qq_file_calib(s->f, 0, &c) ? c.step : 0;
    free(tmp);
    free(h);
    for (uint32_t k = 0; k < s->nk; k++) {
        const struct qq_key_info *ki = qq_file_key(s->f, k);
        if (qqb_strmap_add(&s->keys, ki->type, ki->name, k, NULL) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

void qqb_qq_side_free(struct qqb_qq_side *s)
{
    free(s->sum);
    free(s->net);
    qqb_strmap_free(&s->keys);
    s->sum = NULL;
    s->net = NULL;
}

static long find_key(struct qqb_qq_side *s, const char *name, uint32_t type)
{
    size_t k;
    return qqb_strmap_get(&s->keys, type, name, &k) ? (long)k : -1;
}

/* State key R's change: at or below the counter's resolution a net figure
 * cannot be told from zero, so no ratio of it means anything and the
 * change is given in ticks (with both there, it is not resolved at all). */
static void state_change(struct qqb_key_cmp *r, double step)
{
    double lim = qq_resolution_ticks(step);
    if (!isnan(r->pa) && !isnan(r->pb) && step > 0)
        r->unresolved = (r->pa <= lim) + (r->pb <= lim);
    if (r->unresolved) {
        r->kind = QQB_CHANGE_TICKS;
        r->change = r->pb - r->pa;
    } else if (!isnan(r->pa) && !isnan(r->pb) && r->pa > 0) {
        r->kind = QQB_CHANGE_PCT;
        r->change = 100.0 * (r->pb / r->pa - 1.0);
    }
}

static void count_change(struct qqb_key_cmp *r)
{
    const struct qq_key_summary *sa = r->sa, *sb = r->sb;
    if (!sa || !sb || sa->isum == sb->isum)
        return;
    if (saturated(sa->isum) || saturated(sb->isum)) {
        r->kind = QQB_CHANGE_SUM_SATURATED;
    } else if (!saturated(sat_add(sb->isum, -sa->isum))) {
        r->kind = QQB_CHANGE_SUM;
        r->sum_change = sat_add(sb->isum, -sa->isum);
    } else { /* the change itself is beyond 64 bits */
        r->kind = QQB_CHANGE_SUM_WIDE;
        r->change = (double)sb->isum - (double)sa->isum;
    }
}

int qqb_compare_keys(struct qqb_qq_side *a, struct qqb_qq_side *b, struct qqb_key_cmp **out,
                     size_t *n)
{
    *n = 0;
    *out = calloc((size_t)a->nk + b->nk + 1, sizeof **out);
    if (!*out)
        return -1;
    double step = a->step > b->step ? a->step : b->step;
    for (int pass = 0; pass < 2; pass++) {
        struct qqb_qq_side *x = pass ? b : a, *y = pass ? a : b;
        for (uint32_t k = 0; k < x->nk; k++) {
            const struct qq_key_info *ki = qq_file_key(x->f, k);
            long o = find_key(y, ki->name, ki->type);
            if (pass == 1 && o >= 0)
                continue; /* listed in the first pass */
            struct qqb_key_cmp *r = &(*out)[(*n)++];
            r->name = ki->name;
            r->type = ki->type;
            r->sa = pass ? NULL : &x->sum[k];
            r->sb = pass ? &x->sum[k] : (o >= 0 ? &y->sum[o] : NULL);
            r->pa = r->pb = NAN;
            if (ki->type == QQ_TYPE_STATE) {
                if (!pass)
                    r->pa = x->net[k];
                if (pass || o >= 0)
                    r->pb = pass ? x->net[k] : y->net[o];
                state_change(r, step);
            } else if (ki->type == QQ_TYPE_COUNT) {
                count_change(r);
            }
            r->same = r->sa && r->sb && r->sa->hits == r->sb->hits &&
                      (ki->type == QQ_TYPE_STATE ? r->sa->intervals == r->sb->intervals &&
                                                       r->sa->state_ticks == r->sb->state_ticks
                                                 : r->kind == QQB_CHANGE_NONE);
        }
    }
    return 0;
}

int qqb_compare_mem(const struct qqb_qq_side *a, const struct qqb_qq_side *b,
                    struct qqb_mem_cmp **out, size_t *n)
{
    struct qqb_strmap seen = {0};
    struct qqb_mem_cmp *v = NULL;
    size_t cap = 0;
    int rc = 0;
    *n = 0;
    for (int side = 0; side < 2 && !rc; side++) {
        const struct qq_file *f = side ? b->f : a->f;
        for (uint32_t node = 0; node < qq_file_nnodes(f) && !rc; node++) {
            struct qq_mem_table t;
            if (!qq_file_mem(f, node, &t))
                continue;
            for (uint32_t r = 0; r < t.nrows; r++) {
                const struct qq_mem_row *row = &t.rows[r];
                size_t i = *n;
                int added = qqb_strmap_add(&seen, 0, row->name, i, &i);
                if (added > 0) {
                    struct qqb_mem_cmp *nv = qqb_grow(v, *n, &cap, sizeof *v, 16);
                    if (!nv)
                        added = -1;
                    else
                        v = nv;
                }
                if (added < 0) {
                    rc = -1;
                    break;
                }
                if (added) {
                    memset(&v[i], 0, sizeof v[i]);
                    v[i].name = row->name;
                    (*n)++;
                }
                /* A name in the map has its row in v. */
                v[i].found[side] = 1; // NOLINT(clang-analyzer-core.NullDereference)
                v[i].live[side] += row->obj_bytes + row->alloc_bytes;
                v[i].peak[side] += row->peak_bytes;
                v[i].objs[side] += row->created;
            }
        }
    }
    qqb_strmap_free(&seen);
    if (rc) {
        free(v);
        *n = 0;
        v = NULL;
    }
    *out = v;
    return rc;
}
