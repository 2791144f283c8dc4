/* qq_out.c - QQOut: encode the key table, node table and entries (docs/FORMAT.md) and write them.
 */
#define _DEFAULT_SOURCE /* pwritev */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "qq_internal.h"

_Static_assert(sizeof(struct qq_event) == QQ__EVENT_SIZE,
               "struct qq_event must match the file's 24-byte entry");

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define QQ__HOST_LE 0
#else
#define QQ__HOST_LE 1
#endif

/* ---------------------------------------------------------------------
 * Buffer and little-endian stores.
 * --------------------------------------------------------------------- */

int qq__buf_reserve(struct qq__buf *b, size_t more)
{
    if (b->cap - b->len >= more)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more)
        cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p)
        return QQ_ENOMEM;
    b->p = p;
    b->cap = cap;
    return 0;
}

void qq__buf_free(struct qq__buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

void qq__store_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void qq__store_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

int qq__put_u32(struct qq__buf *b, uint32_t v)
{
    if (qq__buf_reserve(b, 4))
        return QQ_ENOMEM;
    qq__store_u32(b->p + b->len, v);
    b->len += 4;
    return 0;
}

int qq__put_u64(struct qq__buf *b, uint64_t v)
{
    if (qq__buf_reserve(b, 8))
        return QQ_ENOMEM;
    qq__store_u64(b->p + b->len, v);
    b->len += 8;
    return 0;
}

int qq__put_f64(struct qq__buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return qq__put_u64(b, u);
}

int qq__put_bytes(struct qq__buf *b, const void *p, size_t n)
{
    if (qq__buf_reserve(b, n))
        return QQ_ENOMEM;
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
    return 0;
}

int qq__put_pad8(struct qq__buf *b)
{
    static const unsigned char zero[8];
    return qq__put_bytes(b, zero, (8 - b->len % 8) % 8);
}

int qq__begin_section(struct qq__buf *b, uint32_t tag, uint32_t node, size_t *at)
{
    *at = b->len;
    int rc = qq__put_u32(b, tag);
    rc = rc ? rc : qq__put_u32(b, node);
    return rc ? rc : qq__put_u64(b, 0);
}

int qq__end_section(struct qq__buf *b, size_t at)
{
    int rc = qq__put_pad8(b);
    if (rc == 0)
        qq__store_u64(b->p + at + 8, b->len - at - QQ__SECTION_HEAD);
    return rc;
}

/* ---------------------------------------------------------------------
 * Errors of the output path.
 * --------------------------------------------------------------------- */

static char out_errmsg[512];

/* WHOLE (N bytes) into out_errmsg when it does not fit: its start and its
 * end around "...", never a UTF-8 character cut. The reason comes last
 * ("PATH: cannot create: File name too long"), and a path of thousands of
 * bytes cut the message before it; its start and end name the file. */
static void errmsg_shorten(const char *whole, size_t n)
{
    size_t head = 160, tail = sizeof out_errmsg - 1 - head - 3;
    while (head > 0 && ((unsigned char)whole[head] & 0xC0) == 0x80)
        head--; /* WHOLE[HEAD] starts a character: the head ends before it */
    size_t from = n - tail;
    while (from < n && ((unsigned char)whole[from] & 0xC0) == 0x80)
        from++;
    snprintf(out_errmsg, sizeof out_errmsg, "%.*s...%s", (int)head, whole, whole + from);
}

int qq__out_fail(int err, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(out_errmsg, sizeof out_errmsg, fmt, ap);
    va_end(ap);
    char *whole = n >= (int)sizeof out_errmsg ? malloc((size_t)n + 1) : NULL;
    if (whole && vsnprintf(whole, (size_t)n + 1, fmt, again) == n)
        errmsg_shorten(whole, (size_t)n); /* out of memory: cut at the end, as it was */
    free(whole);
    va_end(again);
    return err;
}

const char *qq_out_errmsg(void)
{
    return out_errmsg;
}

const char *qq__out_path(const char *name)
{
    const char *env = getenv(QQ_OUTPUT_ENV);
    return env && *env ? env : name;
}

/* stat, not lstat: a link to /dev/null is refused too. A dangling link is
 * a name that does not exist (the rename replaces the link itself). */
int qq__out_check_target(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        return qq__out_fail(QQ_EIO, "%s: cannot check the output file: %s", path, strerror(errno));
    }
    if (S_ISREG(st.st_mode))
        return 0;
    return qq__out_fail(QQ_EINVAL,
                        "%s is %s: QQOut writes only to a regular file or a new "
                        "name, and will not replace it",
                        path, qq__file_kind(st.st_mode));
}

