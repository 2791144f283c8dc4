/* qq_events.c - QQInit and its calibration, the key table, QQBaseTime and QQRecord. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "qq_internal.h"

struct qq__state qq__st;
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

static size_t buf_bytes;           /* size of the mapping */
static struct qq_event *saved_cur; /* QQRecord(0) keeps the pointer here */
static uint64_t saved_missed;
static int recording = 1;

static void release_buffer(void)
{
    if (qq__buf_start)
        munmap(qq__buf_start, buf_bytes);
    qq__buf_start = NULL;
    qq__st.cur = qq__st.end = NULL;
    buf_bytes = 0;
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
    struct qq_event *keep_cur = qq__st.cur, *keep_end = qq__st.end;
    uint64_t keep_missed = qq__st.missed;
    for (int round = 0; round < 2; round++) {
        qq__st.cur = scratch;
        qq__st.end = scratch + 2 * CALIB_PAIRS;
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
    qq__st.cur = keep_cur;
    qq__st.end = keep_end;
    qq__st.missed = keep_missed;
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

/* Map room for N events; 1 on success. An anonymous mapping, every page
 * written now (MAP_POPULATE is only a hint): recording must never take a
 * first-touch fault, which costs more than the event itself. */
static int map_buffer(int n)
{
    size_t bytes = (size_t)n * sizeof(struct qq_event);
    if (bytes == 0)
        return 0;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    memset(p, 0, bytes);
    qq__buf_start = p;
    buf_bytes = bytes;
    return 1;
}

void qq_init(int nEvents, int ordered)
{
    release_buffer();
    qq__st.missed = 0;
    recording = 1;
    if (nEvents < 0)
        nEvents = 0;
    /* The larger of the program's size and $QQ_EVENTS; the program's own
     * if the larger does not fit. */
    int want = env_events();
    if (want < nEvents)
        want = nEvents;
    if (!map_buffer(want) && want > nEvents && map_buffer(nEvents))
        want = nEvents;
    /* Without a buffer (nEvents 0 or no memory) every event is counted as
     * dropped: the file says so instead of the program failing. */
    qq__st.cur = qq__buf_start;
    qq__st.end = qq__buf_start ? qq__buf_start + want : NULL;
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

/* Off: park the pointer and make the record path's one test fail, as the
 * paper does; the misses counted while off are not drops, so the count is
 * restored when recording resumes. */
void QQRecord(int flag)
{
    if (!flag && recording) {
        saved_cur = qq__st.cur;
        saved_missed = qq__st.missed;
        qq__st.cur = qq__st.end;
        recording = 0;
    } else if (flag && !recording) {
        qq__st.cur = saved_cur;
        qq__st.missed = saved_missed;
        recording = 1;
    }
}

uint64_t qq__recorded(void)
{
    struct qq_event *cur = recording ? qq__st.cur : saved_cur;
    return qq__buf_start ? (uint64_t)(cur - qq__buf_start) : 0;
}

uint64_t qq_dropped(void)
{
    return recording ? qq__st.missed : saved_missed;
}
