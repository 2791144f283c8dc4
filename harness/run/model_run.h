/* model_run.h - `qqbench model` (cli/cmd_model.c): fit a formula to a params sweep or BigSim
 * lines, predict, judge growth against a baseline (docs/MODELS.md). */
#ifndef QQB_MODEL_RUN_H
#define QQB_MODEL_RUN_H

#include <stddef.h>

struct qqb_model_opts {
    const char *formula, *metric, *baseline, *bigsim, *plot;
    const char *input;                 /* RESULT.json; NULL with bigsim */
    char **keys, **benches, **predict; /* --key, --bench, --predict: 32 each at most */
    size_t nkeys, nbenches, npredict;
    double confidence, sigmas, threshold, dilation;
    int unweighted;
};

/* The model of O, the data (O->input or O->bigsim, and O->baseline), the
 * fits printed, and the pictures with O->plot. The exit status (enum
 * qqb_exit: 1 a growth regression, 2 bad input or a series that cannot be
 * fitted). */
int qqb_model_run(const struct qqb_model_opts *o);

#endif /* QQB_MODEL_RUN_H */
