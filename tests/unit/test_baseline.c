/* test_baseline.c - the baseline store: round trip, atomic and locked writes, bad files, lists. */
/* flock() for holding the lock from the test. */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "git.h"
#include "kbuild.h"
#include "test.h"

static char root[64]; /* this run's scratch directory (mkdtemp in the cwd) */

static void str_set(char **dst, const char *s)
{
    free(*dst);
    *dst = s ? strdup(s) : NULL;
}

static void fp_fill(struct qqb_fingerprint *fp)
{
    memset(fp, 0, sizeof *fp);
    snprintf(fp->cpu, sizeof fp->cpu, "Intel(R) Xeon(R) CPU @ 2.10GHz");
    fp->mhz = 2100;
    fp->invariant = 1;
    fp->cores = 2;
    snprintf(fp->compiler, sizeof fp->compiler, "GNU 12.2.0");
    snprintf(fp->flags, sizeof fp->flags, "RelWithDebInfo");
    snprintf(fp->id, sizeof fp->id, "x86_64-2cpu-1a2b3c4d");
}

/* Two cases whose names, strings and numbers exercise quoting and
 * round-tripping. */
static void make_awkward(struct qqb_results *r)
{
    static const double s1[] = {123456,
                                1e-300,
                                123456789.123,
                                0.1,
                                5e-324,
                                1.7976931348623157e308,
                                -0.0,
                                9007199254740993.0,
                                2.2250738585072014e-308,
                                1.0 / 3.0,
                                1e21};
    struct qqb_case_result *c;
    struct qqb_metric *m;

    memset(r, 0, sizeof *r);
    str_set(&r->suite, "ncs");
    str_set(&r->label, "v1.2: \"rc\" #1");
    str_set(&r->date, "2026-11-22T22:47:01Z");
    str_set(&r->version, "0.1.0");
    str_set(&r->commit, "0123abc");
    fp_fill(&r->fp);

    c = qqb_results_case(r, "a: b");
    str_set(&c->bench, "\"q\"");
    str_set(&c->variant, "#x");
    str_set(&c->point, "size=100,steps=10");
    c->nodes = 2;
    c->mhz = 2096.014;
    c->launches = 11;
    c->failures = 1;
    str_set(&c->failure, "rank 1: killed\nby signal 9\t(tab) ");
    m = qqb_case_metric(c, "Km", "sum"); /* signed, any finite number: the writer's digits */
    for (size_t i = 0; i < sizeof s1 / sizeof s1[0]; i++)
        qqb_metric_add(m, s1[i]);
    m = qqb_case_metric(c, "Ωμέγα→∞ key", "per_hit");
    qqb_metric_add(m, 42.5);
    qqb_metric_add(m, 43.25);
    m = qqb_case_metric(c, "null", "hits");
    qqb_metric_add(m, 7);
    qqb_case_metric(c, "- dash", "sum"); /* no samples at all */
    c->mem = calloc(2, sizeof *c->mem);
    c->nmem = 2;
    c->mem[0].key = strdup("Synapse");
    c->mem[0].obj_size = 44;
    c->mem[0].created = 10000;
    c->mem[0].obj_bytes = 440000;
    c->mem[0].peak_bytes = 440000;
    c->mem[0].peak_gap = 40000; /* bounds 400000..440000: threads on the key at once */
    c->mem[1].key = strdup("{weird}, key: [x]");
    c->mem[1].obj_size = UINT64_MAX;
    c->mem[1].deleted = 1;
    c->mem[1].alloc_bytes = 18446744073709551614u;

    c = qqb_results_case(r, "123");
    str_set(&c->bench, "true");
    str_set(&c->variant, "");
    c->nodes = 1;
    c->mhz = NAN; /* no good launch */
    c->launches = 3;
    m = qqb_case_metric(c, "'single'", "sum");
    qqb_metric_add(m, 1e-5);
    qqb_metric_add(m, 3.5e+300);
    qqb_metric_add(m, 100);
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_dbl(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a);
}

/* Everything equal, doubles bit for bit. */
static int same_results(const struct qqb_results *a, const struct qqb_results *b)
{
    if (!same_str(a->suite, b->suite) || !same_str(a->label, b->label) ||
        !same_str(a->date, b->date) || !same_str(a->version, b->version) ||
        !same_str(a->commit, b->commit) || strcmp(a->fp.cpu, b->fp.cpu) ||
        !same_dbl(a->fp.mhz, b->fp.mhz) || a->fp.invariant != b->fp.invariant ||
        a->fp.cores != b->fp.cores || strcmp(a->fp.compiler, b->fp.compiler) ||
        strcmp(a->fp.flags, b->fp.flags) || strcmp(a->fp.id, b->fp.id) || a->ncases != b->ncases)
        return 0;
    for (size_t i = 0; i < a->ncases; i++) {
        const struct qqb_case_result *x = a->cases[i], *y = b->cases[i];
        if (!same_str(x->name, y->name) || !same_str(x->bench, y->bench) ||
            !same_str(x->variant, y->variant) || !same_str(x->point, y->point) ||
            x->nodes != y->nodes || !same_dbl(x->mhz, y->mhz) || x->launches != y->launches ||
            x->failures != y->failures || !same_str(x->failure, y->failure) ||
            x->nmetrics != y->nmetrics || x->nmem != y->nmem || x->runs != y->runs ||
            !qqb_strv_equal(x->command, y->command))
            return 0;
        for (size_t j = 0; j < x->nmetrics; j++) {
            const struct qqb_metric *p = &x->metrics[j], *q = &y->metrics[j];
            if (strcmp(p->key, q->key) || strcmp(p->what, q->what) || p->n != q->n)
                return 0;
            if (p->n && memcmp(p->samples, q->samples, p->n * sizeof *p->samples))
                return 0;
            for (size_t k = 0; k < p->n; k++) {
                uint32_t r1, l1, r2, l2;
                qqb__stamp_of(p, k, &r1, &l1);
                qqb__stamp_of(q, k, &r2, &l2);
                if (r1 != r2 || l1 != l2)
                    return 0;
            }
        }
        for (size_t j = 0; j < x->nmem; j++) {
            const struct qqb_mem *p = &x->mem[j], *q = &y->mem[j];
            if (strcmp(p->key, q->key) || p->obj_size != q->obj_size || p->created != q->created ||
                p->deleted != q->deleted || p->obj_bytes != q->obj_bytes ||
                p->alloc_bytes != q->alloc_bytes || p->peak_bytes != q->peak_bytes ||
                p->peak_gap != q->peak_gap)
                return 0;
        }
    }
    return 1;
}

