/* test.h - assertions for the unit tests: print both operands, survive NDEBUG. */
#ifndef QQ_TEST_H
#define QQ_TEST_H

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 in an AddressSanitizer build (GCC or Clang): its shadow memory needs the
 * address space, so tests that limit it (RLIMIT_AS) skip there. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifndef TEST_ASAN
#define TEST_ASAN 0
#endif

/* 1 in a ThreadSanitizer build: its runtime is the program's malloc too. */
#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#ifndef TEST_TSAN
#define TEST_TSAN 0
#endif

/* 1 where an address-space limit (RLIMIT_AS) is accepted but not enforced:
 * qemu-user returns 0 from setrlimit(RLIMIT_AS) and ignores it, since it
 * would bind the emulator's own memory. The cross build's ctest sets
 * QQ_TEST_RLIMIT_AS_IGNORED=1 (tests/cmake/cross.cmake); tests that make
 * allocations fail through that limit skip there. */
static inline int test_rlimit_as_ignored(void)
{
    const char *e = getenv("QQ_TEST_RLIMIT_AS_IGNORED");
    return e && !strcmp(e, "1");
}

/* Exit code CTest reads as "skipped" (SKIP_RETURN_CODE). */
#define TEST_SKIP_CODE 77

static int test__failures;

#define TEST_FAIL_AT(...)                                                                          \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                                      \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        test__failures++;                                                                          \
    } while (0)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            TEST_FAIL_AT("%s", #cond);                                                             \
    } while (0)

#define CHECK_INT_EQ(a, b)                                                                         \
    do {                                                                                           \
        long long test__a = (long long)(a), test__b = (long long)(b);                              \
        if (test__a != test__b)                                                                    \
            TEST_FAIL_AT("%s == %s: %lld != %lld", #a, #b, test__a, test__b);                      \
    } while (0)

#define CHECK_U64_EQ(a, b)                                                                         \
    do {                                                                                           \
        uint64_t test__a = (uint64_t)(a), test__b = (uint64_t)(b);                                 \
        if (test__a != test__b)                                                                    \
            TEST_FAIL_AT("%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, test__a, test__b);           \
    } while (0)

#define CHECK_DBL_NEAR(a, b, tol)                                                                  \
    do {                                                                                           \
        double test__a = (double)(a), test__b = (double)(b);                                       \
        if (!(fabs(test__a - test__b) <= (tol)))                                                   \
            TEST_FAIL_AT("%s ~= %s: %.17g vs %.17g (tolerance %g)", #a, #b, test__a, test__b,      \
                         (double)(tol));                                                           \
    } while (0)

#define CHECK_STR_EQ(a, b)                                                                         \
    do {                                                                                           \
        const char *test__a = (a), *test__b = (b);                                                 \
        if (!test__a || !test__b || strcmp(test__a, test__b) != 0)                                 \
            TEST_FAIL_AT("%s == %s: \"%s\" != \"%s\"", #a, #b, test__a ? test__a : "(null)",       \
                         test__b ? test__b : "(null)");                                            \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                            \
    do {                                                                                           \
        const char *test__h = (hay), *test__n = (needle);                                          \
        if (!test__h || !strstr(test__h, test__n))                                                 \
            TEST_FAIL_AT("%s contains \"%s\": got \"%s\"", #hay, test__n,                          \
                         test__h ? test__h : "(null)");                                            \
    } while (0)

/* Files in the working directory named NAME.tmp.* (a temporary that a
 * writer such as QQOut left behind). */
static inline int test_temporaries(const char *name)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s.tmp.", name);
    int n = 0;
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

/* A seeded stream of pseudo-random numbers (xorshift64): the same files and
 * cases on every run. *STATE must not start at 0. */
static inline uint64_t test_rand(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Run one test function, print its name. */
#define RUN(fn)                                                                                    \
    do {                                                                                           \
        int test__before = test__failures;                                                         \
        fn();                                                                                      \
        printf("%s %s\n", test__failures == test__before ? "ok  " : "FAIL", #fn);                  \
    } while (0)

/* Last line of main: a summary and the exit status. */
#define TEST_DONE()                                                                                \
    (printf("%s: %d failure%s\n", __FILE__, test__failures, test__failures == 1 ? "" : "s"),       \
     test__failures ? 1 : 0)

#endif /* QQ_TEST_H */
