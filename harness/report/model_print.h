/* model_print.h - report: what `qqbench model` prints: a fit with its points, a prediction, the
 * growth against a baseline (docs/MODELS.md). */
#ifndef QQB_MODEL_PRINT_H
#define QQB_MODEL_PRINT_H

#include <stdio.h>

#include "model.h"

/* Series S's fit F over its points P: the coefficients with their standard
 * errors and t, chi2 and R2, then every point measured against fitted. */
void qqb_model_print_fit(FILE *fp, const struct qqb_model *m, const struct qqb_model_series *s,
                         const struct qqb_model_points *p, const struct qqb_fit *f);
/* The prediction Y +- HALF at the point given as POINT ("n=1000"). */
void qqb_model_print_predict(FILE *fp, const char *point, double y, double half, double confidence);
/* The coefficients of the baseline's fit BF beside the current F, G's z and
 * flags, the leading term's F test per side (P_OLD, P_NEW) and the verdict
 * (a coefficient rose by more than SIGMAS combined standard errors). */
void qqb_model_print_growth(FILE *fp, const struct qqb_model *m, const char *baseline,
                            const struct qqb_fit *bf, const struct qqb_fit *f,
                            const struct qqb_growth *g, double p_old, double p_new, double sigmas);

#endif /* QQB_MODEL_PRINT_H */
