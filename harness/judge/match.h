/* match.h - which case of a stored run answers which case of this run: names matched once, by hash,
 * so the judges after it work by index. */
#ifndef QQB_MATCH_H
#define QQB_MATCH_H

#include <stddef.h>

#include "results.h"

/* For each of the first N cases of CUR, the index of the case of the same
 * name in OTHER, or QQB_NO_MATCH (OTHER NULL: every case). *OUT is
 * malloc'd (N elements; free it). 0, or -1 out of memory. */
#define QQB_NO_MATCH ((size_t)-1)
int qqb_match_cases(const struct qqb_results *cur, size_t n, const struct qqb_results *other,
                    size_t **out);

/* OTHER's case MATCH[I] (NULL when MATCH or OTHER is NULL, or no match). */
const struct qqb_case_result *qqb_matched(const struct qqb_results *other, const size_t *match,
                                          size_t i);

#endif /* QQB_MATCH_H */
