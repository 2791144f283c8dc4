/* instrs.c - instructions launches: each state key's count under callgrind, one launch per key,
 * per rank under mpirun, read back from callgrind's files (docs/INSTRUCTIONS.md). */
#define _DEFAULT_SOURCE /* strdup */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "instrs.h"
#include "measure.h"
#include "qq_file.h"
#include "runner.h"
#include "strv.h"

/* The cache geometry of a cache simulation: fixed, not the host's, so a
 * count of misses is the same on every machine (docs/INSTRUCTIONS.md). */
static const char *const cache_args[] = {"--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64",
                                         "--LL=8388608,16,64"};
#define NCACHE (sizeof cache_args / sizeof cache_args[0])

const char *qqb_instrs_valgrind(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return NULL;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && n + sizeof "/valgrind" < len) {
            memcpy(buf, path, n);
            memcpy(buf + n, "/valgrind", sizeof "/valgrind");
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
                return buf;
        }
        path += n + (colon ? 1 : 0);
    }
    return NULL;
}

/* One callgrind file's "events:" names and "totals:" (or "summary:")
 * figures, added into SUM by name (QQB_INSTR_EVENTS' order). Every byte is
 * hostile: a line past 64 KiB, a figure that is not a whole number, more
 * figures than events, or no totals is an error, "PATH:LINE:COL: error: ...".
 * 0, or -1 with ERR. */
static const char *const event_names[QQB_INSTR_EVENTS] = {"Ir",   "Dr",   "Dw",  "D1mr",
                                                          "D1mw", "DLmr", "DLmw"};

static int parse_figures(const char *path, unsigned lineno, const char *line, size_t from,
                         const int *slot, int nslot, uint64_t *sum, char *err, size_t errlen)
{
    const char *p = line + from;
    for (int i = 0;; i++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '\n')
            return 0;
        int col = (int)(p - line) + 1;
        if (i >= nslot) {
            snprintf(err, errlen, "%s:%u:%d: error: more figures than the events line names", path,
                     lineno, col);
            return -1;
        }
        uint64_t v = 0;
        const char *d = p;
        while (*p >= '0' && *p <= '9') {
            unsigned digit = (unsigned)(*p - '0');
            if (v > (UINT64_MAX - digit) / 10) {
                snprintf(err, errlen, "%s:%u:%d: error: figure too large", path, lineno, col);
                return -1;
            }
            v = v * 10 + digit;
            p++;
        }
        if (p == d || (*p && *p != ' ' && *p != '\t' && *p != '\n')) {
            snprintf(err, errlen, "%s:%u:%d: error: expected a whole number", path, lineno, col);
            return -1;
        }
        if (slot[i] >= 0)
            sum[slot[i]] += v;
    }
}

int qqb_instrs_read(const char *path, uint64_t sum[QQB_INSTR_EVENTS], int *have, char *err,
                    size_t errlen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
        return -1;
    }
    enum { LINE = 65536, MAXEV = 64 };
    char *line = malloc(LINE);
    int slot[MAXEV], nslot = -1, rc = -1, done = 0;
    unsigned lineno = 0;
    if (!line) {
        snprintf(err, errlen, "out of memory");
        fclose(fp);
        return -1;
    }
    while (!done && fgets(line, LINE, fp)) {
        lineno++;
        size_t n = strlen(line);
        if (n == LINE - 1 && line[n - 1] != '\n') {
            snprintf(err, errlen, "%s:%u:1: error: line longer than %d bytes", path, lineno,
                     LINE - 1);
            goto out;
        }
        if (!strncmp(line, "events:", 7)) {
            nslot = 0;
            char *save = NULL;
            for (char *w = strtok_r(line + 7, " \t\n", &save); w;
                 w = strtok_r(NULL, " \t\n", &save)) {
                if (nslot == MAXEV) {
                    snprintf(err, errlen, "%s:%u:1: error: more than %d events", path, lineno,
                             MAXEV);
                    goto out;
                }
                slot[nslot] = -1;
                for (int e = 0; e < QQB_INSTR_EVENTS; e++)
                    if (!strcmp(w, event_names[e])) {
                        slot[nslot] = e;
                        *have |= 1 << e;
                    }
                nslot++;
            }
        } else if (!strncmp(line, "totals:", 7) || !strncmp(line, "summary:", 8)) {
            if (nslot < 0) {
                snprintf(err, errlen, "%s:%u:1: error: figures before the events line", path,
                         lineno);
                goto out;
            }
            if (parse_figures(path, lineno, line, line[0] == 't' ? 7 : 8, slot, nslot, sum, err,
                              errlen) != 0)
                goto out;
            done = 1;
        }
    }
    if (!done) {
        snprintf(err, errlen,
                 "%s:%u:1: error: no totals: or summary: line (not callgrind's output?)", path,
                 lineno + 1);
        goto out;
    }
    rc = 0;
