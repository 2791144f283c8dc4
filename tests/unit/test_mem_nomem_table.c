/* test_mem_nomem_table.c - a thread whose address table cannot be mapped (the address space is
 * full) records in the first thread's table under its lock: counts and peak stay exact, frees
 * across the two threads find their blocks, no table is added, and a mapping that failed is not
 * tried again on every call. */
#define _DEFAULT_SOURCE 1 /* syscall() */
#define QQ_ENABLE       1

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mem_test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

#define MEM_KEY key

enum { BLOCKS = 40, SIZE = 48 };

static int key;
static pthread_barrier_t ready, limited, done;
static void *from_main;   /* a block of the first thread, freed by the second */
static void *from_second; /* a block of the second thread, freed by the first */
static int second_nulls;  /* allocations that failed in the second thread */
static atomic_int maps;   /* calls of mmap() from the library (below) */

/* The library's mmap(), counted: this definition in the program takes the
 * place of libc's for QQ's own calls (libc's malloc and threads use libc's
 * internal one). The system call itself, as libc's does. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    atomic_fetch_add(&maps, 1);
    long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
    return r == -1 ? MAP_FAILED : (void *)r;
}

/* The address space in use now, in bytes (VmSize), or -1. */
static long long vm_bytes(void)
{
    FILE *fp = (fopen)("/proc/self/status", "r");
    char line[256];
    long long kb = -1;
    while (fp && fgets(line, sizeof line, fp))
        if (sscanf(line, "VmSize: %lld kB", &kb) == 1)
            break;
    if (fp)
        (fclose)(fp);
    return kb < 0 ? -1 : kb * 1024;
}

/* Grow this thread's stack now, while mappings can still grow. */
static __attribute__((noinline)) int touch_stack(void)
{
    volatile char deep[256 * 1024];
    memset((char *)deep, 1, sizeof deep);
    return deep[sizeof deep - 1];
}

/* The second thread: its first memory call comes once no new mapping can
 * be made, so its table cannot be created. */
static void *second(void *arg)
{
    (void)arg;
    /* libc's own arena and cache for this thread, untracked, before the
     * limit: libc could not map them after it. */
    void *volatile warm = (malloc)(64 * 1024); /* volatile: kept, not folded away */
    (free)(warm);
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&limited);
    void *p[BLOCKS];
    for (int i = 0; i < BLOCKS; i++) {
        p[i] = malloc(SIZE);
        second_nulls += p[i] == NULL;
    }
    for (int i = 1; i < BLOCKS; i++)
        free(p[i]);
    from_second = p[0];
    free(from_main);
    pthread_barrier_wait(&done);
    return NULL;
}

static void test_thread_without_a_table(void)
{
    key = MemAddKey("nomem_table");
    from_main = malloc(SIZE); /* the first thread records: its table exists */
    CHECK(from_main != NULL);
    CHECK_INT_EQ(qq__mem_tables(), 1);
    touch_stack();
    pthread_t t;
    CHECK_INT_EQ(pthread_barrier_init(&ready, NULL, 2), 0);
    CHECK_INT_EQ(pthread_barrier_init(&limited, NULL, 2), 0);
    CHECK_INT_EQ(pthread_barrier_init(&done, NULL, 2), 0);
    CHECK_INT_EQ(pthread_create(&t, NULL, second, NULL), 0);
    pthread_barrier_wait(&ready);

    struct rlimit old;
    CHECK_INT_EQ(getrlimit(RLIMIT_AS, &old), 0);
    long long vm = vm_bytes();
    CHECK(vm > 0);
    struct rlimit tight = {(rlim_t)vm, old.rlim_max};
    int limited_ok = setrlimit(RLIMIT_AS, &tight) == 0;
    CHECK(limited_ok);
    /* While limited, nothing here allocates or maps. */
    atomic_store(&maps, 0);
    pthread_barrier_wait(&limited);
    pthread_barrier_wait(&done);
    int maps_limited = atomic_load(&maps);
    CHECK_INT_EQ(setrlimit(RLIMIT_AS, &old), 0);
    pthread_join(t, NULL);

    /* Its table (one try) and the first table's counters for its key (one
     * try, then the key's own counters): not a try on each of its 80 calls. */
    CHECK(maps_limited >= 1);
    CHECK(maps_limited <= 4);

    CHECK_INT_EQ(second_nulls, 0);
    /* The fallback: no table was added for the second thread. */
    CHECK_INT_EQ(qq__mem_tables(), 1);
    free(from_second);
    struct qq_mem_row r = row_of(key);
    CHECK_INT_EQ(r.allocs, 1 + BLOCKS);
    CHECK_INT_EQ(r.frees, 1 + BLOCKS);
    CHECK_INT_EQ(r.alloc_bytes, 0);
    CHECK_INT_EQ(r.double_frees, 0);
    CHECK_INT_EQ(r.peak_bytes, (1 + BLOCKS) * SIZE);
    CHECK_INT_EQ(foreign_now(), 0);
    pthread_barrier_destroy(&ready);
    pthread_barrier_destroy(&limited);
    pthread_barrier_destroy(&done);
}

/* The control: with mappings allowed, a new thread gets a table of its own. */
static void test_thread_with_a_table(void)
{
    pthread_t t;
    CHECK_INT_EQ(pthread_barrier_init(&ready, NULL, 2), 0);
    CHECK_INT_EQ(pthread_barrier_init(&limited, NULL, 2), 0);
    CHECK_INT_EQ(pthread_barrier_init(&done, NULL, 2), 0);
    from_main = malloc(SIZE);
    CHECK_INT_EQ(pthread_create(&t, NULL, second, NULL), 0);
    pthread_barrier_wait(&ready);
    pthread_barrier_wait(&limited);
    pthread_barrier_wait(&done);
    CHECK_INT_EQ(qq__mem_tables(), 2);
    pthread_join(t, NULL);
    free(from_second);
    struct qq_mem_row r = row_of(key);
    CHECK_INT_EQ(r.alloc_bytes, 0);
    CHECK_INT_EQ(r.frees, r.allocs);
    pthread_barrier_destroy(&ready);
    pthread_barrier_destroy(&limited);
    pthread_barrier_destroy(&done);
}

int main(void)
{
    /* Plain build only: AddressSanitizer's shadow memory is terabytes of
     * reserved address space, so a limit on it stops ASan itself. */
    if (TEST_ASAN) {
        printf("SKIP: an address-space limit stops AddressSanitizer's own mappings\n");
        return TEST_SKIP_CODE;
    }
    if (test_rlimit_as_ignored()) {
        printf("SKIP: the address-space limit is not enforced here, no mapping fails\n");
        return TEST_SKIP_CODE;
    }
    RUN(test_thread_without_a_table);
    RUN(test_thread_with_a_table);
    return TEST_DONE();
}
