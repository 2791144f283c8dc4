/* mem_test.h - what the memory-key tests share: a key's row and the foreign-free count, read now.
 */
#ifndef QQ_MEM_TEST_H
#define QQ_MEM_TEST_H

#include <stdint.h>
#include <string.h>

#include "qq_internal.h"
#include "test.h"

/* The row of KEY now (name dropped: it dies with the snapshot). */
static struct qq_mem_row row_of(int key)
{
    struct qq_mem_row r;
    memset(&r, 0, sizeof r);
    struct qq__mem_snapshot s;
    int rc = qq__mem_snapshot(&s);
    if (rc == 1 && key >= 0 && (uint32_t)key < s.nrows)
        r = s.rows[key];
    else
        TEST_FAIL_AT("no row for key %d (snapshot %d)", key, rc);
    r.name = NULL;
    if (rc == 1)
        qq__mem_snapshot_free(&s);
    return r;
}

/* Frees of pointers the table never saw, so far. */
static uint64_t foreign_now(void)
{
    struct qq__mem_snapshot s;
    uint64_t n = 0;
    if (qq__mem_snapshot(&s) == 1) {
        n = s.foreign_frees;
        qq__mem_snapshot_free(&s);
    }
    return n;
}

#endif /* QQ_MEM_TEST_H */
