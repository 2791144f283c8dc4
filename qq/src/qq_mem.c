/* qq_mem.c - memory keys: per-thread address tables and per-thread counters under a bias
 * per table, the peak's bounds, the MEMT snapshot (MemPrint: qq_mem_print.c; fork():
 * qq_mem_fork.c). */

/* mmap's MAP_ANONYMOUS and syscall() are outside strict POSIX in glibc. */
#define _DEFAULT_SOURCE 1

/* Never the redirection macros here: every malloc and free below is libc's. */
#define QQ__MEM_IMPL 1

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
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
#include "qq_mem_internal.h"

#if defined(__has_attribute)
#if __has_attribute(noplt) && defined(__PIC__)
/* libc's malloc and free called through the GOT, not a PLT stub (one jump
 * less a call): they are the calls of the common path. The benchmark's
 * plain and floor variants call them so too (kernels/mem_overhead.c). */
extern void *malloc(size_t size) __attribute__((noplt));
extern void free(void *ptr) __attribute__((noplt));
#endif
#endif

/* What a malloc+free pair runs through, inlined into MemMalloc and MemFree:
 * a call and its register saves are a tenth of the pair's cost. */
#if defined(__GNUC__)
#define HOT       static inline __attribute__((always_inline))
#define COLD      static __attribute__((noinline))
/* The branch a call takes in the common case, laid out straight. */
#define LIKELY(c) __builtin_expect(!!(c), 1)
/* A thread-local read without a call to __tls_get_addr (which, even when
 * the linker relaxes it away, makes the compiler save registers around
 * it): libqq is a static library, linked into a program or a shared
 * library that glibc's static TLS reserve takes. */
#define TLS_IE    __attribute__((tls_model("initial-exec")))
/* X kept in its register, not replaced by an equal value loaded later. */
#define OPAQUE(x) __asm__("" : "+r"(x))
#else
#define HOT       static inline
#define COLD      static
#define LIKELY(c) (c)
#define TLS_IE
#define OPAQUE(x) ((void)0)
#endif

#if defined(MAP_ANONYMOUS)
#define QQ__MAP_ANON MAP_ANONYMOUS
#elif defined(MAP_ANON)
#define QQ__MAP_ANON MAP_ANON
#endif

/* ---------------------------------------------------------------------
 * Who records how.
 *
 * Each thread records its blocks in its own address table (below), and
 * counts its calls and bytes per key in that table's own counters: no
 * line that another thread writes on the common path. Whoever records in
 * a table holds it: its owner thread under the table's *bias* (no lock,
 * no read-modify-write), any other thread, and the owner once the bias is
 * withdrawn, under the table's lock.
 *
 * The owner announces each call in its table's busy word (a plain store,
 * no fence) and then checks the table's biased word. Another thread that
 * must look into the table (a block of the owner's freed elsewhere, the
 * snapshot, MemReset, fork) takes the table's lock, clears biased and
 * runs membarrier(), which puts a full memory barrier into every running
 * thread of the process: after it, either the owner sees biased clear, or
 * the revoker sees busy set and waits for the call to end. From then on
 * the owner takes its table's lock too, until it has made a number of
 * calls under the lock with no other thread withdrawing its bias (64, then
 * twice as many after each withdrawal, up to 2^24): it then takes the bias
 * back, under the lock. A table that other threads look into often thus
 * stays under its lock, and a program pays at most one membarrier() a
 * withdrawal. This is the asymmetric Dekker handshake of userspace RCU,
 * per table; where the kernel has no private expedited membarrier (not
 * Linux, Linux before 4.14) no table is ever biased. (valgrind 3.19 passes
 * it through: callgrind counts the biased path.)
 * --------------------------------------------------------------------- */

/* The registry lock: taken to add or adopt a table, for keys (MemAddKey),
 * MemReset and the snapshot; never on the common path. */
static _Alignas(64) atomic_int reg_lock;
static int bias_known; /* under reg_lock: bias_ok was decided */
static int bias_ok;    /* membarrier() can withdraw a bias: tables are biased */

#define REBIAS_FIRST 64u
#define REBIAS_MAX   (1u << 24)

/* A test-and-test-and-set lock, held for a probe and a few stores: taking
 * it is one atomic exchange and releasing it a plain store, where a
 * pthread mutex costs two atomic read-modify-writes and, contended, a
 * futex call on each side. A waiter spins briefly, then yields the CPU so
 * that a holder that was preempted (more threads than cores) can finish. */
