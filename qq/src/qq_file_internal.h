/* qq_file_internal.h - what the reader's files share (qq_file.c, qq_file_stream.c): the open
 * file, its loads and checks. */
#ifndef QQ_FILE_INTERNAL_H
#define QQ_FILE_INTERNAL_H

#include <string.h>
#include <sys/types.h>

#include "qq_internal.h"

struct qq__meta {
    char *name, *value;
};

struct qq__nodecal {
    int present;
    struct qq_calib c;
};

/* A node's threads: its THRD section, or one thread made from the node
 * table for a file without one. */
struct qq__nodethr {
    int present; /* a THRD section was read */
    uint32_t n;
    struct qq_thread_info *t;
};

struct qq__nodemem {
    int present;
    struct qq_mem_table t;
    struct qq_mem_row *rows;
};

struct qq_file {
    char *name;
    unsigned char *owned;      /* the file's bytes when we read them whole */
    const unsigned char *data; /* the whole file; NULL when streamed */
    size_t size;
    int fd;    /* a streamed file, kept open; else -1 */
    char *err; /* qq_file.c's ERR_SIZE bytes: written by readers of a const file too */
    uint32_t nkeys, nnodes;
    struct qq_key_info *keys;
    struct qq_node_info *nodes;
    const struct qq_event **entries;
    struct qq__meta *meta;
    size_t nmeta;
    struct qq__nodemem *mem;
    struct qq__nodecal *cal;
    struct qq__nodethr *thr;
    unsigned minor;             /* the header's minor version: from 1, entries carry their thread */
    struct qq_tune_info *tunes; /* the TUNE sections (qq_tune_read.c) */
    uint32_t ntunes;
};

/* A TUNE section's payload (PL, LEN bytes) into F's tunes (qq_tune_read.c);
 * qq__tunes_free releases them. 0, or QQ_ECORRUPT / QQ_ENOMEM with F's
 * message. */
int qq__parse_tune(struct qq_file *f, const unsigned char *pl, uint64_t len);
void qq__tunes_free(struct qq_file *f);

static inline uint32_t ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t ld64(const unsigned char *p)
{
    return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

static inline double ldf64(const unsigned char *p)
{
    uint64_t u = ld64(p);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Record "NAME: TEXT" as F's message. */
void qq__file_say(const struct qq_file *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The message, then ERR, the code: an expression whose value the analyser
 * sees (a variadic function's result it does not), so that a caller's
 * test of the code follows the failure. */
#define fail(f, err, ...) (qq__file_say((f), __VA_ARGS__), (err))

/* The thread of NODE whose block holds entry INDEX (the last when none). */
static inline uint32_t qq__thread_of(const struct qq_file *f, uint32_t node, uint64_t index)
{
    const struct qq__nodethr *t = &f->thr[node];
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->t[mid].first + t->t[mid].events <= index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Check N entries E of node I, the first being entry FIRST: each key in
 * range, a state 0 or 1, a value finite and, from format 1.1, each entry
 * carrying the index of the thread whose block holds it. 0 or QQ_ECORRUPT
 * with F's message (the first unsound entry's). */
int qq__check_entries(const struct qq_file *f, uint32_t i, const struct qq_event *e, size_t n,
                      uint64_t first);

/* A new file named NAME ("(memory)" if NULL), nothing read; NULL without
 * memory. */
struct qq_file *qq__file_new(const char *name);
/* Open PATH, a regular file, and check its header (read into HEAD): the
 * open descriptor in *FD, or an error (then *FD is -1). */
int qq__file_open_checked(struct qq_file *f, const char *path, int *fd,
                          unsigned char head[QQ__HEADER_SIZE]);

/* Where the walk at open finds the bytes: the whole file in memory, or an
 * open file read through a window (qq_file_stream.c). */
struct qq__src {
    const unsigned char *mem; /* the whole file, or NULL */
    int fd;
    unsigned char *win;
    size_t cap, len; /* the window holds file bytes [off, off + len) */
    uint64_t off;
};
/* Bytes [AT, AT + LEN) of the file, within its size, into *P: valid until
 * the next call. 0, or an error with F's message. */
int qq__src_get(struct qq_file *f, struct qq__src *s, uint64_t at, uint64_t len,
                const unsigned char **p);
/* Read LEN bytes at OFFSET of FD; the count read (short at end of file) or
 * -1. */
ssize_t qq__pread_full(int fd, unsigned char *p, size_t len, off_t offset);

/* Walk the sections after the checked header HEAD (qq_file.c). */
int qq__file_parse(struct qq_file *f, struct qq__src *src, const unsigned char *head);

#endif /* QQ_FILE_INTERNAL_H */
