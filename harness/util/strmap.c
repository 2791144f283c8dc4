/* strmap.c - open addressing (linear probing, at most half full) on FNV-1a hashes. */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

struct qqb_strmap_slot {
    char *key; /* NULL: empty */
    uint64_t hash;
    uint32_t tag;
    size_t value;
};

static uint64_t hash_of(uint32_t tag, const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ tag;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    /* FNV's low bits mix poorly for short keys: fold the high ones in. */
    return h ^ (h >> 29);
}

/* The slot of (TAG, KEY): where it is, or the empty slot where it would go. */
static struct qqb_strmap_slot *find(struct qqb_strmap *m, uint64_t h, uint32_t tag, const char *key)
{
    size_t i = (size_t)h & (m->cap - 1);
    for (;;) {
        struct qqb_strmap_slot *s = &m->slots[i];
        m->probes++;
        if (!s->key || (s->hash == h && s->tag == tag && !strcmp(s->key, key)))
            return s;
        i = (i + 1) & (m->cap - 1);
    }
}

static int grow(struct qqb_strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 16;
    struct qqb_strmap_slot *old = m->slots;
    size_t oldcap = m->cap;
    if (cap > SIZE_MAX / 2 / sizeof *old)
        return -1;
    m->slots = calloc(cap, sizeof *old);
    if (!m->slots) {
        m->slots = old;
        return -1;
    }
    m->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key)
            *find(m, old[i].hash, old[i].tag, old[i].key) = old[i];
    free(old);
    return 0;
}

int qqb_strmap_add(struct qqb_strmap *m, uint32_t tag, const char *key, size_t value, size_t *old)
{
    uint64_t h = hash_of(tag, key);
    struct qqb_strmap_slot *s;

    if ((m->n + 1) * 2 > m->cap && grow(m))
        return -1;
    s = find(m, h, tag, key);
    if (s->key) {
        if (old)
            *old = s->value;
        return 0;
    }
    if (!(s->key = strdup(key)))
        return -1;
    s->hash = h;
    s->tag = tag;
    s->value = value;
    m->n++;
    return 1;
}

int qqb_strmap_get(struct qqb_strmap *m, uint32_t tag, const char *key, size_t *value)
{
    struct qqb_strmap_slot *s;
    if (!m->cap)
        return 0;
    s = find(m, hash_of(tag, key), tag, key);
    if (!s->key)
        return 0;
    if (value)
        *value = s->value;
    return 1;
}

void qqb_strmap_free(struct qqb_strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}
