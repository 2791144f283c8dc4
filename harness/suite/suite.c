/* suite.c - load suite files (docs/SUITE.md) with libyaml's event API: the top level, defaults, the
 * whole. */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "suite_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

/* Suite files are small; this only stops reading a device by accident. */
#define MAX_FILE_SIZE (64u << 20)

static int parse_benchmarks(struct cur *c, struct qqb_suite *s)
{
    struct pos start;
    struct qqb_bench *nb;

    if (qqb_ycur_expect(&c->y, YAML_SEQUENCE_START_EVENT, "a list of benchmarks",
                        "for 'benchmarks'"))
        return -1;
    start = here(c);
    for (;;) {
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (c->y.ev.type != YAML_MAPPING_START_EVENT)
            return qqb_ycur_expected(&c->y, "a mapping (one benchmark)", "in 'benchmarks'");
        if (!(nb = qqb__suite_push(s->bench, &s->nbench, sizeof *nb)))
            return oom(c);
        s->bench = nb;
        if (qqb__suite_bench(c, s, s->nbench - 1))
            return -1;
    }
    if (s->nbench == 0)
        return fail(c, start,
                    "expected a non-empty list of benchmarks for "
                    "'benchmarks', got an empty list");
    return 0;
}

static int parse_defaults(struct cur *c, struct qqb_suite *s)
{
    struct pos seen[NSET];
    int f;

    memset(seen, 0, sizeof seen);
    if (qqb_ycur_expect(&c->y, YAML_MAPPING_START_EVENT, "a mapping of settings", "for 'defaults'"))
        return -1;
    for (;;) {
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            return 0;
        if ((f = qqb__suite_field(c, SET_FIELDS, NSET, seen, "in defaults")) < 0)
            return -1;
        if (qqb__suite_setting(c, f, &s->defaults))
            return -1;
    }
}

/* Every node count within the suite's bound: a runaway count (mpirun
 * -np 2147483647) eats the machine before it fails. */
static int check_max_nodes(struct cur *c, const struct qqb_suite *s, int given)
{
    size_t i;
    for (i = 0; i < s->nbench; i++) {
        const struct qqb_bench *b = &s->bench[i];
        struct pos p = {b->max_node_line, b->max_node_col};
        if (b->max_node <= s->max_nodes)
            continue;
        if (given)
            return fail(c, p, "%d nodes is more than the suite's 'max_nodes: %d'", b->max_node,
                        s->max_nodes);
        return fail(c, p,
                    "%d nodes is more than %d, the default maximum; "
                    "set 'max_nodes:' at the top level to allow it",
                    b->max_node, s->max_nodes);
    }
    return 0;
}

/* The next value, a string (empty only if ALLOW_EMPTY), copied into *OUT. */
static int string_field(struct cur *c, const char *what, const char *where, int allow_empty,
                        char **out)
{
    if (expect_scalar(c, what, where, allow_empty))
        return -1;
    if (!(*out = sdup(scalar(c))))
        return oom(c);
    return 0;
}

int qqb_metric_parse(const char *name)
{
    static const char *const names[] = {"cycles", "instructions", "both"};
    for (int i = 0; i < 3; i++)
        if (name && !strcmp(name, names[i]))
            return i;
    return -1;
}

const char *qqb_metric_name(int kind)
{
    return kind == QQB_METRIC_INSTRUCTIONS ? "instructions"
           : kind == QQB_METRIC_BOTH       ? "both"
                                           : "cycles";
}

int qqb_run_figure_parse(const char *name)
{
    static const char *const figures[3] = {"auto", "measured", "reference"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(name, figures[k]))
            return k;
    return -1;
}

