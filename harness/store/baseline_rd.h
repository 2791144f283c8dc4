/* baseline_rd.h - the baseline reader's cursor, shared by baseline_read.c's field readers. */
#ifndef QQB_BASELINE_RD_H
#define QQB_BASELINE_RD_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "baseline_int.h"
#include "strmap.h"
#include "yamlcur.h"

struct rd {
    struct qqb_ycur y;                /* the file, the current event, the first error */
    const char *want_suite, *want_id; /* what the path says; NULL: anything */
    struct qqb_strmap cases;          /* the case names read so far: a duplicate is
                                         found in constant time, not by a scan (a file
                                         of 40,000 cases took 25 s) */
};

/* Every reader below returns 0, or -1 with the message (its position
 * included) kept in the cursor. */

/* An error at mark M. */
int qqb__rd_fail(struct rd *r, const yaml_mark_t *m, const char *fmt, ...) QQB_PRINTF_LIKE(3, 4);
/* The current event's mark, and its scalar's text. */
const yaml_mark_t *qqb__rd_here(const struct rd *r);
const char *qqb__rd_sval(const struct rd *r);
/* (The next event and skipping a value: qqb_ycur_next, qqb_ycur_skip on r->y.) */
/* "expected WHAT [for 'FIELD'], got ..." at the current event. */
int qqb__rd_mismatch(struct rd *r, const char *what, const char *field);
/* The next event, which must be of TYPE (else qqb__rd_mismatch). */
int qqb__rd_expect(struct rd *r, yaml_event_type_t type, const char *what, const char *field);

/* The next key of a mapping: 1 with the key in *k (an index into FIELDS,
 * or -1 for an unknown key, whose value is then skipped by the caller), 0 at
 * the end of the mapping, -1 on error. A key given twice is an error. */
int qqb__rd_next_key(struct rd *r, const char *const *fields, int nfields, unsigned *seen, int *k);
/* Report the first field of REQUIRED (bits by index) missing from SEEN. */
int qqb__rd_required(struct rd *r, const yaml_mark_t *start, const char *const *fields, int nfields,
                     unsigned required, unsigned seen, const char *what);

/* Value readers: each reads the next event as the value of FIELD. */
/* A string; *DST replaced. NULLABLE: a YAML null gives NULL. */
int qqb__rd_string(struct rd *r, const char *field, char **dst, int nullable);
/* A key or case name: a string that holds to the rule for names
 * (names.h, QQB_NAME_TEXT), the run JSON's rule; else refused at it. */
int qqb__rd_name(struct rd *r, const char *field, char **dst);
/* A string into a fixed buffer (the fingerprint's). */
int qqb__rd_fixed(struct rd *r, const char *field, char *buf, size_t size);
/* The current event as a plain-scalar number. FINITE: refuse .nan/.inf. */
int qqb__rd_cur_double(struct rd *r, const char *field, int finite, double *v);
int qqb__rd_double(struct rd *r, const char *field, int finite, double *v);
/* A whole number up to MAX. */
int qqb__rd_u64(struct rd *r, const char *field, uint64_t max, uint64_t *v);
int qqb__rd_bool(struct rd *r, const char *field, int *v);
/* A flow list of unsigned 32-bit integers, appended to *V, *N. */
int qqb__rd_u32_list(struct rd *r, const char *field, uint32_t **v, size_t *n);
/* A flow list of finite numbers, appended to *V, *N; with MARKS, each
 * one's place into *MARKS (grown alike, freed by the caller). */
int qqb__rd_double_list(struct rd *r, const char *field, double **v, size_t *n,
                        yaml_mark_t **marks);
/* A flow list of strings, NULL-ended, into *DST. */
int qqb__rd_strv(struct rd *r, const char *field, char ***dst);
/* A list of mappings (FIELD, "a list of LIST"): ITEM reads each, its
 * mapping start current; anything else is "expected WHAT". */
int qqb__rd_each(struct rd *r, const char *field, const char *list, const char *what,
                 int (*item)(struct rd *r, void *ctx), void *ctx);

/* A baseline is found by its path (DIR/ID/SUITE.yaml): a file whose own
 * FIELD says otherwise (GOT, not WANT) was copied or renamed by hand.
 * WANT NULL: anything goes. */
int qqb__rd_path_field(struct rd *r, const char *field, const char *got, const char *want);

/* Open PATH and read up to the top-level mapping's start. */
int qqb__rd_open(struct rd *r, const char *path, char *err, size_t errlen);

#endif /* QQB_BASELINE_RD_H */
