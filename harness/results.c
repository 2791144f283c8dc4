/* results.c - building and freeing run results; this machine's fingerprint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qq.h"
#include "results.h"

struct qqb_case_result *qqb_results_find(const struct qqb_results *r, const char *name)
{
    for (size_t i = 0; i < r->ncases; i++)
        if (strcmp(r->cases[i].name, name) == 0)
            return &r->cases[i];
    return NULL;
}

struct qqb_case_result *qqb_results_case(struct qqb_results *r, const char *name)
{
    struct qqb_case_result *c = qqb_results_find(r, name);
    if (c)
        return c;
    if (r->ncases == r->capcases) {
        size_t cap = r->capcases ? 2 * r->capcases : 8;
        struct qqb_case_result *v = realloc(r->cases, cap * sizeof *v);
        if (!v)
            return NULL;
        r->cases = v;
        r->capcases = cap;
    }
    c = &r->cases[r->ncases];
    memset(c, 0, sizeof *c);
    c->name = strdup(name);
    if (!c->name)
        return NULL;
    r->ncases++;
    return c;
}

const struct qqb_metric *qqb_case_find_metric(const struct qqb_case_result *c,
                                              const char *key, const char *what)
{
    for (size_t i = 0; i < c->nmetrics; i++)
        if (!strcmp(c->metrics[i].key, key) && !strcmp(c->metrics[i].what, what))
            return &c->metrics[i];
    return NULL;
}

struct qqb_metric *qqb_case_metric(struct qqb_case_result *c, const char *key,
                                   const char *what)
{
    struct qqb_metric *m = (struct qqb_metric *)qqb_case_find_metric(c, key, what);
    if (m)
        return m;
    if (c->nmetrics == c->capmetrics) {
        size_t cap = c->capmetrics ? 2 * c->capmetrics : 8;
        struct qqb_metric *v = realloc(c->metrics, cap * sizeof *v);
        if (!v)
            return NULL;
        c->metrics = v;
        c->capmetrics = cap;
    }
    m = &c->metrics[c->nmetrics];
    memset(m, 0, sizeof *m);
    m->key = strdup(key);
    m->what = strdup(what);
    if (!m->key || !m->what) {
        free(m->key);
        free(m->what);
        return NULL;
    }
    c->nmetrics++;
    return m;
}

int qqb_metric_add(struct qqb_metric *m, double sample)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        double *v = realloc(m->samples, cap * sizeof *v);
        if (!v)
            return -1;
        m->samples = v;
        m->cap = cap;
    }
    m->samples[m->n++] = sample;
    return 0;
}

void qqb_case_result_free(struct qqb_case_result *c)
{
    for (size_t i = 0; i < c->nmetrics; i++) {
        free(c->metrics[i].key);
        free(c->metrics[i].what);
        free(c->metrics[i].samples);
    }
    for (size_t i = 0; i < c->nmem; i++)
        free(c->mem[i].key);
    free(c->metrics);
    free(c->mem);
    free(c->name);
    free(c->bench);
    free(c->variant);
    free(c->point);
    free(c->failure);
    memset(c, 0, sizeof *c);
}

void qqb_results_free(struct qqb_results *r)
{
    for (size_t i = 0; i < r->ncases; i++)
        qqb_case_result_free(&r->cases[i]);
    free(r->cases);
    free(r->suite);
    free(r->label);
    free(r->date);
    free(r->version);
    free(r->commit);
    memset(r, 0, sizeof *r);
}

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp)
        return;
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "CPU part", 8) == 0) {
            char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                v[strcspn(v, "\n")] = '\0';
                snprintf(out, len, "%s", v);
            }
            break;
        }
    }
    fclose(fp);
}

void qqb_fingerprint_this(struct qqb_fingerprint *fp)
{
    memset(fp, 0, sizeof *fp);
    cpu_model(fp->cpu, sizeof fp->cpu);
    /* Rounded to 10 MHz: calibration scatters by well under that, a
     * different machine differs by more. */
    double mhz = qq_tick_mhz();
    fp->mhz = 10.0 * (double)(long)(mhz / 10.0 + 0.5);
    fp->invariant = qq_tick_invariant();
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    fp->cores = n > 0 ? (int)n : 1;
    snprintf(fp->compiler, sizeof fp->compiler, "%s", QQB_C_COMPILER);
    snprintf(fp->flags, sizeof fp->flags, "%s", QQB_C_FLAGS);
    char desc[512];
    snprintf(desc, sizeof desc, "%s|%.0f|%d|%d|%s|%s", fp->cpu, fp->mhz,
             fp->invariant, fp->cores, fp->compiler, fp->flags);
    uint32_t h = 2166136261u;
    for (const char *s = desc; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
#if defined(__x86_64__)
    const char *arch = "x86_64";
#elif defined(__aarch64__)
    const char *arch = "aarch64";
#else
    const char *arch = "other";
#endif
    snprintf(fp->id, sizeof fp->id, "%s-%dcpu-%08x", arch, fp->cores, h);
}
