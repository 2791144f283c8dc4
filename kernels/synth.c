/* synth.c - a kernel of declared figures: writes a .qq file whose per-key intervals follow a stated
 * model (launch noise, run shift, bimodal launches, outliers, a planted change), timing nothing. */
#define _DEFAULT_SOURCE /* flock */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "kcommon.h"

#define PROG "synth"

/*
 * The figure of key k (k0, k1, ...) in one launch, in ticks:
 *
 *   base_k * (1 + plant_k) * exp(shift_k) * exp(noise) * bimodal * outlier
 *
 * base_k = (k + 1) * --base; plant_k from --plant or the file synth.plant
 * beside the program (a build's declared change); shift_k the run's shift
 * (--shift sd, --shift-model normal: per key, t5: per key with Student's
 * t tails of the same sd, common: one draw for every key and case of the
 * run), drawn from --seed and $SYNTH_RUN only, so both builds of an
 * --against run and every launch of a run see the same one; noise normal
 * with sd --noise per key and launch; bimodal --bimodal with probability
 * --bimodal-p per launch (every key); outlier --outlier-factor with
 * probability --outliers per key and launch. The launch's draws come from
 * --seed, $SYNTH_RUN, the case (--point, --arm, the program's path) and the
 * launch's index: a counter in $SYNTH_STATE (a folder), or, without it, the
 * clock (not reproducible). Every key gets --steps intervals of exactly
 * that length, so every rule of qq_per_hit reads the figure back.
 *
 * The file is written from docs/FORMAT.md by this program, not by libqq
 * (whose ticks are the clock's): header, META, KEYS, NODE, EVTS, THRD, no
 * CALB (net figures are then the raw ones). The real reader judges it.
 */

static double g_base = 1e6, g_noise = 1.0, g_shift = 0.0, g_bimodal = 1.0, g_bimodal_p = 0.0,
              g_outliers = 0.0, g_outlier_factor = 1.5;
static const char *g_model = "normal", *g_point = "", *g_arm = "", *g_plant = NULL;

enum shift_model { SHIFT_NORMAL, SHIFT_T5, SHIFT_COMMON };

/* ---------------------------------------------------------------------- */

static double normal(struct krng *r)
{
    double u = krng_uniform(r), v = krng_uniform(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

/* Student's t with 5 degrees of freedom scaled to unit variance (5/3). */
static double t5(struct krng *r)
{
    double z = normal(r), chi = 0;
    for (int i = 0; i < 5; i++) {
        double x = normal(r);
        chi += x * x;
    }
    return z / sqrt(chi / 5.0) * sqrt(3.0 / 5.0);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return kdigest_bytes(h, s, strlen(s) + 1);
}

/* ---------------------------------------------------------------------- */

/* The planted change of KEY in this case, in percent, from SPEC: entries
 * "KEY=PCT" or "POINT/ARM/KEY=PCT" split by commas, blanks or newlines (an
 * entry naming a case applies to that case only). -1 with a message on a
 * malformed entry. */
static int plant_of(const char *spec, const char *key, double *pct)
{
    const char *p = spec;
    while (*p) {
        size_t n = strcspn(p, ", \t\r\n");
        if (n == 0) {
            p++;
            continue;
        }
        char entry[512];
        if (n >= sizeof entry) {
            fprintf(stderr, "%s: plant entry too long\n", PROG);
            return -1;
        }
        memcpy(entry, p, n);
        entry[n] = '\0';
        p += n;
        char *eq = strrchr(entry, '=');
        char *end = NULL;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || end == eq + 1 || *end || !isfinite(v) || v <= -100) {
            fprintf(stderr, "%s: bad plant entry '%s' (KEY=PCT or POINT/ARM/KEY=PCT)\n", PROG,
                    entry);
            return -1;
        }
        *eq = '\0';
        const char *name = entry;
        char *slash = strrchr(entry, '/');
        if (slash) {
            *slash = '\0';
            name = slash + 1;
            char want[512];
            snprintf(want, sizeof want, "%s/%s", g_point, g_arm);
            if (strcmp(entry, want) != 0)
                continue;
        }
        if (strcmp(name, key) == 0)
            *pct += v;
    }
    return 0;
}

/* The build's declared change: synth.plant beside the program (ARGV0's
 * folder). NULL when there is none; exits 1 when it cannot be read. */
static char *plant_file(const char *argv0)
{
    char path[4200];
    const char *slash = strrchr(argv0, '/');
    if (slash)
        snprintf(path, sizeof path, "%.*s/synth.plant", (int)(slash - argv0), argv0);
    else
        snprintf(path, sizeof path, "synth.plant");
    FILE *fp = fopen(path, "r");
    if (!fp) {
        if (errno == ENOENT)
            return NULL;
        kdie(PROG, "cannot read %s: %s", path, strerror(errno));
    }
    char *buf = kxcalloc(PROG, 65536, 1);
    size_t n = fread(buf, 1, 65535, fp);
    int bad = ferror(fp) || !feof(fp);
    fclose(fp);
    if (bad)
        kdie(PROG, "cannot read %s (or it is over 64 KiB)", path);
    buf[n] = '\0';
    return buf;
}

/* This launch's index among the launches of case ID: the counter in the
 * folder $SYNTH_STATE (taken under a lock), else the clock. */
static uint64_t launch_index(uint64_t id)
{
    const char *dir = getenv("SYNTH_STATE");
    if (!dir || !*dir) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return kmix64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)getpid());
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/synth-%016llx.n", dir, (unsigned long long)id);
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) != 0)
        kdie(PROG, "cannot use the counter %s: %s", path, strerror(errno));
    char buf[32] = {0};
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    uint64_t n = got > 0 ? strtoull(buf, NULL, 10) : 0;
    int len = snprintf(buf, sizeof buf, "%llu\n", (unsigned long long)(n + 1));
    if (pwrite(fd, buf, (size_t)len, 0) != len || close(fd) != 0)
        kdie(PROG, "cannot update the counter %s: %s", path, strerror(errno));
    return n;
}

