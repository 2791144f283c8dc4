/* test_qq_events.c - the record path: each event type, QQRecord, overflow, timer, file round trip.
 */
#define QQ_ENABLE 1
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"

static struct qq_event *ev(uint64_t i)
{
    return &qq__buf_start[i];
}

static void test_each_event_type(void)
{
    QQInit(100);
    int s = QQAddState("s"), m = QQAddMark("m"), c = QQAddCount("c"), v = QQAddValue("v");
    CHECK(s >= 0 && m >= 0 && c >= 0 && v >= 0);
    CHECK_INT_EQ(QQAddState("s"), s); /* same name and type: same key */
    QQStateOn(s);
    QQMark(m);
    QQCount(c, -42);
    QQValue(v, -65.3477);
    QQStateOff(s);
    CHECK_U64_EQ(qq__recorded(), 5);
    CHECK_U64_EQ(ev(0)->key, s);
    CHECK_INT_EQ(ev(0)->info.i, 1);
    CHECK_U64_EQ(ev(1)->key, m);
    CHECK_U64_EQ(ev(2)->key, c);
    CHECK_INT_EQ(ev(2)->info.i, -42);
    CHECK_U64_EQ(ev(3)->key, v);
    CHECK_DBL_NEAR(ev(3)->info.d, -65.3477, 0);
    CHECK_U64_EQ(ev(4)->key, s);
    CHECK_INT_EQ(ev(4)->info.i, 0);
    for (int i = 1; i < 5; i++)
        CHECK(ev((uint64_t)i)->tick >= ev((uint64_t)i - 1)->tick);
    CHECK(ev(0)->tick >= qq__base_tick);
    CHECK_U64_EQ(qq_dropped(), 0);
}

static void test_record_off_on(void)
{
    QQInit(100);
    int m = QQAddMark("rec");
    QQMark(m);
    QQRecord(0);
    for (int i = 0; i < 50; i++)
        QQMark(m);
    QQRecord(0); /* twice off: still off, nothing lost */
    CHECK_U64_EQ(qq__recorded(), 1);
    QQRecord(1);
    QQMark(m);
    QQRecord(1);
    CHECK_U64_EQ(qq__recorded(), 2);
    CHECK_U64_EQ(qq_dropped(), 0); /* events while off are not drops */
}

static void test_overflow_counted(void)
{
    QQInit(10);
    int c = QQAddCount("ovf");
    for (int i = 0; i < 25; i++)
        QQCount(c, i);
    CHECK_U64_EQ(qq__recorded(), 10);
    CHECK_U64_EQ(qq_dropped(), 15);
    for (int i = 0; i < 10; i++)
        CHECK_INT_EQ(ev((uint64_t)i)->info.i, i); /* the first ten kept */
    QQRecord(0);
    QQCount(c, 99);
    QQRecord(1);
    CHECK_U64_EQ(qq_dropped(), 15);
    CHECK_INT_EQ(qq_out("ovf.qq", 0, 1), 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("ovf.qq", &f), 0);
    CHECK_U64_EQ(qq_file_node(f, 0)->dropped, 15);
    CHECK_U64_EQ(qq_file_node(f, 0)->entries, 10);
    qq_file_close(f);
}

static void test_zero_buffer(void)
{
    QQInit(0);
    int m = QQAddMark("none");
    QQMark(m);
    CHECK_U64_EQ(qq__recorded(), 0);
    CHECK_U64_EQ(qq_dropped(), 1);
}

/* Room for the larger of QQInit's size and $QQ_EVENTS (qq.h). */
static uint64_t capacity_with(const char *env, int n)
{
    if (env)
        setenv(QQ_EVENTS_ENV, env, 1);
    else
        unsetenv(QQ_EVENTS_ENV);
    QQInit(n);
    int m = QQAddMark("cap");
    for (int i = 0; i < 200; i++)
        QQMark(m);
    unsetenv(QQ_EVENTS_ENV);
    return qq__recorded();
}

