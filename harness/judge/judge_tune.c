/* judge_tune.c - judge: the parameters QQTune chose, per case and machine, and whether the
 * baseline chose otherwise (a note, never a verdict: docs/TUNE.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge_tune.h"
#include "match.h"

double qqb_tune_mode(const double *v, size_t n, size_t *agree)
{
    double best = NAN;
    size_t most = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            k += v[j] == v[i];
        if (k > most || (k == most && v[i] < best)) {
            most = k;
            best = v[i];
        }
    }
    *agree = most;
    return best;
}

static int push(struct qqb_tune_judgement *j, size_t *cap, const struct qqb_tune_row *r)
{
    if (j->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 4;
        struct qqb_tune_row *v = realloc(j->rows, nc * sizeof *v);
        if (!v)
            return -1;
        j->rows = v;
        *cap = nc;
    }
    j->rows[j->n++] = *r;
    return 0;
}

int qqb_judge_tunes(const struct qqb_results *cur, const struct qqb_results *base,
                    struct qqb_tune_judgement *out)
{
    memset(out, 0, sizeof *out);
    out->machine = cur->fp.id;
    out->base_machine = base ? base->fp.id : NULL;
    size_t *base_of = NULL, cap = 0;
    if (base && qqb_match_cases(cur, cur->ncases, base, &base_of) != 0)
        return -1;
    size_t plen = strlen(QQB_TUNE_PREFIX);
    int rc = 0;
    for (size_t i = 0; i < cur->ncases && rc == 0; i++) {
        const struct qqb_case_result *c = cur->cases[i];
        const struct qqb_case_result *b = qqb_matched(base, base_of, i);
        for (size_t m = 0; m < c->nmetrics && rc == 0; m++) {
            const struct qqb_metric *mt = &c->metrics[m];
            if (strncmp(mt->key, QQB_TUNE_PREFIX, plen) || strcmp(mt->what, QQB_TUNE_METRIC) ||
                mt->n == 0)
                continue;
            struct qqb_tune_row r = {.case_idx = i, .case_name = c->name, .name = mt->key + plen};
            r.choice = qqb_tune_mode(mt->samples, mt->n, &r.agree);
            r.launches = mt->n;
            const struct qqb_metric *bm =
                b ? qqb_case_find_metric(b, mt->key, QQB_TUNE_METRIC) : NULL;
            if (bm && bm->n > 0) {
                r.have_base = 1;
                r.base_choice = qqb_tune_mode(bm->samples, bm->n, &r.base_agree);
                r.base_launches = bm->n;
                r.changed = r.base_choice != r.choice;
                out->changed += (size_t)r.changed;
            }
            rc = push(out, &cap, &r);
        }
    }
    free(base_of);
    if (rc)
        qqb_tune_judgement_free(out);
    return rc;
}

void qqb_tune_judgement_free(struct qqb_tune_judgement *j)
{
    free(j->rows);
    memset(j, 0, sizeof *j);
}

void qqb_tune_judgement_print(FILE *fp, const struct qqb_tune_judgement *j)
{
    if (!j || j->n == 0)
        return;
    fprintf(fp, "\nTuned by QQTune on %s (the value most launches chose):\n", j->machine);
    for (size_t i = 0; i < j->n; i++) {
        const struct qqb_tune_row *r = &j->rows[i];
        fprintf(fp, "  %s: %s = %.17g (%zu of %zu launches)", r->case_name, r->name, r->choice,
                r->agree, r->launches);
        if (r->changed)
            fprintf(fp, "; note: the baseline (%s) chose %.17g (%zu of %zu launches)",
                    j->base_machine, r->base_choice, r->base_agree, r->base_launches);
        else if (r->have_base)
            fprintf(fp, "; the baseline chose the same");
        fprintf(fp, "\n");
    }
    if (j->changed)
        fprintf(fp, "  A changed choice is a note, not a regression: the timings above judge "
                    "its effect.\n");
}
