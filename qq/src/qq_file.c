/* qq_file.c - the .qq reader: validate everything once at open, then hand out checked views. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qq_file_internal.h"

#define ERR_SIZE 512

void qq__file_say(const struct qq_file *f, const char *fmt, ...)
{
    int n = snprintf(f->err, ERR_SIZE, "%s: ", f->name ? f->name : "?");
    if (n < 0 || (size_t)n >= ERR_SIZE)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->err + n, ERR_SIZE - (size_t)n, fmt, ap);
    va_end(ap);
}

/* A string of LEN bytes at P, copied and terminated. */
static char *dupn(const unsigned char *p, size_t len)
{
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, p, len);
        s[len] = '\0';
    }
    return s;
}

static char *tagname(uint32_t tag, char buf[8])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(tag >> (8 * i));
        buf[i] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    buf[4] = '\0';
    return buf;
}

/* A cursor over one section's payload that never reads past its end. */
struct cur {
    const unsigned char *p;
    size_t left;
};

static int take(struct cur *c, size_t n, const unsigned char **out)
{
    if (c->left < n)
        return -1;
    *out = c->p;
    c->p += n;
    c->left -= n;
    return 0;
}

static void skip_pad8(struct cur *c, const unsigned char *base)
{
    size_t pad = (8 - (size_t)(c->p - base) % 8) % 8;
    if (pad > c->left)
        pad = c->left;
    c->p += pad;
    c->left -= pad;
}

static int parse_meta(struct qq_file *f, const unsigned char *pl, uint64_t len)
{
    struct cur c = {pl, len};
    const unsigned char *q;
    while (c.left >= 4) {
        if (ld32(c.p) == 0 && c.left < 8)
            break; /* padding */
        const unsigned char *nl, *vl;
        if (take(&c, 4, &nl) || take(&c, ld32(nl), &q))
            return fail(f, QQ_ECORRUPT, "metadata entry %zu runs past its section", f->nmeta);
        const unsigned char *name = q;
        size_t namelen = ld32(nl);
        if (take(&c, 4, &vl) || take(&c, ld32(vl), &q))
            return fail(f, QQ_ECORRUPT, "metadata entry %zu runs past its section", f->nmeta);
        if (namelen == 0)
            break; /* zero padding */
        struct qq__meta *m = realloc(f->meta, (f->nmeta + 1) * sizeof *m);
        if (!m)
            return fail(f, QQ_ENOMEM, "out of memory");
        f->meta = m;
        m[f->nmeta].name = dupn(name, namelen);
        m[f->nmeta].value = dupn(q, ld32(vl));
        if (!m[f->nmeta].name || !m[f->nmeta].value) {
            free(m[f->nmeta].name);
            free(m[f->nmeta].value);
            return fail(f, QQ_ENOMEM, "out of memory");
        }
        f->nmeta++;
    }
    return 0;
}

static int parse_keys(struct qq_file *f, const unsigned char *pl, uint64_t len)
{
    struct cur c = {pl, len};
    f->keys = calloc(f->nkeys ? f->nkeys : 1, sizeof *f->keys);
    if (!f->keys)
        return fail(f, QQ_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < f->nkeys; i++) {
        const unsigned char *h, *name;
        if (take(&c, 12, &h) || take(&c, ld32(h + 8), &name))
            return fail(f, QQ_ECORRUPT, "key %u of %u runs past the end of the key table", i,
                        f->nkeys);
        skip_pad8(&c, pl);
        if (ld32(h) != i)
            return fail(f, QQ_ECORRUPT, "key %u has index %u", i, ld32(h));
        uint32_t type = ld32(h + 4);
        if (type < QQ_TYPE_STATE || type > QQ_TYPE_VALUE)
            return fail(f, QQ_ECORRUPT, "key %u has unknown type %u", i, type);
        size_t bad = qq_name_check((const char *)name, ld32(h + 8));
        if (bad)
            return fail(f, QQ_ECORRUPT,
                        "key %u's name breaks the rule for names at byte %zu "
                        "(a control character, a backquote, not UTF-8, or past %d bytes)",
                        i, bad, QQ_NAME_MAX);
        f->keys[i].index = i;
        f->keys[i].type = type;
        f->keys[i].name = dupn(name, ld32(h + 8));
        if (!f->keys[i].name)
            return fail(f, QQ_ENOMEM, "out of memory");
    }
    return 0;
}

/* After a memory table's rows, when its FLAGS say so: each row's lower
 * bound of its peak (peak_bytes is the upper), at most that upper bound. */
static int parse_memt_bounds(struct qq_file *f, uint32_t idx, struct cur *c, uint32_t flags)
{
    struct qq__nodemem *m = &f->mem[idx];
    if (!(flags & QQ__MEMT_PEAK_LOW))
        return 0;
    for (uint32_t r = 0; r < m->t.nrows; r++) {
        const unsigned char *v;
        if (take(c, 8, &v))
            return fail(f, QQ_ECORRUPT,
                        "memory table of node %u: its peaks' lower bounds run past "
                        "its section",
                        idx);
        uint64_t low = ld64(v);
        if (low > m->rows[r].peak_bytes)
            return fail(f, QQ_ECORRUPT,
                        "memory row %u of node %u: the peak's lower bound %llu is above its upper "
                        "bound %llu",
                        r, idx, (unsigned long long)low, (unsigned long long)m->rows[r].peak_bytes);
        m->rows[r].peak_low = low;
    }
    return 0;
}