static void lock_spin(atomic_int *l)
{
    for (unsigned spins = 0;; spins++) {
        if (!atomic_load_explicit(l, memory_order_relaxed) &&
            !atomic_exchange_explicit(l, 1, memory_order_acquire))
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

HOT void lock_take(atomic_int *l)
{
    if (!atomic_exchange_explicit(l, 1, memory_order_acquire))
        return;
    lock_spin(l);
}

HOT void lock_give(atomic_int *l)
{
    atomic_store_explicit(l, 0, memory_order_release);
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
/* ---------------------------------------------------------------------
 * Per-key state shared by all threads: the name, the counters that are
 * rare or not per thread (double frees, the object size), the highest
 * exact total a snapshot saw, and a *spare account*: the counters of a
 * table whose per-key counters could not be mapped (out of memory) go
 * here, atomically (the peak a compare-and-swap maximum, exact for this
 * account). Keys live in chunks that are never reallocated, so their
 * addresses are stable without a lock.
 * --------------------------------------------------------------------- */

struct mkey {
    /* The spare account. */
    _Alignas(64) _Atomic int64_t held; /* block bytes + object bytes */
    _Atomic int64_t peak;              /* the most held ever held (>= 0) */
    _Atomic int64_t obj;               /* object bytes (may go below 0) */
    _Atomic int64_t obj_low;           /* the least obj ever (<= 0) */
    _Atomic uint64_t allocs;
    _Atomic uint64_t frees;
    _Atomic uint64_t created;
    _Atomic uint64_t deleted;
    /* The key's own. */
    _Alignas(64) _Atomic uint64_t obj_size; /* the last non-zero MEMADDOBJECT size */
    _Atomic uint64_t double_frees;
    int64_t cut; /* under reg_lock: the highest exact total a snapshot saw */
    char *name;  /* malloc'd, except key 0's */
};

/* A slot's meta holds a key in its low KEY_BITS bits, the freed mark in
 * the next, and a size (live) or a free's number (freed) in the rest. */
#define KEY_BITS   24
#define KEY_MAX    ((UINT32_C(1) << KEY_BITS) - 1)
#define META_FREED (UINT64_C(1) << KEY_BITS)
#define META_SHIFT (KEY_BITS + 1)
#define META_MAX   (UINT64_MAX >> META_SHIFT)

/* The first KEYS0 keys are static (key 0 counts before any MemAddKey);
 * key I >= KEYS0 lives in chunk c = floor(log2(I)) - KEYS0_BITS + 1, which
 * holds the 2^floor(log2(I)) keys from 2^floor(log2(I)), from mmap as keys
 * are added. */
#define KEYS0_BITS 6
#define KEYS0      (1u << KEYS0_BITS)
/* The paths that read a first-KEYS0 key from a meta word take its low byte. */
_Static_assert(KEYS0_BITS <= 8, "a first key fits the meta's low byte");
#define KEY_CHUNKS (KEY_BITS - KEYS0_BITS + 1)

static char default_name[] = "default";
static struct mkey keys0[KEYS0] = {{.name = default_name}};
static struct mkey *chunks[KEY_CHUNKS] = {keys0};
static _Alignas(64) atomic_uint nkeys = 1; /* keys 0 .. nkeys-1 exist */
/* min(nkeys, KEYS0): the keys the bias's malloc path takes straight, in
 * one compare with the size (record_alloc). */
static atomic_uint nkeys_near = 1;
static atomic_int used; /* MemAddKey since start/MemReset (calls count themselves) */
static _Alignas(64) _Atomic uint64_t foreign_frees;
static _Atomic uint64_t untracked; /* blocks the table had no room for */

HOT unsigned log2_u32(uint32_t n)
{
#if defined(__GNUC__)
    return 31u - (unsigned)__builtin_clz(n);
#else
    unsigned c = 0;
    while (n >>= 1)
        c++;
    return c;
#endif
}

/* Keys out of range (e.g. -1 from a file compiled with profiling off)
 * count against the default key. One compare: a negative key, as
 * unsigned, is past any count of keys (at most 2^KEY_BITS). */
HOT uint32_t key_index(int key)
{
    return (uint32_t)key < atomic_load_explicit(&nkeys, memory_order_acquire) ? (uint32_t)key : 0;
}

/* Keys in chunk C. */
static size_t chunk_len(unsigned c)
{
    return c == 0 ? KEYS0 : (size_t)1 << (c + KEYS0_BITS - 1);
}

/* The chunk key I lives in; *OFF its place there. */
HOT unsigned key_chunk(uint32_t i, uint32_t *off)
{
    if (i < KEYS0) {
        *off = i;
        return 0;
    }
    unsigned b = log2_u32(i);
    *off = i - (UINT32_C(1) << b);
    return b - KEYS0_BITS + 1;
}

HOT struct mkey *key_at(uint32_t i)
{
    if (LIKELY(i < KEYS0))
        return &keys0[i];
    uint32_t off;
    unsigned c = key_chunk(i, &off);
    return &chunks[c][off];
}

static void count_atomic(_Atomic uint64_t *c)
{
    atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

/* The spare account of K: D bytes more held (D < 0: less); a new high is
 * its peak. */
static void spare_held(struct mkey *k, int64_t d)
{
    int64_t v = atomic_fetch_add_explicit(&k->held, d, memory_order_relaxed) + d;
    int64_t p = atomic_load_explicit(&k->peak, memory_order_relaxed);
    while (v > p && !atomic_compare_exchange_weak_explicit(&k->peak, &p, v, memory_order_relaxed,
                                                           memory_order_relaxed))
        ;
}

/* The spare account of K: D object bytes more; a new low is its obj_low. */
static void spare_obj(struct mkey *k, int64_t d)
{
    int64_t v = atomic_fetch_add_explicit(&k->obj, d, memory_order_relaxed) + d;
    int64_t lo = atomic_load_explicit(&k->obj_low, memory_order_relaxed);
    while (v < lo && !atomic_compare_exchange_weak_explicit(
                         &k->obj_low, &lo, v, memory_order_relaxed, memory_order_relaxed))
        ;
    spare_held(k, d);
}
/* ---------------------------------------------------------------------
 * Pages for the tables and keys, straight from the kernel: no allocator
 * involved.
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
 * The address tables: address -> (key, size) of every tracked block, and
 * a record of blocks freed through MemFree/MemRealloc (for double frees).
 * One table per recording thread, held as "Who records how" says.
 *
 * Open addressing with linear probing, 16-byte slots (four to a cache
 * line), Fibonacci hashing. A freed block's slot stays, marked freed
 * (META_FREED in its meta), until the allocator hands
 * the address out again through a tracked call: glibc reuses the block
 * freed last first, so the next malloc usually finds its own slot, hot, in
 * one probe. Freed slots are not tombstones: they hold a record, and
 * they are bounded. When live and freed slots pass half the table it is
 * swept: freed slots older than the last max(live blocks, FREED_MIN) frees
 * of the table are deleted by backward shift (no tombstones, probe
 * sequences stay as short as the load allows), and the table is resized so
 * that what is left fills at most a quarter of it (in place when the size
 * stays).
 * --------------------------------------------------------------------- */

struct slot {
    uintptr_t addr; /* 0: empty */
    uint64_t meta;  /* the key, META_FREED, and the size (live) or the free's number (freed) */
};
/* slot_find_in takes a slot's offset as the hash shifted 4 less. */
_Static_assert(sizeof(struct slot) == 16, "a slot is 16 bytes");

#define TAB_MIN_BITS 10
#define FREED_MIN    4096u

/* A table's account of one key: what the blocks recorded in the table
 * and the objects counted by its threads add up to. Written only by
 * whoever holds the table; read by the snapshot, which holds every table.
 * One cache line. */
struct tcount {
    int64_t held;    /* bytes of live blocks recorded here + obj */
    int64_t peak;    /* the most held ever held (>= 0) */
    int64_t obj;     /* object bytes counted here (below 0 with frees of others' objects) */
    int64_t obj_low; /* the least obj ever (<= 0) */
    uint64_t allocs;
    uint64_t frees;
    uint64_t created;
    uint64_t deleted;
};

struct mtab {
    /* The owner's line: read and written on every call. */
    _Alignas(64) atomic_int busy; /* the owner is inside a call under the bias */
    atomic_int lock;              /* 1: held */
    /* The bias: slots while the owner may record without the lock, NULL
     * otherwise (one load gives the owner both). */
    _Atomic(struct slot *) biased;
    struct slot *slots;
    int orphan; /* under reg_lock: no thread owns it */
    unsigned bits;
    unsigned shift;        /* 64 - bits */
    unsigned off_shift;    /* shift - 4: the hash in bytes (slot_find_in) */
    size_t mask;           /* (1 << bits) - 1 */
    size_t used;           /* occupied slots, live and freed */
    uint64_t free_mark;    /* META_FREED | the number of the table's last free << META_SHIFT */
    uint32_t locked_calls; /* under lock: the owner's calls since the bias went */
    uint32_t rebias_at;    /* under lock: after how many it takes the bias back */
    int withdrawn;         /* under lock: hold_all() withdrew the bias and waits for busy */
    _Atomic(struct mtab *) next;    /* the registry: a list, only appended to */
    struct tcount *cnt[KEY_CHUNKS]; /* laid out as the keys' chunks; cnt[0] is cnt0 */
    unsigned cnt_none;              /* bit c: chunk c could not be mapped; not tried again */
    _Alignas(64) struct tcount cnt0[KEYS0]; /* an account a cache line, not across two */
};

/* Before a table's first block: two empty slots that are never written,
 * so that a lookup needs no test for a missing table. */
static struct slot tab0[2];

/* The first table, the head of the registry; an orphan until a thread
 * records. */
static struct mtab tab_main = {.orphan = 1,
                               .slots = tab0,
                               .bits = 1,
                               .shift = 63,
                               .off_shift = 59,
                               .mask = 1,
                               .free_mark = META_FREED,
                               .cnt = {tab_main.cnt0}};
static struct mtab *reg_tail = &tab_main; /* under reg_lock */
static int ntables = 1;                   /* under reg_lock */

/* What a thread that has no table of its own points at: never biased, so
 * that its calls take the slow path, and the fast path needs no test for a
 * missing table. Not in the registry. */
static struct mtab tab_none;

/* This thread's own table, once it has recorded; tab_none before, and for
 * a thread that records in the first table as a guest (no memory for a
 * table of its own). */
static _Thread_local TLS_IE struct mtab *t_tab = &tab_none;
static _Thread_local TLS_IE int t_guest;
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
    return e->meta >> META_SHIFT;
}

HOT int slot_freed(const struct slot *e)
{
    return (e->meta & META_FREED) != 0;
}

/* The slot of A (live or freed) in T, or NULL (always for an odd A: no
 * slot holds one). For A = 0 (libc's NULL) never NULL: the empty slot
 * that ends its probe, whose meta is 0, which MemMalloc's NULL path
 * relies on (test_mem_null). Inline: it is most of what a call costs. */
HOT struct slot *slot_find_in(const struct mtab *t, struct slot *s, uintptr_t a)
{
    /* In bytes from S: the hash's top bits shifted 4 less, and the rest
     * cleared, are its index times the slot's 16 bytes. */
    size_t off = hash_addr(a, t->off_shift) & ~(size_t)(sizeof *s - 1);
    /* The first probe laid out straight: at a quarter load it is most
     * often the one. */
    if (LIKELY(((struct slot *)((char *)s + off))->addr == a))
        return (struct slot *)((char *)s + off);
    for (size_t m = t->mask * sizeof *s;; off = (off + sizeof *s) & m) {
        struct slot *e = (struct slot *)((char *)s + off);
        if (e->addr == a)
            return e;
        if (e->addr == 0)
            return NULL;
    }
}

HOT struct slot *slot_find(struct mtab *t, uintptr_t a)
{
    return slot_find_in(t, t->slots, a);
}

static struct slot *slot_empty(struct slot *s, unsigned bits, uintptr_t a)
{
    size_t mask = ((size_t)1 << bits) - 1;
    size_t i = hash_addr(a, 64 - bits);
    while (s[i].addr != 0)
        i = (i + 1) & mask;
    return &s[i];
}

/* Empty slot I of T, moving later slots of its probe run back into the hole. */
static void slot_delete(struct mtab *t, size_t i)
{
    struct slot *s = t->slots;
    size_t mask = t->mask;
    for (size_t j = (i + 1) & mask; s[j].addr != 0; j = (j + 1) & mask) {
        size_t home = hash_addr(s[j].addr, t->shift);
        /* Slot j may move to i unless its home lies cyclically in (i, j]. */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            s[i] = s[j];
            i = j;
        }
    }
    s[i].addr = 0;
    s[i].meta = 0;
    t->used--;
}

/* A freed slot older than the last WINDOW frees of T: forgotten at a sweep. */
static int slot_stale(const struct mtab *t, const struct slot *e, uint64_t window)
{
    return slot_freed(e) && (((t->free_mark >> META_SHIFT) - slot_size(e)) & META_MAX) >= window;
}

/* Sweep stale freed slots of T, and resize so that the rest fill at most a
 * quarter of the table. */
static int tab_rebuild(struct mtab *t)
{
    struct slot *s = t->slots;
    size_t cap = s == tab0 ? 0 : (size_t)1 << t->bits, live = 0, keep = 0;
    for (size_t i = 0; i < cap; i++)
        if (s[i].addr != 0 && !slot_freed(&s[i]))
            live++;
    uint64_t window = live > FREED_MIN ? live : FREED_MIN;
    for (size_t i = 0; i < cap; i++)
        if (s[i].addr != 0 && !slot_stale(t, &s[i], window))
            keep++;
    unsigned nbits = TAB_MIN_BITS;
    while ((keep + 1) * 4 > ((size_t)1 << nbits))
        nbits++;
    if (s != tab0 && nbits == t->bits) {
        /* In place, from just past an empty slot, so that no probe run is
         * cut by the start: a deletion only moves later slots of its run
         * back into the slot just looked at, which is looked at again. */
        size_t mask = cap - 1, start = 0;
        while (s[start].addr != 0)
            start++;
        for (size_t n = 1; n <= cap; n++) {
            size_t i = (start + n) & mask;
            while (s[i].addr != 0 && slot_stale(t, &s[i], window))
                slot_delete(t, i);
        }
        return 0;
    }
    struct slot *ns = pages_get(((size_t)1 << nbits) * sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < cap; i++)
        if (s[i].addr != 0 && !slot_stale(t, &s[i], window))
            *slot_empty(ns, nbits, s[i].addr) = s[i];
    if (s != tab0)
        pages_put(s, cap * sizeof *s);
    t->slots = ns;
    /* Under the bias, the bias now names the new slots (unless another
     * thread withdrew it meanwhile: then it stays withdrawn). */
    atomic_compare_exchange_strong_explicit(&t->biased, &s, ns, memory_order_relaxed,
                                            memory_order_relaxed);
    t->bits = nbits;
    t->shift = 64 - nbits;
    t->off_shift = t->shift - 4;
    t->mask = ((size_t)1 << nbits) - 1;
    t->used = keep;
    return 0;
}

/* A new slot for A in T, known not to be there; NULL if there is no room. */
static struct slot *slot_new(struct mtab *t, uintptr_t a)
{
    if (t->slots == tab0 || (t->used + 1) * 2 > ((size_t)1 << t->bits)) {
        if (tab_rebuild(t) != 0 && (t->slots == tab0 || t->used + 2 > ((size_t)1 << t->bits)))
            return NULL; /* always keep one slot empty: probes end */
    }
    struct slot *e = slot_empty(t->slots, t->bits, a);
    e->addr = a;
    t->used++;
    return e;
}

/* Mark a live slot of T, of key KI, freed (its bytes are taken off by the
 * caller). */
HOT void slot_free(struct mtab *t, struct slot *e, uint64_t ki)
{
    t->free_mark += UINT64_C(1) << META_SHIFT; /* the number wraps with META_MAX */
    e->meta = t->free_mark | ki;
}

/* Forget every block of T and its counts. */
static void tab_clear(struct mtab *t)
{
    for (unsigned c = 1; c < KEY_CHUNKS; c++) {
        pages_put(t->cnt[c], chunk_len(c) * sizeof *t->cnt[c]);
        t->cnt[c] = NULL;
    }
    memset(t->cnt0, 0, sizeof t->cnt0);
    t->cnt_none = 0;
    if (t->slots != tab0)
        pages_put(t->slots, ((size_t)1 << t->bits) * sizeof *t->slots);
    t->slots = tab0;
    t->bits = 1;
    t->shift = 63;
    t->off_shift = 59;
    t->mask = 1;
    t->used = 0;
    t->free_mark = META_FREED;
}

/* ---------------------------------------------------------------------
 * Holding a table.
 * --------------------------------------------------------------------- */

/* Under U's lock: withdraw U's bias if it has one, and wait for its
 * owner's call in flight to end. ONE_BARRIER 0: the caller runs
 * membarrier() itself (for several tables at once) and waits then. */
static int bias_clear(struct mtab *u)
{
    if (!atomic_load_explicit(&u->biased, memory_order_relaxed))
        return 0;
    atomic_store_explicit(&u->biased, NULL, memory_order_relaxed);
    u->locked_calls = 0;
    u->rebias_at = u->rebias_at >= REBIAS_MAX / 2 ? REBIAS_MAX : 2 * u->rebias_at;
    return 1;
}

static void busy_wait(struct mtab *u)
{
    while (atomic_load_explicit(&u->busy, memory_order_acquire))
        sched_yield();
}

/* Hold U, a table this thread does not own (or every thread's, for the
 * snapshot): its lock, and its bias withdrawn. */
static void hold_other(struct mtab *u)
{
    lock_take(&u->lock);
    if (bias_clear(u)) {
        membarrier_all();
        busy_wait(u);
    }
}

/* Under reg_lock: hold every table, with one membarrier() for all the
 * biases withdrawn (the snapshot, MemReset, fork). The registry's order is
 * the one lock order of this file. */
static void hold_all(void)
{
    int any = 0;
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire)) {
        lock_take(&u->lock);
        u->withdrawn = bias_clear(u);
        any |= u->withdrawn;
    }
    if (!any)
        return;
    membarrier_all();
    /* Only where a bias was withdrawn: an owner without it sets busy for
     * an instant on each call too (before it sees the bias gone), which a
     * child of fork() would keep for ever. */
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire))
        if (u->withdrawn)
            busy_wait(u);
}

