/* ci_gate.c - the decisions of qqbench ci as pure functions (ci_gate.h). */
#include "ci_gate.h"

#include <stdio.h>
#include <string.h>

const char *qqb_ci_baseline_option(const struct qqb_run_opts *o)
{
    return o->update              ? "--update-baseline"
           : o->memory_only       ? "--memory-only"
           : o->record            ? "--record"
           : o->baselines_dir     ? "--baselines"
           : o->baseline_from     ? "--baseline-from"
           : o->require_baseline  ? "--require-baseline"
           : o->allow_other_flags ? "--allow-other-flags"
                                  : NULL;
}

void qqb_ci_normalize(const char *path, const char *cwd, char *out, size_t len)
{
    char in[8400]; /* read from here, written to OUT: a relative PATH grows a '/' */
    if (path[0] == '/' || !cwd)
        snprintf(in, sizeof in, "%s", path);
    else
        snprintf(in, sizeof in, "%s/%s", cwd, path);
    size_t w = 0; /* the length of the result so far */
    if (!len)
        return;
    for (const char *p = in; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if ((n == 1 && p[0] == '.') || n == 0) {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (w > 0 && out[--w] != '/')
                ;
        } else if (w + 1 + n < len) {
            out[w++] = '/';
            memcpy(out + w, p, n);
            w += n;
        }
        p += n + (e != NULL);
    }
    if (w == 0 && len > 1)
        out[w++] = '/';
    out[w] = '\0';
}

const char *qqb_ci_below(const char *path, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(path, base, n) != 0 || (path[n] && path[n] != '/'))
        return NULL;
    return path[n] ? path + n + 1 : path + n;
}

int qqb_ci_change_out(const char *k, const char *sub, char *out, size_t len)
{
    size_t n = strlen(k), m = strlen(sub);
    while (m > 1 && sub[m - 1] == '/')
        m--;
    if (n > m + 1 && k[n - m - 1] == '/' && strncmp(k + n - m, sub, m) == 0 && n - m - 1 < len) {
        snprintf(out, len, "%.*s", (int)(n - m - 1), k);
        return 0;
    }
    return -1;
}

enum qqb_ci_where qqb_ci_kernels(const char *build, const char *sub, const char *k,
                                 const char *chg_out, const char *top, const char *src,
                                 const char *bld, char *out, size_t len)
{
    int uses_out = !build || strstr(build, "{out}");
    const char *ref_base = uses_out ? bld : src, *rel = NULL;
    if (sub || !k) {
        snprintf(out, len, "%s/%s", ref_base, sub ? sub : "kernels");
        return QQB_CI_KERNELS_OK;
    }
    /* The default line, and a CMD naming {out}, build the reference into
     * a folder of its own and find its kernels by their place below
     * build/ (with CMD, after both builds, a path in the reference's
     * worktree that was not there). */
    if (uses_out && !(rel = qqb_ci_below(k, chg_out)))
        return QQB_CI_KERNELS_NOT_BELOW;
    if (uses_out)
        snprintf(out, len, "%s/%s", bld, rel);
    else if ((rel = qqb_ci_below(k, top)) != NULL)
        snprintf(out, len, "%s/%s", src, rel);
    else
        return QQB_CI_KERNELS_OUTSIDE;
    return QQB_CI_KERNELS_OK;
}

int qqb_ci_build_type_line(const char *line, int at_start, char *btype, size_t len)
{
    static const char key[] = "CMAKE_BUILD_TYPE:";
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
    if (!at_start || strncmp(line, key, sizeof key - 1) != 0)
        return -1;
    const char *v = strchr(line, '=');
    if (!v)
        return -1;
    size_t n = strcspn(++v, "\r\n");
    /* Taken only when plain (letters, digits, '_'); else the default. */
    if (n >= len || strspn(v, plain) != n)
        return 0;
    snprintf(btype, len, "%.*s", (int)n, v);
    return 1;
}

enum qqb_ci_logs qqb_ci_logdir(const char *json, const char *report, int no_report, char *out,
                               size_t len)
{
    const char *slash = json ? strrchr(json, '/') : NULL;
    if (json && slash)
        snprintf(out, len, "%.*s", (int)(slash - json + (slash == json)), json);
    else if (json)
        snprintf(out, len, ".");
    else if (no_report)
        return QQB_CI_LOGS_TEMP;
    else if (report)
        snprintf(out, len, "%s", report);
    else
        return QQB_CI_LOGS_DEFAULT;
    return json ? QQB_CI_LOGS_JSON : QQB_CI_LOGS_REPORT;
}

int qqb_ci_cause(int rc, const struct qqb_run_tally *t, char *buf, size_t len)
{
    if (rc == QQB_EXIT_OK)
        snprintf(buf, len, "nothing regressed");
    else if (rc == QQB_EXIT_KERNEL)
        snprintf(buf, len, "%zu kernel failure%s", t->kernel_failures,
                 t->kernel_failures == 1 ? "" : "s");
    else if (rc != QQB_EXIT_REGRESSION)
        return -1; /* bad input: said on stderr */
    else if (t->regressed)
        snprintf(buf, len, "%zu comparison%s regressed vs reference build", t->regressed,
                 t->regressed == 1 ? "" : "s");
    else if (t->mem_regressed)
        snprintf(buf, len, "memory regressed vs reference build");
    else if (t->counts_regressed)
        snprintf(buf, len, "%zu count%s regressed (calls or instructions: the Counts table)",
                 t->counts_regressed, t->counts_regressed == 1 ? "" : "s");
    else if (t->base_regressed)
        snprintf(buf, len, "regressed vs the stored baseline (--with-baseline)");
    else
        snprintf(buf, len, "a failing comparison (see above)");
    return 0;
}