/* A big baseline: NC cases x NM metrics x NS samples, values from SEED. */
static void make_big(struct qqb_results *r, size_t nc, size_t nm, size_t ns, unsigned seed)
{
    char name[64];
    memset(r, 0, sizeof *r);
    str_set(&r->suite, "big");
    str_set(&r->date, "2026-01-01T00:00:00Z");
    str_set(&r->version, "0.1.0");
    fp_fill(&r->fp);
    for (size_t i = 0; i < nc; i++) {
        snprintf(name, sizeof name, "bench%zu[v]@%zu", i, i % 4 + 1);
        struct qqb_case_result *c = qqb_results_case(r, name);
        snprintf(name, sizeof name, "bench%zu", i);
        str_set(&c->bench, name);
        c->nodes = (int)(i % 4 + 1);
        c->mhz = 2100.5;
        c->launches = ns;
        for (size_t j = 0; j < nm; j++) {
            snprintf(name, sizeof name, "key%zu", j);
            struct qqb_metric *m = qqb_case_metric(c, name, "ticks");
            for (size_t k = 0; k < ns; k++)
                qqb_metric_add(m, 1000.0 * (double)(seed + 1) +
                                      (double)((i * 31 + j * 7 + k) % 97) / 3.0);
        }
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf) {
        buf[fread(buf, 1, (size_t)n, f)] = '\0';
    }
    fclose(f);
    return buf;
}

static void put(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(text, 1, len, f);
    fclose(f);
}

/* Files named NAME.tmp.* in DIR. */
static int count_tmp(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    char pre[256];
    snprintf(pre, sizeof pre, "%s.tmp.", name);
    if (!d)
        return -1;
    while ((de = readdir(d)) != NULL)
        if (!strncmp(de->d_name, pre, strlen(pre)))
            n++;
    closedir(d);
    return n;
}

static void test_round_trip(void)
{
    struct qqb_results r, back, again;
    char path[256], path2[256], err[512] = "";
    char *text, *text2;

    make_awkward(&r);
    CHECK_INT_EQ(qqb_baseline_path(root, "ncs", &r.fp, NULL, path, sizeof path), 0);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    CHECK(same_results(&r, &back));
    CHECK_DBL_NEAR(back.cases[0]->metrics[0].samples[1], 1e-300, 0);
    CHECK_DBL_NEAR(back.cases[0]->metrics[0].samples[2], 123456789.123, 0);
    CHECK(signbit(back.cases[0]->metrics[0].samples[6]));
    CHECK_STR_EQ(back.cases[0]->name, "a: b");
    CHECK_STR_EQ(back.cases[0]->bench, "\"q\"");
    CHECK_STR_EQ(back.cases[0]->variant, "#x");
    CHECK_STR_EQ(back.cases[1]->variant, "");
    CHECK(back.cases[1]->point == NULL);
    CHECK_U64_EQ(back.cases[0]->mem[1].obj_size, UINT64_MAX);

    /* Human-readable, the documented layout. */
    text = slurp(path);
    CHECK(text != NULL);
    if (text) {
        CHECK_STR_CONTAINS(text, "qqbench_baseline: 2\nsuite: ncs\n");
        CHECK_STR_CONTAINS(text, "id: x86_64-2cpu-1a2b3c4d\n");
        CHECK_STR_CONTAINS(text, "tick_mhz: 2096.014\n");
        CHECK_STR_CONTAINS(text, "- key: Km\n");
        CHECK_STR_CONTAINS(text, "samples: [123456, 1.0e-300, 123456789.123, 0.1,");
        CHECK_STR_CONTAINS(text, "- {key: Synapse, obj_size: 44, created: 10000,");
        CHECK_STR_CONTAINS(text, "Ωμέγα→∞ key");   /* UTF-8 as is */
        CHECK_STR_CONTAINS(text, "name: \"123\""); /* quoted: not a number */
        CHECK_STR_CONTAINS(text, "bench: \"true\"");
        CHECK_STR_CONTAINS(text, "tick_mhz: .nan");
        size_t n = strlen(text);
        CHECK(n > 4 && !strcmp(text + n - 4, "...\n"));
    }

    /* Written again from what was read: byte-identical. */
    snprintf(path2, sizeof path2, "%s/again/ncs.yaml", root);
    CHECK_INT_EQ(qqb_baseline_write(path2, &back, err, sizeof err), 0);
    text2 = slurp(path2);
    CHECK(text && text2 && !strcmp(text, text2));
    CHECK_INT_EQ(qqb_baseline_read(path2, &again, err, sizeof err), 0);
    CHECK(same_results(&r, &again));
    CHECK_INT_EQ(count_tmp(root, "again/ncs.yaml"), 0);

    /* A NULL date is written as now, a NULL version as this qqbench's. */
    str_set(&r.date, NULL);
    str_set(&r.version, NULL);
    CHECK_INT_EQ(qqb_baseline_write(path2, &r, err, sizeof err), 0);
    qqb_results_free(&again);
    CHECK_INT_EQ(qqb_baseline_read(path2, &again, err, sizeof err), 0);
    CHECK(again.date && strlen(again.date) == 20 && again.date[19] == 'Z');
    CHECK(again.version && *again.version);

    free(text);
    free(text2);
    qqb_results_free(&r);
    qqb_results_free(&back);
    qqb_results_free(&again);
}

/* A baseline whose suite: or fingerprint id: disagrees with its path is
 * refused with the field named and its position; the update that would
 * merge into it is refused too, the file left as it was. */
static void test_path_fields(void)
{
    struct qqb_results r, back;
    char path[256], wrong[256], err[512] = "";
    struct qqb_fingerprint other;

    make_awkward(&r);
    CHECK_INT_EQ(qqb_baseline_path(root, "ncs", &r.fp, NULL, path, sizeof path), 0);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_baseline_read_as(path, "ncs", r.fp.id, &back, err, sizeof err), 0);
    qqb_results_free(&back);
    CHECK_INT_EQ(qqb_baseline_read_as(path, "ci", r.fp.id, &back, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, ":3:8: error: suite 'ncs' disagrees with the path, which is for "
                            "suite 'ci'");
    CHECK(back.ncases == 0);
    CHECK_INT_EQ(qqb_baseline_read_as(path, "ncs", "arm-4cpu-0000", &back, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "error: fingerprint id 'x86_64-2cpu-1a2b3c4d' disagrees with the "
                            "path, which is for fingerprint id 'arm-4cpu-0000'");

    /* The same file copied into another machine's folder, then updated. */
    other = r.fp;
    snprintf(other.id, sizeof other.id, "arm-4cpu-0000");
    CHECK_INT_EQ(qqb_baseline_path(root, "ncs", &other, NULL, wrong, sizeof wrong), 0);
    snprintf(err, sizeof err, "%s", wrong);
    *strrchr(err, '/') = '\0';
    mkdir(err, 0755);
    char *text = slurp(path);
    CHECK(text != NULL);
    if (text) {
        put(wrong, text, strlen(text));
        r.fp = other;
        CHECK_INT_EQ(qqb_baseline_update(wrong, &r, 5, err, sizeof err), -1);
        CHECK_STR_CONTAINS(err, "fingerprint id 'x86_64-2cpu-1a2b3c4d' disagrees with the path");
        char *after = slurp(wrong);
        CHECK(after && !strcmp(after, text));
        free(after);
        free(text);
    }
    qqb_results_free(&r);
}

static void test_write_refuses(void)
{
    struct qqb_results r;
    char path[256], err[512] = "";
    struct stat st;

    make_awkward(&r);
    snprintf(path, sizeof path, "%s/refuse/ncs.yaml", root);
    qqb_metric_add(qqb_case_metric(r.cases[1], "k", "ticks"), NAN);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "refuse/ncs.yaml: error: ");
    CHECK_STR_CONTAINS(err, "not a finite number");
    CHECK(stat(path, &st) != 0);
    qqb_results_free(&r);

    make_awkward(&r);
    str_set(&r.cases[0]->point, "bad \xff utf-8");
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "not valid UTF-8");
    CHECK(stat(path, &st) != 0);
    CHECK_INT_EQ(count_tmp(root, "refuse/ncs.yaml"), 0);
    qqb_results_free(&r);
}

