/* blocked.c - a blocked matrix transpose whose tile size QQTune chooses in the first iterations
 * (docs/TUNE.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "qq.h"
#include "kcommon.h"

/* Built twice: with libqq (blocked) and with libqq-mpi (blocked_mpi: every
 * rank transposes its own matrices and tries its own share of the tiles). */
#if defined(QQ_MPI) && QQ_MPI
#include <mpi.h>
#define BL_MPI 1
#else
#define BL_MPI 0
#endif

#define PROG "blocked"

/*
 * One iteration transposes the N x N matrix A into B tile by tile, then
 * swaps the two: after an even number of iterations A holds the input
 * again. Every tile size gives the same bits, so the digest checks the
 * tiling and QQTune's choice cannot change the result. The tile decides
 * how the column-wise writes (stride N doubles) meet the caches: too
 * small and every line is refetched, too large and the tile's lines no
 * longer fit.
 *
 * --plant T makes every tile but T do its iteration --slow times over
 * (the same transpose written again, the same result): the planted tile
 * is then the fastest by construction, what the tests check QQTune finds.
 * (Tiles differ by up to 5x on their own: at N = 256 the untiled 256 took
 * 0.22 ms an iteration, tile 8 0.042; --slow 4 let tile 8 beat a planted
 * 256, so the default is 16.)
 */

static const int tiles[] = {32, 4, 8, 16, 64, 128, 256}; /* the default first */
#define NTILES ((int)(sizeof tiles / sizeof tiles[0]))

static long g_tile = 0, g_reps = 3, g_plant = 0, g_slow = 16;
static int g_sweep = 0;

struct job {
    double *a, *b;
    long n;
    long done; /* iterations so far, QQTune's included */
};

static void transpose(double *restrict b, const double *restrict a, long n, long tile)
{
    for (long i0 = 0; i0 < n; i0 += tile)
        for (long j0 = 0; j0 < n; j0 += tile) {
            long i1 = i0 + tile < n ? i0 + tile : n, j1 = j0 + tile < n ? j0 + tile : n;
            for (long i = i0; i < i1; i++)
                for (long j = j0; j < j1; j++)
                    b[j * n + i] = a[i * n + j];
        }
}

/* One of the program's iterations with tile TILE: QQTune's work too. */
static void iterate(int tile, void *p)
{
    struct job *j = p;
    long times = g_plant > 0 && tile != g_plant ? g_slow : 1;
    for (long t = 0; t < times; t++)
        transpose(j->b, j->a, j->n, tile);
    double *x = j->a;
    j->a = j->b;
    j->b = x;
    j->done++;
}

/* The exhaustive sweep QQTune is measured against: every tile for STEPS
 * whole iterations, the median iteration's seconds each (docs/TUNE.md).
 * The tiles take turns, iteration by iteration, so a slow spell of the
 * machine falls on all of them rather than on one tile's median. */
static void sweep(struct job *j, long steps, int choice, long cost, double mhz)
{
    double med[NTILES], *t = kxcalloc(PROG, (size_t)(steps * NTILES), sizeof *t);
    int best = 0;
    for (long s = 0; s < steps; s++)
        for (int c = 0; c < NTILES; c++) {
            uint64_t t0 = qq_ticks_open();
            iterate(tiles[c], j);
            t[c * steps + s] = (double)(qq_ticks_close() - t0) / (mhz * 1e6);
        }
    for (int c = 0; c < NTILES; c++) {
        med[c] = kmedian(t + c * steps, (size_t)steps);
        if (med[c] < med[best])
            best = c;
        printf("sweep tile=%d median_s=%.6g\n", tiles[c], med[c]);
    }
    int ci = 0;
    while (ci < NTILES && tiles[ci] != choice)
        ci++;
    printf("sweep_best %d\n", tiles[best]);
    printf("tune_choice %d\n", choice);
    if (ci < NTILES)
        printf("tune_ratio %.4f\n", med[ci] / med[best]);
    printf("tune_cost_iterations %ld\n", cost);
    printf("sweep_cost_iterations %ld\n", (long)NTILES * steps);
    kxfree(t);
}

