/* test_suite.c - the suite loader, its cases and its bad-input corpus. */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nearest.h"
#include "suite.h"
#include "test.h"

/* Scratch files live below the test's working directory, never in the
 * source tree; the data directory is only read. */
static char work[1024]; /* the working directory we started in */
static char data[1024]; /* $QQ_TEST_DATA/suites */
static char tmp[1100];  /* our scratch directory, below work */
static char kdir[1200]; /* a kernel directory with stub kernels */
static char *made[64];  /* files to remove at the end */
static size_t nmade;

static void remember(const char *path)
{
    if (nmade < sizeof made / sizeof made[0])
        made[nmade++] = strdup(path);
}

static int write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    if (fclose(f) != 0 || chmod(path, mode) != 0)
        return -1;
    remember(path);
    return 0;
}

static void path_join(char *out, size_t n, const char *a, const char *b)
{
    snprintf(out, n, "%s/%s", a, b);
}

static int setup(void)
{
    static const char *const kernels[] = {"channel", "brain", "msg_pack", "sync"};
    const char *d = getenv("QQ_TEST_DATA");
    char p[4200];
    size_t i;

    if (!d) {
        fprintf(stderr, "skip: QQ_TEST_DATA is not set (run through ctest)\n");
        return -1;
    }
    snprintf(data, sizeof data, "%s/suites", d);
    if (!getcwd(work, sizeof work))
        return -1;
    snprintf(tmp, sizeof tmp, "%s/test_suite.XXXXXX", work);
    if (!mkdtemp(tmp))
        return -1;
    path_join(kdir, sizeof kdir, tmp, "kernels");
    if (mkdir(kdir, 0755) != 0)
        return -1;
    for (i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        path_join(p, sizeof p, kdir, kernels[i]);
        if (write_file(p, "#!/bin/sh\nexit 0\n", 0755))
            return -1;
    }
    return 0;
}

static void teardown(void)
{
    size_t i;
    for (i = nmade; i-- > 0;) {
        remove(made[i]);
        free(made[i]);
    }
    rmdir(kdir);
    rmdir(tmp);
}

static struct qqb_suite *load(const char *path, const char *kd)
{
    struct qqb_suite *s = NULL;
    char err[512];
    if (qqb_suite_load(path, kd, &s, err, sizeof err) != 0) {
        TEST_FAIL_AT("loading %s: %s", path, err);
        return NULL;
    }
    return s;
}

static const struct qqb_bench *bench(const struct qqb_suite *s, const char *name)
{
    size_t i;
    for (i = 0; i < s->nbench; i++)
        if (strcmp(s->bench[i].name, name) == 0)
            return &s->bench[i];
    TEST_FAIL_AT("no benchmark '%s'", name);
    return NULL;
}

