/* qq_mem.c - memory keys: an address table of live blocks, per-key counters, MemPrint, the MEMT
 * snapshot. */

/* mmap's MAP_ANONYMOUS and syscall() are outside strict POSIX in glibc. */
#define _DEFAULT_SOURCE 1

/* Never the redirection macros here: every malloc and free below is libc's. */
#define QQ__MEM_IMPL 1

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#endif

#include "qq_internal.h"
#include "qq_mem.h"

/* What a malloc+free pair runs through, inlined into MemMalloc and MemFree:
 * a call and its register saves are a tenth of the pair's cost. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

#if defined(MAP_ANONYMOUS)
#define QQ__MAP_ANON MAP_ANONYMOUS
#elif defined(MAP_ANON)
#define QQ__MAP_ANON MAP_ANON
#endif

/* ---------------------------------------------------------------------
 * Who may record. Everything below (keys, counters, the address table) is
 * guarded by one mutex, with one exception that makes the common case
 * cheap: the first thread that records holds a "bias" and records without
 * the lock, as long as no other thread has recorded. Most QQ programs are
 * single-threaded (MPI ranks are processes), and an uncontended mutex is
 * two atomic read-modify-writes per call, as much as glibc's whole fast
 * path for a small block.
 *
 * The owner announces each call in owner_busy (a plain store, no fence)
 * and then checks biased. Another thread takes the lock, clears biased,
 * and runs membarrier(), which puts a full memory barrier into every
 * running thread of the process: after it, either the owner sees biased
 * clear, or the revoker sees owner_busy set and waits for the call to
 * end. From then on every thread, the old owner too, takes the lock. This
 * is the asymmetric Dekker handshake of userspace RCU; where the kernel
 * has no private expedited membarrier (not Linux, Linux before 4.14,
 * valgrind) no thread is ever biased and every call takes the lock.
 * --------------------------------------------------------------------- */

static atomic_int lock_word;      /* the lock: 1 held */
static _Thread_local int t_owner; /* this thread holds the bias */
static atomic_int biased;         /* the owner may record without the lock */
static atomic_int owner_busy;     /* the owner is inside a call */
static int bias_tried;            /* under the lock: the bias was handed out once */

/* A test-and-test-and-set lock, held for a probe and a few additions:
 * taking it is one atomic exchange and releasing it a plain store, where a
 * pthread mutex costs two atomic read-modify-writes and, contended, a
 * futex call on each side. A waiter spins briefly, then yields the CPU so
 * that a holder that was preempted (more threads than cores) can finish. */
static void lock_take(void)
{
    for (unsigned spins = 0;; spins++) {
        if (!atomic_load_explicit(&lock_word, memory_order_relaxed) &&
            !atomic_exchange_explicit(&lock_word, 1, memory_order_acquire))
            return;
        if (spins >= 64) {
            sched_yield();
            spins = 0;
        } else {
#if defined(__x86_64__) || defined(__i386__)
            __asm__ __volatile__("pause");
#elif defined(__aarch64__)
            __asm__ __volatile__("yield");
#endif
        }
    }
}

static void lock_give(void)
{
    atomic_store_explicit(&lock_word, 0, memory_order_release);
}

/* Whether membarrier() can give the owner its barrier. */
static int membarrier_ready(void)
{
#if defined(__linux__) && defined(__NR_membarrier)
    long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) ||
        !(cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
        return 0;
    return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0;
#else
    return 0;
#endif
}

static void membarrier_all(void)
{
#if defined(__linux__) && defined(__NR_membarrier)
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == 0)
        return;
    /* A child of fork() has a fresh registration state: register again.
     * The kernel said yes once, to this program: it cannot say no now, and
     * without the barrier the owner's records could be torn. */
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) != 0 ||
        syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) != 0)
        abort();
#endif
}

/* The lock, taking the bias from its owner if another thread holds it, or
 * the bias itself for the first thread that records. Returns what leave()
 * must release: 0 the bias, 1 the lock. */
static int enter_slow(void)
{
    lock_take();
    if (!bias_tried) {
        bias_tried = 1;
        if (membarrier_ready()) {
            t_owner = 1;
            atomic_store_explicit(&owner_busy, 1, memory_order_relaxed);
            atomic_store_explicit(&biased, 1, memory_order_relaxed);
            lock_give();
            return 0;
        }
    } else if (atomic_load_explicit(&biased, memory_order_relaxed)) {
        atomic_store_explicit(&biased, 0, memory_order_relaxed);
        membarrier_all();
        while (atomic_load_explicit(&owner_busy, memory_order_acquire))
            sched_yield();
    }
    return 1;
}

