/* qq_mpi.c - QQ across MPI ranks: synchronised start, tick offsets, one merged file (libqq-mpi
 * only). */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "qq_internal.h"

/* A private communicator, so QQ's messages never match the user's. */
static MPI_Comm qq_comm = MPI_COMM_NULL;

static int mpi_active(void)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    return init && !fin;
}

static int ensure_comm(void)
{
    if (qq_comm != MPI_COMM_NULL)
        return 0;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &qq_comm) != MPI_SUCCESS)
        return -1;
    MPI_Comm_set_errhandler(qq_comm, MPI_ERRORS_RETURN);
    return 0;
}

#define PINGS 25

/*
 * Tick offset of every rank against rank 0 by ping-pong (Cristian's
 * method): rank r reads t1, asks rank 0 for its counter T, reads t2 on the
 * answer. If the two legs take equal time, r's counter minus 0's is
 * (t1 + t2) / 2 - T; the error is at most half the round trip (t2 - t1).
 * Of PINGS exchanges the one with the smallest round trip is kept, since
 * a short round trip can hide the least asymmetry.
 */
static void estimate_offsets(int rank, int size)
{
    uint64_t t;
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            for (int i = 0; i < PINGS; i++) {
                MPI_Recv(&t, 1, MPI_UINT64_T, r, 1, qq_comm, MPI_STATUS_IGNORE);
                t = qq_ticks();
                MPI_Send(&t, 1, MPI_UINT64_T, r, 2, qq_comm);
            }
        qq__tick_offset = 0;
        qq__offset_error = 0;
    } else {
        uint64_t best = UINT64_MAX;
        for (int i = 0; i < PINGS; i++) {
            uint64_t t1 = qq_ticks();
            MPI_Send(&t1, 1, MPI_UINT64_T, 0, 1, qq_comm);
            MPI_Recv(&t, 1, MPI_UINT64_T, 0, 2, qq_comm, MPI_STATUS_IGNORE);
            uint64_t t2 = qq_ticks();
            if (t2 - t1 < best) {
                best = t2 - t1;
                qq__tick_offset = (int64_t)(t1 + (t2 - t1) / 2 - t);
                qq__offset_error = (double)(t2 - t1) / 2.0;
            }
        }
    }
    qq__offset_valid = 1;
}

void qq__mpi_init_sync(void)
{
    qq__offset_valid = 0;
    qq__tick_offset = 0;
    qq__offset_error = 0;
    if (!mpi_active() || ensure_comm() != 0)
        return;
    int rank, size;
    MPI_Comm_rank(qq_comm, &rank);
    MPI_Comm_size(qq_comm, &size);
    if (size > 1)
        estimate_offsets(rank, size);
    else
        qq__offset_valid = 1;
    /* The paper's synchronised start: QQInit sets the base tick right after. */
    MPI_Barrier(qq_comm);
}

static int mpi_fail(int mrc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(mrc, msg, &len);
    return qq__out_fail(QQ_EMPI, "QQOut: %s: %s", what, msg);
}

/* FNV-1a over the key table: every rank must have registered the same keys
 * in the same order, or the merged file's one key table would lie. */
static uint64_t keys_hash(void)
{
    uint64_t h = QQ__FNV_START;
    for (uint32_t i = 0; i < qq__keytab.n; i++) {
        unsigned char type[4];
        qq__store_u32(type, qq__keytab.v[i].type);
        h = qq__fnv1a(h, type, sizeof type);
        /* the terminating NUL too: "ab","c" and "a","bc" differ */
        h = qq__fnv1a(h, qq__keytab.v[i].name, strlen(qq__keytab.v[i].name) + 1);
    }
    return h;
}

/* FNV-1a of the output path: every rank must write the same file. */
static uint64_t path_hash(const char *s)
{
    return qq__fnv1a(QQ__FNV_START, s, strlen(s));
}

/* The last step before the rename: set the header's COMPLETE flag. The
 * prefix is written with the flag clear, so a temporary left behind by a
 * rank that died half-way is refused by the reader (QQ_EINCOMPLETE). */
