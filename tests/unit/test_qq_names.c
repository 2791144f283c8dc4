/* test_qq_names.c - the name index behind QQAdd* and MemAddKey: same name same key, types apart,
 * 10^5 names, a table that moves, and the answers kept when the index has no memory. */
#define QQ_ENABLE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qq.h"
#include "qq_internal.h"
#include "qq_mem.h"
#include "test.h"

#define MANY 100000

struct entry {
    int pad;
    uint32_t type;
    const char *name;
};

static struct qq__name_table table_of(const struct entry *v, uint32_t n)
{
    struct qq__name_table t = {v, sizeof *v, offsetof(struct entry, name),
                               offsetof(struct entry, type), n};
    return t;
}

/* MANY names "n<i>" (type i % 3), each looked up right after it is
 * appended, in a table that is realloc'd as it grows: every name is found
 * at its own entry, names never appended are not found. */
static char (*many_names(void))[16]
{
    char(*names)[16] = malloc(MANY * sizeof *names);
    CHECK(names != NULL);
    for (int i = 0; i < MANY; i++)
        snprintf(names[i], sizeof names[i], "n%d", i);
    return names;
}

static void test_index_grows_with_its_table(void)
{
    char(*names)[16] = many_names();
    struct entry *v = NULL;
    struct qq__name_index x = {0};
    uint32_t cap = 0;
    int wrong = 0;
    for (uint32_t i = 0; i < MANY; i++) {
        struct qq__name_table t = table_of(v, i);
        wrong += qq__name_index_find(&x, &t, names[i], i % 3) != -1;
        if (i == cap) {
            cap = cap ? 2 * cap : 1;
            v = realloc(v, cap * sizeof *v); /* the table moves */
            CHECK(v != NULL);
        }
        v[i] = (struct entry){0, i % 3, names[i]};
        t = table_of(v, i + 1);
        wrong += qq__name_index_find(&x, &t, names[i], i % 3) != (int64_t)i;
    }
    CHECK_INT_EQ(wrong, 0);
    struct qq__name_table t = table_of(v, MANY);
    for (uint32_t i = 0; i < MANY; i++) {
        wrong += qq__name_index_find(&x, &t, names[i], i % 3) != (int64_t)i;
        wrong += qq__name_index_find(&x, &t, names[i], i % 3 + 1) != -1; /* other type */
    }
    CHECK_INT_EQ(wrong, 0);
    CHECK(qq__name_index_find(&x, &t, "n100000", 1) == -1);
    CHECK(qq__name_index_find(&x, &t, "", 0) == -1);
    CHECK_U64_EQ(x.indexed, MANY);
    CHECK(x.cap >= 2 * MANY); /* at most half full */
    qq__name_index_free(&x);
    free(v);
    free(names);
}

/* Equal entries: the first is the one found, whether they were appended
 * one call at a time or all before the first call; an emptied table starts
 * the index again. */
static void test_first_of_equal_entries(void)
{
    struct entry v[4] = {{0, 7, "a"}, {0, 7, "b"}, {0, 7, "a"}, {0, 8, "a"}};
    struct qq__name_index x = {0};
    struct qq__name_table t = table_of(v, 4);
    CHECK(qq__name_index_find(&x, &t, "a", 7) == 0);
    CHECK(qq__name_index_find(&x, &t, "a", 8) == 3);
    CHECK(qq__name_index_find(&x, &t, "b", 7) == 1);
    t.n = 1; /* emptied to one entry, then refilled differently */
    v[0] = (struct entry){0, 7, "c"};
    CHECK(qq__name_index_find(&x, &t, "a", 7) == -1);
    CHECK(qq__name_index_find(&x, &t, "c", 7) == 0);
    qq__name_index_free(&x);
    /* No type: every entry is type 0. */
    t.type_at = QQ__NO_TYPE;
    t.n = 4;
    v[0] = (struct entry){0, 9, "a"};
    CHECK(qq__name_index_find(&x, &t, "a", 0) == 0);
    CHECK(qq__name_index_find(&x, &t, "b", 0) == 1);
    CHECK(qq__name_index_find(&x, &t, "a", 7) == -1);
    qq__name_index_free(&x);
}

/* With no memory for the index the answers stay right: the entries it
 * could not take are compared one by one. An address-space limit makes
 * the index's allocations fail (not under ASan, whose shadow memory needs
 * the address space). */
