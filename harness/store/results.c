/* results.c - building and freeing run results: cases that never move, stamped samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "kbuild.h"
#include "results.h"
#include "strv.h"

long qqb_results_index(const struct qqb_results *r, const char *name)
{
    for (size_t i = 0; i < r->ncases; i++)
        if (strcmp(r->cases[i]->name, name) == 0)
            return (long)i;
    return -1;
}

struct qqb_case_result *qqb_results_find(const struct qqb_results *r, const char *name)
{
    long i = qqb_results_index(r, name);
    return i < 0 ? NULL : r->cases[i];
}

/* A new empty case at the end; the array of pointers grows, the cases
 * themselves never move. */
static struct qqb_case_result *append(struct qqb_results *r, const char *name)
{
    if (r->ncases == r->capcases) {
        size_t cap = r->capcases ? 2 * r->capcases : 8;
        /* An array of pointers: cases never move (judge.h, plan.h). */
        struct qqb_case_result **v =
            realloc(r->cases, cap * sizeof *v); /* NOLINT(bugprone-sizeof-expression) */
        if (!v)
            return NULL;
        r->cases = v;
        r->capcases = cap;
    }
    struct qqb_case_result *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->name = strdup(name);
    if (!c->name) {
        free(c);
        return NULL;
    }
    c->runs = 1;
    r->cases[r->ncases++] = c;
    return c;
}

struct qqb_case_result *qqb_results_append(struct qqb_results *r, const char *name)
{
    return append(r, name);
}

struct qqb_case_result *qqb_results_case(struct qqb_results *r, const char *name)
{
    struct qqb_case_result *c = qqb_results_find(r, name);
    return c ? c : append(r, name);
}

int qqb_results_init(struct qqb_results *r, const char *const *names, size_t n)
{
    if (n > r->capcases) {
        struct qqb_case_result **v =
            realloc(r->cases, n * sizeof *v); /* NOLINT(bugprone-sizeof-expression) */
        if (!v)
            return -1;
        r->cases = v;
        r->capcases = n;
    }
    for (size_t i = 0; i < n; i++)
        if (!append(r, names[i]))
            return -1;
    return 0;
}

const struct qqb_metric *qqb_case_find_metric(const struct qqb_case_result *c, const char *key,
                                              const char *what)
{
    for (size_t i = 0; i < c->nmetrics; i++)
        if (!strcmp(c->metrics[i].key, key) && !strcmp(c->metrics[i].what, what))
            return &c->metrics[i];
    return NULL;
}

/* Metric KEY/WHAT of the N metrics at *V (room for *CAP), made when new. */
static struct qqb_metric *metric_in(struct qqb_metric **v, size_t *n, size_t *cap, const char *key,
                                    const char *what)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*v)[i].key, key) && !strcmp((*v)[i].what, what))
            return &(*v)[i];
    struct qqb_metric *g = qqb_grow(*v, *n, cap, sizeof *g, 8);
    if (!g)
        return NULL;
    *v = g;
    struct qqb_metric *m = &g[*n];
    memset(m, 0, sizeof *m);
    m->key = strdup(key);
    m->what = strdup(what);
    if (!m->key || !m->what) {
        free(m->key);
        free(m->what);
        return NULL;
    }
    (*n)++;
    return m;
}

struct qqb_metric *qqb_case_metric(struct qqb_case_result *c, const char *key, const char *what)
{
    return metric_in(&c->metrics, &c->nmetrics, &c->capmetrics, key, what);
}

struct qqb_thread_row *qqb_case_thread(struct qqb_case_result *c, uint32_t node, uint32_t index)
{
    for (size_t i = 0; i < c->nthreads; i++)
        if (c->threads[i].node == node && c->threads[i].index == index)
            return &c->threads[i];
    struct qqb_thread_row *v = qqb_grow(c->threads, c->nthreads, &c->capthreads, sizeof *v, 4);
    if (!v)
        return NULL;
    c->threads = v;
    struct qqb_thread_row *t = &v[c->nthreads++];
    memset(t, 0, sizeof *t);
    t->node = node;
    t->index = index;
    return t;
}

struct qqb_metric *qqb_thread_metric(struct qqb_thread_row *t, const char *key, const char *what)
{
    return metric_in(&t->metrics, &t->nmetrics, &t->capmetrics, key, what);
}

static void metrics_free(struct qqb_metric *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(m[i].key);
        free(m[i].what);
        free(m[i].samples);
        free(m[i].run);
        free(m[i].launch);
    }
    free(m);
}

int qqb_metric_add(struct qqb_metric *m, double sample)
{
    double *v = qqb_grow(m->samples, m->n, &m->cap, sizeof *v, 16);
    if (!v)
        return -1;
    m->samples = v;
    m->samples[m->n++] = sample;
    return 0;
}

static int stamp_room(struct qqb_metric *m, size_t need)
{
    if (need <= m->capstamp)
        return 0;
    size_t cap = m->capstamp ? 2 * m->capstamp : 16;
    while (cap < need)
        cap *= 2;
    uint32_t *r = realloc(m->run, cap * sizeof *r);
    if (!r)
        return -1;
    m->run = r;
    uint32_t *l = realloc(m->launch, cap * sizeof *l);
    if (!l)
        return -1;
    m->launch = l;
    m->capstamp = cap;
    return 0;
}

