/* qq_mpi_test.c - QQ under real mpirun: per-rank patterns merged into one file, checked with the
 * reader; error paths. */
#define _GNU_SOURCE /* pwritev2, to reach the real write from the pwritev below */
#define QQ_ENABLE   1
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "qq.h"
#include "qq_file.h"
#include "qq_mem.h"
/* This program calls MemMalloc/MemFree by hand; its own allocations must
 * not be charged to a memory key, so the redirections are dropped. */
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef strdup
#undef strndup

/*
 * Usage (every MODE but check/refuse runs under mpirun):
 *   record NAME [--mem]   each rank records its pattern, QQOut(NAME); rank 0
 *                         then re-reads the merged file and checks it
 *   writers A B C [S]     QQOut(A) with MPI-IO (QQ_MPI_IO=1), QQOut(B) with the
 *                         gather (0), QQOut(C) with every rank writing its
 *                         part (2), in the same run: byte-identical files;
 *                         with S (1 rank), QQOut(S) after MPI_Finalize, by
 *                         the serial writer, must give the same bytes too
 *   badnode|badcount|badkeys|badname|badrange|badio NAME
 *                         a wrong QQOut on one rank: every rank must fail,
 *                         with a message, and no file may appear
 *   die NAME              rank 1 exits after QQInit, before QQOut
 *   diewrite NAME         rank 1 exits in the middle of QQOut's writes
 *   failwrite NAME        rank 1's write fails (no space): every rank gets
 *                         QQ_EIO, and neither NAME nor a temporary is left
 *   bench NAME N          QQInit(N), N events per rank, time QQOut
 *   check NAME SIZE [--mem]  (no MPI) check a merged file
 *   refuse NAME           (no MPI) the reader must refuse NAME
 * Exit: 0 when every check held, 1 otherwise, 2 on bad usage.
 */

#define SMALL_CAP  5    /* the last rank's buffer: it must overflow */
#define BIG_CAP    1000 /* every other rank's buffer */
#define MAX_EVENTS 64

enum { K_WORK, K_TICK, K_ITEMS, K_LEVEL, NKEYS };
static const char *const key_names[NKEYS] = {"work", "tick", "items", "level"};
static const uint32_t key_types[NKEYS] = {QQ_TYPE_STATE, QQ_TYPE_MARK, QQ_TYPE_COUNT,
                                          QQ_TYPE_VALUE};

static int failures;

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);                       \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* One expected entry: the key and the info bits. */
struct want {
    uint32_t key;
    int64_t info;
};

static int64_t dbl_bits(double d)
{
    int64_t i;
    memcpy(&i, &d, sizeof i);
    return i;
}

/* Rank R's pattern: work on, R+1 marks, R+2 counts 1000*R+i, value R+0.5,
 * work off. Returns the number of events (2R + 6). */
static int pattern(int r, struct want *w)
{
    int n = 0;
    w[n++] = (struct want){K_WORK, 1};
    for (int i = 0; i < r + 1; i++)
        w[n++] = (struct want){K_TICK, 0};
    for (int i = 0; i < r + 2; i++)
        w[n++] = (struct want){K_ITEMS, 1000 * r + i};
    w[n++] = (struct want){K_LEVEL, dbl_bits(r + 0.5)};
    w[n++] = (struct want){K_WORK, 0};
    return n;
}

static int capacity(int rank, int size)
{
    return rank == size - 1 ? SMALL_CAP : BIG_CAP;
}

static void add_keys(int swapped)
{
    int k[NKEYS];
    k[K_WORK] = QQAddState(key_names[K_WORK]);
    k[K_TICK] = QQAddMark(key_names[K_TICK]);
    if (swapped) { /* the same keys in another order */
        k[K_LEVEL] = QQAddValue(key_names[K_LEVEL]);
        k[K_ITEMS] = QQAddCount(key_names[K_ITEMS]);
    } else {
        k[K_ITEMS] = QQAddCount(key_names[K_ITEMS]);
        k[K_LEVEL] = QQAddValue(key_names[K_LEVEL]);
    }
    if (!swapped)
        for (int i = 0; i < NKEYS; i++)
            if (k[i] != i) {
                fprintf(stderr, "key %s got index %d\n", key_names[i], k[i]);
                failures++;
            }
}