static int mark_complete(const char *tmp)
{
    int fd = open(tmp, O_WRONLY);
    if (fd < 0)
        return -1;
    unsigned char flags[4];
    qq__store_u32(flags, QQ__FLAG_COMPLETE);
    int rc = qq__pwrite_all(fd, flags, sizeof flags, 16);
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

/* Write with MPI-IO: every rank its own chunk at its offset, collectively. */
static int write_mpiio(const char *tmp, const struct qq__node_out *o, uint64_t off,
                       const struct qq__buf *prefix, int rank, uint64_t total)
{
    MPI_File fh = MPI_FILE_NULL;
    int mrc = MPI_File_open(qq_comm, tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    /* The open is collective, but may fail on some ranks only: agree before
     * any collective write, or the ranks that opened would wait forever. */
    int bad = mrc != MPI_SUCCESS, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, qq_comm);
    if (anybad) {
        if (mrc == MPI_SUCCESS)
            MPI_File_close(&fh);
        return mrc != MPI_SUCCESS ? mpi_fail(mrc, "MPI_File_open")
                                  : qq__out_fail(QQ_EMPI,
                                                 "QQOut: MPI_File_open"
                                                 " of %s failed on another rank",
                                                 tmp);
    }
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    /* A stale temporary of the same name may be longer: cut it to size. */
    bad |= MPI_File_set_size(fh, (MPI_Offset)total) != MPI_SUCCESS;
    if (rank == 0)
        bad |= MPI_File_write_at(fh, 0, prefix->p, (int)prefix->len, MPI_BYTE, MPI_STATUS_IGNORE) !=
               MPI_SUCCESS;
    /* The chunk is one contiguous range of the file: one independent write
     * of the three parts where they lie (head, events, tail), described by
     * a struct type at absolute addresses. A collective write would gain
     * nothing (no two ranks share a range) and costs a two-phase exchange
     * of every byte between ranks. Entries go as 24-byte elements, so the
     * counts stay within int for any buffer QQInit(int) can make. */
    MPI_Datatype ev, chunk;
    MPI_Type_contiguous(QQ__EVENT_SIZE, MPI_BYTE, &ev);
    int len[3] = {QQ__SECTION_HEAD, (int)(o->events_bytes / QQ__EVENT_SIZE), (int)o->tail.len};
    MPI_Aint at[3] = {0, 0, 0};
    MPI_Datatype type[3] = {MPI_BYTE, ev, MPI_BYTE};
    MPI_Get_address(o->head, &at[0]);
    MPI_Get_address(o->events ? o->events : o->head, &at[1]);
    MPI_Get_address(o->tail.p ? (void *)o->tail.p : (void *)o->head, &at[2]);
    bad |= MPI_Type_create_struct(3, len, at, type, &chunk) != MPI_SUCCESS;
    bad |= MPI_Type_commit(&chunk) != MPI_SUCCESS;
    if (!bad)
        bad |= MPI_File_write_at(fh, (MPI_Offset)off, MPI_BOTTOM, 1, chunk, MPI_STATUS_IGNORE) !=
               MPI_SUCCESS;
    MPI_Type_free(&chunk);
    MPI_Type_free(&ev);
    mrc = MPI_File_close(&fh);
    bad |= mrc != MPI_SUCCESS;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, qq_comm);
    return anybad ? qq__out_fail(QQ_EIO, "QQOut: MPI-IO write of %s failed", tmp) : 0;
}

/* Without MPI-IO: rank 0 receives every chunk in turn and writes it. A chunk
 * travels as its three parts (EVTS head, events, tail), each cut into
 * messages of at most STEP bytes, straight from where they lie: the sender
 * copies nothing, and both sides cut the parts the same way. */
#define STEP ((size_t)1 << 30)

