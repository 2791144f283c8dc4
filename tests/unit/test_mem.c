/* test_mem.c - memory keys: exact byte and object counts for known allocation patterns. */
#define QQ_ENABLE 1

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"
#include "mem_test.h"
#include "test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

/* The keys of this file; MEM_KEY switches between them below. */
static int key_a, key_b;

#define MEM_KEY key_a

static void test_mem_keys(void)
{
    CHECK_INT_EQ(MemAddKey("default"), 0);
    CHECK(key_a > 0);
    CHECK(key_b > 0);
    CHECK(key_a != key_b);
    CHECK_INT_EQ(MemAddKey("alpha"), key_a);
    CHECK_INT_EQ(MemAddKey("beta"), key_b);
}

static void test_mem_snapshot_unused(void)
{
    MemReset();
    struct qq__mem_snapshot s;
    CHECK_INT_EQ(qq__mem_snapshot(&s), 0);
    CHECK_INT_EQ(s.nrows, 0);
    CHECK(s.rows == NULL);
    qq__mem_snapshot_free(&s);

    void *p = malloc(8);
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    CHECK(s.nrows >= 3);
    if (s.nrows >= 3) {
        CHECK_STR_EQ(s.rows[0].name, "default");
        CHECK_STR_EQ(s.rows[key_a].name, "alpha");
        CHECK_STR_EQ(s.rows[key_b].name, "beta");
        CHECK_U64_EQ(s.rows[key_a].alloc_bytes, 8);
    }
    CHECK(s.process_bytes > 0);
    qq__mem_snapshot_free(&s);
    free(p);

    /* A free alone makes a table too (a foreign one here: the first
     * thread's calls leave no flag, only their counts). */
    void *f = (malloc)(8);
    MemReset();
    free(f);
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);
    CHECK_U64_EQ(s.foreign_frees, 1);
    qq__mem_snapshot_free(&s);
}

static void test_mem_malloc_free(void)
{
    MemReset();
    char *p = malloc(100);
    char *q = malloc(28);
    CHECK(p && q);
    memset(p, 1, 100);
    memset(q, 2, 28);
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 128);
    CHECK_U64_EQ(r.allocs, 2);
    CHECK_U64_EQ(r.frees, 0);
    CHECK_U64_EQ(r.peak_bytes, 128);
    free(p);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 28);
    CHECK_U64_EQ(r.frees, 1);
    CHECK_U64_EQ(r.peak_bytes, 128);
    free(q);
    free(NULL); /* no-op, not counted */
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.allocs, 2);
    CHECK_U64_EQ(r.frees, 2);
    CHECK_U64_EQ(r.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    /* The other keys saw nothing. */
    r = row_of(key_b);
    CHECK_U64_EQ(r.allocs, 0);
    r = row_of(0);
    CHECK_U64_EQ(r.allocs, 0);
}

static void test_mem_realloc(void)
{
    MemReset();
    char *p = realloc(NULL, 100); /* = malloc */
    CHECK(p != NULL);
    memset(p, 'x', 100);
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 100);
    CHECK_U64_EQ(r.allocs, 1);

    p = realloc(p, 1000); /* growth: one free of 100, one alloc of 1000 */
    CHECK(p != NULL);
    CHECK(p[0] == 'x' && p[99] == 'x');
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 1000);
    CHECK_U64_EQ(r.allocs, 2);
    CHECK_U64_EQ(r.frees, 1);
    CHECK_U64_EQ(r.peak_bytes, 1000);

    p = realloc(p, 10); /* shrink */
    CHECK(p != NULL);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 10);
    CHECK_U64_EQ(r.peak_bytes, 1000);

    /* A move: keep a neighbour so the block cannot grow in place, and
     * grow past the mmap threshold. */
    char *old = p;
    char *blocker = malloc(16);
    p = realloc(p, (size_t)4 << 20);
    CHECK(p != NULL);
    CHECK(p[0] == 'x' && p[9] == 'x');
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, ((uint64_t)4 << 20) + 16);
    CHECK_U64_EQ(r.peak_bytes, ((uint64_t)4 << 20) + 16);
    if (p != old) {
        /* The old address is a freed block now: freeing it is a double
         * free, counted and not passed on. */
        free(old);
        r = row_of(key_a);
        CHECK_U64_EQ(r.double_frees, 1);
        CHECK_U64_EQ(r.alloc_bytes, ((uint64_t)4 << 20) + 16);
    }
    free(blocker);

    /* realloc(p, 0): frees p, returns NULL. */
    uint64_t frees_before = row_of(key_a).frees;
    p = realloc(p, 0);
    CHECK(p == NULL);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.frees, frees_before + 1);
}

