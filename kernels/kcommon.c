/* kcommon.c - the kernels' shared command line, splitmix64 RNG, FNV-1a digest and helpers. */
#include "kcommon.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */

static void print_help(const struct kspec *spec)
{
    printf("usage: %s [options]\n\n%s\n\n", spec->prog, spec->summary);
    printf("QQ keys recorded:\n%s\n\n", spec->keys);
    printf("options:\n");
    printf("  --help          this text\n");
    if (spec->size_max > 0)
        printf("  --size N        problem size (default %ld, at most %ld)\n", spec->size_default,
               spec->size_max);
    else
        printf("  --size N        problem size (default %ld)\n", spec->size_default);
    printf("  --steps T       timesteps / rounds (default %ld)\n", spec->steps_default);
    printf("  --seed S        RNG seed; same seed, same results (default 1)\n");
    printf("  --variant NAME  one of:");
    for (const char *const *v = spec->variants; *v; v++)
        printf(" %s%s", *v, v == spec->variants ? " (default)" : "");
    printf("\n");
    printf("  --print         print a digest of the results\n");
    if (spec->extra)
        for (const struct kopt *o = spec->extra; o->name; o++) {
            const char *arg = o->type == KOPT_FLAG     ? ""
                              : o->type == KOPT_STRING ? " NAME"
                              : o->type == KOPT_LONG   ? " N"
                                                       : " X";
            char buf[64];
            snprintf(buf, sizeof buf, "--%s%s", o->name, arg);
            printf("  %-15s %s\n", buf, o->help);
        }
}

/* Strict integer parse: the whole text, in range. */
static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* Print one error line unless quiet; always returns KARGS_ERROR. */
static int arg_error(const struct kspec *spec, int quiet, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int arg_error(const struct kspec *spec, int quiet, const char *fmt, ...)
{
    if (!quiet) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: ", spec->prog);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, " (try --help)\n");
        va_end(ap);
    }
    return KARGS_ERROR;
}

int kargs_parse(const struct kspec *spec, int argc, char **argv, struct kargs *out, int quiet)
{
    out->size = spec->size_default;
    out->steps = spec->steps_default;
    out->seed = 1;
    out->variant = spec->variants[0];
    out->variant_index = 0;
    out->print = 0;
    out->size_given = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0)
            return arg_error(spec, quiet, "unexpected argument '%s'", a);
        const char *name = a + 2;
        /* Accept both "--opt value" and "--opt=value". */
        const char *eq = strchr(name, '=');
        size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
        const char *val = eq ? eq + 1 : NULL;