/* The top-level mapping whose MAPPING_START is the current event. */
static int parse_top(struct cur *c, struct qqb_suite *s)
{
    struct pos seen[NTOP], start = here(c);
    struct qqb_qbuf q;
    int f;

    memset(seen, 0, sizeof seen);
    for (;;) {
        if (qqb_ycur_next(&c->y))
            return -1;
        if (c->y.ev.type == YAML_MAPPING_END_EVENT)
            break;
        if ((f = qqb__suite_field(c, qqb__suite_top_fields, NTOP, seen, "at the top level")) < 0)
            return -1;
        switch (f) {
        case T_SUITE:
            if (expect_scalar(c, "a suite name", "for 'suite'", 0))
                return -1;
            if (!qqb__suite_valid_name(scalar(c)))
                return fail(c, here(c),
                            "invalid suite name '%s'; expected letters, "
                            "digits, '_', '.' or '-'",
                            qqb_qs(&q, scalar(c)));
            if (!(s->name = sdup(scalar(c))))
                return oom(c);
            break;
        case T_DESCRIPTION:
            if (string_field(c, "a string", "for 'description'", 1, &s->description))
                return -1;
            break;
        case T_DEFAULTS:
            if (parse_defaults(c, s))
                return -1;
            break;
        case T_BENCHMARKS:
            if (parse_benchmarks(c, s))
                return -1;
            break;
        case T_MAX_NODES: {
            long long v = 0;
            if (qqb_ycur_next(&c->y) ||
                qqb__suite_to_int(c, 1, INT_MAX, "an integer >= 1", "for 'max_nodes'", &v))
                return -1;
            s->max_nodes = (int)v;
            break;
        }
        case T_BUILD:
            if (string_field(c, "a shell command", "for 'build'", 0, &s->build))
                return -1;
            break;
        case T_RUN_FIGURE: {
            if (expect_scalar(c, QQB_RUN_FIGURE_NAMES, "for 'run_figure'", 0))
                return -1;
            int k = qqb_run_figure_parse(scalar(c));
            if (k < 0)
                return fail(c, here(c), "run_figure: %s is none of auto, measured and reference",
                            qqb_qs(&q, scalar(c)));
            s->run_figure = (enum qqb_run_figure)k;
            break;
        }
        case T_THRESHOLD_BOUND:
            if (qqb_ycur_next(&c->y) ||
                qqb__suite_to_num(c, 0, 1, 1e6, "a number > 0, at most 1000000",
                                  "for 'threshold_bound'", &s->defaults.threshold_bound))
                return -1;
            break;
        }
    }
    if (!s->name)
        return fail(c, start,
                    "missing required field 'suite' at the top "
                    "level; expected a name such as 'suite: ci'");
    if (!s->nbench)
        return fail(c, start,
                    "missing required field 'benchmarks' at the "
                    "top level; expected a list of benchmarks");
    return check_max_nodes(c, s, seen[T_MAX_NODES].line != 0);
}

/* Settings the benchmark did not give come from the suite's defaults. */
static int merge(struct qqb_settings *b, const struct qqb_settings *d)
{
    unsigned own = b->set;
    if (!(own & QQB_SET_REPETITIONS))
        b->repetitions = d->repetitions;
    if (!(own & QQB_SET_WARMUP))
        b->warmup = d->warmup;
    if (!(own & QQB_SET_TIMEOUT))
        b->timeout = d->timeout;
    if (!(own & QQB_SET_THRESHOLD))
        b->threshold = d->threshold;
    if (!(own & QQB_SET_NOISE_MULTIPLE))
        b->noise_multiple = d->noise_multiple;
    b->threshold_bound = d->threshold_bound; /* the suite's, never a benchmark's */
    if (!(own & QQB_SET_CONFIDENCE))
        b->confidence = d->confidence;
    if (!(own & QQB_SET_MEMORY_TOLERANCE))
        b->memory_tolerance = d->memory_tolerance;
    if (!(own & QQB_SET_EVENTS))
        b->events = d->events;
    if (!(own & QQB_SET_ALLOW_DROPPED))
        b->allow_dropped = d->allow_dropped;
    if (!(own & QQB_SET_FAIL_ON_BLIND))
        b->fail_on_blind = d->fail_on_blind;
    if (!(own & QQB_SET_THRESHOLD_INSTR))
        b->threshold_instr = d->threshold_instr;
    if (!(own & QQB_SET_GATE))
        b->gate_counts = d->gate_counts;
    if (!(own & QQB_SET_METRIC))
        b->metric = d->metric;
    if (!(own & QQB_SET_CACHE_SIM))
        b->cache_sim = d->cache_sim;
    if (!(own & QQB_SET_LAUNCHER) && !(b->launcher = sdup(d->launcher)))
        return -1;
    b->set |= d->set;
    return 0;
}

static void init_settings(struct qqb_settings *s)
{
    s->repetitions = QQB_DEFAULT_REPETITIONS;
    s->warmup = QQB_DEFAULT_WARMUP;
    s->timeout = QQB_DEFAULT_TIMEOUT;
    s->threshold = QQB_DEFAULT_THRESHOLD;
    s->noise_multiple = QQB_DEFAULT_NOISE_MULTIPLE;
    s->threshold_bound = QQB_DEFAULT_THRESHOLD_BOUND;
    s->confidence = QQB_DEFAULT_CONFIDENCE;
    s->memory_tolerance = QQB_DEFAULT_MEMORY_TOLERANCE;
    s->events = 0;
    s->set = 0;
}