static void test_mem_realloc_other_key(void)
{
    MemReset();
    char *p = malloc(300); /* key_a */
#undef MEM_KEY
#define MEM_KEY key_b
    p = realloc(p, 500); /* the new size goes to key_b, the old leaves key_a */
    CHECK(p != NULL);
    struct qq_mem_row a = row_of(key_a), b = row_of(key_b);
    CHECK_U64_EQ(a.alloc_bytes, 0);
    CHECK_U64_EQ(a.allocs, 1);
    CHECK_U64_EQ(a.frees, 1);
    CHECK_U64_EQ(a.peak_bytes, 300);
    CHECK_U64_EQ(b.alloc_bytes, 500);
    CHECK_U64_EQ(b.allocs, 1);
    CHECK_U64_EQ(b.frees, 0);
    free(p);
#undef MEM_KEY
#define MEM_KEY key_a
    b = row_of(key_b);
    CHECK_U64_EQ(b.alloc_bytes, 0);
    CHECK_U64_EQ(b.frees, 1);
}

static void test_mem_calloc(void)
{
    MemReset();
    unsigned char *p = calloc(10, 12);
    CHECK(p != NULL);
    int zero = 1;
    for (int i = 0; p && i < 120; i++)
        zero &= p[i] == 0;
    CHECK(zero);
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 120);
    CHECK_U64_EQ(r.allocs, 1);

    errno = 0;
    /* count * size overflows (volatile: GCC rejects a constant one) */
    volatile size_t half = SIZE_MAX / 2;
    void *big = calloc(half, 3);
    CHECK(big == NULL);
    CHECK_INT_EQ(errno, ENOMEM);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 120);
    CHECK_U64_EQ(r.allocs, 1);
    free(big);
    free(p);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 0);
}

static void test_mem_strdup(void)
{
    MemReset();
    char *s = strdup("hello");
    char *t = strndup("hello, world", 5);
    char *u = strndup("hi", 10);
    CHECK_STR_EQ(s, "hello");
    CHECK_STR_EQ(t, "hello");
    CHECK_STR_EQ(u, "hi");
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 6 + 6 + 3);
    CHECK_U64_EQ(r.allocs, 3);
    free(s);
    free(t);
    free(u);
    CHECK_U64_EQ(row_of(key_a).alloc_bytes, 0);
}

static void test_mem_aligned(void)
{
    MemReset();
    void *p = aligned_alloc(64, 256);
    CHECK(p != NULL);
    CHECK(((uintptr_t)p & 63) == 0);
    void *q = NULL;
    CHECK_INT_EQ(posix_memalign(&q, 128, 300), 0);
    CHECK(q != NULL);
    CHECK(((uintptr_t)q & 127) == 0);
#if !TEST_ASAN /* ASan aborts on a bad alignment instead of returning it */
    void *bad = NULL;
    CHECK_INT_EQ(posix_memalign(&bad, 3, 10), EINVAL); /* not a power of 2 */
    CHECK(bad == NULL);
#endif
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 556);
    CHECK_U64_EQ(r.allocs, 2);
    free(p);
    free(q);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.frees, 2);
}

/* A C "class" with constructor and destructor functions, objects on the
 * stack and in a pool, as the paper instruments C++ constructors. */