/* ----------------------------------------------------------------------
 * The file, from docs/FORMAT.md.
 * ---------------------------------------------------------------------- */

struct out {
    unsigned char *p;
    size_t len, cap;
};

static void put(struct out *o, const void *v, size_t n)
{
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *q = realloc(o->p, cap);
        if (!q)
            kdie(PROG, "out of memory");
        o->p = q;
        o->cap = cap;
    }
    memcpy(o->p + o->len, v, n);
    o->len += n;
}

static void put_le(struct out *o, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(o, b, (size_t)bytes);
}

static void put_f64(struct out *o, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    put_le(o, v, 8);
}

static void pad8(struct out *o, size_t from)
{
    static const unsigned char zero[8] = {0};
    put(o, zero, (8 - (o->len - from) % 8) % 8);
}

static uint32_t tag(const char *t)
{
    return (uint32_t)(unsigned char)t[0] | (uint32_t)(unsigned char)t[1] << 8 |
           (uint32_t)(unsigned char)t[2] << 16 | (uint32_t)(unsigned char)t[3] << 24;
}

/* A section head with a length to be filled by section_end; returns where
 * the payload starts. */
static size_t section(struct out *o, const char *t, uint32_t node)
{
    put_le(o, tag(t), 4);
    put_le(o, node, 4);
    put_le(o, 0, 8);
    return o->len;
}

static void section_end(struct out *o, size_t payload)
{
    pad8(o, payload);
    uint64_t n = o->len - payload;
    for (int i = 0; i < 8; i++)
        o->p[payload - 8 + i] = (unsigned char)(n >> (8 * i));
}

static void meta(struct out *o, const char *name, const char *value)
{
    put_le(o, strlen(name), 4);
    put(o, name, strlen(name));
    put_le(o, strlen(value), 4);
    put(o, value, strlen(value));
}

/* The file of NK state keys named k0.., key k with HITS intervals of
 * LEN[k] ticks each, written to PATH through a temporary and a rename. */
