/* baseline.c - baselines as YAML files: libyaml emitter out, event parser in, atomic locked writes.
 */
/* flock() is BSD and strverscmp() GNU, not POSIX: the build's
 * _POSIX_C_SOURCE alone hides them. */
#define _GNU_SOURCE

#include "atomic.h"
#include "baseline.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "clock.h"
#include "names.h"
#include "stats.h"
#include "strmap.h"
#include "yamlcur.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#ifndef QQB_VERSION
#define QQB_VERSION "unknown"
#endif

/* A label longer than this is a mistake, and file names have a limit. */
#define MAX_LABEL         128
/* Baselines hold raw samples, but not this many: a bound on what is read. */
#define MAX_BASELINE_SIZE ((size_t)256 << 20)

static double lock_timeout = QQB_BASELINE_LOCK_SECONDS;

void qqb_baseline_set_lock_timeout(double seconds)
{
    if (seconds > 0 && isfinite(seconds))
        lock_timeout = seconds;
}

/* ======================================================================
 * Messages: one line, "path: error: ..." or "path:line:col: error: ...".
 * ====================================================================== */

static int ferr(char *err, size_t errlen, const char *path, const char *fmt, ...)
    QQB_PRINTF_LIKE(4, 5);
static int ferr(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_vyerr(err, errlen, path, 0, 0, fmt, ap);
    va_end(ap);
    return -1;
}

/* ferr for a refusal of the file system (full, read-only, ...): -2. */
static int fserr(char *err, size_t errlen, const char *path, const char *fmt, ...)
    QQB_PRINTF_LIKE(4, 5);
static int fserr(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_vyerr(err, errlen, path, 0, 0, fmt, ap);
    va_end(ap);
    return -2;
}

static int name_char(char ch)
{
    return qqb_name_plain_char((unsigned char)ch);
}

/* A label's character in its snapshot's file name (one rule, for writing
 * the path and for finding the label that leads to a file). */
static char label_file_char(char ch)
{
    return name_char(ch) ? ch : '_';
}

/* A suite name or fingerprint id usable as one path component. */
static int plain_name(const char *s)
{
    if (!s || !*s || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    for (; *s; s++)
        if (!name_char(*s))
            return 0;
    return 1;
}

int qqb_baseline_memory_path(const char *dir, const char *suite, char *out, size_t outlen)
{
    if (!out || outlen == 0 || !plain_name(suite))
        return -1;
    int n = snprintf(out, outlen, "%s/%s.memory.yaml", dir ? dir : "baselines", suite);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int qqb_baseline_path(const char *dir, const char *suite, const struct qqb_fingerprint *fp,
                      const char *label, char *out, size_t outlen)
{
    char safe[MAX_LABEL + 1];
    int n;

    if (!out || outlen == 0 || !fp || !plain_name(suite) || !plain_name(fp->id))
        return -1;
    if (!dir || !*dir)
        dir = "baselines";
    if (!label) {
        n = snprintf(out, outlen, "%s/%s/%s.yaml", dir, fp->id, suite);
    } else {
        size_t len = strlen(label);
        if (len == 0 || len > MAX_LABEL)
            return -1;
        /* Only [A-Za-z0-9._-] survives, so no '/' can leave history/; the
         * '@' before it keeps "." and ".." from being whole names. */
        for (size_t i = 0; i <= len; i++)
            safe[i] = i == len ? '\0' : label_file_char(label[i]);
        n = snprintf(out, outlen, "%s/%s/history/%s@%s.yaml", dir, fp->id, suite, safe);
    }
    if (n < 0 || (size_t)n >= outlen)
        return -1;
    return 0;
}

/* Split PATH into its directory ("." when none) and base name. */
static int split_path(const char *path, char *dir, size_t dirlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *base = path;
        return snprintf(dir, dirlen, ".") < (int)dirlen ? 0 : -1;
    }
    *base = slash + 1;
    size_t n = (size_t)(slash - path);
    if (n == 0)
        n = 1; /* "/x": the root */
    if (n >= dirlen)
        return -1;
    memcpy(dir, path, n);
    dir[n] = '\0';
    return 0;
}

/* mkdir -p DIR. */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    struct stat st;
    size_t len = strlen(dir);

    if (len >= sizeof buf)
        return ferr(err, errlen, dir, "directory name too long");
    memcpy(buf, dir, len + 1);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char keep = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return ferr(err, errlen, buf, "cannot create directory: %s", strerror(errno));
            *p = keep;
            if (keep == '\0')
                break;
        }
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ferr(err, errlen, dir, "not a directory");
    return 0;
}

/* ======================================================================
 * Numbers as text.
 * ====================================================================== */

/* The shortest of %.15g, %.16g, %.17g that reads back bit-exact (%.17g
 * always does): exact, and 0.1 stays "0.1" for the human reading the file.
 * An exponent gets a ".0" mantissa so YAML 1.1 tools also see a float. */
static void fmt_double(char *buf, size_t len, double v)
{
    if (isnan(v)) {
        snprintf(buf, len, ".nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, len, v > 0 ? ".inf" : "-.inf");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v && signbit(strtod(buf, NULL)) == signbit(v))
            break;
    }
    char *e = strchr(buf, 'e');
    if (e && !strchr(buf, '.') && strlen(buf) + 3 <= len) {
        memmove(e + 2, e, strlen(e) + 1);
        e[0] = '.';
        e[1] = '0';
    }
}

/* ======================================================================
 * Writing: libyaml's emitter into a FILE.
 * ====================================================================== */

struct em {
    yaml_emitter_t e;
    FILE *f;
    int failed;
    int werr; /* errno of a failed write, 0 if none */
    char why[200];
};

static int write_handler(void *data, unsigned char *buf, size_t size)
{
    struct em *m = data;
    if (size && fwrite(buf, 1, size, m->f) != size) {
        m->werr = errno ? errno : EIO;
        return 0;
    }
    return 1;
}

/* Emit EV (built with status INIT_OK). After the first failure everything is
 * a no-op, so the document code below need not check every call. */
static void emit(struct em *m, yaml_event_t *ev, int init_ok)
{
    if (m->failed) {
        if (init_ok)
            yaml_event_delete(ev);
        return;
    }
    if (!init_ok) {
        m->failed = 1;
        snprintf(m->why, sizeof m->why, "cannot build a YAML event (out of memory)");
        return;
    }
    if (!yaml_emitter_emit(&m->e, ev)) {
        m->failed = 1;
        if (m->e.error == YAML_WRITER_ERROR)
            snprintf(m->why, sizeof m->why, "write failed: %s", strerror(m->werr ? m->werr : EIO));
        else if (m->e.error == YAML_MEMORY_ERROR)
            snprintf(m->why, sizeof m->why, "out of memory");
        else
            snprintf(m->why, sizeof m->why, "YAML emitter: %s",
                     m->e.problem ? m->e.problem : "unknown problem");
    }
}

/* Plain scalars that YAML 1.1/1.2 readers would take for something else. */
static int looks_typed(const char *s)
{
    static const char *const words[] = {"null", "true", "false", "yes", "no",
                                        "on",   "off",  "y",     "n"};
    if (!*s || strchr("0123456789+-.~", s[0]))
        return 1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcasecmp(s, words[i]))
            return 1;
    return 0;
}

static void e_scalar(struct em *m, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    size_t len = strlen(s);
    int ok;

    if (m->failed)
        return;
    if (len > INT_MAX) {
        m->failed = 1;
        snprintf(m->why, sizeof m->why, "string too long");
        return;
    }
    ok = yaml_scalar_event_initialize(&ev, NULL, NULL, (const yaml_char_t *)s, (int)len, 1, 1,
                                      style);
    if (!ok) {
        struct qqb_qbuf b;
        /* libyaml refuses strings that are not UTF-8. */
        m->failed = 1;
        snprintf(m->why, sizeof m->why, "string '%s' is not valid UTF-8", qqb_qs(&b, s));
        return;
    }
    emit(m, &ev, 1);
}

/* A string value: the emitter chooses plain or quoted (and escapes); words
 * that look like numbers, booleans or null get double quotes. */
