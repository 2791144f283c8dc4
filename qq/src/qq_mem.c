/* qq_mem.c - memory keys: per-thread address tables of live blocks, per-key atomic counters,
 * MemPrint, the MEMT snapshot. */

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

/* What a malloc+free pair runs through, inlined into MemMalloc and MemFree:
 * a call and its register saves are a tenth of the pair's cost. */
#if defined(__GNUC__)
#define HOT       static inline __attribute__((always_inline))
#define COLD      static __attribute__((noinline))
/* The branch a call takes in the common case, laid out straight. */
#define LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define HOT       static inline
#define COLD      static
#define LIKELY(c) (c)
#endif

#if defined(MAP_ANONYMOUS)
#define QQ__MAP_ANON MAP_ANONYMOUS
#elif defined(MAP_ANON)
#define QQ__MAP_ANON MAP_ANON
#endif

/* ---------------------------------------------------------------------
 * Who records how.
 *
 * Each thread records its blocks in its own address table (below), under
 * the table's own lock: a lock no other thread takes unless it frees a
 * block this thread allocated, so taking it moves no cache line between
 * cores. Counters are per key, atomic, outside any lock. One exception
 * makes the common case cheaper still: the first thread that records holds
 * a "bias" and records in the first table without its lock and updates the
 * counters with plain loads and stores (no read-modify-write), as long as
 * no other thread has recorded. Most QQ programs are single-threaded (MPI
 * ranks are processes).
 *
 * The owner announces each call in owner_busy (a plain store, no fence)
 * and then checks biased. Another thread takes the registry lock, clears
 * biased, and runs membarrier(), which puts a full memory barrier into
 * every running thread of the process: after it, either the owner sees
 * biased clear, or the revoker sees owner_busy set and waits for the call
 * to end. From then on every thread, the old owner too, takes its table's
 * lock and updates counters with atomic read-modify-writes. This is the
 * asymmetric Dekker handshake of userspace RCU; where the kernel has no
 * private expedited membarrier (not Linux, Linux before 4.14, valgrind) no
 * thread is ever biased.
 * --------------------------------------------------------------------- */

static _Thread_local int t_owner; /* this thread holds the bias */
/* Written by the owner on every call while it holds the bias, read by the
 * revoker once: a line of their own. */
static _Alignas(64) atomic_int owner_busy; /* the owner is inside a call */
static atomic_int biased;                  /* the owner may record without locks */

/* The registry lock: taken to add or adopt a table, for keys (MemAddKey),
 * MemReset and the snapshot; never on the common path. */
static _Alignas(64) atomic_int reg_lock;
static int bias_tried; /* under reg_lock: the bias was handed out once */

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
 * Per-key counters: atomics at addresses that never move (keys live in
 * chunks that are never reallocated), so that no lock guards them.
 * held is alloc_bytes + obj_bytes: one fetch_add per allocation, free or
 * object, and the values it returns are all in the one modification order
 * of that counter, so the peak (a compare-and-swap maximum of them) is
 * exact however many threads update the key.
 * --------------------------------------------------------------------- */

struct mkey {
    /* What every allocation and free writes, in one cache line. */
    _Alignas(64) _Atomic int64_t held; /* alloc_bytes + obj_bytes; a line (two) per key */
    _Atomic uint64_t peak_bytes;
    _Atomic uint64_t allocs;
    _Atomic uint64_t frees;
    _Atomic int64_t obj_bytes; /* may go below 0 with unmatched MEMFREEOBJECTs */
    _Atomic uint64_t created;
    _Atomic uint64_t deleted;
    _Atomic uint64_t obj_size; /* the last non-zero MEMADDOBJECT size */
    _Atomic uint64_t double_frees;
    char *name; /* malloc'd, except key 0's */
};

/* A slot holds a key in KEY_BITS bits and a size in the rest (below). */
#define KEY_BITS 24
#define KEY_MAX  ((UINT32_C(1) << KEY_BITS) - 1)
#define META_MAX (UINT64_MAX >> KEY_BITS)

/* The first KEYS0 keys are static (key 0 counts before any MemAddKey);
 * key I >= KEYS0 lives in chunk c = floor(log2(I)) - KEYS0_BITS + 1, which
 * holds the 2^floor(log2(I)) keys from 2^floor(log2(I)), from mmap as keys
 * are added. */
