/* model.c - formula parser, weighted least-squares fit (GSL), prediction and growth change. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>

#include "grow.h"
#include "model.h"

/* ---------------------------------------------------------------- parse */

struct pcur {
    const char *s;
    const char *p;
    char *err;
    size_t errlen;
    int *col;
};

static int perr(struct pcur *c, const char *at, const char *fmt, ...)
{
    va_list ap;
    int col = (int)(at - c->s) + 1;
    if (c->col)
        *c->col = col;
    int k = snprintf(c->err, c->errlen, "column %d: ", col);
    if (k < 0 || (size_t)k >= c->errlen)
        return -1;
    va_start(ap, fmt);
    vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static void skip(struct pcur *c)
{
    while (*c->p == ' ' || *c->p == '\t')
        c->p++;
}

int qqb_model_param(const struct qqb_model *m, const char *name)
{
    for (int i = 0; i < m->nparams; i++)
        if (!strcmp(m->params[i], name))
            return i;
    return -1;
}

/* NAME at c->p into BUF; returns its length (0: none). */
static size_t name_at(struct pcur *c, char *buf, size_t len)
{
    const char *q = c->p;
    if (!(isalpha((unsigned char)*q) || *q == '_'))
        return 0;
    while (isalnum((unsigned char)*q) || *q == '_')
        q++;
    size_t n = (size_t)(q - c->p);
    if (n < len) {
        memcpy(buf, c->p, n);
        buf[n] = '\0';
    }
    return n;
}

static int parse_power(struct pcur *c, int *power)
{
    *power = 1;
    skip(c);
    if (*c->p != '^')
        return 0;
    c->p++;
    skip(c);
    if (*c->p < '1' || *c->p > '9' || isdigit((unsigned char)c->p[1]))
        return perr(c, c->p, "expected an exponent 1..9 after '^'");
    *power = *c->p - '0';
    c->p++;
    return 0;
}

static int add_param(struct pcur *c, struct qqb_model *m, const char *name, const char *at)
{
    int i = qqb_model_param(m, name);
    if (i >= 0)
        return i;
    if (m->nparams == QQB_MODEL_MAX_PARAMS)
        return perr(c, at, "more than %d parameters", QQB_MODEL_MAX_PARAMS);
    snprintf(m->params[m->nparams], QQB_MODEL_NAME_MAX, "%s", name);
    return m->nparams++;
}

static int parse_factor(struct pcur *c, struct qqb_model *m, struct qqb_factor *f)
{
    char name[QQB_MODEL_NAME_MAX];
    skip(c);
    const char *at = c->p;
    size_t n = name_at(c, name, sizeof name);
    if (n == 0 && *at)
        return perr(c, at,
                    "expected a parameter name, log(NAME) or 1, "
                    "found '%c'",
                    *at);
    if (n == 0)
        return perr(c, at, "expected a term at the end");
    if (n >= sizeof name)
        return perr(c, at, "name longer than %d characters", QQB_MODEL_NAME_MAX - 1);
    c->p += n;
    f->log = 0;
    skip(c);
    if (!strcmp(name, "log") && *c->p == '(') {
        c->p++;
        skip(c);
        at = c->p;
        n = name_at(c, name, sizeof name);
        if (n == 0 || n >= sizeof name)
            return perr(c, at, "expected a parameter name inside log()");
        c->p += n;
        skip(c);
        if (*c->p != ')')
            return perr(c, c->p, "expected ')' to close log(");
        c->p++;
        f->log = 1;
    }
    int i = add_param(c, m, name, at);
    if (i < 0)
        return -1;
    f->param = i;
    return parse_power(c, &f->power);
}

static void term_text(const struct qqb_model *m, struct qqb_term *t)
{
    size_t k = 0;
    if (t->nfactors == 0) {
        snprintf(t->text, sizeof t->text, "1");
        return;
    }
    for (int i = 0; i < t->nfactors && k < sizeof t->text; i++) {
        const struct qqb_factor *f = &t->f[i];
        char pw[8] = "";
        if (f->power != 1)
            snprintf(pw, sizeof pw, "^%d", f->power);
        int w = snprintf(t->text + k, sizeof t->text - k, f->log ? "%s log(%s)%s" : "%s%s%s",
                         i ? "*" : "", m->params[f->param], pw);
        if (w < 0)
            break;
        k += (size_t)w;
    }
    /* "*" then " log": drop the blank used only to share one format. */
    char *b;
    while ((b = strstr(t->text, " log")) != NULL)
        memmove(b, b + 1, strlen(b));
}

/* Two terms are the same product when their factors match as multisets. */
static int same_term(const struct qqb_term *a, const struct qqb_term *b)
{
    if (a->nfactors != b->nfactors)
        return 0;
    int used[QQB_MODEL_MAX_FACTORS] = {0};
    for (int i = 0; i < a->nfactors; i++) {
        int found = 0;
        for (int j = 0; j < b->nfactors && !found; j++)
            if (!used[j] && a->f[i].param == b->f[j].param && a->f[i].log == b->f[j].log &&
                a->f[i].power == b->f[j].power)
                used[j] = found = 1;
        if (!found)
            return 0;
    }
    return 1;
}

int qqb_model_parse(const char *text, struct qqb_model *m, char *err, size_t errlen, int *col)
{
    struct pcur c = {text, text, err, errlen, col};
    memset(m, 0, sizeof *m);
    if (col)
        *col = 0;
    for (;;) {
        skip(&c);
        const char *start = c.p;
        if (m->nterms == QQB_MODEL_MAX_TERMS)
            return perr(&c, start, "more than %d terms", QQB_MODEL_MAX_TERMS);
        struct qqb_term *t = &m->t[m->nterms];
        if (*c.p == '1' && !isdigit((unsigned char)c.p[1]) && c.p[1] != '.') {
            c.p++;
            t->nfactors = 0;
        } else {
            for (;;) {
                if (t->nfactors == QQB_MODEL_MAX_FACTORS)
                    return perr(&c, c.p, "more than %d factors in a term", QQB_MODEL_MAX_FACTORS);
                if (parse_factor(&c, m, &t->f[t->nfactors]) < 0)
                    return -1;
                t->nfactors++;
                skip(&c);
                if (*c.p != '*')
                    break;
                c.p++;
            }
        }
        term_text(m, t);
        for (int i = 0; i < m->nterms; i++)
            if (same_term(&m->t[i], t))
                return perr(&c, start, "the term %s appears twice", t->text);
        m->nterms++;
        skip(&c);
        if (*c.p == '\0')
            return 0;
        if (*c.p != '+')
            return perr(&c, c.p, "expected '+' or the end, found '%c'", *c.p);
        c.p++;
    }
}

double qqb_model_term(const struct qqb_model *m, int t, const double *x)
{
    const struct qqb_term *term = &m->t[t];
    double v = 1.0;
    for (int i = 0; i < term->nfactors; i++) {
        double a = x[term->f[i].param];
        if (term->f[i].log) {
            if (!(a > 0))
                return NAN;
            a = log2(a);
        }
        for (int k = 0; k < term->f[i].power; k++)
            v *= a;
    }
    return v;
}

double qqb_model_degree(const struct qqb_model *m, int t)
{
    double d = 0;
    for (int i = 0; i < m->t[t].nfactors; i++)
        d += m->t[t].f[i].power * (m->t[t].f[i].log ? 0.1 : 1.0);
    return d;
}

/* ------------------------------------------------------------------ fit */

static int ferr(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Fit the terms whose USE[t] is set; the others get coefficient 0. */
static int fit_terms(const struct qqb_model *m, const int *use, size_t n, const double *x,
                     const double *y, const double *sigma, struct qqb_fit *fit, char *err,
                     size_t errlen)
{
    int map[QQB_MODEL_MAX_TERMS], p = 0;
    for (int t = 0; t < m->nterms; t++)
        if (use[t])
            map[p++] = t;
    memset(fit, 0, sizeof *fit);
    fit->p = m->nterms;
    fit->n = n;
    fit->weighted = sigma != NULL;
    if (p == 0)
        return ferr(err, errlen, "no terms");
    if (n < (size_t)p)
        return ferr(err, errlen, "%zu points cannot fix %d coefficients", n, p);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(y[i]))
            return ferr(err, errlen, "point %zu has no finite value", i + 1);
        if (sigma && !(sigma[i] > 0 && isfinite(sigma[i])))
            return ferr(err, errlen, "point %zu has no positive spread", i + 1);
    }

    gsl_matrix *X = gsl_matrix_alloc(n, (size_t)p);
    gsl_vector *Y = gsl_vector_alloc(n), *W = gsl_vector_alloc(n);
    gsl_vector *C = gsl_vector_alloc((size_t)p);
    gsl_matrix *COV = gsl_matrix_alloc((size_t)p, (size_t)p);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, (size_t)p);
    int rc = -1;
    if (!X || !Y || !W || !C || !COV || !ws) {
        ferr(err, errlen, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < p; j++) {
            double v = qqb_model_term(m, map[j], x + i * (size_t)m->nparams);
            if (isnan(v)) {
                ferr(err, errlen,
                     "term %s needs a positive parameter, and "
                     "point %zu has one <= 0",
                     m->t[map[j]].text, i + 1);
                goto done;
            }
            gsl_matrix_set(X, i, (size_t)j, v);
        }
        gsl_vector_set(Y, i, y[i]);
        gsl_vector_set(W, i, sigma ? 1.0 / (sigma[i] * sigma[i]) : 1.0);
    }
    /* Rank check: a term that is a combination of the others at these
     * points (n^2 with two distinct n) leaves the fit undetermined. */
    size_t rank = 0;
    double chisq = 0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_multifit_wlinear_tsvd(X, W, Y, 1e-12, C, COV, &chisq, &rank, ws);
    gsl_set_error_handler(old);
    if (st != GSL_SUCCESS) {
        ferr(err, errlen, "the fit failed: %s", gsl_strerror(st));
        goto done;
    }
    if (rank < (size_t)p) {
        ferr(err, errlen,
             "the %d terms cannot be told apart at these %zu "
             "points (rank %zu): give more distinct parameter values or "
             "fewer terms",
             p, n, rank);
        goto done;
    }
    fit->chisq = chisq;
    fit->dof = (double)n - p;
    if (fit->dof > 0)
        fit->scale = chisq / fit->dof;
    else
        fit->scale = 1.0;
    if (sigma && fit->scale < 1)
        fit->scale = 1.0;
    for (int j = 0; j < p; j++) {
        fit->c[map[j]] = gsl_vector_get(C, (size_t)j);
        for (int k = 0; k < p; k++)
            fit->cov[map[j]][map[k]] = gsl_matrix_get(COV, (size_t)j, (size_t)k) * fit->scale;
    }
    for (int t = 0; t < m->nterms; t++)
        fit->se[t] = sqrt(fit->cov[t][t]);
    /* Weighted R^2 against the weighted mean. */
    double sw = 0, swy = 0;
    for (size_t i = 0; i < n; i++) {
        sw += gsl_vector_get(W, i);
        swy += gsl_vector_get(W, i) * y[i];
    }
    double ybar = swy / sw, tss = 0;
    for (size_t i = 0; i < n; i++)
        tss += gsl_vector_get(W, i) * (y[i] - ybar) * (y[i] - ybar);
    fit->r2 = tss > 0 ? 1.0 - chisq / tss : (chisq == 0 ? 1.0 : 0.0);
    rc = 0;
