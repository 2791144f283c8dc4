/* history.h - what the recorded snapshots (--record) say about this run: keys noisy run after run.
 */
#ifndef QQB_HISTORY_H
#define QQB_HISTORY_H

#include <stddef.h>

#include "judge.h"
#include "results.h"

/* A key noisy in this run and in the recorded runs just before it, this many
 * runs in a row, is named in the output and marked in the JSON. */
#define QQB_NOISY_RUNS 3

/* For each baseline row of J that is noisy, set noisy_runs to 1 + the number
 * of this machine's (FP_ID) latest snapshots of SUITE under DIR, newest
 * first, that found the same case and key noisy, counting at most WANT runs
 * in all. Snapshots from before verdicts were kept, or unreadable, end the
 * count. Returns 0, or -1 (out of memory; the rows keep what was found). */
int qqb_history_noisy_runs(const char *dir, const char *suite, const char *fp_id,
                           struct qqb_judgement *j, size_t want);

/* The baseline verdicts of J as notes for a snapshot (R->verdicts, which
 * must be empty): 0, or -1 out of memory (R unchanged). */
int qqb_history_notes(const struct qqb_judgement *j, struct qqb_results *r);

#endif /* QQB_HISTORY_H */
