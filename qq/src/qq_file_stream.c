/* qq_file_stream.c - a .qq file read through its descriptor; a node's entries in chunks, and the
 * one pass that summarizes them (either kind of file). */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
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

/* An entry's key, with its thread's index above it: one load. */
static inline uint64_t key_word(const struct qq_event *e)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(struct qq_event, key) == 0 && offsetof(struct qq_event, reserved) == 4,
                   "qq_event: key, then reserved");
    uint64_t w;
    memcpy(&w, e, sizeof w);
    return w;
#else
    return (uint64_t)e->reserved << 32 | e->key;
#endif
}

/* Per key, what one pass keeps while it walks: at most one cache line, what
 * every event of the key touches first. A state counts its lengths below
 * LIM in HIST (its qq__ivals' counts, once it has them) and keeps the rest
 * from CUR up to END, the free room of its qq__ivals array (both NULL once
 * its lengths are doubles, so that every such length goes to pass_push),
 * or of the pass's scratch when no lengths are kept. */
struct pass_key {
    uint16_t type, on;
    uint32_t lim;
    union {
        uint64_t hits; /* not a state's: 2 x intervals + unbalanced (pass_summary) */
        size_t *hist;  /* a state's */
    } h;
    union {
        struct {
            uint64_t open; /* tick the state went on */
            uint64_t ticks, intervals, unbalanced;
            uint32_t *cur, *end;
        } st;
        struct {
            struct wide sum;
            int64_t min, max;
        } ct;
        struct {
            double sum, min, max;
        } va;
    } u;
};
_Static_assert(sizeof(struct pass_key) <= 64, "pass_key: one cache line");

#define PASS_SCRATCH 256

/* One pass over a node's entries: its keys, and where the states' interval
 * lengths go (IV NULL: nowhere, they run through SCRATCH). */
struct pass {
    struct pass_key *pk;
    uint32_t nk;
    struct qq__ivals *iv;
    uint32_t scratch[PASS_SCRATCH];
};

/* Key K's room for lengths is full, or LEN needs more than 32 bits: append
 * LEN the slow way and make new room. 0, or QQ_ENOMEM. */
static int pass_push(struct pass *ps, uint32_t k, uint64_t len)
{
    struct pass_key *p = &ps->pk[k];
    if (!ps->iv) {
        p->u.st.cur = ps->scratch;
        p->u.st.end = ps->scratch + PASS_SCRATCH;
        return 0;
    }
    struct qq__ivals *v = &ps->iv[k];
    if (p->u.st.cur)
        v->n = (size_t)(p->u.st.cur - v->u);
    if (qq__ivals_grow(v, len) != 0)
        return QQ_ENOMEM;
    p->h.hist = v->count;
    p->lim = v->count ? QQ__HIST_BINS : 0;
    p->u.st.cur = v->d ? NULL : v->u + v->n;
    p->u.st.end = v->d ? NULL : v->u + v->ucap;
    return 0;
}

/*
 * Walk N entries E of one thread block into PS. Returns 0, 1 when an entry
 * is one qq__check_entries refuses (the entries are unchecked: this is
 * where a streamed file's are checked, in the same pass), or QQ_ENOMEM.
 * Key and thread are checked by one compare: with KM ~0 and WANT the block's
 * thread above 32 bits (format 1.1), an entry's two words less WANT are its
 * key, below the count of keys, only when the thread is the block's; a 1.0
 * file's KM keeps the key alone. The other checks are folded into BAD, not
 * branched on; the branches left are the key's type and the state's turn,
 * which follow the program that wrote the file (docs/PERFORMANCE.md).
 */