static void record_pattern(int rank)
{
    QQStateOn(K_WORK);
    for (int i = 0; i < rank + 1; i++)
        QQMark(K_TICK);
    for (int i = 0; i < rank + 2; i++)
        QQCount(K_ITEMS, 1000 * rank + i);
    QQValue(K_LEVEL, rank + 0.5);
    QQStateOff(K_WORK);
}

/* Memory keys: "rank_buf" holds 1000*(rank+1) bytes (a 64-byte block came
 * and went), and "only_rank_R" exists on rank R alone. */
static void *mem_block;
static void use_memory(int rank)
{
    int kb = MemAddKey("rank_buf");
    char own[32];
    snprintf(own, sizeof own, "only_rank_%d", rank);
    int ko = MemAddKey(own);
    mem_block = MemMalloc(kb, 1000 * (size_t)(rank + 1));
    void *tmp = MemMalloc(kb, 64);
    MemFree(kb, tmp);
    void *p = MemMalloc(ko, 10 * (size_t)(rank + 1));
    (void)p; /* kept: 10*(rank+1) live bytes */
}

/* ---------------------------------------------------------------------
 * The checker: the merged file against what every rank recorded.
 * --------------------------------------------------------------------- */

static const struct qq_mem_row *find_row(const struct qq_mem_table *t, const char *name)
{
    for (uint32_t i = 0; i < t->nrows; i++)
        if (t->rows[i].name && strcmp(t->rows[i].name, name) == 0)
            return &t->rows[i];
    return NULL;
}