/* ---------------------------------------------------------------------
 * The prefix: header, META, KEYS, NODE.
 * --------------------------------------------------------------------- */

static void command_line(char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *fp = fopen("/proc/self/cmdline", "rb");
    if (!fp)
        return;
    size_t n = fread(buf, 1, len - 1, fp);
    fclose(fp);
    while (n > 0 && buf[n - 1] == '\0')
        n--;
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[n] = '\0';
}

static int put_pair(struct qq__buf *b, const char *name, const char *value)
{
    int rc = qq__put_u32(b, (uint32_t)strlen(name));
    rc = rc ? rc : qq__put_bytes(b, name, strlen(name));
    rc = rc ? rc : qq__put_u32(b, (uint32_t)strlen(value));
    return rc ? rc : qq__put_bytes(b, value, strlen(value));
}

/* The metadata is computed once per process, so every call (and the size
 * computation of the MPI writer) sees the same bytes. */
static int encode_meta(struct qq__buf *b)
{
    static char host[256], cmd[4096], date[64], mhz[64], step[32];
    static int ready;
    if (!ready) {
        if (gethostname(host, sizeof host) != 0)
            strcpy(host, "unknown");
        host[sizeof host - 1] = '\0';
        command_line(cmd, sizeof cmd);
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
        snprintf(mhz, sizeof mhz, "%.3f", qq__mhz);
        snprintf(step, sizeof step, "%llu", (unsigned long long)qq__tick_step);
        ready = 1;
    }
    size_t at;
    int rc = qq__begin_section(b, QQ__TAG_META, QQ__FILE_LEVEL, &at);
    rc = rc ? rc : put_pair(b, "host", host);
    rc = rc ? rc : put_pair(b, "command", cmd);
    rc = rc ? rc : put_pair(b, "date", date);
    rc = rc ? rc : put_pair(b, "tick_source", qq_tick_path_name(qq_tick_path()));
    rc = rc ? rc : put_pair(b, "tick_invariant", qq__tsc_invariant ? "yes" : "no");
    rc = rc ? rc : put_pair(b, "tick_step", step);
    rc = rc ? rc : put_pair(b, "writer", "libqq " QQ__WRITER_VERSION);
    return rc ? rc : qq__end_section(b, at);
}

static int encode_keys(struct qq__buf *b)
{
    size_t at;
    int rc = qq__begin_section(b, QQ__TAG_KEYS, QQ__FILE_LEVEL, &at);
    for (uint32_t i = 0; rc == 0 && i < qq__keytab.n; i++) {
        const char *name = qq__keytab.v[i].name;
        rc = qq__put_u32(b, i);
        rc = rc ? rc : qq__put_u32(b, qq__keytab.v[i].type);
        rc = rc ? rc : qq__put_u32(b, (uint32_t)strlen(name));
        rc = rc ? rc : qq__put_bytes(b, name, strlen(name));
        rc = rc ? rc : qq__put_pad8(b);
    }
    return rc ? rc : qq__end_section(b, at);
}

static int encode_node_record(struct qq__buf *b, const struct qq__node_rec *r)
{
    int rc = qq__put_u32(b, r->node);
    rc = rc ? rc : qq__put_u32(b, r->flags);
    rc = rc ? rc : qq__put_u64(b, r->offset);
    rc = rc ? rc : qq__put_u64(b, r->entries);
    rc = rc ? rc : qq__put_u64(b, r->base_tick);
    rc = rc ? rc : qq__put_f64(b, r->mhz);
    rc = rc ? rc : qq__put_u64(b, r->dropped);
    rc = rc ? rc : qq__put_u64(b, (uint64_t)r->tick_offset);
    return rc ? rc : qq__put_f64(b, r->offset_error);
}

