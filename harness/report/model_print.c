/* model_print.c - what `qqbench model` prints: fits, predictions, growth. */
#include <math.h>
#include <stdio.h>

#include "model_print.h"
#include "words.h"

/* "n=1000,m=5": the model's parameters at X; "-" when it has none. */
static void fmt_point(const struct qqb_model *m, const double *x, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->nparams && k < len; i++) {
        int w = snprintf(buf + k, len - k, "%s%s=%g", i ? "," : "", m->params[i], x[i]);
        if (w < 0)
            break;
        k += (size_t)w;
    }
    if (m->nparams == 0)
        snprintf(buf, len, "-");
}

void qqb_model_print_fit(FILE *fp, const struct qqb_model *m, const struct qqb_model_series *s,
                         const struct qqb_model_points *p, const struct qqb_fit *f)
{
    size_t np = (size_t)(m->nparams ? m->nparams : 1);
    struct qqb_count npt, nob;
    fprintf(fp, "%s: %s, %s, %s\n", s->label, qqb_count(&npt, p->n, "point"),
            qqb_count(&nob, p->nobs, "observation"),
            f->weighted ? "weighted by the spread at each point" : "unweighted");
    fprintf(fp, "  %-16s %14s %12s %8s\n", "term", "coefficient", "std.err", "t");
    for (int t = 0; t < m->nterms; t++)
        fprintf(fp, "  %-16s %14.6g %12.4g %8.2f\n", m->t[t].text, f->c[t], f->se[t],
                f->se[t] > 0 ? f->c[t] / f->se[t] : INFINITY);
    fprintf(fp, "  chi2 %.4g on %.0f dof (chi2/dof %.3g), R2 %.6f\n", f->chisq, f->dof,
            f->dof > 0 ? f->chisq / f->dof : NAN, f->r2);
    fprintf(fp, "  %-24s %14s %12s %14s %9s\n", "point", "measured", "+-", "fitted", "residual");
    for (size_t j = 0; j < p->n; j++) {
        char pt[128];
        fmt_point(m, p->x + j * np, pt, sizeof pt);
        double fy = qqb_model_predict(m, f, p->x + j * np, 0.95, NULL);
        char sg[32] = "-";
        if (p->sigma)
            snprintf(sg, sizeof sg, "%.4g", p->sigma[j]);
        fprintf(fp, "  %-24s %14.6g %12s %14.6g %8.2f%%\n", pt, p->y[j], sg, fy,
                p->y[j] != 0 ? 100 * (p->y[j] - fy) / fabs(p->y[j]) : NAN);
    }
}

void qqb_model_print_predict(FILE *fp, const char *point, double y, double half, double confidence)
{
    fprintf(fp,
            "  predicted at %s: %.6g +- %.3g (%g%% interval of the "
            "fitted curve; a wrong model is not in it)\n",
            point, y, half, 100 * confidence);
}

void qqb_model_print_growth(FILE *fp, const struct qqb_model *m, const char *baseline,
                            const struct qqb_fit *bf, const struct qqb_fit *f,
                            const struct qqb_growth *g, double p_old, double p_new, double sigmas)
{
    fprintf(fp, "  growth against %s:\n", baseline);
    fprintf(fp, "  %-16s %14s %14s %8s\n", "term", "baseline", "current", "z");
    for (int t = 0; t < m->nterms; t++)
        fprintf(fp, "  %-16s %14.6g %14.6g %8.2f%s\n", m->t[t].text, bf->c[t], f->c[t], g->z[t],
                g->flagged[t] ? "  GREW" : "");
    fprintf(fp,
            "  leading term needed (F test p): baseline %.3g, current "
            "%.3g\n",
            p_old, p_new);
    if (g->regressed)
        fprintf(fp,
                "  REGRESSED: the growth changed (a coefficient rose by "
                "more than %g combined standard errors)\n",
                sigmas);
    else
        fprintf(fp, "  growth unchanged\n");
}
