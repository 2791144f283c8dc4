/* cmd_compare.c - qqbench compare A.qq B.qq: two files key by key (hits, cycles per hit, memory).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "cmds.h"
#include "opts.h"
#include "qq_file.h"
#include "strmap.h"
#include "trace.h"
#include "words.h"

/* The usage's prose around the option lines, which the table in
 * cmd_compare generates. */
static const struct qqb_opts_cmd compare_cmd = {
    "compare",
    "usage: qqbench compare [--all] A.qq B.qq\n\n"
    "Compare two QQ files key by key, summed over nodes: the count (a\n"
    "state's intervals, on to off; the other keys' hits), cycles in each\n"
    "state, net cycles per interval (the per-hit estimator of\n"
    "docs/STATISTICS.md minus the empty-state cost QQInit calibrated, the\n"
    "slowest node's) and the change from A to B (in ticks where a figure\n"
    "is within the counter's resolution, half a counter step, of zero);\n"
    "then memory per key (live and peak bytes, objects). One file per side is one "
    "launch: there is no statistics\n"
    "here. For verdicts with intervals, run both versions through\n"
    "'qqbench run' (variants or a baseline).\n\n",
    "\nExit: 0, or 2 when a file is missing or damaged.\n"};

struct side {
    struct qq_file *f;
    uint32_t nk;
    struct qq_key_summary *sum; /* per key, summed over nodes */
    double mhz;
    double *net;            /* per key: net ticks per hit, the slowest node's; NaN if none */
    double step;            /* node 0's counter step (0 if the file has no calibration) */
    struct qqb_strmap keys; /* (type, name) -> key index: look-ups in O(1) */
};

/* Net ticks per hit of each state key (qq_file_hit_stats: the estimator of
 * docs/STATISTICS.md, minus the calibrated empty state), the slowest node's. */
static int load_hits(struct side *s)
{
    s->net = calloc(s->nk + 1, sizeof *s->net);
    struct qq_hit_stat *h = calloc(s->nk + 1, sizeof *h);
    if (!s->net || !h) {
        free(h);
        fprintf(stderr, "qqbench compare: error: out of memory\n");
        return -1;
    }
    for (uint32_t k = 0; k < s->nk; k++)
        s->net[k] = NAN;
    for (uint32_t n = 0; n < qq_file_nnodes(s->f); n++) {
        if (qq_file_hit_stats(s->f, n, h) != 0) {
            free(h);
            fprintf(stderr, "qqbench compare: error: %s\n", qq_file_errmsg(s->f));
            return -1;
        }
        for (uint32_t k = 0; k < s->nk; k++)
            if (h[k].intervals && (isnan(s->net[k]) || h[k].net > s->net[k]))
                s->net[k] = h[k].net;
    }
    struct qq_calib c;
    s->step = qq_file_calib(s->f, 0, &c) ? c.step : 0;
    free(h);
    return 0;
}

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

static int load(const char *path, struct side *s)
{
    if (qq_file_open_stream(path, &s->f) != 0) {
        fprintf(stderr, "qqbench compare: error: %s\n", qq_file_errmsg(s->f));
        return -1;
    }
    char terr[600];
    if (qqb_ticks_judgeable(s->f, path, terr, sizeof terr) != 0) {
        fprintf(stderr, "qqbench compare: error: %s\n", terr);
        return -1;
    }
    s->nk = qq_file_nkeys(s->f);
    s->sum = calloc(s->nk + 1, sizeof *s->sum);
    struct qq_key_summary *tmp = calloc(s->nk + 1, sizeof *tmp);
    if (!s->sum || !tmp) {
        free(tmp);
        fprintf(stderr, "qqbench compare: error: out of memory\n");
        return -1;
    }
    s->mhz = qq_file_nnodes(s->f) ? qq_file_node(s->f, 0)->mhz : 0;
    for (uint32_t n = 0; n < qq_file_nnodes(s->f); n++) {
        struct qq_node_summary ns;
        if (qq_file_summarize(s->f, n, &ns, tmp) != 0) {
            free(tmp);
            fprintf(stderr, "qqbench compare: error: %s\n", qq_file_errmsg(s->f));
            return -1;
        }
        for (uint32_t k = 0; k < s->nk; k++) {
            s->sum[k].hits += tmp[k].hits;
            s->sum[k].intervals += tmp[k].intervals;
            s->sum[k].state_ticks += tmp[k].state_ticks;
            s->sum[k].isum = sat_add(s->sum[k].isum, tmp[k].isum);
            s->sum[k].dsum += tmp[k].dsum;
        }
    }
    free(tmp);
    for (uint32_t k = 0; k < s->nk; k++) {
        const struct qq_key_info *ki = qq_file_key(s->f, k);
        if (qqb_strmap_add(&s->keys, ki->type, ki->name, k, NULL) < 0) {
            fprintf(stderr, "qqbench compare: error: out of memory\n");
            return -1;
        }
    }
    return 0;
}