struct cell {
    double v[4];
};

static void cell_init(struct cell *c)
{
    memset(c, 0, sizeof *c);
    MEMADDOBJECT(c, sizeof *c);
}

static void cell_fini(struct cell *c)
{
    MEMFREEOBJECT(c, sizeof *c);
}

static void test_mem_objects(void)
{
    MemReset();
    struct cell a, b, c;
    cell_init(&a);
    cell_init(&b);
    cell_init(&c);
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.obj_size, sizeof(struct cell));
    CHECK_U64_EQ(r.created, 3);
    CHECK_U64_EQ(r.deleted, 0);
    CHECK_U64_EQ(r.obj_bytes, 3 * sizeof(struct cell));
    CHECK_U64_EQ(r.peak_bytes, 3 * sizeof(struct cell));
    CHECK_U64_EQ(r.alloc_bytes, 0);
    cell_fini(&b);
    r = row_of(key_a);
    CHECK_U64_EQ(r.deleted, 1);
    CHECK_U64_EQ(r.obj_bytes, 2 * sizeof(struct cell));
    CHECK_U64_EQ(r.peak_bytes, 3 * sizeof(struct cell));

    /* A pool: one allocation, objects inside it; both columns count. */
    struct cell *pool = malloc(10 * sizeof *pool);
    CHECK(pool != NULL);
    for (int i = 0; pool && i < 10; i++)
        cell_init(&pool[i]);
    r = row_of(key_a);
    CHECK_U64_EQ(r.created, 13);
    CHECK_U64_EQ(r.obj_bytes, 12 * sizeof(struct cell));
    CHECK_U64_EQ(r.alloc_bytes, 10 * sizeof(struct cell));
    CHECK_U64_EQ(r.peak_bytes, 22 * sizeof(struct cell));
    for (int i = 0; pool && i < 10; i++)
        cell_fini(&pool[i]);
    free(pool); /* the pool's address equals pool[0]'s: objects are not in the table */
    cell_fini(&a);
    cell_fini(&c);
    r = row_of(key_a);
    CHECK_U64_EQ(r.created, 13);
    CHECK_U64_EQ(r.deleted, 13);
    CHECK_U64_EQ(r.obj_bytes, 0);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.frees, 1);
    CHECK_U64_EQ(r.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
}

/* Two keys in one file: MEM_KEY in force where each call is written. */
static void *alloc_b(size_t n);
static void free_b(void *p);

static void test_mem_two_keys(void)
{
    MemReset();
    void *a1 = malloc(1000);
    void *b1 = alloc_b(2000);
    void *b2 = alloc_b(30);
    struct qq_mem_row a = row_of(key_a), b = row_of(key_b);
    CHECK_U64_EQ(a.alloc_bytes, 1000);
    CHECK_U64_EQ(a.allocs, 1);
    CHECK_U64_EQ(b.alloc_bytes, 2030);
    CHECK_U64_EQ(b.allocs, 2);
    /* Freed under key_a's MEM_KEY, but charged to key_b: bytes leave key_b. */
    free(b1);
    a = row_of(key_a);
    b = row_of(key_b);
    CHECK_U64_EQ(a.alloc_bytes, 1000);
    CHECK_U64_EQ(a.frees, 0);
    CHECK_U64_EQ(b.alloc_bytes, 30);
    CHECK_U64_EQ(b.frees, 1);
    free_b(a1);
    free_b(b2);
    a = row_of(key_a);
    b = row_of(key_b);
    CHECK_U64_EQ(a.alloc_bytes, 0);
    CHECK_U64_EQ(b.alloc_bytes, 0);
    CHECK_U64_EQ(a.peak_bytes, 1000);
    CHECK_U64_EQ(b.peak_bytes, 2030);
    CHECK_U64_EQ(row_of(0).allocs, 0);
}

