/* qq_file_stream.c - a .qq file read through its descriptor; a node's entries in chunks, and the
 * one pass that summarizes them (either kind of file). */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qq_file_internal.h"

/* Read LEN bytes at OFFSET; returns the count read (short at end of file)
 * or -1. */
ssize_t qq__pread_full(int fd, unsigned char *p, size_t len, off_t offset)
{
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(fd, p + done, len - done, offset + (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        done += (size_t)r;
    }
    return (ssize_t)done;
}

/*
 * The window a streamed file's sections are read through at open
 * (qq__file_parse), so that its entry sections are stepped over unread. A
 * pointer qq__src_get hands out stays valid until its next call.
 */
#define WINDOW ((size_t)64 * 1024)

/* Bytes [AT, AT + LEN) of the file, which the caller has checked lie within
 * its size. */
int qq__src_get(struct qq_file *f, struct qq__src *s, uint64_t at, uint64_t len,
                const unsigned char **p)
{
    if (s->mem) {
        *p = s->mem + at;
        return 0;
    }
    if (at >= s->off && len <= s->len && at - s->off <= s->len - len) {
        *p = s->win + (at - s->off);
        return 0;
    }
    size_t want = len > WINDOW ? (size_t)len : WINDOW;
    if (want > f->size - at) /* >= LEN */
        want = (size_t)(f->size - at);
    if (want > s->cap) {
        unsigned char *w = realloc(s->win, want);
        if (!w)
            return fail(f, QQ_ENOMEM, "out of memory for %zu bytes", want);
        s->win = w;
        s->cap = want;
    }
    ssize_t got = qq__pread_full(s->fd, s->win, want, (off_t)at);
    if (got < 0)
        return fail(f, QQ_EIO, "read error: %s", strerror(errno));
    s->off = at;
    s->len = (size_t)got;
    if ((uint64_t)got < len)
        return fail(f, QQ_ETRUNCATED,
                    "truncated: the file ends at byte %llu, it shrank after it "
                    "was opened",
                    (unsigned long long)at + (unsigned long long)got);
    *p = s->win;
    return 0;
}

/* A file that passes the header's checks keeps its descriptor; the walk
 * reads every section but the entries. */
int qq_file_open_stream(const char *path, struct qq_file **out)
{
    struct qq_file *f = qq__file_new(path);
    *out = f;
    if (!f)
        return QQ_ENOMEM;
    unsigned char head[QQ__HEADER_SIZE];
    int rc = qq__file_open_checked(f, path, &f->fd, head);
    if (rc)
        return rc;
#ifdef POSIX_FADV_SEQUENTIAL
    (void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    struct qq__src s = {.fd = f->fd};
    rc = qq__file_parse(f, &s, head);
    free(s.win);
    return rc;
}

/* ======================================================================
 * Chunks of a node's entries.
 * ====================================================================== */

size_t qq__read_chunk = (size_t)1 << 18;

static int no_node(const struct qq_file *f, uint32_t node)
{
    return fail(f, QQ_EINVAL, "no node %u (the file has %u)", node, f->nnodes);
}

struct qq_chunks {
    const struct qq_file *f;
    uint32_t node;
    uint64_t next, end; /* entry indices */
    struct qq_event *buf;
    size_t cap; /* entries buf holds */
};

/* Chunks of NODE's entries FROM .. TO - 1 (in range: the caller checked). */
static int chunks_open_range(const struct qq_file *f, uint32_t node, uint64_t from, uint64_t to,
                             struct qq_chunks **out)
{
    *out = NULL;
    struct qq_chunks *c = calloc(1, sizeof *c);
    if (!c)
        return fail(f, QQ_ENOMEM, "out of memory");
    c->f = f;
    c->node = node;
    c->next = from;
    c->end = to;
    if (!f->data) {
        size_t cap = qq__read_chunk / QQ__EVENT_SIZE;
        if (cap < 1)
            cap = 1;
        uint64_t span = to > from ? to - from : 1;
        if (cap > span)
            cap = (size_t)span;
        c->buf = malloc((cap ? cap : 1) * sizeof *c->buf);
        if (!c->buf) {
            free(c);
            return fail(f, QQ_ENOMEM, "out of memory");
        }
        c->cap = cap;
    }
    *out = c;
    return 0;
}

int qq_file_chunks_open_thread(const struct qq_file *f, uint32_t node, uint32_t thread,
                               struct qq_chunks **out)
{
    *out = NULL;
    if (node >= f->nnodes)
        return no_node(f, node);
    if (thread >= f->thr[node].n)
        return fail(f, QQ_EINVAL, "node %u has no thread %u (it has %u)", node, thread,
                    f->thr[node].n);
    const struct qq_thread_info *t = &f->thr[node].t[thread];
    return chunks_open_range(f, node, t->first, t->first + t->events, out);
}

int qq_file_chunks_open(const struct qq_file *f, uint32_t node, struct qq_chunks **out)
{
    *out = NULL;
    if (node >= f->nnodes)
        return no_node(f, node);
    return chunks_open_range(f, node, 0, f->nodes[node].entries, out);
}

/* The next chunk; CHECK 0 leaves the entries of a streamed file unchecked
 * for a caller that checks them as it goes (qq__node_pass). */
static int chunks_read(struct qq_chunks *c, const struct qq_event **e, size_t *n, int check)
{
    /* Callers pass an open C (qq_file_chunks_open returned 0). */
    const struct qq_file *f = c->f; // NOLINT(clang-analyzer-core.NullDereference)
    *e = NULL;
    *n = 0;
    if (c->next >= c->end)
        return 0;
    if (f->data) { /* read whole and checked at open: one chunk */
        *e = f->entries[c->node] + c->next;
        *n = (size_t)(c->end - c->next);
        c->next = c->end;
        return 1;
    }
    size_t want = c->end - c->next < c->cap ? (size_t)(c->end - c->next) : c->cap;
    uint64_t at = f->nodes[c->node].offset + c->next * QQ__EVENT_SIZE;
    ssize_t got = qq__pread_full(f->fd, (unsigned char *)c->buf, want * QQ__EVENT_SIZE, (off_t)at);
    if (got < 0)
        return fail(f, QQ_EIO, "read error: %s", strerror(errno));
    if ((size_t)got < want * QQ__EVENT_SIZE)
        return fail(f, QQ_ETRUNCATED,
                    "truncated: node %u's entries stop at entry %llu of %llu (byte %llu); "
                    "the file shrank after it was opened",
                    c->node, (unsigned long long)c->next + (size_t)got / QQ__EVENT_SIZE,
                    (unsigned long long)c->end, (unsigned long long)at + (unsigned long long)got);
    int rc = check ? qq__check_entries(f, c->node, c->buf, want, c->next) : 0;
    if (rc)
        return rc;
    *e = c->buf;
    *n = want;
    c->next += want;
    return 1;
}

int qq_chunks_next(struct qq_chunks *c, const struct qq_event **e, size_t *n)
{
    return chunks_read(c, e, n, 1);
}

void qq_chunks_close(struct qq_chunks *c)
{
    if (!c)
        return;
    free(c->buf);
    free(c);
}

int qq_file_entry_at(const struct qq_file *f, uint32_t node, uint64_t index, struct qq_event *out)
{
    memset(out, 0, sizeof *out);
    if (node >= f->nnodes)
        return no_node(f, node);
    const struct qq_node_info *ni = &f->nodes[node];
    if (index >= ni->entries)
        return fail(f, QQ_EINVAL, "node %u has %llu entries, no entry %llu", node,
                    (unsigned long long)ni->entries, (unsigned long long)index);
    if (f->data) { /* read whole and checked at open */
        *out = f->entries[node][index];
        return 0;
    }
    struct qq_event e;
    uint64_t at = ni->offset + index * QQ__EVENT_SIZE;
    ssize_t got = qq__pread_full(f->fd, (unsigned char *)&e, QQ__EVENT_SIZE, (off_t)at);
    if (got < 0)
        return fail(f, QQ_EIO, "read error: %s", strerror(errno));
    if ((size_t)got < QQ__EVENT_SIZE)
        return fail(f, QQ_ETRUNCATED,
                    "truncated: node %u's entry %llu of %llu (byte %llu) is past the end of "
                    "the file; it shrank after it was opened",
                    node, (unsigned long long)index, (unsigned long long)ni->entries,
                    (unsigned long long)at);
    int rc = qq__check_entries(f, node, &e, 1, index);
    if (rc == 0)
        *out = e;
    return rc;
}

/* A 128-bit two's-complement sum of int64 counts: exact for any number of
 * entries a file can hold (fewer than 2^63), then clamped to int64. */
struct wide {
    uint64_t lo;
    int64_t hi;
};

static void wide_add(struct wide *w, int64_t v)
{
    uint64_t lo = w->lo + (uint64_t)v;
    w->hi += (int64_t)(lo < w->lo) - (int64_t)(v < 0);
    w->lo = lo;
}

static int64_t wide_clamp(const struct wide *w)
{
    if (w->hi == 0 && w->lo <= (uint64_t)INT64_MAX)
        return (int64_t)w->lo;
    if (w->hi == -1 && w->lo > (uint64_t)INT64_MAX)
        return -(int64_t)~w->lo - 1; /* lo - 2^64, without overflow */
    return w->hi < 0 ? INT64_MIN : INT64_MAX;
}

/* Per key, what one pass keeps while it walks: the summary's fields, and
 * the open interval of a state. */
struct pass_key {
    struct qq_key_summary s;
    struct wide isum;
    uint64_t open; /* tick the state went on */
    uint32_t type;
    uint32_t on;
    unsigned char pad[16]; /* 128 bytes: &pk[key] is one shift */
};
_Static_assert(sizeof(struct pass_key) == 128, "pass_key: 128 bytes");

/* Walk N entries E into PK (NK keys). Returns 0, 1 at the first entry that
 * check_entries refuses (the entries are unchecked: this is where a
 * streamed file's are checked, in the same pass), or QQ_ENOMEM. */
static int pass_entries(struct pass_key *restrict pk, uint32_t nk,
                        const struct qq_event *restrict e, size_t n, struct qq__ivals *restrict iv)
{
    for (const struct qq_event *end = e + n; e < end; e++) {
        /* The entry's fields once, before any store: nothing below can
         * change them. */
        const uint32_t key = e->key;
        const int64_t info = e->info.i;
        const uint64_t tick = e->tick;
        if (key >= nk)
            return 1;
        struct pass_key *p = &pk[key];
        struct qq_key_summary *s = &p->s;
        s->hits++;
        /* Tests, not a switch: a jump table's indirect branch costs more
         * than two compares when key types alternate. */
        if (p->type == QQ_TYPE_STATE) {
            if ((uint64_t)info > 1)
                return 1;
            if (info) {
                if (p->on)
                    s->unbalanced++; /* keep the earlier start */
                else {
                    p->on = 1;
                    p->open = tick;
                }
            } else if (!p->on) {
                s->unbalanced++;
            } else {
                uint64_t len = tick - p->open;
                p->on = 0;
                s->intervals++;
                s->state_ticks += len;
                if (iv && qq__ivals_push(&iv[key], len) != 0)
                    return QQ_ENOMEM;
            }
        } else if (p->type == QQ_TYPE_COUNT) {
            wide_add(&p->isum, info);
            if (info < s->imin)
                s->imin = info;
            if (info > s->imax)
                s->imax = info;
        } else if (p->type == QQ_TYPE_VALUE) {
            double d = e->info.d;
            if (!isfinite(d))
                return 1;
            s->dsum += d;
            if (d < s->dmin)
                s->dmin = d;
            if (d > s->dmax)
                s->dmax = d;
        }
    }
    return 0;
}

/* A thread's block ends: a state still on is unbalanced (each thread's
 * on pairs with its own thread's off), and the next block starts clean. */
static void close_block(struct pass_key *pk, uint32_t nk)
{
    for (uint32_t k = 0; k < nk; k++)
        if (pk[k].on) {
            pk[k].s.unbalanced++;
            pk[k].on = 0;
        }
}

/* One chunk (entries FIRST .. FIRST + M - 1 of NODE) walked thread block
 * by thread block, with the node's first and last ticks: the earliest
 * first entry and the latest last entry of its threads (SEEN: bit 0 a
 * first tick was taken, bit 1 a last). Returns as pass_entries. */
static int pass_chunk(const struct qq_file *f, uint32_t node, struct pass_key *pk,
                      const struct qq_event *e, size_t m, uint64_t first,
                      struct qq_node_summary *ns, int *seen, struct qq__ivals *iv)
{
    const struct qq__nodethr *t = &f->thr[node];
    uint32_t th = qq__thread_of(f, node, first);
    size_t j = 0;
    while (j < m) {
        uint64_t idx = first + j;
        int in = th < t->n;
        uint64_t bend = in ? t->t[th].first + t->t[th].events : UINT64_MAX;
        size_t len = bend - idx < m - j ? (size_t)(bend - idx) : m - j;
        if (in && idx == t->t[th].first && (!(*seen & 1) || e[j].tick < ns->first_tick)) {
            ns->first_tick = e[j].tick;
            *seen |= 1;
        }
        if (in && idx + len == bend && (!(*seen & 2) || e[j + len - 1].tick > ns->last_tick)) {
            ns->last_tick = e[j + len - 1].tick;
            *seen |= 2;
        }
        int rc = pass_entries(pk, f->nkeys, e + j, len, iv);
        if (rc)
            return rc;
        j += len;
        if (first + j == bend) {
            close_block(pk, f->nkeys);
            th++;
        }
    }
    return 0;
}

int qq__node_pass_range(const struct qq_file *f, uint32_t node, uint64_t from, uint64_t to,
                        struct qq_node_summary *ns, struct qq_key_summary *keys,
                        struct qq__ivals *iv)
{
    if (node >= f->nnodes || from > to || to > f->nodes[node].entries)
        return QQ_EINVAL;
    const struct qq_node_info *n = &f->nodes[node];
    struct pass_key *pk = calloc(f->nkeys ? f->nkeys : 1, sizeof *pk);
    if (!pk)
        return fail(f, QQ_ENOMEM, "out of memory");
    memset(ns, 0, sizeof *ns);
    for (uint32_t k = 0; k < f->nkeys; k++) {
        pk[k].type = f->keys[k].type;
        pk[k].s.imin = INT64_MAX;
        pk[k].s.imax = INT64_MIN;
        pk[k].s.dmin = HUGE_VAL;
        pk[k].s.dmax = -HUGE_VAL;
    }
    struct qq_chunks *c;
    int rc = chunks_open_range(f, node, from, to, &c);
    const struct qq_event *e;
    size_t m;
    uint64_t seen = from;
    int ticks = 0;
    /* rc == 0: c is open; chunks_read > 0: e holds m >= 1 entries. */
    // NOLINTBEGIN(clang-analyzer-core.NullDereference)
    while (rc == 0 && (rc = chunks_read(c, &e, &m, 0)) > 0) {
        /* A streamed file's thread fields are checked here (a file read
         * whole had them checked at open). */
        if (!f->data && (rc = qq__check_threads(f, node, e, m, seen)) != 0)
            break;
        rc = pass_chunk(f, node, pk, e, m, seen, ns, &ticks, iv);
        // NOLINTEND(clang-analyzer-core.NullDereference)
        if (rc == 1) /* what is wrong, as the whole file's open says it */
            rc = qq__check_entries(f, node, e, m, seen);
        else if (rc)
            rc = fail(f, rc, "out of memory");
        seen += m;
    }
    qq_chunks_close(c);
    if (rc < 0) {
        free(pk);
        return rc;
    }
    for (uint32_t k = 0; k < f->nkeys; k++) {
        struct qq_key_summary *s = &pk[k].s;
        if (pk[k].on)
            s->unbalanced++; /* still on at the end */
        if (s->hits == 0 || pk[k].type != QQ_TYPE_COUNT)
            s->imin = s->imax = 0;
        if (s->hits == 0 || pk[k].type != QQ_TYPE_VALUE)
            s->dmin = s->dmax = 0;
        s->isum = wide_clamp(&pk[k].isum);
        if (isinf(s->dsum)) /* finite values whose sum overflowed */
            s->dsum = s->dsum > 0 ? DBL_MAX : -DBL_MAX;
        if (pk[k].type == QQ_TYPE_STATE)
            ns->state_events += s->hits;
        if (iv)
            iv[k].sum = s->state_ticks;
        if (keys)
            keys[k] = *s;
    }
    if (to > from && ns->last_tick >= n->base_tick)
        ns->elapsed_sec = (double)(ns->last_tick - n->base_tick) / (n->mhz * 1e6);
    free(pk);
    return 0;
}

int qq__node_pass(const struct qq_file *f, uint32_t node, struct qq_node_summary *ns,
                  struct qq_key_summary *keys, struct qq__ivals *iv)
{
    if (node >= f->nnodes)
        return QQ_EINVAL;
    return qq__node_pass_range(f, node, 0, f->nodes[node].entries, ns, keys, iv);
}

int qq_file_summarize(const struct qq_file *f, uint32_t node, struct qq_node_summary *ns,
                      struct qq_key_summary *keys)
{
    return qq__node_pass(f, node, ns, keys, NULL);
}
