/* pictures_model.h - pictures of model fits (data with error bars, the fitted curve, residuals)
 * and of machine profiles, drawn from the JSON that `qqbench run --json` and `qqbench model`
 * write (docs/MODELS.md, docs/REPORTS.md). */
#ifndef QQB_PICTURES_MODEL_H
#define QQB_PICTURES_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * MODELS is an array of fits as qqb_model_judgement_json writes them
 * ("series", "formula", "params", "current" with "coefficients" and
 * "points", optionally "baseline"). For each series with a current fit:
 * DIR/model_N.{dat,gp,svg,png}: the measured points with their spread as
 * error bars and the fitted curve (against the model's only parameter, or
 * against the point's number when there are several), the baseline's
 * points and curve in grey when there are some, and under them the
 * residuals in percent. HTML (may be NULL) gets a section showing them.
 * With NO_PLOT gnuplot is not run. 0, or -1 with ERR.
 */
int qqb_model_pictures(const json_t *models, const char *dir, int no_plot, FILE *html, char *err,
                       size_t errlen);

/* PROFILE (qqb_profile_json) as pictures in DIR (qqb_profile_plot, stem
 * "profile"), and a section of HTML (may be NULL). 0 (nothing to draw
 * too), or -1 with ERR. */
int qqb_profile_pictures(const json_t *profile, const char *dir, int no_plot, FILE *html, char *err,
                         size_t errlen);

struct qqb_profile;

/* Draw P into DIR as STEM_memory.{dat,gp,svg,png} (bandwidth and latency
 * against the working set, log axes) and, with MPI figures,
 * STEM_mpi.* (one-way time and bandwidth against the message size). With
 * NO_PLOT only data and scripts. The stems drawn go to STEMS (up to 2).
 * 0, or -1 with ERR. */
int qqb_profile_plot(const struct qqb_profile *p, const char *dir, const char *stem, int no_plot,
                     char stems[2][64], size_t *nstems, char *err, size_t errlen);

#endif /* QQB_PICTURES_MODEL_H */