static void test_events_env(void)
{
    CHECK_U64_EQ(capacity_with(NULL, 10), 10);
    CHECK_U64_EQ(capacity_with("50", 10), 50); /* raised */
    CHECK_U64_EQ(capacity_with("5", 10), 10);  /* never shrunk */
    CHECK_U64_EQ(capacity_with("50", 0), 50);  /* QQInit(0) too */
    CHECK_U64_EQ(capacity_with("", 10), 10);   /* ignored: */
    CHECK_U64_EQ(capacity_with("0", 10), 10);
    CHECK_U64_EQ(capacity_with("-50", 10), 10);
    CHECK_U64_EQ(capacity_with("50x", 10), 10);
    CHECK_U64_EQ(capacity_with(" 50", 10), 10);
    CHECK_U64_EQ(capacity_with("0x50", 10), 10);
    CHECK_U64_EQ(qq_dropped(), 190);
}

/* A QQ_EVENTS too large for the memory falls back to QQInit's own size
 * (an address-space limit makes the mapping fail; not under ASan, whose
 * shadow memory needs the address space). */
static void test_events_env_too_large(void)
{
#if TEST_ASAN
    printf("  skipped under ASan\n");
#else
    if (test_rlimit_as_ignored()) {
        /* Unlimited, the mapping of 24 GB succeeds and QQInit writes it. */
        printf("  skipped: the address-space limit is not enforced here\n");
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {(rlim_t)4 << 30, (rlim_t)4 << 30}; /* 4 GiB */
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        /* 1e9 events are 24 GB; past INT_MAX counts as INT_MAX (51 GB) */
        uint64_t a = capacity_with("1000000000", 10);
        uint64_t b = capacity_with("99999999999999999999", 10);
        _exit(a == 10 && b == 10 ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st));
    CHECK_INT_EQ(WEXITSTATUS(st), 0);
#endif
}

static void test_timer_monotonic_and_frequency(void)
{
    uint64_t prev = qq_ticks();
    int backwards = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t t = qq_ticks();
        backwards += t < prev;
        prev = t;
    }
    CHECK_INT_EQ(backwards, 0);
    QQInit(10);
    CHECK(qq__mhz > 1.0);
    /* The measured frequency converts ticks to the monotonic clock's time
     * over an interval 5x longer than the calibration's. Each end is a
     * bracketed pair: two plain reads in a row could be split by a
     * preemption (1 ms of it is the whole 1% here). */
    uint64_t n0, t0, n1, t1;
    qq__clock_sample(&n0, &t0);
    struct timespec ts = {0, 100000000};
    nanosleep(&ts, NULL);
    qq__clock_sample(&n1, &t1);
    double ns_from_ticks = (double)(t1 - t0) * 1000.0 / qq__mhz;
    double ratio = ns_from_ticks / (double)(n1 - n0);
    printf("  tick frequency %.3f MHz, ticks/clock over 100 ms = %.6f\n", qq__mhz, ratio);
    CHECK_DBL_NEAR(ratio, 1.0, 0.01);
}