static int parse_memt(struct qq_file *f, uint32_t idx, const unsigned char *pl, uint64_t len)
{
    struct qq__nodemem *m = &f->mem[idx];
    if (m->present)
        return fail(f, QQ_ECORRUPT, "node %u has two memory tables", idx);
    struct cur c = {pl, len};
    const unsigned char *h;
    if (take(&c, 24, &h))
        return fail(f, QQ_ECORRUPT, "memory table of node %u is too short", idx);
    uint32_t nrows = ld32(h);
    /* Each row takes at least 80 bytes: reject counts the payload cannot hold
     * before allocating for them. */
    if (nrows > c.left / 80)
        return fail(f, QQ_ECORRUPT, "memory table of node %u claims %u rows in %zu bytes", idx,
                    nrows, c.left);
    m->rows = calloc(nrows ? nrows : 1, sizeof *m->rows);
    if (!m->rows)
        return fail(f, QQ_ENOMEM, "out of memory");
    m->present = 1;
    m->t.nrows = nrows;
    m->t.rows = m->rows;
    m->t.foreign_frees = ld64(h + 8);
    m->t.process_bytes = ld64(h + 16);
    for (uint32_t r = 0; r < nrows; r++) {
        const unsigned char *v, *nl, *name;
        if (take(&c, 72, &v) || take(&c, 4, &nl) || take(&c, ld32(nl), &name))
            return fail(f, QQ_ECORRUPT, "memory row %u of node %u runs past its section", r, idx);
        skip_pad8(&c, pl);
        struct qq_mem_row *row = &m->rows[r];
        uint64_t *fields[] = {&row->obj_size,  &row->created,     &row->deleted,
                              &row->obj_bytes, &row->alloc_bytes, &row->peak_bytes,
                              &row->allocs,    &row->frees,       &row->double_frees};
        for (int k = 0; k < 9; k++)
            *fields[k] = ld64(v + (size_t)8 * (size_t)k);
        size_t bad = qq_name_check((const char *)name, ld32(nl));
        if (bad)
            return fail(f, QQ_ECORRUPT,
                        "memory row %u of node %u: its name breaks the rule for names at "
                        "byte %zu",
                        r, idx, bad);
        row->name = dupn(name, ld32(nl));
        if (!row->name)
            return fail(f, QQ_ENOMEM, "out of memory");
        row->peak_low = row->peak_bytes; /* exact, unless bounds follow */
    }
    return parse_memt_bounds(f, idx, &c, ld32(h + 4));
}

/* A node's calibration: fixed size; a longer section is a later version's
 * (its extra fields are skipped). Values a writer cannot produce are
 * refused, so every reader can trust them. */
static int parse_calb(struct qq_file *f, uint32_t idx, const unsigned char *pl, uint64_t len)
{
    struct qq__nodecal *c = &f->cal[idx];
    if (c->present)
        return fail(f, QQ_ECORRUPT, "node %u has two calibrations", idx);
    if (len < QQ__CALB_SIZE)
        return fail(f, QQ_ECORRUPT,
                    "calibration of node %u is %llu bytes, "
                    "at least %d expected",
                    idx, (unsigned long long)len, QQ__CALB_SIZE);
    c->c.ordered = ld32(pl);
    c->c.samples = ld32(pl + 4);
    c->c.empty_min = ldf64(pl + 8);
    c->c.empty_typical = ldf64(pl + 16);
    c->c.empty_median = ldf64(pl + 24);
    c->c.step = ldf64(pl + 32);
    const double v[] = {c->c.empty_min, c->c.empty_typical, c->c.empty_median, c->c.step};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!(v[i] >= 0 && v[i] < 1e12))
            return fail(f, QQ_ECORRUPT, "calibration of node %u holds %g ticks", idx, v[i]);
    if (c->c.ordered > 1 || c->c.empty_min > c->c.empty_typical ||
        c->c.empty_min > c->c.empty_median)
        return fail(f, QQ_ECORRUPT, "calibration of node %u is inconsistent", idx);
    if (len >= QQ__CALB_PATH) {
        c->c.path = ld32(pl + 40);
        c->c.path_flags = ld32(pl + 44);
        if (c->c.path == QQ_TICKS_UNSET || c->c.path >= QQ_TICKS_NPATHS ||
            (c->c.path_flags & ~QQ_CALIB_KNOWN) != 0)
            return fail(f, QQ_ECORRUPT, "calibration of node %u names tick path %u, flags 0x%x",
                        idx, c->c.path, c->c.path_flags);
    }
    c->present = 1;
    return 0;
}

/* A node's threads (THRD). The rows must account for the node table's
 * entries and dropped events exactly, each row's index its position: then
 * thread I's entries are the I-th block of the node's entries. */
