/* judge_tune.h - judge: the parameters QQTune chose, per case, against the baseline's choice
 * (docs/TUNE.md). */
#ifndef QQB_JUDGE_TUNE_H
#define QQB_JUDGE_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* One tuned parameter of one case. A launch chooses once; the case's
 * choice is the value most launches chose (the smaller on a tie). */
struct qqb_tune_row {
    size_t case_idx;
    const char *case_name, *name; /* borrowed; NAME without QQB_TUNE_PREFIX */
    double choice;
    size_t agree, launches; /* launches that chose it, of those that tuned */
    int have_base;          /* the baseline's case tuned it too */
    double base_choice;
    size_t base_agree, base_launches;
    int changed; /* the baseline chose otherwise: a note, never a verdict */
};

struct qqb_tune_judgement {
    struct qqb_tune_row *rows;
    size_t n, changed;
    const char *machine;      /* this run's machine (fingerprint id), borrowed */
    const char *base_machine; /* the baseline's, or NULL without one */
};

/* Rows for every "@tune:" metric of CUR's cases, against BASE (may be
 * NULL). 0 or -1 (out of memory). */
int qqb_judge_tunes(const struct qqb_results *cur, const struct qqb_results *base,
                    struct qqb_tune_judgement *out);
void qqb_tune_judgement_free(struct qqb_tune_judgement *j);
/* The text report's lines (nothing when no case tuned). */
void qqb_tune_judgement_print(FILE *fp, const struct qqb_tune_judgement *j);
/* The value most of the N samples V hold (the smaller on a tie), and in
 * *AGREE how many hold it; NaN for N = 0. */
double qqb_tune_mode(const double *v, size_t n, size_t *agree);

#endif /* QQB_JUDGE_TUNE_H */
