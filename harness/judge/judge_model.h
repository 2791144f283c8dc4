/* judge_model.h - judge: a suite's `model:` fitted per key over each sweep, current against
 * baseline, growth changes (docs/MODELS.md). */
#ifndef QQB_JUDGE_MODEL_H
#define QQB_JUDGE_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "plan.h"
#include "results.h"

/* The most baseline runs a sweep is fitted in (the baseline keeps 5 by
 * default, --keep-runs). */
#define QQB_GROWTH_MAX_RUNS 32

/* One series: a benchmark x variant x key (x node count unless the model
 * uses 'nodes', x the values of the parameters the model does not use). */
struct qqb_model_row {
    size_t bench; /* index into the suite's benchmarks */
    char label[256];
    const char *key; /* borrowed from the current results */
    struct qqb_model m;
    int have_cur, have_base; /* fitted */
    struct qqb_model_points pc, pb;
    struct qqb_fit cur, base;
    char why[200]; /* a fit that could not be made: why */
    struct qqb_growth g;
    int gated;     /* the growth was judged against the baseline's runs */
    int holm_held; /* -1 not tested (no growth alone), 0 lost under Holm, 1 held */
};

/*
 * The one growth verdict (docs/MODELS.md) of CUR against the baseline's
 * sweep, for `qqbench run` and `qqbench model --baseline` alike. With RUNS
 * (the sweep fitted once per baseline run, NRUNS of them): by runs
 * (qqb_model_growth_runs) at ALPHA, gated only from QQB_MIN_BASE_RUNS runs;
 * RUNS NULL (one report, whose run-to-run spread is unknown): by the two
 * fits' own standard errors (qqb_model_growth), BASE against CUR at SIGMAS.
 * THRESHOLD is the minimum effect at XMAX in percent. 1 when judged (G
 * filled, G->regressed the verdict), 0 when too few runs to gate.
 */
int qqb_judge_growth(const struct qqb_model *m, const struct qqb_fit *base,
                     const struct qqb_fit *runs, size_t nruns, const struct qqb_fit *cur,
                     const double *xmax, double threshold, double alpha, double sigmas,
                     struct qqb_growth *g);

struct qqb_model_judgement {
    struct qqb_model_row *rows;
    size_t n;
    size_t regressed; /* rows whose growth changed */
    size_t unfitted;  /* rows with no current fit */
};

/* Fit every benchmark's `model:` of PLAN on CUR (the change build's cases,
 * metric per_hit) and on BASE (may be NULL), and flag growth changes at
 * each benchmark's threshold. 0, or -1 on out of memory. */
int qqb_judge_models(const struct qqb_plan *p, const struct qqb_results *cur,
                     const struct qqb_results *base, struct qqb_model_judgement *out);
void qqb_model_judgement_free(struct qqb_model_judgement *j);

/* The fits in the terminal (nothing when there are none). */
void qqb_model_judgement_print(FILE *fp, const struct qqb_model_judgement *j);
/* The formula of M as the parser reads it back into BUF: "1 + n + n^2". */
void qqb_model_formula_text(const struct qqb_model *m, char *buf, size_t len);

#endif /* QQB_JUDGE_MODEL_H */
