/* baseline_read.c - the strict baseline reader: every field checked, every error positioned. */
#include "baseline_rd.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild.h"
#include "strmap.h"

/* ---- fingerprint ---- */

enum { F_ID, F_CPU, F_MHZ, F_INVARIANT, F_CORES, F_COMPILER, F_FLAGS, NFP };
static const char *const fp_fields[NFP] = {"id",    "cpu",      "tick_mhz", "invariant",
                                           "cores", "compiler", "flags"};

static int read_fp(struct rd *r, struct qqb_fingerprint *fp)
{
    yaml_mark_t start;
    unsigned seen = 0;
    int k = -1, rc;
    uint64_t u = 0;

    if (qqb__rd_expect(r, YAML_MAPPING_START_EVENT, "a mapping", "fingerprint"))
        return -1;
    start = r->y.ev.start_mark;
    while ((rc = qqb__rd_next_key(r, fp_fields, NFP, &seen, &k)) == 1) {
        switch (k) {
        case F_ID:
            rc = qqb__rd_fixed(r, "id", fp->id, sizeof fp->id);
            if (!rc && !qqb__bl_plain_name(fp->id))
                rc = qqb__rd_fail(r, qqb__rd_here(r),
                                  "invalid fingerprint id; expected "
                                  "letters, digits, '_', '.' or '-'");
            if (!rc)
                rc = qqb__rd_path_field(r, "fingerprint id", fp->id, r->want_id);
            break;
        case F_CPU:
            rc = qqb__rd_fixed(r, "cpu", fp->cpu, sizeof fp->cpu);
            break;
        case F_MHZ:
            rc = qqb__rd_double(r, "tick_mhz", 1, &fp->mhz);
            break;
        case F_INVARIANT:
            rc = qqb__rd_bool(r, "invariant", &fp->invariant);
            break;
        case F_CORES:
            rc = qqb__rd_u64(r, "cores", INT_MAX, &u);
            fp->cores = (int)u;
            break;
        case F_COMPILER:
            rc = qqb__rd_fixed(r, "compiler", fp->compiler, sizeof fp->compiler);
            break;
        case F_FLAGS:
            rc = qqb__rd_fixed(r, "flags", fp->flags, sizeof fp->flags);
            break;
        default:
            rc = qqb_ycur_next(&r->y) || qqb_ycur_skip(&r->y);
            break;
        }
        if (rc)
            return -1;
    }
    if (rc < 0)
        return -1;
    return qqb__rd_required(r, &start, fp_fields, NFP, (1u << NFP) - 1, seen, "the fingerprint");
}

/* ---- metrics ---- */

enum { M_KEY, M_WHAT, M_MEDIAN, M_MAD, M_NOISE, M_MIN, M_SAMPLES, M_RUN, M_LAUNCH, NMET };
static const char *const met_fields[NMET] = {"key", "what",    "median", "mad",   "noise_pct",
                                             "min", "samples", "run",    "launch"};

/* Samples are ticks, counts or ratios of them: 0 to SAMPLE_MAX (1e15 ticks
 * is 5 days at 2 GHz per hit), but for the figures of counts and values,
 * which may be negative or large ("sum", "mean") and the raw net figures
 * ("per_hit_raw", "mean_hit": the empty state's cost taken from a short
 * interval can leave them below 0). Finite either way. */
#define SAMPLE_MAX 1e15

static int signed_metric(const char *what)
{
    static const char *const whats[] = {"sum", "mean", "per_hit_raw", "mean_hit"};
    for (size_t i = 0; i < sizeof whats / sizeof whats[0]; i++)
        if (what && !strcmp(what, whats[i]))
            return 1;
    return 0;
}