static void test_path(void)
{
    struct qqb_fingerprint fp;
    char out[256];

    fp_fill(&fp);
    CHECK_INT_EQ(qqb_baseline_path("baselines", "ncs", &fp, NULL, out, sizeof out), 0);
    CHECK_STR_EQ(out, "baselines/x86_64-2cpu-1a2b3c4d/ncs.yaml");
    CHECK_INT_EQ(qqb_baseline_path(NULL, "ncs", &fp, "v1.2", out, sizeof out), 0);
    CHECK_STR_EQ(out, "baselines/x86_64-2cpu-1a2b3c4d/history/ncs@v1.2.yaml");
    /* "../x" cannot leave history/. */
    CHECK_INT_EQ(qqb_baseline_path("b", "ncs", &fp, "../x", out, sizeof out), 0);
    CHECK_STR_EQ(out, "b/x86_64-2cpu-1a2b3c4d/history/ncs@.._x.yaml");
    CHECK_INT_EQ(qqb_baseline_path("b", "ncs", &fp, "a/../../b c:d*", out, sizeof out), 0);
    CHECK_STR_EQ(out, "b/x86_64-2cpu-1a2b3c4d/history/ncs@a_.._.._b_c_d_.yaml");
    CHECK_INT_EQ(qqb_baseline_path("b", "ncs", &fp, "Ω", out, sizeof out), 0);
    CHECK_STR_EQ(out, "b/x86_64-2cpu-1a2b3c4d/history/ncs@__.yaml");
    CHECK_INT_EQ(qqb_baseline_path("b", "ncs", &fp, "", out, sizeof out), -1);
    CHECK_INT_EQ(qqb_baseline_path("b", "../ncs", &fp, NULL, out, sizeof out), -1);
    CHECK_INT_EQ(qqb_baseline_path("b", "..", &fp, NULL, out, sizeof out), -1);
    CHECK_INT_EQ(qqb_baseline_path("b", "ncs", &fp, NULL, out, 10), -1);
    snprintf(fp.id, sizeof fp.id, "../etc");
    CHECK_INT_EQ(qqb_baseline_path("b", "ncs", &fp, NULL, out, sizeof out), -1);
}

/* Write TEXT as NAME in root, read it, expect failure with "NAME:WHERE" and
 * WHAT in the message. */
