/* test_qq_ticks.c - the tick path: chosen from what the processor says, forced with QQ_TICKS,
 * stated in the file. */
#define _DEFAULT_SOURCE
#define QQ_ENABLE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qq_internal.h"
#include "test.h"

enum { TSC = QQ_CALIB_TSC, RDTSCP = QQ_CALIB_RDTSCP, INV = QQ_CALIB_INVARIANT };

struct row {
    uint32_t cpu; /* what the survey found */
    int want;     /* $QQ_TICKS: QQ_TICKS_UNSET auto, -1 no such path */
    int path;     /* the path that must be taken */
    uint32_t why; /* FORCED, REFUSED or 0 */
};

/* Every combination the decision can meet, written out by hand rather than
 * computed by a second copy of the rule. */
static const struct row rows[] = {
#if defined(__x86_64__) || defined(__i386__)
    /* Automatic: RDTSCP closes only where CPUID offers it (a hypervisor may
     * run the instruction while hiding it, and valgrind then refuses it). */
    {TSC | RDTSCP | INV, QQ_TICKS_UNSET, QQ_TICKS_RDTSCP, 0},
    {TSC | INV, QQ_TICKS_UNSET, QQ_TICKS_LFENCE, 0},
    /* A TSC that CPUID does not call invariant is not a clock. */
    {TSC | RDTSCP, QQ_TICKS_UNSET, QQ_TICKS_CLOCK, 0},
    {TSC, QQ_TICKS_UNSET, QQ_TICKS_CLOCK, 0},
    /* No usable TSC (absent, or turned off with prctl). */
    {RDTSCP | INV, QQ_TICKS_UNSET, QQ_TICKS_CLOCK, 0},
    {0, QQ_TICKS_UNSET, QQ_TICKS_CLOCK, 0},
    /* Forced, where offered. */
    {TSC | RDTSCP | INV, QQ_TICKS_LFENCE, QQ_TICKS_LFENCE, QQ_CALIB_FORCED},
    {TSC | RDTSCP | INV, QQ_TICKS_CLOCK, QQ_TICKS_CLOCK, QQ_CALIB_FORCED},
    {TSC | RDTSCP | INV, QQ_TICKS_RDTSCP, QQ_TICKS_RDTSCP, QQ_CALIB_FORCED},
    {TSC | RDTSCP, QQ_TICKS_RDTSCP, QQ_TICKS_RDTSCP, QQ_CALIB_FORCED},
    {TSC, QQ_TICKS_LFENCE, QQ_TICKS_LFENCE, QQ_CALIB_FORCED},
    {0, QQ_TICKS_CLOCK, QQ_TICKS_CLOCK, QQ_CALIB_FORCED},
    /* Refused: not offered here, or no such path. */
    {TSC | INV, QQ_TICKS_RDTSCP, QQ_TICKS_LFENCE, QQ_CALIB_REFUSED},
    {RDTSCP | INV, QQ_TICKS_RDTSCP, QQ_TICKS_CLOCK, QQ_CALIB_REFUSED},
    {RDTSCP | INV, QQ_TICKS_LFENCE, QQ_TICKS_CLOCK, QQ_CALIB_REFUSED},
    {TSC | RDTSCP | INV, QQ_TICKS_CNTVCT, QQ_TICKS_RDTSCP, QQ_CALIB_REFUSED},
    {TSC | RDTSCP | INV, -1, QQ_TICKS_RDTSCP, QQ_CALIB_REFUSED},
    {TSC | INV, -1, QQ_TICKS_LFENCE, QQ_CALIB_REFUSED},
#elif defined(__aarch64__)
    {INV, QQ_TICKS_UNSET, QQ_TICKS_CNTVCT, 0},
    {INV, QQ_TICKS_CNTVCT, QQ_TICKS_CNTVCT, QQ_CALIB_FORCED},
    {INV, QQ_TICKS_CLOCK, QQ_TICKS_CLOCK, QQ_CALIB_FORCED},
    {INV, QQ_TICKS_RDTSCP, QQ_TICKS_CNTVCT, QQ_CALIB_REFUSED},
    {INV, QQ_TICKS_LFENCE, QQ_TICKS_CNTVCT, QQ_CALIB_REFUSED},
    {INV, -1, QQ_TICKS_CNTVCT, QQ_CALIB_REFUSED},
#else
    {INV, QQ_TICKS_UNSET, QQ_TICKS_CLOCK, 0},
    {INV, QQ_TICKS_CLOCK, QQ_TICKS_CLOCK, QQ_CALIB_FORCED},
    {INV, QQ_TICKS_RDTSCP, QQ_TICKS_CLOCK, QQ_CALIB_REFUSED},
#endif
};