static void test_suite_good_values(void)
{
    char path[4200];
    struct qqb_suite *s;
    const struct qqb_bench *b;

    path_join(path, sizeof path, data, "good_full.yaml");
    if (!(s = load(path, kdir)))
        return;
    CHECK_STR_EQ(s->name, "good-full");
    CHECK_STR_EQ(s->description, "Every field, for the loader's unit test");
    CHECK_STR_EQ(s->path, path);
    CHECK(s->dir && s->dir[0] == '/');
    CHECK_STR_CONTAINS(s->dir, "/suites");
    CHECK_INT_EQ(s->nbench, 3);

    /* defaults: what the file gave, built-ins for the rest */
    CHECK_INT_EQ(s->defaults.repetitions, 7);
    CHECK_INT_EQ(s->defaults.warmup, 2);
    CHECK_DBL_NEAR(s->defaults.timeout, 30.5, 0);
    CHECK_DBL_NEAR(s->defaults.threshold, 1.5, 0);
    CHECK_DBL_NEAR(s->defaults.noise_multiple, 0, 0);
    CHECK_DBL_NEAR(s->defaults.confidence, 0.9, 0);
    CHECK_INT_EQ(s->defaults.memory_tolerance, 64);
    CHECK_INT_EQ(s->defaults.events, 50000);
    CHECK_STR_EQ(s->defaults.launcher, "mpiexec -n {nodes}");
    CHECK(!(s->defaults.set & QQB_SET_NOISE_MULTIPLE));
    CHECK(s->defaults.set & QQB_SET_REPETITIONS);

    /* km_channel: everything, overrides merged with defaults */
    if ((b = bench(s, "km_channel")) != NULL) {
        CHECK_STR_EQ(b->kernel, "channel");
        {
            char *real = realpath(kdir, NULL);
            char w2[4200];
            path_join(w2, sizeof w2, real ? real : kdir, "channel");
            CHECK_STR_EQ(b->kernel_path, w2);
            free(real);
        }
        CHECK_INT_EQ(b->nargs, 3);
        CHECK_STR_EQ(b->args[0], "--steps");
        CHECK_STR_EQ(b->args[1], "{steps}");
        CHECK_STR_EQ(b->args[2], "--size={size}");
        CHECK_INT_EQ(b->nnodes, 2);
        CHECK_INT_EQ(b->nodes[0], 1);
        CHECK_INT_EQ(b->nodes[1], 2);
        CHECK_INT_EQ(b->nvariants, 2);
        CHECK_STR_EQ(b->variants[0].name, "pow");
        CHECK_INT_EQ(b->variants[0].nargs, 2);
        CHECK_STR_EQ(b->variants[0].args[1], "pow");
        CHECK_STR_EQ(b->variants[1].name, "direct");
        CHECK_INT_EQ(b->variants[1].nargs, 2); /* a string, split */
        CHECK_STR_EQ(b->variants[1].args[0], "--variant");
        CHECK_STR_EQ(b->variants[1].args[1], "direct");
        CHECK_INT_EQ(b->variants[1].line, 20);
        CHECK_INT_EQ(b->variants[1].col, 7);
        CHECK_INT_EQ(b->nparams, 2);
        CHECK_STR_EQ(b->params[0].name, "size");
        CHECK_INT_EQ(b->params[0].nvalues, 2);
        CHECK_STR_EQ(b->params[0].values[1], "200");
        CHECK_STR_EQ(b->params[1].name, "steps");
        CHECK_INT_EQ(b->params[1].nvalues, 3);
        CHECK_INT_EQ(b->nkeys, 2);
        CHECK_STR_EQ(b->keys[0], "Km");
        CHECK_STR_EQ(b->keys[1], "Ka");
        CHECK_INT_EQ(b->s.repetitions, 5);     /* override */
        CHECK_INT_EQ(b->s.warmup, 2);          /* from defaults */
        CHECK_DBL_NEAR(b->s.timeout, 30.5, 0); /* from defaults */
        CHECK_DBL_NEAR(b->s.threshold, 3, 0);  /* override */
        CHECK_DBL_NEAR(b->s.noise_multiple, 2.5, 0);
        CHECK_DBL_NEAR(b->s.confidence, 0.9, 0);
        CHECK_INT_EQ(b->s.memory_tolerance, 64);
        CHECK_INT_EQ(b->s.events, 50000);
        CHECK_STR_EQ(b->s.launcher, "mpiexec -n {nodes}");
        CHECK(b->s.set & QQB_SET_NOISE_MULTIPLE);
        CHECK(b->s.set & QQB_SET_LAUNCHER);
        CHECK_INT_EQ(b->line, 14);
        CHECK_INT_EQ(b->col, 5);
    }
    /* plain: an absolute kernel, args from one string, launcher override */
    if ((b = bench(s, "plain")) != NULL) {
        CHECK_STR_EQ(b->kernel, "/bin/true");
        CHECK(b->kernel_path && b->kernel_path[0] == '/');
        CHECK(b->kernel_path && access(b->kernel_path, X_OK) == 0);
        CHECK_INT_EQ(b->nargs, 3);
        CHECK_STR_EQ(b->args[0], "--quiet");
        CHECK_STR_EQ(b->args[1], "--ranks");
        CHECK_STR_EQ(b->args[2], "{nodes}");
        CHECK_INT_EQ(b->nnodes, 1);
        CHECK_INT_EQ(b->nodes[0], 1);
        CHECK_INT_EQ(b->nvariants, 0);
        CHECK_INT_EQ(b->nparams, 0);
        CHECK_INT_EQ(b->nkeys, 0);
        CHECK_DBL_NEAR(b->s.timeout, 5, 0);
        CHECK_INT_EQ(b->s.repetitions, 7);
        CHECK_STR_EQ(b->s.launcher, "srun -n {nodes}");
    }
    if ((b = bench(s, "km_brief")) != NULL) {
        CHECK_INT_EQ(b->s.events, 7);
        CHECK_DBL_NEAR(b->s.threshold, 1.5, 0);
    }
    qqb_suite_free(s);
}

