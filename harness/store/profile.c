/* profile.c - machine profiles: profile.yaml written, read and stored, drawn, convolved with
 * signatures. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "atomic.h"
#include "profile.h"
#include "yamlcur.h"

static int perr(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

int qqb_profile_path(const char *baselines, const char *id, char *out, size_t len)
{
    int n = snprintf(out, len, "%s/%s/profile.yaml", baselines, id);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* ---------------------------------------------------------------- read */

/* The profile's YAML is a tree of mappings and sequences; a value is known
 * by its path: "timer.tick_mhz", "memory.-.bytes", "mpi.pingpong.-.bytes". */
struct frame {
    int seq;      /* 1: a sequence, 0: a mapping */
    int want_key; /* mapping: the next scalar is a key */
    char key[32]; /* mapping: the current key */
    long index;   /* sequence: the current item */
};

const char *const qqb_level_names[QQB_NLEVELS] = {"l1", "l2", "ll", "memory"};

/* "levels.NAME.FIELD" and "issue.FIELD": 1 when PATH is one (V set). */
static int set_level(struct qqb_profile *p, const char *path, double v)
{
    static const char *const fields[] = {"bytes", "set_bytes", "latency_ns", "throughput_ns"};
    for (int l = 0; l < QQB_NLEVELS; l++)
        for (int f = 0; f < 4; f++) {
            char want[64];
            snprintf(want, sizeof want, "levels.%s.%s", qqb_level_names[l], fields[f]);
            if (strcmp(path, want))
                continue;
            double *d[] = {&p->level[l].bytes, &p->level[l].set, &p->level[l].lat_ns,
                           &p->level[l].thr_ns};
            *d[f] = v;
            return 1;
        }
    double *d = !strcmp(path, "issue.int_ns")      ? &p->int_ns
                : !strcmp(path, "issue.fp_ns")     ? &p->fp_ns
                : !strcmp(path, "issue.fp_dep_ns") ? &p->fp_dep_ns
                                                   : NULL;
    if (d)
        *d = v;
    return d != NULL;
}

static int set_value(struct qqb_profile *p, const struct frame *st, int depth, double v)
{
    char path[128] = "";
    for (int i = 0; i < depth; i++) {
        size_t k = strlen(path);
        snprintf(path + k, sizeof path - k, "%s%s", i ? "." : "", st[i].seq ? "-" : st[i].key);
    }
    if (set_level(p, path, v))
        return 0;
    long idx = depth >= 2 && st[1].seq ? st[1].index : depth >= 3 && st[2].seq ? st[2].index : -1;
    if (idx >= QQB_PROFILE_MAX_SIZES)
        return 0;
    if (!strcmp(path, "timer.tick_mhz"))
        p->tick_mhz = v;
    else if (!strcmp(path, "flops.gflops"))
        p->gflops = v;
    else if (!strcmp(path, "memory.-.bytes"))
        p->mem_bytes[idx] = v;
    else if (!strcmp(path, "memory.-.bandwidth_gbps"))
        p->mem_gbps[idx] = v;
    else if (!strcmp(path, "memory.-.latency_ns"))
        p->mem_ns[idx] = v;
    else if (!strcmp(path, "mpi.pingpong.-.bytes"))
        p->mpi_bytes[idx] = v;
    else if (!strcmp(path, "mpi.pingpong.-.latency_us"))
        p->mpi_us[idx] = v;
    else if (!strcmp(path, "mpi.pingpong.-.bandwidth_mbps"))
        p->mpi_mbps[idx] = v;
    else
        return 0;
    if (idx >= 0 && path[0] == 'm' && path[1] == 'e' && (size_t)idx + 1 > p->nmem)
        p->nmem = (size_t)idx + 1;
    if (idx >= 0 && path[0] == 'm' && path[1] == 'p' && (size_t)idx + 1 > p->nmpi)
        p->nmpi = (size_t)idx + 1;
    return 0;
}

