/* qq_mem.c - memory keys: an address table of live blocks, per-key counters, MemPrint, the MEMT
 * snapshot. */

/* mmap's MAP_ANONYMOUS is outside strict POSIX in glibc. */
#define _DEFAULT_SOURCE 1

/* Never the redirection macros here: every malloc and free below is libc's. */
#define QQ__MEM_IMPL 1

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "qq_internal.h"
#include "qq_mem.h"

#if defined(MAP_ANONYMOUS)
#define QQ__MAP_ANON MAP_ANONYMOUS
#elif defined(MAP_ANON)
#define QQ__MAP_ANON MAP_ANON
#endif

/* ---------------------------------------------------------------------
 * Per-key counters. Everything below is guarded by one mutex: the work
 * under it is a hash probe and a few adds, short next to malloc itself.
 * --------------------------------------------------------------------- */

struct mkey {
    char *name;        /* malloc'd, except key 0's */
    uint64_t obj_size; /* the last non-zero MEMADDOBJECT size */
    uint64_t created;
    uint64_t deleted;
    int64_t obj_bytes; /* may go below 0 with unmatched MEMFREEOBJECTs */
    uint64_t alloc_bytes;
    uint64_t peak_bytes;
    uint64_t allocs;
    uint64_t frees;
    uint64_t double_frees;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char default_name[] = "default";
static struct mkey key0 = {default_name, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static struct mkey *keys = &key0; /* keys[0] is key0 until the first grow */
static uint32_t nkeys = 1, capkeys = 1;
static int used; /* any memory call since start/MemReset */
static uint64_t foreign_frees;
static uint64_t untracked; /* blocks the table had no room for */

/* Keys out of range (e.g. -1 from a file compiled with profiling off)
 * count against the default key. Called under the lock. */
static struct mkey *key_at(int key)
{
    if (key < 0 || (uint32_t)key >= nkeys)
        key = 0;
    return &keys[key];
}

static void note_peak(struct mkey *k)
{
    uint64_t obj = k->obj_bytes > 0 ? (uint64_t)k->obj_bytes : 0;
    uint64_t total = obj + k->alloc_bytes;
    if (total > k->peak_bytes)
        k->peak_bytes = total;
}

/* ---------------------------------------------------------------------
 * Pages for the tables, straight from the kernel: no allocator involved.
 * --------------------------------------------------------------------- */

static void *pages_get(size_t bytes)
{
#ifdef QQ__MAP_ANON
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | QQ__MAP_ANON, -1, 0);
    return p == MAP_FAILED ? NULL : p;
#else
    return calloc(1, bytes);
#endif
}

static void pages_put(void *p, size_t bytes)
{
    if (!p)
        return;
#ifdef QQ__MAP_ANON
    munmap(p, bytes);
#else
    (void)bytes;
    free(p);
#endif
}

/* Fibonacci hashing: the high bits of address times 2^64/phi. */
static size_t hash_addr(uintptr_t a, unsigned bits)
{
    return (size_t)(((uint64_t)a * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
}

/* ---------------------------------------------------------------------
 * The address table: address -> (key, size) of every tracked block, and a
 * record of blocks freed through MemFree/MemRealloc (for double frees).
 * Open addressing with linear probing; nothing is ever deleted in place, so
 * there are no tombstones: a freed block's slot stays, marked freed, until
 * the allocator hands the address out again through a tracked call (the slot
 * comes back to life: with address reuse, malloc usually finds its slot in
 * one probe) or until a rebuild drops it. A rebuild happens past 60% load
 * and keeps the live slots and the freed ones among the last
 * max(live blocks, FREED_MIN) frees, so that the table stays within a small
 * factor of the live blocks; the new table is at most 30% full.
 * --------------------------------------------------------------------- */

struct slot {
    uintptr_t addr; /* 0: empty */
    uint64_t size;  /* live: bytes; freed: the free's sequence number */
    uint32_t key;   /* the key the block is (was) charged to */
    uint32_t freed; /* 1 once freed */
};

#define TAB_MIN_BITS 10
#define FREED_MIN    4096u

static struct slot *tab;
static unsigned tbits;
static size_t tused; /* occupied slots, live and freed */
static uint64_t free_seq;

static struct slot *slot_find(uintptr_t a)
{
    if (!tab)
        return NULL;
    size_t mask = ((size_t)1 << tbits) - 1;
    for (size_t i = hash_addr(a, tbits);; i = (i + 1) & mask) {
        if (tab[i].addr == a)
            return &tab[i];
        if (tab[i].addr == 0)
            return NULL;
    }
}

static struct slot *slot_empty(struct slot *t, unsigned bits, uintptr_t a)
{
    size_t mask = ((size_t)1 << bits) - 1;
    size_t i = hash_addr(a, bits);
    while (t[i].addr != 0)
        i = (i + 1) & mask;
    return &t[i];
}

/* A freed slot older than the last WINDOW frees: forgotten at a rebuild. */
static int slot_stale(const struct slot *e, uint64_t window)
{
    return e->freed && free_seq - e->size >= window;
}

/* Rebuild into a table the kept slots fill to at most 30%. */
static int tab_rebuild(void)
{
    size_t cap = tab ? (size_t)1 << tbits : 0, live = 0, keep = 0;
    for (size_t i = 0; i < cap; i++)
        if (tab[i].addr != 0 && !tab[i].freed)
            live++;
    uint64_t window = live > FREED_MIN ? live : FREED_MIN;
    for (size_t i = 0; i < cap; i++)
        if (tab[i].addr != 0 && !slot_stale(&tab[i], window))
            keep++;
    unsigned nbits = TAB_MIN_BITS;
    while ((keep + 1) * 10 > ((size_t)3 << nbits))
        nbits++;
    struct slot *nt = pages_get(((size_t)1 << nbits) * sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < cap; i++)
        if (tab[i].addr != 0 && !slot_stale(&tab[i], window))
            *slot_empty(nt, nbits, tab[i].addr) = tab[i];
    pages_put(tab, cap * sizeof *tab);
    tab = nt;
    tbits = nbits;
    tused = keep;
    return 0;
}

/* A new slot for A, known not to be in the table; NULL if there is no room. */
static struct slot *slot_new(uintptr_t a)
{
    if (!tab || (tused + 1) * 10 > ((size_t)6 << tbits)) {
        if (tab_rebuild() != 0 && (!tab || tused + 2 > ((size_t)1 << tbits)))
            return NULL; /* always keep one slot empty: probes end */
    }
    struct slot *e = slot_empty(tab, tbits, a);
    e->addr = a;
    tused++;
    return e;
}

/* ---------------------------------------------------------------------
 * Recording, under the lock.
 * --------------------------------------------------------------------- */

static void record_alloc_locked(int key, void *p, size_t size)
{
    uintptr_t a = (uintptr_t)p;
    struct mkey *k = key_at(key);
    used = 1;
    struct slot *e = slot_find(a);
    if (e && !e->freed) {
        /* Still live: it was freed behind our back (free through a function
         * pointer, or by a library) and the allocator reused the address.
         * It leaves its key as a free. */
        struct mkey *o = &keys[e->key];
        o->alloc_bytes -= e->size;
        o->frees++;
    } else if (!e) {
        e = slot_new(a);
        if (!e) {
            untracked++;
            return;
        }
    }
    e->size = size;
    e->key = (uint32_t)(k - keys);
    e->freed = 0;
    k->allocs++;
    k->alloc_bytes += size;
    note_peak(k);
}

static void record_alloc(int key, void *p, size_t size)
{
    pthread_mutex_lock(&lock);
    record_alloc_locked(key, p, size);
    pthread_mutex_unlock(&lock);
}

/* Mark a live slot freed (its bytes are taken off by the caller). */
static void slot_free(struct slot *e)
{
    e->freed = 1;
    e->size = ++free_seq;
}

/* What a free of P is. */
enum free_kind { FREE_TRACKED, FREE_FOREIGN, FREE_DOUBLE };

/* Take P off its key (before the real free: once freed, the address may be
 * handed to another thread at once). */
static enum free_kind record_free_locked(void *p)
{
    used = 1;
    struct slot *e = slot_find((uintptr_t)p);
    if (!e) {
        foreign_frees++;
        return FREE_FOREIGN;
    }
    struct mkey *k = &keys[e->key];
    if (e->freed) {
        k->double_frees++;
        return FREE_DOUBLE;
    }
    k->alloc_bytes -= e->size;
    k->frees++;
    slot_free(e);
    return FREE_TRACKED;
}

/* ---------------------------------------------------------------------
 * Keys.
 * --------------------------------------------------------------------- */

int MemAddKey(const char *name)
{
    if (!name)
        name = "";
    pthread_mutex_lock(&lock);
    used = 1;
    int found = -1;
    for (uint32_t i = 0; i < nkeys; i++) {
        if (strcmp(keys[i].name, name) == 0) {
            found = (int)i;
            break;
        }
    }
    if (found < 0 && nkeys < (uint32_t)INT32_MAX) {
        if (nkeys == capkeys) {
            uint32_t ncap = capkeys < 8 ? 8 : capkeys * 2;
            struct mkey *nk;
            if (keys == &key0) {
                nk = malloc(ncap * sizeof *nk);
                if (nk)
                    nk[0] = key0;
            } else {
                nk = realloc(keys, ncap * sizeof *nk);
            }
            if (nk) {
                keys = nk;
                capkeys = ncap;
            }
        }
        size_t len = strlen(name);
        char *copy = nkeys < capkeys ? malloc(len + 1) : NULL;
        if (copy) {
            memcpy(copy, name, len + 1);
            memset(&keys[nkeys], 0, sizeof keys[nkeys]);
            keys[nkeys].name = copy;
            found = (int)nkeys++;
        } else {
            found = 0; /* out of memory: count against the default key */
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

/* ---------------------------------------------------------------------
 * The allocation functions the macros call.
 * --------------------------------------------------------------------- */

void *MemMalloc(int key, size_t size)
{
    void *p = malloc(size);
    if (p)
        record_alloc(key, p, size);
    return p;
}

void *MemCalloc(int key, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    /* A zero size is the program's, passed on as calloc allows it. */
    void *p = calloc(count, size); /* NOLINT(clang-analyzer-optin.portability.UnixAPI) */
    if (p)
        record_alloc(key, p, count * size);
    return p;
}

void MemFree(int key, void *ptr)
{
    (void)key; /* bytes leave the key the block was charged to */
    if (!ptr)
        return;
    pthread_mutex_lock(&lock);
    enum free_kind kind = record_free_locked(ptr);
    pthread_mutex_unlock(&lock);
    if (kind != FREE_DOUBLE)
        free(ptr);
}

void *MemRealloc(int key, void *ptr, size_t size)
{
    if (!ptr)
        return MemMalloc(key, size);
    if (size == 0) {
        /* Documented choice (glibc's): free and return NULL. */
        MemFree(key, ptr);
        return NULL;
    }
    uintptr_t a = (uintptr_t)ptr;
    pthread_mutex_lock(&lock);
    used = 1;
    struct slot *e = slot_find(a);
    uint64_t old_size = 0;
    uint32_t old_key = 0;
    int tracked = 0;
    if (e && e->freed) {
        /* realloc of a freed block: passing it on would corrupt the heap. */
        keys[e->key].double_frees++;
        pthread_mutex_unlock(&lock);
        errno = EINVAL;
        return NULL;
    }
    if (e) {
        /* Freed for the duration: if the block moves, another thread may
         * get the address before we take the lock again. */
        old_size = e->size;
        old_key = e->key;
        tracked = 1;
        slot_free(e);
    }
    pthread_mutex_unlock(&lock);

    void *q = realloc(ptr, size);

    pthread_mutex_lock(&lock);
    if (!q) {
        /* The old block is still there, unchanged: bring its slot back. */
        if (tracked) {
            e = slot_find(a);
            if (!e) /* dropped by a rebuild meanwhile */
                e = slot_new(a);
            if (e) {
                e->size = old_size;
                e->key = old_key;
                e->freed = 0;
            } else {
                keys[old_key].alloc_bytes -= old_size;
                untracked++;
            }
        }
    } else {
        if (tracked) {
            struct mkey *o = &keys[old_key];
            o->alloc_bytes -= old_size;
            o->frees++;
        } else {
            foreign_frees++;
        }
        record_alloc_locked(key, q, size);
    }
    pthread_mutex_unlock(&lock);
    return q;
}

char *MemStrdup(int key, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, s, n);
        record_alloc(key, p, n);
    }
    return p;
}

char *MemStrndup(int key, const char *s, size_t n)
{
    size_t len = 0;
    while (len < n && s[len] != '\0')
        len++;
    char *p = malloc(len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
        record_alloc(key, p, len + 1);
    }
    return p;
}

void *MemAlignedAlloc(int key, size_t alignment, size_t size)
{
    void *p = aligned_alloc(alignment, size);
    if (p)
        record_alloc(key, p, size);
    return p;
}

int MemPosixMemalign(int key, void **ptr, size_t alignment, size_t size)
{
    void *p = NULL;
    int rc = posix_memalign(&p, alignment, size);
    if (rc == 0) {
        *ptr = p;
        if (p)
            record_alloc(key, p, size);
    }
    return rc;
}

/* ---------------------------------------------------------------------
 * Objects: counted per key, not entered in the address table (an object
 * often lives inside a tracked block, at the same address).
 * --------------------------------------------------------------------- */

void MemAddObject(int key, const void *obj, size_t size)
{
    (void)obj;
    pthread_mutex_lock(&lock);
    used = 1;
    struct mkey *k = key_at(key);
    k->created++;
    k->obj_bytes += (int64_t)size;
    if (size != 0)
        k->obj_size = size;
    note_peak(k);
    pthread_mutex_unlock(&lock);
}

void MemFreeObject(int key, const void *obj, size_t size)
{
    (void)obj;
    pthread_mutex_lock(&lock);
    used = 1;
    struct mkey *k = key_at(key);
    k->deleted++;
    k->obj_bytes -= (int64_t)size;
    pthread_mutex_unlock(&lock);
}

void MemReset(void)
{
    pthread_mutex_lock(&lock);
    if (tab)
        pages_put(tab, ((size_t)1 << tbits) * sizeof *tab);
    tab = NULL;
    tbits = 0;
    tused = 0;
    free_seq = 0;
    for (uint32_t i = 0; i < nkeys; i++) {
        char *name = keys[i].name;
        memset(&keys[i], 0, sizeof keys[i]);
        keys[i].name = name;
    }
    used = 0;
    foreign_frees = 0;
    untracked = 0;
    pthread_mutex_unlock(&lock);
}

/* ---------------------------------------------------------------------
 * Process memory.
 * --------------------------------------------------------------------- */

long qq_mem_process_bytes(void)
{
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[128];
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n > 0) {
            buf[n] = '\0';
            char *end;
            unsigned long pages = strtoul(buf, &end, 10);
            if (end != buf) {
                long ps = sysconf(_SC_PAGESIZE);
                if (ps <= 0)
                    ps = 4096;
                return (long)(pages * (unsigned long)ps);
            }
        }
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
#if defined(__APPLE__)
        return (long)ru.ru_maxrss; /* bytes there */
#else
        return (long)ru.ru_maxrss * 1024L; /* kilobytes elsewhere */
#endif
    }
    return -1;
}

long GetMemoryUsed(void)
{
    return qq_mem_process_bytes();
}

/* ---------------------------------------------------------------------
 * Snapshot (for the file) and the printed table.
 * --------------------------------------------------------------------- */

int qq__mem_snapshot(struct qq__mem_snapshot *s)
{
    memset(s, 0, sizeof *s);
    long pb = qq_mem_process_bytes();
    pthread_mutex_lock(&lock);
    if (!used) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    uint32_t n = nkeys;
    struct qq_mem_row *rows = calloc(n, sizeof *rows);
    int rc = rows ? 1 : QQ_ENOMEM;
    for (uint32_t i = 0; rows && i < n; i++) {
        const struct mkey *k = &keys[i];
        size_t len = strlen(k->name);
        char *name = malloc(len + 1);
        if (!name) {
            rc = QQ_ENOMEM;
            n = i;
            break;
        }
        memcpy(name, k->name, len + 1);
        rows[i].name = name;
        rows[i].obj_size = k->obj_size;
        rows[i].created = k->created;
        rows[i].deleted = k->deleted;
        rows[i].obj_bytes = k->obj_bytes > 0 ? (uint64_t)k->obj_bytes : 0;
        rows[i].alloc_bytes = k->alloc_bytes;
        rows[i].peak_bytes = k->peak_bytes;
        rows[i].allocs = k->allocs;
        rows[i].frees = k->frees;
        rows[i].double_frees = k->double_frees;
    }
    s->foreign_frees = foreign_frees;
    pthread_mutex_unlock(&lock);
    s->nrows = n;
    s->rows = rows;
    s->process_bytes = pb > 0 ? (uint64_t)pb : 0;
    if (rc < 0) {
        qq__mem_snapshot_free(s);
        return rc;
    }
    return 1;
}

void qq__mem_snapshot_free(struct qq__mem_snapshot *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->rows && i < s->nrows; i++)
        free((char *)(uintptr_t)s->rows[i].name);
    free(s->rows);
    memset(s, 0, sizeof *s);
}

/* Bytes to kilobytes, rounded up as on the paper's slide 23 (120 -> 1). */
static uint64_t kb(uint64_t bytes)
{
    return (bytes + 1023) / 1024;
}

void qq_mem_print_table(FILE *fp, const struct qq_mem_table *t)
{
    if (!fp)
        fp = stdout;
    uint32_t n = t ? t->nrows : 0;
    int w = 4; /* "Item" */
    uint64_t total = 0, dbl = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct qq_mem_row *r = &t->rows[i];
        size_t len = r->name ? strlen(r->name) : 0;
        if (len > (size_t)w)
            w = len > 40 ? 40 : (int)len;
        total += r->obj_bytes + r->alloc_bytes;
        dbl += r->double_frees;
    }
    fprintf(fp, "Memory Allocation Total Allocated %" PRIu64 " KBytes\n", kb(total));
    fprintf(fp, "%-*s %8s %9s %9s %9s %9s %9s %9s\n", w, "", "Object", "Number", "Number", "Object",
            "Alloc", "Total", "Max");
    fprintf(fp, "%-*s %8s %9s %9s %9s %9s %9s %9s\n", w, "Item", "Size", "Created", "Deleted", "KB",
            "KB", "KB", "KB");
    for (uint32_t i = 0; i < n; i++) {
        const struct qq_mem_row *r = &t->rows[i];
        fprintf(fp,
                "%-*.*s %8" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
                " %9" PRIu64 "\n",
                w, w, r->name ? r->name : "", r->obj_size, r->created, r->deleted, kb(r->obj_bytes),
                kb(r->alloc_bytes), kb(r->obj_bytes + r->alloc_bytes), kb(r->peak_bytes));
    }
    int width = w + 9 + 6 * 10;
    for (int i = 0; i < width; i++)
        fputc('-', fp);
    fputc('\n', fp);
    fprintf(fp, "%-*s %8d %9d %9d %9d %9d %9d %9d\n", w, "1", 2, 3, 4, 5, 6, 7, 8);
    fprintf(fp, "Key\n"
                "1 - Internal name given to recording category\n"
                "2 - Size of one object in bytes (MEMADDOBJECT)\n"
                "3 - Number of objects created\n"
                "4 - Number of objects deleted\n"
                "5 - KBytes of live objects\n"
                "6 - KBytes of live allocations (malloc & co)\n"
                "7 - Total KBytes in use (5 + 6)\n"
                "8 - Maximum of 7 ever held\n");
    /* The exact figures the KB columns round (slide 21: single-byte
     * accuracy), and the call counts. */
    fprintf(fp, "\n%-*s %9s %9s %7s %12s %12s %12s\n", w, "Item", "Allocs", "Frees", "Double",
            "Obj bytes", "Alloc bytes", "Max bytes");
    for (uint32_t i = 0; i < n; i++) {
        const struct qq_mem_row *r = &t->rows[i];
        fprintf(fp,
                "%-*.*s %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %12" PRIu64 " %12" PRIu64
                " %12" PRIu64 "\n",
                w, w, r->name ? r->name : "", r->allocs, r->frees, r->double_frees, r->obj_bytes,
                r->alloc_bytes, r->peak_bytes);
    }
    fprintf(fp,
            "Tracked bytes %" PRIu64 ", process %" PRIu64 " KBytes (VmSize), foreign frees %" PRIu64
            ", double frees %" PRIu64 "\n",
            total, t ? kb(t->process_bytes) : 0, t ? t->foreign_frees : 0, dbl);
}

void MemPrint(FILE *fp)
{
    struct qq__mem_snapshot s;
    int rc = qq__mem_snapshot(&s);
    if (rc < 0)
        return;
    if (rc == 0) {
        /* Nothing tracked yet: still the table's frame, with the default key. */
        static const struct qq_mem_row none = {"default", 0, 0, 0, 0, 0, 0, 0, 0, 0};
        long pb = qq_mem_process_bytes();
        struct qq_mem_table t = {1, &none, 0, pb > 0 ? (uint64_t)pb : 0};
        qq_mem_print_table(fp, &t);
        return;
    }
    struct qq_mem_table t = {s.nrows, s.rows, s.foreign_frees, s.process_bytes};
    qq_mem_print_table(fp, &t);
    qq__mem_snapshot_free(&s);
    pthread_mutex_lock(&lock);
    uint64_t lost = untracked;
    pthread_mutex_unlock(&lock);
    if (lost)
        fprintf(fp ? fp : stdout,
                "Untracked blocks %" PRIu64 " (no memory for the address table)\n", lost);
}