int qqb_case_stamp(struct qqb_case_result *c, uint32_t run, uint32_t launch)
{
    for (size_t i = 0; i < c->nmetrics; i++) {
        struct qqb_metric *m = &c->metrics[i];
        if (m->nstamped >= m->n)
            continue;
        if (stamp_room(m, m->n) != 0)
            return -1;
        for (size_t j = m->nstamped; j < m->n; j++) {
            m->run[j] = run;
            m->launch[j] = launch;
        }
        m->nstamped = m->n;
    }
    return 0;
}

int qqb_metric_add_at(struct qqb_metric *m, double sample, uint32_t run, uint32_t launch)
{
    if (m->nstamped != m->n || stamp_room(m, m->n + 1) != 0 || qqb_metric_add(m, sample) != 0)
        return -1;
    m->run[m->nstamped] = run;
    m->launch[m->nstamped] = launch;
    m->nstamped++;
    return 0;
}

void qqb__stamp_of(const struct qqb_metric *m, size_t i, uint32_t *run, uint32_t *launch)
{
    if (i < m->nstamped) {
        *run = m->run[i];
        *launch = m->launch[i];
    } else {
        *run = 0;
        *launch = (uint32_t)i;
    }
}

long qqb_metric_at(const struct qqb_metric *m, uint32_t run, uint32_t launch)
{
    for (size_t i = 0; i < m->n; i++) {
        uint32_t r, l;
        qqb__stamp_of(m, i, &r, &l);
        if (r == run && l == launch)
            return (long)i;
    }
    return -1;
}

int qqb_case_command_differs(const struct qqb_case_result *a, const struct qqb_case_result *b)
{
    return a->command && b->command && !qqb_strv_equal(a->command, b->command);
}

void qqb_case_result_free(struct qqb_case_result *c)
{
    metrics_free(c->metrics, c->nmetrics);
    for (size_t i = 0; i < c->nthreads; i++) {
        free(c->threads[i].name);
        metrics_free(c->threads[i].metrics, c->threads[i].nmetrics);
    }
    free(c->threads);
    for (size_t i = 0; i < c->nmem; i++)
        free(c->mem[i].key);
    free(c->mem);
    free(c->name);
    free(c->bench);
    free(c->variant);
    free(c->point);
    free(c->metric);
    free(c->failure);
    if (c->command)
        for (size_t i = 0; c->command[i]; i++)
            free(c->command[i]);
    free(c->command);
    qqb_kbuild_free(&c->build);
    memset(c, 0, sizeof *c);
}

void qqb_results_drop_verdicts(struct qqb_results *r)
{
    for (size_t i = 0; i < r->nverdicts; i++) {
        free(r->verdicts[i].case_name);
        free(r->verdicts[i].key);
        free(r->verdicts[i].verdict);
    }
    free(r->verdicts);
    r->verdicts = NULL;
    r->nverdicts = 0;
}

void qqb_results_free(struct qqb_results *r)
{
    for (size_t i = 0; i < r->ncases; i++) {
        qqb_case_result_free(r->cases[i]);
        free(r->cases[i]);
    }
    free(r->cases);
    qqb_results_drop_verdicts(r);
    free(r->suite);
    free(r->label);
    free(r->date);
    free(r->version);
    free(r->commit);
    memset(r, 0, sizeof *r);
}

/* 1 when the memory rows A and B are the same key with the same figures. */
static int same_mem(const struct qqb_mem *a, const struct qqb_mem *b)
{
    return a->key && b->key && strcmp(a->key, b->key) == 0 && a->obj_size == b->obj_size &&
           a->created == b->created && a->deleted == b->deleted && a->obj_bytes == b->obj_bytes &&
           a->alloc_bytes == b->alloc_bytes && a->peak_bytes == b->peak_bytes &&
           a->peak_gap == b->peak_gap;
}

int qqb_results_same_memory(const struct qqb_results *cur, const struct qqb_results *stored)
{
    for (size_t i = 0; i < cur->ncases; i++) {
        const struct qqb_case_result *c = cur->cases[i];
        const struct qqb_case_result *s = qqb_results_find(stored, c->name);
        if (!s || s->nmem != c->nmem)
            return 0;
        for (size_t k = 0; k < c->nmem; k++)
            if (!same_mem(&c->mem[k], &s->mem[k]))
                return 0;
    }
    return 1;
}

int qqb_results_view(const struct qqb_results *r, const char *keep, int memory_only,
                     struct qqb_results *view)
{
    size_t n = r->ncases ? r->ncases : 1;
    *view = *r;
    /* One block: the pointers, then (MEMORY_ONLY) the shallow copies. */
    view->cases = malloc(n * sizeof(struct qqb_case_result *) +
                         (memory_only ? n * sizeof(struct qqb_case_result) : 0));
    view->ncases = view->capcases = 0;
    if (!view->cases)
        return -1;
    struct qqb_case_result *copies = (struct qqb_case_result *)(view->cases + n);
    for (size_t i = 0; i < r->ncases; i++) {
        if (keep && !keep[i])
            continue;
        struct qqb_case_result *c = r->cases[i];
        if (memory_only) {
            copies[view->ncases] = *c;
            copies[view->ncases].metrics = NULL;
            copies[view->ncases].nmetrics = copies[view->ncases].capmetrics = 0;
            /* Memory does not depend on how the kernel was built. */
            memset(&copies[view->ncases].build, 0, sizeof copies[view->ncases].build);
            c = &copies[view->ncases];
        }
        view->cases[view->ncases++] = c;
    }
    view->capcases = view->ncases;
    return 0;
}