out:
    free(line);
    fclose(fp);
    return rc;
}

/* Read and remove every callgrind file of launch FILE in DIR (cg<FILE>.<pid>:
 * one per process valgrind ran, a rank each under mpirun), summed into SUM.
 * The number of files read, or -1 with ERR. */
static int read_launch(const char *dir, size_t file, uint64_t sum[QQB_INSTR_EVENTS], int *have,
                       char *err, size_t errlen)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "cg%zu.", file), found = 0, rc = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: error: cannot open: %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, (size_t)n) != 0)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (rc == 0 && qqb_instrs_read(path, sum, have, err, errlen) != 0)
            rc = -1;
        unlink(path);
        found++;
    }
    closedir(d);
    return rc == 0 ? found : -1;
}

/* ARGV with valgrind's words before the kernel (after a launcher's: each
 * rank runs under valgrind). NULL out of memory; free the array only (the
 * words are borrowed, but OUTARG, which is the array's own). */
static char **valgrind_argv(const struct qqb_plan_case *pc, const char *vg, const char *outarg,
                            int cache)
{
    size_t n = 0, at = 0;
    while (pc->argv[n])
        n++;
    for (size_t i = 0; i < n; i++)
        if (pc->kernel_path && !strcmp(pc->argv[i], pc->kernel_path)) {
            at = i;
            break;
        }
    const char *words[4 + NCACHE];
    size_t nw = 0;
    words[nw++] = vg;
    words[nw++] = "-q";
    words[nw++] = "--tool=callgrind";
    words[nw++] = "--collect-atstart=no";
    for (size_t i = 0; cache && i < NCACHE; i++)
        words[nw++] = cache_args[i];
    char **v = calloc(n + nw + 2, sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < at; i++)
        v[k++] = pc->argv[i];
    for (size_t i = 0; i < nw; i++)
        v[k++] = (char *)words[i];
    v[k++] = (char *)outarg;
    for (size_t i = at; i < n; i++)
        v[k++] = pc->argv[i];
    v[k] = NULL;
    return v;
}

static void fail_case(struct qqb_case_result *r, const char *why)
{
    free(r->failure);
    r->failure = strdup(why);
    r->failures++;
}

/* The state keys of the launch's file OUT that BENCH selects, into *KEYS
 * (a NULL-ended array, malloc'd), with each key's intervals (summed over nodes)
 * into *HITS when HITS is not NULL. 0, or -1 with WHY. */