static void test_suite_builtin_defaults(void)
{
    char path[4200];
    struct qqb_suite *s;
    const struct qqb_bench *b;

    path_join(path, sizeof path, data, "good_minimal.yaml");
    if (!(s = load(path, NULL)))
        return;
    CHECK(s->description == NULL);
    CHECK_INT_EQ(s->defaults.set, 0);
    CHECK_INT_EQ(s->nbench, 1);
    b = &s->bench[0];
    CHECK_INT_EQ(b->s.repetitions, QQB_DEFAULT_REPETITIONS);
    CHECK_INT_EQ(b->s.repetitions, 10);
    CHECK_INT_EQ(b->s.warmup, 1);
    CHECK_DBL_NEAR(b->s.timeout, 60, 0);
    CHECK_DBL_NEAR(b->s.threshold, 2.0, 0);
    CHECK_DBL_NEAR(b->s.noise_multiple, 0, 0);
    CHECK_DBL_NEAR(b->s.confidence, 0.95, 0);
    CHECK_INT_EQ(b->s.memory_tolerance, 0);
    CHECK_INT_EQ(b->s.events, 0);
    CHECK_DBL_NEAR(b->s.threshold_bound, QQB_DEFAULT_THRESHOLD_BOUND, 0);
    CHECK_INT_EQ(s->max_nodes, QQB_DEFAULT_MAX_NODES);
    CHECK_STR_EQ(b->s.launcher, qqb_launcher_default());
    CHECK_INT_EQ(b->s.set, 0);
    CHECK_INT_EQ(qqb_bench_ncases(b), 1);
    {
        struct qqb_case c;
        CHECK_INT_EQ(qqb_bench_case(b, 0, &c), 0);
        CHECK_STR_EQ(c.name, "one@1");
        CHECK_INT_EQ(c.variant, -1);
        CHECK_INT_EQ(c.nodes, 1);
        CHECK_INT_EQ(c.argc, 1);
        CHECK_STR_EQ(c.argv[0], b->kernel_path);
        CHECK(c.argv[1] == NULL);
        CHECK(c.point == NULL);
        qqb_case_free(&c);
        CHECK_INT_EQ(qqb_bench_case(b, 1, &c), -1);
        CHECK(c.argv == NULL && c.name == NULL);
    }
    qqb_suite_free(s);

    path_join(path, sizeof path, data, "good_flow.yaml");
    if (!(s = load(path, NULL)))
        return;
    CHECK_STR_EQ(s->name, "flow.style");
    CHECK_INT_EQ(s->bench[0].nnodes, 1);
    CHECK_INT_EQ(s->bench[0].nodes[0], 3);
    CHECK_INT_EQ(s->bench[0].nargs, 0);
    CHECK_INT_EQ(s->bench[0].nkeys, 1);
    CHECK_STR_EQ(s->bench[0].keys[0], "Km");
    qqb_suite_free(s);
}