static long find_key(struct side *s, const char *name, uint32_t type)
{
    size_t k;
    return qqb_strmap_get(&s->keys, type, name, &k) ? (long)k : -1;
}

static const char *type_name(uint32_t t)
{
    static const char *const n[] = {"?", "state", "mark", "count", "value"};
    return t <= 4 ? n[t] : "?";
}

static void print_keys(struct side *a, struct side *b, int all)
{
    printf("%-24s %-6s %10s %10s %14s %14s %9s\n", "key", "type", "count A", "count B",
           "net cyc/ivl A", "net cyc/ivl B", "change");
    for (int pass = 0; pass < 2; pass++) {
        struct side *x = pass ? b : a, *y = pass ? a : b;
        for (uint32_t k = 0; k < x->nk; k++) {
            const struct qq_key_info *ki = qq_file_key(x->f, k);
            long o = find_key(y, ki->name, ki->type);
            if (pass == 1 && o >= 0)
                continue; /* listed in the first pass */
            const struct qq_key_summary *sa = pass ? NULL : &x->sum[k];
            const struct qq_key_summary *sb = pass ? &x->sum[k] : (o >= 0 ? &y->sum[o] : NULL);
            char ha[24] = "-", hb[24] = "-", ca[32] = "", cb[32] = "", ch[32] = "";
            /* A state's count is its intervals (on to off); the others' their hits. */
            int st = ki->type == QQ_TYPE_STATE;
            if (sa)
                snprintf(ha, sizeof ha, "%" PRIu64, st ? sa->intervals : sa->hits);
            if (sb)
                snprintf(hb, sizeof hb, "%" PRIu64, st ? sb->intervals : sb->hits);
            double pa = NAN, pb = NAN;
            const struct side *sda = pass ? NULL : x, *sdb = pass ? x : (o >= 0 ? y : NULL);
            long ka = pass ? -1 : (long)k, kb = pass ? (long)k : o;
            int unresolved = 0;
            if (ki->type == QQ_TYPE_STATE) {
                if (sda)
                    pa = sda->net[ka];
                if (sdb)
                    pb = sdb->net[kb];
                if (!isnan(pa))
                    snprintf(ca, sizeof ca, "%.1f", pa);
                if (!isnan(pb))
                    snprintf(cb, sizeof cb, "%.1f", pb);
                /* At or below the counter's resolution a net figure cannot
                 * be told from zero: no ratio of it means anything, so the
                 * change is given in ticks; with both there, it is not
                 * resolved at all. */
                double step = a->step > b->step ? a->step : b->step;
                double lim = qq_resolution_ticks(step);
                if (!isnan(pa) && !isnan(pb) && step > 0)
                    unresolved = (pa <= lim) + (pb <= lim);
                struct qqb_signed sg;
                if (unresolved)
                    snprintf(ch, sizeof ch, "%s tk", qqb_signed(&sg, pb - pa, 1));
                else if (!isnan(pa) && !isnan(pb) && pa > 0)
                    snprintf(ch, sizeof ch, "%s%%", qqb_signed(&sg, 100.0 * (pb / pa - 1.0), 2));
            } else if (ki->type == QQ_TYPE_COUNT && sa && sb && sa->isum != sb->isum) {
                if (saturated(sa->isum) || saturated(sb->isum))
                    snprintf(ch, sizeof ch, "sum saturated");
                else if (!saturated(sat_add(sb->isum, -sa->isum)))
                    snprintf(ch, sizeof ch, "sum %+" PRId64, sat_add(sb->isum, -sa->isum));
                else /* the change itself is beyond 64 bits */
                    snprintf(ch, sizeof ch, "sum %+.4g", (double)sb->isum - (double)sa->isum);
            }
            int same = sa && sb && sa->hits == sb->hits &&
                       (ki->type == QQ_TYPE_STATE
                            ? sa->intervals == sb->intervals && sa->state_ticks == sb->state_ticks
                            : !ch[0]);
            if (same && !all)
                continue;
            printf("%-24.24s %-6s %10s %10s %14s %14s %9s%s%s\n", ki->name, type_name(ki->type), ha,
                   hb, ca, cb, ch,
                   !sa   ? "  (only in B)"
                   : !sb ? "  (only in A)"
                         : "",
                   unresolved == 2   ? "  (both within the counter's resolution: not resolved)"
                   : unresolved == 1 ? "  (one within the counter's resolution: change in ticks)"
                                     : "");
        }
    }
}