static int read_metric(struct rd *r, void *ctx)
{
    struct qqb_case_result *c = ctx;
    yaml_mark_t start = r->y.ev.start_mark;
    char *key = NULL, *what = NULL;
    double *v = NULL, d;
    yaml_mark_t *marks = NULL;
    uint32_t *run = NULL, *launch = NULL;
    size_t n = 0, nrun = 0, nlaunch = 0;
    unsigned seen = 0;
    int k = -1, rc;

    while ((rc = qqb__rd_next_key(r, met_fields, NMET, &seen, &k)) == 1) {
        switch (k) {
        case M_KEY:
            rc = qqb__rd_name(r, "key", &key);
            break;
        case M_WHAT:
            rc = qqb__rd_string(r, "what", &what, 0);
            break;
        case M_MEDIAN:
        case M_MAD:
        case M_NOISE:
        case M_MIN:
            /* Summaries are derived from the samples; only their syntax
             * is checked. */
            rc = qqb__rd_double(r, met_fields[k], 0, &d);
            break;
        case M_SAMPLES:
            rc = qqb__rd_double_list(r, "samples", &v, &n, &marks);
            break;
        case M_RUN:
            rc = qqb__rd_u32_list(r, "run", &run, &nrun);
            break;
        case M_LAUNCH:
            rc = qqb__rd_u32_list(r, "launch", &launch, &nlaunch);
            break;
        default:
            rc = qqb_ycur_next(&r->y) || qqb_ycur_skip(&r->y);
            break;
        }
        if (rc)
            break;
    }
    if (rc == 0)
        rc = qqb__rd_required(r, &start, met_fields, NMET,
                              1u << M_KEY | 1u << M_WHAT | 1u << M_SAMPLES, seen, "the metric");
    if (rc == 0 && ((run && nrun != n) || (launch && nlaunch != n)))
        rc =
            qqb__rd_fail(r, &start,
                         "the metric's '%s' has %zu entries for %zu "
                         "samples",
                         run && nrun != n ? "run" : "launch", run && nrun != n ? nrun : nlaunch, n);
    for (size_t i = 0; rc == 0 && i < n && !signed_metric(what); i++)
        if (!(v[i] >= 0 && v[i] <= SAMPLE_MAX)) {
            struct qqb_qbuf b;
            rc = qqb__rd_fail(r, &marks[i],
                              "sample %.6g of '%s' (%s) is out of range: expected 0 to %g", v[i],
                              qqb_qs(&b, key), what, SAMPLE_MAX);
        }
    if (rc == 0 && qqb_case_find_metric(c, key, what)) {
        struct qqb_qbuf b;
        rc = qqb__rd_fail(r, &start, "metric '%s' (%s) is given twice", qqb_qs(&b, key), what);
    }
    if (rc == 0) {
        struct qqb_metric *m = qqb_case_metric(c, key, what);
        uint32_t count[64] = {0};
        if (!m)
            rc = qqb__rd_fail(r, &start, "out of memory");
        for (size_t i = 0; m && i < n && rc == 0; i++) {
            /* Defaults: run 0; launches counted within each run. */
            uint32_t ru = run ? run[i] : 0;
            uint32_t la = launch ? launch[i] : ru < 64 ? count[ru] : 0;
            if (ru < 64)
                count[ru]++;
            if (qqb_metric_add_at(m, v[i], ru, la))
                rc = qqb__rd_fail(r, &start, "out of memory");
        }
    }
    free(key);
    free(what);
    free(v);
    free(marks);
    free(run);
    free(launch);
    return rc ? -1 : 0;
}

/* ---- memory rows ---- */

/* peak_low (the peak's lower bound, where it is not exact) is the one
 * optional field. */
enum { R_KEY, R_OBJ_SIZE, R_CREATED, R_DELETED, R_OBJ_BYTES, R_ALLOC, R_PEAK, R_PEAK_LOW, NROW };
static const char *const row_fields[NROW] = {"key",       "obj_size",    "created",    "deleted",
                                             "obj_bytes", "alloc_bytes", "peak_bytes", "peak_low"};