static void bad(const char *name, const char *text, const char *where, const char *what)
{
    char path[256], err[512] = "", want[300];
    struct qqb_results r;

    snprintf(path, sizeof path, "%s/%s", root, name);
    put(path, text, strlen(text));
    CHECK_INT_EQ(qqb_baseline_read(path, &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s%s error: ", path, where);
    CHECK_STR_CONTAINS(err, want);
    CHECK_STR_CONTAINS(err, what);
    CHECK(strchr(err, '\n') == NULL);
    CHECK(r.ncases == 0 && r.suite == NULL);
}

#define HEAD                                                                                       \
    "qqbench_baseline: 1\n"                                                                        \
    "suite: ncs\n"                                                                                 \
    "date: \"2026-11-22T22:47:01Z\"\n"                                                             \
    "qqbench_version: \"0.1.0\"\n"                                                                 \
    "fingerprint:\n"                                                                               \
    "  id: x86_64-2cpu-1a2b3c4d\n"                                                                 \
    "  cpu: cpu\n"                                                                                 \
    "  tick_mhz: 2100\n"                                                                           \
    "  invariant: true\n"                                                                          \
    "  cores: 2\n"                                                                                 \
    "  compiler: GNU 12.2.0\n"                                                                     \
    "  flags: RelWithDebInfo\n"

#define CASE_HEAD                                                                                  \
    "cases:\n"                                                                                     \
    "- name: km\n"                                                                                 \
    "  bench: km\n"                                                                                \
    "  nodes: 1\n"                                                                                 \
    "  tick_mhz: 2096.014\n"                                                                       \
    "  launches: 3\n"

static void test_bad_files(void)
{
    struct qqb_results r, back;
    char path[256], cut[256], err[512] = "";
    char *text;

    /* Truncated copies of a real file. */
    make_awkward(&r);
    snprintf(path, sizeof path, "%s/good.yaml", root);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    text = slurp(path);
    CHECK(text != NULL);
    if (text) {
        size_t n = strlen(text);
        snprintf(cut, sizeof cut, "%s/cut.yaml", root);
        /* Every cut length either fails with a position or (never) parses. */
        for (size_t len = 0; len + 1 < n; len += 7) {
            put(cut, text, len);
            err[0] = '\0';
            CHECK_INT_EQ(qqb_baseline_read(cut, &back, err, sizeof err), -1);
            CHECK_STR_CONTAINS(err, "cut.yaml:");
        }
        /* Cut at a line boundary: still valid YAML, caught by the missing
         * end marker. */
        char *dots = strstr(text, "\n...");
        if (dots) {
            put(cut, text, (size_t)(dots - text) + 1);
            CHECK_INT_EQ(qqb_baseline_read(cut, &back, err, sizeof err), -1);
            CHECK_STR_CONTAINS(err, "error: the file is truncated");
        }
        /* Mid-sample: the flow sequence never closes. */
        char *s = strstr(text, "123456789.123");
        if (s) {
            put(cut, text, (size_t)(s - text) + 5);
            CHECK_INT_EQ(qqb_baseline_read(cut, &back, err, sizeof err), -1);
            CHECK_STR_CONTAINS(err, "invalid YAML");
        }
        free(text);
    }
    qqb_results_free(&r);

    bad("version.yaml", "qqbench_baseline: 3\nsuite: ncs\n...\n",
        ":1:19:", "unsupported baseline version 3");
    bad("noversion.yaml", "suite: ncs\nqqbench_baseline: 1\n...\n",
        ":1:1:", "expected 'qqbench_baseline: 2' as the first field");
    bad("missing_suite.yaml",
        "# comment\nqqbench_baseline: 1\ndate: x\nqqbench_version: y\n"
        "fingerprint: {id: a, cpu: b, tick_mhz: 1, invariant: false, cores: 1,"
        " compiler: c, flags: d}\ncases: []\n...\n",
        ":2:1:", "the baseline is missing 'suite'");
    bad("sample.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n"
                       "    samples: [1, 2, abc]\n...\n",
        ":22:21:", "expected a finite number for 'samples', got 'abc'");
    bad("nan.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n"
                       "    samples: [1, .nan]\n...\n",
        ":22:18:", "expected a finite number for 'samples'");
    bad("quoted.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n"
                       "    samples: [1, \"2\"]\n...\n",
        ":22:18:", "expected a finite number");
    bad("overflow.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n"
                       "    samples: [1e999]\n...\n",
        ":22:15:", "out of range");
    bad("hex.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n"
                       "    samples: [0x10]\n...\n",
        ":22:15:", "expected a finite number");
    /* Key names hold to the rule for names (names.h), as the run JSON's do
     * (issue 33: a backquote, ESC and 300 bytes were read and written back). */
    bad("tick.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km`x\n    what: ticks\n"
                       "    samples: [1]\n...\n",
        ":20:10:", "'key': the name 'Km`x' has the byte 0x60 at 3");
    bad("esc.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: \"K\\e\"\n    what: ticks\n"
                       "    samples: [1]\n...\n",
        ":20:10:", "'key': the name 'K?' has the byte 0x1b at 2");
    {
        char keytext[2048];
        char longkey[301];
        memset(longkey, 'k', 300);
        longkey[300] = '\0';
        snprintf(keytext, sizeof keytext,
                 HEAD CASE_HEAD "  metrics:\n  - key: %s\n    what: ticks\n"
                                "    samples: [1]\n...\n",
                 longkey);
        bad("long.yaml", keytext, ":20:10:", "'key': the name");
    }
    bad("memtick.yaml",
        HEAD CASE_HEAD "  metrics: []\n  memory:\n"
                       "  - {key: S`, obj_size: 4, created: 0, deleted: 0, obj_bytes: 0,"
                       " alloc_bytes: 0, peak_bytes: 0}\n...\n",
        ":21:11:", "'key': the name 'S`' has the byte 0x60");
    /* Timing samples are ticks: 0 to 1e15 (issue 33: 1e308 gave a 309-digit
     * reason, negative ones 'noisy'). */
    bad("huge.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: per_hit\n"
                       "    samples: [1, 1e308]\n...\n",
        ":22:18:", "sample 1e+308 of 'Km' (per_hit) is out of range: expected 0 to 1e+15");
    bad("minus.yaml",
        HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n"
                       "    samples: [-5]\n...\n",
        ":22:15:", "sample -5 of 'Km' (ticks) is out of range");
    bad("nosamples.yaml", HEAD CASE_HEAD "  metrics:\n  - key: Km\n    what: ticks\n...\n",
        ":20:5:", "the metric is missing 'samples'");
    bad("nobench.yaml",
        HEAD "cases:\n- name: km\n  nodes: 1\n  tick_mhz: 1\n  launches: 1\n"
             "  metrics: []\n...\n",
        ":14:3:", "the case is missing 'bench'");
    bad("negative.yaml",
        HEAD CASE_HEAD "  metrics: []\n  memory:\n"
                       "  - {key: S, obj_size: -4, created: 0, deleted: 0, obj_bytes: 0,"
                       " alloc_bytes: 0, peak_bytes: 0}\n...\n",
        ":21:24:", "expected a whole number for 'obj_size', got '-4'");
    bad("peaklow.yaml",
        HEAD CASE_HEAD "  metrics: []\n  memory:\n"
                       "  - {key: S, obj_size: 4, created: 0, deleted: 0, obj_bytes: 0,"
                       " alloc_bytes: 0, peak_bytes: 10, peak_low: 11}\n...\n",
        ":21:5:", "peak_low 11 is above peak_bytes 10");
    bad("dupcase.yaml",
        HEAD CASE_HEAD "  metrics: []\n- name: km\n  bench: km\n  nodes: 1\n"
                       "  tick_mhz: 1\n  launches: 1\n  metrics: []\n...\n",
        ":20:3:", "case 'km' is given twice");
    bad("dupkey.yaml", HEAD "suite: again\ncases: []\n...\n", ":13:1:", "'suite' is given twice");
    bad("bool.yaml",
        "qqbench_baseline: 1\nsuite: s\ndate: d\nqqbench_version: v\n"
        "fingerprint: {id: a, cpu: b, tick_mhz: 1, invariant: yes, cores: 1,"
        " compiler: c, flags: d}\ncases: []\n...\n",
        ":5:54:", "expected true or false for 'invariant', got 'yes'");
    bad("syntax.yaml", HEAD "cases: [\n", ":14:1:", "invalid YAML");
    bad("empty.yaml", "", ":1:1:", "empty file");
    bad("list.yaml", "- 1\n- 2\n", ":1:1:", "expected a mapping");
    /* The suite loader's cursor: anchors and aliases refused alike, reader
     * errors at a line and column, nesting bounded. */
    bad("anchor.yaml", HEAD "cases: &c []\nx: *c\n...\n",
        ":13:8:", "anchors are not allowed (found '&c'); write the value out");
    bad("alias.yaml", HEAD "cases: []\nx: *c\n...\n",
        ":14:4:", "aliases are not allowed (found '*c'); write the value out");
    bad("utf8.yaml", HEAD "label: \"ab\xff\"\ncases: []\n...\n", ":13:11:",
        "invalid YAML: invalid leading UTF-8 octet (byte 0xFF); baselines must be UTF-8");
    {
        /* An unknown field nested past the bound: refused at the first
         * level too deep, after reading that far only. */
        size_t depth = 40000, n = strlen(HEAD) + 2 * depth + 64;
        char *deep = malloc(n);
        CHECK(deep != NULL);
        if (deep) {
            size_t at = (size_t)snprintf(deep, n, "%szzz: ", HEAD);
            memset(deep + at, '[', depth);
            memset(deep + at + depth, ']', depth);
            snprintf(deep + at + 2 * depth, n - at - 2 * depth, "\ncases: []\n...\n");
            bad("deep.yaml", deep, ":13:69:", "lists and mappings nested more than 64 deep");
            free(deep);
        }
    }
    bad("twodocs.yaml", HEAD "cases: []\n...\n---\nx: 1\n", ":15:1:", "a second YAML document");

    /* Unknown fields in cases and metrics (and at the top) are a later
     * version's: ignored. */
    snprintf(path, sizeof path, "%s/future.yaml", root);
    const char *future =
        HEAD "machine_profile: {l1_gbs: [1, 2], mpi: {lat_us: 1.5}}\n" CASE_HEAD "  colour: blue\n"
             "  metrics:\n  - key: Km\n    what: ticks\n    ci: [1, {a: b}]\n"
             "    samples: [1, 2.5, 3]\n    extra: x\n"
             "  - {key: C, what: sum, samples: [-3, 2e20]}\n...\n"; /* a count's sum is signed */
    put(path, future, strlen(future));
    err[0] = '\0';
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    CHECK_INT_EQ(back.ncases, 1);
    if (back.ncases == 1) {
        CHECK_INT_EQ(back.cases[0]->nmetrics, 2);
        CHECK_INT_EQ(back.cases[0]->metrics[0].n, 3);
        CHECK_DBL_NEAR(back.cases[0]->metrics[0].samples[1], 2.5, 0);
    }
    qqb_results_free(&back);

    snprintf(path, sizeof path, "%s/does-not-exist.yaml", root);
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "does-not-exist.yaml: error: cannot open");
}

static void test_merge(void)
{
    struct qqb_results base, cur, other;

    make_big(&base, 3, 2, 4, 1); /* bench0.. bench2, values ~2000 */
    make_big(&cur, 0, 0, 0, 0);
    str_set(&cur.date, "2027-01-01T00:00:00Z");
    str_set(&cur.commit, "feed");
    /* One case replaced, one added. */
    struct qqb_case_result *c = qqb_results_case(&cur, "bench1[v]@2");
    str_set(&c->bench, "bench1");
    c->nodes = 2;
    c->launches = 2;
    qqb_metric_add(qqb_case_metric(c, "new", "ticks"), 5);
    c = qqb_results_case(&cur, "added");
    str_set(&c->bench, "added");
    c->nodes = 1;
    qqb_metric_add(qqb_case_metric(c, "k", "ticks"), 6);

    CHECK_INT_EQ(qqb_baseline_merge(&base, &cur, 1), 0);
    CHECK_INT_EQ(base.ncases, 4);
    CHECK_STR_EQ(base.cases[0]->name, "bench0[v]@1");
    CHECK_STR_EQ(base.cases[1]->name, "bench1[v]@2"); /* in place */
    CHECK_INT_EQ(base.cases[1]->nmetrics, 1);
    CHECK_STR_EQ(base.cases[1]->metrics[0].key, "new");
    CHECK_INT_EQ(base.cases[1]->launches, 2);
    CHECK_STR_EQ(base.cases[2]->name, "bench2[v]@3");
    CHECK_INT_EQ(base.cases[2]->nmetrics, 2); /* untouched */
    CHECK_STR_EQ(base.cases[3]->name, "added");
    CHECK_STR_EQ(base.date, "2027-01-01T00:00:00Z");
    CHECK_STR_EQ(base.commit, "feed");
    /* cur is a copy source only. */
    CHECK_INT_EQ(cur.ncases, 2);
    CHECK_STR_EQ(cur.cases[0]->metrics[0].key, "new");

    /* Another suite or machine: refused, base unchanged. */
    make_big(&other, 1, 1, 1, 0);
    str_set(&other.suite, "other");
    CHECK_INT_EQ(qqb_baseline_merge(&base, &other, 1), -1);
    str_set(&other.suite, "big");
    snprintf(other.fp.id, sizeof other.fp.id, "aarch64-8cpu-00000000");
    CHECK_INT_EQ(qqb_baseline_merge(&base, &other, 1), -1);
    CHECK_INT_EQ(base.ncases, 4);

    qqb_results_free(&base);
    qqb_results_free(&cur);
    qqb_results_free(&other);
}

static void test_find_others(void)
{
    char dir[256], path[300], err[512] = "";
    struct qqb_results r;
    char **ids = NULL;
    size_t n = 99;
    static const char *const machines[] = {"m-b", "m-a", "m-c"};

    snprintf(dir, sizeof dir, "%s/others", root);
    CHECK_INT_EQ(qqb_baseline_find_others(dir, "ncs", NULL, &ids, &n), 0);
    CHECK_INT_EQ(n, 0); /* no directory yet */
    make_big(&r, 1, 1, 2, 0);
    str_set(&r.suite, "ncs");
    for (int i = 0; i < 3; i++) {
        snprintf(r.fp.id, sizeof r.fp.id, "%s", machines[i]);
        snprintf(path, sizeof path, "%s/%s/ncs.yaml", dir, machines[i]);
        CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    }
    /* A machine with only another suite, and a snapshot only: not listed. */
    snprintf(r.fp.id, sizeof r.fp.id, "m-d");
    snprintf(path, sizeof path, "%s/m-d/ci.yaml", dir);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/m-d/history/ncs@v1.yaml", dir);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);

    CHECK_INT_EQ(qqb_baseline_find_others(dir, "ncs", "m-b", &ids, &n), 0);
    CHECK_INT_EQ(n, 2);
    if (n == 2) {
        CHECK_STR_EQ(ids[0], "m-a");
        CHECK_STR_EQ(ids[1], "m-c");
    }
    qqb_baseline_free_list(ids, n);
    CHECK_INT_EQ(qqb_baseline_find_others(dir, "ci", "m-b", &ids, &n), 0);
    CHECK_INT_EQ(n, 1);
    if (n == 1)
        CHECK_STR_EQ(ids[0], "m-d");
    qqb_baseline_free_list(ids, n);
    CHECK_INT_EQ(qqb_baseline_find_others(dir, "../x", NULL, &ids, &n), -1);
    qqb_results_free(&r);
}

static void test_history(void)
{
    /* Labels whose alphabetical order is not their date order. */
    static const char *const labels[] = {"v2.0", "v1.10", "../evil", "v1.9"};
    static const char *const dates[] = {"2026-03-01T00:00:00Z", "2026-02-01T00:00:00Z",
                                        "2026-01-15T00:00:00Z", "2026-01-20T00:00:00Z"};
    char dir[256], path[640], err[512] = "";
    struct qqb_results r;
    char **labs = NULL;
    size_t n = 0;

    snprintf(dir, sizeof dir, "%s/hist", root);
    make_big(&r, 1, 1, 3, 0);
    str_set(&r.suite, "ncs");
    for (int i = 0; i < 4; i++) {
        str_set(&r.label, labels[i]);
        str_set(&r.date, dates[i]);
        CHECK_INT_EQ(qqb_baseline_path(dir, "ncs", &r.fp, labels[i], path, sizeof path), 0);
        CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    }
    /* Another suite's snapshot and a suite named "ncs@x": not ours. */
    str_set(&r.label, "v9");
    CHECK_INT_EQ(qqb_baseline_path(dir, "ncs@x", &r.fp, "v9", path, sizeof path), -1);
    CHECK_INT_EQ(qqb_baseline_path(dir, "ci", &r.fp, "v9", path, sizeof path), 0);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/%s/history/ncs@x@v9.yaml", dir, r.fp.id);
    put(path, "x", 1);

    CHECK_INT_EQ(qqb_baseline_history(dir, "ncs", r.fp.id, &labs, &n), 0);
    CHECK_INT_EQ(n, 4);
    if (n == 4) {
        CHECK_STR_EQ(labs[0], "../evil"); /* the user's spelling */
        CHECK_STR_EQ(labs[1], "v1.9");
        CHECK_STR_EQ(labs[2], "v1.10");
        CHECK_STR_EQ(labs[3], "v2.0");
        /* The label maps back to the file. */
        CHECK_INT_EQ(qqb_baseline_path(dir, "ncs", &r.fp, labs[0], path, sizeof path), 0);
        CHECK_STR_CONTAINS(path, "/history/ncs@.._evil.yaml");
        struct qqb_results back;
        CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
        CHECK_STR_EQ(back.label, "../evil");
        qqb_results_free(&back);
    }
    qqb_baseline_free_list(labs, n);

    CHECK_INT_EQ(qqb_baseline_history(dir, "ncs", "no-such-machine", &labs, &n), 0);
    CHECK_INT_EQ(n, 0);
    qqb_results_free(&r);
}

static unsigned long long rng_state = 0x5eed1234abcdULL;

static unsigned rnd(unsigned below)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % below);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* A child writing a big baseline over and over, killed at random moments:
 * the file is then absent (first round), the old baseline or the new one,
 * never a mixture or a half file. */