/* One memory key's totals over the nodes of each file. */
struct mem_key {
    const char *name; /* borrowed from the file that has it first */
    uint64_t live[2], peak[2], objs[2];
    int found[2];
};

/* Every memory key of A then B's others, in the order first met, summed
 * over nodes: one pass over the rows, keys found by hash. */
static int mem_keys(const struct side *a, const struct side *b, struct mem_key **out, size_t *n)
{
    struct qqb_strmap seen = {0};
    struct mem_key *v = NULL;
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
                    struct mem_key *nv = qqb_grow(v, *n, &cap, sizeof *v, 16);
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

static int print_mem(const struct side *a, const struct side *b, int all)
{
    struct mem_key *v;
    size_t n;
    int header = 0;
    if (mem_keys(a, b, &v, &n)) {
        fprintf(stderr, "qqbench compare: error: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const struct mem_key *k = &v[i];
        if (!all && k->live[0] == k->live[1] && k->peak[0] == k->peak[1] &&
            k->objs[0] == k->objs[1] && k->found[0] && k->found[1])
            continue;
        if (!header) {
            printf("\n%-24s %24s %24s %20s\n", "memory key", "live bytes A -> B",
                   "peak bytes A -> B", "objects A -> B");
            header = 1;
        }
        char l[48], p[48], o[48];
        snprintf(l, sizeof l, "%" PRIu64 " -> %" PRIu64, k->live[0], k->live[1]);
        snprintf(p, sizeof p, "%" PRIu64 " -> %" PRIu64, k->peak[0], k->peak[1]);
        snprintf(o, sizeof o, "%" PRIu64 " -> %" PRIu64, k->objs[0], k->objs[1]);
        printf("%-24.24s %24s %24s %20s\n", k->name, l, p, o);
    }
    free(v);
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    int all = 0;
    const char *files[2] = {NULL, NULL};
    const struct qqb_opt table[] = {
        QQB_OPT_FLAG("--all", 0, &all, "also list keys whose numbers did not change"),
        QQB_OPT_REQUIRED_POSITIONAL("A.qq", &files[0]),
        QQB_OPT_REQUIRED_POSITIONAL("B.qq", &files[1]),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&compare_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    struct side a = {0}, b = {0};
    int rc = QQB_EXIT_USAGE;
    if (load(files[0], &a) == 0 && load(files[1], &b) == 0 && load_hits(&a) == 0 &&
        load_hits(&b) == 0) {
        struct qqb_count na, nb;
        printf("A: %s (%s, %.3f MHz)\nB: %s (%s, %.3f MHz)\n\n", files[0],
               qqb_count(&na, qq_file_nnodes(a.f), "node"), a.mhz, files[1],
               qqb_count(&nb, qq_file_nnodes(b.f), "node"), b.mhz);
        print_keys(&a, &b, all);
        if (print_mem(&a, &b, all) == 0) {
            printf("\nOne launch per side: differences below a few percent are within a "
                   "machine's noise;\nuse 'qqbench run' for verdicts.\n");
            rc = QQB_EXIT_OK;
        }
    }
    free(a.sum);
    free(b.sum);
    free(a.net);
    free(b.net);
    qqb_strmap_free(&a.keys);
    qqb_strmap_free(&b.keys);
    qq_file_close(a.f);
    qq_file_close(b.f);
    return rc;
}