static int pass_entries(struct pass *restrict ps, const struct qq_event *restrict e, size_t n,
                        uint64_t km, uint64_t want)
{
    const uint64_t inf = UINT64_C(0x7ff0000000000000); /* exponent all ones: Inf, NaN */
    struct pass_key *restrict pk = ps->pk;
    const uint64_t nk = ps->nk;
    uint64_t bad = 0;
    for (const struct qq_event *end = e + n; e < end; e++) {
        /* The entry's fields once, before any store: nothing below can
         * change them. */
        const uint64_t k = (key_word(e) & km) - want;
        const uint64_t info = (uint64_t)e->info.i;
        const uint64_t tick = e->tick;
        if (k >= nk)
            return 1;
        struct pass_key *p = &pk[k];
        /* Tests, not a switch: a jump table's indirect branch costs more
         * than two compares when key types alternate. A state's hits are
         * not counted: each is an end of an interval or unbalanced. */
        if (p->type == QQ_TYPE_STATE) {
            bad |= info >> 1; /* 0 or 1 */
            if (info == p->on) {
                p->u.st.unbalanced++; /* on while on (the earlier start kept), off while off */
            } else if (info) {
                p->on = 1;
                p->u.st.open = tick;
            } else {
                uint64_t len = tick - p->u.st.open;
                p->on = 0;
                p->u.st.intervals++;
                p->u.st.ticks += len;
                if (len < p->lim)
                    p->h.hist[len]++;
                else if (len >> 32 == 0 && p->u.st.cur != p->u.st.end)
                    *p->u.st.cur++ = (uint32_t)len;
                else if (pass_push(ps, (uint32_t)k, len) != 0)
                    return QQ_ENOMEM;
            }
            continue;
        }
        p->h.hits++;
        if (p->type == QQ_TYPE_COUNT) {
            wide_add(&p->u.ct.sum, (int64_t)info);
            p->u.ct.min = (int64_t)info < p->u.ct.min ? (int64_t)info : p->u.ct.min;
            p->u.ct.max = (int64_t)info > p->u.ct.max ? (int64_t)info : p->u.ct.max;
        } else if (p->type == QQ_TYPE_VALUE) {
            const double d = e->info.d;
            bad |= (uint64_t)((info & inf) == inf); /* not finite */
            p->u.va.sum += d;
            p->u.va.min = d < p->u.va.min ? d : p->u.va.min;
            p->u.va.max = d > p->u.va.max ? d : p->u.va.max;
        }
    }
    return bad != 0;
}

/* A thread's block ends: a state still on is unbalanced (each thread's
 * on pairs with its own thread's off), and the next block starts clean. */
static void close_block(struct pass_key *pk, uint32_t nk)
{
    for (uint32_t k = 0; k < nk; k++)
        if (pk[k].on) {
            pk[k].u.st.unbalanced++;
            pk[k].on = 0;
        }
}

/* One chunk (entries FIRST .. FIRST + M - 1 of NODE) walked thread block
 * by thread block, with the node's first and last ticks: the earliest
 * first entry and the latest last entry of its threads (SEEN: bit 0 a
 * first tick was taken, bit 1 a last). Returns as pass_entries. */
static int pass_chunk(const struct qq_file *f, uint32_t node, struct pass *ps,
                      const struct qq_event *e, size_t m, uint64_t first,
                      struct qq_node_summary *ns, int *seen)
{
    const struct qq__nodethr *t = &f->thr[node];
    const int threads = f->minor >= 1; /* entries carry their thread */
    uint32_t th = qq__thread_of(f, node, first);
    size_t j = 0;
    while (j < m) {
        uint64_t idx = first + j;
        int in = th < t->n;
        if (!in && threads) /* a valid thread table covers every entry */
            return 1;
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
        int rc = threads ? pass_entries(ps, e + j, len, UINT64_MAX, (uint64_t)t->t[th].index << 32)
                         : pass_entries(ps, e + j, len, UINT32_MAX, 0);
        if (rc)
            return rc;
        j += len;
        if (first + j == bend) {
            close_block(ps->pk, ps->nk);
            th++;
        }
    }
    return 0;
}

/* The pass's keys, each as its type starts it. NULL without memory. */
static struct pass_key *pass_keys(const struct qq_file *f)
{
    struct pass_key *pk = calloc(f->nkeys ? f->nkeys : 1, sizeof *pk);
    for (uint32_t k = 0; pk && k < f->nkeys; k++) {
        pk[k].type = f->keys[k].type;
        if (pk[k].type == QQ_TYPE_COUNT) {
            pk[k].u.ct.min = INT64_MAX;
            pk[k].u.ct.max = INT64_MIN;
        } else if (pk[k].type == QQ_TYPE_VALUE) {
            pk[k].u.va.min = HUGE_VAL;
            pk[k].u.va.max = -HUGE_VAL;
        }
    }
    return pk;
}