static void check_file(const char *name, int size, int mem)
{
    struct qq_file *f = NULL;
    int rc = qq_file_open(name, &f);
    EXPECT(rc == 0, "open %s: %s", name, f ? qq_file_errmsg(f) : qq_strerror(rc));
    if (rc != 0) {
        qq_file_close(f);
        return;
    }
    EXPECT(qq_file_nnodes(f) == (uint32_t)size, "%u nodes, want %d", qq_file_nnodes(f), size);
    EXPECT(qq_file_nkeys(f) == NKEYS, "%u keys", qq_file_nkeys(f));
    for (uint32_t k = 0; k < qq_file_nkeys(f) && k < NKEYS; k++) {
        const struct qq_key_info *ki = qq_file_key(f, k);
        EXPECT(strcmp(ki->name, key_names[k]) == 0, "key %u is '%s'", k, ki->name);
        EXPECT(ki->type == key_types[k], "key %u type %u", k, ki->type);
    }
    EXPECT(qq_file_meta(f, "host") != NULL, "no host in META");

    uint64_t prev_end = 0;
    for (uint32_t i = 0; i < qq_file_nnodes(f) && i < (uint32_t)size; i++) {
        const struct qq_node_info *n = qq_file_node(f, i);
        struct want w[MAX_EVENTS];
        int total = pattern((int)i, w);
        int cap = capacity((int)i, size);
        uint64_t kept = (uint64_t)(total < cap ? total : cap);
        printf("node %u: %" PRIu64 " entries at offset %" PRIu64 ", dropped %" PRIu64
               ", %.3f MHz, flags 0x%x, tick_offset %" PRId64 " +/- %.0f ticks\n",
               n->node, n->entries, n->offset, n->dropped, n->mhz, n->flags, n->tick_offset,
               n->offset_error);
        EXPECT(n->node == i, "node %u has node field %u", i, n->node);
        EXPECT(n->entries == kept, "node %u: %" PRIu64 " entries, want %" PRIu64, i, n->entries,
               kept);
        EXPECT(n->dropped == (uint64_t)total - kept, "node %u: dropped %" PRIu64 ", want %" PRIu64,
               i, n->dropped, (uint64_t)total - kept);
        EXPECT(n->mhz > 0, "node %u: mhz %g", i, n->mhz);
        /* Offsets: strictly increasing, each past the previous node's
         * entries and its own EVTS head. */
        EXPECT(n->offset >= prev_end + 16,
               "node %u: offset %" PRIu64 " overlaps the previous node (ends at %" PRIu64 ")", i,
               n->offset, prev_end);
        prev_end = n->offset + n->entries * sizeof(struct qq_event);

        const struct qq_event *e = qq_file_entries(f, i);
        uint64_t last = n->base_tick;
        for (uint64_t j = 0; j < n->entries && j < kept; j++) {
            EXPECT(e[j].key == w[j].key, "node %u entry %" PRIu64 ": key %u, want %u", i, j,
                   e[j].key, w[j].key);
            EXPECT(e[j].info.i == w[j].info,
                   "node %u entry %" PRIu64 ": info %" PRId64 ", want %" PRId64, i, j, e[j].info.i,
                   w[j].info);
            EXPECT(e[j].tick >= last, "node %u entry %" PRIu64 ": tick %" PRIu64 " before %" PRIu64,
                   i, j, e[j].tick, last);
            last = e[j].tick;
        }

        /* Tick offsets: measured on every node; node 0 is the reference.
         * All ranks share one host and one invariant counter here, so the
         * true offset is 0 and Cristian's bound says |estimate| <= error;
         * the slack allows for counters of different cores that differ by
         * a few ticks. */
        EXPECT(n->flags & QQ_NODE_OFFSET_VALID, "node %u: offset not measured", i);
        if (i == 0) {
            EXPECT(n->tick_offset == 0 && n->offset_error == 0, "node 0: offset %" PRId64 " +/- %g",
                   n->tick_offset, n->offset_error);
        } else {
            EXPECT(n->offset_error > 0, "node %u: error bound %g", i, n->offset_error);
            if (n->flags & QQ_NODE_TSC_INVARIANT)
                EXPECT(fabs((double)n->tick_offset) <= 2 * n->offset_error + 10000,
                       "node %u: |tick_offset| %" PRId64 " > 2 * %.0f + 10000", i, n->tick_offset,
                       n->offset_error);
        }

        struct qq_mem_table t;
        int has = qq_file_mem(f, i, &t);
        EXPECT(has == mem, "node %u: memory table %s", i, has ? "present" : "absent");
        if (has && mem) {
            const struct qq_mem_row *rb = find_row(&t, "rank_buf");
            EXPECT(rb != NULL, "node %u: no rank_buf row", i);
            if (rb) {
                uint64_t b = 1000 * (uint64_t)(i + 1);
                EXPECT(rb->alloc_bytes == b, "node %u: rank_buf %" PRIu64 " bytes, want %" PRIu64,
                       i, rb->alloc_bytes, b);
                EXPECT(rb->allocs == 2 && rb->frees == 1,
                       "node %u: %" PRIu64 " allocs, %" PRIu64 " frees", i, rb->allocs, rb->frees);
                EXPECT(rb->peak_bytes == b + 64, "node %u: peak %" PRIu64, i, rb->peak_bytes);
            }
            for (int r = 0; r < size; r++) {
                char own[32];
                snprintf(own, sizeof own, "only_rank_%d", r);
                const struct qq_mem_row *ro = find_row(&t, own);
                if (r == (int)i) {
                    EXPECT(ro && ro->alloc_bytes == 10 * (uint64_t)(r + 1),
                           "node %u: row %s missing or wrong", i, own);
                } else {
                    EXPECT(ro == NULL, "node %u has rank %d's row %s", i, r, own);
                }
            }
            EXPECT(t.process_bytes > 0, "node %u: process_bytes 0", i);
        }
    }
    qq_file_close(f);
}

/* ---------------------------------------------------------------------
 * Helpers for the MPI modes.
 * --------------------------------------------------------------------- */

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Number of NAME.tmp.* files in the working directory. */
static int temporaries(const char *name)
{
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s.tmp.", name);
    DIR *d = opendir(".");
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    long n = 0;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        if (ca != cb) {
            fprintf(stderr, "%s and %s differ at byte %ld\n", a, b, n);
            same = 0;
        }
        if (ca == EOF)
            break;
        n++;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Fail every rank if any rank failed. */
static int all_ok(void)
{
    int mine = failures != 0, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return !any;
}

/* diewrite: rank 1 dies inside QQOut's writes. The test program's own
 * definitions of these MPI calls take the library's calls (the MPI
 * profiling interface), and forward to PMPI_* otherwise. */
static int die_in_write;

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    if (die_in_write) { /* its chunk, in one write */
        fprintf(stderr, "rank 1: dying inside MPI_File_write_at\n");
        _exit(3);
    }
    return PMPI_File_write_at(fh, offset, buf, count, datatype, status);
}