static void check_case(const struct qqb_bench *b, size_t i, const char *name, int nodes,
                       int variant, const char *const *argv)
{
    struct qqb_case c;
    size_t k;

    if (qqb_bench_case(b, i, &c) != 0) {
        TEST_FAIL_AT("case %zu of %s", i, b->name);
        return;
    }
    CHECK_INT_EQ(c.index, i);
    CHECK_STR_EQ(c.name, name);
    CHECK_INT_EQ(c.nodes, nodes);
    CHECK_INT_EQ(c.variant, variant);
    CHECK_STR_EQ(c.argv[0], b->kernel_path);
    for (k = 0; argv[k]; k++) {
        if (k + 1 >= c.argc) {
            TEST_FAIL_AT("%s: argv too short (%zu)", name, c.argc);
            break;
        }
        CHECK_STR_EQ(c.argv[k + 1], argv[k]);
    }
    CHECK_INT_EQ(c.argc, k + 1);
    CHECK(c.argv[c.argc] == NULL);
    qqb_case_free(&c);
}

static void test_suite_cases(void)
{
    char path[4200];
    struct qqb_suite *s;
    const struct qqb_bench *b;

    path_join(path, sizeof path, data, "good_full.yaml");
    if (!(s = load(path, kdir)))
        return;
    if ((b = bench(s, "km_channel")) != NULL) {
        static const char *const a0[] = {"--steps", "10", "--size=100", "--variant", "pow", NULL};
        static const char *const a1[] = {"--steps",   "10",     "--size=100",
                                         "--variant", "direct", NULL};
        static const char *const a2[] = {"--steps", "10", "--size=100", "--variant", "pow", NULL};
        static const char *const a4[] = {"--steps", "20", "--size=100", "--variant", "pow", NULL};
        static const char *const a23[] = {"--steps",   "30",     "--size=200",
                                          "--variant", "direct", NULL};
        struct qqb_case c;
        /* 2 sizes x 3 steps x 2 node counts x 2 variants */
        CHECK_INT_EQ(qqb_bench_ncases(b), 24);
        check_case(b, 0, "km_channel[pow,size=100,steps=10]@1", 1, 0, a0);
        check_case(b, 1, "km_channel[direct,size=100,steps=10]@1", 1, 1, a1);
        check_case(b, 2, "km_channel[pow,size=100,steps=10]@2", 2, 0, a2);
        check_case(b, 4, "km_channel[pow,size=100,steps=20]@1", 1, 0, a4);
        check_case(b, 23, "km_channel[direct,size=200,steps=30]@2", 2, 1, a23);
        if (qqb_bench_case(b, 13, &c) == 0) {
            /* 13 = ((1*3 + 0)*2 + 0)*2 + 1: size=200, steps=10, @1, direct */
            CHECK_INT_EQ(c.point[0], 1);
            CHECK_INT_EQ(c.point[1], 0);
            CHECK_STR_EQ(c.values[0], "200");
            CHECK_STR_EQ(c.values[1], "10");
            CHECK_INT_EQ(c.variant, 1);
            CHECK_INT_EQ(c.nodes, 1);
            qqb_case_free(&c);
        } else {
            TEST_FAIL_AT("case 13");
        }
        CHECK_INT_EQ(qqb_bench_case(b, 24, &c), -1);
    }
    if ((b = bench(s, "plain")) != NULL) {
        static const char *const a[] = {"--quiet", "--ranks", "1", NULL};
        CHECK_INT_EQ(qqb_bench_ncases(b), 1);
        check_case(b, 0, "plain@1", 1, -1, a);
    }
    if ((b = bench(s, "km_brief")) != NULL) {
        static const char *const a[] = {"--steps",   "2000",   "--size", "200",
                                        "--variant", "direct", NULL};
        CHECK_INT_EQ(qqb_bench_ncases(b), 8);
        /* 7 = (1*2 + 1)*2 + 1: size=200, @2, direct */
        check_case(b, 7, "km_brief[direct,size=200]@2", 2, 1, a);
    }
    qqb_suite_free(s);
}