/* Key K's summary from what the pass kept; a state's lengths counted in
 * PS->iv, their sum set. */
static void pass_summary(struct pass *ps, uint32_t k, struct qq_key_summary *s)
{
    const struct pass_key *p = &ps->pk[k];
    memset(s, 0, sizeof *s);
    if (p->type != QQ_TYPE_STATE)
        s->hits = p->h.hits;
    if (p->type == QQ_TYPE_STATE) {
        s->intervals = p->u.st.intervals;
        s->state_ticks = p->u.st.ticks;
        s->unbalanced = p->u.st.unbalanced + p->on; /* still on at the end */
        s->hits = 2 * s->intervals + s->unbalanced;
        if (ps->iv) {
            if (p->u.st.cur)
                ps->iv[k].n = (size_t)(p->u.st.cur - ps->iv[k].u);
            ps->iv[k].sum = s->state_ticks;
        }
    } else if (p->type == QQ_TYPE_COUNT) {
        s->isum = wide_clamp(&p->u.ct.sum);
        if (s->hits) {
            s->imin = p->u.ct.min;
            s->imax = p->u.ct.max;
        }
    } else if (p->type == QQ_TYPE_VALUE) {
        s->dsum = p->u.va.sum;
        if (isinf(s->dsum)) /* finite values whose sum overflowed */
            s->dsum = s->dsum > 0 ? DBL_MAX : -DBL_MAX;
        if (s->hits) {
            s->dmin = p->u.va.min;
            s->dmax = p->u.va.max;
        }
    }
}

int qq__node_pass_range(const struct qq_file *f, uint32_t node, uint64_t from, uint64_t to,
                        struct qq_node_summary *ns, struct qq_key_summary *keys,
                        struct qq__ivals *iv)
{
    if (node >= f->nnodes || from > to || to > f->nodes[node].entries)
        return QQ_EINVAL;
    const struct qq_node_info *n = &f->nodes[node];
    struct pass *ps = malloc(sizeof *ps);
    struct pass_key *pk = ps ? pass_keys(f) : NULL;
    if (!pk) {
        free(ps);
        return fail(f, QQ_ENOMEM, "out of memory");
    }
    ps->pk = pk;
    ps->nk = f->nkeys;
    ps->iv = iv;
    memset(ns, 0, sizeof *ns);
    struct qq_chunks *c;
    int rc = chunks_open_range(f, node, from, to, &c);
    const struct qq_event *e;
    size_t m;
    uint64_t seen = from;
    int ticks = 0;
    /* rc == 0: c is open; chunks_read > 0: e holds m >= 1 entries. */
    // NOLINTBEGIN(clang-analyzer-core.NullDereference)
    while (rc == 0 && (rc = chunks_read(c, &e, &m, 0)) > 0) {
        rc = pass_chunk(f, node, ps, e, m, seen, ns, &ticks);
        // NOLINTEND(clang-analyzer-core.NullDereference)
        if (rc == 1) /* what is wrong, as the whole file's open says it */
            rc = qq__check_entries(f, node, e, m, seen);
        else if (rc)
            rc = fail(f, rc, "out of memory");
        seen += m;
    }
    qq_chunks_close(c);
    for (uint32_t k = 0; rc == 0 && k < f->nkeys; k++) {
        struct qq_key_summary s;
        pass_summary(ps, k, &s);
        if (ps->pk[k].type == QQ_TYPE_STATE)
            ns->state_events += s.hits;
        if (keys)
            keys[k] = s;
    }
    free(pk);
    free(ps);
    if (rc < 0)
        return rc;
    if (to > from && ns->last_tick >= n->base_tick)
        ns->elapsed_sec = (double)(ns->last_tick - n->base_tick) / (n->mhz * 1e6);
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