int qq__prefix_encode(struct qq__buf *b, uint32_t nnodes, const struct qq__node_rec *recs,
                      uint64_t file_size, int complete)
{
    int rc = qq__buf_reserve(b, QQ__HEADER_SIZE);
    if (rc)
        return rc;
    unsigned char *h = b->p + b->len;
    memset(h, 0, QQ__HEADER_SIZE);
    for (int i = 0; i < 8; i++) /* the magic's 8 bytes, no NUL */
        h[i] = (unsigned char)QQ__MAGIC[i];
    h[8] = QQ__VERSION_MAJOR;
    h[10] = QQ__VERSION_MINOR;
    qq__store_u32(h + 12, QQ__HEADER_SIZE);
    qq__store_u32(h + 16, complete ? QQ__FLAG_COMPLETE : 0);
    qq__store_u32(h + 20, qq__keytab.n);
    qq__store_u32(h + 24, nnodes);
    qq__store_u64(h + 32, file_size);
    b->len += QQ__HEADER_SIZE;

    rc = encode_meta(b);
    rc = rc ? rc : encode_keys(b);
    rc = rc ? rc : qq__encode_tune(b);
    size_t at;
    rc = rc ? rc : qq__begin_section(b, QQ__TAG_NODE, QQ__FILE_LEVEL, &at);
    for (uint32_t i = 0; rc == 0 && i < nnodes; i++) {
        static const struct qq__node_rec zero;
        rc = encode_node_record(b, recs ? &recs[i] : &zero);
    }
    return rc ? rc : qq__end_section(b, at);
}

int qq__prefix_size(uint32_t nnodes, uint64_t *size)
{
    struct qq__buf b = {0};
    int rc = qq__prefix_encode(&b, nnodes, NULL, 0, 0);
    *size = b.len;
    qq__buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------------
 * This process's node chunk: EVTS, then MEMT when memory keys were used.
 * --------------------------------------------------------------------- */

static int encode_memt(struct qq__buf *b, uint32_t node)
{
    struct qq__mem_snapshot s = {0};
    int rc = qq__mem_snapshot(&s);
    if (rc <= 0)
        return rc;
    size_t at;
    rc = qq__begin_section(b, QQ__TAG_MEMT, node, &at);
    rc = rc ? rc : qq__put_u32(b, s.nrows);
    rc = rc ? rc : qq__put_u32(b, QQ__MEMT_PEAK_LOW); /* the peaks' lower bounds follow the rows */
    rc = rc ? rc : qq__put_u64(b, s.foreign_frees);
    rc = rc ? rc : qq__put_u64(b, s.process_bytes);
    for (uint32_t i = 0; rc == 0 && i < s.nrows; i++) {
        const struct qq_mem_row *r = &s.rows[i];
        const uint64_t v[] = {r->obj_size,   r->created, r->deleted, r->obj_bytes,   r->alloc_bytes,
                              r->peak_bytes, r->allocs,  r->frees,   r->double_frees};
        for (size_t k = 0; rc == 0 && k < sizeof v / sizeof v[0]; k++)
            rc = qq__put_u64(b, v[k]);
        const char *name = r->name ? r->name : "";
        rc = rc ? rc : qq__put_u32(b, (uint32_t)strlen(name));
        rc = rc ? rc : qq__put_bytes(b, name, strlen(name));
        rc = rc ? rc : qq__put_pad8(b);
    }
    for (uint32_t i = 0; rc == 0 && i < s.nrows; i++)
        rc = qq__put_u64(b, s.rows[i].peak_low);
    rc = rc ? rc : qq__end_section(b, at);
    qq__mem_snapshot_free(&s);
    return rc;
}

/* QQInit's empty-state timing (qq_file.h, struct qq_calib). */
static int encode_calb(struct qq__buf *b, uint32_t node)
{
    if (qq__calib.samples == 0)
        return 0; /* QQInit never ran or had no memory: nothing measured */
    size_t at;
    int rc = qq__begin_section(b, QQ__TAG_CALB, node, &at);
    rc = rc ? rc : qq__put_u32(b, qq__calib.ordered);
    rc = rc ? rc : qq__put_u32(b, qq__calib.samples);
    rc = rc ? rc : qq__put_f64(b, qq__calib.empty_min);
    rc = rc ? rc : qq__put_f64(b, qq__calib.empty_typical);
    rc = rc ? rc : qq__put_f64(b, qq__calib.empty_median);
    rc = rc ? rc : qq__put_f64(b, qq__calib.step);
    rc = rc ? rc : qq__put_u32(b, qq__calib.path);
    rc = rc ? rc : qq__put_u32(b, qq__calib.path_flags);
    return rc ? rc : qq__end_section(b, at);
}

/* The threads that recorded (docs/FORMAT.md, THRD): one row each, their
 * entries in the node's EVTS in the same order. */
static int encode_thrd(struct qq__buf *b, uint32_t node, const struct qq__thread_snap *t,
                       uint32_t n)
{
    size_t at;
    int rc = qq__begin_section(b, QQ__TAG_THRD, node, &at);
    rc = rc ? rc : qq__put_u32(b, n);
    rc = rc ? rc : qq__put_u32(b, 0);
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        /* A name that breaks the rule for names (a control character from
         * pthread_setname_np) is written cleaned, as key names are. */
        char *clean = qq__name_clean(t[i].name);
        const char *name = clean ? clean : "";
        rc = qq__put_u32(b, t[i].index);
        rc = rc ? rc : qq__put_u32(b, (uint32_t)strlen(name));
        rc = rc ? rc : qq__put_u64(b, t[i].tid);
        rc = rc ? rc : qq__put_u64(b, t[i].events);
        rc = rc ? rc : qq__put_u64(b, t[i].dropped);
        rc = rc ? rc : qq__put_bytes(b, name, strlen(name));
        rc = rc ? rc : qq__put_pad8(b);
        free(clean);
    }
    return rc ? rc : qq__end_section(b, at);
}