HOT int enter(void)
{
    if (t_owner) {
        atomic_store_explicit(&owner_busy, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst); /* membarrier() is the other half */
        if (atomic_load_explicit(&biased, memory_order_relaxed))
            return 0;
        atomic_store_explicit(&owner_busy, 0, memory_order_release);
        t_owner = 0; /* revoked: the lock from now on */
    }
    return enter_slow();
}

HOT void leave(int how)
{
    if (how == 0)
        atomic_store_explicit(&owner_busy, 0, memory_order_release);
    else
        lock_give();
}

/* ---------------------------------------------------------------------
 * Per-key counters.
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

/* A slot holds a key in KEY_BITS bits and a size in the rest (below). */
#define KEY_BITS 24
#define KEY_MAX  ((UINT32_C(1) << KEY_BITS) - 1)
#define META_MAX (UINT64_MAX >> KEY_BITS)

static char default_name[] = "default";
static struct mkey key0 = {default_name, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static struct mkey *keys = &key0; /* keys[0] is key0 until the first grow */
static uint32_t nkeys = 1, capkeys = 1;
static int used; /* any memory call since start/MemReset */
static uint64_t foreign_frees;
static uint64_t untracked; /* blocks the table had no room for */

/* Keys out of range (e.g. -1 from a file compiled with profiling off)
 * count against the default key. */
HOT uint32_t key_index(int key)
{
    return key < 0 || (uint32_t)key >= nkeys ? 0 : (uint32_t)key;
}

HOT void note_peak(struct mkey *k)
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

/* ---------------------------------------------------------------------
 * The address table: address -> (key, size) of every tracked block, and a
 * record of blocks freed through MemFree/MemRealloc (for double frees).
 *
 * Open addressing with linear probing, 16-byte slots (four to a cache
 * line), Fibonacci hashing. A freed block's slot stays, marked freed (bit 0
 * of the address: blocks are at least 2-aligned), until the allocator hands
 * the address out again through a tracked call: glibc reuses the block
 * freed last first, so the next malloc usually finds its own slot, hot, in
 * one probe. Freed slots are not tombstones: they hold a record, and
 * they are bounded. When live and freed slots pass half the table it is
 * swept: freed slots older than the last max(live blocks, FREED_MIN) frees
 * are deleted by backward shift (no tombstones, probe sequences stay as
 * short as the load allows), and the table is resized so that what is left
 * fills at most a quarter of it (in place when the size stays).
 * --------------------------------------------------------------------- */

struct slot {
    uintptr_t addr; /* 0: empty; bit 0 set: freed */
    uint64_t meta;  /* key in the low KEY_BITS; above: live, the size; freed, the free's number */
};

#define TAB_MIN_BITS 10
#define FREED_MIN    4096u

/* Before the first block: two empty slots that are never written, so
 * that a lookup needs no test for a missing table. */
static struct slot tab0[2];
static struct slot *tab = tab0;
static unsigned tbits = 1;
static unsigned tshift = 63; /* 64 - tbits */
static size_t tmask = 1;     /* (1 << tbits) - 1 */
static size_t tused;         /* occupied slots, live and freed */
static uint64_t free_seq;

/* Fibonacci hashing: the high bits of the address times 2^64/phi. The
 * address's low 4 bits go first: malloc's blocks are 16-aligned, and a
 * multiplier shifted left by them has lost the golden ratio's even spread
 * (measured: 1.8 probes a lookup at 12% load, 1.1 without them). */
HOT size_t hash_addr(uintptr_t a, unsigned shift)
{
    return (size_t)((((uint64_t)a >> 4) * UINT64_C(0x9E3779B97F4A7C15)) >> shift);
}

HOT uint32_t slot_key(const struct slot *e)
{
    return (uint32_t)(e->meta & KEY_MAX);
}

HOT uint64_t slot_size(const struct slot *e)
{
    return e->meta >> KEY_BITS;
}

HOT int slot_freed(const struct slot *e)
{
    return (int)(e->addr & 1u);
}

/* The slot of A (live or freed), or NULL. A is even. Inline: it is most
 * of what a call costs. */
HOT struct slot *slot_find(uintptr_t a)
{
    for (size_t i = hash_addr(a, tshift);; i = (i + 1) & tmask) {
        uintptr_t x = tab[i].addr;
        if ((x & ~(uintptr_t)1) == a)
            return &tab[i];
        if (x == 0)
            return NULL;
    }
}

static struct slot *slot_empty(struct slot *t, unsigned bits, uintptr_t a)
{
    size_t mask = ((size_t)1 << bits) - 1;
    size_t i = hash_addr(a, 64 - bits);
    while (t[i].addr != 0)
        i = (i + 1) & mask;
    return &t[i];
}

/* Empty slot I, moving later slots of its probe run back into the hole. */
static void slot_delete(size_t i)
{
    size_t mask = tmask;
    for (size_t j = (i + 1) & mask; tab[j].addr != 0; j = (j + 1) & mask) {
        size_t home = hash_addr(tab[j].addr & ~(uintptr_t)1, tshift);
        /* Slot j may move to i unless its home lies cyclically in (i, j]. */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            tab[i] = tab[j];
            i = j;
        }
    }
    tab[i].addr = 0;
    tab[i].meta = 0;
    tused--;
}