static int file_keys(const char *out, const struct qqb_bench *b, char ***keys, double **hits,
                     char *why, size_t len)
{
    struct qq_file *f;
    *keys = NULL;
    if (hits)
        *hits = NULL;
    if (qq_file_open_stream(out, &f) != 0) {
        snprintf(why, len, "damaged QQ file: %s", qq_file_errmsg(f));
        qq_file_close(f);
        return -1;
    }
    struct qqb_case_result scratch;
    memset(&scratch, 0, sizeof scratch);
    int rc = qqb_collect(f, b->keys, b->nkeys, &scratch, why, len);
    uint32_t nk = qq_file_nkeys(f);
    char **v = rc == 0 ? calloc((size_t)nk + 1, sizeof *v) : NULL;
    double *h = rc == 0 ? calloc((size_t)nk + 1, sizeof *h) : NULL;
    size_t n = 0;
    int oom = rc == 0 && (!v || !h);
    for (uint32_t k = 0; !oom && v && h && k < nk; k++) {
        const struct qq_key_info *key = qq_file_key(f, k);
        if (key->type != QQ_TYPE_STATE || !qqb_strv_selects(b->keys, b->nkeys, key->name))
            continue;
        /* Per hit: per interval (a state's "hits" counts its events). */
        const struct qqb_metric *m = qqb_case_find_metric(&scratch, key->name, "intervals");
        h[n] = m && m->n ? m->samples[m->n - 1] : 0;
        if (!(v[n] = strdup(key->name)))
            oom = 1;
        else
            n++;
    }
    qq_file_close(f);
    qqb_case_result_free(&scratch);
    if (oom) {
        snprintf(why, len, "out of memory");
        rc = -1;
    }
    if (rc != 0) {
        qqb_argv_free(v);
        free(h);
        return -1;
    }
    *keys = v;
    if (hits)
        *hits = h;
    else
        free(h);
    return 0;
}

/* The metrics' names, in QQB_INSTR_EVENTS' order. */
static const char *const metric_names[QQB_INSTR_EVENTS] = {"instr", "dr",   "dw",  "d1mr",
                                                           "d1mw",  "dlmr", "dlmw"};

/* Launch LAUNCH of case PC for KEY under callgrind into R; 0, or -1 with the
 * case failed (its reason set). */
static int launch_key(struct qqb_instrs *in, const struct qqb_plan_case *pc, const char *key,
                      uint32_t launch, struct qqb_case_result *r)
{
    const struct qqb_bench *b = &in->plan->suite->bench[pc->bench];
    size_t file = in->files++;
    char out[4200], log[4200], outarg[4300], why[1200];
    snprintf(out, sizeof out, "%s/instr%zu.qq", in->workdir, file);
    snprintf(log, sizeof log, "%s/instr%zu.log", in->workdir, file);
    snprintf(outarg, sizeof outarg, "--callgrind-out-file=%s/cg%zu.%%p", in->workdir, file);
    char **argv = valgrind_argv(pc, in->valgrind, outarg, b->s.cache_sim);
    if (!argv) {
        fail_case(r, "out of memory");
        return -1;
    }
    /* Valgrind runs a kernel some 50 times slower: its time limit too. */
    struct qqb_launch l = {argv, b->s.timeout * 100, out, log, b->s.events, key};
    struct qqb_launch_result lr;
    int rc = qqb_launch_run(&l, &lr);
    free(argv);
    uint64_t sum[QQB_INSTR_EVENTS] = {0};
    int have = 0, nfiles = read_launch(in->workdir, file, sum, &have, why, sizeof why);
    char **keys = NULL;
    double *hits = NULL;
    if (rc != 0) {
        snprintf(why, sizeof why, "under callgrind: %s", lr.reason);
    } else if (nfiles == 0) {
        snprintf(why, sizeof why, "under callgrind: no callgrind output (valgrind failed?)");
        rc = -1;
    } else if (nfiles < 0 || file_keys(out, b, &keys, &hits, why, sizeof why) != 0) {
        rc = -1; /* WHY says which */
    }
    if (!in->keep) {
        unlink(out);
        if (rc == 0)
            unlink(log);
    }
    double h = 0;
    for (size_t k = 0; rc == 0 && keys && keys[k]; k++)
        if (!strcmp(keys[k], key))
            h = hits[k];
    qqb_argv_free(keys);
    free(hits);
    if (rc != 0) {
        fail_case(r, why);
        return -1;
    }
    for (int e = 0; e < QQB_INSTR_EVENTS; e++) {
        if (!(have & (1 << e)))
            continue;
        struct qqb_metric *m = qqb_case_metric(r, key, metric_names[e]);
        if (!m || qqb_metric_add_at(m, (double)sum[e], 0, launch) != 0) {
            fail_case(r, "out of memory");
            return -1;
        }
    }
    struct qqb_metric *m = qqb_case_metric(r, key, "instr_per_hit");
    if (!m || qqb_metric_add_at(m, h > 0 ? (double)sum[0] / h : 0, 0, launch) != 0) {
        fail_case(r, "out of memory");
        return -1;
    }
    return 0;
}

