/* baseline_merge.c - a run merged into a stored baseline, keeping its newest runs per case
 * (--keep-runs). */
#include "baseline_int.h"
#include "kbuild.h"
#include "strv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int dup_opt(char **dst, const char *s)
{
    *dst = s ? strdup(s) : NULL;
    return s && !*dst ? -1 : 0;
}

static int copy_case(struct qqb_case_result *d, const struct qqb_case_result *s)
{
    memset(d, 0, sizeof *d);
    d->nodes = s->nodes;
    d->mhz = s->mhz;
    d->launches = s->launches;
    d->failures = s->failures;
    d->runs = s->runs ? s->runs : 1;
    if (dup_opt(&d->name, s->name) || dup_opt(&d->bench, s->bench) ||
        dup_opt(&d->variant, s->variant) || dup_opt(&d->point, s->point) ||
        dup_opt(&d->failure, s->failure) || dup_opt(&d->metric, s->metric) ||
        qqb_strv_dup(s->command, &d->command) || qqb_kbuild_copy(&d->build, &s->build))
        goto fail;
    for (size_t i = 0; i < s->nmetrics; i++) {
        const struct qqb_metric *sm = &s->metrics[i];
        struct qqb_metric *dm = qqb_case_metric(d, sm->key, sm->what);
        if (!dm)
            goto fail;
        for (size_t j = 0; j < sm->n; j++) {
            uint32_t run, launch;
            qqb__stamp_of(sm, j, &run, &launch);
            if (qqb_metric_add_at(dm, sm->samples[j], run, launch))
                goto fail;
        }
    }
    if (s->nmem) {
        d->mem = calloc(s->nmem, sizeof *d->mem);
        if (!d->mem)
            goto fail;
        for (size_t i = 0; i < s->nmem; i++) {
            d->mem[i] = s->mem[i];
            d->mem[i].key = NULL;
            d->nmem = i + 1;
            if (dup_opt(&d->mem[i].key, s->mem[i].key))
                goto fail;
        }
    }
    return 0;
fail:
    qqb_case_result_free(d);
    return -1;
}

/*
 * D := OLD's runs (the newest KEEP - 1 of them) followed by NEW's samples as
 * one more run; everything else (memory, command, build, tick MHz, failures) from
 * NEW. Metrics OLD has and NEW lacks keep their older runs.
 */
static int append_run(struct qqb_case_result *d, const struct qqb_case_result *old,
                      const struct qqb_case_result *new, size_t keep)
{
    size_t runs = (old->runs ? old->runs : 1) + 1;
    uint32_t drop = (uint32_t)(runs > keep ? runs - keep : 0);
    uint32_t fresh = (uint32_t)(runs - 1 - drop);
    if (copy_case(d, new))
        return -1;
    d->runs = runs - drop;
    /* NEW's samples become run FRESH: restamp them. */
    for (size_t i = 0; i < d->nmetrics; i++)
        for (size_t j = 0; j < d->metrics[i].n; j++)
            d->metrics[i].run[j] = fresh;
    /* Then OLD's kept runs, in front of them. */
    for (size_t i = 0; i < old->nmetrics; i++) {
        const struct qqb_metric *om = &old->metrics[i];
        struct qqb_metric *dm = qqb_case_metric(d, om->key, om->what);
        if (!dm)
            goto fail;
        size_t keepn = 0;
        for (size_t j = 0; j < om->n; j++) {
            uint32_t run, launch;
            qqb__stamp_of(om, j, &run, &launch);
            keepn += run >= drop;
        }
        size_t n0 = dm->n, total = n0 + keepn;
        double *v = malloc((total ? total : 1) * sizeof *v);
        uint32_t *ru = malloc((total ? total : 1) * sizeof *ru);
        uint32_t *la = malloc((total ? total : 1) * sizeof *la);
        if (!v || !ru || !la) {
            free(v);
            free(ru);
            free(la);
            goto fail;
        }
        size_t k = 0;
        for (size_t j = 0; j < om->n; j++) {
            uint32_t run, launch;
            qqb__stamp_of(om, j, &run, &launch);
            if (run < drop)
                continue;
            v[k] = om->samples[j];
            ru[k] = run - drop;
            la[k++] = launch;
        }
        for (size_t j = 0; j < n0; j++, k++) {
            v[k] = dm->samples[j];
            ru[k] = dm->run[j];
            la[k] = dm->launch[j];
        }
        free(dm->samples);
        free(dm->run);
        free(dm->launch);
        dm->samples = v;
        dm->run = ru;
        dm->launch = la;
        dm->n = dm->nstamped = total;
        dm->cap = dm->capstamp = total ? total : 1;
    }
    return 0;
fail:
    qqb_case_result_free(d);
    return -1;
}

