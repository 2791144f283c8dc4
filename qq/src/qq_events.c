/* qq_events.c - QQInit and its calibration, the key table, QQBaseTime and QQRecord. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, pthread_getname_np, SYS_gettid */
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "qq_internal.h"

struct qq__state qq__st;
QQ__TLS struct qq__thread qq__th __attribute__((tls_model("initial-exec")));
struct qq__keys qq__keytab;
struct qq_event *qq__buf_start;
uint64_t qq__base_tick;
double qq__mhz;
int qq__tsc_invariant;
uint64_t qq__tick_step;
struct qq_calib qq__calib;
int64_t qq__tick_offset;
double qq__offset_error;
int qq__offset_valid;

/* ---------------------------------------------------------------------
 * The threads that recorded: one row each, in the order they first
 * recorded (row I is thread index I; QQInit's thread is row 0). Rows and
 * the sizes below change under LOCK only: a thread's first event, its
 * exit, QQInit and QQOut's snapshot. The record path never takes it.
 * --------------------------------------------------------------------- */

struct thread_row {
    struct qq__thread *live;  /* the thread's own state while it runs; NULL after it exits */
    struct qq_event *start;   /* its buffer (NULL: none could be mapped) */
    size_t bytes;             /* of the mapping */
    uint64_t events, dropped; /* final figures, set when the thread exits */
    uint64_t tid;             /* gettid() */
    pthread_t self;
    char name[QQ__THREAD_NAME];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct thread_row *rows;
static uint32_t nrows, caprows;
static int inited;             /* QQInit ran: threads get buffers */
static int per_thread;         /* events per thread buffer (the larger of n and $QQ_EVENTS) */
static int per_thread_min;     /* the program's own n: the fallback */
static int record_default = 1; /* the last QQRecord: where a new thread starts */
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* Threads that got no row (past QQ_THREADS_MAX, or no memory for the
 * table): each records nothing and counts every event dropped. Their
 * counts go into one more row, "(past the cap)", with no entries, so the
 * node's dropped count says they were lost (docs/THREADS.md). Those still
 * running are listed (their counts are read at QQOut's snapshot), those
 * that exited have added theirs to rowless_dropped. */
#define ROWLESS      UINT32_MAX /* qq__thread.index of a thread with no row */
#define ROWLESS_NAME "(past the cap)"
_Static_assert(sizeof ROWLESS_NAME <= QQ__THREAD_NAME, "the rowless row's name fits");
static struct qq__thread **rowless_live;
static uint32_t nrowless_live, caprowless_live;
static uint64_t rowless_dropped;
static int any_rowless; /* a thread got no row since QQInit */

/* Map room for N events of thread IDX into *P; 1 on success. An anonymous
 * mapping, every page written now (MAP_POPULATE is only a hint): recording
 * must never take a first-touch fault, which costs more than the event
 * itself. The write that touches each page stamps every entry's reserved
 * field with IDX, the thread index the file carries (the record path never
 * writes that field, so it costs the record path nothing). */
static int map_buffer(int n, uint32_t idx, struct qq_event **p, size_t *bytes)
{
    size_t b = (size_t)n * sizeof(struct qq_event);
    if (b == 0)
        return 0;
    void *m = mmap(NULL, b, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 0;
    struct qq_event *e = m;
    for (int i = 0; i < n; i++)
        e[i].reserved = idx;
    *p = e;
    *bytes = b;
    return 1;
}

static uint64_t thread_recorded(const struct qq__thread *t)
{
    const struct qq_event *cur = t->recording ? t->cur : t->saved_cur;
    return t->start && cur ? (uint64_t)(cur - t->start) : 0;
}

static uint64_t thread_dropped(const struct qq__thread *t)
{
    return t->recording ? t->missed : t->saved_missed;
}

/* At a recording thread's exit (its key's destructor): its figures and
 * name go into its row, which outlives it; its buffer stays for QQOut. */
static void thread_exit(void *p)
{
    struct qq__thread *t = p;
    pthread_mutex_lock(&lock);
    if (t->index == ROWLESS) {
        rowless_dropped += thread_dropped(t);
        for (uint32_t i = 0; i < nrowless_live; i++)
            if (rowless_live[i] == t)
                rowless_live[i] = rowless_live[--nrowless_live];
    }
    for (uint32_t i = 0; t->index != ROWLESS && i < nrows; i++)
        if (rows[i].live == t) {
            rows[i].events = thread_recorded(t);
            rows[i].dropped = thread_dropped(t);
            (void)pthread_getname_np(pthread_self(), rows[i].name, sizeof rows[i].name);
            rows[i].live = NULL;
        }
    pthread_mutex_unlock(&lock);
    /* Anything this thread records later (another key's destructor) is
     * lost, and nothing points at the row any more. */
    t->cur = t->end = t->start = t->saved_cur = NULL;
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        exit_key = (pthread_key_t)-1;
}

/* Give the calling thread its row and buffer; LOCK is held and QQInit has
 * run. A thread past QQ_THREADS_MAX, or whose buffer cannot be mapped,
 * records nothing and counts every event dropped. */
static void attach_locked(struct qq__thread *t)
{
    memset(t, 0, sizeof *t);
    t->attached = 1;
    t->recording = 1;
    if (nrows == caprows && nrows < QQ_THREADS_MAX) {
        uint32_t cap = caprows ? 2 * caprows : 8;
        struct thread_row *v = realloc(rows, cap * sizeof *v);
        if (v) {
            rows = v;
            caprows = cap;
        }
    }
    if (nrows == caprows || nrows >= QQ_THREADS_MAX) {
        /* No row: its misses are counted at its exit, or at the snapshot
         * while it runs (when it cannot be listed, from its exit only). */
        t->index = ROWLESS;
        any_rowless = 1;
        if (nrowless_live == caprowless_live) {
            uint32_t cap = caprowless_live ? 2 * caprowless_live : 8;
            struct qq__thread **v = realloc(rowless_live, cap * sizeof(struct qq__thread *));
            if (v) {
                rowless_live = v;
                caprowless_live = cap;
            }
        }
        if (nrowless_live < caprowless_live)
            rowless_live[nrowless_live++] = t;
        pthread_once(&exit_once, make_exit_key);
        if (exit_key != (pthread_key_t)-1)
            (void)pthread_setspecific(exit_key, t);
        return;
    }
    uint32_t idx = nrows++;
    struct thread_row *r = &rows[idx];
    memset(r, 0, sizeof *r);
    r->live = t;
    r->tid = (uint64_t)syscall(SYS_gettid);
    r->self = pthread_self();
    (void)pthread_getname_np(r->self, r->name, sizeof r->name);
    t->index = idx;
    int n = per_thread;
    if (!map_buffer(n, idx, &r->start, &r->bytes) && per_thread > per_thread_min &&
        map_buffer(per_thread_min, idx, &r->start, &r->bytes))
        n = per_thread_min;
    if (r->start) {
        t->start = t->cur = r->start;
        t->end = r->start + n;
        if (qq__vg_on) {
            /* Under callgrind every event takes the slow path. */
            t->vg_end = t->end;
            t->end = NULL;
        }
    }
    pthread_once(&exit_once, make_exit_key);
    if (exit_key != (pthread_key_t)-1)
        (void)pthread_setspecific(exit_key, t);
}

/* fork(): the child has one thread, the one that forked. The other
 * threads' buffers hold what they were recording at the fork (a state
 * on, closed only in the parent), and their rows are the parent's: in
 * the child they are dropped, buffers unmapped, so the child's file holds
 * its own thread only (the parent's file holds them all). The forking
 * thread's row becomes row 0, its buffer restamped with index 0 when it
 * was another (the entries it recorded before the fork stay: they are
 * its own). The lock is held across the fork so that no row is half
 * made in the child. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&lock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&lock);
}

static void fork_child(void)
{
    struct qq__thread *me = &qq__th;
    uint32_t mine = UINT32_MAX;
    for (uint32_t i = 0; i < nrows; i++)
        if (rows[i].live == me)
            mine = i;
    for (uint32_t i = 0; i < nrows; i++)
        if (i != mine && rows[i].start)
            munmap(rows[i].start, rows[i].bytes);
    nrows = 0;
    if (mine != UINT32_MAX) {
        if (mine != 0) {
            rows[0] = rows[mine];
            size_t n = rows[0].bytes / sizeof(struct qq_event);
            for (size_t i = 0; rows[0].start && i < n; i++)
                rows[0].start[i].reserved = 0;
            me->index = 0;
        }
        rows[0].tid = (uint64_t)syscall(SYS_gettid);
        rows[0].self = pthread_self();
        nrows = 1;
    }
    qq__buf_start = nrows ? rows[0].start : NULL;
    nrowless_live = 0;
    rowless_dropped = 0;
    any_rowless = me->attached && me->index == ROWLESS;
    if (any_rowless && caprowless_live)
        rowless_live[nrowless_live++] = me;
    pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void fork_hooks_at_load(void)
{
    /* Without them (out of memory) a fork child writes the other threads'
     * buffers as they stood, as it did before them. */
    (void)pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* QQRecord(flag) on thread T (qq.h). */
static void record_flag(struct qq__thread *t, int flag)
{
    if (!flag && t->recording) {
        t->saved_cur = t->cur;
        t->saved_missed = t->missed;
        t->cur = t->end;
        t->recording = 0;
    } else if (flag && !t->recording) {
        t->cur = t->saved_cur;
        t->missed = t->saved_missed;
        t->recording = 1;
    }
}

/* The record path under callgrind (qq_callgrind.c): a closing state
 * switches collection off first and an opening one on last, so that as
 * little of QQ as can be is counted in the interval (its per-hit cost is
 * in docs/INSTRUCTIONS.md); the switches are the thread's outermost. */
static inline __attribute__((always_inline)) void record_vg(struct qq__thread *t, int key,
                                                            int64_t info, int how, uint64_t tick)
{
    if (key == qq__vg_key && info == 0 && t->vg_depth > 0 && --t->vg_depth == 0)
        QQ__VG_TOGGLE();
    struct qq_event *e = t->cur;
    if (t->recording && e && e < t->vg_end) {
        e->key = (uint32_t)key;
        e->info.i = info;
        t->cur = e + 1;
        e->tick = how == 2 ? tick : how == 1 ? qq_ticks_open() : qq_ticks();
    } else {
        t->missed++;
    }
    if (key == qq__vg_key && info == 1 && t->vg_depth++ == 0)
        QQ__VG_TOGGLE();
}

void qq__record_slow(int key, int64_t info, int how, uint64_t tick)
{
    struct qq__thread *t = &qq__th;
    if (qq__vg_on && t->attached) {
        record_vg(t, key, info, how, tick);
        return;
    }
    if (!t->attached) {
        pthread_mutex_lock(&lock);
        int ready = inited;
        if (ready) {
            attach_locked(t);
            record_flag(t, __atomic_load_n(&record_default, __ATOMIC_RELAXED));
        }
        pthread_mutex_unlock(&lock);
        if (!ready) {
            t->missed++;
            return;
        }
        if (qq__vg_on) {
            record_vg(t, key, info, how, tick);
            return;
        }
        struct qq_event *e = t->cur;
        if (e < t->end) {
            /* The tick last, as the record path reads an opening one. */
            e->key = (uint32_t)key;
            e->info.i = info;
            t->cur = e + 1;
            e->tick = how == 2 ? tick : how == 1 ? qq_ticks_open() : qq_ticks();
            return;
        }
    }
    t->missed++;
}

/* Forget every thread: unmap their buffers; a thread still running is
 * given a new buffer at its next event. Only the calling thread records
 * while QQInit runs (qq.h), so the other threads' states may be reset. */
static void release_threads(void)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < nrows; i++) {
        if (rows[i].live && rows[i].live != &qq__th)
            memset(rows[i].live, 0, sizeof *rows[i].live);
        if (rows[i].start)
            munmap(rows[i].start, rows[i].bytes);
    }
    for (uint32_t i = 0; i < nrowless_live; i++)
        if (rowless_live[i] != &qq__th)
            memset(rowless_live[i], 0, sizeof *rowless_live[i]);
    nrows = 0;
    nrowless_live = 0;
    rowless_dropped = 0;
    any_rowless = 0;
    inited = 0;
    pthread_mutex_unlock(&lock);
    memset(&qq__th, 0, sizeof qq__th);
    qq__buf_start = NULL;
}

int qq__threads_snapshot(struct qq__thread_snap **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&lock);
    struct qq__thread_snap *v = calloc(nrows + 1u, sizeof *v);
    if (!v) {
        pthread_mutex_unlock(&lock);
        return QQ_ENOMEM;
    }
    for (uint32_t i = 0; i < nrows; i++) {
        const struct thread_row *r = &rows[i];
        v[i].index = i;
        v[i].tid = r->tid;
        v[i].start = r->start;
        memcpy(v[i].name, r->name, sizeof v[i].name);
        if (r->live) {
            v[i].events = thread_recorded(r->live);
            v[i].dropped = thread_dropped(r->live);
            char nm[QQ__THREAD_NAME];
            if (pthread_getname_np(r->self, nm, sizeof nm) == 0)
                memcpy(v[i].name, nm, sizeof nm);
        } else {
            v[i].events = r->events;
            v[i].dropped = r->dropped;
        }
        v[i].name[QQ__THREAD_NAME - 1] = '\0';
    }
    *n = nrows;
    if (any_rowless) {
        /* The threads with no row: one more row, no entries, their drops. */
        struct qq__thread_snap *r = &v[nrows];
        r->index = nrows;
        r->dropped = rowless_dropped;
        for (uint32_t i = 0; i < nrowless_live; i++)
            r->dropped += thread_dropped(rowless_live[i]);
        memcpy(r->name, ROWLESS_NAME, sizeof ROWLESS_NAME);
        *n = nrows + 1;
    }
    pthread_mutex_unlock(&lock);
    *out = v;
    return 0;
}

