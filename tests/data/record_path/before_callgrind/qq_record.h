/* qq_record.h - qq.h's inside: the state the inline record path reads, the tick reads, the record
 * path. qq.h includes it after its API; not for users, nor to be included alone. */
#ifndef QQ_RECORD_H
#define QQ_RECORD_H

#ifndef QQ_H
#error "qq_record.h is part of qq.h: include qq.h"
#endif

/* ======================================================================
 * The library's state, read by the inline record path. Not for users.
 * ====================================================================== */

struct qq__state {
    int path; /* enum qq_tick_path; QQ_TICKS_UNSET until chosen */
};
extern QQ_API struct qq__state qq__st;

/*
 * Each thread's recording state: its own buffer, found through one
 * thread-local object (initial-exec TLS: in a program linked with libqq,
 * the record path reaches it at a fixed offset from the thread pointer,
 * with no call and no lock). The record path reads and writes only CUR,
 * END and MISSED; the rest belongs to the library. A thread starts with
 * CUR == END == NULL, so its first event takes the slow path
 * (qq__record_slow), which gives it a buffer of QQInit's size (a lock is
 * taken there, once per thread) and records the event.
 */
struct qq__thread {
    struct qq_event *cur; /* next free event; == end when full, off or not yet given a buffer */
    struct qq_event *end; /* one past the last event */
    uint64_t missed;      /* events that found cur == end with a buffer given */
    /* the library's: */
    struct qq_event *start;     /* the thread's buffer (NULL: none) */
    struct qq_event *saved_cur; /* QQRecord(0) keeps CUR here */
    uint64_t saved_missed;
    int attached; /* 1 once the thread asked for its buffer */
    int recording;
    uint32_t index; /* the thread's number on this node, 0 for QQInit's thread */
};
#if defined(__cplusplus) && __cplusplus >= 201103L
#define QQ__TLS thread_local
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define QQ__TLS _Thread_local
#else
#define QQ__TLS __thread /* C99, C++98: the GNU spelling */
#endif
extern QQ_API QQ__TLS struct qq__thread qq__th __attribute__((tls_model("initial-exec")));

/* The chosen path, read without a lock: it is written by the first read
 * of a process and again by QQInit (where $QQ_TICKS may force another),
 * before the reads that QQInit calibrates and the program records with. */
static inline int qq__path(void)
{
    return __atomic_load_n(&qq__st.path, __ATOMIC_RELAXED);
}

/* Every read that the inline paths below do not take: the clock fallback,
 * and the first read of a process that has not chosen a path yet.
 * HOW: 0 bare, 1 opening, 2 closing. */
QQ_API uint64_t qq__ticks_slow(int how);

/* The record path's other branch: a thread with no buffer yet gets one
 * and records the event; any other thread counts it missed. HOW: 0 read
 * the counter bare, 1 read it opening, 2 TICK is already read (a state
 * closing). INFO is the event's 8 bytes (a value's bits). */
QQ_API void qq__record_slow(int key, int64_t info, int how, uint64_t tick);

