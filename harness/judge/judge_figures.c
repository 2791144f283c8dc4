/* judge_figures.c - the figures of a judgement that the reports print and no
 * comparison row holds: each row's cost part, every metric's summaries, the
 * keys nothing was compared with. Made once, where the judgement is
 * finished; the reporters (report/report_*.c) read them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

/* The summaries of the N metrics M (N + 1 entries, so none is calloc(0)). */
static struct qqb_summary *summaries(const struct qqb_metric *m, size_t n)
{
    struct qqb_summary *s = calloc(n + 1, sizeof *s);
    for (size_t i = 0; s && i < n; i++)
        qqb_summarize(m[i].samples, m[i].n, &s[i]);
    return s;
}

/* Case C's summaries into F: its metrics, each thread row's. 0 or -1. */
static int case_figures(const struct qqb_case_result *c, struct qqb_case_figures *f)
{
    f->metric = summaries(c->metrics, c->nmetrics);
    f->thread = calloc(c->nthreads + 1, sizeof *f->thread);
    if (!f->metric || !f->thread)
        return -1;
    for (size_t t = 0; t < c->nthreads; t++, f->nthreads++)
        if (!(f->thread[t].metric = summaries(c->threads[t].metrics, c->threads[t].nmetrics)))
            return -1;
    return 0;
}

/* Case I has a row against the baseline, or against the reference build
 * (as the change or as its reference). */
static int compared(const struct qqb_judgement *j, size_t i)
{
    for (size_t k = 0; k < j->ncmp; k++)
        if ((!j->cmp[k].ab && j->cmp[k].case_idx == i) ||
            (j->cmp[k].ab == QQB_CMP_BUILD && (j->cmp[k].case_idx == i || j->cmp[k].ref_idx == i)))
            return 1;
    return 0;
}

/* Every verdict metric of a case that launched and that nothing was
 * compared with, in the results' order. 0 or -1. */
static int measured(struct qqb_judgement *j, const struct qqb_results *cur)
{
    size_t cap = 1; /* at most every metric of every case */
    for (size_t i = 0; i < cur->ncases; i++)
        cap += cur->cases[i]->nmetrics;
    j->measured = calloc(cap, sizeof *j->measured);
    if (!j->measured)
        return -1;
    for (size_t i = 0; i < cur->ncases; i++) {
        const struct qqb_case_result *c = cur->cases[i];
        if (compared(j, i) || c->launches == 0)
            continue;
        for (size_t m = 0; m < c->nmetrics; m++) {
            const struct qqb_metric *mt = &c->metrics[m];
            if (strcmp(mt->what, QQB_VERDICT_METRIC))
                continue;
            const struct qqb_metric *h = qqb_case_find_metric(c, mt->key, "hits");
            j->measured[j->nmeasured++] =
                (struct qqb_measured){.case_idx = i,
                                      .metric = m,
                                      .median = qqb_median(mt->samples, mt->n),
                                      .noise_pct = qqb_noise_pct(mt->samples, mt->n),
                                      .events = h ? qqb_median(h->samples, h->n) : NAN};
        }
    }
    return 0;
}

void qqb_judgement_figures_free(struct qqb_judgement *j)
{
    for (size_t i = 0; j->figures && i < j->nfigures; i++) {
        for (size_t t = 0; t < j->figures[i].nthreads; t++)
            free(j->figures[i].thread[t].metric);
        free(j->figures[i].thread);
        free(j->figures[i].metric);
    }
    free(j->figures);
    free(j->measured);
    j->figures = NULL;
    j->measured = NULL;
    j->nfigures = j->nmeasured = 0;
}

int qqb_judgement_figures(struct qqb_judgement *j, const struct qqb_results *cur)
{
    qqb_judgement_figures_free(j); /* made again: the ones before go */
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *c = &j->cmp[i];
        c->cost_pct = isfinite(c->count_pct) ? c->count_cur / c->count_base * c->ch.pct : NAN;
    }
    j->figures = calloc(cur->ncases + 1, sizeof *j->figures);
    if (!j->figures)
        return -1;
    for (size_t i = 0; i < cur->ncases; i++, j->nfigures++)
        if (case_figures(cur->cases[i], &j->figures[i]) != 0) {
            j->nfigures++;
            return -1;
        }
    return measured(j, cur);
}

void qqb_judgement_free(struct qqb_judgement *j)
{
    qqb_judgement_figures_free(j);
    free(j->cmp);
    free(j->mem);
    free(j->counts);
    memset(j, 0, sizeof *j);
}