static void release_all(void)
{
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire))
        lock_give(&u->lock);
}

void qq__mem_hold_all(void)
{
    lock_take(&reg_lock);
    hold_all();
}

void qq__mem_release_all(void)
{
    release_all();
    lock_give(&reg_lock);
}

void qq__mem_clear_busy(void)
{
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire))
        atomic_store_explicit(&u->busy, 0, memory_order_relaxed);
}

/* ---------------------------------------------------------------------
 * Tables and threads. A thread's table outlives the thread (its blocks
 * do): when the thread exits, the table becomes an orphan, and the next
 * thread that records adopts it, so that thread churn does not add tables
 * without bound. The registry is a list walked with acquire loads; the
 * registry lock only adds to it and hands orphans out.
 * --------------------------------------------------------------------- */

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static int exit_key_ok;

static void thread_gone(void *p)
{
    struct mtab *t = p;
    lock_take(&reg_lock);
    t->orphan = 1;
    lock_give(&reg_lock);
    if (t_tab == t)
        t_tab = &tab_none; /* a later call of this thread (another destructor) registers again */
}

static void exit_key_make(void)
{
    exit_key_ok = pthread_key_create(&exit_key, thread_gone) == 0;
}

/* Under reg_lock: an orphan table, or a new one; NULL without memory. */
static struct mtab *tab_adopt(void)
{
    struct mtab *t;
    for (t = &tab_main; t; t = atomic_load_explicit(&t->next, memory_order_relaxed))
        if (t->orphan)
            break;
    if (!t) {
        t = pages_get(sizeof *t);
        if (!t)
            return NULL;
        t->slots = tab0;
        t->bits = 1;
        t->shift = 63;
        t->off_shift = 59;
        t->mask = 1;
        t->free_mark = META_FREED;
        t->cnt[0] = t->cnt0;
        atomic_store_explicit(&reg_tail->next, t, memory_order_release);
        reg_tail = t;
        ntables++;
    }
    t->orphan = 0;
    pthread_once(&exit_once, exit_key_make);
    if (exit_key_ok && pthread_setspecific(exit_key, t) != 0) {
        t->orphan = 1;
        return NULL;
    }
    /* The new owner starts with the bias (another thread may be looking
     * into the table meanwhile: under its lock). */
    lock_take(&t->lock);
    atomic_store_explicit(&t->biased, bias_ok ? t->slots : NULL, memory_order_relaxed);
    t->locked_calls = 0;
    t->rebias_at = REBIAS_FIRST;
    lock_give(&t->lock);
    return t;
}