int qqb_profile_read(const char *path, struct qqb_profile *p, char *err, size_t errlen)
{
    char why[96];
    FILE *fp = qqb_open_regular(path, why, sizeof why);
    if (!fp) {
        memset(p, 0, sizeof *p);
        return perr(err, errlen, "%s: error: cannot read the machine profile: %s", path, why);
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            char *t = realloc(text, cap = 2 * cap + 8192);
            if (!t) {
                free(text);
                fclose(fp);
                return perr(err, errlen, "%s: error: out of memory", path);
            }
            text = t;
        }
        size_t k = fread(text + len, 1, cap - len, fp);
        len += k;
        if (k == 0)
            break;
    }
    fclose(fp);
    int rc = qqb_profile_parse(path, text, len, p, err, errlen);
    free(text);
    return rc;
}

int qqb_profile_parse(const char *path, const char *text, size_t len, struct qqb_profile *p,
                      char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    yaml_parser_t yp;
    yaml_event_t ev;
    struct frame st[8] = {0};
    int depth = 0, rc = -1, done = 0;
    yaml_parser_initialize(&yp);
    yaml_parser_set_input_string(&yp, (const unsigned char *)text, len);
    while (!done) {
        if (!yaml_parser_parse(&yp, &ev)) {
            perr(err, errlen, "%s:%zu:%zu: error: %s", path, yp.problem_mark.line + 1,
                 yp.problem_mark.column + 1, yp.problem ? yp.problem : "bad YAML");
            goto out;
        }
        int line = (int)ev.start_mark.line + 1, col = (int)ev.start_mark.column + 1;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
            if (depth == 8) {
                yaml_event_delete(&ev);
                perr(err, errlen, "%s:%d:%d: error: nested too deep for a profile", path, line,
                     col);
                goto out;
            }
            if (depth > 0 && !st[depth - 1].seq)
                st[depth - 1].want_key = 1;
            memset(&st[depth], 0, sizeof st[depth]);
            st[depth].seq = ev.type == YAML_SEQUENCE_START_EVENT;
            st[depth].want_key = 1;
            st[depth].index = -1;
            if (depth > 0 && st[depth - 1].seq)
                st[depth - 1].index++;
            depth++;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            depth--;
            break;
        case YAML_SCALAR_EVENT: {
            const char *s = (const char *)ev.data.scalar.value;
            if (depth == 0)
                break;
            struct frame *f = &st[depth - 1];
            if (!f->seq && f->want_key) {
                snprintf(f->key, sizeof f->key, "%s", s);
                f->want_key = 0;
                break;
            }
            if (f->seq)
                f->index++;
            else
                f->want_key = 1;
            char *end;
            errno = 0;
            double v = strtod(s, &end);
            if (end != s && *end == '\0' && !errno && isfinite(v))
                set_value(p, st, depth, v);
            break;
        }
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    int levels = 0;
    for (int l = 0; l < QQB_NLEVELS; l++)
        levels |= p->level[l].lat_ns != 0 || p->level[l].thr_ns != 0;
    int issue = p->int_ns != 0 || p->fp_ns != 0 || p->fp_dep_ns != 0;
    if (p->nmem == 0 && p->gflops == 0 && p->nmpi == 0 && !issue && !levels) {
        perr(err, errlen,
             "%s:1:1: error: not a machine profile (no memory, flops, mpi, levels or issue "
             "figures)",
             path);
        goto out;
    }
    for (size_t i = 0; i < p->nmem; i++)
        if (!(p->mem_bytes[i] > 0 && p->mem_gbps[i] > 0)) {
            perr(err, errlen, "%s: error: memory entry %zu has no positive bytes and bandwidth",
                 path, i + 1);
            goto out;
        }
    for (size_t i = 0; i < p->nmpi; i++)
        if (!(p->mpi_bytes[i] > 0 && p->mpi_us[i] > 0)) {
            perr(err, errlen, "%s: error: ping-pong entry %zu has no positive bytes and time", path,
                 i + 1);
            goto out;
        }
    char why[256];
    if (qqb_profile_check(p, why, sizeof why) != 0) {
        perr(err, errlen, "%s: error: %s", path, why);
        goto out;
    }
    rc = 0;
out:
    yaml_parser_delete(&yp);
    return rc;
}

/* ---------------------------------------------------------------- write */

int qqb_profile_write(FILE *fp, const struct qqb_machine *m, int quick, const char *launcher,
                      char *err, size_t errlen)
{
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    /* The strings a user or the machine names go through libyaml's own
     * quoting: a launcher such as 'env Q=a"b mpirun' wrote a profile that
     * every later run refused as damaged. */
    char qhost[600], qlaunch[8300];
    if (qqb_yaml_quote(qhost, sizeof qhost, host) != 0)
        qqb_yaml_quote(qhost, sizeof qhost, "unknown");
    if (launcher && qqb_yaml_quote(qlaunch, sizeof qlaunch, launcher) != 0)
        return perr(err, errlen, "--launcher: not UTF-8 text");
    fprintf(fp,
            "# qqbench machine profile (qqbench profile-machine, docs/MODELS.md)\n"
            "profile: 1\nhost: %s\ndate: \"%s\"\nqqbench_version: \"%s\"\n"
            "quick: %s\n",
            qhost, date, QQB_VERSION, quick ? "true" : "false");
    fprintf(fp, "caches:\n  l1d_bytes: %ld\n  l2_bytes: %ld\n  l3_bytes: %ld\n", m->l1, m->l2,
            m->l3);
    fprintf(fp,
            "timer:\n  tick_mhz: %.3f\n  read_ns: %.3f\n  read_ticks: %.3f\n"
            "  ordered_pair_ns: %.3f\n",
            m->mhz, m->ns_bare, m->ticks_bare, m->ns_pair);
    fprintf(fp, "memory:\n  # streaming sum of 8-byte words; dependent loads "
                "over a pseudo-random cycle of 64-byte lines\n");
    for (int i = 0; i < m->ns; i++)
        fprintf(fp, "  - bytes: %zu\n    bandwidth_gbps: %.3f\n    latency_ns: %.3f\n", m->sizes[i],
                m->bw[i] / 1e9, m->lat[i]);
    fprintf(fp, "flops:\n  fma_chains: 8\n  gflops: %.3f\n", m->fl / 1e9);
    fprintf(fp, "levels:\n  # one load served by each level: latency_ns a dependent load (a\n"
                "  # pointer chase over a cycle of 64-byte lines), throughput_ns an\n"
                "  # independent 8-byte load (eight scalar streams); bytes the level's\n"
                "  # size (sysfs, else CPUID), set_bytes the working set measured\n");
    for (int l = 0; l < QQB_NLEVELS; l++)
        if (m->level[l].set)
            fprintf(fp,
                    "  %s:\n    bytes: %ld\n    set_bytes: %zu\n    latency_ns: %.4f\n"
                    "    throughput_ns: %.4f\n",
                    qqb_level_names[l], m->level[l].bytes, m->level[l].set, m->level[l].lat_ns,
                    m->level[l].thr_ns);
    fprintf(fp,
            "issue:\n  # ns per op: an integer add or xor (eight independent chains), a flop\n"
            "  # of eight independent multiply-add chains, a flop of one dependent chain\n"
            "  int_ns: %.4f\n  fp_ns: %.4f\n  fp_dep_ns: %.4f\n",
            m->int_ns, m->fl > 0 ? 1e9 / m->fl : 0, m->fp_dep_ns);
    fprintf(fp, "seconds: %.2f  # how long the measuring took, MPI included\n", m->seconds);
    if (launcher && m->mpi_rc == 0) {
        fprintf(fp, "mpi:\n  launcher: %s\n  ranks: 2\n  pingpong:\n", qlaunch);
        for (int i = 0; i < m->pp.n; i++)
            fprintf(fp,
                    "    - bytes: %ld\n      latency_us: %.4f\n"
                    "      bandwidth_mbps: %.2f\n",
                    m->pp.size[i], m->pp.us[i], m->pp.mbps[i]);
    } else {
        fprintf(fp, "mpi: null  # %s\n", launcher ? "the helper failed" : "--no-mpi");
    }
    return 0;
}

/* ---------------------------------------------------------------- store */

int qqb_profile_store(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (qqb_mkdirs(dir, NULL, 0) != 0)
            return perr(err, errlen, "%s: error: cannot make its folder: %s", path,
                        strerror(errno));
    }
    char why[512];
    if (qqb_write_atomic(path, text, len, why, sizeof why) != 0)
        return perr(err, errlen, "%s: error: %s", path, why);
    return 0;
}