static void test_atomic_kill(void)
{
    struct qqb_results old, next, back;
    char path[300], dir[256], err[512];
    int have_old = 0, absent = 0, olds = 0, news = 0;

    snprintf(dir, sizeof dir, "%s/atomic", root);
    snprintf(path, sizeof path, "%s/big.yaml", dir);
    memset(&old, 0, sizeof old);
    for (int round = 0; round < 8; round++) {
        /* 200 cases x 10 metrics x 50 samples, different in every round. */
        make_big(&next, 200, 10, 50, (unsigned)round + 10);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            char e[512];
            for (;;)
                if (qqb_baseline_write(path, &next, e, sizeof e))
                    _exit(3);
        }
        CHECK(pid > 0);
        if (pid <= 0) {
            qqb_results_free(&next);
            break;
        }
        sleep_ms(rnd(400));
        kill(pid, SIGKILL);
        int st = 0;
        waitpid(pid, &st, 0);
        CHECK(WIFSIGNALED(st)); /* not an early write error */
        if (access(path, F_OK) != 0) {
            CHECK(!have_old); /* once there, a baseline never disappears */
            absent++;
            qqb_results_free(&next);
            continue;
        }
        err[0] = '\0';
        CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
        CHECK_STR_EQ(err, "");
        if (same_results(&next, &back)) {
            news++;
            qqb_results_free(&old);
            old = next;
            have_old = 1;
        } else {
            CHECK(have_old && same_results(&old, &back));
            olds++;
            qqb_results_free(&next);
        }
        qqb_results_free(&back);
    }
    printf("  atomic: after the kills, %d times no file yet, %d times the old "
           "baseline, %d times the new one; %d temporary file(s) left\n",
           absent, olds, news, count_tmp(dir, "big.yaml"));
    /* The next write removes what killed writers left. */
    if (have_old) {
        CHECK_INT_EQ(qqb_baseline_write(path, &old, err, sizeof err), 0);
        CHECK_INT_EQ(count_tmp(dir, "big.yaml"), 0);
    }
    qqb_results_free(&old);
}