/* The first call of a thread: its own table, or (without memory for one)
 * the first table as a guest. */
COLD void thread_first(void)
{
    qq__mem_fork_hooks();
    lock_take(&reg_lock);
    if (!bias_known) {
        /* QQ_MEM_NO_BIAS=1 takes the path of a kernel without private
         * expedited membarrier (every table under its lock), so tests run
         * it on any machine. getenv allocates nothing. */
        const char *nb = getenv("QQ_MEM_NO_BIAS");
        bias_known = 1;
        bias_ok = !(nb && nb[0] == '1') && membarrier_ready();
    }
    struct mtab *t = tab_adopt();
    lock_give(&reg_lock);
    t_tab = t ? t : &tab_none;
    t_guest = t == NULL;
}

/* Out of line: the table this thread records in, held under its lock. */
COLD struct mtab *enter_locked(void)
{
    if (t_tab == &tab_none && !t_guest)
        thread_first();
    struct mtab *t = t_tab;
    if (t == &tab_none) {
        hold_other(&tab_main); /* a guest */
        return &tab_main;
    }
    lock_take(&t->lock);
    /* The owner takes its bias back after enough calls under the lock
     * with nobody withdrawing it (it takes effect at the next call). */
    if (bias_ok && ++t->locked_calls >= t->rebias_at)
        atomic_store_explicit(&t->biased, t->slots, memory_order_relaxed);
    return t;
}

/* The start of a call: the table it records in, in *T; returns 0 when the
 * call holds it under the bias, 1 under its lock. */
HOT int enter(struct mtab **tp)
{
    struct mtab *t = t_tab;
    atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* membarrier() is the other half */
    if (LIKELY(atomic_load_explicit(&t->biased, memory_order_relaxed) != NULL)) {
        *tp = t;
        return 0;
    }
    atomic_store_explicit(&t->busy, 0, memory_order_release);
    *tp = enter_locked();
    return 1;
}

/* The end of a call that enter() returned HOW for. */
HOT void leave(struct mtab *t, int how)
{
    if (how)
        lock_give(&t->lock);
    else
        atomic_store_explicit(&t->busy, 0, memory_order_release);
}

