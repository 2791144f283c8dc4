/* machine.h - qqbench profile-machine's measurements of this machine (store/profile.h writes
 * them as profile.yaml). */
#ifndef QQB_MACHINE_H
#define QQB_MACHINE_H

#include <stddef.h>

#include "profile.h"

/* Measure this machine into M: the cache sizes, a counter read's cost,
 * bandwidth and latency over working sets from 8 KiB to twice the
 * last-level cache (three sets with QUICK), the multiply-add rate, and,
 * LAUNCHER given (NULL: no MPI), ping-pong through LAUNCHER HELPER
 * (m->mpi_rc -1 when it failed, said on stderr). Every figure is the best
 * of several trials. 0, or -1 with ERR (memory). */
int qqb_machine_measure(struct qqb_machine *m, int quick, const char *launcher, const char *helper,
                        char *err, size_t errsz);

/* M's cache sizes, from sysfs, else glibc's (CPUID). */
void qqb_machine_caches(struct qqb_machine *m);

/* What qqb_machine_measure does on M's caches (QUICK; MPI: the ping-pong
 * too), counted, and the seconds it takes at most when every operation
 * costs the worst price machine.c declares: `--plan` prints it, and a
 * test holds --quick's bound under 15 s without timing a loaded machine. */
struct qqb_machine_plan {
    double chase_loads, chase_mem_loads;   /* dependent loads: in caches, in memory */
    double stream_loads, stream_mem_loads; /* independent loads */
    double sum_bytes, write_bytes;         /* the bandwidth table's sums, the fills */
    double ops, reads;                     /* arithmetic ops, counter reads */
    double mpi_trips, mpi_bytes;           /* ping-pong round trips, bytes both ways */
    double bound_s;
};
void qqb_machine_plan(const struct qqb_machine *m, int quick, int mpi, struct qqb_machine_plan *p);

/* Run LAUNCHER (words split at blanks) with HELPER as its last word, in
 * its own process group, for at most 120 s, and read its lines "bytes
 * one-way-us MB/s" into OUT. 0, or -1 with the reason on stderr. */
int qqb_pingpong_run(const char *launcher, const char *helper, struct qqb_pingpong *out);

#endif /* QQB_MACHINE_H */
