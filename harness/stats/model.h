/* model.h - parametric performance models: formulas, weighted least squares, prediction, growth. */
#ifndef QQB_MODEL_H
#define QQB_MODEL_H

#include <stddef.h>

/* ======================================================================
 * Formulas: a sum of terms, each a product of factors.
 *
 *   formula := term ('+' term)*
 *   term    := '1' | factor ('*' factor)*
 *   factor  := NAME ['^' INT] | 'log' '(' NAME ')' ['^' INT]
 *
 * NAME is a parameter ([A-Za-z_][A-Za-z0-9_]*; BigSim's positional p1..p20
 * are ordinary names). log is base 2 (as Extra-P's; the base only scales a
 * coefficient). The fitted function is c1*term1 + c2*term2 + ...
 * ====================================================================== */

#define QQB_MODEL_MAX_TERMS   20
#define QQB_MODEL_MAX_FACTORS 4
#define QQB_MODEL_MAX_PARAMS  20
#define QQB_MODEL_NAME_MAX    32

struct qqb_factor {
    int param; /* index into qqb_model.params */
    int log;   /* 1: log2(param) */
    int power; /* 1..9 */
};

struct qqb_term {
    int nfactors; /* 0: the constant term 1 */
    struct qqb_factor f[QQB_MODEL_MAX_FACTORS];
    char text[64]; /* as printed: "n^2", "n*log(n)", "1" */
};

struct qqb_model {
    int nterms;
    struct qqb_term t[QQB_MODEL_MAX_TERMS];
    int nparams; /* the distinct names the formula uses, in order of appearance */
    char params[QQB_MODEL_MAX_PARAMS][QQB_MODEL_NAME_MAX];
};

/* Parse TEXT. Returns 0, or -1 with ERR holding "column C: what" and
 * *COL the 1-based column of the fault. */
int qqb_model_parse(const char *text, struct qqb_model *m, char *err, size_t errlen, int *col);

/* Index of parameter NAME in the model, or -1. */
int qqb_model_param(const struct qqb_model *m, const char *name);

/* Value of term T at X (X[i] is the value of m->params[i]). A log of a
 * value <= 0 is NaN: the caller reports the point. */
double qqb_model_term(const struct qqb_model *m, int t, const double *x);

/* Growth order of a term: sum of powers, logs count 0.1 per power
 * (1 < log n < n < n log n < n^2). */
double qqb_model_degree(const struct qqb_model *m, int t);

/* ======================================================================
 * The fit: weighted linear least squares (gsl_multifit_wlinear).
 * ====================================================================== */

struct qqb_fit {
    size_t n;     /* points */
    int p;        /* coefficients (= terms) */
    int weighted; /* 1: weights 1/sigma^2 from the points' spread */
    double c[QQB_MODEL_MAX_TERMS];
    double se[QQB_MODEL_MAX_TERMS]; /* standard errors (see scale) */
    double cov[QQB_MODEL_MAX_TERMS][QQB_MODEL_MAX_TERMS];
    double chisq; /* weighted sum of squared residuals */
    double dof;   /* n - p */
    double scale; /* factor applied to the covariance: max(1, chisq/dof)
                   * when weighted (spreads from a few launches are
                   * themselves uncertain), chisq/dof when not */
    double r2;    /* weighted coefficient of determination */
};

/*
 * Fit model M to N points: X is N rows of m->nparams values, Y the
 * durations, SIGMA their standard errors (NULL: unweighted). Returns 0, or
 * -1 with ERR saying why (too few points, a log of a value <= 0 at point I,
 * a singular design: "the terms n and n^1 cannot be told apart at these
 * points").
 */
int qqb_model_fit(const struct qqb_model *m, size_t n, const double *x, const double *y,
                  const double *sigma, struct qqb_fit *fit, char *err, size_t errlen);

/* Prediction at X: the value, and the half-width of the two-sided
 * CONFIDENCE interval of the fitted curve there (Student t on dof; INFINITY
 * with dof 0). NaN when a log of a value <= 0 is asked for. */
double qqb_model_predict(const struct qqb_model *m, const struct qqb_fit *fit, const double *x,
                         double confidence, double *half);

/* ======================================================================
 * Growth change between two fits of the same model.
 * ====================================================================== */

