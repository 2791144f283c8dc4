/* test_mem_file.c - memory tables round trip: MemAddKey & co -> QQOut -> qq_file_open ->
 * qq_file_mem. */
#define QQ_ENABLE 1

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

static int KEY_BRAIN, KEY_SYNAPSE;
#define MEM_KEY KEY_SYNAPSE

/* Read a whole stream into a string (libc's malloc: not tracked). */
static char *slurp(FILE *fp)
{
    long len = ftell(fp);
    rewind(fp);
    char *text = (malloc)((size_t)len + 1);
    size_t got = fread(text, 1, (size_t)len, fp);
    text[got] = '\0';
    return text;
}

/* TEXT without its last line (the process size, which moves). */
static void drop_last_line(char *text)
{
    size_t n = strlen(text);
    if (n > 0 && text[n - 1] == '\n')
        text[--n] = '\0';
    char *nl = strrchr(text, '\n');
    if (nl)
        nl[1] = '\0';
}

static void test_mem_file_round_trip(void)
{
    MemReset();
    KEY_BRAIN = MemAddKey("Brain");
    KEY_SYNAPSE = MemAddKey("Synapse");
    QQInit(1000);
    int st = QQAddState("work");
    QQStateOn(st);

    MemAddObject(KEY_BRAIN, NULL, 120);
    void *keep[10];
    for (int i = 0; i < 10; i++) {
        MEMADDOBJECT(&keep[i], 44);
        keep[i] = malloc(100 + (size_t)i);
    }
    (free)((malloc)(1)); /* untracked both ways: not seen */
    free((malloc)(16));  /* a foreign free */
    /* Last: an untracked malloc after it could reuse the freed address and
     * look like a second double free (docs/MEMORY.md, limits). */
    void *gone = malloc(5000);
    free(gone);
    free(gone); /* a double free */
    QQStateOff(st);

    struct qq__mem_snapshot s;
    CHECK_INT_EQ(qq__mem_snapshot(&s), 1);

    FILE *mp = tmpfile();
    CHECK(mp != NULL);
    if (mp)
        MemPrint(mp);

    int rc = qq_out("mem_file.qq", 0, 1);
    CHECK_INT_EQ(rc, 0);
    if (rc != 0)
        fprintf(stderr, "qq_out: %s\n", qq_out_errmsg());

    struct qq_file *f = NULL;
    rc = qq_file_open("mem_file.qq", &f);
    CHECK_INT_EQ(rc, 0);
    if (rc != 0) {
        if (f)
            fprintf(stderr, "open: %s\n", qq_file_errmsg(f));
        qq_file_close(f);
        qq__mem_snapshot_free(&s);
        if (mp)
            fclose(mp);
        return;
    }
    struct qq_mem_table t;
    memset(&t, 0, sizeof t);
    CHECK_INT_EQ(qq_file_mem(f, 0, &t), 1);
    CHECK_INT_EQ(t.nrows, s.nrows);
    CHECK_U64_EQ(t.foreign_frees, 1);
    CHECK_U64_EQ(t.foreign_frees, s.foreign_frees);
    CHECK(t.process_bytes > 0);
    for (uint32_t i = 0; i < t.nrows && i < s.nrows; i++) {
        const struct qq_mem_row *a = &t.rows[i], *b = &s.rows[i];
        CHECK_STR_EQ(a->name, b->name);
        CHECK_U64_EQ(a->obj_size, b->obj_size);
        CHECK_U64_EQ(a->created, b->created);
        CHECK_U64_EQ(a->deleted, b->deleted);
        CHECK_U64_EQ(a->obj_bytes, b->obj_bytes);
        CHECK_U64_EQ(a->alloc_bytes, b->alloc_bytes);
        CHECK_U64_EQ(a->peak_bytes, b->peak_bytes);
        CHECK_U64_EQ(a->allocs, b->allocs);
        CHECK_U64_EQ(a->frees, b->frees);
        CHECK_U64_EQ(a->double_frees, b->double_frees);
    }
    /* The known figures. */
    if (t.nrows == 3) {
        CHECK_STR_EQ(t.rows[0].name, "default");
        CHECK_STR_EQ(t.rows[KEY_BRAIN].name, "Brain");
        CHECK_U64_EQ(t.rows[KEY_BRAIN].obj_size, 120);
        CHECK_U64_EQ(t.rows[KEY_BRAIN].created, 1);
        CHECK_U64_EQ(t.rows[KEY_BRAIN].obj_bytes, 120);
        const struct qq_mem_row *r = &t.rows[KEY_SYNAPSE];
        CHECK_STR_EQ(r->name, "Synapse");
        CHECK_U64_EQ(r->obj_size, 44);
        CHECK_U64_EQ(r->created, 10);
        CHECK_U64_EQ(r->obj_bytes, 440);
        CHECK_U64_EQ(r->alloc_bytes, 1045); /* 100 + ... + 109 */
        CHECK_U64_EQ(r->peak_bytes, 440 + 1045 + 5000);
        CHECK_U64_EQ(r->allocs, 11);
        CHECK_U64_EQ(r->frees, 1);
        CHECK_U64_EQ(r->double_frees, 1);
    } else {
        TEST_FAIL_AT("expected 3 rows, got %u", (unsigned)t.nrows);
    }

    /* qqbench st's printing of the file's table = MemPrint's, but for the
     * process size on the last line. */
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (fp && mp) {
        qq_mem_print_table(fp, &t);
        char *from_file = slurp(fp);
        char *from_print = slurp(mp);
        drop_last_line(from_file);
        drop_last_line(from_print);
        CHECK_STR_EQ(from_file, from_print);
        (free)(from_file);
        (free)(from_print);
    }
    if (fp)
        fclose(fp);
    if (mp)
        fclose(mp);
    qq_file_close(f);
    qq__mem_snapshot_free(&s);
    for (int i = 0; i < 10; i++) {
        MEMFREEOBJECT(&keep[i], 44);
        free(keep[i]);
    }
    MemFreeObject(KEY_BRAIN, NULL, 120);
}

/* A run that never used memory keys writes no memory table. */
static void test_mem_file_none(void)
{
    MemReset();
    QQInit(100);
    int rc = qq_out("no_mem.qq", 0, 1);
    CHECK_INT_EQ(rc, 0);
    struct qq_file *f = NULL;
    rc = qq_file_open("no_mem.qq", &f);
    CHECK_INT_EQ(rc, 0);
    if (rc == 0) {
        struct qq_mem_table t;
        CHECK_INT_EQ(qq_file_mem(f, 0, &t), 0);
    }
    qq_file_close(f);
}

int main(void)
{
    unsetenv(QQ_OUTPUT_ENV); /* write where this test says */
    RUN(test_mem_file_round_trip);
    RUN(test_mem_file_none);
    MemReset();
    return TEST_DONE();
}