uint64_t qq__mem_untracked(void)
{
    return atomic_load_explicit(&untracked, memory_order_relaxed);
}

int qq__mem_tables(void)
{
    lock_take(&reg_lock);
    int n = ntables;
    lock_give(&reg_lock);
    return n;
}

/* ---------------------------------------------------------------------
 * Recording.
 * --------------------------------------------------------------------- */

/* T's counters of chunk C, mapped now, or NULL. A mapping that failed is
 * not tried again until MemReset: without it a thread would make a failing
 * system call on every call while memory is short. */
COLD struct tcount *tcount_chunk(struct mtab *t, unsigned c)
{
    if (t->cnt_none & (1u << c))
        return NULL;
    t->cnt[c] = pages_get(chunk_len(c) * sizeof *t->cnt[c]);
    if (!t->cnt[c])
        t->cnt_none |= 1u << c;
    return t->cnt[c];
}

COLD struct tcount *tc_far(struct mtab *t, uint32_t ki)
{
    uint32_t off;
    unsigned c = key_chunk(ki, &off);
    struct tcount *ch = t->cnt[c];
    if (!ch)
        ch = tcount_chunk(t, c);
    return ch ? &ch[off] : NULL;
}

/* T's account of key KI (T held), or NULL: the key's spare account. */
HOT struct tcount *tc_of(struct mtab *t, uint32_t ki)
{
    if (LIKELY(ki < KEYS0))
        return &t->cnt0[ki];
    return tc_far(t, ki);
}

/* SIZE bytes more on account C; a new high is its peak. */
HOT void tc_add(struct tcount *c, uint64_t size)
{
    int64_t v = c->held + (int64_t)size;
    c->held = v;
    if (v > c->peak)
        c->peak = v;
}

/* A free of SIZE bytes of key KI, whose block was recorded in T (held):
 * the bytes leave T's account of the key, the free is counted there. */
HOT void count_tracked_free(struct mtab *t, uint32_t ki, uint64_t size)
{
    struct tcount *c = tc_of(t, ki);
    if (LIKELY(c != NULL)) {
        c->held -= (int64_t)size;
        c->frees++;
        return;
    }
    struct mkey *k = key_at(ki);
    spare_held(k, -(int64_t)size);
    count_atomic(&k->frees);
}

/* A block that cannot be recorded (an odd address; 2^39 bytes or more):
 * returned untracked, and no record of the address is left to misjudge
 * its free. */
COLD void record_untracked(struct mtab *t, uintptr_t a)
{
    struct slot *e = slot_find(t, a);
    if (e && !slot_freed(e))
        count_tracked_free(t, slot_key(e), slot_size(e)); /* freed behind our back */
    if (e)
        slot_delete(t, (size_t)(e - t->slots));
    count_atomic(&untracked);
}

COLD void count_spare_alloc(uint32_t ki, uint64_t size)
{
    struct mkey *k = key_at(ki);
    count_atomic(&k->allocs);
    spare_held(k, (int64_t)size);
}

/* Record P in T (held). */
HOT void record_alloc_in(struct mtab *t, int key, void *p, size_t size)
{
    if (!p) /* MemMalloc's malloc failed: nothing to record */
        return;
    uintptr_t a = (uintptr_t)p;
    uint32_t ki = key_index(key);
    if ((a & 1u) || (uint64_t)size > META_MAX) {
        record_untracked(t, a);
        return;
    }
    struct slot *e = slot_find(t, a);
    if (e && !slot_freed(e)) {
        /* Still live: it was freed behind our back (free through a function
         * pointer, or by a library) and the allocator reused the address.
         * It leaves its key as a free. */
        count_tracked_free(t, slot_key(e), slot_size(e));
    }
    if (!e) {
        e = slot_new(t, a);
        if (!e) {
            count_atomic(&untracked);
            return;
        }
    }
    e->meta = ((uint64_t)size << META_SHIFT) | ki;
    struct tcount *c = tc_of(t, ki);
    if (LIKELY(c != NULL)) {
        c->allocs++;
        tc_add(c, size);
    } else {
        count_spare_alloc(ki, size);
    }
}

/* Out of line: the bias's path keeps to the registers a call may
 * clobber (no saves). Records P in T under the lock. */
COLD void *record_alloc_locked(int key, void *p, size_t size)
{
    struct mtab *t = enter_locked();
    record_alloc_in(t, key, p, size);
    lock_give(&t->lock);
    return p;
}

/* What the bias's path leaves out (a new slot, a block freed behind our
 * back, an odd address, a key past the first KEYS0): T held under the
 * bias. */
COLD void *record_alloc_rest(struct mtab *t, int key, void *p, size_t size)
{
    record_alloc_in(t, key, p, size);
    atomic_store_explicit(&t->busy, 0, memory_order_release);
    return p;
}

/* A key and a size the bias's path takes straight, in one compare: a
 * registered key of the first KEYS0 whose size shifted right by 33 is
 * below the keys registered (so below 2^39 always, and below 2^33 for key
 * 0 with one key); the other path records sizes up to META_MAX. Keys are never unregistered, so the
 * answer, taken before libc's malloc, holds for the rest of the call. */
HOT int alloc_near(int key, size_t size)
{
    /* In 32 bits: a size_t shifted right by 33 fits them. */
    uint32_t near = (uint32_t)key | (uint32_t)((uint64_t)size >> (64 - META_SHIFT - KEYS0_BITS));
    return near < atomic_load_explicit(&nkeys_near, memory_order_acquire);
}

/* A near key and size as a live slot's meta: one register to keep across
 * libc's malloc. */
HOT uint64_t meta_of(int key, size_t size)
{
    return ((uint64_t)size << META_SHIFT) | (uint32_t)key;
}

/* Record P for a key and size not near (alloc_near): under the bias or
 * the lock, whichever this thread's table is under. Returns P. */
COLD void *record_alloc_far(int key, void *p, size_t size)
{
    struct mtab *t;
    int how = enter(&t);
    record_alloc_in(t, key, p, size);
    leave(t, how);
    return p;
}

/* Record P, returned by libc for the near key and size of META; returns
 * P. enter(), record_alloc_in() and leave() with the bias's common case
 * laid out straight: the address's own freed slot found again (glibc
 * hands the block freed last out first). Everything else is a tail call. */
HOT void *record_near(void *p, uint64_t meta)
{
    struct mtab *t = t_tab;
    atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* membarrier() is the other half */
    struct slot *s = atomic_load_explicit(&t->biased, memory_order_relaxed);
    if (LIKELY(s != NULL)) {
        struct slot *e = slot_find_in(t, s, (uintptr_t)p);
        if (!e || !slot_freed(e))
            return record_alloc_rest(t, (int)(meta & KEY_MAX), p, meta >> META_SHIFT);
        e->meta = meta;
        struct tcount *c = &t->cnt0[(uint8_t)meta]; /* the key: bits 6 to 24 are clear */
        c->allocs++;
        tc_add(c, meta >> META_SHIFT);
        atomic_store_explicit(&t->busy, 0, memory_order_release);
        return p;
    }
    atomic_store_explicit(&t->busy, 0, memory_order_release);
    return record_alloc_locked((int)(meta & KEY_MAX), p, meta >> META_SHIFT);
}

