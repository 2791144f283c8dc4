/* judge_compare.h - judge: two .qq files key by key (`qqbench compare`): counts, net cycles per
 * interval and their change, told from the counter's resolution; memory per key. One file per
 * side is one launch: no statistics here. */
#ifndef QQB_JUDGE_COMPARE_H
#define QQB_JUDGE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "qq_file.h"
#include "strmap.h"

/* One side: an open .qq file and its keys summed over nodes. */
struct qqb_qq_side {
    struct qq_file *f; /* the caller's, open */
    uint32_t nk;
    struct qq_key_summary *sum; /* per key, summed over nodes */
    double mhz;
    double *net;            /* per key: net ticks per hit, the slowest node's; NaN if none */
    double step;            /* node 0's counter step (0 if the file has no calibration) */
    struct qqb_strmap keys; /* (type, name) -> key index: look-ups in O(1) */
};

/* S's keys summed over nodes (S->f open), each state key's net ticks per
 * hit (the estimator of docs/STATISTICS.md minus the calibrated empty
 * state), the slowest node's, and node 0's counter step: one pass over
 * the file. 0, or -1 with ERR. */
int qqb_qq_side_load(struct qqb_qq_side *s, char *err, size_t errlen);
/* Frees what the side holds (not the file). */
void qqb_qq_side_free(struct qqb_qq_side *s);

/* How a key's change from A to B is given. */
enum qqb_change_kind {
    QQB_CHANGE_NONE,          /* none to give */
    QQB_CHANGE_TICKS,         /* state: CHANGE ticks (a figure within the resolution) */
    QQB_CHANGE_PCT,           /* state: CHANGE percent */
    QQB_CHANGE_SUM,           /* count: the sum changed by SUM_CHANGE */
    QQB_CHANGE_SUM_WIDE,      /* count: by CHANGE, beyond 64 bits */
    QQB_CHANGE_SUM_SATURATED, /* count: a side's sum saturated */
};

/* One key of either file. */
struct qqb_key_cmp {
    const char *name; /* borrowed from the file */
    uint32_t type;
    const struct qq_key_summary *sa, *sb; /* NULL: only in the other file */
    double pa, pb;                        /* state: net ticks per interval; NaN none */
    int unresolved; /* state: how many of the two are within the counter's resolution */
    enum qqb_change_kind kind;
    double change;
    int64_t sum_change;
    int same; /* every number equal */
};

/* Every key of A, then B's that A lacks, into *OUT (*N; free it; the rows
 * borrow from A and B; their key maps are looked up). 0, or -1 out of
 * memory. */
int qqb_compare_keys(struct qqb_qq_side *a, struct qqb_qq_side *b, struct qqb_key_cmp **out,
                     size_t *n);

/* One memory key's totals over the nodes of each file. */
struct qqb_mem_cmp {
    const char *name; /* borrowed from the file that has it first */
    uint64_t live[2], peak[2], objs[2];
    int found[2];
};

/* Every memory key of A then B's others, in the order first met, summed
 * over nodes: one pass over the rows, keys found by hash. 0, or -1 out of
 * memory. */
int qqb_compare_mem(const struct qqb_qq_side *a, const struct qqb_qq_side *b,
                    struct qqb_mem_cmp **out, size_t *n);

#endif /* QQB_JUDGE_COMPARE_H */