/* One memory row (its mapping start is current), appended to the case CTX. */
static int read_mem(struct rd *r, void *ctx)
{
    struct qqb_case_result *c = ctx;
    yaml_mark_t start = r->y.ev.start_mark;
    struct qqb_mem row = {0};
    uint64_t low = 0;
    uint64_t *val[NROW] = {NULL,           &row.obj_size,    &row.created,    &row.deleted,
                           &row.obj_bytes, &row.alloc_bytes, &row.peak_bytes, &low};
    unsigned seen = 0;
    int k = -1, rc;

    while ((rc = qqb__rd_next_key(r, row_fields, NROW, &seen, &k)) == 1) {
        if (k == R_KEY)
            rc = qqb__rd_name(r, "key", &row.key);
        else if (k > 0)
            rc = qqb__rd_u64(r, row_fields[k], UINT64_MAX, val[k]);
        else
            rc = qqb_ycur_next(&r->y) || qqb_ycur_skip(&r->y);
        if (rc)
            break;
    }
    if (rc == 0)
        rc = qqb__rd_required(r, &start, row_fields, NROW, (1u << R_PEAK_LOW) - 1, seen,
                              "the memory row");
    if (rc == 0 && (seen & (1u << R_PEAK_LOW))) {
        if (low > row.peak_bytes)
            rc = qqb__rd_fail(r, &start, "peak_low %llu is above peak_bytes %llu",
                              (unsigned long long)low, (unsigned long long)row.peak_bytes);
        else
            row.peak_gap = row.peak_bytes - low;
    }
    /* Every stored row has its key (the field is required). */
    for (size_t i = 0; rc == 0 && row.key && i < c->nmem; i++)
        if (!strcmp(c->mem[i].key, row.key)) { // NOLINT(clang-analyzer-core.NonNullParamChecker)
            struct qqb_qbuf b;
            rc = qqb__rd_fail(r, &start, "memory key '%s' is given twice", qqb_qs(&b, row.key));
        }
    /* Room for 8, then doubled at each power of two. */
    size_t n = c->nmem;
    if (rc == 0 && (n == 0 || (n >= 8 && !(n & (n - 1))))) {
        struct qqb_mem *nv = realloc(c->mem, (n ? 2 * n : 8) * sizeof *nv);
        if (!nv)
            rc = qqb__rd_fail(r, &start, "out of memory");
        else
            c->mem = nv;
    }
    if (rc) {
        free(row.key);
        return -1;
    }
    /* nmem < cap here, so mem was allocated above. */
    c->mem[c->nmem++] = row; // NOLINT(clang-analyzer-core.NullDereference)
    return 0;
}

/* ---- cases ---- */

enum {
    C_NAME,
    C_BENCH,
    C_VARIANT,
    C_POINT,
    C_NODES,
    C_MHZ,
    C_LAUNCHES,
    C_FAILURES,
    C_FAILURE,
    C_METRICS,
    C_MEMORY,
    C_COMMAND,
    C_RUNS,
    C_BUILD_ID,
    C_COMPILER,
    C_PRODUCER,
    C_METRIC,
    NCASE
};
static const char *const case_fields[NCASE] = {
    "name",     "bench",    "variant",  "point",    "nodes",  "tick_mhz",
    "launches", "failures", "failure",  "metrics",  "memory", "command",
    "runs",     "build_id", "compiler", "producer", "metric"};

/* A kernel build's list of strings (kbuild.h): at most QQB_KBUILD_MAX, as
 * the writer keeps (the comparison of two lists is quadratic). */
static int read_build_list(struct rd *r, const char *field, char ***dst)
{
    yaml_mark_t at = *qqb__rd_here(r);
    int rc = qqb__rd_strv(r, field, dst);
    size_t n = 0;
    while (rc == 0 && (*dst)[n])
        n++;
    if (rc == 0 && n > QQB_KBUILD_MAX)
        rc = qqb__rd_fail(r, &at, "'%s' holds %zu strings; at most %d", field, n, QQB_KBUILD_MAX);
    return rc;
}

