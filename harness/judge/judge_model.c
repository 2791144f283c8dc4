/* judge_model.c - a suite's `model:` fitted per key over each sweep, current against baseline. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "judge_model.h"
#include "match.h"
#include "runlevel.h"
#include "strv.h"
#include "suite.h"

static const char *const METRIC = "per_hit";

void qqb_model_formula_text(const struct qqb_model *m, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int t = 0; t < m->nterms; t++) {
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, "%s%s", t ? " + " : "", m->t[t].text);
    }
}

/* Plan case CI's parameter values into X (the model's order) and the
 * series prefix into LABEL: "bench[variant]{unused=values}@nodes". */
static int case_point(const struct qqb_plan *p, size_t ci, const struct qqb_model *m, double *x,
                      char *label, size_t len)
{
    const struct qqb_plan_case *pc = &p->cases[ci];
    const struct qqb_bench *b = &p->suite->bench[pc->bench];
    struct qqb_case c;
    if (qqb_bench_case(b, pc->in_bench, &c) != 0)
        return -1;
    char rest[160] = "", nd[32] = "";
    for (size_t j = 0; j < b->nparams; j++) {
        int pi = qqb_model_param(m, b->params[j].name);
        if (pi >= 0) {
            x[pi] = strtod(c.values[j], NULL); /* checked numeric by the suite loader */
        } else {
            size_t k = strlen(rest);
            snprintf(rest + k, sizeof rest - k, "%s%s=%s", k ? "," : "", b->params[j].name,
                     c.values[j]);
        }
    }
    int pn = qqb_model_param(m, "nodes");
    if (pn >= 0)
        x[pn] = pc->nodes;
    else
        snprintf(nd, sizeof nd, "@%d", pc->nodes);
    const char *v = pc->variant >= 0 ? b->variants[pc->variant].name : NULL;
    snprintf(label, len, "%s%s%s%s%s%s%s%s", b->name, v ? "[" : "", v ? v : "", v ? "]" : "",
             *rest ? "{" : "", rest, *rest ? "}" : "", nd);
    qqb_case_free(&c);
    return 0;
}

/* The keys of D's series, parallel to them. */
struct keylist {
    const char **v;
    size_t cap;
};

/* The per_hit samples of case RC into the series of D (prefix LABEL, one
 * per key), only those of run RUN when RUN >= 0; new series' keys go to
 * KEYS (when not NULL). */
static int add_case(const struct qqb_bench *b, const struct qqb_case_result *rc,
                    const struct qqb_model *m, const double *x, const char *prefix,
                    struct qqb_model_data *d, struct keylist *keys, long run)
{
    for (size_t mi = 0; rc && mi < rc->nmetrics; mi++) {
        const struct qqb_metric *mt = &rc->metrics[mi];
        if (strcmp(mt->what, METRIC) || mt->key[0] == '@' ||
            !qqb_strv_selects(b->keys, b->nkeys, mt->key))
            continue;
        char label[256];
        snprintf(label, sizeof label, "%s %s", prefix, mt->key);
        size_t before = d->n;
        struct qqb_model_series *s = qqb_model_series_get(d, label);
        if (!s)
            return -1;
        if (keys && d->n > before) {
            const char **k = qqb_grow(keys->v, d->n - 1, &keys->cap, sizeof *k, 8);
            if (!k)
                return -1;
            keys->v = k;
            k[d->n - 1] = mt->key;
        }
        for (size_t i = 0; i < mt->n; i++) {
            uint32_t r, l;
            qqb__stamp_of(mt, i, &r, &l);
            if (run >= 0 && (long)r != run)
                continue;
            if (isfinite(mt->samples[i]) && qqb_model_series_add(s, x, m->nparams, mt->samples[i]))
                return -1;
        }
    }
    return 0;
}

/* The fits of series LABEL in each run's data DBR that has it, packed
 * into RUNS; how many. */
static size_t run_fits(const struct qqb_model *m, const struct qqb_model_data *dbr,
                       const char *label, struct qqb_fit *runs)
{
    size_t n = 0;
    for (size_t r = 0; r < QQB_GROWTH_MAX_RUNS; r++) {
        const struct qqb_model_series *s = qqb_model_series_find(&dbr[r], label);
        struct qqb_model_points pts;
        char err[200];
        if (!s || !s->n || qqb_model_points(m, s, 0, &pts) != 0)
            continue;
        if (qqb_model_fit(m, pts.n, pts.x, pts.y, pts.sigma, &runs[n], err, sizeof err) == 0)
            n++;
        qqb_model_points_free(&pts);
    }
    return n;
}

