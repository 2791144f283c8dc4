/* suite_bench.c - one benchmark of a suite: its fields, nodes, variants, params, keys, placeholders
 * and model. */
#include "suite_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "model.h"
#include "nearest.h"

static int add_ref(struct cur *c, const char *s, struct pos p)
{
    size_t n = c->nrefs;
    struct ref *r = qqb__suite_push(c->refs, &n, sizeof *r);
    if (!r)
        return oom(c);
    r[n - 1].s = s;
    r[n - 1].p = p;
    c->refs = r;
    c->nrefs = n;
    return 0;
}

/*
 * A list of strings, or one string split on blanks, into *V and *N; each string
 * is remembered for placeholder checks. LABEL names the list in messages
 * ("'args'", "variant 'pow'").
 */
static int parse_args(struct cur *c, char ***v, size_t *n, const char *label)
{
    char what[160], where[160];
    size_t first = *n, i;

    snprintf(where, sizeof where, "for %s", label);
    if (qqb_ycur_next(&c->y))
        return -1;
    if (c->y.ev.type == YAML_SCALAR_EVENT) {
        const char *s = scalar(c), *e;
        if (check_string(c, "a list of strings (or a string)", where, 1))
            return -1;
        for (;;) {
            while (is_blank(*s))
                s++;
            if (!*s)
                break;
            for (e = s; *e && !is_blank(*e); e++)
                ;
            if (qqb__suite_push_str(v, n, s, (size_t)(e - s)))
                return oom(c);
            s = e;
        }
    } else if (c->y.ev.type == YAML_SEQUENCE_START_EVENT) {
        snprintf(what, sizeof what, "in %s", label);
        for (;;) {
            if (qqb_ycur_next(&c->y))
                return -1;
            if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
                break;
            if (check_string(c, "a string", what, 1))
                return -1;
            if (qqb__suite_push_str(v, n, scalar(c), c->y.ev.data.scalar.length))
                return oom(c);
            if (add_ref(c, (*v)[*n - 1], here(c)))
                return -1;
        }
        return 0;
    } else {
        return qqb_ycur_expected(&c->y, "a list of strings (or a string)", where);
    }
    for (i = first; i < *n; i++)
        if (add_ref(c, (*v)[i], here(c)))
            return -1;
    return 0;
}

/* Remember the largest node count and where it is, for the bound that
 * 'max_nodes:' (which may come later in the file) sets. */
static void note_largest(const struct cur *c, struct qqb_bench *b, int v)
{
    if (v > b->max_node) {
        b->max_node = v;
        b->max_node_line = here(c).line;
        b->max_node_col = here(c).col;
    }
}

static int parse_nodes(struct cur *c, struct qqb_bench *b)
{
    const char *what = "an integer >= 1", *where = "in 'nodes'";
    struct qqb_strmap seen = {0};
    struct pos start;
    long long v;
    int *nn, added, rc = -1;
    char num[24];

    if (qqb_ycur_next(&c->y))
        return -1;
    start = here(c);
    if (c->y.ev.type == YAML_SCALAR_EVENT) {
        if (qqb__suite_to_int(c, 1, INT_MAX, what, "for 'nodes'", &v))
            return -1;
        if (!(b->nodes = malloc(sizeof *b->nodes)))
            return oom(c);
        b->nodes[0] = (int)v;
        b->nnodes = 1;
        note_largest(c, b, (int)v);
        return 0;
    }
    if (c->y.ev.type != YAML_SEQUENCE_START_EVENT)
        return qqb_ycur_expected(&c->y, "a list of integers", "for 'nodes'");
    for (;;) {
        if (qqb_ycur_next(&c->y))
            goto out;
        if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (qqb__suite_to_int(c, 1, INT_MAX, what, where, &v))
            goto out;
        snprintf(num, sizeof num, "%lld", v);
        if ((added = qqb_strmap_add(&seen, 0, num, b->nnodes, NULL)) <= 0) {
            if (added < 0)
                oom(c);
            else
                fail(c, here(c), "duplicate node count %lld in 'nodes'", v);
            goto out;
        }
        if (!(nn = qqb__suite_push(b->nodes, &b->nnodes, sizeof *nn))) {
            oom(c);
            goto out;
        }
        b->nodes = nn;
        nn[b->nnodes - 1] = (int)v;
        note_largest(c, b, (int)v);
    }
    if (b->nnodes == 0)
        fail(c, start,
             "expected a non-empty list of integers for "
             "'nodes', got an empty list");
    else
        rc = 0;
out:
    qqb_strmap_free(&seen);
    return rc;
}