/* The gather writer's chunk goes in pieces (tag 4). The first is sent
 * synchronously: it completes only once rank 0 has posted its receive,
 * which it does after creating the temporary. Dying at the first piece
 * instead raced rank 0 to that file: rank 1's eager sends return at once,
 * and a rank 0 descheduled between the last collective and open() was
 * killed by mpirun before it made the file the script looks for. */
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    static int pieces;
    if (die_in_write && tag == 4 && pieces++ > 0) {
        fprintf(stderr, "rank 1: dying in the middle of sending its chunk\n");
        _exit(3);
    }
    if (die_in_write && tag == 4)
        return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

/* failwrite: rank 1 cannot write its part (the disk is full). The test
 * program's pwritev takes the library's calls; pwritev2 is the real one. */
static int fail_in_write;

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t offset)
{
    if (fail_in_write) {
        errno = ENOSPC;
        return -1;
    }
    return pwritev2(fd, iov, n, offset, 0);
}

/* A wrong QQOut on one rank: every rank fails with a message, no file. */
static int run_bad(const char *mode, const char *name, int rank, int size)
{
    if (size < 2 && strcmp(mode, "badcount") != 0) {
        fprintf(stderr, "%s needs at least 2 ranks\n", mode);
        return 2;
    }
    char other[512];
    snprintf(other, sizeof other, "%s.other", name);
    QQInit(BIG_CAP);
    add_keys(!strcmp(mode, "badkeys") && rank == size - 1);
    record_pattern(rank);
    int node = rank, nodes = size;
    const char *path = name;
    if (!strcmp(mode, "badnode") && rank == size - 1)
        node = 0; /* in range, but not its rank */
    else if (!strcmp(mode, "badcount") && rank == 0)
        nodes = size + 1; /* in range, but not the size */
    else if (!strcmp(mode, "badname") && rank == size - 1)
        path = other;
    else if (!strcmp(mode, "badrange") && rank == size - 1)
        nodes = rank;           /* node == nodes: out of range, caught before MPI */
    if (!strcmp(mode, "badio")) /* the last rank alone asks for the gather */
        setenv("QQ_MPI_IO", rank == size - 1 ? "0" : "1", 1);
    int rc = qq_out(path, node, nodes);
    printf("rank %d: qq_out(%s, %d, %d) = %d (%s): %s\n", rank, path, node, nodes, rc,
           qq_err_name(rc), qq_out_errmsg());
    EXPECT(rc < 0, "rank %d: qq_out succeeded", rank);
    EXPECT(qq_out_errmsg()[0] != '\0', "rank %d: no error message", rank);
    if (!strcmp(mode, "badnode") || !strcmp(mode, "badcount") || !strcmp(mode, "badrange"))
        EXPECT(rc == QQ_EINVAL && strstr(qq_out_errmsg(), "node"), "rank %d: %s", rank,
               qq_out_errmsg());
    if (!strcmp(mode, "badkeys"))
        EXPECT(rc == QQ_EINVAL && strstr(qq_out_errmsg(), "keys"), "rank %d: %s", rank,
               qq_out_errmsg());
    if (!strcmp(mode, "badio"))
        EXPECT(rc == QQ_EINVAL && strstr(qq_out_errmsg(), "QQ_MPI_IO"), "rank %d: %s", rank,
               qq_out_errmsg());
    if (!strcmp(mode, "badname"))
        EXPECT(rc == QQ_EINVAL && strstr(qq_out_errmsg(), "file names"), "rank %d: %s", rank,
               qq_out_errmsg());
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(!exists(name), "%s exists", name);
    EXPECT(!exists(other), "%s exists", other);
    EXPECT(temporaries(name) == 0, "%d temporaries of %s", temporaries(name), name);
    EXPECT(temporaries(other) == 0, "temporaries of %s", other);
    return all_ok() ? 0 : 1;
}