int qqb_judge_growth(const struct qqb_model *m, const struct qqb_fit *base,
                     const struct qqb_fit *runs, size_t nruns, const struct qqb_fit *cur,
                     const double *xmax, double threshold, double alpha, double sigmas,
                     struct qqb_growth *g)
{
    memset(g, 0, sizeof *g);
    if (!runs) {
        qqb_model_growth(m, base, cur, xmax, sigmas, threshold, g);
        return 1;
    }
    if (nruns < QQB_MIN_BASE_RUNS)
        return 0;
    qqb_model_growth_runs(m, runs, nruns, cur, xmax, threshold, alpha, g);
    return 1;
}

static int push_row(struct qqb_model_judgement *j, size_t *cap)
{
    struct qqb_model_row *r = qqb_grow(j->rows, j->n, cap, sizeof *r, 8);
    if (!r)
        return -1;
    j->rows = r;
    memset(&j->rows[j->n], 0, sizeof j->rows[j->n]);
    j->n++;
    return 0;
}

static int judge_bench(const struct qqb_plan *p, size_t bi, const struct qqb_results *cur,
                       const struct qqb_results *base, struct qqb_model_judgement *out, size_t *cap)
{
    const struct qqb_bench *b = &p->suite->bench[bi];
    struct qqb_model m;
    char err[200];
    if (qqb_model_parse(b->model, &m, err, sizeof err, NULL) != 0)
        return 0; /* the suite loader rejected it already */
    struct qqb_model_data dc = {0}, db = {0}, dbr[QQB_GROWTH_MAX_RUNS];
    struct qqb_fit runs[QQB_GROWTH_MAX_RUNS];
    struct keylist keys = {0};
    memset(dbr, 0, sizeof dbr);
    int rc = -1;
    size_t *base_of = NULL;
    if (base && qqb_match_cases(cur, cur->ncases < p->ncases ? cur->ncases : p->ncases, base,
                                &base_of) != 0)
        goto out;
    for (size_t ci = 0; ci < p->ncases; ci++) {
        if (p->cases[ci].bench != bi || p->cases[ci].build != QQB_BUILD_CHANGE || ci >= cur->ncases)
            continue;
        double x[QQB_MODEL_MAX_PARAMS] = {0};
        char prefix[224];
        if (case_point(p, ci, &m, x, prefix, sizeof prefix) != 0 ||
            add_case(b, cur->cases[ci], &m, x, prefix, &dc, &keys, -1) != 0 ||
            (base &&
             add_case(b, qqb_matched(base, base_of, ci), &m, x, prefix, &db, NULL, -1) != 0))
            goto out;
        for (long r = 0; base && r < (long)QQB_GROWTH_MAX_RUNS; r++)
            if (add_case(b, qqb_matched(base, base_of, ci), &m, x, prefix, &dbr[r], NULL, r) != 0)
                goto out;
    }
    for (size_t si = 0; si < dc.n; si++) {
        if (push_row(out, cap) != 0)
            goto out;
        struct qqb_model_row *r = &out->rows[out->n - 1];
        r->bench = bi;
        r->m = m;
        r->key = keys.v[si];
        snprintf(r->label, sizeof r->label, "%s", dc.s[si].label);
        if (qqb_model_points(&m, &dc.s[si], 0, &r->pc) != 0)
            goto out;
        r->have_cur = dc.s[si].n > 0 && qqb_model_fit(&m, r->pc.n, r->pc.x, r->pc.y, r->pc.sigma,
                                                      &r->cur, r->why, sizeof r->why) == 0;
        if (!r->have_cur) {
            if (!dc.s[si].n)
                snprintf(r->why, sizeof r->why, "no launch measured it");
            out->unfitted++;
            continue;
        }
        const struct qqb_model_series *bs = qqb_model_series_find(&db, dc.s[si].label);
        if (!bs || !bs->n)
            continue;
        if (qqb_model_points(&m, bs, 0, &r->pb) != 0)
            goto out;
        r->have_base = qqb_model_fit(&m, r->pb.n, r->pb.x, r->pb.y, r->pb.sigma, &r->base, err,
                                     sizeof err) == 0;
        if (!r->have_base) {
            snprintf(r->why, sizeof r->why, "the baseline's sweep cannot be fitted: %.150s", err);
            continue;
        }
        size_t nr = run_fits(&m, dbr, dc.s[si].label, runs);
        if (!qqb_judge_growth(&m, &r->base, runs, nr, &r->cur, r->pc.xmax, b->s.threshold,
                              1.0 - b->s.confidence, 0, &r->g)) {
            snprintf(r->why, sizeof r->why,
                     "the baseline holds %zu run%s of this sweep: growth is not gated below %d "
                     "(record more with --update-baseline)",
                     nr, nr == 1 ? "" : "s", QQB_MIN_BASE_RUNS);
            r->have_base = 0;
            continue;
        }
        r->gated = 1;
        out->regressed += r->g.regressed != 0;
    }
    rc = 0;
out:
    free(base_of);
    free(keys.v);
    qqb_model_data_free(&dc);
    qqb_model_data_free(&db);
    for (size_t r = 0; r < QQB_GROWTH_MAX_RUNS; r++)
        qqb_model_data_free(&dbr[r]);
    return rc;
}