int qqb_baseline_merge(struct qqb_results *base, const struct qqb_results *cur, size_t keep_runs)
{
    struct qqb_case_result *copies;
    char *label = NULL, *date = NULL, *version = NULL, *commit = NULL, *suite = NULL;
    size_t added = 0, i;

    if (keep_runs < 1)
        keep_runs = 1;
    if (base->suite && cur->suite && strcmp(base->suite, cur->suite))
        return -1;
    if (base->fp.id[0] && cur->fp.id[0] && strcmp(base->fp.id, cur->fp.id))
        return -1;
    /* Everything that can fail happens before BASE is touched. */
    copies = calloc(cur->ncases ? cur->ncases : 1, sizeof *copies);
    if (!copies)
        return -1;
    for (i = 0; i < cur->ncases; i++) {
        const struct qqb_case_result *old = qqb_results_find(base, cur->cases[i]->name);
        /* Another command line, or a kernel built with other flags,
         * measured something else: start afresh. */
        int same = old &&
                   (!old->command || !cur->cases[i]->command ||
                    qqb_strv_equal(old->command, cur->cases[i]->command)) &&
                   !qqb_kbuild_differs(&old->build, &cur->cases[i]->build);
        int rc = same && keep_runs > 1 ? append_run(&copies[i], old, cur->cases[i], keep_runs)
                                       : copy_case(&copies[i], cur->cases[i]);
        if (rc) {
            while (i-- > 0)
                qqb_case_result_free(&copies[i]);
            free(copies);
            return -1;
        }
        if (!old)
            added++;
    }
    if (dup_opt(&label, cur->label) || dup_opt(&date, cur->date) ||
        dup_opt(&version, cur->version) || dup_opt(&commit, cur->commit) ||
        (!base->suite && dup_opt(&suite, cur->suite)))
        goto fail;
    if (base->ncases + added > base->capcases) {
        size_t cap = base->ncases + added;
        struct qqb_case_result **v = realloc(base->cases, cap * sizeof(struct qqb_case_result *));
        if (!v)
            goto fail;
        base->cases = v;
        base->capcases = cap;
    }
    /* Slots for the new cases first, so nothing below can fail. */
    struct qqb_case_result **slots = calloc(added ? added : 1, sizeof(struct qqb_case_result *));
    if (!slots)
        goto fail;
    for (i = 0; i < added; i++)
        if (!(slots[i] = calloc(1, sizeof **slots))) {
            while (i-- > 0)
                free(slots[i]);
            free(slots);
            goto fail;
        }
    size_t used = 0;
    for (i = 0; i < cur->ncases; i++) {
        struct qqb_case_result *slot = qqb_results_find(base, copies[i].name);
        if (slot)
            qqb_case_result_free(slot);
        else
            slot = base->cases[base->ncases++] = slots[used++];
        *slot = copies[i];
    }
    free(slots);
    free(copies);
    free(base->label);
    free(base->date);
    free(base->version);
    free(base->commit);
    base->label = label;
    base->date = date;
    base->version = version;
    base->commit = commit;
    if (suite)
        base->suite = suite;
    if (cur->fp.id[0])
        base->fp = cur->fp;
    return 0;
fail:
    for (i = 0; i < cur->ncases; i++)
        qqb_case_result_free(&copies[i]);
    free(copies);
    free(label);
    free(date);
    free(version);
    free(commit);
    free(suite);
    return -1;
}
