/* app_mpi.c - a user's MPI program instrumented with an installed qq-mpi. */
#include <mpi.h>
#include <stdio.h>
#include "qq.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    QQInit(100);
    int k = QQAddMark("tick");
    for (int i = 0; i <= rank; i++)
        QQMark(k);
    int rc = qq_out("outside_mpi.qq", rank, size);
    MPI_Finalize();
    if (rc != 0)
        fprintf(stderr, "app_mpi: %s\n", qq_out_errmsg());
    return rc != 0;
}