static void test_suite_relative_kernel(void)
{
    char sub[4200], suite[4300], kern[4300], rel[4300], want[4400];
    char err[512], *real;
    struct qqb_suite *s = NULL;

    /* tmp/sub/suite.yaml names ../kernels/channel: relative to the suite
     * file's directory, not to the current directory. */
    path_join(sub, sizeof sub, tmp, "sub");
    CHECK_INT_EQ(mkdir(sub, 0755), 0);
    path_join(suite, sizeof suite, sub, "suite.yaml");
    CHECK_INT_EQ(write_file(suite,
                            "suite: rel\n"
                            "benchmarks:\n"
                            "  - name: a\n"
                            "    kernel: ../kernels/channel\n"
                            "  - name: b\n"
                            "    kernel: ./local\n",
                            0644),
                 0);
    path_join(kern, sizeof kern, sub, "local");
    CHECK_INT_EQ(write_file(kern, "#!/bin/sh\n", 0755), 0);
    /* load it by a relative path from the working directory */
    snprintf(rel, sizeof rel, "%s/sub/suite.yaml", strrchr(tmp, '/') + 1);
    if (qqb_suite_load(rel, NULL, &s, err, sizeof err) != 0) {
        TEST_FAIL_AT("%s", err);
    } else {
        real = realpath(tmp, NULL);
        snprintf(want, sizeof want, "%s/kernels/channel", real);
        CHECK_STR_EQ(s->bench[0].kernel_path, want);
        snprintf(want, sizeof want, "%s/sub/local", real);
        CHECK_STR_EQ(s->bench[1].kernel_path, want);
        snprintf(want, sizeof want, "%s/sub", real);
        CHECK_STR_EQ(s->dir, want);
        CHECK_STR_EQ(s->path, rel);
        free(real);
        qqb_suite_free(s);
    }
    CHECK_INT_EQ(chmod(kern, 0644), 0);
    CHECK_INT_EQ(qqb_suite_load(rel, NULL, &s, err, sizeof err), -1);
    CHECK(s == NULL);
    snprintf(want, sizeof want,
             "%s:6:13: error: kernel './local' (%s/sub/./local) is not "
             "executable",
             rel, strrchr(tmp, '/') + 1);
    CHECK_STR_EQ(err, want);
    remove(kern);
    remove(suite);
    rmdir(sub);
}

static void test_suite_kernel_dir(void)
{
    char suite[4300], err[4096], want[7000];
    struct qqb_suite *s = NULL;

    path_join(suite, sizeof suite, tmp, "bare.yaml");
    CHECK_INT_EQ(write_file(suite,
                            "suite: bare\n"
                            "benchmarks:\n"
                            "  - {name: a, kernel: channel}\n"
                            "  - {name: b, kernel: nope}\n",
                            0644),
                 0);
    /* no kernel directory: bare names cannot be found */
    CHECK_INT_EQ(qqb_suite_load(suite, NULL, &s, err, sizeof err), -1);
    snprintf(want, sizeof want,
             "%s:3:23: error: kernel 'channel' is a bare name but no kernel "
             "directory is known; write a path such as './channel' (or set --kernels DIR or "
             "$QQBENCH_KERNELS)",
             suite);
    CHECK_STR_EQ(err, want);
    /* with one: 'channel' is there, 'nope' is not */
    CHECK_INT_EQ(qqb_suite_load(suite, kdir, &s, err, sizeof err), -1);
    snprintf(want, sizeof want,
             "%s:4:23: error: kernel 'nope' (%s/nope) does not exist; "
             "expected an executable program (bare names are looked up in %s: "
             "set --kernels DIR or $QQBENCH_KERNELS)",
             suite, kdir, kdir);
    CHECK_STR_EQ(err, want);
    CHECK(s == NULL);
}

static void test_suite_io_errors(void)
{
    char err[512], small[16];
    struct qqb_suite *s = (struct qqb_suite *)&s;

    CHECK_INT_EQ(qqb_suite_load("no_such_suite.yaml", NULL, &s, err, sizeof err), -1);
    CHECK(s == NULL);
    CHECK_STR_EQ(err, "no_such_suite.yaml: error: cannot open the suite "
                      "file: No such file or directory");
    /* a short buffer truncates the message, never overflows */
    CHECK_INT_EQ(qqb_suite_load("no_such_suite.yaml", NULL, &s, small, sizeof small), -1);
    CHECK_INT_EQ(strlen(small), sizeof small - 1);
    CHECK_INT_EQ(qqb_suite_load("no_such_suite.yaml", NULL, &s, NULL, 0), -1);
}

