/* plan.c - expand a suite once into cases and groups; the round order of interleaved variants. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "strbuf.h"

static int bench_selected(char *const *only, size_t nonly, const struct qqb_bench *b)
{
    if (nonly == 0)
        return 1;
    for (size_t i = 0; i < nonly; i++)
        if (!strcmp(only[i], b->name))
            return 1;
    return 0;
}

static size_t group_size(const struct qqb_bench *b)
{
    return b->nvariants ? b->nvariants : 1;
}

static char *point_string(const struct qqb_bench *b, const struct qqb_case *k)
{
    if (b->nparams == 0)
        return NULL;
    struct qqb_strbuf s = QQB_STRBUF_INIT;
    for (size_t i = 0; i < b->nparams; i++)
        qqb_strbuf_printf(&s, "%s%s=%s", i ? "," : "", b->params[i].name, k->values[i]);
    return qqb_strbuf_take(&s);
}

/* LAUNCHER (when given) then ARGV: one NULL-ended array; ARGV[0] replaced by
 * FIRST when FIRST is not NULL. */
static char **join_argv(char **launcher, size_t nl, char *const *argv, size_t argc,
                        const char *first)
{
    char **v = calloc(nl + argc + 1, sizeof *v);
    if (!v)
        return NULL;
    size_t n = 0;
    int bad = 0;
    for (size_t i = 0; i < nl; i++)
        bad |= !(v[n++] = strdup(launcher[i]));
    for (size_t i = 0; i < argc; i++)
        bad |= !(v[n++] = strdup(i == 0 && first ? first : argv[i]));
    if (bad) {
        qqb_argv_free(v);
        return NULL;
    }
    return v;
}

static char *join_path(const char *dir, const char *rel)
{
    size_t n = strlen(dir), m = strlen(rel);
    char *s = malloc(n + m + 2);
    if (!s)
        return NULL;
    snprintf(s, n + m + 2, "%s/%s", dir, rel);
    return s;
}

/* The reference build's kernel of B (qqb_plan_make_against says how a
 * name maps); malloc'd, NULL on out of memory. */
static char *reference_kernel(const struct qqb_bench *b, const char *against,
                              const char *kernel_dir)
{
    if (!strchr(b->kernel, '/'))
        return join_path(against, b->kernel);
    char *kd = kernel_dir ? realpath(kernel_dir, NULL) : NULL;
    char *out = NULL;
    size_t n = kd ? strlen(kd) : 0;
    if (kd && b->kernel_path && !strncmp(b->kernel_path, kd, n) && b->kernel_path[n] == '/')
        out = join_path(against, b->kernel_path + n + 1);
    else {
        const char *path = b->kernel_path ? b->kernel_path : b->kernel;
        const char *base = strrchr(path, '/');
        out = join_path(against, base ? base + 1 : path);
    }
    free(kd);
    return out;
}

static int fill_case(const struct qqb_bench *b, size_t bi, size_t k, size_t group,
                     const char *refkernel, struct qqb_plan_case *pc)
{
    struct qqb_case cs;
    if (qqb_bench_case(b, k, &cs) != 0)
        return -1;
    char **pre = NULL;
    size_t npre = 0;
    int rc = 0;
    if (cs.nodes > 1 && qqb_launcher_argv(b->s.launcher, cs.nodes, &pre, &npre) != 0)
        rc = -1;
    pc->bench = bi;
    pc->group = group;
    pc->in_bench = k;
    pc->variant = cs.variant;
    pc->nodes = cs.nodes;
    pc->build = refkernel ? QQB_BUILD_REFERENCE : QQB_BUILD_CHANGE;
    pc->twin = QQB_NO_CASE;
    if (rc == 0) {
        static const char suffix[] = " (reference build)";
        size_t nl = strlen(cs.name);
        pc->name = malloc(nl + sizeof suffix);
        if (pc->name) {
            memcpy(pc->name, cs.name, nl + 1);
            if (refkernel)
                memcpy(pc->name + nl, suffix, sizeof suffix);
        }
        pc->point = point_string(b, &cs);
        pc->argv = join_argv(pre, npre, cs.argv, cs.argc, refkernel);
        pc->command = join_argv(NULL, 0, cs.argv, cs.argc, b->kernel);
        pc->kernel_path = strdup(refkernel ? refkernel : cs.argv[0]);
        if (!pc->name || (b->nparams && !pc->point) || !pc->argv || !pc->command ||
            !pc->kernel_path)
            rc = -1;
    }
    qqb_argv_free(pre);
    qqb_case_free(&cs);
    return rc;
}

