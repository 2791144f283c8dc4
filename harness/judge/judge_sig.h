/* judge_sig.h - judge: application signatures x machine profiles, predicted against measured per
 * case, and how much of a change between machines the profiles explain (docs/MODELS.md). */
#ifndef QQB_JUDGE_SIG_H
#define QQB_JUDGE_SIG_H

#include <stddef.h>
#include <stdio.h>

#include "plan.h"
#include "profile.h"
#include "results.h"

/* One state key of a case whose kernel reported a signature for it. */
struct qqb_sig_row {
    size_t case_idx;
    const char *case_name, *key; /* borrowed from the current results */
    struct qqb_signature s;      /* medians over launches, per node */
    int traced;                  /* 1: some field from the instruction counts */
    double measured;             /* seconds in the state per launch (median; slowest node) */
    double predicted;            /* on this machine's profile; NaN without one */
    double parts[QQB_NRES];
    enum qqb_sig_resource bound;
    /* Against a baseline of another machine with a profile of its own. */
    int cross;
    double base_measured, base_predicted; /* seconds */
    double measured_ratio, predicted_ratio;
    double explained; /* log(predicted ratio) / log(measured ratio) */
};

struct qqb_sig_judgement {
    struct qqb_sig_row *rows;
    size_t n;
    const struct qqb_profile *profile, *base_profile; /* borrowed, may be NULL */
    const char *profile_path;                         /* where this machine's was looked for */
    const char *base_id;                              /* the other machine, or NULL */
};

/* Rows for every case of CUR (change build) with a signature; predictions
 * on PROF (may be NULL); against BASE (may be NULL) on BASE_PROF (may be
 * NULL) when BASE_ID (the baseline's machine) is not CUR's. 0 or -1. */
int qqb_judge_signatures(const struct qqb_plan *p, const struct qqb_results *cur,
                         const struct qqb_results *base, const struct qqb_profile *prof,
                         const struct qqb_profile *base_prof, struct qqb_sig_judgement *out);
void qqb_sig_judgement_free(struct qqb_sig_judgement *j);
void qqb_sig_judgement_print(FILE *fp, const struct qqb_sig_judgement *j);
/* Field F (0 .. QQB_SIG_NFIELDS-1) of signature S into *V: its name
 * ("bytes", "working_set", "flops", "messages", "message_bytes", "instr",
 * "loads_l1", "loads_ll", "loads_mem", "stores_l1", "stores_ll",
 * "stores_mem", "dep_loads", "dep_flops"), the word of its "sig:" count
 * and of the run JSON. */
#define QQB_SIG_NFIELDS 14
const char *qqb_sig_field(const struct qqb_signature *s, size_t f, double *v);
/* The same field to set: its place in S, its name in *NAME. */
double *qqb_sig_field_ref(struct qqb_signature *s, size_t f, const char **name);

#endif /* QQB_JUDGE_SIG_H */
