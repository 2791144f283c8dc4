/* qq_merge.c - QQOut's merge under MPI: every rank's --size events into one file, against an
 * MPI_Gatherv of the same bytes to rank 0, in the same launch. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qq.h"
#include "kio.h"

#define PROG "qq_merge"

/*
 * Each rank records --size events once. Every round then times, from a
 * barrier to the last rank's return (the maximum over ranks), QQOut of
 * all ranks' events into one fresh scratch file; an MPI_Gatherv of the
 * same number of bytes to rank 0, the least any merge through rank 0 must
 * move; that Gatherv followed by one write(2) of the gathered bytes by
 * rank 0 to a fresh file, the plain way to merge into a file; and that
 * write(2) alone, the least any writer of one file must do.
 * Variant auto: QQOut's own choice (each rank writing its part on one
 * host, MPI-IO across hosts); gather: QQ_MPI_IO=0, rank 0 receives every
 * chunk and writes it; mpiio: QQ_MPI_IO=1; direct: QQ_MPI_IO=2, every rank
 * pwrite()s its own part. A first round is not kept (MPI-IO's first open
 * loads its components; first pages cost more).
 */

enum { R_MERGE, R_GATHERV, R_GATHERV_WRITE, R_WRITE, R_N };
static const char *const res_name[R_N] = {"merge_ms", "gatherv_ms", "gatherv_write_ms", "write_ms"};

/* The variants after auto set QQ_MPI_IO to their index minus one. */
static const char *const variants[] = {"auto", "gather", "mpiio", "direct", NULL};

/* The plain references' buffers: every rank's N events of bytes (MINE),
 * gathered on rank 0 into ALL and written to PATH. */
struct plain {
    unsigned char *mine, *all;
    int *counts, *displs;
    MPI_Datatype ev;
    long n;
    size_t total;
    const char *path;
    int rank;
};

/* One reference, timed from a barrier to the slowest rank (rank 0 gets
 * the ms): the MPI_Gatherv of the bytes to rank 0 (GATHERV), rank 0's
 * write(2) of them to a fresh file (WRITE), or the one then the other. */
