/* history.c - what a suite's stored runs say of the verdicts now: the notes a snapshot keeps, and
 * how many runs in a row a row has been noisy. */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "fingerprint.h"
#include "judge.h"
#include "strmap.h"
#include "yamlcur.h"

/* ----------------------------------------------------------------------
 * Noisy run after run: the verdicts snapshots keep.
 * ---------------------------------------------------------------------- */

int qqb_history_notes(const struct qqb_judgement *j, struct qqb_results *r)
{
    size_t n = 0;
    for (size_t i = 0; i < j->ncmp; i++)
        n += j->cmp[i].ab == QQB_CMP_BASELINE;
    if (n == 0)
        return 0;
    struct qqb_verdict_note *v = calloc(n, sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < j->ncmp; i++) {
        const struct qqb_cmp *c = &j->cmp[i];
        if (c->ab != QQB_CMP_BASELINE)
            continue;
        v[k].case_name = strdup(c->case_name);
        v[k].key = strdup(c->key);
        v[k].verdict = strdup(qqb_verdict_name(c->verdict));
        k++;
        if (!v[k - 1].case_name || !v[k - 1].key || !v[k - 1].verdict) {
            struct qqb_results tmp = {0};
            tmp.verdicts = v;
            tmp.nverdicts = k;
            qqb_results_drop_verdicts(&tmp);
            return -1;
        }
    }
    r->verdicts = v;
    r->nverdicts = k;
    return 0;
}

