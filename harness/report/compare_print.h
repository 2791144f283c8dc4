/* compare_print.h - report: what `qqbench compare` prints, the keys of two .qq files side by side
 * (judge/judge_compare.h). */
#ifndef QQB_COMPARE_PRINT_H
#define QQB_COMPARE_PRINT_H

#include <stddef.h>

#include "judge_compare.h"

/* The table of keys R (N of them) on stdout: counts, net cycles per
 * interval, the change; ALL 0 leaves out the keys whose numbers are the
 * same. */
void qqb_compare_print_keys(const struct qqb_key_cmp *r, size_t n, int all);
/* The memory keys V (N) on stdout, under a header when there is one to
 * print; ALL 0 leaves out those the same on both sides. */
void qqb_compare_print_mem(const struct qqb_mem_cmp *v, size_t n, int all);

#endif /* QQB_COMPARE_PRINT_H */