static int run_bench(const char *name, long n, int rank, int size)
{
    QQInit((int)n);
    int k = QQAddCount("i");
    for (long i = 0; i < n; i++)
        QQCount(k, (int)i);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int rc = qq_out(name, rank, size);
    double dt = MPI_Wtime() - t0, worst = 0;
    MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rc != 0)
        fprintf(stderr, "rank %d: %s\n", rank, qq_out_errmsg());
    if (rank == 0) {
        const char *io = getenv("QQ_MPI_IO");
        printf("merge %d ranks x %ld events (QQ_MPI_IO=%s): %.3f s\n", size, n, io ? io : "unset",
               worst);
        struct qq_file *f;
        if (qq_file_open(name, &f) == 0) {
            for (uint32_t i = 0; i < qq_file_nnodes(f); i++)
                printf("  node %u: tick_offset %" PRId64 " +/- %.0f ticks\n", i,
                       qq_file_node(f, i)->tick_offset, qq_file_node(f, i)->offset_error);
        } else {
            printf("  cannot read %s: %s\n", name, qq_file_errmsg(f));
            failures++;
        }
        qq_file_close(f);
    }
    return rc == 0 && all_ok() ? 0 : 1;
}

static int run_mpi(int argc, char **argv)
{
    const char *mode = argv[1], *name = argv[2];
    MPI_Init(&argc, &argv);
    int rank, size, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int writers = !strcmp(mode, "writers");
    if (!strcmp(mode, "record") || writers) {
        int mem = !strcmp(mode, "record") && argc > 3 && !strcmp(argv[3], "--mem");
        if (writers && argc < 5) {
            rc = 2;
        } else {
            if (mem)
                use_memory(rank);
            QQInit(capacity(rank, size));
            add_keys(0);
            record_pattern(rank);
            struct want w[MAX_EVENTS];
            int total = pattern(rank, w), cap = capacity(rank, size);
            uint64_t drop = (uint64_t)(total > cap ? total - cap : 0);
            EXPECT(qq_dropped() == drop, "rank %d: qq_dropped %" PRIu64 ", want %" PRIu64, rank,
                   qq_dropped(), drop);
            if (writers)
                setenv("QQ_MPI_IO", "1", 1);
            int orc = qq_out(name, rank, size);
            EXPECT(orc == 0, "rank %d: qq_out: %s", rank, qq_out_errmsg());
            if (writers) {
                setenv("QQ_MPI_IO", "0", 1);
                orc = qq_out(argv[3], rank, size);
                EXPECT(orc == 0, "rank %d: qq_out (gather): %s", rank, qq_out_errmsg());
                setenv("QQ_MPI_IO", "2", 1);
                orc = qq_out(argv[4], rank, size);
                EXPECT(orc == 0, "rank %d: qq_out (direct): %s", rank, qq_out_errmsg());
            }
            MPI_Barrier(MPI_COMM_WORLD);
            /* QQ_OUTPUT, when set, names the file instead of NAME. */
            const char *env = getenv(QQ_OUTPUT_ENV);
            const char *path = env && *env ? env : name;
            if (rank == 0) {
                check_file(path, size, mem);
                EXPECT(temporaries(path) == 0, "temporaries of %s left", path);
                if (env && *env)
                    EXPECT(!exists(name), "%s written despite %s", name, QQ_OUTPUT_ENV);
                if (writers) {
                    for (int i = 3; i <= 4; i++) {
                        check_file(argv[i], size, 0);
                        EXPECT(same_bytes(name, argv[i]), "%s and %s differ", name, argv[i]);
                    }
                }
            }
            rc = all_ok() ? 0 : 1;
        }
    } else if (!strcmp(mode, "special")) {
        /* NAME is a FIFO or a device node: every rank is refused, with the
         * message rank 0 made; NAME stays what it was (the script checks). */
        QQInit(BIG_CAP);
        add_keys(0);
        record_pattern(rank);
        int orc = qq_out(name, rank, size);
        printf("rank %d: qq_out(%s) = %d (%s): %s\n", rank, name, orc, qq_err_name(orc),
               qq_out_errmsg());
        EXPECT(orc == QQ_EINVAL, "rank %d: qq_out returned %d", rank, orc);
        EXPECT(strstr(qq_out_errmsg(), "will not replace") != NULL, "rank %d: message '%s'", rank,
               qq_out_errmsg());
        MPI_Barrier(MPI_COMM_WORLD);
        EXPECT(temporaries(name) == 0, "temporaries of %s left", name);
        rc = all_ok() ? 0 : 1;
    } else if (!strncmp(mode, "bad", 3)) {
        rc = run_bad(mode, name, rank, size);
    } else if (!strcmp(mode, "die") || !strcmp(mode, "diewrite")) {
        QQInit(BIG_CAP);
        add_keys(0);
        record_pattern(rank);
        if (rank == 1 && !strcmp(mode, "die")) {
            fprintf(stderr, "rank 1: exiting before QQOut\n");
            _exit(3);
        }
        die_in_write = rank == 1;
        rc = qq_out(name, rank, size);
        fprintf(stderr, "rank %d: qq_out returned %d: %s\n", rank, rc, qq_out_errmsg());
        rc = 1; /* reaching this is already wrong: rank 1 never wrote */
    } else if (!strcmp(mode, "failwrite")) {
        /* Rank 1's part cannot be written: every rank fails with QQ_EIO
         * and a message; no file, no temporary. */
        if (size < 2) {
            rc = 2;
        } else {
            QQInit(BIG_CAP);
            add_keys(0);
            record_pattern(rank);
            fail_in_write = rank == 1;
            int orc = qq_out(name, rank, size);
            fail_in_write = 0;
            printf("rank %d: qq_out(%s) = %d (%s): %s\n", rank, name, orc, qq_err_name(orc),
                   qq_out_errmsg());
            EXPECT(orc == QQ_EIO, "rank %d: qq_out returned %d", rank, orc);
            EXPECT(strstr(qq_out_errmsg(), "rank 1") != NULL, "rank %d: message '%s'", rank,
                   qq_out_errmsg());
            MPI_Barrier(MPI_COMM_WORLD);
            EXPECT(!exists(name), "%s exists", name);
            EXPECT(temporaries(name) == 0, "%d temporaries of %s", temporaries(name), name);
            rc = all_ok() ? 0 : 1;
        }
    } else if (!strcmp(mode, "bench") && argc > 3) {
        rc = run_bench(name, strtol(argv[3], NULL, 10), rank, size);
    } else {
        rc = 2;
    }
    if (rc == 2 && rank == 0)
        fprintf(stderr, "qq_mpi_test: bad usage of mode %s\n", mode);
    MPI_Finalize();
    if (rc == 0 && writers && argc > 5) {
        /* MPI is finalized: QQOut falls back to the serial writer. */
        EXPECT(size == 1, "the serial comparison needs 1 rank, not %d", size);
        int orc = qq_out(argv[5], 0, 1);
        EXPECT(orc == 0, "qq_out (serial): %s", qq_out_errmsg());
        EXPECT(same_bytes(argv[2], argv[5]), "%s and %s differ", argv[2], argv[5]);
        rc = failures ? 1 : 0;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: qq_mpi_test MODE NAME [ARGS] (see the source)\n");
        return 2;
    }
    if (!strcmp(argv[1], "check")) {
        if (argc < 4)
            return 2;
        check_file(argv[2], atoi(argv[3]), argc > 4 && !strcmp(argv[4], "--mem"));
        return failures ? 1 : 0;
    }
    if (!strcmp(argv[1], "refuse")) {
        struct qq_file *f = NULL;
        int rc = qq_file_open(argv[2], &f);
        printf("%s: %d (%s): %s\n", argv[2], rc, qq_err_name(rc), f ? qq_file_errmsg(f) : "");
        qq_file_close(f);
        return rc != 0 ? 0 : 1;
    }
    return run_mpi(argc, argv);
}
