/* test_grow.c - qqb_grow: doubling from the first size, room kept while there is some, failure
 * leaves the array. */
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"
#include "test.h"

static void test_doubling(void)
{
    int *v = NULL;
    size_t n = 0, cap = 0, reallocs = 0;
    for (int i = 0; i < 1000; i++) {
        size_t before = cap;
        int *nv = qqb_grow(v, n, &cap, sizeof *v, 4);
        CHECK(nv != NULL);
        if (!nv)
            break;
        reallocs += cap != before;
        v = nv;
        v[n++] = i;
    }
    /* 4, 8, ..., 1024: 9 reallocations for 1000 appends, not 1000. */
    CHECK_U64_EQ(reallocs, 9);
    CHECK_U64_EQ(cap, 1024);
    int ok = 1;
    for (int i = 0; i < 1000; i++)
        ok &= v[i] == i;
    CHECK(ok);
    free(v);
}

static void test_overflow_keeps_the_array(void)
{
    char *p = malloc(8);
    size_t cap = 8;
    CHECK(qqb_grow(p, 8, &cap, SIZE_MAX / 8, 1) == NULL);
    CHECK_U64_EQ(cap, 8); /* unchanged, P still the caller's to free */
    free(p);
}

int main(void)
{
    RUN(test_doubling);
    RUN(test_overflow_keeps_the_array);
    return TEST_DONE();
}
