/* model_run.c - `qqbench model`: the sweep (a run's JSON, or BigSim lines) into series, each
 * fitted, predicted and, with a baseline, judged for growth (judge/ qqb_judge_growth); printed
 * by report/model_print.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bigsim.h"
#include "judge_model.h"
#include "model.h"
#include "model_print.h"
#include "model_run.h"
#include "pictures_model.h"
#include "pipeline.h"
#include "run_json.h"
#include "strv.h"

/* ---------------------------------------------------------------- data */

/* A number that must be all of TEXT; -1 if not. */
static int parse_num(const char *text, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*v) ? 0 : -1;
}

/* The parameters of case C at X (the model's, from its point and its node
 * count); the point's others go to REST ("size=100,steps=10"). 0, or -1
 * printed. */
static int case_point(const char *path, const struct qqb_model *m, const struct qqb_run_case *c,
                      double *x, char *rest, size_t restlen)
{
    int have[QQB_MODEL_MAX_PARAMS] = {0};
    int np = qqb_model_param(m, "nodes");
    if (np >= 0) {
        x[np] = (double)c->nodes;
        have[np] = 1;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", c->point ? c->point : "");
    rest[0] = '\0';
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            continue;
        *eq = '\0';
        int pi = qqb_model_param(m, kv);
        if (pi < 0) {
            size_t k = strlen(rest);
            snprintf(rest + k, restlen - k, "%s%s=%s", k ? "," : "", kv, eq + 1);
            continue;
        }
        if (parse_num(eq + 1, &x[pi]) < 0) {
            fprintf(stderr, "%s: error: case %s: parameter %s is '%s', not a number\n", path,
                    c->name, kv, eq + 1);
            return -1;
        }
        have[pi] = 1;
    }
    for (int pi = 0; pi < m->nparams; pi++)
        if (!have[pi]) {
            fprintf(stderr, "%s: error: case %s has no parameter '%s' (its point: %s)\n", path,
                    c->name, m->params[pi], c->point && *c->point ? c->point : "none");
            return -1;
        }
    return 0;
}

/* Case C's samples of the metric asked for, at point X, each into the
 * series of its benchmark, variant, REST, node count and key. 0, or -1
 * (out of memory, printed). */
static int case_samples(const struct qqb_model *m, const struct qqb_model_opts *o,
                        const struct qqb_run_case *c, const double *x, const char *rest,
                        struct qqb_model_data *d)
{
    for (size_t mi = 0; mi < c->n_metrics; mi++) {
        const struct qqb_run_metric *mt = &c->metrics[mi];
        if (mt->key[0] == '@' || strcmp(mt->what, o->metric) ||
            !qqb_strv_selects(o->keys, o->nkeys, mt->key))
            continue;
        char label[256], nd[32] = "";
        if (qqb_model_param(m, "nodes") < 0)
            snprintf(nd, sizeof nd, "@%lld", c->nodes);
        snprintf(label, sizeof label, "%s%s%s%s%s%s%s%s %s", c->bench, c->variant ? "[" : "",
                 c->variant ? c->variant : "", c->variant ? "]" : "", *rest ? "{" : "", rest,
                 *rest ? "}" : "", nd, mt->key);
        struct qqb_model_series *s = qqb_model_series_get(d, label);
        for (size_t si = 0; si < mt->n_samples; si++) {
            if (!isfinite(mt->samples[si])) /* null in the file: not a sample */
                continue;
            if (!s || qqb_model_series_add(s, x, m->nparams, mt->samples[si] * o->dilation) < 0) {
                fprintf(stderr, "qqbench model: error: out of memory\n");
                return -1;
            }
        }
    }
    return 0;
}

/* Load a `qqbench run --json` report (read by the one run-JSON reader,
 * report/run_json.h) into series: one per benchmark, variant, key, node
 * count (unless the model uses 'nodes') and value of every point parameter
 * the model does not use. */