static void test_mem_peak(void)
{
    MemReset();
    void *p = malloc(1000);
    free(p);
    p = malloc(500);
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 500);
    CHECK_U64_EQ(r.peak_bytes, 1000);
    void *q = malloc(600);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 1100);
    CHECK_U64_EQ(r.peak_bytes, 1100);
    free(p);
    free(q);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.peak_bytes, 1100);
}

static void test_mem_foreign_and_double(void)
{
    MemReset();
    /* Allocated behind the profiler's back: (malloc) is not the macro. */
    void *f = (malloc)(50);
    CHECK(f != NULL);
    free(f); /* foreign: counted, passed to the real free */
    CHECK_U64_EQ(foreign_now(), 1);
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.frees, 0);
    CHECK_U64_EQ(r.alloc_bytes, 0);

    /* realloc of a foreign block: a foreign free, then a tracked block. */
    void *g = (malloc)(20);
    g = realloc(g, 40);
    CHECK(g != NULL);
    CHECK_U64_EQ(foreign_now(), 2);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 40);
    free(g);

    /* Double free: counted against the key the block was charged to, and
     * not passed on (which would abort). */
    void *p = alloc_b(10);
    free(p);
    free(p);
    r = row_of(key_b);
    CHECK_U64_EQ(r.double_frees, 1);
    CHECK_U64_EQ(r.frees, 1);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(row_of(key_a).double_frees, 0);
    /* realloc of a freed block: refused, counted. */
    errno = 0;
    CHECK(realloc(p, 20) == NULL);
    CHECK_INT_EQ(errno, EINVAL);
    CHECK_U64_EQ(row_of(key_b).double_frees, 2);
    CHECK_U64_EQ(foreign_now(), 2);

    /* An address handed out again is live again: its free is an ordinary
     * one. */
    void *q = malloc(10);
    free(q);
    void *q2 = malloc(10);
    free(q2);
    r = row_of(key_a);
    CHECK_U64_EQ(r.double_frees, 0);
}

/* A block freed behind the profiler's back ((free) is not the macro) and
 * handed out again: its old record leaves its key. */
static void test_mem_stale(void)
{
    MemReset();
    void *p = malloc(64);
    (free)(p);
    void *q = malloc(64); /* usually the same address */
    struct qq_mem_row r = row_of(key_a);
    if (q == p) {
        CHECK_U64_EQ(r.alloc_bytes, 64);
        CHECK_U64_EQ(r.allocs, 2);
        CHECK_U64_EQ(r.frees, 1);
    } else {
        CHECK_U64_EQ(r.alloc_bytes, 128);
    }
    free(q);
}

static void test_mem_default_key(void)
{
    MemReset();
#undef MEM_KEY /* back to the header's default key */
    void *p = malloc(77);
    struct qq_mem_row r = row_of(0);
    CHECK_U64_EQ(r.alloc_bytes, 77);
    CHECK_U64_EQ(r.allocs, 1);
    CHECK_U64_EQ(row_of(key_a).allocs, 0);
    free(p);
    CHECK_U64_EQ(row_of(0).alloc_bytes, 0);
    /* Out-of-range keys (e.g. -1 from a file compiled with profiling off)
     * count against the default key. */
    p = MemMalloc(-1, 5);
    CHECK_U64_EQ(row_of(0).alloc_bytes, 5);
    MemFree(-1, p);
    MemAddObject(12345, NULL, 8);
    CHECK_U64_EQ(row_of(0).created, 1);
    MemFreeObject(12345, NULL, 8);
#define MEM_KEY key_a
}

