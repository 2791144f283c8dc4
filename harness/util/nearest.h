/* nearest.h - "did you mean": the choice nearest to a mistyped word. */
#ifndef QQB_NEAREST_H
#define QQB_NEAREST_H

#include <stddef.h>

/* The choice nearest to WORD by edit distance (case-insensitive, a
 * transposition counts one), or NULL when none is close enough to be a
 * plausible typo. */
const char *qqb_nearest(const char *word, const char *const *choices, size_t n);

#endif /* QQB_NEAREST_H */