done:
    gsl_multifit_linear_free(ws);
    gsl_matrix_free(COV);
    gsl_vector_free(C);
    gsl_vector_free(W);
    gsl_vector_free(Y);
    gsl_matrix_free(X);
    return rc;
}

int qqb_model_fit(const struct qqb_model *m, size_t n, const double *x, const double *y,
                  const double *sigma, struct qqb_fit *fit, char *err, size_t errlen)
{
    int use[QQB_MODEL_MAX_TERMS];
    for (int t = 0; t < m->nterms; t++)
        use[t] = 1;
    return fit_terms(m, use, n, x, y, sigma, fit, err, errlen);
}

double qqb_model_predict(const struct qqb_model *m, const struct qqb_fit *fit, const double *x,
                         double confidence, double *half)
{
    double v[QQB_MODEL_MAX_TERMS], y = 0, var = 0;
    for (int t = 0; t < m->nterms; t++) {
        v[t] = qqb_model_term(m, t, x);
        if (isnan(v[t])) {
            if (half)
                *half = NAN;
            return NAN;
        }
        y += fit->c[t] * v[t];
    }
    for (int a = 0; a < m->nterms; a++)
        for (int b = 0; b < m->nterms; b++)
            var += v[a] * fit->cov[a][b] * v[b];
    if (half) {
        if (fit->dof <= 0)
            *half = INFINITY;
        else
            *half = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, fit->dof) * sqrt(var > 0 ? var : 0);
    }
    return y;
}