/* The plan of SUITE; ONCE: every case launched once, without warmup. */
static int expand(const struct qqb_suite *suite, char *const *only, size_t nonly, int reps,
                  int once, const char *against, const char *kernel_dir, struct qqb_plan *out,
                  char *err, size_t errlen)
{
    size_t builds = against ? 2 : 1;
    memset(out, 0, sizeof *out);
    out->passes = 1;
    out->suite = suite;
    out->against = against;
    for (size_t i = 0; i < nonly; i++) {
        size_t j = 0;
        while (j < suite->nbench && strcmp(suite->bench[j].name, only[i]))
            j++;
        if (j == suite->nbench) {
            snprintf(err, errlen,
                     "qqbench run: error: --only %s: no such benchmark "
                     "in %s",
                     only[i], suite->path);
            return -1;
        }
    }
    /* Sizes first: the arrays never grow afterwards. */
    size_t ncases = 0, ngroups = 0;
    for (size_t i = 0; i < suite->nbench; i++) {
        const struct qqb_bench *b = &suite->bench[i];
        if (!bench_selected(only, nonly, b))
            continue;
        ncases += builds * qqb_bench_ncases(b);
        ngroups += qqb_bench_ncases(b) / group_size(b);
    }
    out->cases = calloc(ncases ? ncases : 1, sizeof *out->cases);
    out->groups = calloc(ngroups ? ngroups : 1, sizeof *out->groups);
    if (!out->cases || !out->groups)
        goto nomem;
    for (size_t i = 0; i < suite->nbench; i++) {
        const struct qqb_bench *b = &suite->bench[i];
        if (!bench_selected(only, nonly, b))
            continue;
        size_t n = qqb_bench_ncases(b), nv = group_size(b);
        int r = once ? 1 : reps > 0 ? reps : b->s.repetitions;
        int w = once ? 0 : b->s.warmup;
        char *refk = against ? reference_kernel(b, against, kernel_dir) : NULL;
        if (against && !refk)
            goto nomem;
        for (size_t first = 0; first < n; first += nv) {
            struct qqb_plan_group *g = &out->groups[out->ngroups];
            g->bench = i;
            g->first = out->ncases;
            g->n = builds * nv;
            g->reps = r;
            g->warmup = w;
            for (size_t bu = 0; bu < builds; bu++)
                for (size_t j = 0; j < nv; j++) {
                    struct qqb_plan_case *pc = &out->cases[out->ncases];
                    if (fill_case(b, i, first + j, out->ngroups, bu ? refk : NULL, pc) != 0) {
                        free(refk);
                        out->ncases++; /* freed with the plan */
                        goto nomem;
                    }
                    pc->variant_ref = g->first + bu * nv;
                    if (bu) {
                        out->cases[g->first + j].twin = out->ncases;
                        out->reference_cases++;
                    }
                    out->ncases++;
                }
            out->ngroups++;
            out->launches += builds * nv * (size_t)(r + w);
        }
        free(refk);
    }
    return 0;
nomem:
    qqb_plan_free(out);
    snprintf(err, errlen, "qqbench run: error: out of memory expanding the suite");
    return -1;
}

int qqb_plan_make(const struct qqb_suite *suite, char *const *only, size_t nonly, int reps,
                  struct qqb_plan *out, char *err, size_t errlen)
{
    return expand(suite, only, nonly, reps, 0, NULL, NULL, out, err, errlen);
}

int qqb_plan_make_against(const struct qqb_suite *suite, char *const *only, size_t nonly, int reps,
                          const char *against, const char *kernel_dir, struct qqb_plan *out,
                          char *err, size_t errlen)
{
    return expand(suite, only, nonly, reps, 0, against, kernel_dir, out, err, errlen);
}

int qqb_plan_max_reps(const struct qqb_plan *plan, int against, int max_reps)
{
    /* Against a reference build, a noisy comparison measures more rounds by
     * default (up to 8x; --max-repetitions sets the maximum): a CI runner
     * shared with other jobs has slow spells that a few pairs cannot outvote.
     * With 4x a planted +3% at a 2% threshold was noisy in one of ten tries
     * on a loaded 2-core machine ([+2.00, +3.10] after 40 rounds, "about 47
     * pairs would decide"); only noisy comparisons pay for the rounds. */
    int n = max_reps;
    for (size_t g = 0; against && !max_reps && g < plan->ngroups; g++)
        if (8 * plan->groups[g].reps > n)
            n = 8 * plan->groups[g].reps;
    return n;
}

