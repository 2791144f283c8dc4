/* qq_file.h - read and summarise .qq files (format: docs/FORMAT.md). */
#ifndef QQ_FILE_H
#define QQ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "qq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Opening. Everything is validated at open: after a successful open every
 * offset, count and key index the accessors hand out is in range.
 * ====================================================================== */

struct qq_file;

/*
 * Open and validate PATH. Returns 0, or a negative QQ_E* code. On failure
 * *out still holds a file object (unless memory ran out, then NULL) whose
 * qq_file_errmsg() says what is wrong and where ("node 2: entry 17 has key
 * 12, but the file has 9 keys"); close it either way. Only a regular file
 * is read (a directory, FIFO or device is refused without waiting on it),
 * and only once its 64-byte header checks out. A file is refused when two
 * nodes claim one entry section, or a value entry is NaN or infinite.
 */
QQ_API int qq_file_open(const char *path, struct qq_file **out);
/* The same, from a buffer the caller keeps alive while the file is open. */
QQ_API int qq_file_open_mem(const void *data, size_t size, const char *name,
                            struct qq_file **out);
QQ_API const char *qq_file_errmsg(const struct qq_file *f);
QQ_API void qq_file_close(struct qq_file *f);

/* ======================================================================
 * Keys, nodes, entries, metadata.
 * ====================================================================== */

struct qq_key_info {
    uint32_t index;
    uint32_t type; /* enum qq_key_type */
    const char *name;
};

struct qq_node_info {
    uint32_t node;        /* rank */
    uint32_t flags;       /* QQ_NODE_* */
    uint64_t offset;      /* byte offset of the entries in the file */
    uint64_t entries;     /* number of entries */
    uint64_t base_tick;   /* QQInit's / QQBaseTime's tick */
    double mhz;           /* measured tick frequency */
    uint64_t dropped;     /* events lost to a full buffer */
    int64_t tick_offset;  /* this node's counter minus node 0's, in ticks */
    double offset_error;  /* bound on |tick_offset error|, in ticks */
};

#define QQ_NODE_TSC_INVARIANT 0x1u /* the counter runs at a constant rate */
#define QQ_NODE_OFFSET_VALID 0x2u  /* tick_offset was measured */

QQ_API const char *qq_file_name(const struct qq_file *f);
QQ_API uint32_t qq_file_nkeys(const struct qq_file *f);
QQ_API const struct qq_key_info *qq_file_key(const struct qq_file *f,
                                             uint32_t key);
QQ_API uint32_t qq_file_nnodes(const struct qq_file *f);
QQ_API const struct qq_node_info *qq_file_node(const struct qq_file *f,
                                               uint32_t node);
/* The node's entries in recorded order (aligned, qq_file_node()->entries). */
QQ_API const struct qq_event *qq_file_entries(const struct qq_file *f,
                                              uint32_t node);
/* Run metadata ("host", "command", "date", "tick_source", ...), or NULL. */
QQ_API const char *qq_file_meta(const struct qq_file *f, const char *name);
/* The I-th metadata pair; returns 0, or QQ_EINVAL past the end. */
QQ_API int qq_file_meta_at(const struct qq_file *f, size_t i,
                           const char **name, const char **value);

/* ======================================================================
 * Memory tables (the MEM section of each node; see qq_mem.h).
 * ====================================================================== */

struct qq_mem_row {
    const char *name;     /* the memory key's name */
    uint64_t obj_size;    /* size of one object (MEMADDOBJECT), 0 if none */
    uint64_t created;     /* objects created */
    uint64_t deleted;     /* objects deleted */
    uint64_t obj_bytes;   /* bytes of live objects */
    uint64_t alloc_bytes; /* bytes of live allocations (malloc & co) */
    uint64_t peak_bytes;  /* the most obj_bytes + alloc_bytes ever held */
    uint64_t allocs;      /* allocation calls */
    uint64_t frees;       /* free calls */
    uint64_t double_frees;
};

struct qq_mem_table {
    uint32_t nrows;
    const struct qq_mem_row *rows;
    uint64_t foreign_frees; /* frees of pointers never tracked */
    uint64_t process_bytes; /* GetMemoryUsed() when the file was written */
};

/* The node's memory table; returns 1 if the node has one, 0 if not. */
QQ_API int qq_file_mem(const struct qq_file *f, uint32_t node,
                       struct qq_mem_table *out);

/* ======================================================================
 * Summaries: per node and key, what st and the harness print.
 * ====================================================================== */

struct qq_key_summary {
    uint64_t hits;       /* events recorded for the key */
    /* states */
    uint64_t intervals;  /* completed on..off intervals */
    uint64_t state_ticks; /* ticks spent on, summed over intervals */
    uint64_t unbalanced; /* on while on, off while off, on at the end */
    /* counts (integer) and values (double). isum is exact whenever the
     * true sum fits in int64; otherwise it saturates at INT64_MAX or
     * INT64_MIN (so a sum at either limit means "at least"/"at most").
     * dsum likewise saturates at +-DBL_MAX instead of becoming infinite. */
    int64_t isum, imin, imax;
    double dsum, dmin, dmax;
};

struct qq_node_summary {
    uint64_t first_tick, last_tick; /* of the node's entries; 0 if none */
    uint64_t state_events;          /* entries whose key is a state */
    double elapsed_sec;             /* (last - base) / MHz */
};

/*
 * Summarise NODE: KEYS must hold qq_file_nkeys() elements. Returns 0 or
 * QQ_EINVAL for a node out of range.
 */
QQ_API int qq_file_summarize(const struct qq_file *f, uint32_t node,
                             struct qq_node_summary *ns,
                             struct qq_key_summary *keys);

#ifdef __cplusplus
}
#endif

#endif /* QQ_FILE_H */