/* "case\tkey" of a snapshot's noisy verdicts, found by hash. */
static int noisy_set(const struct qqb_results *r, struct qqb_strmap *m)
{
    for (size_t i = 0; i < r->nverdicts; i++) {
        const struct qqb_verdict_note *v = &r->verdicts[i];
        if (strcmp(v->verdict, qqb_verdict_name(QQB_NOISY)))
            continue;
        size_t len = strlen(v->case_name) + strlen(v->key) + 2;
        char *k = malloc(len);
        if (!k)
            return -1;
        snprintf(k, len, "%s\t%s", v->case_name, v->key);
        int rc = qqb_strmap_add(m, 0, k, i, NULL);
        free(k);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int qqb_history_noisy_runs(const char *dir, const char *suite, const char *fp_id,
                           struct qqb_judgement *j, size_t want)
{
    char **labels = NULL;
    size_t nl = 0, live = 0;
    int rc = 0;
    for (size_t i = 0; i < j->ncmp; i++) {
        struct qqb_cmp *c = &j->cmp[i];
        c->noisy_runs = c->ab == QQB_CMP_BASELINE && c->verdict == QQB_NOISY;
        live += c->noisy_runs;
    }
    if (!live || want < 2 || qqb_baseline_history(dir, suite, fp_id, &labels, &nl) != 0)
        return 0;
    struct qqb_fingerprint fp;
    memset(&fp, 0, sizeof fp);
    snprintf(fp.id, sizeof fp.id, "%s", fp_id);
    /* Newest first; a row still counting has noisy_runs == runs looked at + 1. */
    for (size_t back = 0; back + 1 < want && back < nl && live && rc == 0; back++) {
        char path[4096], err[512];
        struct qqb_results r;
        struct qqb_strmap m = {0};
        if (qqb_baseline_path(dir, suite, &fp, labels[nl - 1 - back], path, sizeof path) != 0 ||
            qqb_baseline_read_as(path, suite, fp_id, &r, err, sizeof err) != 0)
            break;
        rc = noisy_set(&r, &m);
        live = 0;
        for (size_t i = 0; rc == 0 && i < j->ncmp; i++) {
            struct qqb_cmp *c = &j->cmp[i];
            if (c->noisy_runs != (int)back + 1)
                continue; /* not noisy now, or its run of noisy ended */
            size_t len = strlen(c->case_name) + strlen(c->key) + 2;
            char *k = malloc(len);
            if (!k) {
                rc = -1;
                break;
            }
            snprintf(k, len, "%s\t%s", c->case_name, c->key);
            if (qqb_strmap_get(&m, 0, k, NULL)) {
                c->noisy_runs++;
                live++;
            }
            free(k);
        }
        qqb_strmap_free(&m);
        qqb_results_free(&r);
    }
    qqb_baseline_free_list(labels, nl);
    return rc;
}

/* ----------------------------------------------------------------------
 * The snapshots across labels (qqbench history).
 * ---------------------------------------------------------------------- */

int qqb_history_moved(double prev, double prev_noise, double cur, double noise)
{
    double lim = fmax(isfinite(noise) ? noise : 0, isfinite(prev_noise) ? prev_noise : 0);
    return isfinite(prev) && prev > 0 && fabs(100.0 * (cur / prev - 1.0)) > fmax(lim, 1.0);
}

int qqb_history_mem_moved(const struct qqb_mem *prev, const struct qqb_mem *cur)
{
    return prev && (prev->obj_bytes + prev->alloc_bytes != cur->obj_bytes + cur->alloc_bytes ||
                    prev->peak_bytes != cur->peak_bytes || prev->created != cur->created);
}

static int load_snaps(const char *dir, const char *suite, const char *id, struct qqb_snap **out,
                      size_t *n)
{
    char **labels = NULL;
    size_t nl = 0;
    struct qqb_fingerprint fp;
    memset(&fp, 0, sizeof fp);
    snprintf(fp.id, sizeof fp.id, "%s", id);
    if (qqb_baseline_history(dir, suite, id, &labels, &nl) != 0)
        return -1;
    struct qqb_snap *s = realloc(*out, (*n + nl + 1) * sizeof *s);
    if (!s) {
        qqb_baseline_free_list(labels, nl);
        return -1;
    }
    *out = s;
    for (size_t i = 0; i < nl; i++) {
        char path[4096], err[512];
        if (qqb_baseline_path(dir, suite, &fp, labels[i], path, sizeof path) != 0)
            continue;
        struct qqb_snap *t = &s[*n];
        if (qqb_baseline_read_as(path, suite, id, &t->r, err, sizeof err) != 0) {
            fprintf(stderr, "qqbench history: warning: %s\n", err);
            continue;
        }
        /* The label inside must lead to this file, as run checks a baseline's
         * suite and machine against its path. */
        char back[4096];
        if (!t->r.label || qqb_baseline_path(dir, suite, &fp, t->r.label, back, sizeof back) != 0 ||
            strcmp(back, path) != 0) {
            struct qqb_qbuf q;
            fprintf(stderr,
                    "qqbench history: warning: %s: error: label '%s' disagrees with the file "
                    "name, which is for label '%s'; a snapshot copied or renamed by hand? "
                    "Skipped\n",
                    path, qqb_qs(&q, t->r.label ? t->r.label : ""), labels[i]);
            qqb_results_free(&t->r);
            continue;
        }
        t->label = strdup(labels[i]);
        t->machine = strdup(id);
        (*n)++;
    }
    qqb_baseline_free_list(labels, nl);
    return 0;
}

/* Oldest first across machines, by the date each snapshot stores (ISO 8601
 * UTC to the second, so the text order is the time order), then by label in
 * version order, as qqb_baseline_history orders one machine's. */
static int by_date(const void *a, const void *b)
{
    const struct qqb_snap *x = a, *y = b;
    const char *dx = x->r.date ? x->r.date : "", *dy = y->r.date ? y->r.date : "";
    int c = strcmp(dx, dy);
    return c ? c : qqb_label_cmp(x->label, y->label);
}

int qqb_history_snaps(const char *bdir, const char *name, const char *machine, struct qqb_snap **s,
                      size_t *n)
{
    char **ids = NULL;
    size_t nids = 0;
    int rc = load_snaps(bdir, name, machine, s, n);
    if (rc == 0)
        rc = qqb_baseline_find_others(bdir, name, machine, &ids, &nids);
    for (size_t i = 0; rc == 0 && i < nids; i++)
        rc = load_snaps(bdir, name, ids[i], s, n);
    qqb_baseline_free_list(ids, nids);
    if (rc == 0 && *n)
        qsort(*s, *n, sizeof **s, by_date);
    return rc;
}

void qqb_history_snaps_free(struct qqb_snap *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].label);
        free(s[i].machine);
        qqb_results_free(&s[i].r);
    }
    free(s);
}