#define IS(s) (nlen == strlen(s) && strncmp(name, (s), nlen) == 0)
#define NEED_VAL()                                                                                 \
    do {                                                                                           \
        if (!val) {                                                                                \
            if (i + 1 >= argc)                                                                     \
                return arg_error(spec, quiet, "option --%.*s needs a value", (int)nlen, name);     \
            val = argv[++i];                                                                       \
        }                                                                                          \
    } while (0)
        if (IS("help")) {
            if (!quiet)
                print_help(spec);
            return KARGS_HELP;
        } else if (IS("print")) {
            if (val)
                return arg_error(spec, quiet, "--print takes no value");
            out->print = 1;
        } else if (IS("size") || IS("steps")) {
            long v;
            NEED_VAL();
            if (parse_long(val, &v) != 0 || v < 1)
                return arg_error(spec, quiet, "--%.*s wants a positive integer, not '%s'",
                                 (int)nlen, name, val);
            if (IS("size") && spec->size_max > 0 && v > spec->size_max)
                return arg_error(spec, quiet, "--size at most %ld%s%s", spec->size_max,
                                 spec->size_unit ? " " : "",
                                 spec->size_unit ? spec->size_unit : "");
            if (IS("size")) {
                out->size = v;
                out->size_given = 1;
            } else {
                out->steps = v;
            }
        } else if (IS("seed")) {
            NEED_VAL();
            if (parse_u64(val, &out->seed) != 0)
                return arg_error(spec, quiet, "--seed wants an unsigned integer, not '%s'", val);
        } else if (IS("variant")) {
            NEED_VAL();
            int found = -1;
            for (int k = 0; spec->variants[k]; k++)
                if (strcmp(spec->variants[k], val) == 0)
                    found = k;
            if (found < 0) {
                if (!quiet) {
                    fprintf(stderr, "%s: unknown variant '%s'; valid:", spec->prog, val);
                    for (const char *const *v = spec->variants; *v; v++)
                        fprintf(stderr, " %s", *v);
                    fprintf(stderr, "\n");
                }
                return KARGS_ERROR;
            }
            out->variant = spec->variants[found];
            out->variant_index = found;
        } else {
            const struct kopt *o = NULL;
            if (spec->extra)
                for (const struct kopt *p = spec->extra; p->name; p++)
                    if (IS(p->name))
                        o = p;
            if (!o)
                return arg_error(spec, quiet, "unknown option '%s'", a);
            if (o->type == KOPT_FLAG) {
                if (val)
                    return arg_error(spec, quiet, "--%s takes no value", o->name);
                *(int *)o->dst = 1;
                continue;
            }
            NEED_VAL();
            if (o->type == KOPT_LONG) {
                long v;
                if (parse_long(val, &v) != 0 || v < o->min)
                    return arg_error(spec, quiet, "--%s wants an integer >= %ld, not '%s'", o->name,
                                     o->min, val);
                *(long *)o->dst = v;
            } else if (o->type == KOPT_DOUBLE) {
                char *end;
                errno = 0;
                double v = strtod(val, &end);
                if (errno || end == val || *end || !isfinite(v))
                    return arg_error(spec, quiet, "--%s wants a number, not '%s'", o->name, val);
                *(double *)o->dst = v;
            } else {
                *(const char **)o->dst = val;
            }
        }
#undef IS
#undef NEED_VAL
    }
    return KARGS_OK;
}

void kargs_parse_or_exit(const struct kspec *spec, int argc, char **argv, struct kargs *out)
{
    int rc = kargs_parse(spec, argc, argv, out, 0);
    if (rc == KARGS_HELP)
        exit(0);
    if (rc != KARGS_OK)
        exit(2);
}

/* ---------------------------------------------------------------------- */

uint64_t kmix64(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

void krng_seed(struct krng *r, uint64_t seed, uint64_t stream)
{
    /* Distinct streams (per rank, per cell, ...) from one seed. */
    r->s = kmix64(seed ^ kmix64(stream + UINT64_C(0x9e3779b97f4a7c15)));
}

uint64_t krng_next(struct krng *r)
{
    r->s += UINT64_C(0x9e3779b97f4a7c15);
    return kmix64(r->s);
}

double krng_uniform(struct krng *r)
{
    return (double)(krng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t krng_below(struct krng *r, uint64_t n)
{
    /* Rejection keeps it unbiased. */
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do
        v = krng_next(r);
    while (v >= lim);
    return v % n;
}

/* ---------------------------------------------------------------------- */

uint64_t kdigest_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

uint64_t kdigest_u64(uint64_t h, uint64_t v)
{
    /* Byte order fixed (little-endian) so digests compare across hosts. */
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return kdigest_bytes(h, b, 8);
}

uint64_t kdigest_double(uint64_t h, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return kdigest_u64(h, bits);
}

/* ---------------------------------------------------------------------- */

int kqq_events(uint64_t dflt)
{
    if (dflt < 1024)
        dflt = 1024;
    if (dflt > (uint64_t)INT_MAX)
        dflt = (uint64_t)INT_MAX;
    /* QQInit takes the larger of its argument and $QQ_EVENTS (qq.h): the
     * same rule here, so what a kernel reports is what QQInit maps. */
    const char *e = getenv("QQ_EVENTS"); /* QQ_EVENTS_ENV of qq.h */
    if (e && *e) {
        long v;
        if (parse_long(e, &v) == 0 && v > 0 && v <= INT_MAX)
            return (uint64_t)v > dflt ? (int)v : (int)dflt;
        fprintf(stderr, "warning: ignoring QQ_EVENTS='%s' (not a positive int)\n", e);
    }
    return (int)dflt;
}

void kdie(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void *kxcalloc(const char *prog, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        kdie(prog, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void kxfree(void *p)
{
    free(p);
}

static int kcmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double kmedian(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, kcmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