/* ------------------------------------------------------------- growth */

static double max_degree(const struct qqb_model *m)
{
    double d = 0;
    for (int t = 0; t < m->nterms; t++)
        if (qqb_model_degree(m, t) > d)
            d = qqb_model_degree(m, t);
    return d;
}

void qqb_model_growth(const struct qqb_model *m, const struct qqb_fit *old_fit,
                      const struct qqb_fit *new_fit, const double *xmax, double sigmas,
                      double threshold, struct qqb_growth *g)
{
    memset(g, 0, sizeof *g);
    double top = max_degree(m);
    double base = qqb_model_predict(m, old_fit, xmax, 0.95, NULL);
    for (int t = 0; t < m->nterms; t++) {
        double se = sqrt(old_fit->se[t] * old_fit->se[t] + new_fit->se[t] * new_fit->se[t]);
        g->delta[t] = new_fit->c[t] - old_fit->c[t];
        g->z[t] = se > 0 ? g->delta[t] / se : (g->delta[t] > 0 ? INFINITY : 0);
        double d = qqb_model_degree(m, t);
        if (d == 0 || !(g->z[t] > sigmas))
            continue;
        if (d < top) {
            double at = g->delta[t] * qqb_model_term(m, t, xmax);
            if (!(fabs(base) > 0) || !(at >= fabs(base) * threshold / 100))
                continue;
        }
        g->flagged[t] = 1;
        g->regressed = 1;
    }
}