/* Where the current scalar's text starts: past the quote of a quoted one. */
static struct pos value_start(const struct cur *c)
{
    struct pos p = here(c);
    p.col += c->y.ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
             c->y.ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    return p;
}

/* Append the current scalar to LIST (N names) and, AT not NULL, where it
 * is to *AT (N places): 0 or -1 (out of memory). */
static int push_key(struct cur *c, char ***list, size_t *n, struct qqb_spot **at)
{
    size_t m = *n;
    if (at) {
        struct qqb_spot *v = qqb__suite_push(*at, &m, sizeof *v);
        if (!v)
            return -1;
        struct pos p = value_start(c);
        v[m - 1].line = p.line;
        v[m - 1].col = p.col;
        *at = v;
    }
    return qqb__suite_push_str(list, n, scalar(c), strlen(scalar(c)));
}

/* keys, baseline_keys: a non-empty list of distinct names, or one name;
 * SEEN holds the names so far; AT, not NULL, gets where each name is. */
static int parse_keys_in(struct cur *c, const char *field, char ***list, size_t *n,
                         struct qqb_spot **at, struct qqb_strmap *seen)
{
    struct qqb_qbuf q;
    struct pos start;
    int added;
    char where[64], in[64];

    snprintf(where, sizeof where, "for '%s'", field);
    snprintf(in, sizeof in, "in '%s'", field);
    if (qqb_ycur_next(&c->y))
        return -1;
    start = here(c);
    if (c->y.ev.type == YAML_SCALAR_EVENT) {
        if (check_string(c, "a list of key names", where, 0))
            return -1;
        if (push_key(c, list, n, at))
            return oom(c);
        return 0;
    }
    if (c->y.ev.type != YAML_SEQUENCE_START_EVENT)
        return qqb_ycur_expected(&c->y, "a list of key names", where);
    for (;;) {
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (check_string(c, "a key name", in, 0))
            return -1;
        if ((added = qqb_strmap_add(seen, 0, scalar(c), *n, NULL)) < 0)
            return oom(c);
        if (!added)
            return fail(c, here(c), "duplicate key '%s' in '%s'", qqb_qs(&q, scalar(c)), field);
        if (push_key(c, list, n, at))
            return oom(c);
    }
    if (*n == 0)
        return fail(c, start,
                    "expected a non-empty list of key names for "
                    "'%s', got an empty list (leave '%s' out for every key)",
                    field, field);
    return 0;
}

static int parse_keys(struct cur *c, const char *field, char ***list, size_t *n,
                      struct qqb_spot **at)
{
    struct qqb_strmap seen = {0};
    int rc = parse_keys_in(c, field, list, n, at, &seen);
    qqb_strmap_free(&seen);
    return rc;
}