/* ---------------------------------------------------------------- JSON */

static json_t *jtab(const double *a, size_t n)
{
    json_t *v = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(v, json_real(a[i]));
    return v;
}

/* The levels and issue rates into O (the run JSON's "levels", "issue"). */
static json_t *json_levels(const struct qqb_profile *p, json_t *o)
{
    json_t *lv = json_object();
    for (int l = 0; l < QQB_NLEVELS; l++)
        if (p->level[l].thr_ns > 0 || p->level[l].lat_ns > 0)
            json_object_set_new(lv, qqb_level_names[l],
                                json_pack("{s:f, s:f, s:f, s:f}", "bytes", p->level[l].bytes,
                                          "set_bytes", p->level[l].set, "latency_ns",
                                          p->level[l].lat_ns, "throughput_ns", p->level[l].thr_ns));
    json_object_set_new(o, "levels", lv);
    json_object_set_new(o, "issue",
                        json_pack("{s:f, s:f, s:f}", "int_ns", p->int_ns, "fp_ns", p->fp_ns,
                                  "fp_dep_ns", p->fp_dep_ns));
    return o;
}

json_t *qqb_profile_json(const struct qqb_profile *p)
{
    return json_levels(
        p, json_pack("{s:s, s:f, s:f, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o}}", "path", p->path,
                     "tick_mhz", p->tick_mhz, "gflops", p->gflops, "memory", "bytes",
                     jtab(p->mem_bytes, p->nmem), "bandwidth_gbps", jtab(p->mem_gbps, p->nmem),
                     "latency_ns", jtab(p->mem_ns, p->nmem), "mpi", "bytes",
                     jtab(p->mpi_bytes, p->nmpi), "one_way_us", jtab(p->mpi_us, p->nmpi),
                     "bandwidth_mbps", jtab(p->mpi_mbps, p->nmpi)));
}