static int recv_part(int fd, int r, uint64_t at, uint64_t len, unsigned char **buf, size_t *cap)
{
    int bad = 0;
    for (uint64_t done = 0; done < len; done += STEP) {
        size_t n = len - done < STEP ? (size_t)(len - done) : STEP;
        if (n > *cap) {
            unsigned char *c = realloc(*buf, n);
            if (c) {
                *buf = c;
                *cap = n;
            }
        }
        if (n > *cap) {
            /* Out of memory: still match the message (a truncated receive
             * completes with an error), so the sender is never left
             * blocked; the file is marked bad. */
            MPI_Recv(NULL, 0, MPI_BYTE, r, 4, qq_comm, MPI_STATUS_IGNORE);
            bad = 1;
            continue;
        }
        bad |= MPI_Recv(*buf, (int)n, MPI_BYTE, r, 4, qq_comm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
        if (fd >= 0)
            bad |= qq__pwrite_all(fd, *buf, n, at + done) != 0;
    }
    return bad;
}

static int send_part(const void *p, uint64_t len)
{
    int bad = 0;
    for (uint64_t done = 0; done < len; done += STEP) {
        size_t n = len - done < STEP ? (size_t)(len - done) : STEP;
        bad |= MPI_Send((const unsigned char *)p + done, (int)n, MPI_BYTE, 0, 4, qq_comm) !=
               MPI_SUCCESS;
    }
    return bad;
}

static int write_gather(const char *tmp, const struct qq__node_out *o, uint64_t off,
                        const struct qq__buf *prefix, int rank, int size)
{
    int bad = 0;
    if (rank == 0) {
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        bad = fd < 0;
        if (!bad) {
            bad |= qq__pwrite_all(fd, prefix->p, prefix->len, 0) != 0;
            bad |= qq__pwrite_all(fd, o->head, QQ__SECTION_HEAD, off) != 0;
            bad |= qq__pwrite_all(fd, o->events, o->events_bytes, off + QQ__SECTION_HEAD) != 0;
            bad |= qq__pwrite_all(fd, o->tail.p, o->tail.len,
                                  off + QQ__SECTION_HEAD + o->events_bytes) != 0;
        }
        unsigned char *buf = NULL;
        size_t cap = 0;
        for (int r = 1; r < size; r++) {
            uint64_t meta[3]; /* offset, events bytes, tail bytes */
            bad |= MPI_Recv(meta, 3, MPI_UINT64_T, r, 3, qq_comm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
            bad |= recv_part(fd, r, meta[0], QQ__SECTION_HEAD, &buf, &cap);
            bad |= recv_part(fd, r, meta[0] + QQ__SECTION_HEAD, meta[1], &buf, &cap);
            bad |= recv_part(fd, r, meta[0] + QQ__SECTION_HEAD + meta[1], meta[2], &buf, &cap);
        }
        free(buf);
        if (fd >= 0)
            bad |= close(fd) != 0;
    } else {
        uint64_t meta[3] = {off, o->events_bytes, o->tail.len};
        bad |= MPI_Send(meta, 3, MPI_UINT64_T, 0, 3, qq_comm) != MPI_SUCCESS;
        bad |= send_part(o->head, QQ__SECTION_HEAD);
        bad |= send_part(o->events, o->events_bytes);
        bad |= send_part(o->tail.p, o->tail.len);
    }
    int anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, qq_comm);
    return anybad ? qq__out_fail(QQ_EIO, "QQOut: writing %s failed", tmp) : 0;
}

/* On one host (or a file system every rank sees with POSIX semantics):
 * rank 0 creates the temporary; once it has, every rank opens it and
 * writes its own chunk at its offset with one pwritev of the parts where
 * they lie, rank 0 its prefix too. No byte moves between ranks, and no
 * rank waits for another's write: the file system orders them (ext4 takes
 * the file's lock for each write, so they run one at a time; passing a
 * token from rank to rank to order them measured the same,
 * docs/PERFORMANCE.md). The first rank that fails is named on every rank. */
static int write_direct(const char *tmp, const struct qq__node_out *o, uint64_t off,
                        const struct qq__buf *prefix, int rank, int size)
{
    int fd = -1, err = 0;
    if (rank == 0 && (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
        err = errno;
    int created = fd >= 0;
    MPI_Bcast(&created, 1, MPI_INT, 0, qq_comm);
    if (created) {
        if (rank > 0 && (fd = open(tmp, O_WRONLY)) < 0)
            err = errno;
        struct iovec v[4] = {
            {prefix->p, rank == 0 ? prefix->len : 0},
            {(void *)o->head, QQ__SECTION_HEAD},
            {(void *)o->events, o->events_bytes},
            {o->tail.p, o->tail.len},
        };
        if (fd >= 0 && qq__pwritev_all(fd, v, 4, rank == 0 ? 0 : off) != 0)
            err = errno ? errno : EIO;
        if (fd >= 0 && close(fd) != 0 && !err)
            err = errno;
    }
    int mine = err ? rank : size, first = size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, qq_comm);
    if (first == size)
        return 0;
    if (err)
        return qq__out_fail(QQ_EIO, "QQOut: rank %d could not write its part of %s: %s", rank, tmp,
                            strerror(err));
    return qq__out_fail(QQ_EIO, "QQOut: rank %d could not write its part of %s", first, tmp);
}

/* The writer asked for: QQ_MPI_IO=1 MPI-IO, 0 the gather, 2 every rank
 * writing its part, unset (or anything else) chosen by where the ranks are
 * (one_host below). */
enum { WRITER_GATHER = 0, WRITER_MPIIO = 1, WRITER_DIRECT = 2, WRITER_AUTO = 3 };

static int writer_asked(void)
{
    const char *mode = getenv("QQ_MPI_IO");
    if (mode && !strcmp(mode, "0"))
        return WRITER_GATHER;
    if (mode && !strcmp(mode, "1"))
        return WRITER_MPIIO;
    if (mode && !strcmp(mode, "2"))
        return WRITER_DIRECT;
    return WRITER_AUTO;
}

/* 1 when every rank is on one host (collective the first time; the ranks'
 * places do not change, so the answer is kept). There every rank writes its
 * own part straight into the file (write_direct): no byte travels through
 * MPI; with 4 ranks it took 0.6-0.8x the gather's time (with 2 ranks on a
 * shared 2-core guest, sometimes longer: docs/PERFORMANCE.md, "QQ's own
 * cost"). Across hosts, MPI-IO. */
static int one_host(int size)
{
    static int known = -1;
    if (known >= 0)
        return known;
    MPI_Comm local;
    int lsize = 0, mine = 0;
    if (MPI_Comm_split_type(qq_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        MPI_Comm_size(local, &lsize);
        MPI_Comm_free(&local);
        mine = lsize == size;
    }
    /* Every rank must choose the same writer, even if the split failed on
     * one of them. */
    MPI_Allreduce(&mine, &known, 1, MPI_INT, MPI_MIN, qq_comm);
    return known;
}

/* Agree on the arguments and the key table before anything is written:
 * a wrong call on one rank fails every rank, and no file appears. Returns
 * 0 with the writer every rank uses in *WRITER, or the failure's code. */
static int agree_call(const char *path, int node, int nodes, int rank, int size, int *writer)
{
    uint64_t mine[5] = {(uint64_t)(node != rank), (uint64_t)(nodes != size), keys_hash(),
                        path_hash(path), (uint64_t)writer_asked()};
    uint64_t lo[5], hi[5];
    MPI_Allreduce(mine, lo, 5, MPI_UINT64_T, MPI_MIN, qq_comm);
    MPI_Allreduce(mine, hi, 5, MPI_UINT64_T, MPI_MAX, qq_comm);
    if (hi[0] || hi[1])
        return node != rank || nodes != size
                   ? qq__out_fail(QQ_EINVAL,
                                  "QQOut: rank %d of %d called QQOut(..., %d, %d):"
                                  " node must be the rank and nodes the size",
                                  rank, size, node, nodes)
                   : qq__out_fail(QQ_EINVAL, "QQOut: another rank passed a wrong node or "
                                             "node count; no file written");
    if (lo[2] != hi[2])
        return qq__out_fail(QQ_EINVAL, "QQOut: ranks registered different "
                                       "keys (QQAdd* calls must match on every rank)");
    if (lo[3] != hi[3])
        return qq__out_fail(QQ_EINVAL,
                            "QQOut: ranks passed different file "
                            "names (this rank: %s); no file written",
                            path);
    if (lo[4] != hi[4])
        return qq__out_fail(QQ_EINVAL, "QQOut: ranks see different QQ_MPI_IO (export it to "
                                       "every rank); no file written");
    *writer = (int)lo[4];
    if (*writer == WRITER_AUTO)
        *writer = one_host(size) ? WRITER_DIRECT : WRITER_MPIIO;
    return 0;
}

/* Rank 0 renames the file into place, so rank 0 decides whether PATH may
 * be replaced (a regular file or a new name); every rank gets its word. */
static int agree_target(const char *path, int rank)
{
    struct {
        int rc;
        char msg[480];
    } target = {0, ""};
    if (rank == 0 && (target.rc = qq__out_check_target(path)) != 0)
        snprintf(target.msg, sizeof target.msg, "%s", qq_out_errmsg());
    MPI_Bcast(&target, (int)sizeof target, MPI_BYTE, 0, qq_comm);
    if (target.rc)
        return qq__out_fail(target.rc, "%s%s", target.msg, rank ? " (checked on rank 0)" : "");
    return 0;
}

/* Write this rank's chunk O, placed, into the file PATH with WRITER: the
 * prefix, the node table gathered to rank 0, a temporary file renamed once
 * every rank's part is in. Returns 0 or the failure's code. */
static int write_file(const char *path, struct qq__node_out *o, int rank, int size, int writer)
{
    /* Offsets: the prefix (same size everywhere), then an exclusive prefix
     * sum of the chunk sizes in rank order. */
    uint64_t prefix = 0, before = 0, total = 0;
    if (rank == 0)
        qq__prefix_size((uint32_t)size, &prefix);
    MPI_Bcast(&prefix, 1, MPI_UINT64_T, 0, qq_comm);
    MPI_Exscan(&o->size, &before, 1, MPI_UINT64_T, MPI_SUM, qq_comm);
    if (rank == 0)
        before = 0; /* MPI_Exscan leaves rank 0's result undefined */
    MPI_Allreduce(&o->size, &total, 1, MPI_UINT64_T, MPI_SUM, qq_comm);
    uint64_t off = prefix + before;
    qq__node_out_place(o, off);

    struct qq__node_rec *recs = NULL;
    if (rank == 0)
        recs = calloc((size_t)size, sizeof *recs);
    MPI_Gather(&o->rec, (int)sizeof o->rec, MPI_BYTE, recs, (int)sizeof o->rec, MPI_BYTE, 0,
               qq_comm);
    struct qq__buf pre = {0};
    int bad = 0, anybad = 0;
    if (rank == 0)
        bad = !recs || qq__prefix_encode(&pre, (uint32_t)size, recs, prefix + total, 0) != 0 ||
              pre.len != prefix;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, qq_comm);

    /* A temporary name, renamed by rank 0 once every rank's part is in:
     * a rank that dies leaves no file under the real name. */
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, qq_comm);
    size_t tlen = strlen(path) + 40;
    char *tmp = malloc(tlen);
    int rc = 0;
    if (anybad || !tmp) {
        rc = qq__out_fail(QQ_ENOMEM, "QQOut: cannot encode the file header");
    } else {
        snprintf(tmp, tlen, "%s.tmp.%ld", path, pid);
        if (writer == WRITER_GATHER)
            rc = write_gather(tmp, o, off, &pre, rank, size);
        else if (writer == WRITER_DIRECT)
            rc = write_direct(tmp, o, off, &pre, rank, size);
        else
            rc = write_mpiio(tmp, o, off, &pre, rank, prefix + total);
        int renamed = 0;
        if (rank == 0) {
            if (rc == 0)
                renamed = mark_complete(tmp) == 0 && rename(tmp, path) == 0;
            if (!renamed)
                unlink(tmp);
        }
        MPI_Bcast(&renamed, 1, MPI_INT, 0, qq_comm);
        if (rc == 0 && !renamed)
            rc = qq__out_fail(QQ_EIO, "QQOut: cannot complete %s and rename it to %s", tmp, path);
    }
    free(tmp);
    free(recs);
    qq__buf_free(&pre);
    return rc;
}

/* This rank's chunk encoded (every rank's, or none written), then the file. */
static int write_node(const char *path, int rank, int size, int writer)
{
    struct qq__node_out o;
    int prc = qq__node_out_prepare(&o, (uint32_t)rank);
    int anybad = 0, bad = prc != 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, qq_comm);
    if (anybad) {
        if (prc == 0)
            qq__node_out_release(&o);
        return qq__out_fail(QQ_ENOMEM, "QQOut: a rank could not encode its "
                                       "events");
    }
    int rc = write_file(path, &o, rank, size, writer);
    qq__node_out_release(&o);
    return rc;
}

static int mpi_out(const char *path, int node, int nodes, int *result)
{
    if (!mpi_active())
        return 0;
    if (ensure_comm() != 0) {
        *result = qq__out_fail(QQ_EMPI, "QQOut: cannot duplicate MPI_COMM_WORLD");
        return 1;
    }
    int rank, size, writer = WRITER_AUTO;
    MPI_Comm_rank(qq_comm, &rank);
    MPI_Comm_size(qq_comm, &size);
    int rc = agree_call(path, node, nodes, rank, size, &writer);
    if (rc == 0)
        rc = agree_target(path, rank);
    if (rc == 0)
        rc = write_node(path, rank, size, writer);
    *result = rc;
    return 1;
}

/* QQOut under MPI; the private communicator is released afterwards (it is
 * made again by the next QQInit or QQOut), so nothing of QQ's outlives the
 * output, and MPI_Finalize finds nothing of ours left. */
int qq__mpi_out(const char *path, int node, int nodes, int *result)
{
    int handled = mpi_out(path, node, nodes, result);
    if (qq_comm != MPI_COMM_NULL && mpi_active())
        MPI_Comm_free(&qq_comm);
    qq_comm = MPI_COMM_NULL;
    return handled;
}