/* The node's entries as the file holds them: every thread's in thread
 * order. One thread's buffer is written as it is; several are copied into
 * one (a big-endian host copies always, as little-endian fields with the
 * thread index in the reserved field). Sets O->events; 0 or QQ_ENOMEM. */
static void *joined_events; /* the copy, when one was made */

static int join_events(struct qq__node_out *o, const struct qq__thread_snap *t, uint32_t nt,
                       uint64_t total)
{
    uint32_t with = 0, last = 0;
    for (uint32_t i = 0; i < nt; i++)
        if (t[i].events > 0) {
            with++;
            last = i;
        }
    if (QQ__HOST_LE && with <= 1) {
        o->events = with ? (const void *)t[last].start : NULL;
        return 0;
    }
    struct qq__buf c = {0};
    if (qq__buf_reserve(&c, (size_t)total * QQ__EVENT_SIZE))
        return QQ_ENOMEM;
    for (uint32_t i = 0; i < nt; i++)
        for (uint64_t j = 0; j < t[i].events; j++) {
            const struct qq_event *e = &t[i].start[j];
            if (QQ__HOST_LE) {
                qq__put_bytes(&c, e, QQ__EVENT_SIZE); /* room reserved above */
            } else {
                qq__put_u32(&c, e->key);
                qq__put_u32(&c, t[i].index);
                qq__put_u64(&c, (uint64_t)e->info.i);
                qq__put_u64(&c, e->tick);
            }
        }
    joined_events = c.p;
    o->events = c.p;
    return 0;
}

int qq__node_out_prepare(struct qq__node_out *o, uint32_t node)
{
    memset(o, 0, sizeof *o);
    struct qq__thread_snap *t;
    uint32_t nt;
    if (qq__threads_snapshot(&t, &nt))
        return QQ_ENOMEM;
    uint64_t n = 0, dropped = 0;
    for (uint32_t i = 0; i < nt; i++) {
        n += t[i].events;
        dropped += t[i].dropped;
    }
    o->rec.node = node;
    o->rec.flags = (qq__tsc_invariant ? QQ_NODE_TSC_INVARIANT : 0) |
                   (qq__offset_valid ? QQ_NODE_OFFSET_VALID : 0);
    o->rec.entries = n;
    o->rec.base_tick = qq__base_tick;
    o->rec.mhz = qq__mhz;
    o->rec.dropped = dropped;
    o->rec.tick_offset = qq__tick_offset;
    o->rec.offset_error = qq__offset_error;
    o->events_bytes = (size_t)n * QQ__EVENT_SIZE;
    qq__store_u32(o->head, QQ__TAG_EVTS);
    qq__store_u32(o->head + 4, node);
    qq__store_u64(o->head + 8, o->events_bytes);
    int rc = join_events(o, t, nt, n);
    rc = rc < 0 ? rc : encode_thrd(&o->tail, node, t, nt);
    rc = rc < 0 ? rc : encode_calb(&o->tail, node);
    rc = rc < 0 ? rc : encode_memt(&o->tail, node);
    free(t);
    if (rc < 0) {
        qq__node_out_release(o);
        return rc;
    }
    o->size = QQ__SECTION_HEAD + o->events_bytes + o->tail.len;
    return 0;
}

void qq__node_out_place(struct qq__node_out *o, uint64_t file_offset)
{
    o->rec.offset = file_offset + QQ__SECTION_HEAD;
}

void qq__node_out_release(struct qq__node_out *o)
{
    qq__buf_free(&o->tail);
    free(joined_events);
    joined_events = NULL;
}

int qq__pwrite_all(int fd, const void *buf, size_t len, uint64_t offset)
{
    struct iovec v = {(void *)(uintptr_t)buf, len};
    return qq__pwritev_all(fd, &v, 1, offset);
}

/* pwritev until every byte is out: a write may stop short (Linux moves at
 * most 2 GiB a call, and a signal or a full disk can cut one), so the
 * vector is advanced past what went and the call repeated. IOV is changed. */