static size_t untab(const json_t *a, double *out)
{
    size_t n = 0, i;
    json_t *v;
    json_array_foreach(a, i, v)
    {
        if (n == QQB_PROFILE_MAX_SIZES)
            break;
        out[n++] = json_is_number(v) ? json_number_value(v) : NAN;
    }
    return n;
}

/* A number of a profile's JSON: absent reads 0 (not measured), anything
 * else not a number NaN (refused by the check). */
static double jfig(const json_t *v)
{
    return !v || json_is_null(v) ? 0 : json_is_number(v) ? json_number_value(v) : NAN;
}

int qqb_profile_from_json(const json_t *o, struct qqb_profile *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (!json_is_object(o))
        return 1;
    const char *path = json_string_value(json_object_get(o, "path"));
    snprintf(p->path, sizeof p->path, "%s", path ? path : "");
    p->tick_mhz = jfig(json_object_get(o, "tick_mhz"));
    p->gflops = jfig(json_object_get(o, "gflops"));
    json_t *m = json_object_get(o, "memory"), *n = json_object_get(o, "mpi");
    p->nmem = untab(json_object_get(m, "bytes"), p->mem_bytes);
    if (untab(json_object_get(m, "bandwidth_gbps"), p->mem_gbps) != p->nmem ||
        untab(json_object_get(m, "latency_ns"), p->mem_ns) != p->nmem)
        return perr(err, errlen,
                    "memory: its bytes, bandwidth_gbps and latency_ns differ in length");
    p->nmpi = untab(json_object_get(n, "bytes"), p->mpi_bytes);
    if (untab(json_object_get(n, "one_way_us"), p->mpi_us) != p->nmpi ||
        untab(json_object_get(n, "bandwidth_mbps"), p->mpi_mbps) != p->nmpi)
        return perr(err, errlen, "mpi: its bytes, one_way_us and bandwidth_mbps differ in length");
    json_t *lv = json_object_get(o, "levels"), *is = json_object_get(o, "issue");
    for (int l = 0; l < QQB_NLEVELS; l++) {
        json_t *e = json_object_get(lv, qqb_level_names[l]);
        p->level[l].bytes = jfig(json_object_get(e, "bytes"));
        p->level[l].set = jfig(json_object_get(e, "set_bytes"));
        p->level[l].lat_ns = jfig(json_object_get(e, "latency_ns"));
        p->level[l].thr_ns = jfig(json_object_get(e, "throughput_ns"));
    }
    p->int_ns = jfig(json_object_get(is, "int_ns"));
    p->fp_ns = jfig(json_object_get(is, "fp_ns"));
    p->fp_dep_ns = jfig(json_object_get(is, "fp_dep_ns"));
    return qqb_profile_check(p, err, errlen);
}

