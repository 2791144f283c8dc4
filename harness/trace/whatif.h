/* whatif.h - a recorded run re-laid with one state key's intervals made faster or slower: the
 * prediction of qqbench whatif (docs/MODELS.md). */
#ifndef QQB_WHATIF_H
#define QQB_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "qq_file.h"

#define QQB_WHATIF_SCALE   1 /* the key's net cost times AMOUNT */
#define QQB_WHATIF_PER_HIT 2 /* the key at AMOUNT net ticks per hit */
#define QQB_WHATIF_WAITS   16

/* What to re-lay: KEY's intervals changed as MODE says, with NWAITS
 * waiting state keys (at most QQB_WHATIF_WAITS) that absorb or grow. */
struct qqb_whatif_spec {
    const char *key;
    int mode;
    double amount;
    const char *const *waits;
    int nwaits;
};

/* One node's prediction, in ticks. */
struct qqb_whatif_row {
    double net, new_hit;        /* the key's net ticks per hit, measured and asked */
    double measured, predicted; /* first to last event */
    double other;               /* the --measured run's, when has_other */
    int has_other;
};

struct qqb_whatif {
    uint32_t nnodes;
    int collective; /* the waits were taken as collectives (every node has as many) */
    double mhz;     /* node 0's tick rate */
    struct qqb_whatif_row *row;
};

/* Re-lay every node of F (PATH, opened streamed or whole) as SPEC says,
 * reading each node forward only; with G (GPATH) also take each node's
 * run time there. 0, or -1 with ERR holding the whole error line ("F:
 * error: no key named 'x'"): a key that is not a state, a damaged entry
 * met on the way, out of memory. Free OUT with qqb_whatif_free. */
int qqb_whatif_run(const struct qq_file *f, const char *path, const struct qq_file *g,
                   const char *gpath, const struct qqb_whatif_spec *spec, struct qqb_whatif *out,
                   char *err, size_t errlen);
void qqb_whatif_free(struct qqb_whatif *w);

/* qqbench whatif: open PATH (and MEASURED, the changed program's run, or
 * NULL) streamed, check that its ticks can be judged and that each node
 * is one time line, re-lay it as SPEC says and print the prediction per
 * node and overall on stdout. 0, or -1 after one error line on stderr. */
int qqb_whatif_main(const char *path, const char *measured, const struct qqb_whatif_spec *spec);

#endif /* QQB_WHATIF_H */