static void test_index_without_memory(void)
{
#if TEST_ASAN
    printf("  skipped under ASan\n");
#else
    if (test_rlimit_as_ignored()) {
        printf("  skipped: the address-space limit is not enforced here\n");
        return;
    }
    char(*names)[16] = many_names();
    struct entry *v = malloc(MANY * sizeof *v);
    CHECK(v != NULL);
    for (uint32_t i = 0; i < MANY; i++)
        v[i] = (struct entry){0, 1, names[i]};
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* Room for a few small blocks only: the index stops growing at a
         * few thousand entries (its slots need 16 bytes per entry). */
        long pages = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1)
            _exit(3);
        fclose(f);
        rlim_t lim = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)256 << 10);
        struct rlimit rl = {lim, lim};
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(4);
        struct qq__name_index x = {0};
        struct qq__name_table t = table_of(v, MANY);
        int wrong = 0;
        for (uint32_t i = 0; i < MANY; i += 97)
            wrong += qq__name_index_find(&x, &t, names[i], 1) != (int64_t)i;
        wrong += qq__name_index_find(&x, &t, names[MANY - 1], 1) != MANY - 1;
        wrong += qq__name_index_find(&x, &t, "none", 1) != -1;
        /* 5: the index did run out of memory; 0: every answer right. */
        _exit(wrong ? 1 : x.indexed < MANY ? 0 : 5);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st));
    CHECK_INT_EQ(WEXITSTATUS(st), 0);
    free(v);
    free(names);
#endif
}

/* QQAdd*: one key per name and type, the same key when added again. */
static void test_qq_add(void)
{
    QQInit(10);
    int s = QQAddState("x"), m = QQAddMark("x"), c = QQAddCount("x"), v = QQAddValue("x");
    CHECK(s >= 0 && m >= 0 && c >= 0 && v >= 0);
    CHECK(s != m && s != c && s != v && m != c && m != v && c != v);
    CHECK_INT_EQ(QQAddState("x"), s);
    CHECK_INT_EQ(QQAddMark("x"), m);
    CHECK_INT_EQ(QQAddCount("x"), c);
    CHECK_INT_EQ(QQAddValue("x"), v);
    CHECK_INT_EQ(QQAddMark(NULL), QQAddMark("")); /* NULL is the empty name */

    char(*names)[16] = many_names();
    int first = QQAddMark(names[0]), wrong = 0;
    CHECK(first >= 0);
    for (int i = 1; i < MANY; i++)
        wrong += QQAddMark(names[i]) != first + i;
    CHECK_INT_EQ(wrong, 0);
    for (int i = 0; i < MANY; i++) {
        wrong += QQAddMark(names[i]) != first + i;
        wrong += strcmp(qq__keytab.v[first + i].name, names[i]) != 0;
        wrong += qq__keytab.v[first + i].type != QQ_TYPE_MARK;
    }
    CHECK_INT_EQ(wrong, 0);
    CHECK_U64_EQ(qq__keytab.n, (uint64_t)first + MANY);
    CHECK(QQAddCount(names[5]) != first + 5); /* same name, other type */
    free(names);
}

/* MemAddKey: "default" is key 0, the same index for a name registered
 * before, 10^5 names. */
static void test_mem_add_key(void)
{
    CHECK_INT_EQ(MemAddKey("default"), 0);
    int a = MemAddKey("a");
    CHECK(a > 0);
    CHECK_INT_EQ(MemAddKey("a"), a);
    CHECK_INT_EQ(MemAddKey(NULL), MemAddKey(""));
    char(*names)[16] = many_names();
    int first = MemAddKey(names[0]), wrong = 0;
    CHECK(first > a);
    for (int i = 1; i < MANY; i++)
        wrong += MemAddKey(names[i]) != first + i;
    for (int i = 0; i < MANY; i++)
        wrong += MemAddKey(names[i]) != first + i;
    CHECK_INT_EQ(wrong, 0);
    CHECK_INT_EQ(MemAddKey("a"), a);
    CHECK_INT_EQ(MemAddKey("default"), 0);
    free(names);
}

int main(void)
{
    RUN(test_index_grows_with_its_table);
    RUN(test_first_of_equal_entries);
    RUN(test_index_without_memory);
    RUN(test_qq_add);
    RUN(test_mem_add_key);
    return TEST_DONE();
}
