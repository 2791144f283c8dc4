/* run_json.c - the run JSON's one writer and one reader, both walking the field lists of
 * run_json.h. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "run_json.h"
#include "yamlcur.h"

enum rj_type { RJ_STR, RJ_NUM, RJ_INT, RJ_BOOL, RJ_TRI, RJ_NUMS, RJ_STRS, RJ_OBJ, RJ_ARR, RJ_JSON };

struct rj_schema;

struct rj_field {
    const char *name;
    enum rj_type type;
    size_t off, off_n; /* the member; its count (arrays) or has_ flag (objects) */
    long long arg;     /* flags, or the default of an INT or BOOL */
    const struct rj_schema *sub;
    const char *const *values; /* ENUM: the values it may hold, NULL-terminated */
};

struct rj_schema {
    size_t size;
    const struct rj_field *f;
    size_t nf;
};

/* The field lists of run_json.h as tables: RJ_T is the struct of the list
 * being expanded. */
#define RJ_F_STR(m, n, a)  {n, RJ_STR, offsetof(RJ_T, m), 0, (long long)(a), NULL, NULL},
#define RJ_F_ENUM(m, n, a) {n, RJ_STR, offsetof(RJ_T, m), 0, 0, NULL, rj_values_##a},
#define RJ_F_NUM(m, n, a)  {n, RJ_NUM, offsetof(RJ_T, m), 0, (long long)(a), NULL, NULL},
#define RJ_F_INT(m, n, a)  {n, RJ_INT, offsetof(RJ_T, m), 0, (long long)(a), NULL, NULL},
#define RJ_F_BOOL(m, n, a) {n, RJ_BOOL, offsetof(RJ_T, m), 0, (long long)(a), NULL, NULL},
#define RJ_F_TRI(m, n, a)  {n, RJ_TRI, offsetof(RJ_T, m), 0, 0, NULL, NULL},
#define RJ_F_NUMS(m, n, a)                                                                         \
    {n, RJ_NUMS, offsetof(RJ_T, m), offsetof(RJ_T, n_##m), (long long)(a), NULL, NULL},
#define RJ_F_STRS(m, n, a)                                                                         \
    {n, RJ_STRS, offsetof(RJ_T, m), offsetof(RJ_T, n_##m), (long long)(a), NULL, NULL},
#define RJ_F_OBJ(m, n, a) {n, RJ_OBJ, offsetof(RJ_T, m), offsetof(RJ_T, has_##m), 0, &rj_##a, NULL},
#define RJ_F_ARR(m, n, a) {n, RJ_ARR, offsetof(RJ_T, m), offsetof(RJ_T, n_##m), 0, &rj_##a, NULL},
#define RJ_F_OARR(m, n, a)                                                                         \
    {n, RJ_ARR, offsetof(RJ_T, m), offsetof(RJ_T, n_##m), QQB_RJ_OPT, &rj_##a, NULL},
#define RJ_F_JSON(m, n, a)   {n, RJ_JSON, offsetof(RJ_T, m), 0, 0, NULL, NULL},
#define RJ_FIELD(T, m, n, a) RJ_F_##T(m, n, a)
#define RJ_SCHEMA(name, list)                                                                      \
    static const struct rj_field rj_##name##_f[] = {list(RJ_FIELD)};                               \
    static const struct rj_schema rj_##name = {sizeof(RJ_T), rj_##name##_f,                        \
                                               sizeof rj_##name##_f / sizeof rj_##name##_f[0]};

/* The values of each ENUM field (run_json.h). */
static const char *const rj_values_kind[] = {QQB_RUN_KINDS, NULL};
static const char *const rj_values_figure[] = {QQB_RUN_FIGURES, NULL};

#define RJ_T struct qqb_run_mem
RJ_SCHEMA(mem, QQB_RUN_MEM_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_metric
RJ_SCHEMA(metric, QQB_RUN_METRIC_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_thread
RJ_SCHEMA(thread, QQB_RUN_THREAD_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_case
RJ_SCHEMA(case, QQB_RUN_CASE_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_cmp
RJ_SCHEMA(cmp, QQB_RUN_CMP_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_memchg
RJ_SCHEMA(memchg, QQB_RUN_MEMCHG_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_count
RJ_SCHEMA(count, QQB_RUN_COUNT_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run_fp
RJ_SCHEMA(fp, QQB_RUN_FP_FIELDS)
#undef RJ_T
#define RJ_T struct qqb_run
RJ_SCHEMA(run, QQB_RUN_FIELDS)
#undef RJ_T

/* A field of a struct at BASE, OFF bytes in. */
typedef json_t *rj_json;
typedef const char *rj_str;
typedef const char **rj_strs;
#define AT(base, off, type)  ((type *)(void *)((char *)(base) + (off)))
#define CAT(base, off, type) ((const type *)(const void *)((const char *)(base) + (off)))

/* An array member (double *, struct qqb_run_case *, ...) read or set as an
 * untyped pointer: copied, not read through another pointer type. */
static void *get_ptr(const void *o, size_t off)
{
    void *v;
    memcpy(&v, (const char *)o + off, sizeof v);
    return v;
}

static void set_ptr(void *o, size_t off, void *v)
{
    memcpy((char *)o + off, &v, sizeof v);
}

/* ======================================================================
 * Writing.
 * ====================================================================== */

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *obj_json(const struct rj_schema *s, const void *o);

static json_t *field_json(const struct rj_field *f, const void *o)
{
    switch (f->type) {
    case RJ_STR: {
        const char *v = *CAT(o, f->off, rj_str);
        return v ? json_string(v) : json_null();
    }
    case RJ_NUM:
        return jnum(*CAT(o, f->off, double));
    case RJ_INT:
        return json_integer((json_int_t)*CAT(o, f->off, long long));
    case RJ_BOOL:
        return json_boolean(*CAT(o, f->off, int));
    case RJ_TRI: {
        int v = *CAT(o, f->off, int);
        return v < 0 ? json_null() : json_boolean(v);
    }
    case RJ_NUMS: {
        const double *v = *CAT(o, f->off, double *);
        size_t n = *CAT(o, f->off_n, size_t);
        json_t *a = json_array();
        for (size_t i = 0; a && i < n; i++)
            json_array_append_new(a, jnum(v[i]));
        return a;
    }
    case RJ_STRS: {
        const char *const *v = *CAT(o, f->off, rj_strs);
        size_t n = *CAT(o, f->off_n, size_t);
        json_t *a = json_array();
        for (size_t i = 0; a && i < n; i++)
            json_array_append_new(a, json_string(v[i]));
        return a;
    }
    case RJ_OBJ:
        return obj_json(f->sub, CAT(o, f->off, char));
    case RJ_ARR: {
        const char *v = get_ptr(o, f->off);
        size_t n = *CAT(o, f->off_n, size_t);
        json_t *a = json_array();
        for (size_t i = 0; a && i < n; i++)
            json_array_append_new(a, obj_json(f->sub, v + i * f->sub->size));
        return a;
    }
    case RJ_JSON:
        return json_incref(*CAT(o, f->off, rj_json));
    }
    return NULL;
}

/* Whether F is written: optional fields only when present, JSON parts
 * only when there. */
static int field_written(const struct rj_field *f, const void *o)
{
    if (f->type == RJ_JSON)
        return *CAT(o, f->off, rj_json) != NULL;
    if (f->type == RJ_ARR && ((unsigned long long)f->arg & QQB_RJ_OPT))
        return *CAT(o, f->off_n, size_t) > 0;
    if (!(f->type == RJ_STR || f->type == RJ_NUM || f->type == RJ_NUMS || f->type == RJ_STRS) ||
        !((unsigned long long)f->arg & QQB_RJ_OPT))
        return 1;
    if (f->type == RJ_STR)
        return *CAT(o, f->off, rj_str) != NULL;
    if (f->type == RJ_NUM)
        return isfinite(*CAT(o, f->off, double));
    if (f->type == RJ_STRS) /* the reader makes an empty array of an absent one */
        return *CAT(o, f->off, rj_strs) != NULL && *CAT(o, f->off_n, size_t) > 0;
    return *CAT(o, f->off, double *) != NULL;
}

static json_t *obj_json(const struct rj_schema *s, const void *o)
{
    json_t *j = json_object();
    for (size_t i = 0; j && i < s->nf; i++)
        if (field_written(&s->f[i], o))
            json_object_set_new(j, s->f[i].name, field_json(&s->f[i], o));
    return j;
}

char *qqb_run_dumps(const struct qqb_run *run)
{
    json_t *root = obj_json(&rj_run, run);
    if (!root)
        return NULL;
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(root);
    return text;
}

/* ======================================================================
 * Reading.
 * ====================================================================== */

struct rj_reader {
    const char *path;
    char *err;
    size_t errlen;
};

static int rfail(struct rj_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rfail(struct rj_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* An INT: an integer as it is, a real truncated, anything else DFLT. */
static long long read_int(const json_t *v, long long dflt)
{
    if (json_is_integer(v))
        return (long long)json_integer_value(v);
    if (json_is_real(v) && isfinite(json_real_value(v)) && fabs(json_real_value(v)) < 9.2e18)
        return (long long)json_real_value(v);
    return dflt;
}

static int read_obj(struct rj_reader *r, const struct rj_schema *s, const json_t *j, void *o,
                    const char *where, int *keep);

static int read_array(struct rj_reader *r, const struct rj_field *f, const json_t *a, void *o,
                      const char *where)
{
    size_t n = json_is_array(a) ? json_array_size(a) : 0, got = 0;
    char *v = calloc(n ? n : 1, f->sub->size);
    if (!v)
        return rfail(r, "out of memory");
    set_ptr(o, f->off, v);
    for (size_t i = 0; i < n; i++) {
        /* Elements of the run's arrays are named by index, deeper ones by
         * their path alone: "cases[3].metrics[].key". */
        char w[160];
        if (*where)
            snprintf(w, sizeof w, "%s%s[].", where, f->name);
        else
            snprintf(w, sizeof w, "%s[%zu].", f->name, i);
        int keep = 1;
        if (read_obj(r, f->sub, json_array_get(a, i), v + got * f->sub->size, w, &keep) != 0) {
            *AT(o, f->off_n, size_t) = got + 1; /* freed whole */
            return -1;
        }
        got += (size_t)keep;
        if (!keep) /* what the dropped element allocated */
            memset(v + got * f->sub->size, 0, f->sub->size);
    }
    *AT(o, f->off_n, size_t) = got;
    return 0;
}

static int read_field(struct rj_reader *r, const struct rj_field *f, const json_t *v, void *o,
                      const char *where)
{
    switch (f->type) {
    case RJ_STR:
        *AT(o, f->off, const char *) = json_is_string(v) ? json_string_value(v) : NULL;
        return 0;
    case RJ_NUM:
        *AT(o, f->off, double) = json_is_number(v) ? json_number_value(v) : NAN;
        return 0;
    case RJ_INT:
        *AT(o, f->off, long long) = read_int(v, f->arg);
        return 0;
    case RJ_BOOL:
        *AT(o, f->off, int) = json_is_boolean(v) ? json_is_true(v) : (int)f->arg;
        return 0;
    case RJ_TRI:
        *AT(o, f->off, int) = json_is_boolean(v) ? json_is_true(v) : -1;
        return 0;
    case RJ_NUMS:
    case RJ_STRS: {
        if (!json_is_array(v))
            return 0;
        size_t n = json_array_size(v), got = 0;
        int nums = f->type == RJ_NUMS;
        void *a = calloc(n ? n : 1, nums ? sizeof(double) : sizeof(char *));
        if (!a)
            return rfail(r, "out of memory");
        for (size_t i = 0; i < n; i++) {
            const json_t *x = json_array_get(v, i);
            if (nums)
                ((double *)a)[got++] = json_is_number(x) ? json_number_value(x) : NAN;
            else if (json_is_string(x))
                ((const char **)a)[got++] = json_string_value(x);
        }
        set_ptr(o, f->off, a);
        *AT(o, f->off_n, size_t) = got;
        return 0;
    }
    case RJ_OBJ: {
        char w[160];
        snprintf(w, sizeof w, "%s%s.", where, f->name);
        *AT(o, f->off_n, int) = json_is_object(v);
        return read_obj(r, f->sub, v, AT(o, f->off, char), w, NULL);
    }
    case RJ_ARR:
        return read_array(r, f, v, o, where);
    case RJ_JSON:
        *AT(o, f->off, json_t *) = (json_t *)v;
        return 0;
    }
    return 0;
}

/* A value outside the ENUM F's set refuses the file, naming the field. */
static int check_value(struct rj_reader *r, const struct rj_field *f, const char *v,
                       const char *where)
{
    char set[160] = "";
    size_t k;
    for (k = 0; f->values[k]; k++) {
        if (!strcmp(v, f->values[k]))
            return 0;
        size_t at = strlen(set);
        snprintf(set + at, sizeof set - at, "%s'%s'", k ? ", " : "", f->values[k]);
    }
    struct qqb_qbuf q;
    return rfail(r, "%s: error: %s%s: '%s' is not one of its values; expected one of %s", r->path,
                 where, f->name, qqb_qs(&q, v), set);
}

/* A name that fails its rule refuses the file, naming the field; so does
 * an ENUM's value outside its set. */
static int check_name(struct rj_reader *r, const struct rj_field *f, const char *v,
                      const char *where)
{
    if (v && f->values)
        return check_value(r, f, v, where);
    unsigned fl = (unsigned)f->arg;
    if (!v || !(fl & (QQB_RJ_PLAIN | QQB_RJ_TEXT)))
        return 0;
    enum qqb_name_kind kind = fl & QQB_RJ_PLAIN ? QQB_NAME_PLAIN : QQB_NAME_TEXT;
    char why[80];
    if (qqb_name_check(kind, v, why, sizeof why) == 0)
        return 0;
    struct qqb_qbuf q;
    return rfail(r, "%s: error: %s%s: the name '%s' %s; expected %s", r->path, where, f->name,
                 qqb_qs(&q, v), why, qqb_name_rule(kind));
}

/* Read object J (absent: every field absent) into O. KEEP is NULL but for
 * an array element: one that lacks a KEEP field gets *KEEP = 0, one that
 * lacks a MUST field refuses the file. Names are checked after, in the
 * list's order. */
static int read_obj(struct rj_reader *r, const struct rj_schema *s, const json_t *j, void *o,
                    const char *where, int *keep)
{
    for (size_t i = 0; keep && i < s->nf; i++) {
        const struct rj_field *f = &s->f[i];
        unsigned fl = f->type == RJ_STR ? (unsigned)f->arg : 0;
        const json_t *v = json_object_get(j, f->name);
        if ((fl & QQB_RJ_MUST) && !json_is_string(v))
            return rfail(r, "%s: error: %.*s has no \"%s\"", r->path,
                         (int)(strlen(where) ? strlen(where) - 1 : 0), where, f->name);
        if ((fl & QQB_RJ_KEEP) && !json_is_string(v)) {
            *keep = 0;
            return 0;
        }
    }
    for (size_t i = 0; i < s->nf; i++) {
        const struct rj_field *f = &s->f[i];
        if (f->type == RJ_STR &&
            check_name(r, f, json_string_value(json_object_get(j, f->name)), where) != 0)
            return -1;
        if (f->type == RJ_ARR || f->type == RJ_OBJ)
            continue;
        if (read_field(r, f, json_object_get(j, f->name), o, where) != 0)
            return -1;
    }
    /* Arrays and objects last, so an element's own names are checked
     * before those of what it holds. */
    for (size_t i = 0; i < s->nf; i++) {
        const struct rj_field *f = &s->f[i];
        if ((f->type == RJ_ARR || f->type == RJ_OBJ) &&
            read_field(r, f, json_object_get(j, f->name), o, where) != 0)
            return -1;
    }
    return 0;
}

int qqb_run_read(const char *path, struct qqb_run *run, char *err, size_t errlen)
{
    memset(run, 0, sizeof *run);
    struct rj_reader r = {path, err, errlen};
    json_error_t je;
    run->doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!run->doc) {
        if (je.line <= 0)
            return rfail(&r, "%s: error: %s", path, je.text);
        return rfail(&r, "%s:%d:%d: error: %s", path, je.line, je.column > 0 ? je.column : 1,
                     je.text);
    }
    if (!json_is_object(run->doc) || !json_is_array(json_object_get(run->doc, "cases")))
        return rfail(&r,
                     "%s: error: not a qqbench run report (expected an object with a "
                     "\"cases\" array, as 'qqbench run --json' writes)",
                     path);
    return read_obj(&r, &rj_run, run->doc, run, "", NULL);
}

/* ======================================================================
 * Freeing.
 * ====================================================================== */

static void free_obj(const struct rj_schema *s, void *o)
{
    for (size_t i = 0; i < s->nf; i++) {
        const struct rj_field *f = &s->f[i];
        if (f->type == RJ_NUMS || f->type == RJ_STRS) {
            free(get_ptr(o, f->off));
        } else if (f->type == RJ_OBJ) {
            free_obj(f->sub, AT(o, f->off, char));
        } else if (f->type == RJ_ARR) {
            char *v = get_ptr(o, f->off);
            size_t n = *AT(o, f->off_n, size_t);
            for (size_t k = 0; v && k < n; k++)
                free_obj(f->sub, v + k * f->sub->size);
            free(v);
        }
    }
}

void qqb_run_free(struct qqb_run *run)
{
    if (!run)
        return;
    free_obj(&rj_run, run);
    if (run->doc)
        json_decref(run->doc);
    memset(run, 0, sizeof *run);
}

/* ---------------------------------------------------------------------
 * The models and the signatures (judge/'s judgements as the run JSON's
 * "models" and "signatures").
 * --------------------------------------------------------------------- */

json_t *qqb_model_fit_json(const struct qqb_model *m, const struct qqb_fit *f,
                           const struct qqb_model_points *p)
{
    json_t *c = json_array(), *se = json_array(), *pts = json_array();
    size_t np = (size_t)(m->nparams ? m->nparams : 1);
    for (int t = 0; t < m->nterms; t++) {
        json_array_append_new(c, json_real(f->c[t]));
        json_array_append_new(se, json_real(f->se[t]));
    }
    for (size_t k = 0; k < p->n; k++) {
        json_t *x = json_array();
        for (int i = 0; i < m->nparams; i++)
            json_array_append_new(x, json_real(p->x[k * np + (size_t)i]));
        double fy = qqb_model_predict(m, f, p->x + k * np, 0.95, NULL);
        json_array_append_new(pts, json_pack("{s:o, s:f, s:o, s:f}", "x", x, "y", p->y[k], "sigma",
                                             p->sigma ? json_real(p->sigma[k]) : json_null(), "fit",
                                             isfinite(fy) ? fy : 0.0));
    }
    return json_pack("{s:o, s:o, s:f, s:f, s:f, s:b, s:o}", "coefficients", c, "std_errors", se,
                     "chi2", f->chisq, "dof", f->dof, "r2", isfinite(f->r2) ? f->r2 : 0.0,
                     "weighted", f->weighted, "points", pts);
}

json_t *qqb_model_judgement_json(const struct qqb_model_judgement *j)
{
    json_t *a = json_array();
    for (size_t i = 0; i < j->n; i++) {
        const struct qqb_model_row *r = &j->rows[i];
        json_t *terms = json_array(), *params = json_array(), *z = json_array(),
               *grew = json_array();
        for (int t = 0; t < r->m.nterms; t++) {
            json_array_append_new(terms, json_string(r->m.t[t].text));
            json_array_append_new(z, r->gated && isfinite(r->g.z[t]) ? json_real(r->g.z[t])
                                                                     : json_null());
            json_array_append_new(grew, json_boolean(r->g.flagged[t]));
        }
        for (int k = 0; k < r->m.nparams; k++)
            json_array_append_new(params, json_string(r->m.params[k]));
        char formula[512];
        qqb_model_formula_text(&r->m, formula, sizeof formula);
        json_t *o =
            json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "series", r->label, "key", r->key, "metric",
                      QQB_VERDICT_METRIC, "formula", formula, "terms", terms, "params", params);
        json_object_set_new(o, "current",
                            r->have_cur ? qqb_model_fit_json(&r->m, &r->cur, &r->pc) : json_null());
        json_object_set_new(o, "baseline",
                            r->have_base ? qqb_model_fit_json(&r->m, &r->base, &r->pb)
                                         : json_null());
        json_object_set_new(o, "z", z);
        json_object_set_new(o, "grew", grew);
        json_object_set_new(o, "regressed", json_boolean(r->g.regressed));
        json_object_set_new(o, "baseline_runs", json_integer((json_int_t)r->g.runs));
        json_object_set_new(o, "p_value", r->gated ? json_real(r->g.p_row) : json_null());
        json_object_set_new(o, "note", r->why[0] ? json_string(r->why) : json_null());
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *jn(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *qqb_sig_judgement_json(const struct qqb_sig_judgement *j)
{
    json_t *a = json_array();
    for (size_t i = 0; i < j->n; i++) {
        const struct qqb_sig_row *r = &j->rows[i];
        json_t *o = json_object();
        json_object_set_new(o, "case", json_string(r->case_name));
        json_object_set_new(o, "key", json_string(r->key));
        json_t *s = json_object();
        for (size_t f = 0; f < QQB_SIG_NFIELDS; f++) {
            double v;
            const char *name = qqb_sig_field(&r->s, f, &v);
            json_object_set_new(s, name, json_real(v));
        }
        json_object_set_new(o, "signature", s);
        json_object_set_new(o, "traced", json_boolean(r->traced));
        json_object_set_new(o, "measured_s", jn(r->measured));
        json_object_set_new(o, "predicted_s", jn(r->predicted));
        if (j->profile) {
            json_object_set_new(o, "memory_s", jn(r->parts[QQB_RES_MEMORY]));
            json_object_set_new(o, "flops_s", jn(r->parts[QQB_RES_FLOPS]));
            json_object_set_new(o, "network_s", jn(r->parts[QQB_RES_NETWORK]));
            json_object_set_new(o, "latency_s", jn(r->parts[QQB_RES_LATENCY]));
            json_object_set_new(o, "bound", json_string(qqb_sig_resource_name(r->bound)));
        }
        if (r->cross) {
            json_object_set_new(o, "baseline_machine", json_string(j->base_id));
            json_object_set_new(o, "baseline_measured_s", jn(r->base_measured));
            json_object_set_new(o, "baseline_predicted_s", jn(r->base_predicted));
            json_object_set_new(o, "measured_ratio", jn(r->measured_ratio));
            json_object_set_new(o, "predicted_ratio", jn(r->predicted_ratio));
            json_object_set_new(o, "explained", jn(r->explained));
        }
        json_array_append_new(a, o);
    }
    return a;
}

int qqb_run_model_fit_read(const json_t *fit, const struct qqb_model *m, struct qqb_fit *f,
                           struct qqb_run_fit_point *pts, size_t max, size_t *npts)
{
    memset(f, 0, sizeof *f);
    *npts = 0;
    json_t *c = json_object_get(fit, "coefficients");
    if (!json_is_array(c) || json_array_size(c) != (size_t)m->nterms)
        return -1;
    for (int t = 0; t < m->nterms; t++)
        f->c[t] = json_number_value(json_array_get(c, (size_t)t));
    f->p = m->nterms;
    json_t *all = json_object_get(fit, "points"), *pt;
    size_t i;
    json_array_foreach(all, i, pt)
    {
        if (*npts == max)
            break;
        struct qqb_run_fit_point *p = &pts[(*npts)++];
        json_t *x = json_object_get(pt, "x");
        for (int k = 0; k < m->nparams; k++)
            p->x[k] = json_number_value(json_array_get(x, (size_t)k));
        p->y = json_number_value(json_object_get(pt, "y"));
        json_t *s = json_object_get(pt, "sigma");
        p->sigma = json_is_number(s) ? json_number_value(s) : 0;
        p->fit = json_number_value(json_object_get(pt, "fit"));
    }
    return 0;
}

void qqb_run_model_row(const json_t *row, const char **formula, const char **series,
                       const json_t **cur, const json_t **base)
{
    *formula = json_string_value(json_object_get(row, "formula"));
    *series = json_string_value(json_object_get(row, "series"));
    *cur = json_object_get(row, "current");
    *base = json_object_get(row, "baseline");
    if (!json_is_object(*cur))
        *cur = NULL;
    if (!json_is_object(*base))
        *base = NULL;
}
