/* judge_mem.c - judge: the memory rows per key, against the memory baseline, the reference
 * variant and the reference build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_rows.h"

static int push_mem(struct qqb_judgement *j, const struct qqb_memcmp *m)
{
    if (j->nmem == j->capmem) {
        size_t cap = j->capmem ? 2 * j->capmem : 32;
        struct qqb_memcmp *v = realloc(j->mem, cap * sizeof *v);
        if (!v)
            return -1;
        j->mem = v;
        j->capmem = cap;
    }
    j->mem[j->nmem++] = *m;
    return 0;
}

/* ---------------------------------------------------------------------
 * Memory.
 * --------------------------------------------------------------------- */

static const struct qqb_mem *mem_find(const struct qqb_case_result *c, const char *k)
{
    for (size_t i = 0; i < c->nmem; i++)
        if (!strcmp(c->mem[i].key, k))
            return &c->mem[i];
    return NULL;
}

/* Memory of CUR against BASE (the same case in the baseline, or the
 * reference variant); every key whose live or peak bytes moved beyond the
 * tolerance, or that appeared or vanished. Where several threads allocated
 * on a key at once the file gives the peak as bounds (docs/MEMORY.md):
 * peak_bytes is the upper one, and that is what is compared (the report
 * says so beside such a row). */
int qqb_judge_compare_mem(struct qqb_judgement *j, size_t ci, const struct qqb_case_result *base,
                          const struct qqb_case_result *cur, int ab, uint64_t tol)
{
    static const struct qqb_mem none;
    for (int pass = 0; pass < 2; pass++) {
        const struct qqb_case_result *a = pass ? cur : base, *o = pass ? base : cur;
        for (size_t i = 0; i < a->nmem; i++) {
            const struct qqb_mem *m = mem_find(o, a->mem[i].key);
            if (pass == 1 && m)
                continue; /* seen in the first pass */
            const struct qqb_mem *bm = pass ? (m ? m : &none) : &a->mem[i];
            const struct qqb_mem *cm = pass ? &a->mem[i] : (m ? m : &none);
            uint64_t bl = bm->obj_bytes + bm->alloc_bytes, cl = cm->obj_bytes + cm->alloc_bytes;
            int vl = qqb_mem_verdict(bl, cl, tol),
                vp = qqb_mem_verdict(bm->peak_bytes, cm->peak_bytes, tol),
                vo = qqb_mem_verdict(bm->created, cm->created, 0),
                vs = qqb_mem_verdict(bm->obj_size, cm->obj_size, 0);
            struct qqb_memcmp mc = {ci,
                                    cur->name,
                                    a->mem[i].key,
                                    ab,
                                    base->name,
                                    *bm,
                                    *cm,
                                    vl > 0 || vp > 0 ? 1 : (vl < 0 || vp < 0 ? -1 : 0),
                                    1};
            /* A key that holds nothing on either side (a `default` of
             * zeros, there or not there) is never listed. */
            if (bl == 0 && cl == 0 && bm->peak_bytes == 0 && cm->peak_bytes == 0 &&
                bm->created == 0 && cm->created == 0)
                continue;
            if (mc.verdict == 0 && vo == 0 && vs == 0 && m) {
                /* Unchanged: listed where the comparison gates. */
                mc.moved = 0;
                if (ab != QQB_CMP_VARIANT && push_mem(j, &mc) != 0)
                    return -1;
                continue;
            }
            if (mc.verdict == 0)
                mc.verdict = vo > 0 ? 1 : (vo < 0 ? -1 : 0);
            if (push_mem(j, &mc) != 0)
                return -1;
        }
    }
    return 0;
}