int qq__pwritev_all(int fd, struct iovec *iov, int n, uint64_t offset)
{
    while (n > 0 && iov->iov_len == 0) {
        iov++;
        n--;
    }
    while (n > 0) {
        ssize_t w = pwritev(fd, iov, n, (off_t)offset);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO; /* no progress and no reason given */
            return QQ_EIO;
        }
        offset += (uint64_t)w;
        size_t done = (size_t)w;
        while (n > 0 && done >= iov->iov_len) {
            done -= iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (unsigned char *)iov->iov_base + done;
            iov->iov_len -= done;
        }
        while (n > 0 && iov->iov_len == 0) {
            iov++;
            n--;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------
 * The serial writer: the whole file to a temporary name, then rename, so
 * a reader never sees a half-written file under the real name.
 * --------------------------------------------------------------------- */

static int write_serial(const char *path, uint32_t node)
{
    int rc = qq__out_check_target(path);
    if (rc)
        return rc;
    struct qq__node_out o;
    rc = qq__node_out_prepare(&o, node);
    if (rc)
        return qq__out_fail(rc, "%s: cannot encode node %u: %s", path, node, qq_strerror(rc));
    uint64_t prefix;
    struct qq__buf b = {0};
    rc = qq__prefix_size(1, &prefix);
    if (rc == 0) {
        qq__node_out_place(&o, prefix);
        rc = qq__prefix_encode(&b, 1, &o.rec, prefix + o.size, 1);
    }
    if (rc) {
        qq__buf_free(&b);
        qq__node_out_release(&o);
        return qq__out_fail(rc, "%s: cannot encode: %s", path, qq_strerror(rc));
    }

    size_t tlen = strlen(path) + 32;
    char *tmp = malloc(tlen);
    if (!tmp) {
        qq__buf_free(&b);
        qq__node_out_release(&o);
        return qq__out_fail(QQ_ENOMEM, "%s: out of memory", path);
    }
    snprintf(tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        rc = qq__out_fail(QQ_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    } else {
        /* The whole file in one call where the system allows: the events
         * go from the recording buffer itself, never copied or formatted. */
        struct iovec v[4] = {{b.p, b.len},
                             {o.head, sizeof o.head},
                             {(void *)(uintptr_t)o.events, o.events_bytes},
                             {o.tail.p, o.tail.len}};
        rc = qq__pwritev_all(fd, v, 4, 0);
        if (rc)
            qq__out_fail(rc, "%s: write failed: %s", tmp, strerror(errno));
        if (close(fd) != 0 && rc == 0)
            rc = qq__out_fail(QQ_EIO, "%s: close failed: %s", tmp, strerror(errno));
        if (rc == 0 && rename(tmp, path) != 0)
            rc = qq__out_fail(QQ_EIO, "%s: cannot rename from %s: %s", path, tmp, strerror(errno));
        if (rc)
            unlink(tmp);
    }
    free(tmp);
    qq__buf_free(&b);
    qq__node_out_release(&o);
    return rc;
}

int qq_out(const char *filename, int node, int nodes)
{
    out_errmsg[0] = '\0';
    const char *path = qq__out_path(filename);
    if (!path || !*path)
        return qq__out_fail(QQ_EINVAL, "QQOut: no file name (and %s unset)", QQ_OUTPUT_ENV);
#if defined(QQ__MPI) && QQ__MPI
    /* Under MPI every rank must reach the collective, wrong arguments
     * included: it checks them on all ranks together, so all fail alike
     * instead of the good ranks waiting for the bad one. */
    int result;
    if (qq__mpi_out(path, node, nodes, &result))
        return result;
#endif
    if (nodes < 1 || node < 0 || node >= nodes)
        return qq__out_fail(QQ_EINVAL, "QQOut: node %d of %d nodes is out of range", node, nodes);
    return write_serial(path, (uint32_t)node);
}

/* The paper's QQOut returns nothing, so a failure it kept to itself was
 * a program that exited 0 with no file and no word. It says why on stderr,
 * one line, the message qq_out_errmsg() holds. (libqq prints nowhere else:
 * qq_out is the call that reports instead.) */
void QQOut(const char *filename, int node, int nodes)
{
    if (qq_out(filename, node, nodes) == 0)
        return;
    const char *m = qq_out_errmsg();
    fprintf(stderr, "%s%s\n",
            strncmp(m, "QQOut: ", 7) == 0 ? "" : "QQOut: ", m[0] ? m : "the file was not written");
}
