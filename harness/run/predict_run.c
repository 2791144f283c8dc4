/* predict_run.c - qqbench predict: a run's signatures (qqbench run --json) convolved with another
 * machine's profile, beside the run's own machine's (docs/MODELS.md). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge_sig.h"
#include "pipeline.h"
#include "predict_run.h"
#include "profile.h"

static void fmt_s(char *b, size_t n, double s)
{
    if (!isfinite(s))
        snprintf(b, n, "-");
    else if (s >= 1)
        snprintf(b, n, "%.3g s", s);
    else if (s >= 1e-3)
        snprintf(b, n, "%.3g ms", s * 1e3);
    else
        snprintf(b, n, "%.3g us", s * 1e6);
}

/* Row I of the run's "signatures" into S, its case, key and measured
 * seconds. 0, or -1 with ERR naming the field. */
static int row_of(const json_t *row, size_t i, struct qqb_signature *s, const char **cname,
                  const char **key, double *measured, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    *cname = json_string_value(json_object_get(row, "case"));
    *key = json_string_value(json_object_get(row, "key"));
    const json_t *sig = json_object_get(row, "signature");
    if (!*cname || !*key || !json_is_object(sig)) {
        snprintf(err, errlen, "signatures[%zu]: needs a case, a key and a signature", i);
        return -1;
    }
    for (size_t f = 0; f < QQB_SIG_NFIELDS; f++) {
        const char *name;
        double *at = qqb_sig_field_ref(s, f, &name);
        const json_t *v = json_object_get(sig, name);
        *at = v ? json_number_value(v) : 0;
        if (v && !(json_is_number(v) && isfinite(*at) && *at >= 0 && *at <= 1e18)) {
            snprintf(err, errlen, "signatures[%zu].signature.%s: expected a number from 0 to 1e18",
                     i, name);
            return -1;
        }
    }
    const json_t *m = json_object_get(row, "measured_s");
    *measured = json_is_number(m) ? json_number_value(m) : NAN;
    return 0;
}

/* The table: per row, measured here, predicted on HERE (may be NULL) and
 * on THERE, the ratio there / here and the bound there. */
static int print_rows(const json_t *rows, const struct qqb_profile *here,
                      const struct qqb_profile *there, char *err, size_t errlen)
{
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) /* every row read before a line is printed */
    {
        struct qqb_signature s;
        const char *cname, *key;
        double measured;
        if (row_of(row, i, &s, &cname, &key, &measured, err, errlen) != 0)
            return -1;
    }
    printf("Predicted on %s (docs/MODELS.md: max(memory, flops, latency) + network)\n",
           there->path);
    printf("  %-32s %-10s %10s %10s %10s %9s  %s\n", "case", "key", "measured", "here", "there",
           "there/here", "bound there");
    json_array_foreach(rows, i, row)
    {
        struct qqb_signature s;
        const char *cname, *key;
        double measured;
        if (row_of(row, i, &s, &cname, &key, &measured, err, errlen) != 0)
            return -1;
        enum qqb_sig_resource bound;
        double p_there = qqb_profile_predict(there, &s, NULL, &bound);
        double p_here = here ? qqb_profile_predict(here, &s, NULL, NULL) : NAN;
        char m[32], a[32], b[32];
        fmt_s(m, sizeof m, measured);
        fmt_s(a, sizeof a, p_here);
        fmt_s(b, sizeof b, p_there);
        printf("  %-32.32s %-10.10s %10s %10s %10s %8.3fx  %s\n", cname, key, m, a, b,
               p_there / p_here, isfinite(p_there) ? qqb_sig_resource_name(bound) : "-");
    }
    return 0;
}

int qqb_predict_run(const char *run_path, const char *profile_path)
{
    char err[1024];
    struct qqb_profile there, here;
    if (qqb_profile_read(profile_path, &there, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return QQB_EXIT_USAGE;
    }
    json_error_t je;
    json_t *run = json_load_file(run_path, 0, &je);
    if (!run) {
        if (je.line > 0)
            fprintf(stderr, "%s:%d:%d: error: %s\n", run_path, je.line, je.column, je.text);
        else
            fprintf(stderr, "%s: error: %s\n", run_path, je.text);
        return QQB_EXIT_USAGE;
    }
    const json_t *rows = json_object_get(run, "signatures");
    int has_here = qqb_profile_from_json(json_object_get(run, "profile"), &here, err, sizeof err);
    int rc = QQB_EXIT_OK;
    if (!json_is_array(rows)) {
        fprintf(stderr, "%s: error: no \"signatures\" array: not a 'qqbench run --json' report\n",
                run_path);
        rc = QQB_EXIT_USAGE;
    } else if (has_here < 0) {
        fprintf(stderr, "%s: error: profile.%s\n", run_path, err);
        rc = QQB_EXIT_USAGE;
    } else if (json_array_size(rows) == 0) {
        printf("%s: no signed key: nothing to predict\n", run_path);
    } else if (print_rows(rows, has_here == 0 ? &here : NULL, &there, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", run_path, err);
        rc = QQB_EXIT_USAGE;
    }
    json_decref(run);
    return rc;
}
