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

/* Run LAUNCHER (words split at blanks) with HELPER as its last word, in
 * its own process group, for at most 120 s, and read its lines "bytes
 * one-way-us MB/s" into OUT. 0, or -1 with the reason on stderr. */
int qqb_pingpong_run(const char *launcher, const char *helper, struct qqb_pingpong *out);

#endif /* QQB_MACHINE_H */