static void test_round_trip(void)
{
    QQInit(1000);
    QQBaseTime();
    QQBaseTime(0);
    int a = QQAddState("alpha"), b = QQAddCount("beta"), g = QQAddValue("gamma");
    for (int i = 0; i < 100; i++) {
        QQStateOn(a);
        QQCount(b, i * 3);
        QQValue(g, i / 7.0);
        QQStateOff(a);
    }
    uint64_t n = qq__recorded();
    CHECK_INT_EQ(qq_out("rt.qq", 0, 1), 0);
    char tmp[64];
    snprintf(tmp, sizeof tmp, "rt.qq.tmp.%ld", (long)getpid());
    CHECK(access(tmp, F_OK) != 0); /* renamed, not left behind */
    struct qq_file *f;
    int rc = qq_file_open("rt.qq", &f);
    CHECK_INT_EQ(rc, 0);
    if (rc) {
        fprintf(stderr, "%s\n", qq_file_errmsg(f));
        qq_file_close(f);
        return;
    }
    CHECK_U64_EQ(qq_file_nkeys(f), qq__keytab.n);
    CHECK_U64_EQ(qq_file_nnodes(f), 1);
    CHECK_STR_EQ(qq_file_key(f, (uint32_t)a)->name, "alpha");
    CHECK_INT_EQ(qq_file_key(f, (uint32_t)a)->type, QQ_TYPE_STATE);
    CHECK_INT_EQ(qq_file_key(f, (uint32_t)b)->type, QQ_TYPE_COUNT);
    CHECK_INT_EQ(qq_file_key(f, (uint32_t)g)->type, QQ_TYPE_VALUE);
    const struct qq_node_info *ni = qq_file_node(f, 0);
    CHECK_U64_EQ(ni->entries, n);
    CHECK_U64_EQ(ni->base_tick, qq__base_tick);
    CHECK_DBL_NEAR(ni->mhz, qq__mhz, 0);
    CHECK(memcmp(qq_file_entries(f, 0), qq__buf_start, n * sizeof(struct qq_event)) == 0);
    CHECK(qq_file_meta(f, "host") != NULL);
    CHECK_STR_CONTAINS(qq_file_meta(f, "command"), "test_qq_events");
    CHECK(qq_file_meta(f, "date") != NULL);
    CHECK_STR_EQ(qq_file_meta(f, "tick_source"), qq_tick_path_name(qq_tick_path()));

    uint32_t nk = qq_file_nkeys(f);
    struct qq_key_summary *ks = calloc(nk, sizeof *ks);
    struct qq_node_summary ns;
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    CHECK_U64_EQ(ks[a].hits, 200);
    CHECK_U64_EQ(ks[a].intervals, 100);
    CHECK_U64_EQ(ks[a].unbalanced, 0);
    CHECK(ks[a].state_ticks > 0);
    CHECK_INT_EQ(ks[b].isum, 3 * 99 * 100 / 2);
    CHECK_INT_EQ(ks[b].imin, 0);
    CHECK_INT_EQ(ks[b].imax, 297);
    CHECK_DBL_NEAR(ks[g].dmax, 99 / 7.0, 1e-12);
    CHECK(ns.elapsed_sec > 0);
    free(ks);
    qq_file_close(f);
}

static void test_output_env_and_bad_args(void)
{
    QQInit(10);
    QQMark(QQAddMark("env"));
    setenv(QQ_OUTPUT_ENV, "from_env.qq", 1);
    CHECK_INT_EQ(qq_out("ignored.qq", 0, 1), 0);
    unsetenv(QQ_OUTPUT_ENV);
    CHECK(access("from_env.qq", F_OK) == 0);
    CHECK(access("ignored.qq", F_OK) != 0);
    CHECK_INT_EQ(qq_out("bad.qq", 2, 2), QQ_EINVAL);
    CHECK_STR_CONTAINS(qq_out_errmsg(), "out of range");
    CHECK_INT_EQ(qq_out("no_such_dir/x.qq", 0, 1), QQ_EIO);
    CHECK_STR_CONTAINS(qq_out_errmsg(), "no_such_dir/x.qq");
    CHECK(access("bad.qq", F_OK) != 0);
}

static void test_unbalanced_states(void)
{
    QQInit(10);
    int s = QQAddState("unb");
    QQStateOff(s); /* off while off */
    QQStateOn(s);
    QQStateOn(s); /* on while on */
    QQStateOff(s);
    QQStateOn(s); /* still on at the end */
    CHECK_INT_EQ(qq_out("unb.qq", 0, 1), 0);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("unb.qq", &f), 0);
    struct qq_key_summary *ks = calloc(qq_file_nkeys(f), sizeof *ks);
    struct qq_node_summary ns;
    qq_file_summarize(f, 0, &ns, ks);
    CHECK_U64_EQ(ks[s].intervals, 1);
    CHECK_U64_EQ(ks[s].unbalanced, 3);
    free(ks);
    qq_file_close(f);
}

int main(void)
{
    RUN(test_each_event_type);
    RUN(test_record_off_on);
    RUN(test_overflow_counted);
    RUN(test_zero_buffer);
    RUN(test_events_env);
    RUN(test_events_env_too_large);
    RUN(test_timer_monotonic_and_frequency);
    RUN(test_round_trip);
    RUN(test_output_env_and_bad_args);
    RUN(test_unbalanced_states);
    return TEST_DONE();
}