static int parse_variants_in(struct cur *c, struct qqb_bench *b, struct qqb_strmap *seen)
{
    struct pos start;
    struct qqb_qbuf q;
    size_t i;
    int added;

    if (qqb_ycur_expect(&c->y, YAML_MAPPING_START_EVENT, "a mapping of variant names to arguments",
                        "for 'variants'"))
        return -1;
    start = here(c);
    for (;;) {
        struct qqb_variant *v;
        char label[160];
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (check_string(c, "a variant name", "in 'variants'", 0))
            return -1;
        if (!qqb__suite_valid_name(scalar(c)))
            return fail(c, here(c),
                        "invalid variant name '%s'; expected letters, "
                        "digits, '_', '.' or '-'",
                        qqb_qs(&q, scalar(c)));
        if ((added = qqb_strmap_add(seen, 0, scalar(c), b->nvariants, &i)) < 0)
            return oom(c);
        /* A name in the map has its variant. */
        // NOLINTBEGIN(clang-analyzer-core.NullDereference)
        if (!added)
            return fail(c, here(c),
                        "duplicate variant '%s' (first given at line "
                        "%d, column %d)",
                        qqb_qs(&q, scalar(c)), b->variants[i].line, b->variants[i].col);
        // NOLINTEND(clang-analyzer-core.NullDereference)
        if (!(v = qqb__suite_push(b->variants, &b->nvariants, sizeof *v)))
            return oom(c);
        b->variants = v;
        v += b->nvariants - 1;
        v->line = here(c).line;
        v->col = here(c).col;
        if (!(v->name = sdup(scalar(c))))
            return oom(c);
        snprintf(label, sizeof label, "variant '%s'", qqb_qs(&q, v->name));
        if (parse_args(c, &v->args, &v->nargs, label))
            return -1;
    }
    if (b->nvariants == 0)
        return fail(c, start,
                    "expected a non-empty mapping of variant names "
                    "to arguments for 'variants', got an empty mapping");
    return 0;
}

static int parse_variants(struct cur *c, struct qqb_bench *b)
{
    struct qqb_strmap seen = {0};
    int rc = parse_variants_in(c, b, &seen);
    qqb_strmap_free(&seen);
    return rc;
}

/* SEEN holds (0, name) of each parameter and (i + 1, value) of the values of
 * parameter i. */
static int parse_params_in(struct cur *c, struct qqb_bench *b, struct qqb_strmap *seen)
{
    struct pos start;
    struct qqb_qbuf q, q2;
    size_t i;
    int added;

    if (qqb_ycur_expect(&c->y, YAML_MAPPING_START_EVENT,
                        "a mapping of parameter names to lists of values", "for 'params'"))
        return -1;
    start = here(c);
    for (;;) {
        struct qqb_param *p;
        struct pos list;
        char where[160];
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (check_string(c, "a parameter name", "in 'params'", 0))
            return -1;
        if (!qqb__suite_valid_ident(scalar(c)))
            return fail(c, here(c),
                        "invalid parameter name '%s'; expected a letter or "
                        "'_', then letters, digits or '_'",
                        qqb_qs(&q, scalar(c)));
        if (strcmp(scalar(c), "nodes") == 0)
            return fail(c, here(c),
                        "'nodes' cannot be a parameter name: "
                        "'{nodes}' is the node count; use 'nodes:' for it");
        if ((added = qqb_strmap_add(seen, 0, scalar(c), b->nparams, &i)) < 0)
            return oom(c);
        /* A name in the map has its parameter. */
        // NOLINTBEGIN(clang-analyzer-core.NullDereference)
        if (!added)
            return fail(c, here(c),
                        "duplicate parameter '%s' (first given at line "
                        "%d, column %d)",
                        qqb_qs(&q, scalar(c)), b->params[i].line, b->params[i].col);
        // NOLINTEND(clang-analyzer-core.NullDereference)
        if (!(p = qqb__suite_push(b->params, &b->nparams, sizeof *p)))
            return oom(c);
        b->params = p;
        p += b->nparams - 1;
        p->line = here(c).line;
        p->col = here(c).col;
        if (!(p->name = sdup(scalar(c))))
            return oom(c);
        snprintf(where, sizeof where, "for parameter '%s'", qqb_qs(&q, p->name));
        if (qqb_ycur_expect(&c->y, YAML_SEQUENCE_START_EVENT, "a non-empty list of values", where))
            return -1;
        list = here(c);
        snprintf(where, sizeof where, "in parameter '%s'", qqb_qs(&q, p->name));
        for (;;) {
            if (qqb_ycur_next(&c->y))
                return -1;
            if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
                break;
            if (check_string(c, "a non-empty value", where, 0))
                return -1;
            if (p->nvalues >= MAX_CASES)
                return fail(c, here(c), "parameter '%s' has more than %d values",
                            qqb_qs(&q, p->name), MAX_CASES);
            if ((added = qqb_strmap_add(seen, (uint32_t)b->nparams, scalar(c), p->nvalues, NULL)) <
                0)
                return oom(c);
            if (!added)
                return fail(c, here(c), "duplicate value '%s' in parameter '%s'",
                            qqb_qs(&q, scalar(c)), qqb_qs(&q2, p->name));
            if (qqb__suite_push_str(&p->values, &p->nvalues, scalar(c), c->y.ev.data.scalar.length))
                return oom(c);
        }
        if (p->nvalues == 0)
            return fail(c, list,
                        "expected a non-empty list of values for "
                        "parameter '%s', got an empty list",
                        qqb_qs(&q, p->name));
    }
    if (b->nparams == 0)
        return fail(c, start,
                    "expected a non-empty mapping of parameter "
                    "names to lists of values for 'params', got an empty "
                    "mapping");
    return 0;
}