struct qqb_growth {
    double delta[QQB_MODEL_MAX_TERMS]; /* new - old coefficient */
    double z[QQB_MODEL_MAX_TERMS];     /* delta / combined standard error (by runs:
                                          Student's t against the minimum effect) */
    double p[QQB_MODEL_MAX_TERMS];     /* by runs: one-sided p of a growth term (1: none) */
    int flagged[QQB_MODEL_MAX_TERMS];  /* 1: this term grew */
    int regressed;                     /* some term flagged */
    double p_row;                      /* by runs: the smallest p times the growth
                                          terms tested (Bonferroni), at most 1 */
    size_t runs;                       /* by runs: the baseline's runs fitted */
};

/*
 * A term is flagged when its coefficient rose by more than SIGMAS combined
 * standard errors and it is a growth term: the constant term never is; a
 * leading term (the highest degree in the model) is flagged on the z alone
 * (its appearance is the change of growth even where it is small at the
 * measured points); a lower term also needs its change at XMAX (the
 * largest measured point) to be at least THRESHOLD percent of the old
 * prediction there, so a tiny but precisely measured drift of a slope
 * that the per-point verdicts would call unchanged is not a regression.
 */
void qqb_model_growth(const struct qqb_model *m, const struct qqb_fit *old_fit,
                      const struct qqb_fit *new_fit, const double *xmax, double sigmas,
                      double threshold, struct qqb_growth *g);

/*
 * Growth by runs (docs/MODELS.md, "Growth against a baseline's runs"): the
 * baseline's sweep fitted once per run (RUNS[0..R-1], R >= 2), the current
 * run's fit CUR. A run's coefficients carry that run's shift of the
 * machine, so their spread across runs is the test's noise: for each term,
 * delta = cur - mean of the runs, se = sd of the runs x sqrt(1 + 1/R), and
 * Student's t on R - 1 degrees of freedom. A growth term (degree > 0) is
 * tested one-sided against a minimum effect: its change at XMAX, delta x
 * term(XMAX), must exceed THRESHOLD percent of the runs' mean prediction
 * there (H0: it does not). p_row is the smallest p times the number of
 * growth terms; a term is flagged when its p times that number is at most
 * ALPHA (before any family-wise control).
 */
void qqb_model_growth_runs(const struct qqb_model *m, const struct qqb_fit *runs, size_t r,
                           const struct qqb_fit *cur, const double *xmax, double threshold,
                           double alpha, struct qqb_growth *g);

/* Nested-model test: is the leading term(s) needed? The F statistic's
 * p-value for dropping the terms of highest degree (1 when there is
 * nothing to drop or no dof left). */
double qqb_model_leading_p(const struct qqb_model *m, size_t n, const double *x, const double *y,
                           const double *sigma);

/* ======================================================================
 * Observations and points: every launch (every BigSim record) is an
 * observation; observations at equal parameters form a point, its value
 * their mean, its sigma the spread of the mean.
 * ====================================================================== */

struct qqb_model_obs {
    double x[QQB_MODEL_MAX_PARAMS];
    double y;
};

struct qqb_model_series {
    char label[256];
    size_t n, cap;
    struct qqb_model_obs *o;
};

struct qqb_model_data {
    size_t n, cap;
    struct qqb_model_series *s;
};

void qqb_model_data_free(struct qqb_model_data *d);
/* The series LABEL of D, made (empty) when new; NULL on out of memory. The
 * pointer is valid until the next call that makes a series. */
struct qqb_model_series *qqb_model_series_get(struct qqb_model_data *d, const char *label);
/* The series LABEL, or NULL. */
const struct qqb_model_series *qqb_model_series_find(const struct qqb_model_data *d,
                                                     const char *label);
/* One observation: NX parameter values X and the duration Y. 0 or -1. */
int qqb_model_series_add(struct qqb_model_series *s, const double *x, int nx, double y);

struct qqb_model_points {
    size_t n;
    double *x, *y, *sigma; /* x: n rows of nparams; sigma NULL: unweighted */
    double *xmax;          /* the largest point (largest sum of the parameters) */
    size_t nobs;
};

/* Group S's observations into points: mean, sigma = sd/sqrt(k) floored at
 * 0.1% of the mean. A point with one observation (or UNWEIGHTED) makes the
 * fit unweighted: then every observation is a point. 0 or -1 (memory). */
int qqb_model_points(const struct qqb_model *m, const struct qqb_model_series *s, int unweighted,
                     struct qqb_model_points *p);
void qqb_model_points_free(struct qqb_model_points *p);

#endif /* QQB_MODEL_H */