/* Record P, returned by libc for SIZE bytes of KEY; returns P. */
HOT void *record_alloc(int key, void *p, size_t size)
{
    if (LIKELY(alloc_near(key, size)))
        return record_near(p, meta_of(key, size));
    return record_alloc_far(key, p, size);
}

/* What a free of an address is. */
enum free_kind { FREE_TRACKED, FREE_FOREIGN, FREE_DOUBLE };

/* In T (held): mark A's live record freed and give its size and key
 * (FREE_TRACKED), with COUNT also taking its bytes off T's account and
 * counting the free there; or give a freed record's key (FREE_DOUBLE); or
 * nothing. */
HOT enum free_kind take_in(struct mtab *t, int count, uintptr_t a, uint64_t *size, uint32_t *key)
{
    struct slot *e = slot_find(t, a);
    if (!e)
        return FREE_FOREIGN;
    uint32_t ki = slot_key(e);
    *key = ki;
    if (slot_freed(e))
        return FREE_DOUBLE;
    *size = slot_size(e);
    if (count)
        count_tracked_free(t, ki, *size);
    slot_free(t, e, ki);
    return FREE_TRACKED;
}

/* take_in over the tables other than OWN, each held in turn, after OWN
 * answered SEEN: the first live record wins; a freed one is remembered.
 * The caller holds no table: a call never holds two (but the snapshot,
 * MemReset and fork, which hold them all in the registry's order). */
COLD enum free_kind take_elsewhere(const struct mtab *own, int count, uintptr_t a,
                                   enum free_kind seen, uint64_t *size, uint32_t *key,
                                   struct mtab **where)
{
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire)) {
        if (u == own)
            continue;
        uint64_t s = 0;
        uint32_t k = 0;
        hold_other(u);
        enum free_kind r = take_in(u, count, a, &s, &k);
        lock_give(&u->lock);
        if (r == FREE_TRACKED) {
            *size = s;
            *key = k;
            *where = u;
            return r;
        }
        if (r == FREE_DOUBLE && seen != FREE_DOUBLE) {
            seen = FREE_DOUBLE;
            *key = k;
        }
    }
    return seen;
}

/* Count a free judged R, not FREE_TRACKED: a double free of a block of
 * KEY, or a foreign one. */
COLD void count_untracked_free(enum free_kind r, uint32_t key)
{
    if (r == FREE_DOUBLE)
        count_atomic(&key_at(key)->double_frees);
    else
        count_atomic(&foreign_frees);
}

/* Find A's live record, this thread's table first, and mark it freed
 * (counted as take_in's COUNT says); *WHERE the table it was in. */
HOT enum free_kind take_any(int count, uintptr_t a, uint64_t *size, uint32_t *key,
                            struct mtab **where)
{
    struct mtab *t;
    int how = enter(&t);
    enum free_kind r = take_in(t, count, a, size, key);
    leave(t, how);
    *where = t;
    if (LIKELY(r == FREE_TRACKED))
        return r;
    return take_elsewhere(t, count, a, r, size, key, where);
}
/* ---------------------------------------------------------------------
 * Keys.
 * --------------------------------------------------------------------- */

/* The keys' names in one array, for the name index (which wants one
 * stride): under reg_lock. */
static const char *names0[1] = {default_name};
static const char **names = names0;
static uint32_t capnames = 1;

/* Room for key I (its chunk mapped), and for its name in NAMES. */
static int key_room(uint32_t i)
{
    if (i == capnames) {
        uint32_t ncap = capnames < 8 ? 8 : capnames * 2;
        const char **nn;
        if (names == names0) {
            nn = malloc(ncap * sizeof *nn);
            if (nn)
                nn[0] = names0[0];
        } else {
            nn = realloc(names, ncap * sizeof *nn);
        }
        if (!nn)
            return -1;
        names = nn;
        capnames = ncap;
    }
    if (i < KEYS0)
        return 0;
    uint32_t off;
    unsigned c = key_chunk(i, &off);
    if (!chunks[c]) {
        chunks[c] = pages_get(chunk_len(c) * sizeof(struct mkey));
        if (!chunks[c])
            return -1;
    }
    return 0;
}

static int add_clean_memkey(const char *name);

int MemAddKey(const char *given)
{
    /* Cleaned as QQAddState's names are (qq_file.h, QQ_NAME_MAX). */
    const char *name = given ? given : "";
    char *clean = NULL;
    if (qq_name_check(name, strlen(name)) != 0) {
        if (!(clean = qq__name_clean(name)))
            return 0; /* out of memory: counts against the default key */
        name = clean;
    }
    int k = add_clean_memkey(name);
    free(clean);
    return k;
}

static int add_clean_memkey(const char *name)
{
    lock_take(&reg_lock);
    atomic_store_explicit(&used, 1, memory_order_relaxed);
    /* The first key of that name, through the name index. */
    static struct qq__name_index by_name;
    uint32_t n = atomic_load_explicit(&nkeys, memory_order_relaxed);
    struct qq__name_table t = {names, sizeof *names, 0, QQ__NO_TYPE, n};
    int found = (int)qq__name_index_find(&by_name, &t, name, 0);
    if (found < 0 && n <= KEY_MAX && key_room(n) == 0) {
        size_t len = strlen(name);
        char *copy = malloc(len + 1);
        if (copy) {
            memcpy(copy, name, len + 1);
            key_at(n)->name = copy;
            names[n] = copy;
            /* Published: a thread that sees the count sees the key. */
            atomic_store_explicit(&nkeys, n + 1, memory_order_release);
            if (n + 1 <= KEYS0)
                atomic_store_explicit(&nkeys_near, n + 1, memory_order_release);
            found = (int)n;
        }
    }
    if (found < 0)
        found = 0; /* out of memory or of keys: count against the default key */
    lock_give(&reg_lock);
    return found;
}

/* ---------------------------------------------------------------------
 * The allocation functions the macros call.
 * --------------------------------------------------------------------- */

/* Libc's malloc, then record_alloc() for a key and size not near. */
COLD void *malloc_far(int key, size_t size)
{
    void *p = malloc(size);
    return p ? record_alloc_far(key, p, size) : NULL;
}

/* The key and size are judged before libc's malloc, so that one register
 * (their meta) is all the call keeps across it. */