static int parse_params(struct cur *c, struct qqb_bench *b)
{
    struct qqb_strmap seen = {0};
    int rc = parse_params_in(c, b, &seen);
    qqb_strmap_free(&seen);
    return rc;
}

/* Every placeholder names a parameter (or {nodes}) and every parameter is
 * used: one pass over the references, parameters found by hash. */
static int check_placeholders_in(struct cur *c, struct qqb_bench *b, struct qqb_strmap *pnames,
                                 char *used)
{
    struct qqb_qbuf q, q2;
    const char *p, *near;
    size_t i, j, len, k = 0;

    for (j = 0; j < b->nparams; j++)
        if (qqb_strmap_add(pnames, 0, b->params[j].name, j, NULL) < 0)
            return oom(c);
    for (i = 0; i < c->nrefs; i++) {
        const char *s = c->refs[i].s;
        while ((p = qqb__suite_placeholder(s, &len)) != NULL) {
            char *name = dupn(p + 1, len);
            int found;
            if (!name)
                return oom(c);
            found = name_is("nodes", p + 1, len) || qqb_strmap_get(pnames, 0, name, &k);
            if (found && !name_is("nodes", p + 1, len))
                used[k] = 1;
            if (!found) {
                const char *names[64];
                size_t nn = 0;
                int rc;
                names[nn++] = "nodes";
                for (j = 0; j < b->nparams && nn < 64; j++)
                    names[nn++] = b->params[j].name;
                near = qqb_nearest(name, names, nn);
                if (near)
                    rc = fail(c, c->refs[i].p,
                              "unknown placeholder '{%s}'; did you mean "
                              "'{%s}'?",
                              qqb_qs(&q, name), qqb_qs(&q2, near));
                else
                    rc = fail(c, c->refs[i].p,
                              "unknown placeholder '{%s}'; expected '{nodes}' "
                              "or a parameter from 'params'",
                              qqb_qs(&q, name));
                free(name);
                return rc;
            }
            free(name);
            s = p + len + 2;
        }
    }
    for (j = 0; j < b->nparams; j++) {
        if (!used[j]) {
            struct pos pp = {b->params[j].line, b->params[j].col};
            return fail(c, pp,
                        "parameter '%s' is not used; expected '{%s}' in "
                        "'args' or in a variant's arguments",
                        qqb_qs(&q, b->params[j].name), qqb_qs(&q2, b->params[j].name));
        }
    }
    return 0;
}