static void write_file(const char *path, long nk, long hits, const uint64_t *len)
{
    struct out o = {0};
    const uint64_t entries = (uint64_t)nk * (uint64_t)hits * 2;
    unsigned char head[64] = {0};
    put(&o, head, sizeof head);

    size_t s = section(&o, "META", 0xFFFFFFFFu);
    meta(&o, "writer", "synth (kernels/synth.c)");
    meta(&o, "tick_source", "synth");
    section_end(&o, s);

    s = section(&o, "KEYS", 0xFFFFFFFFu);
    for (long k = 0; k < nk; k++) {
        char name[32];
        int n = snprintf(name, sizeof name, "k%ld", k);
        put_le(&o, (uint64_t)k, 4);
        put_le(&o, 1, 4); /* state */
        put_le(&o, (uint64_t)n, 4);
        put(&o, name, (size_t)n);
        pad8(&o, s);
    }
    section_end(&o, s);

    s = section(&o, "NODE", 0xFFFFFFFFu);
    size_t node_offset_at = o.len + 8;
    const uint64_t base_tick = UINT64_C(1000000000);
    put_le(&o, 0, 4);       /* node */
    put_le(&o, 1, 4);       /* flags: invariant counter */
    put_le(&o, 0, 8);       /* offset, below */
    put_le(&o, entries, 8); /* entries */
    put_le(&o, base_tick, 8);
    put_f64(&o, 1000.0); /* mhz */
    put_le(&o, 0, 8);    /* dropped */
    put_le(&o, 0, 8);    /* tick_offset */
    put_f64(&o, 0.0);    /* offset_error */
    section_end(&o, s);

    s = section(&o, "EVTS", 0);
    for (int i = 0; i < 8; i++)
        o.p[node_offset_at + (size_t)i] = (unsigned char)((uint64_t)s >> (8 * i));
    uint64_t t = base_tick + 1000;
    for (long h = 0; h < hits; h++)
        for (long k = 0; k < nk; k++) {
            put_le(&o, (uint64_t)k, 4);
            put_le(&o, 0, 4);
            put_le(&o, 1, 8);
            put_le(&o, t, 8);
            t += len[k];
            put_le(&o, (uint64_t)k, 4);
            put_le(&o, 0, 4);
            put_le(&o, 0, 8);
            put_le(&o, t, 8);
            t += 100;
        }
    section_end(&o, s);

    s = section(&o, "THRD", 0);
    put_le(&o, 1, 4); /* one thread */
    put_le(&o, 0, 4);
    put_le(&o, 0, 4);                  /* index */
    put_le(&o, 0, 4);                  /* name_len */
    put_le(&o, (uint64_t)getpid(), 8); /* tid */
    put_le(&o, entries, 8);
    put_le(&o, 0, 8); /* dropped */
    pad8(&o, s);
    section_end(&o, s);

    /* The header, now that the sizes are known. */
    struct out h = {0};
    put(&h, "QQPROF\r\n", 8);
    put_le(&h, 1, 2);
    put_le(&h, 1, 2);
    put_le(&h, 64, 4);
    put_le(&h, 1, 4); /* COMPLETE */
    put_le(&h, (uint64_t)nk, 4);
    put_le(&h, 1, 4);
    put_le(&h, 0, 4);
    put_le(&h, o.len, 8);
    memcpy(o.p, h.p, h.len);
    free(h.p);

    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "wb");
    int ok = fp && fwrite(o.p, 1, o.len, fp) == o.len;
    if (fp && fclose(fp) != 0)
        ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        kdie(PROG, "cannot write %s: %s", path, strerror(errno));
    }
    free(o.p);
}

/* ---------------------------------------------------------------------- */

static const char *const variants[] = {"model", NULL};

