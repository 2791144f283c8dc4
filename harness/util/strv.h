/* strv.h - NULL-ended string arrays (a kernel's command line, a compiler's
 * strings) and the one rule of a list of names that selects. */
#ifndef QQB_STRV_H
#define QQB_STRV_H

#include <stddef.h>

/* A deep copy of a NULL-ended string array (NULL gives NULL); -1 on out of
 * memory, with *DST NULL. */
int qqb_strv_dup(char *const *src, char ***dst);
/* 1 when two NULL-ended string arrays hold the same strings (two NULLs are
 * equal; NULL and an empty array are not). */
int qqb_strv_equal(char *const *a, char *const *b);
/* 1 when S is one of the N strings of LIST, or LIST is empty (N 0: no
 * choice made, everything is in): the rule of --key, --bench and keys:. */
int qqb_strv_selects(char *const *list, size_t n, const char *s);

#endif
