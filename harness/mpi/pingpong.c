/* pingpong.c - qqb_pingpong: MPI ping-pong between ranks 0 and 1 over message sizes, for qqbench
 * profile-machine. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open MPI's own allocations outlive MPI_Finalize: under LeakSanitizer
 * (the ASan build) they are not this program's leaks. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}

/* Prints "size_bytes one_way_us bandwidth_MBps" per size on rank 0: the
 * best of 5 trials of REPS round trips each (interference only adds time). */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "qqb_pingpong: needs 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    const int maxbytes = 4 << 20;
    char *buf = calloc(maxbytes, 1);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int bytes = 1; bytes <= maxbytes; bytes *= 4) {
        int reps = bytes < 65536 ? 1000 : bytes < (1 << 20) ? 100 : 20;
        double best = 1e30;
        for (int trial = 0; trial < 5; trial++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int r = 0; r < reps; r++) {
                if (rank == 0) {
                    MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
                    MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
                }
            }
            double dt = (MPI_Wtime() - t0) / reps / 2; /* one way */
            if (dt < best)
                best = dt;
        }
        if (rank == 0)
            printf("%d %.4f %.2f\n", bytes, best * 1e6, bytes / best / 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