static void test_qq_ticks_decide(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint32_t fl = 0xdeadu;
        int p = qq__tick_path_decide(rows[i].cpu, rows[i].want, &fl);
        if (p != rows[i].path || fl != (rows[i].cpu | rows[i].why))
            TEST_FAIL_AT("row %zu: cpu 0x%x, want %d: path %d flags 0x%x, expected %d, 0x%x", i,
                         rows[i].cpu, rows[i].want, p, fl, rows[i].path, rows[i].cpu | rows[i].why);
    }
}

/* This process's path follows from its own survey: above all, RDTSCP is
 * never executed where CPUID does not offer it. */
static void test_qq_ticks_this_machine(void)
{
    unsetenv(QQ_TICKS_ENV);
    int p = qq_tick_path();
    uint32_t cpu = qq__tick_survey(), fl;
    CHECK_INT_EQ(p, qq__tick_path_decide(cpu, QQ_TICKS_UNSET, &fl));
    CHECK_INT_EQ(qq__tick_flags, fl);
    if (p == QQ_TICKS_RDTSCP)
        CHECK(cpu & QQ_CALIB_RDTSCP);
    printf("this machine: %s (the processor says: TSC %d, RDTSCP %d, invariant %d)\n",
           qq_tick_path_name(p), !!(cpu & TSC), !!(cpu & RDTSCP), !!(cpu & INV));
    CHECK(strcmp(qq_tick_path_name(QQ_TICKS_UNSET), "unknown") == 0);
    CHECK(strcmp(qq_tick_path_name(99), "unknown") == 0);
    CHECK(strcmp(qq_tick_path_name(-1), "unknown") == 0);
}

/* The CALB section's payload in the file image P..N: its offset, or 0. */
static size_t calb_payload(const unsigned char *p, size_t n)
{
    size_t at = QQ__HEADER_SIZE;
    while (at + QQ__SECTION_HEAD <= n) {
        uint64_t len;
        memcpy(&len, p + at + 8, 8);
        if (memcmp(p + at, "CALB", 4) == 0)
            return at + QQ__SECTION_HEAD;
        if (len > n - at - QQ__SECTION_HEAD)
            return 0;
        at += QQ__SECTION_HEAD + (size_t)len;
    }
    return 0;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    unsigned char *p = malloc(1 << 20);
    *n = p ? fread(p, 1, 1 << 20, fp) : 0;
    fclose(fp);
    return p;
}

static int spit(const char *path, const unsigned char *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    size_t w = fwrite(p, 1, n, fp);
    return fclose(fp) == 0 && w == n ? 0 : -1;
}

/* A child process that records with QQ_TICKS=FORCE and writes PATH: each
 * path is chosen once per process, so each forced path gets its own. */
