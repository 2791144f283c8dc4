/* fingerprint.h - this machine's fingerprint (docs/BASELINES.md, "The machine fingerprint"). */
#ifndef QQB_FINGERPRINT_H
#define QQB_FINGERPRINT_H

#include "results.h"

/* Fill FP for this machine (CPU model from /proc/cpuinfo, tick MHz from a
 * QQ calibration, invariance, cores, compiler and build flags) and its id. */
void qqb_fingerprint_this(struct qqb_fingerprint *fp);

#endif /* QQB_FINGERPRINT_H */