/*
 * Time empty states through the record path the program uses (ORDERED is
 * its QQ_ORDERED): pairs of QQStateOn/QQStateOff with nothing between, into
 * a scratch buffer, the user's buffer set aside meanwhile. The first round
 * warms the caches and branch predictors; the second is kept.
 */
#define CALIB_PAIRS ((size_t)4096)

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void calibrate(int ordered)
{
    struct qq_event *scratch = calloc(2 * CALIB_PAIRS, sizeof *scratch);
    uint64_t *d = calloc(CALIB_PAIRS, sizeof *d);
    double *v = calloc(CALIB_PAIRS, sizeof *v);
    memset(&qq__calib, 0, sizeof qq__calib);
    qq__calib.ordered = ordered ? 1 : 0;
    qq__calib.path = (uint32_t)qq_tick_path();
    qq__calib.path_flags = qq__tick_flags;
    if (!scratch || !d || !v)
        goto out;
    struct qq_event *keep_cur = qq__th.cur, *keep_end = qq__th.end;
    uint64_t keep_missed = qq__th.missed;
    for (int round = 0; round < 2; round++) {
        qq__th.cur = scratch;
        qq__th.end = scratch + 2 * CALIB_PAIRS;
        if (ordered) {
            for (size_t i = 0; i < CALIB_PAIRS; i++) {
                qq__state_on(0, 1);
                qq__state_off(0, 1);
            }
        } else {
            for (size_t i = 0; i < CALIB_PAIRS; i++) {
                qq__state_on(0, 0);
                qq__state_off(0, 0);
            }
        }
    }
    qq__th.cur = keep_cur;
    qq__th.end = keep_end;
    qq__th.missed = keep_missed;
    for (size_t i = 0; i < CALIB_PAIRS; i++)
        d[i] = scratch[2 * i + 1].tick - scratch[2 * i].tick;
    qsort(d, CALIB_PAIRS, sizeof *d, cmp_u64);
    uint64_t step = 0;
    for (size_t i = 1; i < CALIB_PAIRS; i++)
        if (d[i] > d[i - 1] && (step == 0 || d[i] - d[i - 1] < step))
            step = d[i] - d[i - 1];
    for (size_t i = 0; i < CALIB_PAIRS; i++)
        v[i] = (double)d[i];
    qq__calib.samples = CALIB_PAIRS;
    qq__calib.step = (double)step;
    qq__calib.empty_min = v[0];
    qq__calib.empty_median = (v[CALIB_PAIRS / 2 - 1] + v[CALIB_PAIRS / 2]) / 2;
    qq__calib.empty_typical = qq_per_hit(v, CALIB_PAIRS, qq_short_ticks(qq__mhz, qq__calib.step),
                                         qq__calib.step, NULL, NULL);
out:
    free(scratch);
    free(d);
    free(v);
}

