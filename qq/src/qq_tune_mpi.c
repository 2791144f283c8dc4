/* qq_tune_mpi.c - QQTune across MPI ranks: who times which candidate, and one agreed result
 * (libqq-mpi only). */
#include <mpi.h>
#include <stdlib.h>

#include "qq_internal.h"

/* A private communicator, so the agreement never matches the user's
 * messages. */
static MPI_Comm tune_comm = MPI_COMM_NULL;

static int active(void)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin)
        return 0;
    if (tune_comm == MPI_COMM_NULL) {
        if (MPI_Comm_dup(MPI_COMM_WORLD, &tune_comm) != MPI_SUCCESS)
            return 0;
        MPI_Comm_set_errhandler(tune_comm, MPI_ERRORS_RETURN);
    }
    return 1;
}

void qq__tune_ranks(int *rank, int *size)
{
    *rank = 0;
    *size = 1;
    if (active() && (MPI_Comm_rank(tune_comm, rank) != MPI_SUCCESS ||
                     MPI_Comm_size(tune_comm, size) != MPI_SUCCESS)) {
        *rank = 0;
        *size = 1;
    }
}

int qq__tune_agree(int n, int bad, double *best, uint32_t *node, uint32_t *runs, int rank)
{
    int anybad = 1;
    if (MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, tune_comm) != MPI_SUCCESS || anybad)
        return QQ_EMPI;
    /* Each candidate's fastest run over the ranks, with the rank that ran
     * it (MINLOC: the lowest rank on a tie), and the runs summed. Every
     * rank then holds the same figures and picks the same candidate. */
    struct {
        double t;
        int rank;
    } *in = malloc((size_t)n * sizeof *in), *out = calloc((size_t)n, sizeof *out);
    unsigned *r = malloc((size_t)n * sizeof *r);
    bad = !in || !out || !r;
    if (MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, tune_comm) != MPI_SUCCESS)
        bad = 1;
    if (!bad && in && out && r) {
        for (int i = 0; i < n; i++) {
            in[i].t = best[i];
            in[i].rank = rank;
            r[i] = runs[i];
        }
        bad = MPI_Allreduce(in, out, n, MPI_DOUBLE_INT, MPI_MINLOC, tune_comm) != MPI_SUCCESS ||
              MPI_Allreduce(MPI_IN_PLACE, r, n, MPI_UNSIGNED, MPI_SUM, tune_comm) != MPI_SUCCESS;
        for (int i = 0; !bad && i < n; i++) {
            best[i] = out[i].t;
            node[i] = (uint32_t)out[i].rank;
            runs[i] = r[i];
        }
    }
    free(in);
    free(out);
    free(r);
    return bad ? QQ_EMPI : 0;
}