#define KEYS0_BITS 6
#define KEYS0      (1u << KEYS0_BITS)
#define KEY_CHUNKS (KEY_BITS - KEYS0_BITS + 1)

static char default_name[] = "default";
static struct mkey keys0[KEYS0] = {{.name = default_name}};
static struct mkey *chunks[KEY_CHUNKS] = {keys0};
static _Alignas(64) atomic_uint nkeys = 1; /* keys 0 .. nkeys-1 exist */
static atomic_int used; /* a memory call since start/MemReset (but see mem_used()) */
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

/* How a counter is updated: HOW 0 (the bias: only this thread writes) a
 * plain load and store, 1 an atomic read-modify-write. */
HOT void count1(_Atomic uint64_t *c, int how)
{
    if (how)
        atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
    else
        atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                              memory_order_relaxed);
}

HOT int64_t add64(_Atomic int64_t *c, int64_t d, int how)
{
    if (how)
        return atomic_fetch_add_explicit(c, d, memory_order_relaxed) + d;
    int64_t v = atomic_load_explicit(c, memory_order_relaxed) + d;
    atomic_store_explicit(c, v, memory_order_relaxed);
    return v;
}

/* Add D to the bytes K holds; a new high is the peak. (Bytes that leave
 * a key: add64 of the negative.) */
