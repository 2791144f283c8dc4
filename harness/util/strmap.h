/* strmap.h - a string -> index hash map: duplicate checks and look-ups in time linear in the input.
 */
#ifndef QQB_STRMAP_H
#define QQB_STRMAP_H

#include <stddef.h>
#include <stdint.h>

/* Keys are (TAG, string) pairs, copied in. Zero-initialise to start
 * (struct qqb_strmap m = {0}); free with qqb_strmap_free. */
struct qqb_strmap {
    struct qqb_strmap_slot *slots;
    size_t cap, n;
    uint64_t probes; /* slots looked at so far: what a test counts */
};

/* Add (TAG, KEY) -> VALUE. Returns 1 when added, 0 when the key was there
 * already (*OLD, if not NULL, gets its value; nothing changes), -1 when out
 * of memory. (Three answers, an exception to the harness's 0/-1 rule kept
 * for its eleven callers and tests/unit/test_strmap.c.) */
int qqb_strmap_add(struct qqb_strmap *m, uint32_t tag, const char *key, size_t value, size_t *old);

/* 1 and *VALUE when (TAG, KEY) is in M, else 0. */
int qqb_strmap_get(struct qqb_strmap *m, uint32_t tag, const char *key, size_t *value);

void qqb_strmap_free(struct qqb_strmap *m);

#endif /* QQB_STRMAP_H */