/* A freed slot older than the last WINDOW frees: forgotten at a sweep. */
static int slot_stale(const struct slot *e, uint64_t window)
{
    return slot_freed(e) && ((free_seq - slot_size(e)) & META_MAX) >= window;
}

/* Sweep stale freed slots, and resize so that the rest fill at most a
 * quarter of the table. */
static int tab_rebuild(void)
{
    size_t cap = tab == tab0 ? 0 : (size_t)1 << tbits, live = 0, keep = 0;
    for (size_t i = 0; i < cap; i++)
        if (tab[i].addr != 0 && !slot_freed(&tab[i]))
            live++;
    uint64_t window = live > FREED_MIN ? live : FREED_MIN;
    for (size_t i = 0; i < cap; i++)
        if (tab[i].addr != 0 && !slot_stale(&tab[i], window))
            keep++;
    unsigned nbits = TAB_MIN_BITS;
    while ((keep + 1) * 4 > ((size_t)1 << nbits))
        nbits++;
    if (tab != tab0 && nbits == tbits) {
        /* In place, from just past an empty slot, so that no probe run is
         * cut by the start: a deletion only moves later slots of its run
         * back into the slot just looked at, which is looked at again. */
        size_t mask = cap - 1, start = 0;
        while (tab[start].addr != 0)
            start++;
        for (size_t n = 1; n <= cap; n++) {
            size_t i = (start + n) & mask;
            while (tab[i].addr != 0 && slot_stale(&tab[i], window))
                slot_delete(i);
        }
        return 0;
    }
    struct slot *nt = pages_get(((size_t)1 << nbits) * sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < cap; i++)
        if (tab[i].addr != 0 && !slot_stale(&tab[i], window))
            *slot_empty(nt, nbits, tab[i].addr & ~(uintptr_t)1) = tab[i];
    if (tab != tab0)
        pages_put(tab, cap * sizeof *tab);
    tab = nt;
    tbits = nbits;
    tshift = 64 - nbits;
    tmask = ((size_t)1 << nbits) - 1;
    tused = keep;
    return 0;
}

/* A new slot for A, known not to be in the table; NULL if there is no room. */
static struct slot *slot_new(uintptr_t a)
{
    if (tab == tab0 || (tused + 1) * 2 > ((size_t)1 << tbits)) {
        if (tab_rebuild() != 0 && (tab == tab0 || tused + 2 > ((size_t)1 << tbits)))
            return NULL; /* always keep one slot empty: probes end */
    }
    struct slot *e = slot_empty(tab, tbits, a);
    e->addr = a;
    tused++;
    return e;
}

/* Mark a live slot freed (its bytes are taken off by the caller). */
HOT void slot_free(struct slot *e)
{
    e->addr |= 1u;
    e->meta = ((++free_seq & META_MAX) << KEY_BITS) | slot_key(e);
}

/* ---------------------------------------------------------------------
 * Recording, inside enter()/leave().
 * --------------------------------------------------------------------- */