/* ======================================================================
 * The tick source, read three ways (qq.h says what each read is for).
 * ====================================================================== */

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t qq__rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
static inline uint64_t qq__rdtsc_fenced(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}
static inline uint64_t qq__rdtscp_fenced(void)
{
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    return ((uint64_t)hi << 32) | lo;
}
/* Both TSC paths (LFENCE, RDTSCP) are at or above QQ_TICKS_LFENCE. */
static inline uint64_t qq_ticks(void)
{
    if (__builtin_expect(qq__path() >= QQ_TICKS_LFENCE, 1))
        return qq__rdtsc();
    return qq__ticks_slow(0);
}
static inline uint64_t qq_ticks_open(void)
{
    if (__builtin_expect(qq__path() >= QQ_TICKS_LFENCE, 1))
        return qq__rdtsc_fenced();
    return qq__ticks_slow(1);
}
static inline uint64_t qq_ticks_close(void)
{
    int p = qq__path();
    if (__builtin_expect(p == QQ_TICKS_RDTSCP, 1))
        return qq__rdtscp_fenced();
    if (p == QQ_TICKS_LFENCE)
        return qq__rdtsc_fenced();
    return qq__ticks_slow(2);
}
#elif defined(__aarch64__)
/* isb: every instruction before the read completes first. */
static inline uint64_t qq__cntvct(void)
{
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}
static inline uint64_t qq__cntvct_fenced(void)
{
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0; isb" : "=r"(v) : : "memory");
    return v;
}
static inline uint64_t qq_ticks(void)
{
    if (__builtin_expect(qq__path() == QQ_TICKS_CNTVCT, 1))
        return qq__cntvct();
    return qq__ticks_slow(0);
}
static inline uint64_t qq_ticks_open(void)
{
    if (__builtin_expect(qq__path() == QQ_TICKS_CNTVCT, 1))
        return qq__cntvct_fenced();
    return qq__ticks_slow(1);
}
static inline uint64_t qq_ticks_close(void)
{
    return qq_ticks();
}
#else
/* No counter QQ knows: every read is the clock. */
static inline uint64_t qq_ticks(void)
{
    return qq__ticks_slow(0);
}
static inline uint64_t qq_ticks_open(void)
{
    return qq__ticks_slow(1);
}
static inline uint64_t qq_ticks_close(void)
{
    return qq__ticks_slow(2);
}
#endif

#if defined(QQ_ENABLE)

/*
 * The record path: one test, the key, the info, the bump, the tick. A state
 * that opens reads the counter last and one that closes reads it first, so
 * the interval holds as little of QQ as possible; the rest (a load, a
 * compare, a few stores) is the empty-interval cost QQInit calibrates.
 * ORDERED is a constant after inlining: no branch is left.
 */
static inline void qq__record(int key, int64_t info)
{
    struct qq_event *e = qq__th.cur;
    if (__builtin_expect(e < qq__th.end, 1)) {
        /* The bump before the read: nothing of the thread-local state is
         * needed after it, so the compiler keeps no register for it across
         * the read's rare call. */
        e->key = (uint32_t)key;
        e->info.i = info;
        qq__th.cur = e + 1;
        e->tick = qq_ticks();
    } else {
        qq__record_slow(key, info, 0, 0);
    }
}

static inline void qq__state_on(int key, int ordered)
{
    struct qq_event *e = qq__th.cur;
    if (__builtin_expect(e < qq__th.end, 1)) {
        e->key = (uint32_t)key;
        e->info.i = 1;
        qq__th.cur = e + 1;
        e->tick = ordered ? qq_ticks_open() : qq_ticks();
    } else {
        qq__record_slow(key, 1, ordered ? 1 : 0, 0);
    }
}

/* The closing read comes before the buffer check: loads of the buffer
 * pointers inside the interval would hold the ordered read back by a load's
 * latency when the interval is empty, and not when the line's work hides
 * them, so the calibrated empty cost would not be the one every interval
 * carries. Recording off (QQRecord(0)) still pays the read. */
static inline void qq__state_off(int key, int ordered)
{
    uint64_t t = ordered ? qq_ticks_close() : qq_ticks();
    struct qq_event *e = qq__th.cur;
    if (__builtin_expect(e < qq__th.end, 1)) {
        e->tick = t;
        e->key = (uint32_t)key;
        e->info.i = 0;
        qq__th.cur = e + 1;
    } else {
        qq__record_slow(key, 0, 2, t);
    }
}

static inline void QQStateOn(int key)
{
    qq__state_on(key, QQ_ORDERED);
}
static inline void QQStateOff(int key)
{
    qq__state_off(key, QQ_ORDERED);
}
static inline void QQMark(int key)
{
    qq__record(key, 0);
}
static inline void QQCount(int key, int count)
{
    qq__record(key, count);
}
static inline void QQValue(int key, double value)
{
    struct qq_event *e = qq__th.cur;
    if (__builtin_expect(e < qq__th.end, 1)) {
        e->key = (uint32_t)key;
        e->info.d = value;
        qq__th.cur = e + 1;
        e->tick = qq_ticks();
    } else {
        union {
            double d;
            int64_t i;
        } u;
        u.d = value;
        qq__record_slow(key, u.i, 0, 0);
    }
}
#endif /* QQ_ENABLE */

#endif /* QQ_RECORD_H */
