/* baseline_int.h - what the files of the baseline store share; not for other layers. */
#ifndef QQB_BASELINE_INT_H
#define QQB_BASELINE_INT_H

#include <stddef.h>

#include "baseline.h"
#include "yamlcur.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#ifndef QQB_VERSION
#define QQB_VERSION "unknown"
#endif

/* A label longer than this is a mistake, and file names have a limit. */
#define MAX_LABEL         128
/* Baselines hold raw samples, but not this many: a bound on what is read. */
#define MAX_BASELINE_SIZE ((size_t)256 << 20)

/* Messages: one line, "path: error: ...", into ERR; return -1. */
int qqb__bl_ferr(char *err, size_t errlen, const char *path, const char *fmt, ...)
    QQB_PRINTF_LIKE(4, 5);
/* qqb__bl_ferr for a refusal of the file system (full, read-only, ...): -2. */
int qqb__bl_fserr(char *err, size_t errlen, const char *path, const char *fmt, ...)
    QQB_PRINTF_LIKE(4, 5);

/* A character of a plain name: [A-Za-z0-9._-]. */
int qqb__bl_name_char(char ch);
/* A label's character in its snapshot's file name (one rule, for writing
 * the path and for finding the label that leads to a file). */
char qqb__bl_label_file_char(char ch);
/* A suite name or fingerprint id usable as one path component. */
int qqb__bl_plain_name(const char *s);
/* Split PATH into its directory ("." when none) and base name. 0 or -1. */
int qqb__bl_split_path(const char *path, char *dir, size_t dirlen, const char **base);
/* mkdir -p DIR. 0, or -1 with ERR. */
int qqb__bl_make_dirs(const char *dir, char *err, size_t errlen);

/* What the reader would refuse, refused before anything is written: 0, or
 * -1 with ERR naming PATH. */
int qqb__bl_check_results(const char *path, const struct qqb_results *r, char *err, size_t errlen);
/* R as the text of a baseline file (a NULL r->date: the current UTC time),
 * malloc'd into *TEXT, *LEN. 0, or -1 with ERR naming PATH (a string that
 * is not UTF-8, out of memory). */
int qqb__bl_text(const char *path, const struct qqb_results *r, char **text, size_t *len, char *err,
                 size_t errlen);

/* The date and label at the top of the baseline PATH, without reading its
 * cases (*DATE, *LABEL malloc'd, or left NULL when unreadable). */
void qqb__bl_peek_header(const char *path, char **date, char **label);

#endif /* QQB_BASELINE_INT_H */
