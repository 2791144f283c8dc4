/* names.h - the one rule for names read from suites, run JSON, baselines and .qq files
 * (docs/BAD_INPUT.md, "Names"). */
#ifndef QQB_NAMES_H
#define QQB_NAMES_H

#include <stddef.h>

/*
 * Two kinds of name, each with one documented character set and length:
 *
 * QQB_NAME_PLAIN  suite, benchmark, variant, parameter and --record label
 *                 names: 1 to 128 of [A-Za-z0-9._-], not "." or "..". They
 *                 become file names.
 * QQB_NAME_TEXT   key names (states, marks, counts, values, memory keys), case
 *                 names ("bench[variant]@2", "g[n=1000]@1") and the other
 *                 words of a run JSON: libqq's rule for key names
 *                 (qq_name_check, qq_file.h), not empty: 1 to 255 bytes of
 *                 UTF-8 with no control character and no backquote.
 *
 * Everything a report, a script or a table prints comes from names that
 * passed here where they entered; the quoting of each target language
 * (plot.h, markup) is the second wall, not the first.
 */
enum qqb_name_kind { QQB_NAME_PLAIN, QQB_NAME_TEXT };

#define QQB_NAME_PLAIN_MAX 128
#define QQB_NAME_TEXT_MAX  255

/* 0 when S is a valid name of KIND; otherwise -1 with WHY ("has the byte
 * 0x60 at 3", "is empty", "is 300 bytes, at most 256"). */
int qqb_name_check(enum qqb_name_kind kind, const char *s, char *why, size_t whysz);

/* 1 when C may stand in a plain name: [A-Za-z0-9._-]. */
int qqb_name_plain_char(int c);

/* "letters, digits, '_', '.' or '-' (at most 128)": what a message says a
 * name of KIND may hold. */
const char *qqb_name_rule(enum qqb_name_kind kind);

#endif /* QQB_NAMES_H */
