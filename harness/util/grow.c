/* grow.c - room for one more element in a doubling array (grow.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

void *qqb_grow(void *p, size_t n, size_t *cap, size_t size, size_t first)
{
    if (n < *cap)
        return p;
    size_t nc = *cap ? 2 * *cap : first;
    if (nc < *cap || nc > SIZE_MAX / size)
        return NULL;
    void *q = realloc(p, nc * size);
    if (q)
        *cap = nc;
    return q;
}