static void test_suite_launcher(void)
{
    char **argv = NULL;
    size_t argc = 0;

    CHECK_STR_EQ(qqb_launcher_default(), "mpirun -np {nodes} --oversubscribe");
    CHECK_INT_EQ(qqb_launcher_argv(qqb_launcher_default(), 4, &argv, &argc), 0);
    CHECK_INT_EQ(argc, 4);
    if (argv && argc == 4) {
        CHECK_STR_EQ(argv[0], "mpirun");
        CHECK_STR_EQ(argv[1], "-np");
        CHECK_STR_EQ(argv[2], "4");
        CHECK_STR_EQ(argv[3], "--oversubscribe");
        CHECK(argv[4] == NULL);
    }
    qqb_argv_free(argv);

    CHECK_INT_EQ(qqb_launcher_argv("  srun\t-n{nodes} --label={nodes}x {a} ", 16, &argv, &argc), 0);
    CHECK_INT_EQ(argc, 4);
    if (argv && argc == 4) {
        CHECK_STR_EQ(argv[0], "srun");
        CHECK_STR_EQ(argv[1], "-n16");
        CHECK_STR_EQ(argv[2], "--label=16x");
        CHECK_STR_EQ(argv[3], "{a}");
    }
    qqb_argv_free(argv);

    CHECK_INT_EQ(qqb_launcher_argv("   ", 2, &argv, &argc), -1);
    CHECK(argv == NULL);
    CHECK_INT_EQ(argc, 0);
    CHECK_INT_EQ(qqb_launcher_argv("mpirun", 0, &argv, &argc), -1);
    CHECK_INT_EQ(qqb_launcher_argv(NULL, 1, &argv, &argc), -1);
}

static void test_suite_nearest(void)
{
    static const char *const f[] = {"repetitions", "warmup",         "timeout",
                                    "threshold",   "noise_multiple", "nodes"};
    const size_t n = sizeof f / sizeof f[0];

    CHECK_STR_EQ(qqb_nearest("repetitons", f, n), "repetitions");
    CHECK_STR_EQ(qqb_nearest("wramup", f, n), "warmup"); /* transposition */
    CHECK_STR_EQ(qqb_nearest("Timeout", f, n), "timeout");
    CHECK_STR_EQ(qqb_nearest("thresold", f, n), "threshold");
    CHECK_STR_EQ(qqb_nearest("nods", f, n), "nodes");
    CHECK_STR_EQ(qqb_nearest("noise", f, n), "noise_multiple"); /* prefix */
    CHECK(qqb_nearest("colour", f, n) == NULL);
    CHECK(qqb_nearest("x", f, n) == NULL);
    CHECK(qqb_nearest("", f, n) == NULL);
    CHECK(qqb_nearest("warmup", f, 0) == NULL);
}

