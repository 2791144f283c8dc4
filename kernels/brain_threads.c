/* brain_threads.c - the NCS brain update over cells in threads (pthreads) within MPI ranks: a
 * per-thread state, count and memory key on every thread, QQ in a threaded program. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Built twice: with libqq-mpi (QQ_MPI=1: ranks) and with libqq alone
 * (brain_threads_serial: one rank, no MPI, for valgrind's leak check,
 * which Open MPI's own allocations would fail). */
#if defined(QQ_MPI) && QQ_MPI
#include <mpi.h>
#define BT_MPI 1
#else
#define BT_MPI 0
#endif

#include "qq.h"
#include "brain_model.h"
#include "kcommon.h"
/* After every system header: malloc & co below are recorded under the
 * MEM_KEY in force where each call is written. */
#include "qq_mem.h"

#define PROG "brain_threads"

static int KEY_CELLS, KEY_SCRATCH;
static int qk_update, qk_exchange, qk_spikes;

/* A cell: one compartment and its channels (brain.c's Compartment and
 * Channel, flattened so that a thread's cells are one block). */
struct cell {
    double V, g_syn, stim;
    double m[NCHAN], strength[NCHAN];
};

static double gate[NCHAN][GATE_N];

/* Forward Euler of one compartment and its channels; 1 on a spike. */
static int cell_update(struct cell *c)
{
    double I = G_LEAK * (E_LEAK - c->V) + c->g_syn * (E_SYN - c->V) + c->stim;
    for (int k = 0; k < NCHAN; k++)
        I += brain_channel_step(gate[k], &c->m[k], brain_ch_tau[k], brain_ch_g[k], c->strength[k],
                                brain_ch_p[k], c->V);
    c->V += DT * I;
    c->g_syn -= DT * c->g_syn / SYN_TAU;
    if (c->V >= V_THRESH) {
        c->V = V_RESET;
        return 1;
    }
    return 0;
}

/* What the threads share: the rank's cells, cut into one slice per thread. */
struct sim {
    struct cell *cells;
    long ncells, steps;
    int nthreads;
    pthread_barrier_t done, go; /* a step's slices are done; the exchange is done */
    long *spikes;               /* per thread, this step */
    double drive;               /* this step's synaptic input per cell (set by thread 0) */
};

struct worker {
    struct sim *s;
    int w;
};

/* Thread W's part of one step: its cells updated under the state
 * 'update', the cells that spiked listed in a scratch array under the
 * memory key 'Thread scratch' (allocated and freed every step, on every
 * thread), their number a count. */
#undef MEM_KEY
#define MEM_KEY KEY_SCRATCH
static void slice_step(struct sim *s, int w)
{
    long from = s->ncells * w / s->nthreads, to = s->ncells * (w + 1) / s->nthreads;
    int *spiked = malloc((size_t)(to - from + 1) * sizeof *spiked);
    if (!spiked)
        kdie(PROG, "out of memory");
    long n = 0;
    QQStateOn(qk_update);
    for (long i = from; i < to; i++) {
        s->cells[i].g_syn += s->drive;
        if (cell_update(&s->cells[i]))
            spiked[n++] = (int)i;
    }
    QQStateOff(qk_update);
    QQCount(qk_spikes, (int)n);
    s->spikes[w] = n;
    free(spiked);
}

static void *worker_main(void *p)
{
    const struct worker *wk = p;
    struct sim *s = wk->s;
    char name[16];
    snprintf(name, sizeof name, "brain-w%d", wk->w);
    pthread_setname_np(pthread_self(), name);
    for (long t = 0; t < s->steps; t++) {
        slice_step(s, wk->w);
        pthread_barrier_wait(&s->done);
        pthread_barrier_wait(&s->go);
    }
    return NULL;
}

/* Thread 0 (QQInit's, the only one that calls MPI): its slice, then the
 * exchange: every rank's spikes summed (MPI_Allreduce on the thread that
 * called QQInit: MPI_THREAD_FUNNELED is enough) drive every cell. */
static long run(struct sim *s, int nranks, long total_cells)
{
    long spikes = 0;
    for (long t = 0; t < s->steps; t++) {
        slice_step(s, 0);
        pthread_barrier_wait(&s->done);
        QQStateOn(qk_exchange);
        long mine = 0, all = 0;
        for (int w = 0; w < s->nthreads; w++)
            mine += s->spikes[w];
        all = mine;
#if BT_MPI
        if (nranks > 1)
            MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
#else
        (void)nranks;
#endif
        s->drive = 0.02 * (double)all / (double)total_cells;
        spikes += mine;
        QQStateOff(qk_exchange);
        pthread_barrier_wait(&s->go);
    }
    return spikes;
}