static int parse_thrd(struct qq_file *f, uint32_t idx, const unsigned char *pl, uint64_t len)
{
    struct qq__nodethr *t = &f->thr[idx];
    if (t->present)
        return fail(f, QQ_ECORRUPT, "node %u has two thread tables", idx);
    struct cur c = {pl, len};
    const unsigned char *h;
    if (take(&c, 8, &h))
        return fail(f, QQ_ECORRUPT, "thread table of node %u is too short", idx);
    uint32_t n = ld32(h);
    /* Each row takes at least 32 bytes: counts the payload cannot hold are
     * refused before anything is allocated for them. */
    if (n > c.left / 32)
        return fail(f, QQ_ECORRUPT, "thread table of node %u claims %u threads in %zu bytes", idx,
                    n, c.left);
    t->t = calloc(n ? n : 1, sizeof *t->t);
    if (!t->t)
        return fail(f, QQ_ENOMEM, "out of memory");
    t->present = 1;
    const struct qq_node_info *ni = &f->nodes[idx];
    uint64_t entries = 0, dropped = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *r, *name;
        if (take(&c, 32, &r) || take(&c, ld32(r + 4), &name))
            return fail(f, QQ_ECORRUPT, "thread %u of node %u runs past its section", i, idx);
        skip_pad8(&c, pl);
        struct qq_thread_info *ti = &t->t[i];
        ti->index = ld32(r);
        ti->tid = ld64(r + 8);
        ti->events = ld64(r + 16);
        ti->dropped = ld64(r + 24);
        ti->first = entries;
        if (ti->index != i)
            return fail(f, QQ_ECORRUPT, "thread %u of node %u has index %u", i, idx, ti->index);
        if (ti->events > ni->entries - entries)
            return fail(f, QQ_ECORRUPT,
                        "thread %u of node %u claims %llu entries, past the node's %llu", i, idx,
                        (unsigned long long)ti->events, (unsigned long long)ni->entries);
        if (ti->dropped > UINT64_MAX - dropped)
            return fail(f, QQ_ECORRUPT,
                        "thread %u of node %u claims %llu dropped events, past 2^64 with the "
                        "rows before it",
                        i, idx, (unsigned long long)ti->dropped);
        entries += ti->events;
        dropped += ti->dropped;
        size_t bad = qq_name_check((const char *)name, ld32(r + 4));
        if (bad)
            return fail(f, QQ_ECORRUPT,
                        "thread %u of node %u: its name breaks the rule for names at byte %zu", i,
                        idx, bad);
        ti->name = dupn(name, ld32(r + 4));
        if (!ti->name)
            return fail(f, QQ_ENOMEM, "out of memory");
        t->n = i + 1;
    }
    if (entries != ni->entries || dropped != ni->dropped)
        return fail(f, QQ_ECORRUPT,
                    "thread table of node %u accounts for %llu entries and %llu dropped, the "
                    "node table says %llu and %llu",
                    idx, (unsigned long long)entries, (unsigned long long)dropped,
                    (unsigned long long)ni->entries, (unsigned long long)ni->dropped);
    return 0;
}

/* Nodes without a THRD section (files before 1.1) have one thread: all
 * their entries, no OS id and no name. */
static int default_threads(struct qq_file *f)
{
    for (uint32_t i = 0; i < f->nnodes; i++) {
        struct qq__nodethr *t = &f->thr[i];
        if (t->present)
            continue;
        t->t = calloc(1, sizeof *t->t);
        char *name = calloc(1, 1);
        if (!t->t || !name) {
            free(name);
            return fail(f, QQ_ENOMEM, "out of memory");
        }
        t->n = 1;
        t->t[0].events = f->nodes[i].entries;
        t->t[0].dropped = f->nodes[i].dropped;
        t->t[0].name = name;
    }
    return 0;
}

/* From version 1.1 every entry's reserved field is its thread's index:
 * say which of the N entries E of node I from entry FIRST breaks the
 * blocks of the thread table. */
static int say_threads(const struct qq_file *f, uint32_t i, const struct qq_event *e, size_t n,
                       uint64_t first)
{
    if (f->minor < 1 || n == 0)
        return 0;
    const struct qq__nodethr *t = &f->thr[i];
    uint32_t th = qq__thread_of(f, i, first);
    for (size_t j = 0; j < n; j++) {
        uint64_t idx = first + j;
        while (th < t->n && idx >= t->t[th].first + t->t[th].events)
            th++;
        if (th == t->n || e[j].reserved != t->t[th].index)
            return fail(f, QQ_ECORRUPT,
                        "node %u: entry %llu carries thread %u, but the thread table puts it in "
                        "thread %u",
                        i, (unsigned long long)idx, e[j].reserved, th);
    }
    return 0;
}

/* A node number and its row in the node table, sorted by number then row. */
struct rank_row {
    uint32_t node, row;
};