int qqb_profile_check(const struct qqb_profile *p, char *err, size_t errlen)
{
    /* Each column: its name, figures, lowest (excluded when POSITIVE) and
     * highest value, whether each must be larger than the one before. */
    const struct {
        const char *name;
        const double *v;
        size_t n;
        double hi;
        int positive, increasing;
    } cols[] = {
        {"tick_mhz", &p->tick_mhz, 1, 1e9, 0, 0},
        {"gflops", &p->gflops, 1, 1e9, 0, 0},
        {"memory.bytes", p->mem_bytes, p->nmem, 1e15, 1, 1},
        {"memory.bandwidth_gbps", p->mem_gbps, p->nmem, 1e6, 1, 0},
        {"memory.latency_ns", p->mem_ns, p->nmem, 1e9, 0, 0},
        {"mpi.bytes", p->mpi_bytes, p->nmpi, 1e15, 1, 1},
        {"mpi.one_way_us", p->mpi_us, p->nmpi, 1e9, 1, 0},
        {"mpi.bandwidth_mbps", p->mpi_mbps, p->nmpi, 1e9, 0, 0},
        {"issue.int_ns", &p->int_ns, 1, 1e9, 0, 0},
        {"issue.fp_ns", &p->fp_ns, 1, 1e9, 0, 0},
        {"issue.fp_dep_ns", &p->fp_dep_ns, 1, 1e9, 0, 0},
    };
    static const char *const lf[] = {"bytes", "set_bytes", "latency_ns", "throughput_ns"};
    for (int l = 0; l < QQB_NLEVELS; l++)
        for (int f = 0; f < 4; f++) {
            const double *d[] = {&p->level[l].bytes, &p->level[l].set, &p->level[l].lat_ns,
                                 &p->level[l].thr_ns};
            double v = *d[f];
            if (isfinite(v) && v >= 0 && v <= (f < 2 ? 1e15 : 1e9))
                continue;
            char val[40] = "a value that is not a number";
            if (isfinite(v))
                snprintf(val, sizeof val, "%g", v);
            return perr(err, errlen,
                        "levels.%s.%s: %s is out of range: expected 0 or more and "
                        "at most %g",
                        qqb_level_names[l], lf[f], val, f < 2 ? 1e15 : 1e9);
        }
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        for (size_t i = 0; i < cols[c].n; i++) {
            double v = cols[c].v[i];
            int scalar = cols[c].n == 1 && (cols[c].v == &p->tick_mhz || cols[c].v == &p->gflops ||
                                            cols[c].v == &p->int_ns || cols[c].v == &p->fp_ns ||
                                            cols[c].v == &p->fp_dep_ns);
            if (isfinite(v) && (cols[c].positive ? v > 0 : v >= 0) && v <= cols[c].hi &&
                !(cols[c].increasing && i > 0 && v <= cols[c].v[i - 1]))
                continue;
            char at[32] = "";
            if (!scalar)
                snprintf(at, sizeof at, "[%zu]", i);
            char val[40] = "a value that is not a number";
            if (isfinite(v))
                snprintf(val, sizeof val, "%g", v);
            return perr(err, errlen, "%s%s: %s is out of range: expected %s and at most %g%s",
                        cols[c].name, at, val, cols[c].positive ? "more than 0" : "0 or more",
                        cols[c].hi, cols[c].increasing ? ", each larger than the one before" : "");
        }
    return 0;
}

/* ---------------------------------------------------------- signatures */

/* Y at X on a table (XS increasing), linear in log-log between points,
 * the end value beyond either end. */
static double interp(const double *xs, const double *ys, size_t n, double x)
{
    if (n == 0)
        return NAN;
    if (x <= xs[0])
        return ys[0];
    for (size_t i = 1; i < n; i++)
        if (x <= xs[i]) {
            double t = (log(x) - log(xs[i - 1])) / (log(xs[i]) - log(xs[i - 1]));
            return exp(log(ys[i - 1]) + t * (log(ys[i]) - log(ys[i - 1])));
        }
    return ys[n - 1];
}