static const char *const variants[] = {"transpose", NULL};

static const struct kopt extra[] = {
    {"tile", KOPT_LONG, &g_tile, 0, "tile size (default 0: chosen by QQTune among 4..256)"},
    {"reps", KOPT_LONG, &g_reps, 1, "QQTune's rounds over the tiles (default 3)"},
    {"plant", KOPT_LONG, &g_plant, 0, "make every other tile --slow times slower (default 0)"},
    {"slow", KOPT_LONG, &g_slow, 1, "how much slower the unplanted tiles are (default 16)"},
    {"sweep", KOPT_FLAG, &g_sweep, 0,
     "then time every tile for --steps iterations, and print QQTune's choice against it"},
    {NULL, KOPT_LONG, NULL, 0, NULL},
};

static const struct kspec spec = {
    .prog = PROG,
    .summary = "A blocked transpose of an N x N matrix (--size N), --steps iterations; the\n"
               "tile size is chosen by QQTune in the first iterations (each tried --reps\n"
               "times, spread over the MPI ranks in blocked_mpi) unless --tile fixes it.",
    .keys = "  states  iteration (one transpose after tuning), tile=T (QQTune's trials)\n"
            "  tune    tile (the choice and every tile's time, in the file's TUNE record)",
    .variants = variants,
    .size_default = 1024,
    .size_max = 16384,
    .size_unit = NULL,
    .steps_default = 40,
    .extra = extra,
};

/* The matrices, A filled from the seed, B zero. */
static void job_make(struct job *j, long n, uint64_t seed, int rank)
{
    j->n = n;
    j->done = 0;
    j->a = kxcalloc(PROG, (size_t)(n * n), sizeof *j->a);
    j->b = kxcalloc(PROG, (size_t)(n * n), sizeof *j->b);
    struct krng r;
    krng_seed(&r, seed, (uint64_t)rank);
    for (long i = 0; i < n * n; i++) {
        j->a[i] = krng_uniform(&r);
        j->b[i] = -1.0; /* touched now: no iteration pays B's first page faults */
    }
}

static int run(const struct kargs *a, int rank, int nranks)
{
    struct job j;
    job_make(&j, a->size, a->seed, rank);
    QQInit(kqq_events(2 * (uint64_t)a->steps + 4 * NTILES * (uint64_t)g_reps + 64));
    int k_iter = QQAddState("iteration");
    QQBaseTime();
    int tile = g_tile > 0 ? (int)g_tile : QQTune("tile", tiles, NTILES, (int)g_reps, iterate, &j);
    long cost = j.done;
    while (j.done < a->steps) {
        QQStateOn(k_iter);
        iterate(tile, &j);
        QQStateOff(k_iter);
    }
    if (g_sweep)
        sweep(&j, a->steps, tile, cost, qq_tick_mhz());
    if (a->print) {
        if (j.done % 2) { /* an odd count left A^T in A: once more, A again */
            transpose(j.b, j.a, j.n, 32);
            double *x = j.a;
            j.a = j.b;
            j.b = x;
        }
        uint64_t d = kdigest_bytes(KDIGEST_INIT, j.a, (size_t)(j.n * j.n) * sizeof *j.a);
        if (nranks > 1) /* each rank's choice: the ranks agreed on one */
            printf("rank %d tile %d\n", rank, tile);
        if (rank == 0)
            printf("tile %d\niterations %ld\ndigest %016llx\n", tile, j.done,
                   (unsigned long long)d);
    }
    kxfree(j.a);
    kxfree(j.b);
    return kqq_out(PROG, "blocked.qq", rank, nranks);
}

int main(int argc, char **argv)
{
    int rank = 0, nranks = 1;
#if BL_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
#endif
    struct kargs a;
    int prc = kargs_parse(&spec, argc, argv, &a, rank != 0);
    int rc = prc == KARGS_OK ? run(&a, rank, nranks) : prc == KARGS_HELP ? 0 : 2;
#if BL_MPI
    MPI_Finalize();
#endif
    return rc;
}