int main(int argc, char **argv)
{
    static const struct kopt extra[] = {
        {"base", KOPT_DOUBLE, &g_base, 0, "key k's figure is (k+1) x this, in ticks (default 1e6)"},
        {"noise", KOPT_DOUBLE, &g_noise, 0, "launch noise: sd in percent per key (default 1)"},
        {"shift", KOPT_DOUBLE, &g_shift, 0, "run shift: sd in percent (default 0)"},
        {"shift-model", KOPT_STRING, &g_model, 0,
         "normal (per key), t5 (per key, t tails) or common (one for the run; default normal)"},
        {"bimodal", KOPT_DOUBLE, &g_bimodal, 0,
         "factor of a slow launch, every key (default 1: none)"},
        {"bimodal-p", KOPT_DOUBLE, &g_bimodal_p, 0, "probability of a slow launch (default 0)"},
        {"outliers", KOPT_DOUBLE, &g_outliers, 0,
         "probability of an outlier per key and launch (default 0)"},
        {"outlier-factor", KOPT_DOUBLE, &g_outlier_factor, 0, "an outlier's factor (default 1.5)"},
        {"point", KOPT_STRING, &g_point, 0, "the case's parameter point (names the case)"},
        {"arm", KOPT_STRING, &g_arm, 0, "the case's variant (names the case)"},
        {"plant", KOPT_STRING, &g_plant, 0,
         "changes KEY=PCT or POINT/ARM/KEY=PCT, comma-separated (added to synth.plant's)"},
        {NULL, KOPT_LONG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary =
            "Declared figures, timed nothing: --size keys k0.. each with --steps intervals\n"
            "of (k+1) x --base ticks times the model's launch noise, run shift ($SYNTH_RUN),\n"
            "bimodal launches, outliers and planted change (--plant, synth.plant beside\n"
            "the program); launches counted in $SYNTH_STATE (kernels/README.md).",
        .keys = "states k0, k1, ... (--size of them)",
        .variants = variants,
        .size_default = 1,
        .size_max = 1000,
        .size_unit = "keys",
        .steps_default = 1,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    enum shift_model model;
    if (strcmp(g_model, "normal") == 0)
        model = SHIFT_NORMAL;
    else if (strcmp(g_model, "t5") == 0)
        model = SHIFT_T5;
    else if (strcmp(g_model, "common") == 0)
        model = SHIFT_COMMON;
    else {
        fprintf(stderr, "%s: unknown --shift-model '%s'; valid: normal t5 common\n", PROG, g_model);
        return 2;
    }
    if (!(g_base >= 1 && g_base <= 1e12) || g_noise < 0 || g_shift < 0 || g_bimodal <= 0 ||
        g_bimodal_p < 0 || g_bimodal_p > 1 || g_outliers < 0 || g_outliers > 1 ||
        g_outlier_factor <= 0) {
        fprintf(stderr,
                "%s: --base 1..1e12, --noise and --shift >= 0, factors > 0, "
                "probabilities in [0, 1]\n",
                PROG);
        return 2;
    }
    const char *run_s = getenv("SYNTH_RUN");
    uint64_t run = run_s ? strtoull(run_s, NULL, 10) : 0;
    char *file_plant = plant_file(argv[0]);

    uint64_t cid = hash_str(hash_str(KDIGEST_INIT, g_point), g_arm);
    uint64_t lid = launch_index(hash_str(cid, argv[0]) ^ a.seed);
    struct krng lr, common;
    krng_seed(&lr, a.seed ^ kmix64(run + 1), kmix64(hash_str(cid, argv[0]) + lid));
    krng_seed(&common, a.seed ^ kmix64(run + 1), 0);
    double common_shift = normal(&common);
    double slow = krng_uniform(&lr) < g_bimodal_p ? g_bimodal : 1.0;

    uint64_t *len = kxcalloc(PROG, (size_t)a.size, sizeof *len);
    for (long k = 0; k < a.size; k++) {
        char name[32];
        snprintf(name, sizeof name, "k%ld", k);
        double plant = 0;
        if ((g_plant && plant_of(g_plant, name, &plant) != 0) ||
            (file_plant && plant_of(file_plant, name, &plant) != 0))
            return 2;
        struct krng rr;
        krng_seed(&rr, a.seed ^ kmix64(run + 1), kmix64(cid + (uint64_t)k + 1));
        double z = model == SHIFT_COMMON ? common_shift : model == SHIFT_T5 ? t5(&rr) : normal(&rr);
        double shift = g_shift / 100.0 * z;
        double noise = g_noise / 100.0 * normal(&lr);
        double out = krng_uniform(&lr) < g_outliers ? g_outlier_factor : 1.0;
        double fig =
            g_base * (double)(k + 1) * (1 + plant / 100.0) * exp(shift + noise) * slow * out;
        len[k] = fig < 1 ? 1 : (uint64_t)llround(fig);
        if (a.print)
            printf("%s %llu\n", name, (unsigned long long)len[k]);
    }
    const char *path = getenv("QQ_OUTPUT");
    write_file(path && *path ? path : "synth.qq", a.size, a.steps, len);
    kxfree(len);
    free(file_plant);
    return 0;
}