/* Two writers of different contents at once: the file is one of them. */
static void test_concurrent(void)
{
    struct qqb_results a, b, back;
    char path[300], dir[256], err[512] = "";
    pid_t pids[2];

    make_big(&a, 20, 5, 20, 1);
    make_big(&b, 30, 4, 25, 2);
    snprintf(dir, sizeof dir, "%s/conc", root);
    snprintf(path, sizeof path, "%s/big.yaml", dir);
    fflush(NULL);
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            char e[512];
            for (int k = 0; k < 15; k++)
                if (qqb_baseline_write(path, i ? &b : &a, e, sizeof e))
                    _exit(3);
            _exit(0);
        }
    }
    for (int i = 0; i < 2; i++) {
        int st = 0;
        CHECK(pids[i] > 0);
        if (pids[i] > 0) {
            waitpid(pids[i], &st, 0);
            CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        }
    }
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK(same_results(&back, &a) || same_results(&back, &b));
    CHECK_INT_EQ(count_tmp(dir, "big.yaml"), 0);
    qqb_results_free(&back);
    qqb_results_free(&a);
    qqb_results_free(&b);
}

/* Concurrent read-merge-writes of different cases: both survive. */
static void test_update(void)
{
    char path[256], err[512] = "";
    struct qqb_results back;
    pid_t pids[2];

    snprintf(path, sizeof path, "%s/upd/x/ncs.yaml", root);
    fflush(NULL);
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            struct qqb_results r;
            char e[512], name[32];
            make_big(&r, 0, 0, 0, 0);
            for (int k = 0; k < 10; k++) {
                snprintf(name, sizeof name, "w%d-%d", i, k);
                struct qqb_case_result *c = qqb_results_case(&r, name);
                str_set(&c->bench, "b");
                c->nodes = 1;
                qqb_metric_add(qqb_case_metric(c, "k", "ticks"), k + 1.0);
                if (qqb_baseline_update(path, &r, 1, e, sizeof e))
                    _exit(3);
            }
            qqb_results_free(&r);
            _exit(0);
        }
    }
    for (int i = 0; i < 2; i++) {
        int st = 0;
        if (pids[i] > 0) {
            waitpid(pids[i], &st, 0);
            CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        }
    }
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK_INT_EQ(back.ncases, 20);
    CHECK(qqb_results_find(&back, "w0-9") && qqb_results_find(&back, "w1-9"));
    qqb_results_free(&back);

    /* A damaged stored baseline is reported, not overwritten. */
    put(path, "qqbench_baseline: [", 19);
    make_big(&back, 1, 1, 1, 0);
    CHECK_INT_EQ(qqb_baseline_update(path, &back, 1, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "upd/x/ncs.yaml:1:");
    qqb_results_free(&back);
}

static void test_lock_timeout(void)
{
    char path[256], lock[300], err[512] = "";
    struct qqb_results r;
    int fd;

    snprintf(path, sizeof path, "%s/locked/ncs.yaml", root);
    snprintf(lock, sizeof lock, "%s.lock", path);
    make_big(&r, 1, 1, 2, 0);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    fd = open(lock, O_RDWR | O_CREAT, 0644); /* a write leaves none: another writer's */
    CHECK(fd >= 0);
    CHECK_INT_EQ(flock(fd, LOCK_EX), 0);
    qqb_baseline_set_lock_timeout(0.2);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), -2);
    CHECK_STR_CONTAINS(err, "locked/ncs.yaml: error: another writer has held the lock");
    flock(fd, LOCK_UN);
    close(fd);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    qqb_baseline_set_lock_timeout(QQB_BASELINE_LOCK_SECONDS);
    qqb_results_free(&r);
}

static void mkdirs(const char *p)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", p);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(buf, 0777);
            *s = '/';
        }
    mkdir(buf, 0777);
}