void *MemMalloc(int key, size_t size)
{
    if (!LIKELY(alloc_near(key, size)))
        return malloc_far(key, size);
    uint64_t meta = meta_of(key, size);
    /* A NULL takes record_near's other paths (no slot holds address 0 as
     * a freed block), which return it: no test here. */
    return record_near(malloc(size), meta);
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

/* In T (held): take the live record E (A's slot, or NULL), its bytes and
 * the free counted on T's account; FREE_TRACKED, or what T knows of A
 * otherwise with, for a freed record, its key above bit 2 (no memory
 * written by the caller: the common path keeps everything in registers). */
HOT uint64_t free_at(struct mtab *t, struct slot *e)
{
    if (!e)
        return FREE_FOREIGN;
    uint32_t ki = slot_key(e);
    if (slot_freed(e))
        return (uint64_t)ki << 2 | FREE_DOUBLE;
    count_tracked_free(t, ki, slot_size(e));
    slot_free(t, e, ki);
    return FREE_TRACKED;
}

/* A free that this thread's table OWN did not take (it answered R): the
 * other tables, then libc, or a double free counted and not passed on. */
COLD void free_elsewhere(void *ptr, const struct mtab *own, uint64_t r)
{
    uint64_t s = 0;
    uint32_t k = (uint32_t)(r >> 2);
    struct mtab *where;
    enum free_kind kind =
        take_elsewhere(own, 1, (uintptr_t)ptr, (enum free_kind)(r & 3), &s, &k, &where);
    if (kind != FREE_TRACKED)
        count_untracked_free(kind, k);
    if (kind != FREE_DOUBLE)
        free(ptr);
}

/* A free the bias's path leaves out, in T held as HOW says (enter()):
 * E is PTR's slot there, or NULL. */
COLD void free_rest(struct mtab *t, int how, struct slot *e, void *ptr)
{
    uint64_t r = free_at(t, e);
    leave(t, how);
    if (r == FREE_TRACKED)
        free(ptr);
    else
        free_elsewhere(ptr, t, r);
}

COLD void free_locked(void *ptr)
{
    struct mtab *t = enter_locked();
    free_rest(t, 1, slot_find(t, (uintptr_t)ptr), ptr);
}

/* enter(), free_at() and leave() with the bias's common case laid out
 * straight, then libc's free as a tail call. KEY predicts the record's
 * key (the one charged): the account's address comes from it, so that
 * its stores need not wait for the record's load (docs/PERFORMANCE.md). */
void MemFree(int key, void *ptr)
{
    if (!ptr)
        return;
    uint64_t ki = (uint32_t)key;
    struct mtab *t = t_tab;
    atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* membarrier() is the other half */
    struct slot *s = atomic_load_explicit(&t->biased, memory_order_relaxed);
    if (LIKELY(s != NULL)) {
        struct slot *e = slot_find_in(t, s, (uintptr_t)ptr);
        /* A live record of a key of the first KEYS0 (one test), and KEY's. */
        uint64_t m;
        if (!e || ((m = e->meta) & (META_FREED | (KEY_MAX & ~(KEYS0 - 1)))) != 0 ||
            (uint8_t)m != ki) {
            free_rest(t, 0, e, ptr);
            return;
        }
        OPAQUE(ki);
        struct tcount *c = &t->cnt0[ki];
        c->held -= (int64_t)(m >> META_SHIFT);
        c->frees++;
        slot_free(t, e, ki);
        atomic_store_explicit(&t->busy, 0, memory_order_release);
        free(ptr);
        return;
    }
    atomic_store_explicit(&t->busy, 0, memory_order_release);
    free_locked(ptr);
}

/* Hold U for a call: this thread's own table as enter() does, another
 * under its lock (its bias withdrawn). Returns what leave() takes. */
static int hold(struct mtab *u)
{
    if (u == t_tab) {
        struct mtab *t;
        return enter(&t); /* t is u */
    }
    hold_other(u);
    return 1;
}

/* A failed realloc of a tracked block: its record comes back, in the
 * table it was in. */
static void realloc_restore(struct mtab *where, uintptr_t a, uint64_t old_size, uint32_t old_key)
{
    int how = hold(where);
    struct slot *e = slot_find(where, a);
    if (!e) /* dropped by a sweep meanwhile */
        e = slot_new(where, a);
    if (e) {
        e->meta = (old_size << META_SHIFT) | old_key;
    } else {
        struct tcount *c = tc_of(where, old_key);
        if (c)
            c->held -= (int64_t)old_size;
        else
            spare_held(key_at(old_key), -(int64_t)old_size);
        count_atomic(&untracked);
    }
    leave(where, how);
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
    uint64_t old_size = 0;
    uint32_t old_key = 0;
    struct mtab *where;
    /* A live record is marked freed for the duration: if the block moves,
     * another thread may get the address before we record again. */
    enum free_kind r = take_any(0, a, &old_size, &old_key, &where);
    if (r == FREE_DOUBLE) {
        /* realloc of a freed block: passing it on would corrupt the heap. */
        count_untracked_free(r, old_key);
        errno = EINVAL;
        return NULL;
    }

    void *q = realloc(ptr, size);

    if (!q) {
        /* The old block is still there, unchanged. */
        if (r == FREE_TRACKED)
            realloc_restore(where, a, old_size, old_key);
        return NULL;
    }
    if (r == FREE_TRACKED) {
        int how = hold(where);
        count_tracked_free(where, old_key, old_size);
        leave(where, how);
    } else {
        count_untracked_free(r, old_key);
    }
    record_alloc(key, q, size);
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
 * Objects: counted per key in the calling thread's table, not entered in
 * the address table (an object often lives inside a tracked block, at the
 * same address).
 * --------------------------------------------------------------------- */

void MemAddObject(int key, const void *obj, size_t size)
{
    (void)obj;
    uint32_t ki = key_index(key);
    struct mkey *k = key_at(ki);
    /* Read first: a store on every call would move the key's line between
     * the cores of threads that share the key. */
    if (size != 0 && atomic_load_explicit(&k->obj_size, memory_order_relaxed) != size)
        atomic_store_explicit(&k->obj_size, size, memory_order_relaxed);
    struct mtab *t;
    int how = enter(&t);
    struct tcount *c = tc_of(t, ki);
    if (c) {
        c->created++;
        c->obj += (int64_t)size;
        tc_add(c, size);
    } else {
        count_atomic(&k->created);
        spare_obj(k, (int64_t)size);
    }
    leave(t, how);
}

void MemFreeObject(int key, const void *obj, size_t size)
{
    (void)obj;
    uint32_t ki = key_index(key);
    struct mtab *t;
    int how = enter(&t);
    struct tcount *c = tc_of(t, ki);
    if (c) {
        c->deleted++;
        c->obj -= (int64_t)size;
        if (c->obj < c->obj_low)
            c->obj_low = c->obj;
        c->held -= (int64_t)size;
    } else {
        struct mkey *k = key_at(ki);
        count_atomic(&k->deleted);
        spare_obj(k, -(int64_t)size);
    }
    leave(t, how);
}

/* Under the registry lock, every table held. */
void MemReset(void)
{
    lock_take(&reg_lock);
    hold_all();
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire))
        tab_clear(u);
    uint32_t n = atomic_load_explicit(&nkeys, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        struct mkey *k = key_at(i);
        atomic_store_explicit(&k->held, 0, memory_order_relaxed);
        atomic_store_explicit(&k->peak, 0, memory_order_relaxed);
        atomic_store_explicit(&k->obj, 0, memory_order_relaxed);
        atomic_store_explicit(&k->obj_low, 0, memory_order_relaxed);
        atomic_store_explicit(&k->allocs, 0, memory_order_relaxed);
        atomic_store_explicit(&k->frees, 0, memory_order_relaxed);
        atomic_store_explicit(&k->created, 0, memory_order_relaxed);
        atomic_store_explicit(&k->deleted, 0, memory_order_relaxed);
        atomic_store_explicit(&k->obj_size, 0, memory_order_relaxed);
        atomic_store_explicit(&k->double_frees, 0, memory_order_relaxed);
        k->cut = 0;
    }
    atomic_store_explicit(&used, 0, memory_order_relaxed);
    atomic_store_explicit(&foreign_frees, 0, memory_order_relaxed);
    atomic_store_explicit(&untracked, 0, memory_order_relaxed);
    release_all();
    lock_give(&reg_lock);
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
 * Snapshot (for the file and MemPrint, qq_mem_print.c).
 *
 * The snapshot holds every table (their biases withdrawn, one
 * membarrier() for all), so that the sums it takes are a cut: the live
 * bytes and calls of each key exactly as they were at one instant. The
 * peak of a key is bounded from its accounts (one per table, and the
 * spare one): with P_i the peak of account i and L_i the least its object
 * bytes ever were (0 if never below), the true peak lies between
 *     lower = max(highest cut, max_i (P_i + sum_{j != i} L_j))
 *     upper = sum_i P_i
 * (docs/MEMORY.md, "The peak with several threads", has the proof). With
 * one account on the key, both are its peak.
 * --------------------------------------------------------------------- */

/* One key's accounts, summed. */
struct ksum {
    int64_t held, obj, peak_sum, low_sum;
    int64_t best; /* the most P_i - L_i of an account */
    uint64_t allocs, frees, created, deleted;
};

static void ksum_add(struct ksum *s, int64_t held, int64_t peak, int64_t obj, int64_t obj_low,
                     const uint64_t calls[4])
{
    int64_t low = obj_low < 0 ? obj_low : 0;
    s->held += held;
    s->obj += obj;
    s->peak_sum += peak;
    s->low_sum += low;
    if (peak - low > s->best)
        s->best = peak - low;
    s->allocs += calls[0];
    s->frees += calls[1];
    s->created += calls[2];
    s->deleted += calls[3];
}

/* Every table held: the accounts of keys 0 .. N-1 into SUM. */
static void sum_accounts(struct ksum *sum, uint32_t n)
{
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire)) {
        for (unsigned c = 0; c < KEY_CHUNKS; c++) {
            uint32_t first = c == 0 ? 0 : UINT32_C(1) << (c + KEYS0_BITS - 1);
            for (uint32_t j = 0; u->cnt[c] && j < chunk_len(c) && first + j < n; j++) {
                const struct tcount *x = &u->cnt[c][j];
                const uint64_t calls[4] = {x->allocs, x->frees, x->created, x->deleted};
                ksum_add(&sum[first + j], x->held, x->peak, x->obj, x->obj_low, calls);
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        struct mkey *k = key_at(i);
        const uint64_t calls[4] = {atomic_load_explicit(&k->allocs, memory_order_relaxed),
                                   atomic_load_explicit(&k->frees, memory_order_relaxed),
                                   atomic_load_explicit(&k->created, memory_order_relaxed),
                                   atomic_load_explicit(&k->deleted, memory_order_relaxed)};
        ksum_add(&sum[i], atomic_load_explicit(&k->held, memory_order_relaxed),
                 atomic_load_explicit(&k->peak, memory_order_relaxed),
                 atomic_load_explicit(&k->obj, memory_order_relaxed),
                 atomic_load_explicit(&k->obj_low, memory_order_relaxed), calls);
    }
}

/* Key I's row from its sum S (under reg_lock: the key's highest cut). */
static void row_fill(struct qq_mem_row *r, struct mkey *k, const struct ksum *s)
{
    if (s->held > k->cut)
        k->cut = s->held;
    int64_t lower = s->low_sum + s->best, upper = s->peak_sum;
    if (k->cut > lower)
        lower = k->cut;
    if (lower > upper) /* never, by the proof: kept so that a file is never refused */
        lower = upper;
    int64_t alloc = s->held - s->obj;
    r->obj_size = atomic_load_explicit(&k->obj_size, memory_order_relaxed);
    r->created = s->created;
    r->deleted = s->deleted;
    r->obj_bytes = s->obj > 0 ? (uint64_t)s->obj : 0;
    r->alloc_bytes = alloc > 0 ? (uint64_t)alloc : 0;
    r->peak_bytes = upper > 0 ? (uint64_t)upper : 0;
    r->peak_low = lower > 0 ? (uint64_t)lower : 0;
    r->allocs = s->allocs;
    r->frees = s->frees;
    r->double_frees = atomic_load_explicit(&k->double_frees, memory_order_relaxed);
}

/* Under reg_lock, every table held: the rows of keys 0 .. N-1 (names
 * copied) into ROWS; 0 if memory tracking was not used since start or
 * MemReset, QQ_ENOMEM, or 1. */
static int rows_fill(struct qq_mem_row *rows, uint32_t n)
{
    struct ksum *sum = calloc(n, sizeof *sum);
    if (!sum)
        return QQ_ENOMEM;
    sum_accounts(sum, n);
    int any = atomic_load_explicit(&used, memory_order_relaxed) ||
              atomic_load_explicit(&foreign_frees, memory_order_relaxed) ||
              atomic_load_explicit(&untracked, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        struct mkey *k = key_at(i);
        row_fill(&rows[i], k, &sum[i]);
        any |= rows[i].allocs || rows[i].frees || rows[i].created || rows[i].deleted ||
               rows[i].double_frees;
    }
    free(sum);
    if (!any)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = key_at(i)->name;
        size_t len = strlen(name);
        char *copy = malloc(len + 1);
        if (!copy)
            return QQ_ENOMEM;
        memcpy(copy, name, len + 1);
        rows[i].name = copy;
    }
    return 1;
}

int qq__mem_snapshot(struct qq__mem_snapshot *s)
{
    memset(s, 0, sizeof *s);
    long pb = qq_mem_process_bytes();
    lock_take(&reg_lock);
    hold_all();
    uint32_t n = atomic_load_explicit(&nkeys, memory_order_acquire);
    struct qq_mem_row *rows = calloc(n, sizeof *rows);
    int rc = rows ? rows_fill(rows, n) : QQ_ENOMEM;
    uint64_t foreign = atomic_load_explicit(&foreign_frees, memory_order_relaxed);
    release_all();
    lock_give(&reg_lock);
    s->nrows = n;
    s->rows = rows;
    if (rc != 1) {
        qq__mem_snapshot_free(s);
        return rc;
    }
    s->foreign_frees = foreign;
    s->process_bytes = pb > 0 ? (uint64_t)pb : 0;
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