int qqb_judge_models(const struct qqb_plan *p, const struct qqb_results *cur,
                     const struct qqb_results *base, struct qqb_model_judgement *out)
{
    size_t cap = 0;
    memset(out, 0, sizeof *out);
    for (size_t bi = 0; bi < p->suite->nbench; bi++)
        if (p->suite->bench[bi].model && judge_bench(p, bi, cur, base, out, &cap) != 0)
            return -1;
    return 0;
}

void qqb_model_judgement_free(struct qqb_model_judgement *j)
{
    for (size_t i = 0; i < j->n; i++) {
        qqb_model_points_free(&j->rows[i].pc);
        qqb_model_points_free(&j->rows[i].pb);
    }
    free(j->rows);
    memset(j, 0, sizeof *j);
}

/* ------------------------------------------------------------------ report */

void qqb_model_judgement_print(FILE *fp, const struct qqb_model_judgement *j)
{
    if (j->n == 0)
        return;
    fprintf(fp, "\nModels (net ticks per hit, fitted over each sweep; docs/MODELS.md):\n");
    for (size_t i = 0; i < j->n; i++) {
        const struct qqb_model_row *r = &j->rows[i];
        char formula[512];
        qqb_model_formula_text(&r->m, formula, sizeof formula);
        fprintf(fp, "  %s: %s\n", r->label, formula);
        if (!r->have_cur) {
            fprintf(fp, "    not fitted: %s\n", r->why);
            continue;
        }
        fprintf(fp, "    %-14s %13s %11s", "term", "coefficient", "std.err");
        if (r->gated)
            fprintf(fp, " %13s %7s %9s", "baseline", "t", "p");
        fprintf(fp, "\n");
        for (int t = 0; t < r->m.nterms; t++) {
            fprintf(fp, "    %-14s %13.5g %11.3g", r->m.t[t].text, r->cur.c[t], r->cur.se[t]);
            if (r->gated)
                fprintf(fp, " %13.5g %7.2f %9.2g%s", r->base.c[t], r->g.z[t], r->g.p[t],
                        r->g.flagged[t] ? "  GREW" : "");
            fprintf(fp, "\n");
        }
        fprintf(fp, "    %zu points, chi2 %.3g on %.0f dof, R2 %.4f%s\n", r->pc.n, r->cur.chisq,
                r->cur.dof, r->cur.r2, r->cur.weighted ? "" : " (unweighted)");
        if (r->gated)
            fprintf(fp, "    %s (against %zu baseline runs, p %.2g)\n",
                    r->g.regressed ? "REGRESSED: the growth changed" : "growth unchanged",
                    r->g.runs, r->g.p_row);
        else
            fprintf(fp, "    %s\n", r->why[0] ? r->why : "no baseline sweep to compare");
    }
    if (j->regressed)
        fprintf(fp,
                "%zu series changed growth (a growth term rose beyond the threshold at the "
                "largest point, against the baseline's runs): a regression even where each "
                "point is within threshold.\n",
                j->regressed);
}