void qqb_model_growth_runs(const struct qqb_model *m, const struct qqb_fit *runs, size_t r,
                           const struct qqb_fit *cur, const double *xmax, double threshold,
                           double alpha, struct qqb_growth *g)
{
    memset(g, 0, sizeof *g);
    g->p_row = 1;
    g->runs = r;
    if (r < 2)
        return;
    struct qqb_fit mean = runs[0];
    for (int t = 0; t < m->nterms; t++) {
        double s = 0;
        for (size_t k = 0; k < r; k++)
            s += runs[k].c[t];
        mean.c[t] = s / (double)r;
    }
    double base = fabs(qqb_model_predict(m, &mean, xmax, 0.95, NULL));
    int tested = 0;
    for (int t = 0; t < m->nterms; t++) {
        double ss = 0;
        for (size_t k = 0; k < r; k++)
            ss += (runs[k].c[t] - mean.c[t]) * (runs[k].c[t] - mean.c[t]);
        double se = sqrt(ss / (double)(r - 1) * (1.0 + 1.0 / (double)r));
        g->delta[t] = cur->c[t] - mean.c[t];
        g->p[t] = 1;
        double term = qqb_model_term(m, t, xmax);
        double d = qqb_model_degree(m, t);
        if (d == 0 || !(term > 0) || !isfinite(base)) {
            g->z[t] = se > 0 ? g->delta[t] / se : 0;
            continue;
        }
        tested++;
        double room = base * threshold / 100.0 / term; /* the minimum effect, in coefficient */
        g->z[t] = se > 0 ? (g->delta[t] - room) / se : (g->delta[t] > room ? INFINITY : -INFINITY);
        g->p[t] = isfinite(g->z[t]) ? gsl_cdf_tdist_Q(g->z[t], (double)(r - 1))
                                    : (g->z[t] > 0 ? 0.0 : 1.0);
    }
    for (int t = 0; t < m->nterms; t++)
        if (g->p[t] * tested < g->p_row)
            g->p_row = g->p[t] * tested;
    for (int t = 0; t < m->nterms; t++) {
        g->flagged[t] = tested && g->p[t] * tested <= alpha;
        g->regressed |= g->flagged[t];
    }
}

double qqb_model_leading_p(const struct qqb_model *m, size_t n, const double *x, const double *y,
                           const double *sigma)
{
    double top = max_degree(m);
    int use[QQB_MODEL_MAX_TERMS], q = 0, dropped = 0;
    for (int t = 0; t < m->nterms; t++) {
        use[t] = !(top > 0 && qqb_model_degree(m, t) == top);
        q += use[t];
        dropped += !use[t];
    }
    if (!dropped || q == 0 || n <= (size_t)m->nterms)
        return 1.0;
    struct qqb_fit full, red;
    char err[160];
    if (qqb_model_fit(m, n, x, y, sigma, &full, err, sizeof err) < 0 ||
        fit_terms(m, use, n, x, y, sigma, &red, err, sizeof err) < 0)
        return 1.0;
    if (!(full.chisq > 0))
        return red.chisq > 0 ? 0.0 : 1.0;
    double F = ((red.chisq - full.chisq) / dropped) / (full.chisq / full.dof);
    if (!(F > 0))
        return 1.0;
    return gsl_cdf_fdist_Q(F, dropped, full.dof);
}