HOT void held_add(struct mkey *k, uint64_t d, int how)
{
    int64_t v = add64(&k->held, (int64_t)d, how);
    /* One signed compare: the peak is never negative (nor above
     * INT64_MAX), bytes held may be (unmatched MEMFREEOBJECTs). */
    uint64_t p = atomic_load_explicit(&k->peak_bytes, memory_order_relaxed);
    if (v <= (int64_t)p)
        return;
    if (!how) {
        atomic_store_explicit(&k->peak_bytes, (uint64_t)v, memory_order_relaxed);
        return;
    }
    while ((uint64_t)v > p &&
           !atomic_compare_exchange_weak_explicit(&k->peak_bytes, &p, (uint64_t)v,
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
}

HOT void mark_used(int how)
{
    /* Read first when threads share it: a store on every call would move
     * its line between the cores. */
    if (!how || !atomic_load_explicit(&used, memory_order_relaxed))
        atomic_store_explicit(&used, 1, memory_order_relaxed);
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
 * One table per recording thread, each under its own lock.
 *
 * Open addressing with linear probing, 16-byte slots (four to a cache
 * line), Fibonacci hashing. A freed block's slot stays, marked freed (bit 0
 * of the address: blocks are at least 2-aligned), until the allocator hands
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
    uintptr_t addr; /* 0: empty; bit 0 set: freed */
    uint64_t meta;  /* key in the low KEY_BITS; above: live, the size; freed, the free's number */
};

#define TAB_MIN_BITS 10
#define FREED_MIN    4096u

/* Calls counted in a table, per key: written under the table's lock only
 * (relaxed atomics, for the snapshot that reads them without it). */
struct tcount {
    _Atomic uint64_t allocs;
    _Atomic uint64_t frees;
};

struct mtab {
    _Alignas(64) atomic_int lock; /* 1: held; lines of its own */
    int orphan;                   /* under reg_lock: no thread records here */
    struct slot *slots;
    unsigned bits;
    unsigned shift; /* 64 - bits */
    size_t mask;    /* (1 << bits) - 1 */
    size_t used;    /* occupied slots, live and freed */
    uint64_t free_seq;
    _Atomic(struct mtab *) next;    /* the registry: a list, only appended to */
    struct tcount *cnt[KEY_CHUNKS]; /* laid out as the keys' chunks; from mmap when first used */
    unsigned cnt_none;              /* bit c: chunk c could not be mapped; not tried again */
};

/* Before a table's first block: two empty slots that are never written,
 * so that a lookup needs no test for a missing table. */
static struct slot tab0[2];

/* The first table: the bias owner's (or the first thread's), and the head
 * of the registry. An orphan until a thread records. */
static struct mtab tab_main = {.orphan = 1, .slots = tab0, .bits = 1, .shift = 63, .mask = 1};
static struct mtab *reg_tail = &tab_main; /* under reg_lock */
static int ntables = 1;                   /* under reg_lock */

static _Thread_local struct mtab *t_tab; /* this thread's table, once it has recorded */

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

/* The slot of A (live or freed) in T, or NULL (always for an odd A: no
 * slot holds one). Inline: it is most of what a call costs. */
HOT struct slot *slot_find(struct mtab *t, uintptr_t a)
{
    struct slot *s = t->slots;
    for (size_t i = hash_addr(a, t->shift);; i = (i + 1) & t->mask) {
        uintptr_t x = s[i].addr;
        if ((x & ~(uintptr_t)1) == a)
            return &s[i];
        if (x == 0)
            return NULL;
    }
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
        size_t home = hash_addr(s[j].addr & ~(uintptr_t)1, t->shift);
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
    return slot_freed(e) && ((t->free_seq - slot_size(e)) & META_MAX) >= window;
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
            *slot_empty(ns, nbits, s[i].addr & ~(uintptr_t)1) = s[i];
    if (s != tab0)
        pages_put(s, cap * sizeof *s);
    t->slots = ns;
    t->bits = nbits;
    t->shift = 64 - nbits;
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
HOT void slot_free(struct mtab *t, struct slot *e, uint32_t ki)
{
    e->addr |= 1u;
    e->meta = ((++t->free_seq & META_MAX) << KEY_BITS) | ki;
}

/* Forget every block of T. */
static void tab_clear(struct mtab *t)
{
    for (unsigned c = 0; c < KEY_CHUNKS; c++) {
        pages_put(t->cnt[c], chunk_len(c) * sizeof *t->cnt[c]);
        t->cnt[c] = NULL;
    }
    t->cnt_none = 0;
    if (t->slots != tab0)
        pages_put(t->slots, ((size_t)1 << t->bits) * sizeof *t->slots);
    t->slots = tab0;
    t->bits = 1;
    t->shift = 63;
    t->mask = 1;
    t->used = 0;
    t->free_seq = 0;
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
        t_tab = NULL; /* a later call of this thread (another destructor) registers again */
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
        t->mask = 1;
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
    return t;
}

/* Under reg_lock, in a thread that does not hold the bias: take it from
 * its owner, and wait for the owner's call in flight to end. From then on
 * the owner records under its table's lock too. */
static void bias_revoke(void)
{
    if (!atomic_load_explicit(&biased, memory_order_relaxed))
        return;
    atomic_store_explicit(&biased, 0, memory_order_relaxed);
    membarrier_all();
    while (atomic_load_explicit(&owner_busy, memory_order_acquire))
        sched_yield();
}

/* ---------------------------------------------------------------------
 * fork(). The child has one thread, the one that forked; a lock another
 * thread held at the fork, or a call the bias owner was in the middle of,
 * would never end there. So before the fork the forking thread takes the
 * registry lock, the bias (unless it is the owner: then no other thread
 * records) and every table's lock, in the order the rest of this file
 * takes them (registry, then tables one at a time in list order); after
 * it, parent and child let them go. A program that forks from a thread
 * other than the bias owner loses the bias for good: its first thread
 * then takes its table's lock (uncontended) like the others.
 * --------------------------------------------------------------------- */

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
    lock_take(&reg_lock);
    if (!t_owner)
        bias_revoke();
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire))
        lock_take(&u->lock);
}

static void fork_done(void)
{
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire))
        lock_give(&u->lock);
    lock_give(&reg_lock);
}

static void fork_hooks(void)
{
    /* Without them (out of memory) a fork while another thread records
     * may leave the child waiting for a lock, as it did before them. */
    (void)pthread_atfork(fork_prepare, fork_done, fork_done);
}

/* The first call of a thread: its table, and the bias for the first thread
 * that records, or the bias taken from its owner. Returns what the call
 * does: 0 record as the bias owner, 1 under the table's lock. */
static int enter_slow(void)
{
    int how = 1;
    pthread_once(&fork_once, fork_hooks);
    lock_take(&reg_lock);
    if (!bias_tried) {
        bias_tried = 1;
        if (membarrier_ready()) {
            t_owner = 1;
            atomic_store_explicit(&owner_busy, 1, memory_order_relaxed);
            atomic_store_explicit(&biased, 1, memory_order_relaxed);
            how = 0;
        }
    } else {
        bias_revoke();
    }
    struct mtab *t = tab_adopt();
    /* Without memory for a table of its own, a thread shares the first
     * one: correct under its lock, only slower. */
    t_tab = t ? t : &tab_main;
    lock_give(&reg_lock);
    return how;
}