static int load_json(const char *path, const struct qqb_model *m, const struct qqb_model_opts *o,
                     struct qqb_model_data *d)
{
    struct qqb_run run;
    char err[1024];
    if (qqb_run_read(path, &run, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    int rc = 0;
    for (size_t ci = 0; rc == 0 && ci < run.n_cases; ci++) {
        const struct qqb_run_case *c = &run.cases[ci];
        if (!c->bench || !qqb_strv_selects(o->benches, o->nbenches, c->bench))
            continue;
        double x[QQB_MODEL_MAX_PARAMS];
        char rest[128];
        if (case_point(path, m, c, x, rest, sizeof rest) != 0 ||
            case_samples(m, o, c, x, rest, d) != 0)
            rc = -1;
    }
    if (rc == 0 && d->n == 0) {
        fprintf(stderr, "%s: error: no case has metric '%s'%s\n", path, o->metric,
                o->nkeys || o->nbenches ? " for the keys and benchmarks asked for" : "");
        rc = -1;
    }
    qqb_run_free(&run);
    return rc;
}

/* BigSim lines, one series per event name; p1..pN by position. */
static int load_bigsim(const char *path, const struct qqb_model *m, const struct qqb_model_opts *o,
                       struct qqb_model_data *d)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "qqbench model: error: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    int pos[QQB_MODEL_MAX_PARAMS] = {0};
    for (int i = 0; i < m->nparams; i++) {
        const char *nm = m->params[i];
        char *end;
        long k = nm[0] == 'p' ? strtol(nm + 1, &end, 10) : 0;
        if (nm[0] != 'p' || end == nm + 1 || *end || k < 1 || k > QQB_BIGSIM_MAX_PARAMS) {
            fprintf(stderr,
                    "qqbench model: error: with --bigsim the "
                    "parameters are p1..p%d by position, not '%s'\n",
                    QQB_BIGSIM_MAX_PARAMS, nm);
            fclose(fp);
            return -1;
        }
        pos[i] = (int)k - 1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, records = 0;
    int rc = 0;
    while (getline(&line, &cap, fp) > 0) {
        lineno++;
        struct qqb_bigsim_rec r;
        char err[200];
        int col = 0;
        int st = qqb_bigsim_parse_line(line, &r, &col, err, sizeof err);
        if (st < 0) {
            fprintf(stderr, "%s:%ld:%d: error: %s\n", path, lineno, col, err);
            rc = -1;
            continue; /* report every bad line */
        }
        if (st == 0)
            continue;
        records++;
        double x[QQB_MODEL_MAX_PARAMS];
        int ok = 1;
        for (int i = 0; i < m->nparams; i++) {
            if (pos[i] >= r.nparams) {
                fprintf(stderr,
                        "%s:%ld:1: error: event %s has %d parameters; "
                        "the model uses %s\n",
                        path, lineno, r.event, r.nparams, m->params[i]);
                rc = -1;
                ok = 0;
                break;
            }
            x[i] = r.p[pos[i]];
        }
        if (!ok || !qqb_strv_selects(o->keys, o->nkeys, r.event))
            continue;
        struct qqb_model_series *s = qqb_model_series_get(d, r.event);
        if (!s || qqb_model_series_add(s, x, m->nparams, r.time * o->dilation) < 0) {
            fprintf(stderr, "qqbench model: error: out of memory\n");
            rc = -1;
            break;
        }
    }
    free(line);
    fclose(fp);
    if (rc == 0 && d->n == 0) {
        fprintf(stderr, "%s:%ld:1: error: no TRACEBIGSIM records%s\n", path, lineno ? lineno : 1,
                records ? " for the events asked for" : "");
        rc = -1;
    }
    return rc;
}

/* ---------------------------------------------------------------- fitting */

/* "n=1000,m=5" into X (every model parameter); -1 with a message. */
static int parse_point(const struct qqb_model *m, const char *text, double *x)
{
    int have[QQB_MODEL_MAX_PARAMS] = {0};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        int pi;
        if (!eq) {
            fprintf(stderr,
                    "qqbench model: error: --predict '%s': expected "
                    "NAME=VALUE, found '%s'\n",
                    text, kv);
            return -1;
        }
        *eq = '\0';
        if ((pi = qqb_model_param(m, kv)) < 0) {
            fprintf(stderr,
                    "qqbench model: error: --predict '%s': the model "
                    "has no parameter '%s'\n",
                    text, kv);
            return -1;
        }
        if (parse_num(eq + 1, &x[pi]) < 0) {
            fprintf(stderr,
                    "qqbench model: error: --predict '%s': '%s' is "
                    "not a number\n",
                    text, eq + 1);
            return -1;
        }
        have[pi] = 1;
    }
    for (int i = 0; i < m->nparams; i++)
        if (!have[i]) {
            fprintf(stderr,
                    "qqbench model: error: --predict '%s' gives no "
                    "value for '%s'\n",
                    text, m->params[i]);
            return -1;
        }
    return 0;
}

/* S's growth against the series of the same name in OLD (the baseline):
 * the coefficients side by side and whether one grew (*REGRESSED); with
 * ROW, the baseline's fit in it. *FOUND 0 when OLD has no such series
 * (said). 0, or -1 when the baseline cannot be fitted (said). */
static int growth(const struct qqb_model *m, const struct qqb_model_series *s,
                  const struct qqb_model_points *p, const struct qqb_fit *f,
                  const struct qqb_model_opts *o, const struct qqb_model_data *old, json_t *row,
                  int *found, int *regressed)
{
    const struct qqb_model_series *b = NULL;
    for (size_t j = 0; j < old->n; j++)
        if (!strcmp(old->s[j].label, s->label))
            b = &old->s[j];
    *found = b != NULL;
    *regressed = 0;
    if (!b) {
        printf("  baseline: no such series in %s\n\n", o->baseline);
        return 0;
    }
    struct qqb_model_points bp;
    struct qqb_fit bf;
    char err[256];
    if (qqb_model_points(m, b, o->unweighted, &bp) < 0 ||
        qqb_model_fit(m, bp.n, bp.x, bp.y, bp.sigma, &bf, err, sizeof err) < 0) {
        fprintf(stderr, "qqbench model: error: %s in %s: %s\n", s->label, o->baseline, err);
        qqb_model_points_free(&bp);
        return -1;
    }
    if (row)
        json_object_set_new(row, "baseline", qqb_model_fit_json(m, &bf, &bp));
    struct qqb_growth g;
    qqb_judge_growth(m, &bf, NULL, 0, f, p->xmax, o->threshold, 0, o->sigmas, &g);
    double p_old = qqb_model_leading_p(m, bp.n, bp.x, bp.y, bp.sigma);
    double p_new = qqb_model_leading_p(m, p->n, p->x, p->y, p->sigma);
    qqb_model_print_growth(stdout, m, o->baseline, &bf, f, &g, p_old, p_new, o->sigmas);
    *regressed = g.regressed;
    qqb_model_points_free(&bp);
    return 0;
}

/* Fit series S (its points P) and print the fit, the predictions at PX
 * and, with --baseline, the growth against OLD; with ROWS, the fit as a
 * row of the pictures. *REGRESSIONS counts a growth regression. 0, or -1
 * when a fit failed (said). */
static int fit_series(const struct qqb_model *m, const struct qqb_model_series *s,
                      const struct qqb_model_points *p, const struct qqb_model_opts *o,
                      double (*px)[QQB_MODEL_MAX_PARAMS], const struct qqb_model_data *old,
                      json_t *rows, int *regressions)
{
    struct qqb_fit f;
    char err[256];
    if (qqb_model_fit(m, p->n, p->x, p->y, p->sigma, &f, err, sizeof err) < 0) {
        fprintf(stderr, "qqbench model: error: %s: %s\n", s->label, err);
        return -1;
    }
    qqb_model_print_fit(stdout, m, s, p, &f);
    json_t *row = NULL;
    if (rows) {
        row = json_pack("{s:s, s:s, s:o}", "series", s->label, "formula", o->formula, "current",
                        qqb_model_fit_json(m, &f, p));
        json_array_append_new(rows, row);
    }
    for (size_t i = 0; i < o->npredict; i++) {
        double half;
        double y = qqb_model_predict(m, &f, px[i], o->confidence, &half);
        qqb_model_print_predict(stdout, o->predict[i], y, half, o->confidence);
    }
    if (o->baseline) {
        int found, regressed;
        if (growth(m, s, p, &f, o, old, row, &found, &regressed) != 0)
            return -1;
        if (!found)
            return 0;
        *regressions += regressed;
    }
    printf("\n");
    return 0;
}

/* Fit every series of CUR (with --baseline, against OLD's) and draw the
 * pictures with --plot. The exit status. */
static int fit_all(const struct qqb_model *m, const struct qqb_model_opts *o,
                   const struct qqb_model_data *cur, const struct qqb_model_data *old,
                   double (*px)[QQB_MODEL_MAX_PARAMS])
{
    const char *unit = o->bigsim                       ? "time units of the file"
                       : !strcmp(o->metric, "per_hit") ? "net ticks per hit"
                       : !strcmp(o->metric, "ticks")   ? "ticks in the state"
                                                       : "mean ticks per interval";
    printf("model: %s\nmetric: %s (%s)%s\n\n", o->formula, o->bigsim ? "time" : o->metric, unit,
           o->dilation != 1 ? ", durations multiplied by the --dilation" : "");
    int regressions = 0, rc = QQB_EXIT_OK;
    json_t *rows = o->plot ? json_array() : NULL; /* --plot: what to draw */
    for (size_t si = 0; si < cur->n; si++) {
        struct qqb_model_points p;
        if (qqb_model_points(m, &cur->s[si], o->unweighted, &p) < 0) {
            qqb_model_points_free(&p);
            fprintf(stderr, "qqbench model: error: out of memory\n");
            rc = QQB_EXIT_USAGE;
            break;
        }
        if (fit_series(m, &cur->s[si], &p, o, px, old, rows, &regressions) != 0)
            rc = QQB_EXIT_USAGE;
        qqb_model_points_free(&p);
    }
    char err[256];
    if (rows && json_array_size(rows)) {
        if (qqb_model_pictures(rows, o->plot, 0, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "qqbench model: error: --plot %s: %s\n", o->plot, err);
            rc = QQB_EXIT_USAGE;
        } else {
            fprintf(stderr, "qqbench model: pictures: %s/model_1.svg .. model_%zu.svg\n", o->plot,
                    json_array_size(rows));
        }
    }
    json_decref(rows);
    if (o->baseline && rc == QQB_EXIT_OK) {
        printf("qqbench model: %d growth regression%s\n", regressions, regressions == 1 ? "" : "s");
        if (regressions)
            rc = QQB_EXIT_REGRESSION;
    }
    return rc;
}

/* The model and the data (CUR, and OLD with --baseline) of the options O,
 * then the fits. The exit status. */
int qqb_model_run(const struct qqb_model_opts *o)
{
    struct qqb_model m;
    char err[256];
    int col = 0;
    if (qqb_model_parse(o->formula, &m, err, sizeof err, &col) < 0) {
        fprintf(stderr, "--model:1:%d: error: %s\n  %s\n  %*s^\n", col,
                err + (strchr(err, ':') ? strchr(err, ':') - err + 2 : 0), o->formula, col - 1, "");
        return QQB_EXIT_USAGE;
    }
    double px[32][QQB_MODEL_MAX_PARAMS];
    for (size_t i = 0; i < o->npredict; i++)
        if (parse_point(&m, o->predict[i], px[i]) < 0)
            return QQB_EXIT_USAGE;
    struct qqb_model_data cur = {0}, old = {0};
    int rc = QQB_EXIT_USAGE;
    if ((o->bigsim ? load_bigsim(o->bigsim, &m, o, &cur) : load_json(o->input, &m, o, &cur)) == 0 &&
        (!o->baseline || load_json(o->baseline, &m, o, &old) == 0))
        rc = fit_all(&m, o, &cur, &old, px);
    qqb_model_data_free(&cur);
    qqb_model_data_free(&old);
    return rc;
}