static void test_mem_many(void)
{
    /* Past several table growths (to 200000 live blocks), with frees in
     * between. */
    MemReset();
    enum { N = 200000 };
    void **v = (malloc)(N * sizeof *v);
    uint64_t want = 0;
    for (int i = 0; i < N; i++) {
        v[i] = malloc((size_t)(i % 97) + 1);
        want += (uint64_t)(i % 97) + 1;
    }
    struct qq_mem_row r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, want);
    CHECK_U64_EQ(r.peak_bytes, want);
    for (int i = 0; i < N; i += 2) {
        free(v[i]);
        want -= (uint64_t)(i % 97) + 1;
    }
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, want);
    for (int i = 1; i < N; i += 2)
        free(v[i]);
    r = row_of(key_a);
    CHECK_U64_EQ(r.alloc_bytes, 0);
    CHECK_U64_EQ(r.allocs, N);
    CHECK_U64_EQ(r.frees, N);
    CHECK_U64_EQ(r.double_frees, 0);
    CHECK_U64_EQ(foreign_now(), 0);
    (free)(v);
}

/* Find the row NAME of a printed table; read up to 7 numbers after it and
 * return how many there were (0 if no such row). */
static int parse_row(const char *text, const char *name, unsigned long v[7])
{
    memset(v, 0, 7 * sizeof v[0]);
    const char *line = text;
    size_t nl = strlen(name);
    while (line && *line) {
        if (strncmp(line, name, nl) == 0 && line[nl] == ' ')
            return sscanf(line + nl, "%lu %lu %lu %lu %lu %lu %lu", &v[0], &v[1], &v[2], &v[3],
                          &v[4], &v[5], &v[6]);
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return 0;
}

static void test_mem_print(void)
{
    MemReset();
    /* Slide 23's Synapse-like row: 44-byte objects, and allocations. */
    for (int i = 0; i < 100; i++)
        MemAddObject(key_b, NULL, 44);
    void *blk = alloc_b(3000);
    void *a1 = malloc(120);
    struct cell c;
    cell_init(&c);

    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (!fp)
        return;
    MemPrint(fp);
    long len = ftell(fp);
    rewind(fp);
    char *text = (malloc)((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, fp);
    text[got] = '\0';
    fclose(fp);

    CHECK_STR_CONTAINS(text, "Memory Allocation Total Allocated ");
    unsigned long total = 0;
    CHECK(sscanf(text, "Memory Allocation Total Allocated %lu KBytes", &total) == 1);
    /* 4400 + 3000 + 120 + 32 bytes -> 7552 -> 8 KB (rounded up) */
    CHECK_INT_EQ(total, 8);
    CHECK_STR_CONTAINS(text, "Item");
    CHECK_STR_CONTAINS(text, "Created");
    CHECK_STR_CONTAINS(text, "Key\n1 - Internal name");

    unsigned long v[7];
    CHECK_INT_EQ(parse_row(text, "beta", v), 7);
    CHECK_INT_EQ(v[0], 44);  /* object size */
    CHECK_INT_EQ(v[1], 100); /* created */
    CHECK_INT_EQ(v[2], 0);   /* deleted */
    CHECK_INT_EQ(v[3], 5);   /* 4400 B of objects */
    CHECK_INT_EQ(v[4], 3);   /* 3000 B allocated */
    CHECK_INT_EQ(v[5], 8);   /* 7400 B in all */
    CHECK_INT_EQ(v[6], 8);   /* max */
    CHECK_INT_EQ(parse_row(text, "alpha", v), 7);
    CHECK_INT_EQ(v[0], sizeof(struct cell));
    CHECK_INT_EQ(v[1], 1);
    CHECK_INT_EQ(v[2], 0);
    CHECK_INT_EQ(v[3], 1);
    CHECK_INT_EQ(v[4], 1);
    CHECK_INT_EQ(v[5], 1);
    CHECK_INT_EQ(v[6], 1);
    CHECK_INT_EQ(parse_row(text, "default", v), 7);
    CHECK_INT_EQ(v[1], 0);
    CHECK_INT_EQ(v[5], 0);
    /* The exact-bytes table: name, allocs, frees, double, obj, alloc, max. */
    const char *exact = strstr(text, "Max bytes");
    CHECK(exact != NULL);
    CHECK(exact && parse_row(exact, "beta", v) == 6);
    CHECK_INT_EQ(v[0], 1);
    CHECK_INT_EQ(v[1], 0);
    CHECK_INT_EQ(v[2], 0);
    CHECK_INT_EQ(v[3], 4400);
    CHECK_INT_EQ(v[4], 3000);
    CHECK_INT_EQ(v[5], 7400);
    CHECK_STR_CONTAINS(text, "Tracked bytes 7552,");
    CHECK_STR_CONTAINS(text, "foreign frees 0, double frees 0");
    (free)(text);

    cell_fini(&c);
    free(a1);
    free(blk);
    for (int i = 0; i < 100; i++)
        MemFreeObject(key_b, NULL, 44);
}

static void test_mem_print_table_direct(void)
{
    /* The reader's path: a table that came out of a file. */
    const struct qq_mem_row rows[2] = {
        {"Brain", 120, 1, 0, 120, 0, 120, 0, 0, 0, 120},
        {"Synapse", 44, 10000, 0, 440000, 120000, 560000, 5, 2, 1, 560000},
    };
    struct qq_mem_table t = {2, rows, 3, 4096 * 1000};
    FILE *fp = tmpfile();
    if (!fp) {
        CHECK(fp != NULL);
        return;
    }
    qq_mem_print_table(fp, &t);
    long len = ftell(fp);
    rewind(fp);
    char *text = (malloc)((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, fp);
    text[got] = '\0';
    fclose(fp);
    unsigned long v[7];
    CHECK_INT_EQ(parse_row(text, "Brain", v), 7);
    CHECK_INT_EQ(v[0], 120);
    CHECK_INT_EQ(v[3], 1);
    CHECK_INT_EQ(v[4], 0);
    CHECK_INT_EQ(v[5], 1);
    CHECK_INT_EQ(parse_row(text, "Synapse", v), 7);
    CHECK_INT_EQ(v[1], 10000);
    CHECK_INT_EQ(v[3], 430); /* as on slide 23 */
    CHECK_INT_EQ(v[4], 118);
    CHECK_INT_EQ(v[5], 547);
    CHECK_INT_EQ(v[6], 547);
    CHECK_STR_CONTAINS(text, "Memory Allocation Total Allocated 547 KBytes");
    CHECK_STR_CONTAINS(text, "process 4000 KBytes");
    CHECK_STR_CONTAINS(text, "foreign frees 3, double frees 1");
    (free)(text);
}

static void test_mem_process(void)
{
    long before = GetMemoryUsed();
    CHECK(before > 0);
    CHECK_INT_EQ(before, qq_mem_process_bytes());
    /* 64 MB, untouched: VmSize grows by it (RSS would not). Through a
     * volatile pointer, or the compiler drops the malloc/free pair. */
    static void *volatile big;
    big = (malloc)((size_t)64 << 20);
    long after = GetMemoryUsed();
    CHECK(big != NULL);
    CHECK(after >= before + (32L << 20));
    (free)(big);
}

int main(void)
{
    key_a = MemAddKey("alpha");
    key_b = MemAddKey("beta");
    RUN(test_mem_keys);
    RUN(test_mem_snapshot_unused);
    RUN(test_mem_malloc_free);
    RUN(test_mem_realloc);
    RUN(test_mem_realloc_other_key);
    RUN(test_mem_calloc);
    RUN(test_mem_strdup);
    RUN(test_mem_aligned);
    RUN(test_mem_objects);
    RUN(test_mem_two_keys);
    RUN(test_mem_peak);
    RUN(test_mem_foreign_and_double);
    RUN(test_mem_stale);
    RUN(test_mem_default_key);
    RUN(test_mem_many);
    RUN(test_mem_print);
    RUN(test_mem_print_table_direct);
    RUN(test_mem_process);
    MemReset();
    return TEST_DONE();
}

/* The second "file": everything below counts against key_b. */
#undef MEM_KEY
#define MEM_KEY key_b

static void *alloc_b(size_t n)
{
    return malloc(n);
}
static void free_b(void *p)
{
    free(p);
}