/* $QQ_EVENTS as an event count: 0 when unset or not a whole number >= 1,
 * INT_MAX when larger (qq.h states the rule). */
static int env_events(void)
{
    const char *e = getenv(QQ_EVENTS_ENV);
    if (!e || *e < '0' || *e > '9')
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(e, &end, 10);
    if (*end != '\0' || v <= 0)
        return 0;
    if (errno == ERANGE || v > INT_MAX)
        return INT_MAX;
    return (int)v;
}

void qq_init(int nEvents, int ordered)
{
    release_threads();
    if (nEvents < 0)
        nEvents = 0;
    /* Per thread, the larger of the program's size and $QQ_EVENTS; the
     * program's own if the larger does not fit. Without a buffer (nEvents 0
     * or no memory) every event is counted as dropped: the file says so
     * instead of the program failing. QQInit's thread is thread 0. */
    int want = env_events();
    qq__vg_init();
    pthread_mutex_lock(&lock);
    per_thread = want > nEvents ? want : nEvents;
    per_thread_min = nEvents;
    inited = 1;
    __atomic_store_n(&record_default, 1, __ATOMIC_RELAXED);
    attach_locked(&qq__th);
    pthread_mutex_unlock(&lock);
    qq__buf_start = qq__th.start;
    /* The path is chosen (again) here, where $QQ_TICKS is read: a read
     * before QQInit chose it without a program's say. A new path needs its
     * own frequency. */
    int was = qq__path();
    if (qq__tick_path_choose() != was || qq__mhz == 0.0) {
        qq__mhz = qq__measure_mhz();
        qq__tsc_invariant = qq__counter_invariant();
        qq__tick_step = qq__measure_step();
    }
    calibrate(ordered);
#if defined(QQ__MPI) && QQ__MPI
    qq__mpi_init_sync();
#endif
    /* Ordered: every event after QQInit reads the counter after this. */
    qq__base_tick = qq_ticks_open();
}