/* The value of case field K (a C_x) into C. */
static int case_field(struct rd *r, struct qqb_case_result *c, int k)
{
    /* The string fields; the first two may not be null. */
    char **str[] = {&c->name, &c->bench, &c->variant, &c->point};
    uint64_t u = 0;
    int rc;

    switch (k) {
    case C_NAME:
    case C_BENCH:
    case C_VARIANT:
    case C_POINT:
        rc = qqb__rd_string(r, case_fields[k], str[k], k >= C_VARIANT);
        break;
    case C_NODES:
        rc = qqb__rd_u64(r, "nodes", INT_MAX, &u);
        if (!rc && u == 0)
            rc = qqb__rd_fail(r, qqb__rd_here(r), "'nodes' must be at least 1");
        c->nodes = (int)u;
        break;
    case C_MHZ:
        rc = qqb__rd_double(r, "tick_mhz", 0, &c->mhz);
        break;
    case C_LAUNCHES:
        rc = qqb__rd_u64(r, "launches", SIZE_MAX, &u);
        c->launches = (size_t)u;
        break;
    case C_FAILURES:
        rc = qqb__rd_u64(r, "failures", SIZE_MAX, &u);
        c->failures = (size_t)u;
        break;
    case C_FAILURE:
        rc = qqb__rd_string(r, "failure", &c->failure, 1);
        break;
    case C_METRICS:
        rc =
            qqb__rd_each(r, "metrics", "a list of metrics", "a metric (a mapping)", read_metric, c);
        break;
    case C_MEMORY:
        rc = qqb__rd_each(r, "memory", "a list of memory rows", "a memory row (a mapping)",
                          read_mem, c);
        break;
    case C_COMMAND:
        rc = qqb__rd_strv(r, "command", &c->command);
        break;
    case C_RUNS:
        rc = qqb__rd_u64(r, "runs", 1u << 16, &u);
        if (!rc && u == 0)
            rc = qqb__rd_fail(r, qqb__rd_here(r), "'runs' must be at least 1");
        c->runs = (size_t)u;
        break;
    case C_BUILD_ID:
        rc = qqb__rd_string(r, "build_id", &c->build.id, 0);
        break;
    case C_METRIC:
        /* What the case was measured for: counts ("instructions") or both. */
        rc = qqb__rd_string(r, "metric", &c->metric, 0);
        if (!rc && strcmp(c->metric, "instructions") && strcmp(c->metric, "both"))
            rc = qqb__rd_fail(r, qqb__rd_here(r), "'metric' must be instructions or both");
        break;
    case C_COMPILER:
    case C_PRODUCER:
        rc = read_build_list(r, case_fields[k],
                             k == C_COMPILER ? &c->build.compiler : &c->build.producer);
        break;
    default:
        rc = qqb_ycur_next(&r->y) || qqb_ycur_skip(&r->y);
        break;
    }
    return rc;
}

/* The case C (its mapping at START, fields SEEN) checked whole and moved
 * into OUT: 0, or -1 with C freed. */
static int case_whole(struct rd *r, struct qqb_case_result *c, const yaml_mark_t *start,
                      unsigned seen, struct qqb_results *out)
{
    int rc = qqb__rd_required(r, start, case_fields, NCASE,
                              1u << C_NAME | 1u << C_BENCH | 1u << C_NODES | 1u << C_MHZ |
                                  1u << C_LAUNCHES | 1u << C_METRICS,
                              seen, "the case");
    if (rc == 0) {
        int added = qqb_strmap_add(&r->cases, 0, c->name, out->ncases, NULL);
        if (added < 0)
            rc = qqb__rd_fail(r, start, "out of memory");
        else if (added == 0) {
            struct qqb_qbuf b;
            rc = qqb__rd_fail(r, start, "case '%s' is given twice", qqb_qs(&b, c->name));
        }
    }
    for (size_t i = 0; rc == 0 && i < c->nmetrics; i++)
        for (size_t j = 0; rc == 0 && j < c->metrics[i].n; j++)
            if (c->metrics[i].run[j] >= c->runs) {
                struct qqb_qbuf b;
                rc = qqb__rd_fail(r, start,
                                  "metric '%s' (%s) has a sample of run %u "
                                  "but the case holds %zu run%s",
                                  qqb_qs(&b, c->metrics[i].key), c->metrics[i].what,
                                  (unsigned)c->metrics[i].run[j], c->runs, c->runs == 1 ? "" : "s");
            }
    if (rc == 0) {
        /* A new slot holding only the name (the name is new: checked
         * above): take it. */
        struct qqb_case_result *slot = qqb_results_append(out, c->name);
        if (!slot) {
            (void)qqb__rd_fail(r, start, "out of memory");
        } else {
            free(slot->name);
            *slot = *c;
            return 0;
        }
    }
    qqb_case_result_free(c);
    return -1;
}

/* One case (its mapping start is current), moved into the results CTX when whole. */
static int read_case(struct rd *r, void *ctx)
{
    struct qqb_results *out = ctx;
    yaml_mark_t start = r->y.ev.start_mark;
    struct qqb_case_result c;
    unsigned seen = 0;
    int k = -1, rc;

    memset(&c, 0, sizeof c);
    c.runs = 1;
    while ((rc = qqb__rd_next_key(r, case_fields, NCASE, &seen, &k)) == 1) {
        if ((rc = case_field(r, &c, k)))
            break;
    }
    if (rc) {
        qqb_case_result_free(&c);
        return -1;
    }
    return case_whole(r, &c, &start, seen, out);
}

/* ---- the document ---- */