static void test_git_commit(void)
{
    static const char h1[] = "0123456789abcdef0123456789abcdef01234567";
    static const char h2[] = "fedcba9876543210fedcba9876543210fedcba98";
    char repo[256], p[400], out[80];
    char sub[300];

    snprintf(repo, sizeof repo, "%s/repo", root);
    snprintf(p, sizeof p, "%s/.git/refs/heads", repo);
    mkdirs(p);
    snprintf(sub, sizeof sub, "%s/src/deep", repo);
    mkdirs(sub);

    /* A branch with a loose ref, found from a subdirectory too. */
    snprintf(p, sizeof p, "%s/.git/HEAD", repo);
    put(p, "ref: refs/heads/main\n", 21);
    snprintf(p, sizeof p, "%s/.git/refs/heads/main", repo);
    put(p, "", 0); /* an empty ref file: unresolvable */
    CHECK_INT_EQ(qqb_git_commit(repo, out, sizeof out), -1);
    FILE *f = fopen(p, "w");
    if (f) {
        fprintf(f, "%s\n", h1);
        fclose(f);
    }
    CHECK_INT_EQ(qqb_git_commit(repo, out, sizeof out), 0);
    CHECK_STR_EQ(out, h1);
    CHECK_INT_EQ(qqb_git_commit(sub, out, sizeof out), 0);
    CHECK_STR_EQ(out, h1);
    CHECK_INT_EQ(qqb_git_commit(repo, out, 40), -1); /* no room for the NUL */

    /* Only in packed-refs. */
    remove(p);
    snprintf(p, sizeof p, "%s/.git/packed-refs", repo);
    f = fopen(p, "w");
    if (f) {
        fprintf(f,
                "# pack-refs with: peeled fully-peeled sorted\n"
                "%s refs/heads/other\n%s refs/heads/main\n^%s\n",
                h1, h2, h1);
        fclose(f);
    }
    CHECK_INT_EQ(qqb_git_commit(repo, out, sizeof out), 0);
    CHECK_STR_EQ(out, h2);

    /* Detached HEAD. */
    snprintf(p, sizeof p, "%s/.git/HEAD", repo);
    f = fopen(p, "w");
    if (f) {
        fprintf(f, "%s\n", h1);
        fclose(f);
    }
    CHECK_INT_EQ(qqb_git_commit(repo, out, sizeof out), 0);
    CHECK_STR_EQ(out, h1);

    /* A linked worktree: .git is a file, branches live in the main repo. */
    char wt[300];
    snprintf(wt, sizeof wt, "%s/wt", root);
    snprintf(p, sizeof p, "%s/.git/worktrees/wt", repo);
    mkdirs(p);
    mkdirs(wt);
    snprintf(p, sizeof p, "%s/.git", wt);
    put(p, "gitdir: ../repo/.git/worktrees/wt\n", 34);
    snprintf(p, sizeof p, "%s/.git/worktrees/wt/HEAD", repo);
    put(p, "ref: refs/heads/main\n", 21);
    snprintf(p, sizeof p, "%s/.git/worktrees/wt/commondir", repo);
    put(p, "../..\n", 6);
    CHECK_INT_EQ(qqb_git_commit(wt, out, sizeof out), 0);
    CHECK_STR_EQ(out, h2);

    /* A ref that tries to leave the repository. */
    snprintf(p, sizeof p, "%s/.git/HEAD", repo);
    put(p, "ref: refs/../../../etc/passwd\n", 30);
    CHECK_INT_EQ(qqb_git_commit(repo, out, sizeof out), -1);

    /* Not a checkout (when nothing above /tmp is one). */
    char tmpl[] = "/tmp/qqb-nogit-XXXXXX";
    struct stat st;
    if (mkdtemp(tmpl)) {
        if (stat("/tmp/.git", &st) != 0 && stat("/.git", &st) != 0)
            CHECK_INT_EQ(qqb_git_commit(tmpl, out, sizeof out), -1);
        rmdir(tmpl);
    }
    CHECK_INT_EQ(qqb_git_commit("/no/such/dir", out, sizeof out), -1);
}

/* rm -r PATH (the scratch directory, once every test passed). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        char sub[1024];
        while (d && (de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            if (snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) < (int)sizeof sub)
                remove_tree(sub);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* One run of case "c" with command CMD: per_hit samples V at launches L
 * (N of them) and a machine reference at launches 0..N_REF-1. */
static void one_run(struct qqb_results *r, const char *const *cmd, const double *v,
                    const uint32_t *l, size_t n, size_t n_ref)
{
    memset(r, 0, sizeof *r);
    str_set(&r->suite, "runs");
    str_set(&r->date, "2027-01-01T00:00:00Z");
    str_set(&r->version, "0.1.0");
    fp_fill(&r->fp);
    struct qqb_case_result *c = qqb_results_case(r, "c");
    str_set(&c->bench, "c");
    c->nodes = 1;
    c->launches = n_ref;
    qqb_strv_dup((char *const *)cmd, &c->command);
    for (size_t i = 0; i < n; i++)
        qqb_metric_add_at(qqb_case_metric(c, "work", "per_hit"), v[i], 0, l[i]);
    for (size_t i = 0; i < n_ref; i++)
        qqb_metric_add_at(qqb_case_metric(c, "@machine", "reference"), 100 + i, 0, (uint32_t)i);
}

/* The kernels' builds: written, read back, merged (a build with other
 * flags starts the case afresh, one with the same flags adds a run), a
 * file without them reads, and a list past the limit is refused. */