static double reference(const struct plain *p, int gatherv, int write, int *fail)
{
    if (write && p->rank == 0)
        unlink(p->path);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (gatherv)
        MPI_Gatherv(p->mine, (int)p->n, p->ev, p->all, p->counts, p->displs, p->ev, 0,
                    MPI_COMM_WORLD);
    if (write && p->rank == 0 && kio_plain_write(p->path, p->all, p->total) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", PROG, p->path, strerror(errno));
        *fail = 1;
    }
    double dt = MPI_Wtime() - t0, worst = 0;
    MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return 1e3 * worst;
}

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    static int median, replace;
    static const struct kopt extra[] = {
        KIO_MEDIAN_OPTION(median),
        {"replace", KOPT_FLAG, &replace, 0,
         "QQOut replaces the last round's file (the old file's pages are freed in the rename)"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "QQOut's merge (MPI): every rank records --size events once; per round "
                   "(--steps), QQOut\nof all of them into one fresh file, then an "
                   "MPI_Gatherv of the same bytes to rank 0,\nthat Gatherv plus one write(2) "
                   "of them by rank 0, and that write(2) alone, each timed\nfrom a barrier "
                   "to the slowest rank. --variant auto (QQOut's choice), gather\n(QQ_MPI_IO=0), "
                   "mpiio (QQ_MPI_IO=1) or direct (QQ_MPI_IO=2). Scratch file beside\n"
                   "$QQ_OUTPUT. Run: mpirun -np 4 --oversubscribe qq_merge --size 1000000 --print",
        .keys = "  values  merge_ms (QQOut), gatherv_ms (MPI_Gatherv of the same bytes),\n"
                "          gatherv_write_ms (and rank 0 writing them), write_ms (rank 0's write\n"
                "          alone), one per round, on rank 0",
        .variants = variants,
        .size_default = 1000000,
        .size_max = 40000000,
        .size_unit = "per rank",
        .steps_default = 5,
        .extra = extra,
    };
    struct kargs a;
    int prc = kargs_parse(&spec, argc, argv, &a, rank != 0);
    if (prc != KARGS_OK) {
        MPI_Finalize();
        return prc == KARGS_HELP ? 0 : 2;
    }
    if (a.variant_index > 0) { /* auto: QQ_MPI_IO as the caller set it */
        char mode[16];
        snprintf(mode, sizeof mode, "%d", a.variant_index - 1);
        setenv("QQ_MPI_IO", mode, 1);
    }
    long n = a.size, rounds = a.steps;

    char saved[4096], path[4096], plain_path[4096];
    kio_scratch(path, sizeof path, "qq_merge.scratch.qq");
    kio_scratch(plain_path, sizeof plain_path, "qq_merge.scratch.plain");

    QQInit((int)n);
    int m = QQAddMark("merge_mark"), c = QQAddCount("merge_count");
    for (long i = 0; i < n; i++) {
        if (i % 2)
            QQCount(c, (int)i);
        else
            QQMark(m);
    }

    /* The Gatherv's buffers, made and touched before any timing. */
    size_t bytes = (size_t)n * sizeof(struct qq_event);
    unsigned char *mine = kxcalloc(PROG, bytes, 1), *all = NULL;
    memset(mine, 0x5a, bytes);
    int *counts = NULL, *displs = NULL;
    if (rank == 0) {
        all = kxcalloc(PROG, bytes * (size_t)nranks, 1);
        memset(all, 0, bytes * (size_t)nranks);
        counts = kxcalloc(PROG, (size_t)nranks, sizeof *counts);
        displs = kxcalloc(PROG, (size_t)nranks, sizeof *displs);
        for (int r = 0; r < nranks; r++) {
            counts[r] = (int)n;
            displs[r] = (int)(n * r);
        }
    }
    MPI_Datatype ev;
    MPI_Type_contiguous((int)sizeof(struct qq_event), MPI_BYTE, &ev);
    MPI_Type_commit(&ev);
    struct plain p = {mine, all, counts, displs, ev, n, bytes * (size_t)nranks, plain_path, rank};

    double *res = kxcalloc(PROG, (size_t)(rounds * R_N), sizeof *res);
    kio_hide_output(saved, sizeof saved);
    int fail = 0;
    for (long r = -1; r < rounds; r++) {
        if (rank == 0 && !replace)
            unlink(path);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int rc = qq_out(path, rank, nranks);
        double dt = MPI_Wtime() - t0, worst = 0;
        MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (r >= 0)
            res[R_MERGE * rounds + r] = 1e3 * worst;
        if (rc != 0) {
            fprintf(stderr, "%s: rank %d: cannot write %s: %s\n", PROG, rank, path,
                    qq_out_errmsg());
            fail = 1;
        }

        double g = reference(&p, 1, 0, &fail), gw = reference(&p, 1, 1, &fail);
        double w = reference(&p, 0, 1, &fail);
        if (r >= 0) {
            res[R_GATHERV * rounds + r] = g;
            res[R_GATHERV_WRITE * rounds + r] = gw;
            res[R_WRITE * rounds + r] = w;
        }
    }
    if (rank == 0) {
        unlink(path);
        unlink(plain_path);
    }
    kio_restore_output(saved);
    MPI_Type_free(&ev);
    kxfree(mine);
    kxfree(all);
    kxfree(counts);
    kxfree(displs);

    /* The results alone go out, recorded on rank 0 (the recorded events
     * are discarded). */
    QQInit(kqq_events((uint64_t)(rounds * R_N) + 16));
    int key[R_N];
    for (int k = 0; k < R_N; k++)
        key[k] = QQAddValue(res_name[k]);
    if (rank == 0)
        for (int k = 0; k < R_N; k++)
            kio_record_rounds(key[k], res + k * rounds, rounds, median);
    int rc = kqq_out(PROG, "qq_merge.qq", rank, nranks);

    if (rank == 0 && a.print) {
        double med[R_N];
        for (int k = 0; k < R_N; k++)
            med[k] = kmedian(res + k * rounds, (size_t)rounds);
        printf("variant %s\nranks %d\nevents_per_rank %ld\nbytes %zu\nrounds %ld\n", a.variant,
               nranks, n, bytes * (size_t)nranks, rounds);
        printf("merge_ms %.2f\ngatherv_ms %.2f\ngatherv_write_ms %.2f\nwrite_ms %.2f\n",
               med[R_MERGE], med[R_GATHERV], med[R_GATHERV_WRITE], med[R_WRITE]);
        printf("ratio merge/gatherv %.2f\nratio merge/gatherv_write %.2f\n"
               "ratio merge/write %.2f\n",
               med[R_GATHERV] > 0 ? med[R_MERGE] / med[R_GATHERV] : 0.0,
               med[R_GATHERV_WRITE] > 0 ? med[R_MERGE] / med[R_GATHERV_WRITE] : 0.0,
               med[R_WRITE] > 0 ? med[R_MERGE] / med[R_WRITE] : 0.0);
    }
    kxfree(res);
    int anyfail = 0;
    MPI_Allreduce(&fail, &anyfail, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Finalize();
    return anyfail || rc ? 1 : 0;
}
