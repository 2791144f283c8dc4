/* grow.h - room for one more element in a doubling array.
 */
#ifndef QQB_GROW_H
#define QQB_GROW_H

#include <stddef.h>

/* The array P of *CAP elements of SIZE bytes, N of them used: returned as
 * is while N < *CAP, else reallocated to twice the capacity (FIRST when
 * empty) with *CAP updated. NULL when out of memory (or the size would
 * overflow); P is then still valid and *CAP unchanged. Doubling keeps a
 * run of appends linear (growing by one copies the array every time). */
void *qqb_grow(void *p, size_t n, size_t *cap, size_t size, size_t first);

#endif