HOT void record_alloc_in(int key, void *p, size_t size)
{
    uintptr_t a = (uintptr_t)p;
    uint32_t ki = key_index(key);
    used = 1;
    struct slot *e = (a & 1u) ? NULL : slot_find(a);
    if (e && !slot_freed(e)) {
        /* Still live: it was freed behind our back (free through a function
         * pointer, or by a library) and the allocator reused the address.
         * It leaves its key as a free. */
        struct mkey *o = &keys[slot_key(e)];
        o->alloc_bytes -= slot_size(e);
        o->frees++;
    }
    if ((a & 1u) || (uint64_t)size > META_MAX) {
        /* Cannot be recorded (an odd address; 2^40 bytes or more): returned
         * untracked, and no record of the address is left to misjudge its
         * free. */
        if (e)
            slot_delete((size_t)(e - tab));
        untracked++;
        return;
    }
    if (!e) {
        e = slot_new(a);
        if (!e) {
            untracked++;
            return;
        }
    }
    e->addr = a;
    e->meta = ((uint64_t)size << KEY_BITS) | ki;
    struct mkey *k = &keys[ki];
    k->allocs++;
    k->alloc_bytes += size;
    note_peak(k);
}

HOT void record_alloc(int key, void *p, size_t size)
{
    int how = enter();
    record_alloc_in(key, p, size);
    leave(how);
}

/* What a free of P is. */
enum free_kind { FREE_TRACKED, FREE_FOREIGN, FREE_DOUBLE };

/* Take P off its key (before the real free: once freed, the address may be
 * handed to another thread at once). */
HOT enum free_kind record_free_in(void *p)
{
    uintptr_t a = (uintptr_t)p;
    used = 1;
    struct slot *e = (a & 1u) ? NULL : slot_find(a);
    if (!e) {
        foreign_frees++;
        return FREE_FOREIGN;
    }
    struct mkey *k = &keys[slot_key(e)];
    if (slot_freed(e)) {
        k->double_frees++;
        return FREE_DOUBLE;
    }
    k->alloc_bytes -= slot_size(e);
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
    int how = enter();
    used = 1;
    /* The first key of that name, through the name index (under the lock). */
    static struct qq__name_index by_name;
    struct qq__name_table t = {keys, sizeof *keys, offsetof(struct mkey, name), QQ__NO_TYPE, nkeys};
    int found = (int)qq__name_index_find(&by_name, &t, name, 0);
    if (found < 0 && nkeys <= KEY_MAX) {
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
        }
    }
    if (found < 0)
        found = 0; /* out of memory or of keys: count against the default key */
    leave(how);
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
    int how = enter();
    enum free_kind kind = record_free_in(ptr);
    leave(how);
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
    int how = enter();
    used = 1;
    struct slot *e = (a & 1u) ? NULL : slot_find(a);
    uint64_t old_size = 0;
    uint32_t old_key = 0;
    int tracked = 0;
    if (e && slot_freed(e)) {
        /* realloc of a freed block: passing it on would corrupt the heap. */
        keys[slot_key(e)].double_frees++;
        leave(how);
        errno = EINVAL;
        return NULL;
    }
    if (e) {
        /* Freed for the duration: if the block moves, another thread may
         * get the address before we record again. */
        old_size = slot_size(e);
        old_key = slot_key(e);
        tracked = 1;
        slot_free(e);
    }
    leave(how);

    void *q = realloc(ptr, size);

    how = enter();
    if (!q) {
        /* The old block is still there, unchanged: bring its slot back. */
        if (tracked) {
            e = slot_find(a);
            if (!e) /* dropped by a sweep meanwhile */
                e = slot_new(a);
            if (e) {
                e->addr = a;
                e->meta = (old_size << KEY_BITS) | old_key;
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
        record_alloc_in(key, q, size);
    }
    leave(how);
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
    int how = enter();
    used = 1;
    struct mkey *k = &keys[key_index(key)];
    k->created++;
    k->obj_bytes += (int64_t)size;
    if (size != 0)
        k->obj_size = size;
    note_peak(k);
    leave(how);
}

void MemFreeObject(int key, const void *obj, size_t size)
{
    (void)obj;
    int how = enter();
    used = 1;
    struct mkey *k = &keys[key_index(key)];
    k->deleted++;
    k->obj_bytes -= (int64_t)size;
    leave(how);
}

void MemReset(void)
{
    int how = enter();
    if (tab != tab0)
        pages_put(tab, ((size_t)1 << tbits) * sizeof *tab);
    tab = tab0;
    tbits = 1;
    tshift = 63;
    tmask = 1;
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
    leave(how);
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
    int how = enter();
    if (!used) {
        leave(how);
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
    leave(how);
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
    int how = enter();
    uint64_t lost = untracked;
    leave(how);
    if (lost)
        fprintf(fp ? fp : stdout,
                "Untracked blocks %" PRIu64 " (no memory for the address table)\n", lost);
}