/* The full example in docs/SUITE.md must load. */
static void test_suite_doc_example(void)
{
    const char *src = getenv("QQ_SOURCE_DIR");
    char doc[4200], out[4300], line[1024], err[512];
    struct sbuf {
        char *p;
        size_t n;
    } text = {NULL, 0};
    struct qqb_suite *s = NULL;
    FILE *f;
    int state = 0; /* 0: before the heading, 1: before ```yaml, 2: in it */

    if (src)
        snprintf(doc, sizeof doc, "%s/docs/SUITE.md", src);
    else
        snprintf(doc, sizeof doc, "%s/../../../docs/SUITE.md", data);
    if (!(f = fopen(doc, "r"))) {
        TEST_FAIL_AT("cannot open %s", doc);
        return;
    }
    while (state < 3 && fgets(line, sizeof line, f)) {
        if (state == 0 && strncmp(line, "## Full example", 15) == 0)
            state = 1;
        else if (state == 1 && strncmp(line, "```yaml", 7) == 0)
            state = 2;
        else if (state == 2 && strncmp(line, "```", 3) == 0)
            state = 3;
        else if (state == 2) {
            size_t l = strlen(line);
            char *p = realloc(text.p, text.n + l + 1);
            if (!p)
                break;
            memcpy(p + text.n, line, l + 1);
            text.p = p;
            text.n += l;
        }
    }
    fclose(f);
    CHECK_INT_EQ(state, 3);
    if (state == 3) {
        path_join(out, sizeof out, tmp, "doc_example.yaml");
        CHECK_INT_EQ(write_file(out, text.p, 0644), 0);
        if (qqb_suite_load(out, kdir, &s, err, sizeof err) != 0) {
            TEST_FAIL_AT("docs/SUITE.md example: %s", err);
        } else {
            size_t i, total = 0;
            CHECK_STR_EQ(s->name, "ncs");
            CHECK_INT_EQ(s->nbench, 4);
            for (i = 0; i < s->nbench; i++)
                total += qqb_bench_ncases(&s->bench[i]);
            CHECK_INT_EQ(total, 14); /* as the doc says */
            qqb_suite_free(s);
        }
    }
    free(text.p);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in the data directory starting with PREFIX and ending in .yaml,
 * sorted. */
static size_t list_files(const char *prefix, char ***out)
{
    DIR *d = opendir(".");
    struct dirent *e;
    char **v = NULL;
    size_t n = 0, lp = strlen(prefix);

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        char **nv;
        if (strncmp(e->d_name, prefix, lp) != 0 || l < 5 || strcmp(e->d_name + l - 5, ".yaml") != 0)
            continue;
        if (!(nv = realloc(v, (n + 1) * sizeof *v)))
            break;
        v = nv;
        v[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(v, n, sizeof *v, by_name);
    *out = v;
    return n;
}

/* Every bad_*.yaml gives exactly the message on its first line. Paths are
 * relative to the data directory, so the messages are stable. */
static void test_suite_bad_files(void)
{
    char **names = NULL, line[1024], err[1024];
    size_t n, i;

    if (chdir(data) != 0) {
        TEST_FAIL_AT("chdir %s: %s", data, strerror(errno));
        return;
    }
    n = list_files("bad_", &names);
    CHECK(n >= 15);
    for (i = 0; i < n; i++) {
        FILE *f = fopen(names[i], "r");
        struct qqb_suite *s = NULL;
        const char *want;
        char *nl;
        int rc;

        line[0] = '\0';
        if (!f || !fgets(line, sizeof line, f)) {
            TEST_FAIL_AT("%s: cannot read its first line", names[i]);
            if (f)
                fclose(f);
            continue;
        }
        fclose(f);
        if ((nl = strchr(line, '\n')) != NULL)
            *nl = '\0';
        if (strncmp(line, "# expect: ", 10) != 0) {
            TEST_FAIL_AT("%s: first line is not '# expect: ...'", names[i]);
            continue;
        }
        want = line + 10;
        rc = qqb_suite_load(names[i], kdir, &s, err, sizeof err);
        CHECK_INT_EQ(rc, -1);
        CHECK(s == NULL);
        if (rc == 0)
            qqb_suite_free(s);
        CHECK(strchr(err, '\n') == NULL);
        if (strcmp(err, want) != 0)
            TEST_FAIL_AT("%s:\n  want: %s\n  got:  %s", names[i], want, err);
        free(names[i]);
    }
    free(names);
    if (chdir(work) != 0)
        TEST_FAIL_AT("chdir %s", work);
}

/* Suite-wide fields reach every benchmark's settings. */
static void test_suite_top_bounds(void)
{
    char path[4200];
    struct qqb_suite *s;
    path_join(path, sizeof path, data, "good_max_nodes.yaml");
    if (!(s = load(path, NULL)))
        return;
    CHECK_INT_EQ(s->max_nodes, 4096);
    CHECK_INT_EQ(s->bench[0].max_node, 4096);
    CHECK_DBL_NEAR(s->bench[0].s.threshold_bound, 45, 0);
    qqb_suite_free(s);
}

static void test_suite_good_files(void)
{
    char **names = NULL, err[1024];
    size_t n, i;

    if (chdir(data) != 0) {
        TEST_FAIL_AT("chdir %s: %s", data, strerror(errno));
        return;
    }
    n = list_files("good_", &names);
    CHECK(n >= 1);
    for (i = 0; i < n; i++) {
        struct qqb_suite *s = NULL;
        if (qqb_suite_load(names[i], kdir, &s, err, sizeof err) != 0)
            TEST_FAIL_AT("%s", err);
        qqb_suite_free(s);
        free(names[i]);
    }
    free(names);
    if (chdir(work) != 0)
        TEST_FAIL_AT("chdir %s", work);
}

/* qqb_suite_parse: the suite checked without its kernels (qqbench ci
 * checks it before they are built), and the top level's build:. */
static void test_suite_parse_build(void)
{
    char suite[4300], err[4096], want[5000];
    struct qqb_suite *s = NULL;

    path_join(suite, sizeof suite, tmp, "build.yaml");
    CHECK_INT_EQ(write_file(suite,
                            "suite: b\n"
                            "build: make -C {src} OUT={out}\n"
                            "benchmarks:\n"
                            "  - {name: a, kernel: not_built_yet}\n",
                            0644),
                 0);
    CHECK_INT_EQ(qqb_suite_load(suite, kdir, &s, err, sizeof err), -1);
    CHECK(s == NULL);
    CHECK_INT_EQ(qqb_suite_parse(suite, &s, err, sizeof err), 0);
    if (s) {
        CHECK_STR_EQ(s->build, "make -C {src} OUT={out}");
        CHECK_STR_EQ(s->bench[0].kernel, "not_built_yet");
        CHECK(s->bench[0].kernel_path == NULL);
        qqb_suite_free(s);
        s = NULL;
    }
    /* not a string; and the rest of the suite is still checked */
    CHECK_INT_EQ(write_file(suite,
                            "suite: b\n"
                            "build: [make]\n"
                            "benchmarks:\n"
                            "  - {name: a, kernel: k}\n",
                            0644),
                 0);
    CHECK_INT_EQ(qqb_suite_parse(suite, &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2:8: error: expected a shell command for 'build'", suite);
    CHECK(strncmp(err, want, strlen(want)) == 0);
    CHECK_INT_EQ(write_file(suite,
                            "suite: b\n"
                            "benchmarks:\n"
                            "  - {name: a, kernel: k, repetitions: 1}\n",
                            0644),
                 0);
    CHECK_INT_EQ(qqb_suite_parse(suite, &s, err, sizeof err), -1);
    CHECK(strstr(err, ":3:") != NULL);
    CHECK(s == NULL);
    /* no build: */
    CHECK_INT_EQ(write_file(suite, "suite: b\nbenchmarks:\n  - {name: a, kernel: k}\n", 0644), 0);
    CHECK_INT_EQ(qqb_suite_parse(suite, &s, err, sizeof err), 0);
    if (s)
        CHECK(s->build == NULL);
    qqb_suite_free(s);
}

int main(void)
{
    int rc;

    if (setup() != 0) {
        teardown();
        return getenv("QQ_TEST_DATA") ? 1 : TEST_SKIP_CODE;
    }
    RUN(test_suite_good_values);
    RUN(test_suite_builtin_defaults);
    RUN(test_suite_cases);
    RUN(test_suite_relative_kernel);
    RUN(test_suite_kernel_dir);
    RUN(test_suite_parse_build);
    RUN(test_suite_io_errors);
    RUN(test_suite_launcher);
    RUN(test_suite_nearest);
    RUN(test_suite_doc_example);
    RUN(test_suite_bad_files);
    RUN(test_suite_good_files);
    RUN(test_suite_top_bounds);
    teardown();
    rc = TEST_DONE();
    return rc;
}
