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

/* The length of the UTF-8 character at S (N bytes left) when it is valid
 * (shortest form, no surrogate, at most U+10FFFF) and no control character
 * or backquote; 0 otherwise. */
static size_t name_char(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f && c != '`' ? 1 : 0;
    size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (len == 0 || c > 0xf4 || len > n)
        return 0;
    unsigned cp = c & (0x3fu >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp >= 0x80 && cp <= 0x9f)
        return 0; /* C1 controls */
    return len;
}

size_t qq_name_check(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len && i < QQ_NAME_MAX) {
        size_t k = name_char(p + i, len - i);
        if (k == 0 || i + k > QQ_NAME_MAX)
            return i + 1;
        i += k;
    }
    return len > QQ_NAME_MAX ? QQ_NAME_MAX + 1 : 0;
}

char *qq__name_clean(const char *name)
{
    const unsigned char *p = (const unsigned char *)(name ? name : "");
    size_t n = strlen((const char *)p);
    char *out = malloc((n < QQ_NAME_MAX ? n : QQ_NAME_MAX) + 1);
    if (!out)
        return NULL;
    size_t i = 0, o = 0;
    while (i < n) {
        size_t k = name_char(p + i, n - i);
        if (k == 0)
            k = 1; /* one offending byte, written as '?' */
        if (o + k > QQ_NAME_MAX)
            break;
        if (name_char(p + i, n - i) == 0)
            out[o++] = '?';
        else
            memcpy(out + o, p + i, k), o += k;
        i += k;
    }
    out[o] = '\0';
    return out;
}