/* --------------------------------------------------------- observations */

void qqb_model_data_free(struct qqb_model_data *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->s[i].o);
    free(d->s);
    memset(d, 0, sizeof *d);
}

const struct qqb_model_series *qqb_model_series_find(const struct qqb_model_data *d,
                                                     const char *label)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->s[i].label, label))
            return &d->s[i];
    return NULL;
}

struct qqb_model_series *qqb_model_series_get(struct qqb_model_data *d, const char *label)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->s[i].label, label))
            return &d->s[i];
    struct qqb_model_series *v = qqb_grow(d->s, d->n, &d->cap, sizeof *v, 8);
    if (!v)
        return NULL;
    d->s = v;
    struct qqb_model_series *s = &d->s[d->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label);
    return s;
}

int qqb_model_series_add(struct qqb_model_series *s, const double *x, int nx, double y)
{
    struct qqb_model_obs *v = qqb_grow(s->o, s->n, &s->cap, sizeof *v, 16);
    if (!v)
        return -1;
    s->o = v;
    struct qqb_model_obs *o = &s->o[s->n++];
    memset(o, 0, sizeof *o);
    memcpy(o->x, x, (size_t)nx * sizeof *x);
    o->y = y;
    return 0;
}

void qqb_model_points_free(struct qqb_model_points *p)
{
    free(p->x);
    free(p->y);
    free(p->sigma);
    free(p->xmax);
    memset(p, 0, sizeof *p);
}

int qqb_model_points(const struct qqb_model *m, const struct qqb_model_series *s, int unweighted,
                     struct qqb_model_points *p)
{
    size_t np = (size_t)(m->nparams ? m->nparams : 1), nb = (size_t)m->nparams * sizeof(double);
    memset(p, 0, sizeof *p);
    p->nobs = s->n;
    p->x = calloc(s->n * np + 1, sizeof *p->x);
    p->y = calloc(s->n + 1, sizeof *p->y);
    double *ss = calloc(s->n + 1, sizeof *ss);
    size_t *k = calloc(s->n + 1, sizeof *k);
    p->xmax = calloc(np, sizeof *p->xmax);
    int rc = -1;
    if (!p->x || !p->y || !ss || !k || !p->xmax)
        goto out;
    for (size_t i = 0; i < s->n; i++) {
        size_t j;
        for (j = 0; j < p->n; j++)
            if (!memcmp(p->x + j * np, s->o[i].x, nb))
                break;
        if (j == p->n) {
            memcpy(p->x + j * np, s->o[i].x, nb);
            p->n++;
        }
        /* Welford */
        k[j]++;
        double dlt = s->o[i].y - p->y[j];
        p->y[j] += dlt / (double)k[j];
        ss[j] += dlt * (s->o[i].y - p->y[j]);
    }
    int weighted = !unweighted;
    for (size_t j = 0; j < p->n; j++)
        if (k[j] < 2)
            weighted = 0;
    if (weighted) {
        p->sigma = calloc(p->n ? p->n : 1, sizeof *p->sigma);
        if (!p->sigma)
            goto out;
        for (size_t j = 0; j < p->n; j++) {
            double sd = sqrt(ss[j] / (double)(k[j] - 1));
            double se = sd / sqrt((double)k[j]);
            double floor_ = 1e-3 * fabs(p->y[j]);
            p->sigma[j] = se > floor_ ? se : floor_;
            if (!(p->sigma[j] > 0))
                p->sigma[j] = 1e-12;
        }
    } else if (p->n < s->n) {
        /* unweighted: every observation is a point of its own */
        p->n = s->n;
        for (size_t i = 0; i < s->n; i++) {
            memcpy(p->x + i * np, s->o[i].x, nb);
            p->y[i] = s->o[i].y;
        }
    }
    /* the largest point: by the sum of the parameters, a rough "largest" */
    double best = -INFINITY;
    for (size_t j = 0; j < p->n; j++) {
        double sum = 0;
        for (int i = 0; i < m->nparams; i++)
            sum += p->x[j * np + (size_t)i];
        if (sum > best) {
            best = sum;
            memcpy(p->xmax, p->x + j * np, nb);
        }
    }
    rc = 0;
out:
    free(ss);
    free(k);
    return rc;
}