static int cmp_rank_row(const void *a, const void *b)
{
    const struct rank_row *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Per-node sections found while walking, matched to the node table after. */
struct found {
    uint32_t tag, node;
    uint64_t at, len; /* payload offset and length */
};

/* The header's checks: D holds the first AVAIL bytes of a file of SIZE
 * bytes. The openers run them on the first 64 bytes before reading more,
 * so a big file that is not a QQ file is never read whole. */
static int check_header(struct qq_file *f, const unsigned char *d, size_t avail, uint64_t size)
{
    if (avail < 8 || memcmp(d, QQ__MAGIC, 8) != 0)
        return fail(f, QQ_EMAGIC, "not a QQ file (bad magic)");
    if (avail < QQ__HEADER_SIZE)
        return fail(f, QQ_ETRUNCATED, "truncated: %zu bytes, the header alone is %d", avail,
                    QQ__HEADER_SIZE);
    unsigned major = d[8] | d[9] << 8, minor = d[10] | d[11] << 8;
    if (major != QQ__VERSION_MAJOR)
        return fail(f, QQ_EVERSION, "format version %u.%u, this reader reads %d.x", major, minor,
                    QQ__VERSION_MAJOR);
    uint32_t hsize = ld32(d + 12), flags = ld32(d + 16);
    uint64_t fsize = ld64(d + 32);
    if (hsize < QQ__HEADER_SIZE || hsize % 8 || hsize > size)
        return fail(f, QQ_ECORRUPT, "header size %u is invalid", hsize);
    if (!(flags & QQ__FLAG_COMPLETE))
        return fail(f, QQ_EINCOMPLETE, "incomplete: the writer did not finish this file");
    if (fsize > size)
        return fail(f, QQ_ETRUNCATED, "truncated: %llu bytes, the header says %llu",
                    (unsigned long long)size, (unsigned long long)fsize);
    if (fsize < size)
        return fail(f, QQ_ECORRUPT, "%llu bytes, the header says %llu", (unsigned long long)size,
                    (unsigned long long)fsize);
    return 0;
}

/* Say what is wrong with the first unsound entry of the N entries E of
 * node I, the first being entry FIRST: the one place with the messages. */
static int say_entries(const struct qq_file *f, uint32_t i, const struct qq_event *e, size_t n,
                       uint64_t first)
{
    for (size_t j = 0; j < n; j++) {
        if (e[j].key >= f->nkeys)
            return fail(f, QQ_ECORRUPT, "node %u: entry %llu has key %u, but the file has %u keys",
                        i, (unsigned long long)first + j, e[j].key, f->nkeys);
        uint32_t type = f->keys[e[j].key].type;
        if (type == QQ_TYPE_STATE && (uint64_t)e[j].info.i > 1)
            return fail(f, QQ_ECORRUPT, "node %u: entry %llu sets state '%s' to %lld (not 0 or 1)",
                        i, (unsigned long long)first + j, f->keys[e[j].key].name,
                        (long long)e[j].info.i);
        /* Non-finite values are refused here, once, for every tool: a NaN
         * would poison every mean, comparison and baseline. */
        if (type == QQ_TYPE_VALUE && !isfinite(e[j].info.d))
            return fail(f, QQ_ECORRUPT,
                        "node %u: entry %llu gives value key '%s' the value %g "
                        "(QQValue takes finite numbers only)",
                        i, (unsigned long long)first + j, f->keys[e[j].key].name, e[j].info.d);
    }
    return say_threads(f, i, e, n, first);
}

/* 1 when the N entries E of one thread block are sound (qq_file_internal.h
 * says what that is), else 0. One branch, on the key's range; the rest is
 * arithmetic folded into one word, so that sound entries, the common case,
 * cost a few instructions each (docs/PERFORMANCE.md, "Reading .qq files"). */
static int block_sound(const struct qq_key_info *keys, uint32_t nk, const struct qq_event *e,
                       size_t n, uint32_t tix, uint32_t mask)
{
    const uint64_t inf = UINT64_C(0x7ff0000000000000); /* exponent all ones: Inf, NaN */
    uint64_t bad = 0;
    for (size_t j = 0; j < n; j++) {
        const uint32_t k = e[j].key;
        if (k >= nk)
            return 0;
        const uint32_t type = keys[k].type;
        const uint64_t info = (uint64_t)e[j].info.i;
        bad |= (uint64_t)(type == QQ_TYPE_STATE && info > 1) |
               (uint64_t)(type == QQ_TYPE_VALUE && (info & inf) == inf) |
               ((e[j].reserved ^ tix) & mask);
    }
    return bad == 0;
}

/* Check N entries E of node I, the first being entry FIRST: at open for a
 * file read whole, chunk by chunk for a streamed one. Thread block by
 * thread block, block_sound tells whether all is well; only when it is not
 * does say_entries walk them again to say what is wrong. qq__node_pass
 * tests the same in its own walk and calls here for the message. */
int qq__check_entries(const struct qq_file *f, uint32_t i, const struct qq_event *e, size_t n,
                      uint64_t first)
{
    const struct qq__nodethr *t = &f->thr[i];
    const uint32_t mask = f->minor >= 1 ? UINT32_MAX : 0;
    uint32_t th = qq__thread_of(f, i, first);
    for (size_t j = 0; j < n; th++) {
        /* A valid thread table covers every entry; past it, in a 1.0 file,
         * any thread will do. */
        if (th >= t->n && mask)
            return say_entries(f, i, e, n, first);
        uint64_t idx = first + j, end = th < t->n ? t->t[th].first + t->t[th].events : UINT64_MAX;
        size_t len = end - idx < n - j ? (size_t)(end - idx) : n - j;
        if (!block_sound(f->keys, f->nkeys, e + j, len, th < t->n ? t->t[th].index : 0, mask))
            return say_entries(f, i, e, n, first);
        j += len;
    }
    return 0;
}

#define TICK_OFFSET_MAX ((int64_t)1 << 62) /* a node's |tick_offset| and offset_error */

static void decode_node(struct qq_node_info *n, const unsigned char *r)
{
    n->node = ld32(r);
    n->flags = ld32(r + 4);
    n->offset = ld64(r + 8);
    n->entries = ld64(r + 16);
    n->base_tick = ld64(r + 24);
    n->mhz = ldf64(r + 32);
    n->dropped = ld64(r + 40);
    n->tick_offset = (int64_t)ld64(r + 48);
    n->offset_error = ldf64(r + 56);
}

/* The header's counts (HEAD is checked): the keys and nodes, refused when
 * the file cannot hold them, and the per-node tables allocated. */
static int read_counts(struct qq_file *f, const unsigned char *head)
{
    size_t size = f->size;
    f->minor = (unsigned)(head[10] | head[11] << 8);
    f->nkeys = ld32(head + 20);
    f->nnodes = ld32(head + 24);
    /* Every key takes at least 16 bytes and every node 64+16: refuse counts
     * the file cannot hold before allocating for them. */
    if (f->nkeys > size / 16 || f->nnodes > size / 80)
        return fail(f, QQ_ECORRUPT, "header claims %u keys and %u nodes in %zu bytes", f->nkeys,
                    f->nnodes, size);

    f->nodes = calloc(f->nnodes ? f->nnodes : 1, sizeof *f->nodes);
    /* An array of pointers, one per node. */
    f->entries = calloc(f->nnodes ? f->nnodes : 1,
                        sizeof *f->entries); /* NOLINT(bugprone-sizeof-expression) */
    f->mem = calloc(f->nnodes ? f->nnodes : 1, sizeof *f->mem);
    f->cal = calloc(f->nnodes ? f->nnodes : 1, sizeof *f->cal);
    f->thr = calloc(f->nnodes ? f->nnodes : 1, sizeof *f->thr);
    if (!f->nodes || !f->entries || !f->mem || !f->cal || !f->thr)
        return fail(f, QQ_ENOMEM, "out of memory");
    return 0;
}

/* What the walk over the sections found: the per-node sections, in file
 * order, and whether the key and node tables were read. */
struct walk {
    struct found *sec;
    size_t nsec, cap;
    int have_keys, have_nodes;
};

/* One section (TAG of NODE, LEN bytes of payload at AT, within the file):
 * the file-level tables are read now, the per-node sections noted. */
static int read_section(struct qq_file *f, struct qq__src *src, struct walk *w, uint32_t tag,
                        uint32_t node, uint64_t at, uint64_t len)
{
    const unsigned char *d;
    int rc;
    if (tag == QQ__TAG_KEYS) {
        if (w->have_keys++)
            return fail(f, QQ_ECORRUPT, "two key tables");
        if ((rc = qq__src_get(f, src, at, len, &d)) || (rc = parse_keys(f, d, len)))
            return rc;
    } else if (tag == QQ__TAG_META) {
        if ((rc = qq__src_get(f, src, at, len, &d)) || (rc = parse_meta(f, d, len)))
            return rc;
    } else if (tag == QQ__TAG_TUNE) {
        if ((rc = qq__src_get(f, src, at, len, &d)) || (rc = qq__parse_tune(f, d, len)))
            return rc;
    } else if (tag == QQ__TAG_NODE) {
        if (w->have_nodes++)
            return fail(f, QQ_ECORRUPT, "two node tables");
        if (len != (uint64_t)f->nnodes * QQ__NODE_RECORD)
            return fail(f, QQ_ECORRUPT, "node table is %llu bytes, %u nodes need %llu",
                        (unsigned long long)len, f->nnodes,
                        (unsigned long long)f->nnodes * QQ__NODE_RECORD);
        if ((rc = qq__src_get(f, src, at, len, &d)))
            return rc;
        for (uint32_t i = 0; i < f->nnodes; i++)
            decode_node(&f->nodes[i], d + (size_t)i * QQ__NODE_RECORD);
    } else if (tag == QQ__TAG_EVTS || tag == QQ__TAG_MEMT || tag == QQ__TAG_CALB ||
               tag == QQ__TAG_THRD) {
        if (w->nsec == w->cap) {
            w->cap = w->cap ? 2 * w->cap : 8;
            struct found *e = realloc(w->sec, w->cap * sizeof *e);
            if (!e)
                return fail(f, QQ_ENOMEM, "out of memory");
            w->sec = e;
        }
        w->sec[w->nsec++] = (struct found){tag, node, at, len};
    } /* unknown tags: later extensions, skipped */
    return 0;
}

/* Walk the sections from byte HSIZE to the end of the file into W. */
static int walk_sections(struct qq_file *f, struct qq__src *src, uint32_t hsize, struct walk *w)
{
    size_t size = f->size;
    char tb[8];
    const unsigned char *d;
    int rc;
    uint64_t pos = hsize;
    while (pos < size) {
        if (size - pos < QQ__SECTION_HEAD)
            return fail(f, QQ_ETRUNCATED, "truncated section header at byte %llu",
                        (unsigned long long)pos);
        if ((rc = qq__src_get(f, src, pos, QQ__SECTION_HEAD, &d)))
            return rc;
        uint32_t tag = ld32(d), node = ld32(d + 4);
        uint64_t len = ld64(d + 8);
        uint64_t at = pos + QQ__SECTION_HEAD;
        if (len > size - at || len % 8)
            return fail(f, QQ_ECORRUPT,
                        "section '%s' at byte %llu has length %llu, past the end "
                        "of the file (%zu bytes)",
                        tagname(tag, tb), (unsigned long long)pos, (unsigned long long)len, size);
        if ((rc = read_section(f, src, w, tag, node, at, len)))
            return rc;
        pos = at + len;
    }
    if (!w->have_keys)
        return fail(f, QQ_ECORRUPT, "no key table");
    if (!w->have_nodes)
        return fail(f, QQ_ECORRUPT, "no node table");
    return 0;
}

/* Node I's row of the node table: its tick frequency, its clock offset
 * and the place of its entries within the file. */
static int check_node(const struct qq_file *f, uint32_t i)
{
    const struct qq_node_info *n = &f->nodes[i];
    size_t size = f->size;
    if (!(n->mhz > 0.0) || n->mhz > 1e7)
        return fail(f, QQ_ECORRUPT, "node %u: tick frequency %g MHz is invalid", i, n->mhz);
    /* Clock offsets between counters that started within decades of
     * each other: |offset| and its error bound at most 2^62 ticks (29
     * years at 5 GHz), so tick - offset never overflows in a reader. */
    if (n->tick_offset < -TICK_OFFSET_MAX || n->tick_offset > TICK_OFFSET_MAX)
        return fail(f, QQ_ECORRUPT,
                    "node %u: tick offset %lld ticks is out of range (at most 2^62 either way)", i,
                    (long long)n->tick_offset);
    if (!(n->offset_error >= 0.0 && n->offset_error <= (double)TICK_OFFSET_MAX))
        return fail(f, QQ_ECORRUPT,
                    "node %u: tick offset error %g ticks is out of range (0 to 2^62)", i,
                    n->offset_error);
    if (n->offset > size || n->entries > (size - n->offset) / QQ__EVENT_SIZE)
        return fail(f, QQ_ECORRUPT,
                    "node %u: %llu entries at byte %llu point past the end "
                    "of the file (%zu bytes)",
                    i, (unsigned long long)n->entries, (unsigned long long)n->offset, size);
    return 0;
}

/* Each node's row checked and matched to its own entry section of W (a
 * file read whole: its entries pointed at, checked once the thread tables
 * are read). */
static int match_entries(struct qq_file *f, const struct qq__src *src, const struct walk *w)
{
    const struct found *sec = w->sec;
    size_t nsec = w->nsec;
    unsigned char *used = calloc(nsec ? nsec : 1, 1); /* per section: claimed by a node already */
    if (!used)
        return fail(f, QQ_ENOMEM, "out of memory");
    int rc = 0;
    for (uint32_t i = 0; i < f->nnodes && rc == 0; i++) {
        const struct qq_node_info *n = &f->nodes[i];
        if ((rc = check_node(f, i)))
            break;
        /* The walk found the sections in file order: their offsets rise,
         * so a node's is found by bisection (a scan of every section for
         * every node took 8 s at 100,000 nodes). */
        size_t lo = 0, hi = nsec;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sec[mid].at < n->offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t k = lo < nsec && sec[lo].at == n->offset && sec[lo].tag == QQ__TAG_EVTS ? lo : nsec;
        /* One entry section per node: nodes sharing one would let a small
         * file stand for any number of entries (and any length of output). */
        if (k == nsec || sec[k].len != n->entries * QQ__EVENT_SIZE)
            rc = fail(f, QQ_ECORRUPT,
                      "node %u: byte offset %llu and %llu entries do not match "
                      "an entry section",
                      i, (unsigned long long)n->offset, (unsigned long long)n->entries);
        else if (used[k])
            rc = fail(f, QQ_ECORRUPT, "node %u: its entries at byte %llu belong to another node", i,
                      (unsigned long long)n->offset);
        else
            used[k] = 1;
        if (rc == 0 && src->mem) /* checked later, once the thread tables are read */
            f->entries[i] = (const struct qq_event *)(src->mem + n->offset);
    }
    free(used);
    return rc;
}

/* The per-node sections of W other than the entries (memory tables,
 * calibrations, thread tables), each read into the row of its node. */
static int read_node_sections(struct qq_file *f, struct qq__src *src, const struct walk *w)
{
    /* Node numbers to table rows, sorted once: a section's node is found
     * by bisection, the first row of that number as before. */
    struct rank_row *byrank = malloc((f->nnodes ? f->nnodes : 1) * sizeof *byrank);
    if (!byrank)
        return fail(f, QQ_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < f->nnodes; i++)
        byrank[i] = (struct rank_row){f->nodes[i].node, i};
    qsort(byrank, f->nnodes, sizeof *byrank, cmp_rank_row);
    int rc = 0;
    for (size_t k = 0; k < w->nsec && rc == 0; k++) {
        const struct found *s = &w->sec[k];
        if (s->tag != QQ__TAG_MEMT && s->tag != QQ__TAG_CALB && s->tag != QQ__TAG_THRD)
            continue;
        size_t lo = 0, hi = f->nnodes;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (byrank[mid].node < s->node)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint32_t idx = lo < f->nnodes && byrank[lo].node == s->node ? byrank[lo].row : f->nnodes;
        const unsigned char *d;
        if (idx == f->nnodes)
            rc = fail(f, QQ_ECORRUPT,
                      "%s for node %u, which is not in "
                      "the node table",
                      s->tag == QQ__TAG_MEMT   ? "memory table"
                      : s->tag == QQ__TAG_CALB ? "calibration"
                                               : "thread table",
                      s->node);
        else if ((rc = qq__src_get(f, src, s->at, s->len, &d)) == 0)
            rc = s->tag == QQ__TAG_MEMT   ? parse_memt(f, idx, d, s->len)
                 : s->tag == QQ__TAG_CALB ? parse_calb(f, idx, d, s->len)
                                          : parse_thrd(f, idx, d, s->len);
    }
    free(byrank);
    return rc;
}

/* Walk the sections after the checked header HEAD; a file read whole also
 * has its entries checked here. */
int qq__file_parse(struct qq_file *f, struct qq__src *src, const unsigned char *head)
{
    int rc = read_counts(f, head);
    if (rc)
        return rc;
    struct walk w = {0};
    if ((rc = walk_sections(f, src, ld32(head + 12), &w)) == 0 &&
        (rc = match_entries(f, src, &w)) == 0 && (rc = read_node_sections(f, src, &w)) == 0)
        rc = default_threads(f);
    for (uint32_t i = 0; rc == 0 && src->mem && i < f->nnodes; i++)
        rc = qq__check_entries(f, i, f->entries[i], (size_t)f->nodes[i].entries, 0);
    free(w.sec);
    return rc;
}

struct qq_file *qq__file_new(const char *name)
{
    struct qq_file *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->fd = -1;
    f->name = strdup(name ? name : "(memory)");
    f->err = calloc(1, ERR_SIZE);
    if (!f->name || !f->err) {
        free(f->name);
        free(f->err);
        free(f);
        return NULL;
    }
    return f;
}

/* Parse the whole file at DATA (SIZE bytes, 8-aligned). */
static int parse_mem(struct qq_file *f, const unsigned char *data, size_t size)
{
    f->data = data;
    f->size = size;
    int rc = check_header(f, data, size, size);
    if (rc)
        return rc;
    struct qq__src s = {.mem = data, .fd = -1};
    return qq__file_parse(f, &s, data);
}

int qq_file_open_mem(const void *data, size_t size, const char *name, struct qq_file **out)
{
    struct qq_file *f = qq__file_new(name);
    *out = f;
    if (!f)
        return QQ_ENOMEM;
    /* Entries are handed out as struct qq_event: make sure they are aligned. */
    if ((uintptr_t)data % 8) {
        f->owned = malloc(size ? size : 1);
        if (!f->owned)
            return fail(f, QQ_ENOMEM, "out of memory");
        memcpy(f->owned, data, size);
        data = f->owned;
    }
    return parse_mem(f, data, size);
}

/*
 * Only a regular file is read: a directory, a FIFO or a device is refused
 * by its type before a byte is read (O_NONBLOCK: opening a FIFO that has no
 * writer does not wait for one). Then the header alone is read and checked
 * (magic, version, completeness, its size against the file's) into HEAD.
 * Returns the open descriptor in *FD, or an error (then *FD is -1).
 */
int qq__file_open_checked(struct qq_file *f, const char *path, int *fd,
                          unsigned char head[QQ__HEADER_SIZE])
{
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return fail(f, QQ_EIO, "cannot open: %s", strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(*fd, &st) != 0)
        rc = fail(f, QQ_EIO, "cannot stat: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = fail(f, QQ_EIO, "is %s, not a QQ file", qq__file_kind(st.st_mode));
    if (rc == 0) {
        ssize_t got = qq__pread_full(*fd, head, QQ__HEADER_SIZE, 0);
        if (got < 0)
            rc = fail(f, QQ_EIO, "read error: %s", strerror(errno));
        else
            rc = check_header(f, head, (size_t)got, (uint64_t)st.st_size);
    }
    if (rc == 0 && (uint64_t)st.st_size > (uint64_t)SIZE_MAX / 2)
        rc = fail(f, QQ_ENOMEM, "%llu bytes: too big to read here", (unsigned long long)st.st_size);
    if (rc) {
        close(*fd);
        *fd = -1;
        return rc;
    }
    f->size = (size_t)st.st_size;
    return 0;
}

/* A file that passes the header's checks is read whole, then parsed. */
int qq_file_open(const char *path, struct qq_file **out)
{
    struct qq_file *f = qq__file_new(path);
    *out = f;
    if (!f)
        return QQ_ENOMEM;
    int fd;
    unsigned char head[QQ__HEADER_SIZE];
    int rc = qq__file_open_checked(f, path, &fd, head);
    if (rc)
        return rc;
    f->owned = malloc(f->size ? f->size : 1);
    if (!f->owned) {
        close(fd);
        return fail(f, QQ_ENOMEM, "out of memory for %zu bytes", f->size);
    }
    ssize_t got = qq__pread_full(fd, f->owned, f->size, 0);
    int e = errno;
    close(fd);
    if (got < 0)
        return fail(f, QQ_EIO, "read error: %s", strerror(e));
    /* Shorter when the file shrank: the header's check says so. */
    return parse_mem(f, f->owned, (size_t)got);
}

const char *qq_file_errmsg(const struct qq_file *f)
{
    return f ? f->err : "out of memory";
}

void qq_file_close(struct qq_file *f)
{
    if (!f)
        return;
    if (f->keys)
        for (uint32_t i = 0; i < f->nkeys; i++)
            free((char *)f->keys[i].name);
    for (size_t i = 0; i < f->nmeta; i++) {
        free(f->meta[i].name);
        free(f->meta[i].value);
    }
    if (f->mem)
        for (uint32_t i = 0; i < f->nnodes; i++) {
            if (f->mem[i].rows)
                for (uint32_t r = 0; r < f->mem[i].t.nrows; r++)
                    free((char *)f->mem[i].rows[r].name);
            free(f->mem[i].rows);
        }
    free(f->mem);
    if (f->thr)
        for (uint32_t i = 0; i < f->nnodes; i++) {
            if (f->thr[i].t)
                for (uint32_t t = 0; t < f->thr[i].n; t++)
                    free((char *)f->thr[i].t[t].name);
            free(f->thr[i].t);
        }
    free(f->thr);
    qq__tunes_free(f);
    free(f->cal);
    free(f->meta);
    free(f->keys);
    free(f->nodes);
    free(f->entries);
    free(f->owned);
    if (f->fd >= 0)
        close(f->fd);
    free(f->err);
    free(f->name);
    free(f);
}

const char *qq_file_name(const struct qq_file *f)
{
    return f->name;
}
uint32_t qq_file_nkeys(const struct qq_file *f)
{
    return f->nkeys;
}
uint32_t qq_file_nnodes(const struct qq_file *f)
{
    return f->nnodes;
}

const struct qq_key_info *qq_file_key(const struct qq_file *f, uint32_t key)
{
    return key < f->nkeys ? &f->keys[key] : NULL;
}

const struct qq_node_info *qq_file_node(const struct qq_file *f, uint32_t node)
{
    return node < f->nnodes ? &f->nodes[node] : NULL;
}

const struct qq_event *qq_file_entries(const struct qq_file *f, uint32_t node)
{
    return node < f->nnodes ? f->entries[node] : NULL;
}

const char *qq_file_meta(const struct qq_file *f, const char *name)
{
    for (size_t i = 0; i < f->nmeta; i++)
        if (strcmp(f->meta[i].name, name) == 0)
            return f->meta[i].value;
    return NULL;
}

int qq_file_meta_at(const struct qq_file *f, size_t i, const char **name, const char **value)
{
    if (i >= f->nmeta)
        return QQ_EINVAL;
    *name = f->meta[i].name;
    *value = f->meta[i].value;
    return 0;
}

int qq_file_mem(const struct qq_file *f, uint32_t node, struct qq_mem_table *out)
{
    if (node >= f->nnodes || !f->mem[node].present) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = f->mem[node].t;
    return 1;
}

int qq_file_calib(const struct qq_file *f, uint32_t node, struct qq_calib *out)
{
    if (node >= f->nnodes || !f->cal[node].present) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = f->cal[node].c;
    return 1;
}

int qq_file_ticks_variant(const struct qq_file *f, uint32_t node)
{
    if (node >= f->nnodes || !f->cal[node].present)
        return 0;
    const struct qq_calib *c = &f->cal[node].c;
    return (c->path == QQ_TICKS_LFENCE || c->path == QQ_TICKS_RDTSCP) &&
           !(c->path_flags & QQ_CALIB_INVARIANT);
}

/* ======================================================================
 * Threads.
 * ====================================================================== */

uint32_t qq_file_nthreads(const struct qq_file *f, uint32_t node)
{
    return node < f->nnodes ? f->thr[node].n : 0;
}

const struct qq_thread_info *qq_file_thread(const struct qq_file *f, uint32_t node, uint32_t thread)
{
    return node < f->nnodes && thread < f->thr[node].n ? &f->thr[node].t[thread] : NULL;
}