static int record_forced(const char *force, const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        setenv(QQ_TICKS_ENV, force, 1);
        qq_init(1000, 1);
        int k = QQAddState("work"), m = QQAddMark("mark");
        volatile double x = 1;
        for (int i = 0; i < 100; i++) {
            QQStateOn(k);
            for (int j = 0; j < 100; j++)
                x = x * 1.000001 + 1e-9;
            QQStateOff(k);
            QQMark(m);
        }
        _exit(qq_out(path, 0, 1) == 0 ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Each path this processor offers, forced: it records, the file says which
 * path and why, and its ticks run forward. */
static void test_qq_ticks_forced(void)
{
    static const struct {
        const char *env;
        int path;
        double mhz; /* the clock's rate the file must hold (clock paths) */
    } force[] = {{"clock", QQ_TICKS_CLOCK, 1000},
                 {"clock@5000", QQ_TICKS_CLOCK, 5000},
                 {"clock@500", QQ_TICKS_CLOCK, 500},
                 {"clock@100000", QQ_TICKS_CLOCK, 100000},
                 {"lfence", QQ_TICKS_LFENCE, 0},
                 {"rdtscp", QQ_TICKS_RDTSCP, 0},
                 {"cntvct", QQ_TICKS_CNTVCT, 0},
                 {"nonsense", -1, 0},
                 {"clock@0", -1, 0},
                 {"clock@", -1, 0},
                 {"clock@100001", -1, 0},
                 {"clock@5000x", -1, 0},
                 {"clock@-5", -1, 0},
                 {"auto", QQ_TICKS_UNSET, 0}};
    uint32_t cpu = qq__tick_survey();
    for (size_t i = 0; i < sizeof force / sizeof force[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "forced_%s.qq", force[i].env);
        uint32_t fl;
        int expect = qq__tick_path_decide(cpu, force[i].path, &fl);
        CHECK_INT_EQ(record_forced(force[i].env, path), 0);
        struct qq_file *f = NULL;
        int rc = qq_file_open(path, &f);
        if (rc != 0) {
            TEST_FAIL_AT("%s: %s", path, f ? qq_file_errmsg(f) : qq_strerror(rc));
            qq_file_close(f);
            continue;
        }
        struct qq_calib c;
        CHECK_INT_EQ(qq_file_calib(f, 0, &c), 1);
        CHECK_INT_EQ(c.path, expect);
        CHECK_INT_EQ(c.path_flags, fl);
        CHECK_STR_EQ(qq_file_meta(f, "tick_source"), qq_tick_path_name(expect));
        if (expect == QQ_TICKS_CLOCK)
            CHECK_DBL_NEAR(qq_file_node(f, 0)->mhz, force[i].mhz ? force[i].mhz : 1000.0, 1e-9);
        CHECK_INT_EQ(qq_file_ticks_variant(f, 0), 0);
        const struct qq_event *e = qq_file_entries(f, 0);
        uint64_t n = qq_file_node(f, 0)->entries;
        CHECK_U64_EQ(n, 300);
        for (uint64_t j = 1; e && j < n; j++)
            if (e[j].tick < e[j - 1].tick)
                TEST_FAIL_AT("%s: entry %llu runs backwards", path, (unsigned long long)j);
        printf("QQ_TICKS=%s: %s, flags 0x%x, %.3f MHz\n", force[i].env,
               qq_tick_path_name((int)c.path), c.path_flags, qq_file_node(f, 0)->mhz);
        qq_file_close(f);
    }
}

/* The reader: a calibration that names no path, or unknown flags, is
 * damage; a TSC path without the invariant flag is read, and said to be no
 * time. */
/* QQ_TICKS=clock@RATE ticks RATE times a microsecond: a 20 ms sleep read
 * with the record path's fenced reads, held against the monotonic clock
 * read inside them in the same child (the path is chosen once a process). */
static void test_qq_ticks_clock_rate(void)
{
    static const uint32_t rates[] = {5000, 500, 1000};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            char env[32];
            snprintf(env, sizeof env, "clock@%u", rates[i]);
            setenv(QQ_TICKS_ENV, env, 1);
            if (qq__tick_path_choose() != QQ_TICKS_CLOCK || qq__measure_mhz() != rates[i])
                _exit(2);
            /* The ticks bracket the clock's reads, so the ratio is at
             * least the rate, and above it by the reads' own time over 20
             * ms. The best of 5 tries, after a first read of each kind:
             * under qemu the first run of a code path is translated
             * between the reads (it read above 1% once in the aarch64 pass). */
            double per_ns = 1e300;
            (void)qq_ticks_open(), (void)qq_ticks_close(), (void)qq__mono_ns();
            for (int k = 0; k < 5; k++) {
                uint64_t t0 = qq_ticks_open(), ns0 = qq__mono_ns();
                struct timespec nap = {0, 20000000};
                nanosleep(&nap, NULL);
                uint64_t ns1 = qq__mono_ns(), t1 = qq_ticks_close();
                double r = (double)(t1 - t0) / (double)(ns1 - ns0);
                per_ns = r < per_ns ? r : per_ns;
            }
            _exit(per_ns > rates[i] / 1000.0 * 0.99 && per_ns < rates[i] / 1000.0 * 1.01 ? 0 : 1);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            TEST_FAIL_AT("QQ_TICKS=clock@%u: status 0x%x (2: path or rate not taken, 1: ticks "
                         "not %u a microsecond)",
                         rates[i], st, rates[i]);
    }
}

static void test_qq_ticks_file(void)
{
    CHECK_INT_EQ(record_forced("auto", "base.qq"), 0);
    size_t n = 0;
    unsigned char *img = slurp("base.qq", &n);
    size_t pl = img ? calb_payload(img, n) : 0;
    CHECK(pl > 0);
    if (!pl) {
        free(img);
        return;
    }
    static const struct {
        uint32_t path, flags;
        int rc, variant;
    } cases[] = {
        {QQ_TICKS_RDTSCP, TSC | RDTSCP | INV, 0, 0},
        {QQ_TICKS_RDTSCP, TSC | RDTSCP | QQ_CALIB_FORCED, 0, 1},
        {QQ_TICKS_LFENCE, TSC | QQ_CALIB_FORCED, 0, 1},
        {QQ_TICKS_CLOCK, TSC, 0, 0},
        {QQ_TICKS_CNTVCT, INV, 0, 0},
        {QQ_TICKS_UNSET, INV, QQ_ECORRUPT, 0},
        {QQ_TICKS_NPATHS, INV, QQ_ECORRUPT, 0},
        {QQ_TICKS_RDTSCP, QQ_CALIB_KNOWN + 1, QQ_ECORRUPT, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        qq__store_u32(img + pl + 40, cases[i].path);
        qq__store_u32(img + pl + 44, cases[i].flags);
        CHECK_INT_EQ(spit("patched.qq", img, n), 0);
        struct qq_file *f = NULL;
        int rc = qq_file_open("patched.qq", &f);
        if (rc != cases[i].rc)
            TEST_FAIL_AT("case %zu: open gave %d (%s), expected %d", i, rc,
                         f ? qq_file_errmsg(f) : "", cases[i].rc);
        if (rc == 0)
            CHECK_INT_EQ(qq_file_ticks_variant(f, 0), cases[i].variant);
        else if (f)
            CHECK(strstr(qq_file_errmsg(f), "tick path") != NULL);
        qq_file_close(f);
    }
    free(img);
}

#if defined(__x86_64__) && defined(__linux__)
#include <sys/prctl.h>

/* A process whose rdtsc faults (prctl PR_TSC_SIGSEGV, as a sandbox or a
 * record-and-replay tool sets it): QQ takes the clock and never executes
 * rdtsc, even when QQ_TICKS asks for it. Forced here on any x86-64 Linux. */
static int no_tsc_child(const char *force, const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0)
            _exit(77);
        /* As a process started so: nothing chosen yet (the fork inherited
         * this test's path). */
        qq__st.path = QQ_TICKS_UNSET;
        if (force)
            setenv(QQ_TICKS_ENV, force, 1);
        else
            unsetenv(QQ_TICKS_ENV);
        /* A read before QQInit chooses the path too. */
        (void)qq_ticks();
        qq_init(100, 1);
        int k = QQAddState("s");
        QQStateOn(k);
        QQStateOff(k);
        QQMark(QQAddMark("m"));
        _exit(qq_out(path, 0, 1) == 0 ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_qq_ticks_no_tsc(void)
{
    if (TEST_ASAN) {
        /* The sanitizer's own runtime calls the vDSO's clock_gettime, which
         * faults where rdtsc does: nothing runs there. The plain build
         * runs this. */
        printf("sanitizer build: the no-counter path is the plain build's\n");
        return;
    }
    static const char *const force[] = {NULL, "lfence", "rdtscp"};
    for (size_t i = 0; i < sizeof force / sizeof force[0]; i++) {
        int rc = no_tsc_child(force[i], "notsc.qq");
        if (rc == 77) {
            printf("PR_SET_TSC refused here: the no-counter path was not tried\n");
            return;
        }
        CHECK_INT_EQ(rc, 0); /* 139: a SIGSEGV, rdtsc executed */
        struct qq_file *f = NULL;
        if (rc != 0 || qq_file_open("notsc.qq", &f) != 0) {
            qq_file_close(f);
            continue;
        }
        struct qq_calib c;
        CHECK_INT_EQ(qq_file_calib(f, 0, &c), 1);
        CHECK_INT_EQ(c.path, QQ_TICKS_CLOCK);
        CHECK((c.path_flags & QQ_CALIB_TSC) == 0);
        CHECK(!force[i] || (c.path_flags & QQ_CALIB_REFUSED));
        CHECK_DBL_NEAR(qq_file_node(f, 0)->mhz, 1000.0, 1e-9);
        printf("no usable TSC, QQ_TICKS=%s: %s, flags 0x%x\n", force[i] ? force[i] : "(unset)",
               qq_tick_path_name((int)c.path), c.path_flags);
        qq_file_close(f);
    }
}
#endif

int main(void)
{
    RUN(test_qq_ticks_decide);
    RUN(test_qq_ticks_this_machine);
    RUN(test_qq_ticks_forced);
    RUN(test_qq_ticks_clock_rate);
    RUN(test_qq_ticks_file);
#if defined(__x86_64__) && defined(__linux__)
    RUN(test_qq_ticks_no_tsc);
#endif
    return TEST_DONE();
}