static void test_builds(void)
{
    static const char *const cmd[] = {"planted", NULL};
    static const uint32_t l[] = {0, 1, 2};
    static const double v[] = {10, 11, 12};
    char path[256], err[512] = "";
    struct qqb_results cur, back;
    snprintf(path, sizeof path, "%s/builds/runs.yaml", root);
    one_run(&cur, cmd, v, l, 3, 3);
    struct qqb_kbuild *b = &cur.cases[0]->build;
    str_set(&b->id, "741fd3d846a8416731f802ddb0714d586e2ec98d");
    static const char *const comp[] = {"GCC: (Debian 12.2.0-14) 12.2.0", NULL};
    static const char *const o0[] = {"GNU C17 12.2.0 -g -O0", "GNU C11 12.2.0 -g -O2 -fPIC", NULL};
    static const char *const o2[] = {"GNU C17 12.2.0 -g -O2", "GNU C11 12.2.0 -g -O2 -fPIC", NULL};
    qqb_strv_dup((char *const *)comp, &b->compiler);
    qqb_strv_dup((char *const *)o0, &b->producer);
    CHECK_INT_EQ(qqb_baseline_update(path, &cur, 5, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_baseline_update(path, &cur, 5, err, sizeof err), 0); /* same build: a run */
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK_STR_EQ(back.cases[0]->build.id, "741fd3d846a8416731f802ddb0714d586e2ec98d");
    CHECK(qqb_strv_equal(back.cases[0]->build.compiler, (char *const *)comp));
    CHECK(qqb_strv_equal(back.cases[0]->build.producer, (char *const *)o0));
    CHECK_INT_EQ(back.cases[0]->runs, 2);
    qqb_results_free(&back);
    char *text = slurp(path);
    CHECK(text && strstr(text, "  build_id: \"741fd3d846a8416731f802ddb0714d586e2ec98d\"\n"));
    CHECK(text && strstr(text, "  compiler: ['GCC: (Debian 12.2.0-14) 12.2.0']\n"));
    CHECK(text && strstr(text, "  producer:\n  - GNU C17 12.2.0 -g -O0\n"));
    free(text);
    /* Other flags: the old build's runs go. */
    for (size_t i = 0; b->producer[i]; i++)
        free(b->producer[i]);
    free(b->producer);
    qqb_strv_dup((char *const *)o2, &b->producer);
    CHECK_INT_EQ(qqb_baseline_update(path, &cur, 5, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK_INT_EQ(back.cases[0]->runs, 1);
    CHECK(qqb_strv_equal(back.cases[0]->build.producer, (char *const *)o2));
    qqb_results_free(&back);
    qqb_results_free(&cur);
    /* Without them (written before builds were stored): none, no error. */
    static const char old[] = HEAD CASE_HEAD "  metrics: []\n...\n";
    snprintf(path, sizeof path, "%s/nobuild.yaml", root);
    put(path, old, sizeof old - 1);
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK(back.ncases == 1 && !back.cases[0]->build.id && !back.cases[0]->build.compiler &&
          !back.cases[0]->build.producer);
    qqb_results_free(&back);
    /* More strings than the writer keeps: refused where the list is. */
    struct qqb_strbuf t = QQB_STRBUF_INIT;
    qqb_strbuf_str(&t, HEAD CASE_HEAD "  metrics: []\n  producer: [");
    for (int i = 0; i <= QQB_KBUILD_MAX; i++)
        qqb_strbuf_printf(&t, "%sp%d", i ? ", " : "", i);
    qqb_strbuf_str(&t, "]\n...\n");
    bad("many.yaml", qqb_strbuf_str_of(&t), ":20:3:", "'producer' holds 33 strings; at most 32");
    qqb_strbuf_free(&t);
}

/* Baselines accumulate runs (keep the last K), keep each sample's run and
 * launch, store the command and start afresh when it changes; version 1
 * files still read as one run. */
static void test_runs(void)
{
    static const char *const cmd[] = {"planted", "--reps", "5", NULL};
    static const char *const cmd2[] = {"planted", "--reps", "20", NULL};
    static const uint32_t gap[] = {0, 2, 3}; /* the key missed launch 1 */
    char path[256], err[512];
    struct qqb_results base, cur, back;

    memset(&base, 0, sizeof base);
    for (int run = 0; run < 4; run++) {
        double v[3] = {10.0 + run, 20.0 + run, 30.0 + run};
        one_run(&cur, cmd, v, gap, 3, 4);
        CHECK_INT_EQ(qqb_baseline_merge(&base, &cur, 3), 0);
        qqb_results_free(&cur);
    }
    CHECK_INT_EQ(base.ncases, 1);
    const struct qqb_case_result *c = base.cases[0];
    CHECK_INT_EQ(c->runs, 3); /* 4 runs, the oldest dropped */
    const struct qqb_metric *m = qqb_case_find_metric(c, "work", "per_hit");
    CHECK(m != NULL);
    if (m) {
        CHECK_INT_EQ(m->n, 9);
        CHECK_DBL_NEAR(m->samples[0], 11.0, 0); /* run 1 of 4 is now run 0 */
        CHECK_DBL_NEAR(m->samples[8], 33.0, 0);
        uint32_t r, l;
        qqb__stamp_of(m, 4, &r, &l);
        CHECK_INT_EQ(r, 1);
        CHECK_INT_EQ(l, 2);
        CHECK_INT_EQ(qqb_metric_at(m, 2, 1), -1); /* launch 1 had no sample */
        CHECK_INT_EQ(qqb_metric_at(m, 2, 3), 8);
    }

    snprintf(path, sizeof path, "%s/runs.yaml", root);
    CHECK_INT_EQ(qqb_baseline_write(path, &base, err, sizeof err), 0);
    char *text = slurp(path);
    if (text) {
        CHECK_STR_CONTAINS(text, "command: [planted, \"--reps\", \"5\"]");
        CHECK_STR_CONTAINS(text, "runs: 3\n");
        CHECK_STR_CONTAINS(text, "run: [0, 0, 0, 1, 1, 1, 2, 2, 2]");
        CHECK_STR_CONTAINS(text, "launch: [0, 2, 3, 0, 2, 3, 0, 2, 3]");
        free(text);
    }
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    CHECK(same_results(&base, &back));
    qqb_results_free(&back);

    /* Through the locked update, too. */
    {
        double v[3] = {40, 41, 42};
        one_run(&cur, cmd, v, gap, 3, 4);
        CHECK_INT_EQ(qqb_baseline_update(path, &cur, 3, err, sizeof err), 0);
        qqb_results_free(&cur);
        CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
        CHECK_INT_EQ(back.ncases ? back.cases[0]->runs : 0, 3);
        m = back.ncases ? qqb_case_find_metric(back.cases[0], "work", "per_hit") : NULL;
        CHECK(m && m->n == 9 && m->samples[8] == 42);
        qqb_results_free(&back);
    }

    /* Another command line: the old runs measured something else. */
    {
        double v[3] = {50, 51, 52};
        one_run(&cur, cmd2, v, gap, 3, 4);
        CHECK_INT_EQ(qqb_baseline_merge(&base, &cur, 3), 0);
        qqb_results_free(&cur);
        CHECK_INT_EQ(base.cases[0]->runs, 1);
        CHECK(qqb_strv_equal(base.cases[0]->command, (char *const *)cmd2));
        m = qqb_case_find_metric(base.cases[0], "work", "per_hit");
        CHECK(m && m->n == 3);
    }
    qqb_results_free(&base);

    /* Version 1: one run, launches in order, no command. */
    snprintf(path, sizeof path, "%s/v1.yaml", root);
    static const char v1[] =
        "qqbench_baseline: 1\nsuite: ncs\ndate: \"2026-11-22T22:47:01Z\"\n"
        "qqbench_version: \"0.1.0\"\nfingerprint:\n  id: x86_64-2cpu-1a2b3c4d\n"
        "  cpu: x\n  tick_mhz: 2100\n  invariant: true\n  cores: 2\n"
        "  compiler: gcc\n  flags: Release\ncases:\n- name: c\n  bench: c\n"
        "  nodes: 1\n  tick_mhz: 2100\n  launches: 3\n  metrics:\n"
        "  - {key: work, what: per_hit, samples: [1, 2, 3]}\n...\n";
    put(path, v1, strlen(v1));
    CHECK_INT_EQ(qqb_baseline_read(path, &back, err, sizeof err), 0);
    if (back.ncases == 1) {
        CHECK_INT_EQ(back.cases[0]->runs, 1);
        CHECK(back.cases[0]->command == NULL);
        m = qqb_case_find_metric(back.cases[0], "work", "per_hit");
        CHECK(m && qqb_metric_at(m, 0, 2) == 2);
    }
    qqb_results_free(&back);

    /* Stamps that do not fit are refused with the position. */
    bad("stamps.yaml",
        "qqbench_baseline: 2\nsuite: ncs\ndate: \"2026-11-22T22:47:01Z\"\n"
        "qqbench_version: \"0.1.0\"\nfingerprint:\n  id: x86_64-2cpu-1a2b3c4d\n"
        "  cpu: x\n  tick_mhz: 2100\n  invariant: true\n  cores: 2\n"
        "  compiler: gcc\n  flags: Release\ncases:\n- name: c\n  bench: c\n"
        "  nodes: 1\n  tick_mhz: 2100\n  launches: 3\n  metrics:\n"
        "  - {key: work, what: per_hit, samples: [1, 2, 3], run: [0, 0]}\n...\n",
        ":20:5:", "the metric's 'run' has 2 entries for 3 samples");
    bad("stamps2.yaml",
        "qqbench_baseline: 2\nsuite: ncs\ndate: \"2026-11-22T22:47:01Z\"\n"
        "qqbench_version: \"0.1.0\"\nfingerprint:\n  id: x86_64-2cpu-1a2b3c4d\n"
        "  cpu: x\n  tick_mhz: 2100\n  invariant: true\n  cores: 2\n"
        "  compiler: gcc\n  flags: Release\ncases:\n- name: c\n  bench: c\n"
        "  nodes: 1\n  tick_mhz: 2100\n  launches: 3\n  metrics:\n"
        "  - {key: work, what: per_hit, samples: [1, 2, 3], run: [0, 1, 1]}\n...\n",
        ":14:3:", "has a sample of run 1 but the case holds 1 run");
}

int main(void)
{
    snprintf(root, sizeof root, "baseline-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_path);
    RUN(test_round_trip);
    RUN(test_path_fields);
    RUN(test_write_refuses);
    RUN(test_bad_files);
    RUN(test_merge);
    RUN(test_runs);
    RUN(test_builds);
    RUN(test_find_others);
    RUN(test_history);
    RUN(test_lock_timeout);
    RUN(test_concurrent);
    RUN(test_update);
    RUN(test_git_commit);
    RUN(test_atomic_kill);
    if (test__failures == 0)
        remove_tree(root);
    else
        printf("files kept in %s\n", root);
    return TEST_DONE();
}