static int check_placeholders(struct cur *c, struct qqb_bench *b)
{
    struct qqb_strmap pnames = {0};
    char *used = calloc(b->nparams + 1, 1);
    int rc = used ? check_placeholders_in(c, b, &pnames, used) : oom(c);
    qqb_strmap_free(&pnames);
    free(used);
    return rc;
}

/* The column of the first whole word NAME in TEXT (1-based), or 1. */
static int word_col(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p++)
        if ((p == text || !is_ident(p[-1])) && !is_ident(p[n]))
            return (int)(p - text) + 1;
    return 1;
}

/* `model:` (docs/MODELS.md): a formula whose names are the benchmark's
 * parameters (numbers) or 'nodes', with at least as many points as terms. */
static int check_model(struct cur *c, struct qqb_bench *b)
{
    struct qqb_model m;
    struct qqb_qbuf q;
    char err[200];
    int col = 0;
    struct pos p = {b->model_line, b->model_col};
    if (qqb_model_parse(b->model, &m, err, sizeof err, &col) != 0) {
        const char *what = strchr(err, ':') ? strchr(err, ':') + 2 : err;
        p.col += col > 0 ? col - 1 : 0;
        return fail(c, p, "bad model: %s", what);
    }
    size_t points = 1;
    for (int i = 0; i < m.nparams; i++) {
        size_t j, k;
        struct pos at_name = {p.line, p.col + word_col(b->model, m.params[i]) - 1};
        if (strcmp(m.params[i], "nodes") == 0) {
            points *= b->nnodes;
            continue;
        }
        for (j = 0; j < b->nparams && strcmp(b->params[j].name, m.params[i]); j++)
            ;
        if (j == b->nparams) {
            const char *names[64], *near;
            size_t nn = 0;
            names[nn++] = "nodes";
            for (k = 0; k < b->nparams && nn < 64; k++)
                names[nn++] = b->params[k].name;
            near = qqb_nearest(m.params[i], names, nn);
            if (near)
                return fail(c, at_name,
                            "the model names '%s', which is no parameter; did you mean '%s'?",
                            qqb_qs(&q, m.params[i]), near);
            return fail(c, at_name,
                        "the model names '%s', which is no parameter; expected 'nodes' or a name "
                        "from 'params'",
                        qqb_qs(&q, m.params[i]));
        }
        for (k = 0; k < b->params[j].nvalues; k++) {
            char *end;
            errno = 0;
            double v = strtod(b->params[j].values[k], &end);
            if (end == b->params[j].values[k] || *end || errno || !isfinite(v)) {
                struct pos pp = {b->params[j].line, b->params[j].col};
                return fail(c, pp,
                            "parameter '%s' has the value '%s', not a number: the model uses it",
                            qqb_qs(&q, b->params[j].name), b->params[j].values[k]);
            }
        }
        points *= b->params[j].nvalues;
    }
    if (points < (size_t)m.nterms)
        return fail(c, p,
                    "the model has %d terms and the sweep %zu point%s: give each term a point "
                    "(more parameter values) or drop terms",
                    m.nterms, points, points == 1 ? "" : "s");
    return 0;
}