/* qqb_suite_load, or with NO_KERNELS qqb_suite_parse. */
static int load(const char *path, const char *kernel_dir, int no_kernels, struct qqb_suite **out,
                char *err, size_t errlen)
{
    struct cur c;
    struct qqb_suite *s = NULL;
    size_t i;
    char scratch[8];
    int rc = -1;

    if (!err || errlen == 0) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = '\0';
    if (out)
        *out = NULL;
    if (!path || !out) {
        snprintf(err, errlen, "error: no suite file given");
        return -1;
    }
    memset(&c, 0, sizeof c);
    c.kernel_dir = kernel_dir;
    c.no_kernels = no_kernels;
    if (qqb_ycur_open(&c.y, path, "suite file", MAX_FILE_SIZE, err, errlen))
        goto done;

    if (!(s = calloc(1, sizeof *s)) || !(s->path = sdup(path)) ||
        !(c.shown_dir = qqb__suite_dir_of(path))) {
        snprintf(err, errlen, "%s: error: out of memory", path);
        goto done;
    }
    init_settings(&s->defaults);
    s->max_nodes = QQB_DEFAULT_MAX_NODES;
    if (!(s->defaults.launcher = sdup(qqb_launcher_default()))) {
        snprintf(err, errlen, "%s: error: out of memory", path);
        goto done;
    }
    if (!(s->dir = realpath(c.shown_dir, NULL))) {
        snprintf(err, errlen,
                 "%s: error: cannot resolve the suite's "
                 "directory: %s",
                 path, strerror(errno));
        goto done;
    }

    if (qqb_ycur_next(&c.y)) /* STREAM-START */
        goto done;
    if (qqb_ycur_next(&c.y))
        goto done;
    if (c.y.ev.type == YAML_STREAM_END_EVENT) {
        struct pos start = {1, 1};
        fail(&c, start,
             "the file is empty; expected a mapping with 'suite' "
             "and 'benchmarks'");
        goto done;
    }
    if (qqb_ycur_next(&c.y)) /* after DOCUMENT-START: the document's root */
        goto done;
    if (c.y.ev.type != YAML_MAPPING_START_EVENT) {
        qqb_ycur_expected(&c.y, "a mapping with 'suite' and 'benchmarks'", "at the top level");
        goto done;
    }
    if (parse_top(&c, s))
        goto done;
    if (qqb_ycur_next(&c.y) || qqb_ycur_next(&c.y)) /* DOCUMENT-END, then STREAM-END */
        goto done;
    if (c.y.ev.type != YAML_STREAM_END_EVENT) {
        fail(&c, here(&c),
             "more than one document; a suite file holds "
             "exactly one suite");
        goto done;
    }
    for (i = 0; i < s->nbench; i++) {
        if (merge(&s->bench[i].s, &s->defaults)) {
            snprintf(err, errlen, "%s: error: out of memory", path);
            goto done;
        }
    }
    *out = s;
    s = NULL;
    rc = 0;
done:
    qqb_ycur_close(&c.y);
    qqb_strmap_free(&c.names);
    free(c.refs);
    free(c.shown_dir);
    qqb_suite_free(s);
    return rc;
}

int qqb_suite_load(const char *path, const char *kernel_dir, struct qqb_suite **out, char *err,
                   size_t errlen)
{
    return load(path, kernel_dir, 0, out, err, errlen);
}

int qqb_suite_parse(const char *path, struct qqb_suite **out, char *err, size_t errlen)
{
    return load(path, NULL, 1, out, err, errlen);
}

static void free_settings(struct qqb_settings *s)
{
    free(s->launcher);
}

void qqb_suite_free(struct qqb_suite *s)
{
    size_t i, j;

    if (!s)
        return;
    for (i = 0; i < s->nbench; i++) {
        struct qqb_bench *b = &s->bench[i];
        free(b->name);
        free(b->kernel);
        free(b->kernel_path);
        qqb__suite_free_strs(b->args, b->nargs);
        free(b->nodes);
        for (j = 0; j < b->nvariants; j++) {
            free(b->variants[j].name);
            qqb__suite_free_strs(b->variants[j].args, b->variants[j].nargs);
        }
        free(b->variants);
        for (j = 0; j < b->nparams; j++) {
            free(b->params[j].name);
            qqb__suite_free_strs(b->params[j].values, b->params[j].nvalues);
        }
        free(b->params);
        qqb__suite_free_strs(b->keys, b->nkeys);
        free(b->keys_at);
        qqb__suite_free_strs(b->baseline_keys, b->nbaseline_keys);
        free(b->model);
        free_settings(&b->s);
    }
    free(s->bench);
    free_settings(&s->defaults);
    free(s->name);
    free(s->description);
    free(s->build);
    free(s->path);
    free(s->dir);
    free(s);
}
