/* qq_tune_read.c - the reader's side of QQTune: TUNE sections checked and handed out
 * (docs/FORMAT.md). */
#include <math.h>
#include <stdlib.h>

#include "qq_file_internal.h"

/* One candidate's row at P of record T (its index I): refused when its
 * rank is not one of the record's or its time is not a number of seconds. */
static int check_row(struct qq_file *f, uint32_t t, uint32_t i, const unsigned char *p,
                     uint32_t nodes, struct qq_tune_cand *out)
{
    out->value = (int64_t)ld64(p);
    out->node = ld32(p + 8);
    out->runs = ld32(p + 12);
    out->seconds = ldf64(p + 16);
    if (out->node >= nodes)
        return fail(f, QQ_ECORRUPT, "tune record %u: candidate %u was timed by rank %u of %u", t, i,
                    out->node, nodes);
    if (!isfinite(out->seconds) || out->seconds < 0 || out->seconds > 1e12)
        return fail(f, QQ_ECORRUPT, "tune record %u: candidate %u has time %g, not a duration", t,
                    i, out->seconds);
    if (out->value < INT32_MIN || out->value > INT32_MAX)
        return fail(f, QQ_ECORRUPT, "tune record %u: candidate %u is %lld, past an int", t, i,
                    (long long)out->value);
    return 0;
}

/* The head's fields, checked against the payload's length LEN. */
static int check_head(struct qq_file *f, uint32_t t, const unsigned char *pl, uint64_t len,
                      struct qq_tune_info *r, uint32_t *namelen)
{
    if (len < QQ__TUNE_HEAD)
        return fail(f, QQ_ECORRUPT, "tune record %u is %llu bytes, shorter than its %d-byte head",
                    t, (unsigned long long)len, QQ__TUNE_HEAD);
    *namelen = ld32(pl);
    r->ncand = ld32(pl + 4);
    r->choice = ld32(pl + 8);
    r->nodes = ld32(pl + 12);
    r->reps = ld32(pl + 16);
    if (*namelen > QQ_NAME_MAX)
        return fail(f, QQ_ECORRUPT, "tune record %u: name of %u bytes, more than %d", t, *namelen,
                    QQ_NAME_MAX);
    uint64_t name_end = (QQ__TUNE_HEAD + (uint64_t)*namelen + 7) / 8 * 8;
    if (r->ncand == 0 || name_end > len || (len - name_end) / QQ__TUNE_ROW != r->ncand ||
        (len - name_end) % QQ__TUNE_ROW != 0)
        return fail(f, QQ_ECORRUPT,
                    "tune record %u: %u candidates do not fill its %llu bytes (%llu for them)", t,
                    r->ncand, (unsigned long long)len,
                    (unsigned long long)(name_end <= len ? len - name_end : 0));
    if (r->choice >= r->ncand)
        return fail(f, QQ_ECORRUPT, "tune record %u: choice %u of %u candidates", t, r->choice,
                    r->ncand);
    if (r->nodes == 0 || r->nodes > f->nnodes || r->reps == 0)
        return fail(f, QQ_ECORRUPT, "tune record %u: %u ranks of the file's %u, %u rounds", t,
                    r->nodes, f->nnodes, r->reps);
    size_t bad = qq_name_check((const char *)pl + QQ__TUNE_HEAD, *namelen);
    if (bad)
        return fail(f, QQ_ECORRUPT,
                    "tune record %u: its name breaks the rule for names at byte %zu", t, bad);
    return 0;
}

static void tune_free(struct qq_tune_info *r)
{
    free((char *)r->name);
    free((struct qq_tune_cand *)r->cand);
}

int qq__parse_tune(struct qq_file *f, const unsigned char *pl, uint64_t len)
{
    uint32_t t = f->ntunes, namelen;
    struct qq_tune_info r = {0};
    int rc = check_head(f, t, pl, len, &r, &namelen);
    if (rc)
        return rc;
    char *name = malloc((size_t)namelen + 1);
    struct qq_tune_cand *cand = calloc(r.ncand, sizeof *cand);
    struct qq_tune_info *v = realloc(f->tunes, ((size_t)t + 1) * sizeof *v);
    if (v)
        f->tunes = v;
    if (!name || !cand || !v) {
        free(name);
        free(cand);
        return fail(f, QQ_ENOMEM, "out of memory");
    }
    memcpy(name, pl + QQ__TUNE_HEAD, namelen);
    name[namelen] = '\0';
    r.name = name;
    r.cand = cand;
    const unsigned char *row = pl + (QQ__TUNE_HEAD + (size_t)namelen + 7) / 8 * 8;
    for (uint32_t i = 0; rc == 0 && i < r.ncand; i++)
        rc = check_row(f, t, i, row + (size_t)i * QQ__TUNE_ROW, r.nodes, &cand[i]);
    for (uint32_t i = 0; rc == 0 && i < t; i++)
        if (strcmp(f->tunes[i].name, name) == 0)
            rc = fail(f, QQ_ECORRUPT, "tune records %u and %u are both named '%s'", i, t, name);
    if (rc) {
        tune_free(&r);
        return rc;
    }
    f->tunes[f->ntunes++] = r;
    return 0;
}

void qq__tunes_free(struct qq_file *f)
{
    for (uint32_t i = 0; i < f->ntunes; i++)
        tune_free(&f->tunes[i]);
    free(f->tunes);
    f->tunes = NULL;
    f->ntunes = 0;
}

uint32_t qq_file_ntunes(const struct qq_file *f)
{
    return f ? f->ntunes : 0;
}

const struct qq_tune_info *qq_file_tune(const struct qq_file *f, uint32_t i)
{
    return f && i < f->ntunes ? &f->tunes[i] : NULL;
}
