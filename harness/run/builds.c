/* builds.c - the kernels' builds in qqbench run (builds.h). */
#include "builds.h"

#include <stdlib.h>
#include <string.h>

#include "kbuild.h"

int qqb_run_builds_read(const struct qqb_plan *p, struct qqb_run_builds *rb, char *err,
                        size_t errlen)
{
    rb->n = 0;
    rb->b = calloc(p->ncases ? p->ncases : 1, sizeof *rb->b);
    if (!rb->b) {
        snprintf(err, errlen, "qqbench run: error: out of memory");
        return -1;
    }
    for (size_t i = 0; i < p->ncases; i++, rb->n++) {
        const char *path = p->cases[i].kernel_path;
        size_t j = 0; /* an earlier case of the same file */
        while (j < i &&
               (!path || !p->cases[j].kernel_path || strcmp(p->cases[j].kernel_path, path)))
            j++;
        int rc = j < i  ? qqb_kbuild_copy(&rb->b[i], &rb->b[j])
                 : path ? qqb_kbuild_read(path, &rb->b[i], err, errlen)
                        : 0;
        if (rc != 0) {
            snprintf(err, errlen, "qqbench run: error: out of memory");
            return -1;
        }
    }
    return 0;
}

/* The suite's name of case CI's kernel. */
static const char *kernel_name(const struct qqb_plan *p, size_t ci)
{
    return p->suite->bench[p->cases[ci].bench].kernel;
}

/* 1 when an earlier case than CI (of the change build) has the same pair of
 * kernel files (itself and its twin; TWIN 0: itself alone), so the kernel
 * was said already. */
static int said_before(const struct qqb_plan *p, size_t ci, int twin)
{
    const struct qqb_plan_case *c = &p->cases[ci];
    for (size_t j = 0; j < ci; j++) {
        const struct qqb_plan_case *d = &p->cases[j];
        if (d->build != QQB_BUILD_CHANGE || !d->kernel_path || !c->kernel_path ||
            strcmp(d->kernel_path, c->kernel_path))
            continue;
        if (!twin || (d->twin != QQB_NO_CASE && c->twin != QQB_NO_CASE &&
                      !strcmp(p->cases[d->twin].kernel_path, p->cases[c->twin].kernel_path)))
            return 1;
    }
    return 0;
}

size_t qqb_run_builds_warn_against(const struct qqb_plan *p, const struct qqb_run_builds *rb,
                                   FILE *out)
{
    size_t lines = 0;
    for (size_t i = 0; i < p->ncases && i < rb->n; i++) {
        size_t t = p->cases[i].twin;
        if (p->cases[i].build != QQB_BUILD_CHANGE || t == QQB_NO_CASE || t >= rb->n ||
            !qqb_kbuild_differs(&rb->b[i], &rb->b[t]) || said_before(p, i, 1))
            continue;
        struct qqb_strbuf here = QQB_STRBUF_INIT, there = QQB_STRBUF_INIT;
        qqb_kbuild_brief(&rb->b[i], &rb->b[t], &here, &there);
        fprintf(out,
                "qqbench: WARNING: kernel '%s' was built with other flags than the reference "
                "build's: %s here, %s in the reference\n",
                kernel_name(p, i), qqb_strbuf_str_of(&here), qqb_strbuf_str_of(&there));
        qqb_strbuf_free(&here);
        qqb_strbuf_free(&there);
        lines++;
    }
    return lines;
}

size_t qqb_run_builds_versus(const struct qqb_plan *p, const struct qqb_run_builds *rb,
                             const struct qqb_results *base, struct qqb_strbuf *what)
{
    size_t n = 0;
    for (size_t i = 0; i < p->ncases && i < rb->n; i++) {
        const struct qqb_case_result *old = qqb_results_find(base, p->cases[i].name);
        if (p->cases[i].build != QQB_BUILD_CHANGE || !old ||
            !qqb_kbuild_differs(&rb->b[i], &old->build) || said_before(p, i, 0))
            continue;
        struct qqb_strbuf here = QQB_STRBUF_INIT, there = QQB_STRBUF_INIT;
        qqb_kbuild_brief(&rb->b[i], &old->build, &here, &there);
        qqb_strbuf_printf(what, "%skernel '%s' (%s here, %s in the baseline)", n ? "; " : "",
                          kernel_name(p, i), qqb_strbuf_str_of(&here), qqb_strbuf_str_of(&there));
        qqb_strbuf_free(&here);
        qqb_strbuf_free(&there);
        n++;
    }
    return n;
}

int qqb_run_builds_attach(const struct qqb_run_builds *rb, struct qqb_results *cur)
{
    for (size_t i = 0; i < cur->ncases && i < rb->n; i++) {
        qqb_kbuild_free(&cur->cases[i]->build);
        if (qqb_kbuild_copy(&cur->cases[i]->build, &rb->b[i]) != 0)
            return -1;
    }
    return 0;
}

void qqb_run_builds_free(struct qqb_run_builds *rb)
{
    for (size_t i = 0; i < rb->n; i++)
        qqb_kbuild_free(&rb->b[i]);
    free(rb->b);
    rb->b = NULL;
    rb->n = 0;
}