enum {
    T_VERSION,
    T_SUITE,
    T_LABEL,
    T_DATE,
    T_QQB_VERSION,
    T_COMMIT,
    T_FP,
    T_CASES,
    T_VERDICTS,
    NTOP
};
static const char *const top_fields[NTOP] = {
    "qqbench_baseline", "suite",       "label", "date",    "qqbench_version",
    "git_commit",       "fingerprint", "cases", "verdicts"};

/* ---- verdicts (history snapshots) ---- */

enum { V_CASE, V_KEY, V_VERDICT, NVERD };
static const char *const verd_fields[NVERD] = {"case", "key", "verdict"};

/* One {case, key, verdict} mapping, its start current, into the results CTX. */
static int read_verdict(struct rd *r, void *ctx)
{
    struct qqb_results *out = ctx;
    yaml_mark_t start = r->y.ev.start_mark;
    struct qqb_verdict_note v = {0};
    unsigned seen = 0;
    int k = -1, rc;

    /* Room for 64, then doubled at each power of two. */
    size_t n = out->nverdicts;
    if (n == 0 || (n >= 64 && !(n & (n - 1)))) {
        struct qqb_verdict_note *nv =
            realloc(out->verdicts, (n ? 2 * n : 64) * sizeof *out->verdicts);
        if (!nv)
            return qqb__rd_fail(r, qqb__rd_here(r), "out of memory");
        out->verdicts = nv;
    }
    char **dst[NVERD] = {&v.case_name, &v.key, &v.verdict};
    while ((rc = qqb__rd_next_key(r, verd_fields, NVERD, &seen, &k)) == 1) {
        rc = k == V_CASE || k == V_KEY ? qqb__rd_name(r, verd_fields[k], dst[k])
             : k >= 0                  ? qqb__rd_string(r, verd_fields[k], dst[k], 0)
                                       : qqb_ycur_next(&r->y) || qqb_ycur_skip(&r->y);
        if (rc)
            break;
    }
    if (rc == 0 && qqb__rd_required(r, &start, verd_fields, NVERD, (1u << NVERD) - 1, seen,
                                    "a verdict") == 0) {
        out->verdicts[out->nverdicts++] = v;
        return 0;
    }
    free(v.case_name);
    free(v.key);
    free(v.verdict);
    return -1;
}

/* The first field, 'qqbench_baseline: VERSION', of a version this code
 * reads. The version comes first, so a future format is named as such
 * rather than reported as whatever field it changed. */
static int read_version(struct rd *r)
{
    uint64_t ver;

    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT || strcmp(qqb__rd_sval(r), "qqbench_baseline"))
        return qqb__rd_fail(r, qqb__rd_here(r),
                            "expected 'qqbench_baseline: %d' as the first "
                            "field; is this a qqbench baseline?",
                            QQB_BASELINE_VERSION);
    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT || r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        strspn(qqb__rd_sval(r), "0123456789") != strlen(qqb__rd_sval(r)) || !*qqb__rd_sval(r))
        return qqb__rd_mismatch(r, "a version number", "qqbench_baseline");
    ver = strtoull(qqb__rd_sval(r), NULL, 10);
    if (ver < QQB_BASELINE_VERSION_MIN || ver > QQB_BASELINE_VERSION) {
        struct qqb_qbuf b;
        return qqb__rd_fail(r, qqb__rd_here(r),
                            "unsupported baseline version %s (this "
                            "qqbench reads versions %d to %d); a newer qqbench wrote it?",
                            qqb_qs(&b, qqb__rd_sval(r)), QQB_BASELINE_VERSION_MIN,
                            QQB_BASELINE_VERSION);
    }
    return 0;
}

