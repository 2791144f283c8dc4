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

/* One snapshot (--record LABEL) of a suite: its label, machine and what it holds. */
struct qqb_snap {
    char *label;
    char *machine;
    struct qqb_results r;
};

/* Every machine's snapshots of suite NAME under BDIR (MACHINE's first, for
 * memory), appended to *S (*N of them), then sorted oldest first by the
 * date each stores, then by label in version order. An unreadable snapshot,
 * or one whose label disagrees with its file name, is skipped with a
 * warning on stderr. 0, or -1 when the folder cannot be read. */
int qqb_history_snaps(const char *bdir, const char *name, const char *machine, struct qqb_snap **s,
                      size_t *n);
void qqb_history_snaps_free(struct qqb_snap *s, size_t n);

/* The rule of "moved" from one label to the next (a '*' in qqbench
 * history): cycles moved when CUR differs from PREV by more than the
 * larger of the two labels' noise (percent, NaN as 0), at least 1%; memory
 * (PREV NULL: the first) when live bytes, peak bytes or objects differ. */
int qqb_history_moved(double prev, double prev_noise, double cur, double noise);
int qqb_history_mem_moved(const struct qqb_mem *prev, const struct qqb_mem *cur);

#endif /* QQB_HISTORY_H */
