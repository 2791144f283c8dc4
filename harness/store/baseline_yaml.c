/* baseline_yaml.c - a baseline as YAML text: libyaml's emitter into memory. */
#include "baseline_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "clock.h"
#include "stats.h"

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

/* A list of strings, flow style when SHORT. */
static void emit_strv(struct em *m, const char *key, char *const *v, int flow)
{
    e_key(m, key);
    e_seq(m, flow);
    for (size_t i = 0; v[i]; i++)
        e_str(m, v[i]);
    e_seq_end(m);
}

/* The kernel's build, the parts known (docs/BASELINES.md). */
static void emit_build(struct em *m, const struct qqb_kbuild *b)
{
    if (b->id)
        kv_str(m, "build_id", b->id);
    if (b->compiler)
        emit_strv(m, "compiler", b->compiler, 1);
    if (b->producer)
        emit_strv(m, "producer", b->producer, 0);
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
    if (c->metric)
        kv_str(m, "metric", c->metric);
    if (c->command)
        emit_strv(m, "command", c->command, 1);
    kv_u64(m, "runs", c->runs ? c->runs : 1);
    emit_build(m, &c->build);
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
            if (x->peak_gap) /* bounds: threads at once on the key */
                kv_u64(m, "peak_low", x->peak_bytes - x->peak_gap);
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
int qqb__bl_check_results(const char *path, const struct qqb_results *r, char *err, size_t errlen)
{
    struct qqb_qbuf b, b2;

    if (!r->suite || !qqb__bl_plain_name(r->suite))
        return qqb__bl_ferr(err, errlen, path, "cannot write a baseline: %s",
                            r->suite ? "invalid suite name" : "no suite name");
    if (!qqb__bl_plain_name(r->fp.id))
        return qqb__bl_ferr(err, errlen, path,
                            "cannot write a baseline: invalid fingerprint id '%s'",
                            qqb_qs(&b, r->fp.id));
    for (size_t i = 0; i < r->ncases; i++) {
        const struct qqb_case_result *c = r->cases[i];
        if (!c->name || !c->bench)
            return qqb__bl_ferr(err, errlen, path, "cannot write a baseline: case %zu has no %s",
                                i + 1, c->name ? "benchmark name" : "name");
        if (c->nodes < 1)
            return qqb__bl_ferr(err, errlen, path,
                                "cannot write a baseline: case '%s' has %d nodes",
                                qqb_qs(&b, c->name), c->nodes);
        for (size_t j = 0; j < c->nmetrics; j++) {
            const struct qqb_metric *x = &c->metrics[j];
            for (size_t k = 0; k < x->n; k++)
                if (!isfinite(x->samples[k]))
                    return qqb__bl_ferr(err, errlen, path,
                                        "cannot write a baseline: case '%s', metric "
                                        "'%s' (%s): sample %zu is not a finite number",
                                        qqb_qs(&b, c->name), qqb_qs(&b2, x->key), x->what, k + 1);
        }
        for (size_t j = 0; j < c->nmem; j++)
            if (!c->mem[j].key)
                return qqb__bl_ferr(err, errlen, path,
                                    "cannot write a baseline: case '%s': memory row "
                                    "%zu has no key",
                                    qqb_qs(&b, c->name), j + 1);
    }
    return 0;
}

int qqb__bl_text(const char *path, const struct qqb_results *r, char **text, size_t *len, char *err,
                 size_t errlen)
{
    char date[32];
    struct em m;

    *text = NULL;
    *len = 0;
    memset(&m, 0, sizeof m);
    m.f = open_memstream(text, len);
    if (!m.f)
        return qqb__bl_ferr(err, errlen, path, "out of memory");
    if (!yaml_emitter_initialize(&m.e)) {
        fclose(m.f);
        free(*text);
        *text = NULL;
        return qqb__bl_ferr(err, errlen, path, "out of memory");
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
        free(*text);
        *text = NULL;
        return qqb__bl_ferr(err, errlen, path, "%s", m.why);
    }
    return 0;
}
