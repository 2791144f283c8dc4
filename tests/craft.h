/* craft.h - tests' hand-made .qq files: any node count, any entries, nodes sharing sections,
 * calibrations. */
#ifndef QQ_TEST_CRAFT_H
#define QQ_TEST_CRAFT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"

/*
 * A complete .qq file in a malloc'd buffer (*LEN bytes), with the keys this
 * process registered: NNODES nodes, node i holding N[i] events EV[i]; with
 * SHARED every node's record points at node 0's entry section; with CAL
 * every node has that calibration (a CALB section). NULL when encoding fails.
 */
static inline unsigned char *craft_calib(uint32_t nnodes, const struct qq_event *const *ev,
                                         const uint64_t *n, int shared, const struct qq_calib *cal,
                                         size_t *len)
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
    if (cal)
        total += (uint64_t)nnodes * (QQ__SECTION_HEAD + QQ__CALB_SIZE);
    struct qq__buf b = {0};
    int rc = qq__prefix_encode(&b, nnodes, recs, total, 1);
    for (uint32_t i = 0; rc == 0 && i < sections; i++) {
        rc = qq__put_u32(&b, QQ__TAG_EVTS);
        rc = rc ? rc : qq__put_u32(&b, i);
        rc = rc ? rc : qq__put_u64(&b, n[i] * QQ__EVENT_SIZE);
        rc = rc ? rc : qq__put_bytes(&b, ev[i], n[i] * QQ__EVENT_SIZE);
    }
    for (uint32_t i = 0; rc == 0 && cal && i < nnodes; i++) {
        rc = qq__put_u32(&b, QQ__TAG_CALB);
        rc = rc ? rc : qq__put_u32(&b, i);
        rc = rc ? rc : qq__put_u64(&b, QQ__CALB_SIZE);
        rc = rc ? rc : qq__put_u32(&b, cal->ordered);
        rc = rc ? rc : qq__put_u32(&b, cal->samples);
        rc = rc ? rc : qq__put_f64(&b, cal->empty_min);
        rc = rc ? rc : qq__put_f64(&b, cal->empty_typical);
        rc = rc ? rc : qq__put_f64(&b, cal->empty_median);
        rc = rc ? rc : qq__put_f64(&b, cal->step);
    }
    free(recs);
    if (rc || b.len != total) {
        qq__buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

/* craft_calib() without calibrations. */
static inline unsigned char *craft(uint32_t nnodes, const struct qq_event *const *ev,
                                   const uint64_t *n, int shared, size_t *len)
{
    return craft_calib(nnodes, ev, n, shared, NULL, len);
}

/* craft_calib() written to PATH (CAL may be NULL): 0, or -1 when encoding or
 * writing fails. */
static inline int craft_file_calib(const char *path, uint32_t nnodes,
                                   const struct qq_event *const *ev, const uint64_t *n,
                                   const struct qq_calib *cal)
{
    size_t len = 0;
    unsigned char *p = craft_calib(nnodes, ev, n, 0, cal, &len);
    FILE *fp = p ? fopen(path, "wb") : NULL;
    int ok = fp && fwrite(p, 1, len, fp) == len;
    if (fp && fclose(fp) != 0)
        ok = 0;
    free(p);
    return ok ? 0 : -1;
}

/* craft() written to PATH: 0, or -1 when encoding or writing fails. */
static inline int craft_file(const char *path, uint32_t nnodes, const struct qq_event *const *ev,
                             const uint64_t *n)
{
    return craft_file_calib(path, nnodes, ev, n, NULL);
}

/* A file at PATH of NNODES nodes (at most 4), node i holding one entry of
 * count key KEY, V[i]. 0, or -1. */
static inline int craft_counts_file(const char *path, int key, const int64_t *v, uint32_t nnodes)
{
    struct qq_event ev[4];
    const struct qq_event *evs[4];
    uint64_t n[4];
    if (nnodes > 4)
        return -1;
    memset(ev, 0, sizeof ev);
    for (uint32_t i = 0; i < nnodes; i++) {
        ev[i].key = (uint32_t)key;
        ev[i].info.i = v[i];
        evs[i] = &ev[i];
        n[i] = 1;
    }
    return craft_file(path, nnodes, evs, n);
}

#endif /* QQ_TEST_CRAFT_H */
