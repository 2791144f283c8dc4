/* craft.h - tests' hand-made .qq files: any node count, any entries, nodes sharing sections. */
#ifndef QQ_TEST_CRAFT_H
#define QQ_TEST_CRAFT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "qq_internal.h"

/*
 * A complete .qq file in a malloc'd buffer (*LEN bytes), with the keys this
 * process registered: NNODES nodes, node i holding N[i] events EV[i]; with
 * SHARED every node's record points at node 0's entry section. NULL when
 * encoding fails.
 */
static inline unsigned char *craft(uint32_t nnodes, const struct qq_event *const *ev,
                                   const uint64_t *n, int shared, size_t *len)
{
    uint64_t prefix = 0;
    if (qq__prefix_size(nnodes, &prefix) != 0)
        return NULL;
    struct qq__node_rec *recs = calloc(nnodes, sizeof *recs);
    if (!recs)
        return NULL;
    uint32_t sections = shared ? 1 : nnodes;
    uint64_t at = prefix;
    for (uint32_t i = 0; i < nnodes; i++) {
        recs[i].node = i;
        recs[i].mhz = 2100.0;
        recs[i].entries = n[shared ? 0 : i];
        recs[i].offset = (shared ? prefix : at) + QQ__SECTION_HEAD;
        if (!shared)
            at += QQ__SECTION_HEAD + n[i] * QQ__EVENT_SIZE;
    }
    uint64_t total = prefix;
    for (uint32_t i = 0; i < sections; i++)
        total += QQ__SECTION_HEAD + n[i] * QQ__EVENT_SIZE;
    struct qq__buf b = {0};
    int rc = qq__prefix_encode(&b, nnodes, recs, total, 1);
    for (uint32_t i = 0; rc == 0 && i < sections; i++) {
        rc = qq__put_u32(&b, QQ__TAG_EVTS);
        rc = rc ? rc : qq__put_u32(&b, i);
        rc = rc ? rc : qq__put_u64(&b, n[i] * QQ__EVENT_SIZE);
        rc = rc ? rc : qq__put_bytes(&b, ev[i], n[i] * QQ__EVENT_SIZE);
    }
    free(recs);
    if (rc || b.len != total) {
        qq__buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

/* craft() written to PATH: 0, or -1 when encoding or writing fails. */
static inline int craft_file(const char *path, uint32_t nnodes, const struct qq_event *const *ev,
                             const uint64_t *n)
{
    size_t len = 0;
    unsigned char *p = craft(nnodes, ev, n, 0, &len);
    FILE *fp = p ? fopen(path, "wb") : NULL;
    int ok = fp && fwrite(p, 1, len, fp) == len;
    if (fp && fclose(fp) != 0)
        ok = 0;
    free(p);
    return ok ? 0 : -1;
}

#endif /* QQ_TEST_CRAFT_H */