static int read_doc(struct rd *r, struct qqb_results *out)
{
    yaml_mark_t start = r->y.ev.start_mark;
    unsigned seen = 1u << T_VERSION;
    int k = -1, rc;

    if (read_version(r))
        return -1;
    while ((rc = qqb__rd_next_key(r, top_fields, NTOP, &seen, &k)) == 1) {
        switch (k) {
        case T_VERSION:
            rc = -1; /* next_key already reported it twice */
            break;
        case T_SUITE:
            rc = qqb__rd_string(r, "suite", &out->suite, 0);
            if (!rc && !qqb__bl_plain_name(out->suite))
                rc = qqb__rd_fail(r, qqb__rd_here(r),
                                  "invalid suite name; expected letters, "
                                  "digits, '_', '.' or '-'");
            if (!rc)
                rc = qqb__rd_path_field(r, "suite", out->suite, r->want_suite);
            break;
        case T_LABEL:
            rc = qqb__rd_string(r, "label", &out->label, 1);
            break;
        case T_DATE:
            rc = qqb__rd_string(r, "date", &out->date, 0);
            break;
        case T_QQB_VERSION:
            rc = qqb__rd_string(r, "qqbench_version", &out->version, 0);
            break;
        case T_COMMIT:
            rc = qqb__rd_string(r, "git_commit", &out->commit, 1);
            break;
        case T_FP:
            rc = read_fp(r, &out->fp);
            break;
        case T_CASES:
            rc = qqb__rd_each(r, "cases", "a list of cases", "a case (a mapping)", read_case, out);
            break;
        case T_VERDICTS:
            rc = qqb__rd_each(r, "verdicts", "a list of verdicts", "a verdict (a mapping)",
                              read_verdict, out);
            break;
        default:
            /* Unknown top-level fields are a later version's additions. */
            rc = qqb_ycur_next(&r->y) || qqb_ycur_skip(&r->y);
            break;
        }
        if (rc)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (qqb__rd_required(r, &start, top_fields, NTOP,
                         1u << T_SUITE | 1u << T_DATE | 1u << T_QQB_VERSION | 1u << T_FP |
                             1u << T_CASES,
                         seen, "the baseline"))
        return -1;
    if (qqb__rd_expect(r, YAML_DOCUMENT_END_EVENT, "the end of the document", NULL))
        return -1;
    if (r->y.ev.data.document_end.implicit)
        return qqb__rd_fail(r, qqb__rd_here(r),
                            "the file is truncated: the end marker '...' "
                            "that every baseline ends with is missing");
    if (qqb_ycur_next(&r->y))
        return -1;
    if (r->y.ev.type != YAML_STREAM_END_EVENT)
        return qqb__rd_fail(r, qqb__rd_here(r),
                            "a second YAML document; a baseline is one "
                            "document");
    return 0;
}

int qqb_baseline_read(const char *path, struct qqb_results *out, char *err, size_t errlen)
{
    return qqb_baseline_read_as(path, NULL, NULL, out, err, errlen);
}

int qqb_baseline_read_as(const char *path, const char *suite, const char *fp_id,
                         struct qqb_results *out, char *err, size_t errlen)
{
    struct rd r;
    int rc;

    memset(out, 0, sizeof *out);
    memset(&r, 0, sizeof r);
    r.want_suite = suite;
    r.want_id = fp_id;
    if (!path)
        return qqb__bl_ferr(err, errlen, "(null)", "no path");
    rc = qqb__rd_open(&r, path, err, errlen);
    if (rc == 0)
        rc = read_doc(&r, out);
    qqb_ycur_close(&r.y);
    qqb_strmap_free(&r.cases);
    if (rc) {
        qqb_results_free(out);
        return -1;
    }
    return 0;
}

/* The date and label at the top of a baseline, without reading its cases. */
void qqb__bl_peek_header(const char *path, char **date, char **label)
{
    struct rd r;
    char err[8];
    int depth = 0, want = 0; /* want: 1 date, 2 label */

    memset(&r, 0, sizeof r);
    if (qqb__rd_open(&r, path, err, sizeof err) == 0) {
        while (qqb_ycur_next(&r.y) == 0) {
            yaml_event_type_t t = r.y.ev.type;
            if (t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT)
                depth++;
            else if (t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT)
                depth--;
            if (depth < 0 || (*date && *label))
                break;
            if (depth != 0 || t != YAML_SCALAR_EVENT) {
                want = 0;
                continue;
            }
            if (want) {
                char **dst = want == 1 ? date : label;
                if (!*dst)
                    *dst = strdup(qqb__rd_sval(&r));
                want = 0;
            } else if (!strcmp(qqb__rd_sval(&r), "date")) {
                want = 1;
            } else if (!strcmp(qqb__rd_sval(&r), "label")) {
                want = 2;
            } else if (!strcmp(qqb__rd_sval(&r), "cases")) {
                break; /* the header is over */
            } else {
                want = 3; /* a value to pass over */
            }
            if (want == 3) {
                if (qqb_ycur_next(&r.y) || qqb_ycur_skip(&r.y))
                    break;
                want = 0;
            }
        }
    }
    qqb_ycur_close(&r.y);
}