static void e_str(struct em *m, const char *s)
{
    e_scalar(m, s, looks_typed(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
}

static void e_key(struct em *m, const char *k)
{
    e_scalar(m, k, YAML_PLAIN_SCALAR_STYLE);
}

static void e_num(struct em *m, double v)
{
    char buf[40];
    fmt_double(buf, sizeof buf, v);
    e_scalar(m, buf, YAML_PLAIN_SCALAR_STYLE);
}

static void e_u64(struct em *m, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    e_scalar(m, buf, YAML_PLAIN_SCALAR_STYLE);
}

static void e_map(struct em *m, int flow)
{
    yaml_event_t ev;
    emit(m, &ev,
         yaml_mapping_start_event_initialize(
             &ev, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
}

static void e_map_end(struct em *m)
{
    yaml_event_t ev;
    emit(m, &ev, yaml_mapping_end_event_initialize(&ev));
}

static void e_seq(struct em *m, int flow)
{
    yaml_event_t ev;
    emit(m, &ev,
         yaml_sequence_start_event_initialize(
             &ev, NULL, NULL, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

static void e_seq_end(struct em *m)
{
    yaml_event_t ev;
    emit(m, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void kv_str(struct em *m, const char *k, const char *v)
{
    e_key(m, k);
    e_str(m, v);
}

static void kv_num(struct em *m, const char *k, double v)
{
    e_key(m, k);
    e_num(m, v);
}

static void kv_u64(struct em *m, const char *k, uint64_t v)
{
    e_key(m, k);
    e_u64(m, v);
}

static void emit_metric(struct em *m, const struct qqb_metric *x)
{
    e_map(m, 0);
    kv_str(m, "key", x->key);
    kv_str(m, "what", x->what);
    /* Summaries for the human and for tools; the reader recomputes from
     * the samples, which are the data. */
    kv_num(m, "median", qqb_median(x->samples, x->n));
    kv_num(m, "mad", qqb_mad_scaled(x->samples, x->n));
    kv_num(m, "noise_pct", qqb_noise_pct(x->samples, x->n));
    kv_num(m, "min", qqb_min(x->samples, x->n));
    e_key(m, "samples");
    e_seq(m, 1);
    for (size_t i = 0; i < x->n; i++)
        e_num(m, x->samples[i]);
    e_seq_end(m);
    /* Where each sample came from, written only when it is not the
     * default (run 0; launches 0, 1, 2, ... within each run). */
    int any_run = 0, odd_launch = 0;
    uint32_t next_launch[64] = {0};
    for (size_t i = 0; i < x->n; i++) {
        uint32_t run, launch;
        qqb__stamp_of(x, i, &run, &launch);
        any_run |= run != 0;
        if (run >= 64 || launch != next_launch[run])
            odd_launch = 1;
        else
            next_launch[run]++;
    }
    for (int which = 0; which < 2; which++) {
        if (which == 0 ? !any_run : !odd_launch)
            continue;
        e_key(m, which == 0 ? "run" : "launch");
        e_seq(m, 1);
        for (size_t i = 0; i < x->n; i++) {
            uint32_t run, launch;
            qqb__stamp_of(x, i, &run, &launch);
            e_u64(m, which == 0 ? run : launch);
        }
        e_seq_end(m);
    }
    e_map_end(m);
}

static void emit_case(struct em *m, const struct qqb_case_result *c)
{
    e_map(m, 0);
    kv_str(m, "name", c->name);
    kv_str(m, "bench", c->bench);
    if (c->variant)
        kv_str(m, "variant", c->variant);
    if (c->point)
        kv_str(m, "point", c->point);
    kv_u64(m, "nodes", (uint64_t)c->nodes);
    if (c->command) {
        e_key(m, "command");
        e_seq(m, 1);
        for (size_t i = 0; c->command[i]; i++)
            e_str(m, c->command[i]);
        e_seq_end(m);
    }
    kv_u64(m, "runs", c->runs ? c->runs : 1);
    kv_num(m, "tick_mhz", c->mhz);
    kv_u64(m, "launches", c->launches);
    if (c->failures)
        kv_u64(m, "failures", c->failures);
    if (c->failure)
        kv_str(m, "failure", c->failure);
    e_key(m, "metrics");
    e_seq(m, 0);
    for (size_t i = 0; i < c->nmetrics; i++)
        emit_metric(m, &c->metrics[i]);
    e_seq_end(m);
    if (c->nmem) {
        e_key(m, "memory");
        e_seq(m, 0);
        for (size_t i = 0; i < c->nmem; i++) {
            const struct qqb_mem *x = &c->mem[i];
            e_map(m, 1);
            kv_str(m, "key", x->key);
            kv_u64(m, "obj_size", x->obj_size);
            kv_u64(m, "created", x->created);
            kv_u64(m, "deleted", x->deleted);
            kv_u64(m, "obj_bytes", x->obj_bytes);
            kv_u64(m, "alloc_bytes", x->alloc_bytes);
            kv_u64(m, "peak_bytes", x->peak_bytes);
            e_map_end(m);
        }
        e_seq_end(m);
    }
    e_map_end(m);
}

static void emit_results(struct em *m, const struct qqb_results *r, const char *date)
{
    const struct qqb_fingerprint *fp = &r->fp;
    yaml_event_t ev;

    emit(m, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(m, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
    e_map(m, 0);
    kv_u64(m, "qqbench_baseline", QQB_BASELINE_VERSION);
    kv_str(m, "suite", r->suite);
    if (r->label)
        kv_str(m, "label", r->label);
    kv_str(m, "date", date);
    kv_str(m, "qqbench_version", r->version ? r->version : QQB_VERSION);
    if (r->commit)
        kv_str(m, "git_commit", r->commit);
    e_key(m, "fingerprint");
    e_map(m, 0);
    kv_str(m, "id", fp->id);
    kv_str(m, "cpu", fp->cpu);
    kv_num(m, "tick_mhz", fp->mhz);
    e_key(m, "invariant");
    e_scalar(m, fp->invariant ? "true" : "false", YAML_PLAIN_SCALAR_STYLE);
    kv_u64(m, "cores", (uint64_t)(fp->cores < 0 ? 0 : fp->cores));
    kv_str(m, "compiler", fp->compiler);
    kv_str(m, "flags", fp->flags);
    e_map_end(m);
    e_key(m, "cases");
    e_seq(m, 0);
    for (size_t i = 0; i < r->ncases; i++)
        emit_case(m, r->cases[i]);
    e_seq_end(m);
    if (r->nverdicts) {
        e_key(m, "verdicts");
        e_seq(m, 0);
        for (size_t i = 0; i < r->nverdicts; i++) {
            e_map(m, 1);
            kv_str(m, "case", r->verdicts[i].case_name);
            kv_str(m, "key", r->verdicts[i].key);
            kv_str(m, "verdict", r->verdicts[i].verdict);
            e_map_end(m);
        }
        e_seq_end(m);
    }
    e_map_end(m);
    /* An explicit "..." ends the document: a file cut at a line boundary is
     * still valid YAML, and only this marker tells the reader it is whole. */
    emit(m, &ev, yaml_document_end_event_initialize(&ev, 0));
    emit(m, &ev, yaml_stream_end_event_initialize(&ev));
}

/* What the reader would refuse, refused before anything is written. */
static int check_results(const char *path, const struct qqb_results *r, char *err, size_t errlen)
{
    struct qqb_qbuf b, b2;

    if (!r->suite || !plain_name(r->suite))
        return ferr(err, errlen, path, "cannot write a baseline: %s",
                    r->suite ? "invalid suite name" : "no suite name");
    if (!plain_name(r->fp.id))
        return ferr(err, errlen, path, "cannot write a baseline: invalid fingerprint id '%s'",
                    qqb_qs(&b, r->fp.id));
    for (size_t i = 0; i < r->ncases; i++) {
        const struct qqb_case_result *c = r->cases[i];
        if (!c->name || !c->bench)
            return ferr(err, errlen, path, "cannot write a baseline: case %zu has no %s", i + 1,
                        c->name ? "benchmark name" : "name");
        if (c->nodes < 1)
            return ferr(err, errlen, path, "cannot write a baseline: case '%s' has %d nodes",
                        qqb_qs(&b, c->name), c->nodes);
        for (size_t j = 0; j < c->nmetrics; j++) {
            const struct qqb_metric *x = &c->metrics[j];
            for (size_t k = 0; k < x->n; k++)
                if (!isfinite(x->samples[k]))
                    return ferr(err, errlen, path,
                                "cannot write a baseline: case '%s', metric "
                                "'%s' (%s): sample %zu is not a finite number",
                                qqb_qs(&b, c->name), qqb_qs(&b2, x->key), x->what, k + 1);
        }
        for (size_t j = 0; j < c->nmem; j++)
            if (!c->mem[j].key)
                return ferr(err, errlen, path,
                            "cannot write a baseline: case '%s': memory row "
                            "%zu has no key",
                            qqb_qs(&b, c->name), j + 1);
    }
    return 0;
}

/* Take the exclusive lock PATH.lock; returns its descriptor or -1. The lock
 * file stays: deleting it would let a waiter and a newcomer lock two
 * different files. The lock dies with the process holding it. */
static int take_lock(const char *path, char *err, size_t errlen)
{
    char lp[PATH_MAX];
    double deadline;
    int fd;

    if (snprintf(lp, sizeof lp, "%s.lock", path) >= (int)sizeof lp)
        return ferr(err, errlen, path, "path too long");
    /* O_NOFOLLOW: a symbolic link here (dangling or not) would make us
     * create or lock a file somewhere else. */
    fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0)
        return ferr(err, errlen, lp, "cannot open the lock file: %s",
                    errno == ELOOP ? "it is a symbolic link (not followed)" : strerror(errno));
    deadline = qqb_now() + lock_timeout;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK) {
            int e = errno;
            close(fd);
            return ferr(err, errlen, lp, "cannot lock: %s", strerror(e));
        }
        if (qqb_now() >= deadline) {
            close(fd);
            return ferr(err, errlen, path,
                        "another writer has held the lock %s for %.0f s; giving "
                        "up (is another qqbench still running?)",
                        lp, lock_timeout);
        }
        struct timespec ts = {0, 20L * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

static void drop_lock(int fd)
{
    flock(fd, LOCK_UN);
    close(fd);
}

/* Under the lock, any BASE.tmp.<pid> left in DIR is from a writer that died
 * (a live one would hold the lock): remove it. */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t blen = strlen(base);

    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        const char *s = de->d_name;
        char full[PATH_MAX];
        if (strncmp(s, base, blen) != 0 || strncmp(s + blen, ".tmp.", 5) != 0)
            continue;
        s += blen + 5;
        if (!*s || strspn(s, "0123456789") != strlen(s))
            continue;
        if (snprintf(full, sizeof full, "%s/%s", dir, de->d_name) < (int)sizeof full)
            unlink(full);
    }
    closedir(d);
}

/* The locked part of a write: the document made in memory and written to
 * a temporary beside PATH, fsync'd (atomic.h); PATH itself is untouched
 * until the commit. Returns 0, -1 (R cannot be written: a string that is
 * not UTF-8, or out of memory), or -2 (the file system refused). */
static int prepare_locked(struct qqb_atomic *a, const char *path, const char *dir, const char *base,
                          const struct qqb_results *r, char *err, size_t errlen)
{
    char date[32], why[512];
    char *text = NULL;
    size_t len = 0;
    struct em m;

    remove_stale(dir, base);
    memset(&m, 0, sizeof m);
    m.f = open_memstream(&text, &len);
    if (!m.f)
        return ferr(err, errlen, path, "out of memory");
    if (!yaml_emitter_initialize(&m.e)) {
        fclose(m.f);
        free(text);
        return ferr(err, errlen, path, "out of memory");
    }
    yaml_emitter_set_output(&m.e, write_handler, &m);
    yaml_emitter_set_unicode(&m.e, 1);
    yaml_emitter_set_indent(&m.e, 2);
    yaml_emitter_set_width(&m.e, 100);
    if (r->date)
        snprintf(date, sizeof date, "%s", r->date);
    else
        qqb_utc_now(date, sizeof date);
    /* A constant comment, not data: the emitter cannot write comments. */
    fputs("# qqbench baseline; format in docs/BASELINES.md\n", m.f);
    emit_results(&m, r, r->date ? r->date : date);
    if (!m.failed && !yaml_emitter_flush(&m.e)) {
        m.failed = 1;
        snprintf(m.why, sizeof m.why, "out of memory");
    }
    yaml_emitter_delete(&m.e);
    if (fclose(m.f) != 0 && !m.failed) {
        m.failed = 1;
        snprintf(m.why, sizeof m.why, "out of memory");
    }
    if (m.failed) {
        free(text);
        return ferr(err, errlen, path, "%s", m.why);
    }
    int rc = qqb_atomic_prepare(a, path, text, len, why, sizeof why);
    free(text);
    return rc != 0 ? fserr(err, errlen, path, "%s", why) : 0;
}

/* One baseline being stored: its lock held, its new text prepared. */
struct staged {
    int lock;
    struct qqb_atomic a;
};

/* Validate, mkdir -p, lock; then prepare R (or, MERGE, what is stored
 * merged with R). 0 with the lock held and the text prepared; -1 or -2
 * (as store's) with neither. */
static int stage(struct staged *st, const char *path, const struct qqb_results *r, int merge,
                 size_t keep_runs, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    const char *base;
    int rc;

    st->lock = -1;
    st->a.ready = 0;
    if (!path || !*path || !r)
        return ferr(err, errlen, path ? path : "(null)", "no path or results");
    if (split_path(path, dir, sizeof dir, &base) || !*base)
        return ferr(err, errlen, path, "not a file name");
    if (check_results(path, r, err, errlen))
        return -1;
    /* From here a failure is the file system's (full, read-only, not a
     * folder, locked by another writer too long): -2. */
    if (make_dirs(dir, err, errlen))
        return -2;
    st->lock = take_lock(path, err, errlen);
    if (st->lock < 0)
        return -2;
    if (merge && access(path, F_OK) == 0) {
        struct qqb_results old;
        rc = qqb_baseline_read_as(path, r->suite, r->fp.id[0] ? r->fp.id : NULL, &old, err, errlen);
        if (rc == 0) {
            if (qqb_baseline_merge(&old, r, keep_runs) != 0)
                rc = ferr(err, errlen, path,
                          "cannot merge: the stored baseline is for another "
                          "suite or machine (or out of memory)");
            else
                rc = prepare_locked(&st->a, path, dir, base, &old, err, errlen);
        }
        qqb_results_free(&old);
    } else {
        rc = prepare_locked(&st->a, path, dir, base, r, err, errlen);
    }
    if (rc != 0) {
        drop_lock(st->lock);
        st->lock = -1;
    }
    return rc;
}

static void unstage(struct staged *st)
{
    qqb_atomic_abort(&st->a);
    if (st->lock >= 0)
        drop_lock(st->lock);
    st->lock = -1;
}

/* The prepared text renamed into place, the lock dropped. 0 or -2. */
static int commit_staged(struct staged *st, const char *path, char *err, size_t errlen)
{
    char why[512];
    int rc = qqb_atomic_commit(&st->a, why, sizeof why);
    unstage(st);
    return rc != 0 ? fserr(err, errlen, path, "%s", why) : 0;
}

static int store(const char *path, const struct qqb_results *r, int merge, size_t keep_runs,
                 char *err, size_t errlen)
{
    struct staged st;
    int rc = stage(&st, path, r, merge, keep_runs, err, errlen);
    return rc != 0 ? rc : commit_staged(&st, path, err, errlen);
}

int qqb_baseline_update_both(const char *p1, const struct qqb_results *r1, size_t keep1,
                             const char *p2, const struct qqb_results *r2, size_t keep2, char *err,
                             size_t errlen)
{
    /* Locks in one order (by path), so two runs storing the same pair
     * cannot each hold one and wait for the other. */
    int swap = p1 && p2 && strcmp(p1, p2) > 0;
    const char *pa = swap ? p2 : p1, *pb = swap ? p1 : p2;
    const struct qqb_results *ra = swap ? r2 : r1, *rb = swap ? r1 : r2;
    size_t ka = swap ? keep2 : keep1, kb = swap ? keep1 : keep2;
    struct staged sa, sb;
    int rc = stage(&sa, pa, ra, 1, ka, err, errlen);
    if (rc != 0)
        return rc;
    rc = stage(&sb, pb, rb, 1, kb, err, errlen);
    if (rc != 0) {
        unstage(&sa);
        return rc;
    }
    /* Both prepared: the renames are what is left, in one folder's file
     * system each; a rename that fails after the first is said. */
    rc = commit_staged(&sa, pa, err, errlen);
    if (rc != 0) {
        unstage(&sb);
        return rc;
    }
    rc = commit_staged(&sb, pb, err, errlen);
    return rc;
}

int qqb_baseline_write(const char *path, const struct qqb_results *r, char *err, size_t errlen)
{
    return store(path, r, 0, 1, err, errlen);
}

int qqb_baseline_update(const char *path, const struct qqb_results *cur, size_t keep_runs,
                        char *err, size_t errlen)
{
    return store(path, cur, 1, keep_runs, err, errlen);
}

/* ======================================================================
 * Reading: libyaml's event parser behind a cursor.
 * ====================================================================== */

struct rd {
    struct qqb_ycur y;                /* the file, the current event, the first error */
    const char *want_suite, *want_id; /* what the path says; NULL: anything */
    struct qqb_strmap cases;          /* the case names read so far: a duplicate is
                                         found in constant time, not by a scan (a file
                                         of 40,000 cases took 25 s) */
};

static int rfail(struct rd *r, const yaml_mark_t *m, const char *fmt, ...) QQB_PRINTF_LIKE(3, 4);
static int rfail(struct rd *r, const yaml_mark_t *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_ycur_vfail_at(&r->y, (int)m->line + 1, (int)m->column + 1, fmt, ap);
    va_end(ap);
    return -1;
}

static const yaml_mark_t *here(const struct rd *r)
{
    return &r->y.ev.start_mark;
}

static const char *sval(const struct rd *r)
{
    return (const char *)r->y.ev.data.scalar.value;
}

static int next(struct rd *r)
{
    return qqb_ycur_next(&r->y);
}

static int mismatch(struct rd *r, const char *what, const char *field)
{
    struct qqb_qbuf b;
    if (field)
        return rfail(r, here(r), "expected %s for '%s', got %s", what, field,
                     qqb_ycur_got(&b, &r->y));
    return rfail(r, here(r), "expected %s, got %s", what, qqb_ycur_got(&b, &r->y));
}

static int expect(struct rd *r, yaml_event_type_t type, const char *what, const char *field)
{
    if (next(r))
        return -1;
    return r->y.ev.type == type ? 0 : mismatch(r, what, field);
}

static int skip_node(struct rd *r)
{
    return qqb_ycur_skip(&r->y);
}

/* The next key of a mapping: 1 with the key in *k (an index into FIELDS,
 * or -1 for an unknown key, whose value is then skipped by the caller), 0 at
 * the end of the mapping. A key given twice is an error. */
static int next_key(struct rd *r, const char *const *fields, int nfields, unsigned *seen, int *k)
{
    if (next(r))
        return -1;
    if (r->y.ev.type == YAML_MAPPING_END_EVENT)
        return 0;
    if (r->y.ev.type != YAML_SCALAR_EVENT)
        return mismatch(r, "a field name", NULL);
    *k = -1;
    for (int i = 0; i < nfields; i++)
        if (!strcmp(sval(r), fields[i])) {
            if (*seen & (1u << i))
                return rfail(r, here(r), "'%s' is given twice", fields[i]);
            *seen |= 1u << i;
            *k = i;
        }
    return 1;
}

/* Report the first required field missing from SEEN. */
static int check_required(struct rd *r, const yaml_mark_t *start, const char *const *fields,
                          int nfields, unsigned required, unsigned seen, const char *what)
{
    for (int i = 0; i < nfields; i++)
        if ((required & (1u << i)) && !(seen & (1u << i)))
            return rfail(r, start, "%s is missing '%s'", what, fields[i]);
    return 0;
}

/* Value readers: each reads the next event as the value of FIELD. */

static int is_null(const struct rd *r)
{
    const char *s = sval(r);
    return r->y.ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
           (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
            !strcmp(s, "NULL"));
}

/* A string; *DST replaced. NULLABLE: a YAML null gives NULL. */
static int v_string(struct rd *r, const char *field, char **dst, int nullable)
{
    if (next(r))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT)
        return mismatch(r, "a string", field);
    if (is_null(r)) {
        if (!nullable)
            return mismatch(r, "a string", field);
        free(*dst);
        *dst = NULL;
        return 0;
    }
    if (strlen(sval(r)) != r->y.ev.data.scalar.length)
        return rfail(r, here(r), "'%s' holds a NUL character", field);
    char *s = strdup(sval(r));
    if (!s)
        return rfail(r, here(r), "out of memory");
    free(*dst);
    *dst = s;
    return 0;
}

/* A string into a fixed buffer (the fingerprint's). */
static int v_fixed(struct rd *r, const char *field, char *buf, size_t size)
{
    char *s = NULL;
    if (v_string(r, field, &s, 0) || !s)
        return -1;
    if (strlen(s) >= size) {
        free(s);
        return rfail(r, here(r), "'%s' is longer than %zu bytes", field, size - 1);
    }
    memcpy(buf, s, strlen(s) + 1);
    free(s);
    return 0;
}

/* The current event as a plain-scalar number. FINITE: refuse .nan/.inf. */
static int cur_double(struct rd *r, const char *field, int finite, double *v)
{
    static const char *const special[] = {".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",  ".INF",
                                          "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};
    const char *s;
    char *end;

    if (r->y.ev.type != YAML_SCALAR_EVENT || r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        r->y.ev.data.scalar.length == 0)
        return mismatch(r, finite ? "a finite number" : "a number", field);
    s = sval(r);
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (!strcmp(s, special[i])) {
            if (finite)
                return mismatch(r, "a finite number", field);
            *v = i < 3 ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
            return 0;
        }
    /* strtod also takes "nan", "inf" and hex; a baseline has only decimals. */
    if (strspn(s, "0123456789+-.eE") != strlen(s))
        return mismatch(r, finite ? "a finite number" : "a number", field);
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end)
        return mismatch(r, finite ? "a finite number" : "a number", field);
    if (errno == ERANGE && isinf(*v))
        return rfail(r, here(r), "number '%s' for '%s' is out of range", s, field);
    return 0;
}

static int v_double(struct rd *r, const char *field, int finite, double *v)
{
    if (next(r))
        return -1;
    return cur_double(r, field, finite, v);
}

static int v_u64(struct rd *r, const char *field, uint64_t max, uint64_t *v)
{
    const char *s;
    char *end;
    unsigned long long x;

    if (next(r))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT || r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return mismatch(r, "a whole number", field);
    s = sval(r);
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return mismatch(r, "a whole number", field);
    errno = 0;
    x = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || x > max)
        return rfail(r, here(r), "number '%s' for '%s' is out of range", s, field);
    *v = x;
    return 0;
}

static int v_bool(struct rd *r, const char *field, int *v)
{
    if (next(r))
        return -1;
    if (r->y.ev.type == YAML_SCALAR_EVENT && r->y.ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (!strcmp(sval(r), "true")) {
            *v = 1;
            return 0;
        }
        if (!strcmp(sval(r), "false")) {
            *v = 0;
            return 0;
        }
    }
    return mismatch(r, "true or false", field);
}

/* A baseline is found by its path (DIR/ID/SUITE.yaml): a file whose own
 * field says otherwise was copied or renamed by hand, and its numbers are
 * another suite's or machine's. Refused, naming the field. */
static int check_path_field(struct rd *r, const char *field, const char *got, const char *want)
{
    struct qqb_qbuf a, b;
    if (!want || !strcmp(got, want))
        return 0;
    return rfail(r, here(r),
                 "%s '%s' disagrees with the path, which is for %s '%s'; a baseline "
                 "copied or renamed by hand? Move it where its %s says, or remove it",
                 field, qqb_qs(&a, got), field, qqb_qs(&b, want), field);
}

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

    if (expect(r, YAML_MAPPING_START_EVENT, "a mapping", "fingerprint"))
        return -1;
    start = r->y.ev.start_mark;
    while ((rc = next_key(r, fp_fields, NFP, &seen, &k)) == 1) {
        switch (k) {
        case F_ID:
            rc = v_fixed(r, "id", fp->id, sizeof fp->id);
            if (!rc && !plain_name(fp->id))
                rc = rfail(r, here(r),
                           "invalid fingerprint id; expected "
                           "letters, digits, '_', '.' or '-'");
            if (!rc)
                rc = check_path_field(r, "fingerprint id", fp->id, r->want_id);
            break;
        case F_CPU:
            rc = v_fixed(r, "cpu", fp->cpu, sizeof fp->cpu);
            break;
        case F_MHZ:
            rc = v_double(r, "tick_mhz", 1, &fp->mhz);
            break;
        case F_INVARIANT:
            rc = v_bool(r, "invariant", &fp->invariant);
            break;
        case F_CORES:
            rc = v_u64(r, "cores", INT_MAX, &u);
            fp->cores = (int)u;
            break;
        case F_COMPILER:
            rc = v_fixed(r, "compiler", fp->compiler, sizeof fp->compiler);
            break;
        case F_FLAGS:
            rc = v_fixed(r, "flags", fp->flags, sizeof fp->flags);
            break;
        default:
            rc = next(r) || skip_node(r);
            break;
        }
        if (rc)
            return -1;
    }
    if (rc < 0)
        return -1;
    return check_required(r, &start, fp_fields, NFP, (1u << NFP) - 1, seen, "the fingerprint");
}

/* ---- metrics ---- */

enum { M_KEY, M_WHAT, M_MEDIAN, M_MAD, M_NOISE, M_MIN, M_SAMPLES, M_RUN, M_LAUNCH, NMET };
static const char *const met_fields[NMET] = {"key", "what",    "median", "mad",   "noise_pct",
                                             "min", "samples", "run",    "launch"};

/* A flow list of unsigned 32-bit integers (a metric's run or launch). */
static int read_u32_list(struct rd *r, const char *field, uint32_t **v, size_t *n)
{
    size_t cap = 0;
    int rc = expect(r, YAML_SEQUENCE_START_EVENT, "a list of whole numbers", field);
    while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
        const char *s = r->y.ev.type == YAML_SCALAR_EVENT ? sval(r) : "";
        char *end;
        unsigned long long u = strtoull(s, &end, 10);
        if (r->y.ev.type != YAML_SCALAR_EVENT ||
            r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE || !*s || *end ||
            !isdigit((unsigned char)s[0]) || u > UINT32_MAX)
            return mismatch(r, "a whole number", field);
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            uint32_t *nv = realloc(*v, nc * sizeof *nv);
            if (!nv)
                return rfail(r, here(r), "out of memory");
            *v = nv;
            cap = nc;
        }
        (*v)[(*n)++] = (uint32_t)u;
    }
    return rc;
}

static int read_metric(struct rd *r, struct qqb_case_result *c)
{
    yaml_mark_t start = r->y.ev.start_mark;
    char *key = NULL, *what = NULL;
    double *v = NULL, d;
    uint32_t *run = NULL, *launch = NULL;
    size_t n = 0, cap = 0, nrun = 0, nlaunch = 0;
    unsigned seen = 0;
    int k = -1, rc;

    while ((rc = next_key(r, met_fields, NMET, &seen, &k)) == 1) {
        switch (k) {
        case M_KEY:
            rc = v_string(r, "key", &key, 0);
            break;
        case M_WHAT:
            rc = v_string(r, "what", &what, 0);
            break;
        case M_MEDIAN:
        case M_MAD:
        case M_NOISE:
        case M_MIN:
            /* Summaries are derived from the samples; only their syntax
             * is checked. */
            rc = v_double(r, met_fields[k], 0, &d);
            break;
        case M_SAMPLES:
            rc = expect(r, YAML_SEQUENCE_START_EVENT, "a list of numbers", "samples");
            while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
                if ((rc = cur_double(r, "samples", 1, &d)))
                    break;
                if (n == cap) {
                    size_t nc = cap ? 2 * cap : 16;
                    double *nv = realloc(v, nc * sizeof *nv);
                    if (!nv) {
                        rc = rfail(r, here(r), "out of memory");
                        break;
                    }
                    v = nv;
                    cap = nc;
                }
                v[n++] = d; // NOLINT(clang-analyzer-core.uninitialized.Assign)
                            // broke out
            }
            break;
        case M_RUN:
            rc = read_u32_list(r, "run", &run, &nrun);
            break;
        case M_LAUNCH:
            rc = read_u32_list(r, "launch", &launch, &nlaunch);
            break;
        default:
            rc = next(r) || skip_node(r);
            break;
        }
        if (rc)
            break;
    }
    if (rc == 0)
        rc = check_required(r, &start, met_fields, NMET,
                            1u << M_KEY | 1u << M_WHAT | 1u << M_SAMPLES, seen, "the metric");
    if (rc == 0 && ((run && nrun != n) || (launch && nlaunch != n)))
        rc = rfail(r, &start,
                   "the metric's '%s' has %zu entries for %zu "
                   "samples",
                   run && nrun != n ? "run" : "launch", run && nrun != n ? nrun : nlaunch, n);
    if (rc == 0 && qqb_case_find_metric(c, key, what)) {
        struct qqb_qbuf b;
        rc = rfail(r, &start, "metric '%s' (%s) is given twice", qqb_qs(&b, key), what);
    }
    if (rc == 0) {
        struct qqb_metric *m = qqb_case_metric(c, key, what);
        uint32_t count[64] = {0};
        if (!m)
            rc = rfail(r, &start, "out of memory");
        for (size_t i = 0; m && i < n && rc == 0; i++) {
            /* Defaults: run 0; launches counted within each run. */
            uint32_t ru = run ? run[i] : 0;
            uint32_t la = launch ? launch[i] : ru < 64 ? count[ru] : 0;
            if (ru < 64)
                count[ru]++;
            if (qqb_metric_add_at(m, v[i], ru, la))
                rc = rfail(r, &start, "out of memory");
        }
    }
    free(key);
    free(what);
    free(v);
    free(run);
    free(launch);
    return rc ? -1 : 0;
}

/* ---- memory rows ---- */

enum { R_KEY, R_OBJ_SIZE, R_CREATED, R_DELETED, R_OBJ_BYTES, R_ALLOC, R_PEAK, NROW };
static const char *const row_fields[NROW] = {"key",       "obj_size",    "created",   "deleted",
                                             "obj_bytes", "alloc_bytes", "peak_bytes"};

static int read_mem(struct rd *r, struct qqb_case_result *c, size_t *cap)
{
    yaml_mark_t start = r->y.ev.start_mark;
    struct qqb_mem row = {0};
    uint64_t *val[NROW] = {NULL,           &row.obj_size,    &row.created,   &row.deleted,
                           &row.obj_bytes, &row.alloc_bytes, &row.peak_bytes};
    unsigned seen = 0;
    int k = -1, rc;

    while ((rc = next_key(r, row_fields, NROW, &seen, &k)) == 1) {
        if (k == R_KEY)
            rc = v_string(r, "key", &row.key, 0);
        else if (k > 0)
            rc = v_u64(r, row_fields[k], UINT64_MAX, val[k]);
        else
            rc = next(r) || skip_node(r);
        if (rc)
            break;
    }
    if (rc == 0)
        rc = check_required(r, &start, row_fields, NROW, (1u << NROW) - 1, seen, "the memory row");
    /* Every stored row has its key (the field is required). */
    for (size_t i = 0; rc == 0 && row.key && i < c->nmem; i++)
        if (!strcmp(c->mem[i].key, row.key)) { // NOLINT(clang-analyzer-core.NonNullParamChecker)
            struct qqb_qbuf b;
            rc = rfail(r, &start, "memory key '%s' is given twice", qqb_qs(&b, row.key));
        }
    if (rc == 0 && c->nmem == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        struct qqb_mem *nv = realloc(c->mem, nc * sizeof *nv);
        if (!nv)
            rc = rfail(r, &start, "out of memory");
        else {
            c->mem = nv;
            *cap = nc;
        }
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
    NCASE
};
static const char *const case_fields[NCASE] = {
    "name",     "bench",   "variant", "point",  "nodes",   "tick_mhz", "launches",
    "failures", "failure", "metrics", "memory", "command", "runs"};

/* A flow list of strings, NULL-ended, into *DST. */
static int read_strv(struct rd *r, const char *field, char ***dst)
{
    size_t n = 0;
    char **v = calloc(1, sizeof *v);
    int rc = v ? expect(r, YAML_SEQUENCE_START_EVENT, "a list of strings", field)
               : rfail(r, here(r), "out of memory");
    while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
        if (r->y.ev.type != YAML_SCALAR_EVENT) {
            rc = mismatch(r, "a string", field);
            break;
        }
        char **nv = realloc(v, (n + 2) * sizeof *nv);
        if (!nv) {
            rc = rfail(r, here(r), "out of memory");
            break;
        }
        v = nv;
        v[n] = strdup(sval(r));
        v[n + 1] = NULL;
        if (!v[n]) {
            rc = rfail(r, here(r), "out of memory");
            break;
        }
        n++;
    }
    if (rc) {
        for (size_t i = 0; v && i < n; i++)
            free(v[i]);
        free(v);
        return -1;
    }
    *dst = v;
    return 0;
}

/* One case (its mapping start is current), moved into OUT when whole. */
static int read_case(struct rd *r, struct qqb_results *out)
{
    yaml_mark_t start = r->y.ev.start_mark;
    struct qqb_case_result c;
    size_t memcap = 0;
    unsigned seen = 0;
    uint64_t u = 0;
    int k = -1, rc;

    memset(&c, 0, sizeof c);
    c.runs = 1;
    while ((rc = next_key(r, case_fields, NCASE, &seen, &k)) == 1) {
        switch (k) {
        case C_NAME:
            rc = v_string(r, "name", &c.name, 0);
            break;
        case C_BENCH:
            rc = v_string(r, "bench", &c.bench, 0);
            break;
        case C_VARIANT:
            rc = v_string(r, "variant", &c.variant, 1);
            break;
        case C_POINT:
            rc = v_string(r, "point", &c.point, 1);
            break;
        case C_NODES:
            rc = v_u64(r, "nodes", INT_MAX, &u);
            if (!rc && u == 0)
                rc = rfail(r, here(r), "'nodes' must be at least 1");
            c.nodes = (int)u;
            break;
        case C_MHZ:
            rc = v_double(r, "tick_mhz", 0, &c.mhz);
            break;
        case C_LAUNCHES:
            rc = v_u64(r, "launches", SIZE_MAX, &u);
            c.launches = (size_t)u;
            break;
        case C_FAILURES:
            rc = v_u64(r, "failures", SIZE_MAX, &u);
            c.failures = (size_t)u;
            break;
        case C_FAILURE:
            rc = v_string(r, "failure", &c.failure, 1);
            break;
        case C_METRICS:
            rc = expect(r, YAML_SEQUENCE_START_EVENT, "a list of metrics", "metrics");
            while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT)
                rc = r->y.ev.type != YAML_MAPPING_START_EVENT
                         ? mismatch(r, "a metric (a mapping)", "metrics")
                         : read_metric(r, &c);
            break;
        case C_MEMORY:
            rc = expect(r, YAML_SEQUENCE_START_EVENT, "a list of memory rows", "memory");
            while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT)
                rc = r->y.ev.type != YAML_MAPPING_START_EVENT
                         ? mismatch(r, "a memory row (a mapping)", "memory")
                         : read_mem(r, &c, &memcap);
            break;
        case C_COMMAND:
            rc = read_strv(r, "command", &c.command);
            break;
        case C_RUNS:
            rc = v_u64(r, "runs", 1u << 16, &u);
            if (!rc && u == 0)
                rc = rfail(r, here(r), "'runs' must be at least 1");
            c.runs = (size_t)u;
            break;
        default:
            rc = next(r) || skip_node(r);
            break;
        }
        if (rc)
            break;
    }
    if (rc == 0)
        rc = check_required(r, &start, case_fields, NCASE,
                            1u << C_NAME | 1u << C_BENCH | 1u << C_NODES | 1u << C_MHZ |
                                1u << C_LAUNCHES | 1u << C_METRICS,
                            seen, "the case");
    if (rc == 0) {
        int added = qqb_strmap_add(&r->cases, 0, c.name, out->ncases, NULL);
        if (added < 0)
            rc = rfail(r, &start, "out of memory");
        else if (added == 0) {
            struct qqb_qbuf b;
            rc = rfail(r, &start, "case '%s' is given twice", qqb_qs(&b, c.name));
        }
    }
    for (size_t i = 0; rc == 0 && i < c.nmetrics; i++)
        for (size_t j = 0; rc == 0 && j < c.metrics[i].n; j++)
            if (c.metrics[i].run[j] >= c.runs) {
                struct qqb_qbuf b;
                rc = rfail(r, &start,
                           "metric '%s' (%s) has a sample of run %u "
                           "but the case holds %zu run%s",
                           qqb_qs(&b, c.metrics[i].key), c.metrics[i].what,
                           (unsigned)c.metrics[i].run[j], c.runs, c.runs == 1 ? "" : "s");
            }
    if (rc == 0) {
        /* A new slot holding only the name (the name is new: checked
         * above): take it. */
        struct qqb_case_result *slot = qqb_results_append(out, c.name);
        if (!slot) {
            (void)rfail(r, &start, "out of memory");
        } else {
            free(slot->name);
            *slot = c;
            return 0;
        }
    }
    qqb_case_result_free(&c);
    return -1;
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

/* One {case, key, verdict} mapping, its start current. */
static int read_verdict(struct rd *r, struct qqb_results *out)
{
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
            return rfail(r, here(r), "out of memory");
        out->verdicts = nv;
    }
    while ((rc = next_key(r, verd_fields, NVERD, &seen, &k)) == 1) {
        switch (k) {
        case V_CASE:
            rc = v_string(r, "case", &v.case_name, 0);
            break;
        case V_KEY:
            rc = v_string(r, "key", &v.key, 0);
            break;
        case V_VERDICT:
            rc = v_string(r, "verdict", &v.verdict, 0);
            break;
        default:
            rc = next(r) || skip_node(r);
            break;
        }
        if (rc)
            break;
    }
    if (rc == 0 &&
        check_required(r, &start, verd_fields, NVERD, (1u << NVERD) - 1, seen, "a verdict") == 0) {
        out->verdicts[out->nverdicts++] = v;
        return 0;
    }
    free(v.case_name);
    free(v.key);
    free(v.verdict);
    return -1;
}

/* Open PATH and read up to the top-level mapping's start. */
static int open_doc(struct rd *r, const char *path, char *err, size_t errlen)
{
    if (qqb_ycur_open_stored(&r->y, path, "baseline", MAX_BASELINE_SIZE, err, errlen))
        return -1;
    if (expect(r, YAML_STREAM_START_EVENT, "a YAML stream", NULL) || next(r))
        return -1;
    if (r->y.ev.type == YAML_STREAM_END_EVENT)
        return rfail(r, here(r), "empty file; expected a qqbench baseline");
    if (r->y.ev.type != YAML_DOCUMENT_START_EVENT)
        return mismatch(r, "a YAML document", NULL);
    return expect(r, YAML_MAPPING_START_EVENT, "a mapping (a qqbench baseline)", NULL);
}

static int read_doc(struct rd *r, struct qqb_results *out)
{
    yaml_mark_t start = r->y.ev.start_mark;
    unsigned seen = 0;
    uint64_t ver;
    int k = -1, rc;

    /* The version comes first, so a future format is named as such rather
     * than reported as whatever field it changed. */
    if (next(r))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT || strcmp(sval(r), "qqbench_baseline"))
        return rfail(r, here(r),
                     "expected 'qqbench_baseline: %d' as the first "
                     "field; is this a qqbench baseline?",
                     QQB_BASELINE_VERSION);
    seen |= 1u << T_VERSION;
    if (next(r))
        return -1;
    if (r->y.ev.type != YAML_SCALAR_EVENT || r->y.ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        strspn(sval(r), "0123456789") != strlen(sval(r)) || !*sval(r))
        return mismatch(r, "a version number", "qqbench_baseline");
    ver = strtoull(sval(r), NULL, 10);
    if (ver < QQB_BASELINE_VERSION_MIN || ver > QQB_BASELINE_VERSION) {
        struct qqb_qbuf b;
        return rfail(r, here(r),
                     "unsupported baseline version %s (this "
                     "qqbench reads versions %d to %d); a newer qqbench wrote it?",
                     qqb_qs(&b, sval(r)), QQB_BASELINE_VERSION_MIN, QQB_BASELINE_VERSION);
    }

    while ((rc = next_key(r, top_fields, NTOP, &seen, &k)) == 1) {
        switch (k) {
        case T_VERSION:
            rc = -1; /* next_key already reported it twice */
            break;
        case T_SUITE:
            rc = v_string(r, "suite", &out->suite, 0);
            if (!rc && !plain_name(out->suite))
                rc = rfail(r, here(r),
                           "invalid suite name; expected letters, "
                           "digits, '_', '.' or '-'");
            if (!rc)
                rc = check_path_field(r, "suite", out->suite, r->want_suite);
            break;
        case T_LABEL:
            rc = v_string(r, "label", &out->label, 1);
            break;
        case T_DATE:
            rc = v_string(r, "date", &out->date, 0);
            break;
        case T_QQB_VERSION:
            rc = v_string(r, "qqbench_version", &out->version, 0);
            break;
        case T_COMMIT:
            rc = v_string(r, "git_commit", &out->commit, 1);
            break;
        case T_FP:
            rc = read_fp(r, &out->fp);
            break;
        case T_CASES:
            rc = expect(r, YAML_SEQUENCE_START_EVENT, "a list of cases", "cases");
            while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT)
                rc = r->y.ev.type != YAML_MAPPING_START_EVENT
                         ? mismatch(r, "a case (a mapping)", "cases")
                         : read_case(r, out);
            break;
        case T_VERDICTS:
            rc = expect(r, YAML_SEQUENCE_START_EVENT, "a list of verdicts", "verdicts");
            while (!rc && !(rc = next(r)) && r->y.ev.type != YAML_SEQUENCE_END_EVENT)
                rc = r->y.ev.type != YAML_MAPPING_START_EVENT
                         ? mismatch(r, "a verdict (a mapping)", "verdicts")
                         : read_verdict(r, out);
            break;
        default:
            /* Unknown top-level fields are a later version's additions. */
            rc = next(r) || skip_node(r);
            break;
        }
        if (rc)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (check_required(r, &start, top_fields, NTOP,
                       1u << T_SUITE | 1u << T_DATE | 1u << T_QQB_VERSION | 1u << T_FP |
                           1u << T_CASES,
                       seen, "the baseline"))
        return -1;
    if (expect(r, YAML_DOCUMENT_END_EVENT, "the end of the document", NULL))
        return -1;
    if (r->y.ev.data.document_end.implicit)
        return rfail(r, here(r),
                     "the file is truncated: the end marker '...' "
                     "that every baseline ends with is missing");
    if (next(r))
        return -1;
    if (r->y.ev.type != YAML_STREAM_END_EVENT)
        return rfail(r, here(r),
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
        return ferr(err, errlen, "(null)", "no path");
    rc = open_doc(&r, path, err, errlen);
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

/* ======================================================================
 * Merging.
 * ====================================================================== */

static int dup_opt(char **dst, const char *s)
{
    *dst = s ? strdup(s) : NULL;
    return s && !*dst ? -1 : 0;
}

static int copy_case(struct qqb_case_result *d, const struct qqb_case_result *s)
{
    memset(d, 0, sizeof *d);
    d->nodes = s->nodes;
    d->mhz = s->mhz;
    d->launches = s->launches;
    d->failures = s->failures;
    d->runs = s->runs ? s->runs : 1;
    if (dup_opt(&d->name, s->name) || dup_opt(&d->bench, s->bench) ||
        dup_opt(&d->variant, s->variant) || dup_opt(&d->point, s->point) ||
        dup_opt(&d->failure, s->failure) || qqb_strv_dup(s->command, &d->command))
        goto fail;
    for (size_t i = 0; i < s->nmetrics; i++) {
        const struct qqb_metric *sm = &s->metrics[i];
        struct qqb_metric *dm = qqb_case_metric(d, sm->key, sm->what);
        if (!dm)
            goto fail;
        for (size_t j = 0; j < sm->n; j++) {
            uint32_t run, launch;
            qqb__stamp_of(sm, j, &run, &launch);
            if (qqb_metric_add_at(dm, sm->samples[j], run, launch))
                goto fail;
        }
    }
    if (s->nmem) {
        d->mem = calloc(s->nmem, sizeof *d->mem);
        if (!d->mem)
            goto fail;
        for (size_t i = 0; i < s->nmem; i++) {
            d->mem[i] = s->mem[i];
            d->mem[i].key = NULL;
            d->nmem = i + 1;
            if (dup_opt(&d->mem[i].key, s->mem[i].key))
                goto fail;
        }
    }
    return 0;
fail:
    qqb_case_result_free(d);
    return -1;
}

/*
 * D := OLD's runs (the newest KEEP - 1 of them) followed by NEW's samples as
 * one more run; everything else (memory, command, tick MHz, failures) from
 * NEW. Metrics OLD has and NEW lacks keep their older runs.
 */
static int append_run(struct qqb_case_result *d, const struct qqb_case_result *old,
                      const struct qqb_case_result *new, size_t keep)
{
    size_t runs = (old->runs ? old->runs : 1) + 1;
    uint32_t drop = (uint32_t)(runs > keep ? runs - keep : 0);
    uint32_t fresh = (uint32_t)(runs - 1 - drop);
    if (copy_case(d, new))
        return -1;
    d->runs = runs - drop;
    /* NEW's samples become run FRESH: restamp them. */
    for (size_t i = 0; i < d->nmetrics; i++)
        for (size_t j = 0; j < d->metrics[i].n; j++)
            d->metrics[i].run[j] = fresh;
    /* Then OLD's kept runs, in front of them. */
    for (size_t i = 0; i < old->nmetrics; i++) {
        const struct qqb_metric *om = &old->metrics[i];
        struct qqb_metric *dm = qqb_case_metric(d, om->key, om->what);
        if (!dm)
            goto fail;
        size_t keepn = 0;
        for (size_t j = 0; j < om->n; j++) {
            uint32_t run, launch;
            qqb__stamp_of(om, j, &run, &launch);
            keepn += run >= drop;
        }
        size_t n0 = dm->n, total = n0 + keepn;
        double *v = malloc((total ? total : 1) * sizeof *v);
        uint32_t *ru = malloc((total ? total : 1) * sizeof *ru);
        uint32_t *la = malloc((total ? total : 1) * sizeof *la);
        if (!v || !ru || !la) {
            free(v);
            free(ru);
            free(la);
            goto fail;
        }
        size_t k = 0;
        for (size_t j = 0; j < om->n; j++) {
            uint32_t run, launch;
            qqb__stamp_of(om, j, &run, &launch);
            if (run < drop)
                continue;
            v[k] = om->samples[j];
            ru[k] = run - drop;
            la[k++] = launch;
        }
        for (size_t j = 0; j < n0; j++, k++) {
            v[k] = dm->samples[j];
            ru[k] = dm->run[j];
            la[k] = dm->launch[j];
        }
        free(dm->samples);
        free(dm->run);
        free(dm->launch);
        dm->samples = v;
        dm->run = ru;
        dm->launch = la;
        dm->n = dm->nstamped = total;
        dm->cap = dm->capstamp = total ? total : 1;
    }
    return 0;
fail:
    qqb_case_result_free(d);
    return -1;
}

int qqb_baseline_merge(struct qqb_results *base, const struct qqb_results *cur, size_t keep_runs)
{
    struct qqb_case_result *copies;
    char *label = NULL, *date = NULL, *version = NULL, *commit = NULL, *suite = NULL;
    size_t added = 0, i;

    if (keep_runs < 1)
        keep_runs = 1;
    if (base->suite && cur->suite && strcmp(base->suite, cur->suite))
        return -1;
    if (base->fp.id[0] && cur->fp.id[0] && strcmp(base->fp.id, cur->fp.id))
        return -1;
    /* Everything that can fail happens before BASE is touched. */
    copies = calloc(cur->ncases ? cur->ncases : 1, sizeof *copies);
    if (!copies)
        return -1;
    for (i = 0; i < cur->ncases; i++) {
        const struct qqb_case_result *old = qqb_results_find(base, cur->cases[i]->name);
        /* Another command line measured something else: start afresh. */
        int same = old && (!old->command || !cur->cases[i]->command ||
                           qqb_strv_equal(old->command, cur->cases[i]->command));
        int rc = same && keep_runs > 1 ? append_run(&copies[i], old, cur->cases[i], keep_runs)
                                       : copy_case(&copies[i], cur->cases[i]);
        if (rc) {
            while (i-- > 0)
                qqb_case_result_free(&copies[i]);
            free(copies);
            return -1;
        }
        if (!old)
            added++;
    }
    if (dup_opt(&label, cur->label) || dup_opt(&date, cur->date) ||
        dup_opt(&version, cur->version) || dup_opt(&commit, cur->commit) ||
        (!base->suite && dup_opt(&suite, cur->suite)))
        goto fail;
    if (base->ncases + added > base->capcases) {
        size_t cap = base->ncases + added;
        struct qqb_case_result **v = realloc(base->cases, cap * sizeof(struct qqb_case_result *));
        if (!v)
            goto fail;
        base->cases = v;
        base->capcases = cap;
    }
    /* Slots for the new cases first, so nothing below can fail. */
    struct qqb_case_result **slots = calloc(added ? added : 1, sizeof(struct qqb_case_result *));
    if (!slots)
        goto fail;
    for (i = 0; i < added; i++)
        if (!(slots[i] = calloc(1, sizeof **slots))) {
            while (i-- > 0)
                free(slots[i]);
            free(slots);
            goto fail;
        }
    size_t used = 0;
    for (i = 0; i < cur->ncases; i++) {
        struct qqb_case_result *slot = qqb_results_find(base, copies[i].name);
        if (slot)
            qqb_case_result_free(slot);
        else
            slot = base->cases[base->ncases++] = slots[used++];
        *slot = copies[i];
    }
    free(slots);
    free(copies);
    free(base->label);
    free(base->date);
    free(base->version);
    free(base->commit);
    base->label = label;
    base->date = date;
    base->version = version;
    base->commit = commit;
    if (suite)
        base->suite = suite;
    if (cur->fp.id[0])
        base->fp = cur->fp;
    return 0;
fail:
    for (i = 0; i < cur->ncases; i++)
        qqb_case_result_free(&copies[i]);
    free(copies);
    free(label);
    free(date);
    free(version);
    free(commit);
    free(suite);
    return -1;
}

/* ======================================================================
 * Listing: other machines, history.
 * ====================================================================== */

struct list {
    char **v;
    size_t n, cap;
};

static int push(struct list *l, char *s)
{
    if (!s)
        return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            free(s);
            return -1;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

void qqb_baseline_free_list(char **list, size_t n)
{
    if (!list)
        return;
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int qqb_baseline_find_others(const char *dir, const char *suite, const char *except_id, char ***ids,
                             size_t *n)
{
    struct list l = {NULL, 0, 0};
    struct dirent *de;
    DIR *d;

    *ids = NULL;
    *n = 0;
    if (!plain_name(suite))
        return -1;
    if (!dir || !*dir)
        dir = "baselines";
    d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    while ((de = readdir(d)) != NULL) {
        char p[PATH_MAX];
        struct stat st;
        if (de->d_name[0] == '.' || !plain_name(de->d_name) ||
            (except_id && !strcmp(de->d_name, except_id)))
            continue;
        if (snprintf(p, sizeof p, "%s/%s/%s.yaml", dir, de->d_name, suite) >= (int)sizeof p)
            continue;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (push(&l, strdup(de->d_name))) {
            closedir(d);
            qqb_baseline_free_list(l.v, l.n);
            return -1;
        }
    }
    closedir(d);
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, cmp_str);
    *ids = l.v;
    *n = l.n;
    return 0;
}

/* The date and label at the top of a baseline, without reading its cases. */
static void peek_header(const char *path, char **date, char **label)
{
    struct rd r;
    char err[8];
    int depth = 0, want = 0; /* want: 1 date, 2 label */

    memset(&r, 0, sizeof r);
    if (open_doc(&r, path, err, sizeof err) == 0) {
        while (next(&r) == 0) {
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
                    *dst = strdup(sval(&r));
                want = 0;
            } else if (!strcmp(sval(&r), "date")) {
                want = 1;
            } else if (!strcmp(sval(&r), "label")) {
                want = 2;
            } else if (!strcmp(sval(&r), "cases")) {
                break; /* the header is over */
            } else {
                want = 3; /* a value to pass over */
            }
            if (want == 3) {
                if (next(&r) || skip_node(&r))
                    break;
                want = 0;
            }
        }
    }
    qqb_ycur_close(&r.y);
}

struct snap {
    char *date; /* NULL: unreadable, sorts last */
    char *label;
};

static int cmp_snap(const void *a, const void *b)
{
    const struct snap *x = a, *y = b;
    if (!x->date != !y->date)
        return x->date ? -1 : 1;
    if (x->date) {
        int c = strcmp(x->date, y->date);
        if (c)
            return c;
    }
    return qqb_label_cmp(x->label, y->label);
}

int qqb_label_cmp(const char *a, const char *b)
{
    return strverscmp(a, b);
}

/* Whether LABEL's file name (qqb_baseline_path's mapping) is the LLEN
 * bytes at LAB. */
static int label_leads_to(const char *label, const char *lab, size_t llen)
{
    size_t n = strlen(label);
    if (n != llen || n == 0 || n > MAX_LABEL)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (label_file_char(label[i]) != lab[i])
            return 0;
    return 1;
}

int qqb_baseline_history(const char *dir, const char *suite, const char *fp_id, char ***labels,
                         size_t *n)
{
    char hdir[PATH_MAX];
    struct snap *s = NULL;
    size_t ns = 0, cap = 0, slen;
    struct dirent *de;
    DIR *d;
    int rc = 0;

    *labels = NULL;
    *n = 0;
    if (!plain_name(suite) || !plain_name(fp_id))
        return -1;
    if (!dir || !*dir)
        dir = "baselines";
    if (snprintf(hdir, sizeof hdir, "%s/%s/history", dir, fp_id) >= (int)sizeof hdir)
        return -1;
    d = opendir(hdir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    slen = strlen(suite);
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name, *lab;
        size_t len = strlen(name), llen;
        char p[PATH_MAX];
        if (len <= slen + 6 || strncmp(name, suite, slen) || name[slen] != '@' ||
            strcmp(name + len - 5, ".yaml"))
            continue;
        lab = name + slen + 1;
        llen = len - slen - 1 - 5;
        /* Only names qqb_baseline_path can make: "a@b@c.yaml" belongs to
         * suite "a@b", never to suite "a" with label "b@c". */
        int ok = 1;
        for (size_t i = 0; i < llen; i++)
            if (!name_char(lab[i]))
                ok = 0;
        if (!ok)
            continue;
        if (snprintf(p, sizeof p, "%s/%s", hdir, name) >= (int)sizeof p)
            continue;
        if (ns == cap) {
            size_t nc = cap ? 2 * cap : 8;
            struct snap *v = realloc(s, nc * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            s = v;
            cap = nc;
        }
        s[ns].date = NULL;
        s[ns].label = NULL;
        char *inside = NULL;
        peek_header(p, &s[ns].date, &inside);
        /* The label inside (the user's spelling, "../evil") when it leads
         * back to this file ("..__evil"); otherwise the file name's, so a
         * copy with another label is read as itself (and refused there),
         * never as the file its label names (history read that twice). */
        if (inside && label_leads_to(inside, lab, llen))
            s[ns].label = inside;
        else {
            free(inside);
            s[ns].label = strndup(lab, llen);
        }
        ns++;
        if (!s[ns - 1].label) {
            rc = -1;
            break;
        }
    }
    closedir(d);
    if (rc == 0 && ns > 1)
        qsort(s, ns, sizeof *s, cmp_snap);
    if (rc == 0 && ns) {
        *labels = malloc(ns * sizeof **labels);
        if (!*labels)
            rc = -1;
    }
    for (size_t i = 0; i < ns; i++) {
        free(s[i].date);
        if (rc == 0)
            (*labels)[i] = s[i].label;
        else
            free(s[i].label);
    }
    free(s);
    if (rc == 0)
        *n = ns;
    else
        *labels = NULL;
    return rc;
}
