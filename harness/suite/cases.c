/* cases.c - a benchmark's cases: the product of nodes, variants and parameter values, each with its
 * argv and name. */
#include "suite_int.h"

#include <stdint.h>
#include <stdio.h>

#include "strbuf.h"

size_t qqb_bench_ncases(const struct qqb_bench *b)
{
    size_t n, i;

    if (!b || b->nnodes == 0)
        return 0;
    n = b->nnodes * (b->nvariants ? b->nvariants : 1);
    for (i = 0; i < b->nparams; i++) {
        if (b->params[i].nvalues && n > SIZE_MAX / b->params[i].nvalues)
            return 0;
        n *= b->params[i].nvalues;
    }
    return n;
}

void qqb_case_free(struct qqb_case *c)
{
    if (!c)
        return;
    qqb_argv_free(c->argv);
    free(c->point);
    free((void *)c->values);
    free(c->name);
    memset(c, 0, sizeof *c);
}

int qqb_bench_case(const struct qqb_bench *b, size_t i, struct qqb_case *c)
{
    size_t rest = i, j, k, nv, argc = 0;
    struct qqb_strbuf name = QQB_STRBUF_INIT;
    char **argv = NULL;
    int bad = 0;

    if (!c)
        return -1;
    memset(c, 0, sizeof *c);
    if (!b || i >= qqb_bench_ncases(b))
        return -1;
    c->index = i;
    nv = b->nvariants ? b->nvariants : 1;
    c->variant = b->nvariants ? (int)(rest % nv) : -1;
    rest /= nv;
    c->nodes = b->nodes[rest % b->nnodes];
    rest /= b->nnodes;
    if (b->nparams) {
        c->point = calloc(b->nparams, sizeof *c->point);
        c->values = calloc(b->nparams, sizeof *c->values);
        if (!c->point || !c->values)
            goto fail;
        for (j = b->nparams; j-- > 0;) {
            c->point[j] = rest % b->params[j].nvalues;
            rest /= b->params[j].nvalues;
            c->values[j] = b->params[j].values[c->point[j]];
        }
    }

    c->argc = 1 + b->nargs + (c->variant >= 0 ? b->variants[c->variant].nargs : 0);
    if (!(argv = calloc(c->argc + 1, sizeof *argv)))
        goto fail;
    c->argv = argv;
    bad |= !(argv[argc++] = sdup(b->kernel_path ? b->kernel_path : b->kernel));
    for (k = 0; k < b->nargs; k++)
        bad |= !(argv[argc++] = qqb__suite_expand(b->args[k], b, c->point, c->nodes));
    if (c->variant >= 0) {
        const struct qqb_variant *v = &b->variants[c->variant];
        for (k = 0; k < v->nargs; k++)
            bad |= !(argv[argc++] = qqb__suite_expand(v->args[k], b, c->point, c->nodes));
    }
    if (bad)
        goto fail;

    qqb_strbuf_str(&name, b->name);
    if (c->variant >= 0 || b->nparams) {
        qqb_strbuf_str(&name, "[");
        if (c->variant >= 0)
            qqb_strbuf_str(&name, b->variants[c->variant].name);
        for (j = 0; j < b->nparams; j++) {
            if (j || c->variant >= 0)
                qqb_strbuf_str(&name, ",");
            qqb_strbuf_str(&name, b->params[j].name);
            qqb_strbuf_str(&name, "=");
            qqb_strbuf_str(&name, c->values[j]);
        }
        qqb_strbuf_str(&name, "]");
    }
    qqb_strbuf_printf(&name, "@%d", c->nodes);
    if (!(c->name = qqb_strbuf_take(&name)))
        goto fail;
    return 0;
fail:
    /* argv may have holes where a copy failed: free each slot. */
    if (c->argv) {
        for (k = 0; k < c->argc; k++)
            free(c->argv[k]);
        free(c->argv);
        c->argv = NULL;
    }
    qqb_case_free(c);
    return -1;
}