/* The keys of case PC: a native launch, its file's state keys. */
static int probe_keys(struct qqb_instrs *in, const struct qqb_plan_case *pc, char ***keys,
                      struct qqb_case_result *r)
{
    const struct qqb_bench *b = &in->plan->suite->bench[pc->bench];
    size_t file = in->files++;
    char out[4200], log[4200], why[1200];
    snprintf(out, sizeof out, "%s/instr%zu.qq", in->workdir, file);
    snprintf(log, sizeof log, "%s/instr%zu.log", in->workdir, file);
    struct qqb_launch l = {pc->argv, b->s.timeout, out, log, b->s.events, NULL};
    struct qqb_launch_result lr;
    int rc = qqb_launch_run(&l, &lr);
    if (rc != 0)
        snprintf(why, sizeof why, "%s", lr.reason);
    else
        rc = file_keys(out, b, keys, NULL, why, sizeof why);
    if (!in->keep) {
        unlink(out);
        if (rc == 0)
            unlink(log);
    }
    if (rc != 0)
        fail_case(r, why);
    return rc;
}

int qqb_instrs_case_metric(const struct qqb_instrs *in, const struct qqb_plan_case *pc)
{
    return in->metric >= 0 ? in->metric : in->plan->suite->bench[pc->bench].s.metric;
}

int qqb_instrs_measure(struct qqb_instrs *in, struct qqb_results *into)
{
    const struct qqb_plan *p = in->plan;
    for (size_t ci = 0; ci < p->ncases; ci++) {
        const struct qqb_plan_case *pc = &p->cases[ci];
        int kind = qqb_instrs_case_metric(in, pc);
        if (kind == QQB_METRIC_CYCLES)
            continue;
        struct qqb_case_result *r = into->cases[ci];
        free(r->metric);
        if (!(r->metric = strdup(qqb_metric_name(kind))) || qqb_measure_case_named(r, p, ci) != 0)
            return -1;
        if (!in->valgrind)
            continue; /* skipped: the run said so */
        if (r->failures)
            continue; /* its cycles launches failed: said already */
        int reps = in->reps > 0 ? in->reps : p->groups[pc->group].reps;
        if (in->reps <= 0 && reps > QQB_INSTR_LAUNCHES)
            reps = QQB_INSTR_LAUNCHES;
        char **keys = NULL;
        if (probe_keys(in, pc, &keys, r) != 0)
            goto next;
        size_t nk = 0;
        while (keys[nk])
            nk++;
        if (!in->quiet)
            fprintf(stderr, "qqbench: %s: instructions: %d launches x %zu keys under callgrind\n",
                    pc->name, reps, nk);
        for (int l = 0; l < reps; l++) {
            int ok = 1;
            for (size_t k = 0; ok && k < nk; k++)
                ok = launch_key(in, pc, keys[k], (uint32_t)l, r) == 0;
            if (!ok)
                break;
            if (r->launches < (size_t)l + 1 && r->metric && !strcmp(r->metric, "instructions"))
                r->launches = (size_t)l + 1;
        }
        qqb_argv_free(keys);
    next:
        if (r->failures && !in->quiet)
            fprintf(stderr, "qqbench: %s: FAILED: %s\n", r->name, r->failure ? r->failure : "?");
    }
    return 0;
}
