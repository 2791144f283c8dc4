/* qq_names.c - the name index: a registered key found by its name (and type) in constant time. */
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"

/* libc's allocator only: this file never sees qq_mem.h's macros, so the
 * index can be grown from inside the memory keys' own lock. */

uint64_t qq__fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

static const char *entry_name(const struct qq__name_table *t, uint32_t i)
{
    const char *e = (const char *)t->base + (size_t)i * t->stride;
    const char *name;
    memcpy(&name, e + t->name_at, sizeof name);
    return name;
}

static uint32_t entry_type(const struct qq__name_table *t, uint32_t i)
{
    if (t->type_at == QQ__NO_TYPE)
        return 0;
    uint32_t type;
    memcpy(&type, (const char *)t->base + (size_t)i * t->stride + t->type_at, sizeof type);
    return type;
}

static uint32_t name_hash(const char *name, uint32_t type)
{
    unsigned char ty[4];
    qq__store_u32(ty, type);
    uint64_t h = qq__fnv1a(QQ__FNV_START, ty, sizeof ty);
    h = qq__fnv1a(h, name, strlen(name));
    return (uint32_t)(h ^ h >> 32);
}

static int same(const struct qq__name_table *t, uint32_t i, const char *name, uint32_t type)
{
    return entry_type(t, i) == type && strcmp(entry_name(t, i), name) == 0;
}

/* The slot holding an entry equal to NAME/TYPE, or the empty slot where it
 * would go. The index is never full (at most half its slots are used). */
static struct qq__name_slot *probe(const struct qq__name_index *x, const struct qq__name_table *t,
                                   const char *name, uint32_t type, uint32_t h)
{
    uint32_t mask = x->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        struct qq__name_slot *s = &x->slot[i];
        if (s->entry == 0 || (s->hash == h && same(t, s->entry - 1, name, type)))
            return s;
    }
}

/* Twice the slots (16 at first), every indexed entry moved over by its
 * stored hash. 0, or -1 when out of memory (the index is kept as it was). */
static int grow(struct qq__name_index *x)
{
    uint32_t cap = x->cap ? 2 * x->cap : 16;
    if (cap == 0 || cap > UINT32_MAX / 2)
        return -1;
    struct qq__name_slot *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t i = 0; i < x->cap; i++) {
        if (x->slot[i].entry == 0)
            continue;
        uint32_t j = x->slot[i].hash & (cap - 1);
        while (slot[j].entry != 0)
            j = (j + 1) & (cap - 1);
        slot[j] = x->slot[i];
    }
    free(x->slot);
    x->slot = slot;
    x->cap = cap;
    return 0;
}

int64_t qq__name_index_find(struct qq__name_index *x, const struct qq__name_table *t,
                            const char *name, uint32_t type)
{
    if (t->n < x->indexed) /* the table was emptied: start again */
        qq__name_index_free(x);
    /* Index the entries added since the last call, in order: of equal
     * entries the first stays found, as a search from the start finds it. */
    while (x->indexed < t->n && x->indexed < UINT32_MAX - 1) {
        if ((uint64_t)(x->indexed + 1) * 2 > x->cap && grow(x) != 0)
            break;
        uint32_t i = x->indexed;
        const char *ni = entry_name(t, i);
        uint32_t ti = entry_type(t, i), h = name_hash(ni, ti);
        struct qq__name_slot *s = probe(x, t, ni, ti, h);
        if (s->entry == 0) {
            s->hash = h;
            s->entry = i + 1;
        }
        x->indexed++;
    }
    if (x->cap) {
        struct qq__name_slot *s = probe(x, t, name, type, name_hash(name, type));
        if (s->entry != 0)
            return (int64_t)s->entry - 1;
    }
    /* Entries the index could not take (no memory): one by one. */
    for (uint32_t i = x->indexed; i < t->n; i++)
        if (same(t, i, name, type))
            return i;
    return -1;
}

void qq__name_index_free(struct qq__name_index *x)
{
    free(x->slot);
    x->slot = NULL;
    x->cap = 0;
    x->indexed = 0;
}