#undef MEM_KEY
#define MEM_KEY KEY_CELLS
static struct cell *cells_new(long n, long first, uint64_t seed)
{
    struct cell *c = calloc((size_t)n, sizeof *c);
    if (!c)
        kdie(PROG, "out of memory");
    for (long i = 0; i < n; i++) {
        struct krng r;
        krng_seed(&r, seed, (uint64_t)(first + i)); /* the same cell on any split */
        c[i].V = E_LEAK;
        c[i].stim = (first + i) % 10 == 0 ? 2.5 + krng_uniform(&r) : 0.0;
        for (int k = 0; k < NCHAN; k++) {
            c[i].strength[k] = 0.8 + 0.4 * krng_uniform(&r);
            c[i].m[k] = gate[k][17]; /* about -65 mV */
        }
    }
    return c;
}

static long g_threads = 4;

int main(int argc, char **argv)
{
    int rank = 0, nranks = 1;
#if BT_MPI
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
#endif
    static const struct kopt extra[] = {
        {"threads", KOPT_LONG, &g_threads, 1, "threads per rank (default 4, at most 64)"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const char *const variants[] = {"ncs", NULL};
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "The NCS brain update over cells (brain.c's compartments and Km, Ka, "
                   "Kahp channels)\nin --threads pthreads per MPI rank: each thread updates "
                   "its slice of the rank's\n--size cells per step; thread 0 sums the "
                   "spikes of every thread and rank\n(MPI_Allreduce, MPI_THREAD_FUNNELED) "
                   "into the next step's synaptic drive.\nSame spikes for any split of "
                   "the cells into ranks and threads.",
        .keys = "  states  update (every thread), exchange (thread 0)\n  counts  spikes "
                "(per thread per step)\n  memory  Cells, Thread scratch (every thread, "
                "every step)",
        .variants = variants,
        .size_default = 4096,
        .size_max = 100000000L,
        .size_unit = "per rank",
        .steps_default = 200,
        .extra = extra,
    };
    struct kargs a;
    int prc = kargs_parse(&spec, argc, argv, &a, rank != 0);
    if (prc == KARGS_OK && g_threads > 64) {
        if (rank == 0)
            fprintf(stderr, "%s: --threads must be 1..64\n", PROG);
        prc = KARGS_ERROR;
    }
    if (prc != KARGS_OK) {
#if BT_MPI
        MPI_Finalize();
#endif
        return prc == KARGS_HELP ? 0 : 2;
    }
    for (int k = 0; k < NCHAN; k++)
        for (int i = 0; i < GATE_N; i++)
            gate[k][i] = brain_gate_minf(k, -100.0 + 2.0 * i);

    KEY_CELLS = MemAddKey("Cells");
    KEY_SCRATCH = MemAddKey("Thread scratch");
    /* Per thread: a state pair and a count per step, and room to spare. */
    QQInit(kqq_events((uint64_t)a.steps * 4 + 64));
    qk_update = QQAddState("update");
    qk_exchange = QQAddState("exchange");
    qk_spikes = QQAddCount("spikes");

    struct sim s = {0};
    s.ncells = a.size;
    s.steps = a.steps;
    s.nthreads = (int)g_threads;
    s.cells = cells_new(s.ncells, (long)rank * a.size, a.seed);
    s.spikes = calloc((size_t)s.nthreads, sizeof *s.spikes);
    struct worker *wk = calloc((size_t)s.nthreads, sizeof *wk);
    pthread_t *tid = calloc((size_t)s.nthreads, sizeof *tid);
    if (!s.spikes || !wk || !tid)
        kdie(PROG, "out of memory");
    pthread_barrier_init(&s.done, NULL, (unsigned)s.nthreads);
    pthread_barrier_init(&s.go, NULL, (unsigned)s.nthreads);
    pthread_setname_np(pthread_self(), "brain-w0");
    QQBaseTime();
    for (int w = 1; w < s.nthreads; w++) {
        wk[w] = (struct worker){&s, w};
        if (pthread_create(&tid[w], NULL, worker_main, &wk[w]) != 0)
            kdie(PROG, "cannot start a thread");
    }
    long spikes = run(&s, nranks, a.size * nranks);
    for (int w = 1; w < s.nthreads; w++)
        pthread_join(tid[w], NULL);

    /* Every thread is joined: QQOut writes each one's buffer. */
    int rc = kqq_out(PROG, "brain_threads.qq", rank, nranks);
    uint64_t digest = KDIGEST_INIT;
    for (long i = 0; i < s.ncells; i++)
        digest = kdigest_double(digest, s.cells[i].V);
    if (a.print)
        printf("rank %d threads %d cells %ld steps %ld spikes %ld digest %016llx\n", rank,
               s.nthreads, s.ncells, s.steps, spikes, (unsigned long long)digest);
    pthread_barrier_destroy(&s.done);
    pthread_barrier_destroy(&s.go);
    free(s.cells);
    free(s.spikes);
    free(wk);
    free(tid);
#if BT_MPI
    MPI_Finalize();
#endif
    return rc;
}