const char *qqb_sig_resource_name(enum qqb_sig_resource r)
{
    return r == QQB_RES_MEMORY    ? "memory"
           : r == QQB_RES_FLOPS   ? "flops"
           : r == QQB_RES_LATENCY ? "latency"
                                  : "network";
}

/* The profile's level that serves a traced level: L1; between L1 and
 * memory, L2 when the working set (if given) fits it, else the last
 * level (L2 when the profile has no third); memory. */
static int served_by(const struct qqb_profile *p, int sl, double ws)
{
    if (sl == QQB_SIG_L1)
        return QQB_LEVEL_L1;
    if (sl == QQB_SIG_MEM)
        return QQB_LEVEL_MEM;
    int ll = p->level[QQB_LEVEL_LL].thr_ns > 0 ? QQB_LEVEL_LL : QQB_LEVEL_L2;
    return ws > 0 && p->level[QQB_LEVEL_L2].bytes > 0 && ws > p->level[QQB_LEVEL_L2].bytes
               ? ll
               : QQB_LEVEL_L2;
}

/* N ops at COST ns each, in seconds; NaN when N > 0 and the cost is not
 * measured. */
static double cost(double n, double ns)
{
    return n > 0 ? (ns > 0 ? n * ns * 1e-9 : NAN) : 0;
}

/* Memory (independent loads and stores at each level's throughput, bytes
 * at their working set's bandwidth) and latency (dependent loads at each
 * level's latency, dependent flops at a chain's) into T. */
static void memory_time(const struct qqb_profile *p, const struct qqb_signature *s, double *t)
{
    if (s->bytes > 0) {
        double ws = s->working_set > 0 ? s->working_set : s->bytes;
        t[QQB_RES_MEMORY] = s->bytes / (interp(p->mem_bytes, p->mem_gbps, p->nmem, ws) * 1e9);
    }
    double loads = 0;
    for (int l = 0; l < QQB_SIG_NLEVELS; l++)
        loads += s->loads[l];
    /* the dependent loads are spread over the levels as all loads are */
    double dep = loads > 0 ? fmin(1, s->dep_loads / loads) : 0;
    for (int l = 0; l < QQB_SIG_NLEVELS; l++) {
        int pl = served_by(p, l, s->working_set);
        t[QQB_RES_MEMORY] += cost(s->loads[l] * (1 - dep) + s->stores[l], p->level[pl].thr_ns);
        t[QQB_RES_LATENCY] += cost(s->loads[l] * dep, p->level[pl].lat_ns);
    }
    t[QQB_RES_LATENCY] += cost(s->dep_flops, p->fp_dep_ns);
}

double qqb_profile_predict(const struct qqb_profile *p, const struct qqb_signature *s,
                           double parts[QQB_NRES], enum qqb_sig_resource *bound)
{
    double t[QQB_NRES] = {0, 0, 0, 0};
    memory_time(p, s, t);
    double fp_ns = p->fp_ns > 0 ? p->fp_ns : p->gflops > 0 ? 1 / p->gflops : 0;
    t[QQB_RES_FLOPS] = fmax(cost(s->instr, p->int_ns), cost(s->flops - s->dep_flops, fp_ns));
    if (isnan(cost(s->instr, p->int_ns)) || isnan(cost(s->flops - s->dep_flops, fp_ns)))
        t[QQB_RES_FLOPS] = NAN; /* fmax would drop it */
    if (s->messages > 0) {
        double size = s->message_bytes / s->messages;
        t[QQB_RES_NETWORK] =
            s->messages * interp(p->mpi_bytes, p->mpi_us, p->nmpi, size > 1 ? size : 1) * 1e-6;
    }
    enum qqb_sig_resource b = QQB_RES_MEMORY;
    for (int r = 1; r < QQB_NRES; r++)
        if (t[r] > t[b])
            b = (enum qqb_sig_resource)r;
    if (parts)
        memcpy(parts, t, sizeof t);
    if (bound)
        *bound = b;
    for (int r = 0; r < QQB_NRES; r++)
        if (isnan(t[r]))
            return NAN;
    return fmax(fmax(t[QQB_RES_MEMORY], t[QQB_RES_FLOPS]), t[QQB_RES_LATENCY]) + t[QQB_RES_NETWORK];
}