/* The value of benchmark field F (a B_x) into S->bench[BI]. */
static int bench_field(struct cur *c, struct qqb_suite *s, size_t bi, int f)
{
    struct qqb_bench *b = &s->bench[bi];
    struct qqb_qbuf q;
    char why[1600];
    size_t i;
    int added;

    switch (f) {
    case B_NAME:
        if (expect_scalar(c, "a benchmark name", "for 'name'", 0))
            return -1;
        if (!qqb__suite_valid_name(scalar(c)))
            return fail(c, here(c),
                        "invalid benchmark name '%s'; expected letters, "
                        "digits, '_', '.' or '-'",
                        qqb_qs(&q, scalar(c)));
        if ((added = qqb_strmap_add(&c->names, 0, scalar(c), bi, &i)) < 0)
            return oom(c);
        if (!added)
            return fail(c, here(c),
                        "duplicate benchmark name '%s' (first used "
                        "at line %d, column %d)",
                        qqb_qs(&q, scalar(c)), s->bench[i].line, s->bench[i].col);
        if (!(b->name = sdup(scalar(c))))
            return oom(c);
        return 0;
    case B_KERNEL:
        if (expect_scalar(c, "a kernel name or path", "for 'kernel'", 0))
            return -1;
        if (!(b->kernel = sdup(scalar(c))))
            return oom(c);
        if (!c->no_kernels && qqb__suite_kernel(b->kernel, c->shown_dir, c->kernel_dir,
                                                &b->kernel_path, why, sizeof why))
            return fail(c, here(c), "%s", why);
        return 0;
    case B_ARGS:
        return parse_args(c, &b->args, &b->nargs, "'args'");
    case B_NODES:
        return parse_nodes(c, b);
    case B_VARIANTS:
        return parse_variants(c, b);
    case B_PARAMS:
        return parse_params(c, b);
    case B_KEYS:
        return parse_keys(c, "keys", &b->keys, &b->nkeys, &b->keys_at);
    case B_BASELINE_KEYS:
        return parse_keys(c, "baseline_keys", &b->baseline_keys, &b->nbaseline_keys, NULL);
    case B_MODEL:
        if (expect_scalar(c, "a formula such as '1 + n + n^2'", "for 'model'", 0))
            return -1;
        /* the formula's first character */
        b->model_line = value_start(c).line;
        b->model_col = value_start(c).col;
        if (!(b->model = sdup(scalar(c))))
            return oom(c);
        return 0;
    default:
        return qqb__suite_setting(c, f - NBOWN, &b->s);
    }
}

/* The benchmark B (number BI, its mapping starting at START) read whole:
 * its required fields, default nodes, placeholders, model and size. */
static int bench_whole(struct cur *c, struct qqb_bench *b, size_t bi, struct pos start)
{
    struct qqb_qbuf q;
    size_t i, ncases;

    if (!b->name)
        return fail(c, start,
                    "missing required field 'name' in benchmark "
                    "#%zu",
                    bi + 1);
    if (!b->kernel)
        return fail(c, start,
                    "missing required field 'kernel' in "
                    "benchmark '%s'",
                    qqb_qs(&q, b->name));
    if (!b->nodes) {
        if (!(b->nodes = malloc(sizeof *b->nodes)))
            return oom(c);
        b->nodes[0] = 1;
        b->nnodes = 1;
    }
    if (check_placeholders(c, b))
        return -1;
    if (b->model && check_model(c, b))
        return -1;
    ncases = b->nnodes * (b->nvariants ? b->nvariants : 1);
    for (i = 0; i < b->nparams; i++) {
        if (ncases > MAX_CASES / b->params[i].nvalues) {
            ncases = MAX_CASES + 1;
            break;
        }
        ncases *= b->params[i].nvalues;
    }
    if (ncases > MAX_CASES)
        return fail(c, start,
                    "benchmark '%s' expands to more than %d cases "
                    "(params x nodes x variants)",
                    qqb_qs(&q, b->name), MAX_CASES);
    return 0;
}

int qqb__suite_bench(struct cur *c, struct qqb_suite *s, size_t bi)
{
    struct qqb_bench *b = &s->bench[bi];
    struct pos seen[NBENCH], start = here(c);
    struct qqb_qbuf q;
    char where[160];
    int f;

    memset(seen, 0, sizeof seen);
    b->line = start.line;
    b->col = start.col;
    c->nrefs = 0;
    for (;;) {
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (b->name)
            snprintf(where, sizeof where, "in benchmark '%s'", qqb_qs(&q, b->name));
        else
            snprintf(where, sizeof where, "in benchmark #%zu", bi + 1);
        if ((f = qqb__suite_field(c, qqb__suite_bench_fields, NBENCH, seen, where)) < 0)
            return -1;
        if (bench_field(c, s, bi, f))
            return -1;
    }
    return bench_whole(c, b, bi, start);
}