/* OUT->suite a view of SUITE with A's threshold bound and run figure. */
static int view(const struct qqb_suite *suite, const struct qqb_plan_args *a, struct qqb_plan *out)
{
    if (!(a->threshold_bound > 0) && a->run_figure < 0)
        return 0;
    struct qqb_suite *v = malloc(sizeof *v);
    struct qqb_bench *b = malloc((suite->nbench ? suite->nbench : 1) * sizeof *b);
    if (!v || !b) {
        free(v);
        free(b);
        return -1;
    }
    *v = *suite;
    for (size_t i = 0; i < suite->nbench; i++) {
        b[i] = suite->bench[i];
        if (a->threshold_bound > 0)
            b[i].s.threshold_bound = a->threshold_bound;
    }
    v->bench = b;
    if (a->run_figure >= 0)
        v->run_figure = (enum qqb_run_figure)a->run_figure;
    out->view = v;
    out->suite = v;
    return 0;
}

int qqb_plan_make_with(const struct qqb_suite *suite, const struct qqb_plan_args *a,
                       struct qqb_plan *out, char *err, size_t errlen)
{
    if (expand(suite, a->only, a->nonly, a->reps, a->once, a->against, a->kernel_dir, out, err,
               errlen) != 0)
        return -1;
    if (view(suite, a, out) != 0) {
        qqb_plan_free(out);
        snprintf(err, errlen, "qqbench run: error: out of memory expanding the suite");
        return -1;
    }
    out->passes = a->passes > 0 ? a->passes : 1;
    out->max_reps = qqb_plan_max_reps(out, a->against != NULL, a->max_reps);
    return 0;
}

void qqb_plan_free(struct qqb_plan *p)
{
    for (size_t i = 0; p->cases && i < p->ncases; i++) {
        free(p->cases[i].name);
        free(p->cases[i].point);
        qqb_argv_free(p->cases[i].argv);
        qqb_argv_free(p->cases[i].command);
        free(p->cases[i].kernel_path);
    }
    free(p->cases);
    free(p->groups);
    if (p->view)
        free(p->view->bench);
    free(p->view);
    memset(p, 0, sizeof *p);
}

int qqb_plan_reference_missing(const struct qqb_plan *p, size_t ci, char *why, size_t len)
{
    const struct qqb_plan_case *pc = &p->cases[ci];
    if (pc->build != QQB_BUILD_REFERENCE)
        return 0;
    const char *k = p->suite->bench[pc->bench].kernel;
    struct stat st;
    if (stat(pc->kernel_path, &st) != 0) {
        snprintf(why, len,
                 "the reference build (--against %s) has no kernel '%s' "
                 "(%s: %s)",
                 p->against, k, pc->kernel_path, strerror(errno));
        return 1;
    }
    if (!S_ISREG(st.st_mode) || access(pc->kernel_path, X_OK) != 0) {
        snprintf(why, len,
                 "the reference build's kernel '%s' (%s) is not an "
                 "executable file",
                 k, pc->kernel_path);
        return 1;
    }
    return 0;
}

int qqb_plan_group_passes(const struct qqb_plan *p, size_t g)
{
    int n = p->passes > 0 ? p->passes : 1, reps = p->groups[g].reps;
    return n < reps ? n : (reps > 0 ? reps : 1);
}

const char **qqb_plan_names(const struct qqb_plan *p)
{
    const char **v = malloc((p->ncases ? p->ncases : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < p->ncases; i++)
        v[i] = p->cases[i].name;
    return v;
}

/* splitmix64: a small, well-mixed generator for the shuffle. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void qqb_round_order(size_t nv, size_t round, uint64_t seed, size_t *order)
{
    if (nv == 0)
        return;
    /* The leads of this block of NV rounds: a Fisher-Yates shuffle of
     * 0..NV-1 seeded by (seed, block). NV is a group's variant count
     * (small); larger groups fall back to a rotation. */
    enum { MAXV = 64 };
    size_t lead = round % nv;
    if (nv <= MAXV) {
        size_t perm[MAXV];
        uint64_t s = mix(seed ^ mix((uint64_t)(round / nv) + 1));
        for (size_t i = 0; i < nv; i++)
            perm[i] = i;
        for (size_t i = nv - 1; i > 0; i--) {
            s = mix(s);
            size_t j = (size_t)(s % (i + 1));
            size_t t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        lead = perm[round % nv];
    }
    for (size_t i = 0; i < nv; i++)
        order[i] = (lead + i) % nv;
}