/* 1: this thread holds the bias, and is inside a call until leave(0). */
HOT int bias_held(void)
{
    if (!t_owner)
        return 0;
    atomic_store_explicit(&owner_busy, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* membarrier() is the other half */
    if (atomic_load_explicit(&biased, memory_order_relaxed))
        return 1;
    atomic_store_explicit(&owner_busy, 0, memory_order_release);
    t_owner = 0; /* revoked: the table's lock from now on */
    return 0;
}

/* 0: this thread holds the bias (records in tab_main, no locks); 1: it
 * records in t_tab under its lock. */
HOT int enter(void)
{
    if (bias_held())
        return 0;
    if (t_tab)
        return 1;
    return enter_slow();
}

/* The end of a call that enter() returned HOW for. */
HOT void leave(int how)
{
    if (how == 0)
        atomic_store_explicit(&owner_busy, 0, memory_order_release);
}

/* The table a call records in. */
HOT struct mtab *own_table(int how)
{
    return how ? t_tab : &tab_main;
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

/* Count an allocation (FREES 0) or a free (1) of key KI recorded in T: the
 * bias owner in the key's counters (plain stores), the others in T's
 * counters, under T's lock: no line that another thread writes (summed
 * when read). Without memory for them, the key's counters, atomically. */
HOT void count_call(struct mtab *t, int how, struct mkey *k, uint32_t ki, int frees)
{
    if (how) {
        uint32_t off;
        unsigned c = key_chunk(ki, &off);
        struct tcount *ch = t->cnt[c];
        if (!ch)
            ch = tcount_chunk(t, c);
        if (ch) {
            _Atomic uint64_t *x = frees ? &ch[off].frees : &ch[off].allocs;
            atomic_store_explicit(x, atomic_load_explicit(x, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
            return;
        }
    }
    count1(frees ? &k->frees : &k->allocs, how);
}

/* A free of SIZE bytes of key KI, recorded in T (locked, or the bias's):
 * the bytes leave the key, the free is counted in T. */
HOT void count_tracked_free(struct mtab *t, int how, uint32_t ki, uint64_t size)
{
    struct mkey *k = key_at(ki);
    add64(&k->held, -(int64_t)size, how);
    count_call(t, how, k, ki, 1);
}

/* A block that cannot be recorded (an odd address; 2^40 bytes or more):
 * returned untracked, and no record of the address is left to misjudge
 * its free. */
COLD void record_untracked(struct mtab *t, int how, uintptr_t a)
{
    struct slot *e = slot_find(t, a);
    if (e && !slot_freed(e))
        count_tracked_free(t, how, slot_key(e), slot_size(e)); /* freed behind our back */
    if (e)
        slot_delete(t, (size_t)(e - t->slots));
    count1(&untracked, how);
}

/* Record P in T (locked, or the bias's). */
HOT void record_alloc_in(struct mtab *t, int how, int key, void *p, size_t size)
{
    uintptr_t a = (uintptr_t)p;
    uint32_t ki = key_index(key);
    if ((a & 1u) || (uint64_t)size > META_MAX) {
        record_untracked(t, how, a);
        return;
    }
    struct slot *e = slot_find(t, a);
    if (e && !slot_freed(e)) {
        /* Still live: it was freed behind our back (free through a function
         * pointer, or by a library) and the allocator reused the address.
         * It leaves its key as a free. */
        count_tracked_free(t, how, slot_key(e), slot_size(e));
    }
    if (!e) {
        e = slot_new(t, a);
        if (!e) {
            count1(&untracked, how);
            return;
        }
    }
    e->addr = a;
    e->meta = ((uint64_t)size << KEY_BITS) | ki;
    struct mkey *k = key_at(ki);
    count_call(t, how, k, ki, 0);
    held_add(k, size, how);
}

/* No mark_used(): every call counts something (mem_used()). */
HOT void record_alloc_biased(int key, void *p, size_t size)
{
    record_alloc_in(&tab_main, 0, key, p, size);
    leave(0);
}

/* Out of line: the biased path keeps its few registers. */
COLD void record_alloc_locked(int key, void *p, size_t size)
{
    if (!t_tab && enter_slow() == 0) {
        record_alloc_biased(key, p, size);
        return;
    }
    struct mtab *t = t_tab;
    mark_used(1);
    lock_take(&t->lock);
    record_alloc_in(t, 1, key, p, size);
    lock_give(&t->lock);
}

HOT void record_alloc(int key, void *p, size_t size)
{
    if (bias_held())
        record_alloc_biased(key, p, size);
    else
        record_alloc_locked(key, p, size);
}

/* What a free of an address is. */
enum free_kind { FREE_TRACKED, FREE_FOREIGN, FREE_DOUBLE };

/* In T (locked, or the bias's): mark A's live record freed and give its
 * size and key (FREE_TRACKED), with COUNT also taking its bytes off the key
 * and counting the free in T; or give a freed record's key (FREE_DOUBLE);
 * or nothing. */
HOT enum free_kind take_in(struct mtab *t, int how, int count, uintptr_t a, uint64_t *size,
                           uint32_t *key)
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
        count_tracked_free(t, how, ki, *size);
    slot_free(t, e, ki);
    return FREE_TRACKED;
}

/* take_in over the tables other than OWN, one lock at a time, after OWN
 * answered SEEN: the first live record wins; a freed one is remembered. */
static enum free_kind take_elsewhere(const struct mtab *own, int count, uintptr_t a,
                                     enum free_kind seen, uint64_t *size, uint32_t *key,
                                     struct mtab **where)
{
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire)) {
        if (u == own)
            continue;
        uint64_t s = 0;
        uint32_t k = 0;
        lock_take(&u->lock);
        enum free_kind r = take_in(u, 1, count, a, &s, &k);
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

/* Find A's live record, this thread's table first, and mark it freed
 * (counted as take_in's COUNT says). While the bias is held there is no
 * other table with records. */
HOT enum free_kind take_any(int how, int count, uintptr_t a, uint64_t *size, uint32_t *key,
                            struct mtab **where)
{
    struct mtab *t = own_table(how);
    *where = t;
    if (!how)
        return take_in(t, 0, count, a, size, key);
    lock_take(&t->lock);
    enum free_kind r = take_in(t, 1, count, a, size, key);
    lock_give(&t->lock);
    if (r == FREE_TRACKED)
        return r;
    return take_elsewhere(t, count, a, r, size, key, where);
}

/* Count a free that take_any judged R, not FREE_TRACKED: a double free
 * of a block of KEY, or a foreign one. */
HOT void count_untracked_free(enum free_kind r, uint32_t key, int how)
{
    if (r == FREE_DOUBLE)
        count1(&key_at(key)->double_frees, how);
    else
        count1(&foreign_frees, how);
}

HOT enum free_kind free_biased(uintptr_t a)
{
    uint64_t s = 0;
    uint32_t k = 0;
    /* No mark_used(): every call counts something (mem_used()). */
    enum free_kind r = take_in(&tab_main, 0, 1, a, &s, &k);
    if (r != FREE_TRACKED)
        count_untracked_free(r, k, 0);
    leave(0);
    return r;
}

/* Out of line: the biased path keeps its few registers. */
COLD enum free_kind free_locked(uintptr_t a)
{
    if (!t_tab && enter_slow() == 0)
        return free_biased(a);
    uint64_t s = 0;
    uint32_t k = 0;
    struct mtab *where;
    mark_used(1);
    enum free_kind r = take_any(1, 1, a, &s, &k, &where);
    if (r != FREE_TRACKED)
        count_untracked_free(r, k, 1);
    return r;
}

/* ---------------------------------------------------------------------
 * Keys.
 * --------------------------------------------------------------------- */

/* The keys' names in one array, for the name index (which wants one
 * stride): under reg_lock or the bias. */
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
    int how = enter();
    if (how)
        lock_take(&reg_lock);
    mark_used(how);
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
            found = (int)n;
        }
    }
    if (found < 0)
        found = 0; /* out of memory or of keys: count against the default key */
    if (how)
        lock_give(&reg_lock);
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
    enum free_kind r = bias_held() ? free_biased((uintptr_t)ptr) : free_locked((uintptr_t)ptr);
    if (r != FREE_DOUBLE)
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
    uint64_t old_size = 0;
    uint32_t old_key = 0;
    struct mtab *where;
    int how = enter();
    mark_used(how);
    /* A live record is marked freed for the duration: if the block moves,
     * another thread may get the address before we record again. */
    enum free_kind r = take_any(how, 0, a, &old_size, &old_key, &where);
    if (r == FREE_DOUBLE) {
        /* realloc of a freed block: passing it on would corrupt the heap. */
        count1(&key_at(old_key)->double_frees, how);
        leave(how);
        errno = EINVAL;
        return NULL;
    }
    leave(how);

    void *q = realloc(ptr, size);

    how = enter();
    if (!q) {
        /* The old block is still there, unchanged: bring its record back,
         * in the table it was in. */
        if (r == FREE_TRACKED) {
            if (how)
                lock_take(&where->lock);
            struct slot *e = slot_find(where, a);
            if (!e) /* dropped by a sweep meanwhile */
                e = slot_new(where, a);
            if (e) {
                e->addr = a;
                e->meta = (old_size << KEY_BITS) | old_key;
            }
            if (how)
                lock_give(&where->lock);
            if (!e) {
                add64(&key_at(old_key)->held, -(int64_t)old_size, how);
                count1(&untracked, how);
            }
        }
    } else {
        struct mtab *t = own_table(how);
        if (how)
            lock_take(&t->lock);
        if (r == FREE_TRACKED)
            count_tracked_free(t, how, old_key, old_size);
        else
            count_untracked_free(r, old_key, how);
        record_alloc_in(t, how, key, q, size);
        if (how)
            lock_give(&t->lock);
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
 * often lives inside a tracked block, at the same address). No table, so
 * no lock: only the key's atomic counters.
 * --------------------------------------------------------------------- */

void MemAddObject(int key, const void *obj, size_t size)
{
    (void)obj;
    int how = enter();
    mark_used(how);
    struct mkey *k = key_at(key_index(key));
    count1(&k->created, how);
    add64(&k->obj_bytes, (int64_t)size, how);
    if (size != 0)
        atomic_store_explicit(&k->obj_size, size, memory_order_relaxed);
    held_add(k, size, how);
    leave(how);
}

void MemFreeObject(int key, const void *obj, size_t size)
{
    (void)obj;
    int how = enter();
    mark_used(how);
    struct mkey *k = key_at(key_index(key));
    count1(&k->deleted, how);
    add64(&k->obj_bytes, -(int64_t)size, how);
    add64(&k->held, -(int64_t)size, how);
    leave(how);
}

/* Under the registry lock, each table under its own in turn. */
void MemReset(void)
{
    int how = enter();
    if (how)
        lock_take(&reg_lock);
    for (struct mtab *u = &tab_main; u; u = atomic_load_explicit(&u->next, memory_order_acquire)) {
        if (how)
            lock_take(&u->lock);
        tab_clear(u);
        if (how)
            lock_give(&u->lock);
    }
    uint32_t n = atomic_load_explicit(&nkeys, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        struct mkey *k = key_at(i);
        atomic_store_explicit(&k->obj_size, 0, memory_order_relaxed);
        atomic_store_explicit(&k->created, 0, memory_order_relaxed);
        atomic_store_explicit(&k->deleted, 0, memory_order_relaxed);
        atomic_store_explicit(&k->obj_bytes, 0, memory_order_relaxed);
        atomic_store_explicit(&k->held, 0, memory_order_relaxed);
        atomic_store_explicit(&k->peak_bytes, 0, memory_order_relaxed);
        atomic_store_explicit(&k->allocs, 0, memory_order_relaxed);
        atomic_store_explicit(&k->frees, 0, memory_order_relaxed);
        atomic_store_explicit(&k->double_frees, 0, memory_order_relaxed);
    }
    atomic_store_explicit(&used, 0, memory_order_relaxed);
    atomic_store_explicit(&foreign_frees, 0, memory_order_relaxed);
    atomic_store_explicit(&untracked, 0, memory_order_relaxed);
    if (how)
        lock_give(&reg_lock);
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

/* Whether a memory call was made since start or MemReset, the keys being
 * 0 .. N-1: the flag, or a count the bias owner's malloc and free leave
 * (an allocation, a free, a double, foreign or untracked one), in place of
 * a store of the flag on each of those calls. */
static int mem_used(uint32_t n)
{
    if (atomic_load_explicit(&used, memory_order_relaxed) ||
        atomic_load_explicit(&foreign_frees, memory_order_relaxed) ||
        atomic_load_explicit(&untracked, memory_order_relaxed))
        return 1;
    for (uint32_t i = 0; i < n; i++) {
        struct mkey *k = key_at(i);
        if (atomic_load_explicit(&k->allocs, memory_order_relaxed) ||
            atomic_load_explicit(&k->frees, memory_order_relaxed) ||
            atomic_load_explicit(&k->double_frees, memory_order_relaxed))
            return 1;
    }
    return 0;
}

/* The counters are read while other threads may go on recording: each
 * figure is one it held, not one cut through all of them. The registry
 * lock keeps MemAddKey and MemReset out meanwhile. */
int qq__mem_snapshot(struct qq__mem_snapshot *s)
{
    memset(s, 0, sizeof *s);
    long pb = qq_mem_process_bytes();
    int how = enter();
    if (how)
        lock_take(&reg_lock);
    int rc = 1;
    uint32_t n = atomic_load_explicit(&nkeys, memory_order_acquire);
    struct qq_mem_row *rows = NULL;
    if (!mem_used(n)) {
        rc = 0;
        n = 0;
    } else {
        rows = calloc(n, sizeof *rows);
        if (!rows)
            rc = QQ_ENOMEM;
    }
    for (uint32_t i = 0; rows && i < n; i++) {
        struct mkey *k = key_at(i);
        size_t len = strlen(k->name);
        char *name = malloc(len + 1);
        if (!name) {
            rc = QQ_ENOMEM;
            n = i;
            break;
        }
        memcpy(name, k->name, len + 1);
        int64_t obj = atomic_load_explicit(&k->obj_bytes, memory_order_relaxed);
        int64_t alloc = atomic_load_explicit(&k->held, memory_order_relaxed) - obj;
        rows[i].name = name;
        rows[i].obj_size = atomic_load_explicit(&k->obj_size, memory_order_relaxed);
        rows[i].created = atomic_load_explicit(&k->created, memory_order_relaxed);
        rows[i].deleted = atomic_load_explicit(&k->deleted, memory_order_relaxed);
        rows[i].obj_bytes = obj > 0 ? (uint64_t)obj : 0;
        rows[i].alloc_bytes = alloc > 0 ? (uint64_t)alloc : 0;
        rows[i].peak_bytes = atomic_load_explicit(&k->peak_bytes, memory_order_relaxed);
        rows[i].allocs = atomic_load_explicit(&k->allocs, memory_order_relaxed);
        rows[i].frees = atomic_load_explicit(&k->frees, memory_order_relaxed);
        rows[i].double_frees = atomic_load_explicit(&k->double_frees, memory_order_relaxed);
    }
    /* Plus the calls counted in each table, under its lock. */
    for (struct mtab *u = &tab_main; rows && u;
         u = atomic_load_explicit(&u->next, memory_order_acquire)) {
        if (how)
            lock_take(&u->lock);
        for (unsigned c = 0; c < KEY_CHUNKS; c++) {
            uint32_t first = c == 0 ? 0 : UINT32_C(1) << (c + KEYS0_BITS - 1);
            for (uint32_t j = 0; u->cnt[c] && j < chunk_len(c) && first + j < n; j++) {
                rows[first + j].allocs +=
                    atomic_load_explicit(&u->cnt[c][j].allocs, memory_order_relaxed);
                rows[first + j].frees +=
                    atomic_load_explicit(&u->cnt[c][j].frees, memory_order_relaxed);
            }
        }
        if (how)
            lock_give(&u->lock);
    }
    s->foreign_frees = atomic_load_explicit(&foreign_frees, memory_order_relaxed);
    if (how)
        lock_give(&reg_lock);
    leave(how);
    if (rc == 0) {
        s->foreign_frees = 0;
        return 0;
    }
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
    uint64_t lost = atomic_load_explicit(&untracked, memory_order_relaxed);
    if (lost)
        fprintf(fp ? fp : stdout,
                "Untracked blocks %" PRIu64 " (no memory for the address table)\n", lost);
}
