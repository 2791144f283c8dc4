/* compare_print.c - `qqbench compare`'s tables: keys and memory of two .qq files. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "compare_print.h"
#include "words.h"

static const char *type_name(uint32_t t)
{
    static const char *const n[] = {"?", "state", "mark", "count", "value"};
    return t <= 4 ? n[t] : "?";
}

/* R's change as the table gives it ("" when none). */
static void change_text(const struct qqb_key_cmp *r, char *ch, size_t len)
{
    struct qqb_signed sg;
    ch[0] = '\0';
    switch (r->kind) {
    case QQB_CHANGE_TICKS:
        snprintf(ch, len, "%s tk", qqb_signed(&sg, r->change, 1));
        break;
    case QQB_CHANGE_PCT:
        snprintf(ch, len, "%s%%", qqb_signed(&sg, r->change, 2));
        break;
    case QQB_CHANGE_SUM:
        snprintf(ch, len, "sum %+" PRId64, r->sum_change);
        break;
    case QQB_CHANGE_SUM_WIDE:
        snprintf(ch, len, "sum %+.4g", r->change);
        break;
    case QQB_CHANGE_SUM_SATURATED:
        snprintf(ch, len, "sum saturated");
        break;
    case QQB_CHANGE_NONE:
        break;
    }
}

void qqb_compare_print_keys(const struct qqb_key_cmp *rows, size_t n, int all)
{
    printf("%-24s %-6s %10s %10s %14s %14s %9s\n", "key", "type", "count A", "count B",
           "net cyc/ivl A", "net cyc/ivl B", "change");
    for (size_t i = 0; i < n; i++) {
        const struct qqb_key_cmp *r = &rows[i];
        if (r->same && !all)
            continue;
        char ha[24] = "-", hb[24] = "-", ca[32] = "", cb[32] = "", ch[32];
        /* A state's count is its intervals (on to off); the others' their hits. */
        int st = r->type == QQ_TYPE_STATE;
        if (r->sa)
            snprintf(ha, sizeof ha, "%" PRIu64, st ? r->sa->intervals : r->sa->hits);
        if (r->sb)
            snprintf(hb, sizeof hb, "%" PRIu64, st ? r->sb->intervals : r->sb->hits);
        if (!isnan(r->pa))
            snprintf(ca, sizeof ca, "%.1f", r->pa);
        if (!isnan(r->pb))
            snprintf(cb, sizeof cb, "%.1f", r->pb);
        change_text(r, ch, sizeof ch);
        printf("%-24.*s %-6s %10s %10s %14s %14s %9s%s%s\n", qqb_utf8_fit(r->name, 24), r->name,
               type_name(r->type), ha, hb, ca, cb, ch,
               !r->sa   ? "  (only in B)"
               : !r->sb ? "  (only in A)"
                        : "",
               r->unresolved == 2   ? "  (both within the counter's resolution: not resolved)"
               : r->unresolved == 1 ? "  (one within the counter's resolution: change in ticks)"
                                    : "");
    }
}

void qqb_compare_print_mem(const struct qqb_mem_cmp *v, size_t n, int all)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const struct qqb_mem_cmp *k = &v[i];
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
        printf("%-24.*s %24s %24s %20s\n", qqb_utf8_fit(k->name, 24), k->name, l, p, o);
    }
}