void qq_base_time(void)
{
    qq__base_tick = qq_ticks_open();
}

static struct qq__name_index key_index;

static int add_clean_key(const char *name, uint32_t type);

static int add_key(const char *given, uint32_t type)
{
    /* A name that breaks the rule (qq_file.h) is recorded cleaned, so the
     * file it makes is one every reader takes. */
    const char *name = given ? given : "";
    char *clean = NULL;
    if (qq_name_check(name, strlen(name)) != 0) {
        if (!(clean = qq__name_clean(name)))
            return -1;
        name = clean;
    }
    int k = add_clean_key(name, type);
    free(clean);
    return k;
}

static int add_clean_key(const char *name, uint32_t type)
{
    struct qq__name_table t = {qq__keytab.v, sizeof *qq__keytab.v, offsetof(struct qq__key, name),
                               offsetof(struct qq__key, type), qq__keytab.n};
    int64_t found = qq__name_index_find(&key_index, &t, name, type);
    if (found >= 0)
        return (int)found;
    if (qq__keytab.n == qq__keytab.cap) {
        uint32_t cap = qq__keytab.cap ? 2 * qq__keytab.cap : 16;
        struct qq__key *v = realloc(qq__keytab.v, cap * sizeof *v);
        if (!v)
            return -1;
        qq__keytab.v = v;
        qq__keytab.cap = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return -1;
    qq__keytab.v[qq__keytab.n].type = type;
    qq__keytab.v[qq__keytab.n].name = copy;
    qq__vg_key_added(copy, type, (int)qq__keytab.n);
    return (int)qq__keytab.n++;
}

int QQAddState(const char *name)
{
    return add_key(name, QQ_TYPE_STATE);
}
int QQAddMark(const char *name)
{
    return add_key(name, QQ_TYPE_MARK);
}
int QQAddCount(const char *name)
{
    return add_key(name, QQ_TYPE_COUNT);
}
int QQAddValue(const char *name)
{
    return add_key(name, QQ_TYPE_VALUE);
}

/* Off: park the calling thread's pointer and make the record path's one
 * test fail, as the paper does; the misses counted while off are not
 * drops, so the count is restored when recording resumes. */
void QQRecord(int flag)
{
    __atomic_store_n(&record_default, flag ? 1 : 0, __ATOMIC_RELAXED);
    if (qq__th.attached)
        record_flag(&qq__th, flag);
}

uint64_t qq__recorded(void)
{
    return thread_recorded(&qq__th);
}

uint64_t qq_dropped(void)
{
    return thread_dropped(&qq__th);
}
