/* test_big_inputs.c - big inputs cost time linear in their size: the string map's probes counted,
 * and whole commands run on inputs where a quadratic step would take minutes. */
#define QQ_ENABLE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baseline.h"
#include "cmds.h"
#include "craft.h"
#include "qq.h"
#include "strmap.h"
#include "suite.h"
#include "test.h"

/* The map's work per operation stays bounded as it grows: N adds, N
 * look-ups and N duplicate adds look at a few slots each, not at N. */
static void test_strmap_probes(void)
{
    enum { N = 200000 };
    struct qqb_strmap m = {0};
    char key[32];
    size_t v = 0;
    int ok = 1;
    for (size_t i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key%zu", i);
        ok &= qqb_strmap_add(&m, (uint32_t)(i & 3), key, i, NULL) == 1;
    }
    CHECK(ok);
    CHECK_U64_EQ(m.n, N);
    for (size_t i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key%zu", i);
        ok &= qqb_strmap_get(&m, (uint32_t)(i & 3), key, &v) == 1 && v == i;
        ok &= qqb_strmap_get(&m, (uint32_t)((i + 1) & 3), key, NULL) == 0; /* other tag */
        ok &= qqb_strmap_add(&m, (uint32_t)(i & 3), key, 0, &v) == 0 && v == i;
    }
    CHECK(ok);
    CHECK_U64_EQ(m.n, N);
    /* 4N operations plus the rehashes; a linear scan would need ~N^2/2. */
    printf("strmap: %llu probes for %d operations\n", (unsigned long long)m.probes, 4 * N);
    CHECK(m.probes < 16ull * N);
    qqb_strmap_free(&m);
}

static double seconds(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 + (double)ru->ru_stime.tv_sec +
           ru->ru_stime.tv_usec / 1e6;
}

/* Run FN in a child; its exit status, and the CPU seconds it used. CPU
 * time, not wall time, so the machine's other load does not count. */
static int in_child(int (*fn)(void), double *cpu)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("child.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, STDOUT_FILENO);
        close(fd);
        int rc = fn();
        fflush(stdout);
        _exit(rc);
    }
    int st = 0;
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    getrusage(RUSAGE_CHILDREN, &after);
    *cpu = seconds(&after) - seconds(&before);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Linear, not quadratic, judged on this machine against itself: the CPU
 * time of an input TIMES as large must stay under 3 x TIMES the smaller
 * one's. Linear work gives TIMES (measured here: 5-6 for 4x, the larger
 * tables missing the caches more), quadratic TIMES^2 (these commands'
 * quadratic steps took 47 s, compare of 100k keys, and 24 s, params, where
 * the linear ones take 0.2 s): at 10x, 30 sits 2x above linear and 3x
 * below quadratic, so neither a slower or busier machine nor ASan (which
 * slows both inputs alike) decides it. FLOOR_S keeps a run too short for
 * the clock from making the bound 0. */
#define FLOOR_S 0.01

static int check_ratio(const char *what, double small, double big, double times)
{
    double bound = 3 * times * (small > FLOOR_S ? small : FLOOR_S);
    printf("%s: %.3f s CPU against %.3f s for the input %.0fx smaller (bound %.3f s)\n", what, big,
           small, times, bound);
    return big < bound;
}

enum { NKEYS = 100000 };

static int run_compare(void)
{
    char *argv[] = {"compare", "--all", "a.qq", "b.qq", NULL};
    return cmd_compare(4, argv);
}

/* Two files of NKEYS keys as a.qq and b.qq, compared in a child: its CPU
 * seconds, every key listed once, in both files. */
static double compare_keys(int nkeys)
{
    /* The key table filled directly: QQAddState looks for an existing key
     * by a scan of the table, quadratic over 100k keys. */
    char name[32];
    struct qq__key *v = calloc((size_t)nkeys, sizeof *v);
    CHECK(v != NULL);
    if (!v)
        return 0;
    for (int i = 0; i < nkeys; i++) {
        snprintf(name, sizeof name, "k%d", i);
        v[i].type = QQ_TYPE_STATE;
        v[i].name = strdup(name);
    }
    struct qq__keys saved = qq__keytab;
    qq__keytab.v = v;
    qq__keytab.n = qq__keytab.cap = (size_t)nkeys;
    const struct qq_event *evs[1] = {NULL};
    uint64_t n[1] = {0};
    size_t len = 0;
    unsigned char *p = craft(1, evs, n, 0, &len);
    CHECK(p != NULL);
    qq__keytab = saved;
    for (int i = 0; i < nkeys; i++)
        free(v[i].name);
    free(v);
    for (int f = 0; p && f < 2; f++) {
        FILE *fp = fopen(f ? "b.qq" : "a.qq", "wb");
        CHECK(fp && fwrite(p, 1, len, fp) == len);
        if (fp)
            fclose(fp);
    }
    free(p);
    double cpu = 0;
    CHECK_INT_EQ(in_child(run_compare, &cpu), 0);
    FILE *fp = fopen("child.out", "r");
    char line[256];
    long rows = 0, only = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        rows += line[0] == 'k' && strstr(line, " state ") != NULL;
        only += strstr(line, "(only in") != NULL;
    }
    if (fp)
        fclose(fp);
    CHECK_INT_EQ(rows, nkeys);
    CHECK_INT_EQ(only, 0);
    return cpu;
}

/* qqbench compare of two files of 100k keys: every key found in the other
 * file by hash, not by a scan of it. */
static void test_compare_many_keys(void)
{
    double small = compare_keys(NKEYS / 10), big = compare_keys(NKEYS);
    CHECK(check_ratio("compare of 100000 keys", small, big, 10));
}

/* A file of many nodes, each with its entry section and its calibration,
 * opened in a child: the reader matched every node against every section
 * (8 s at 100,000 nodes). */
static unsigned char *nodes_img;
static size_t nodes_len;

static int open_nodes(void)
{
    struct qq_file *f = NULL;
    int rc = qq_file_open_mem(nodes_img, nodes_len, "nodes.qq", &f);
    qq_file_close(f);
    return rc == 0 ? 0 : 1;
}

static double many_nodes(uint32_t nnodes)
{
    const struct qq_event **evs = calloc(nnodes, sizeof *evs);
    uint64_t *n = calloc(nnodes, sizeof *n);
    struct qq_calib cal = {1, 4096, 40, 42, 42, 2, 0, 0};
    double cpu = 0;
    CHECK(evs && n);
    if (evs && n)
        nodes_img = craft_calib(nnodes, evs, n, 0, &cal, &nodes_len);
    CHECK(nodes_img != NULL);
    if (nodes_img)
        CHECK_INT_EQ(in_child(open_nodes, &cpu), 0);
    free(nodes_img);
    nodes_img = NULL;
    free(evs);
    free(n);
    return cpu;
}

static void test_open_many_nodes(void)
{
    double small = many_nodes(5000), big = many_nodes(50000);
    CHECK(check_ratio("open of 50000 nodes", small, big, 10));
}

/* A baseline of many cases read in a child: each case was checked against
 * every case before it for a duplicate (25 s at 40,000 cases). */
static int read_big(void)
{
    struct qqb_results back;
    char err[512];
    int rc = qqb_baseline_read("big.yaml", &back, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err);
    qqb_results_free(&back);
    return rc == 0 ? 0 : 1;
}

static double baseline_cases(size_t n)
{
    struct qqb_results r;
    memset(&r, 0, sizeof r);
    r.suite = strdup("big");
    r.date = strdup("2026-01-01T00:00:00Z");
    r.version = strdup("0.1.0");
    snprintf(r.fp.id, sizeof r.fp.id, "x86_64-2cpu-00000000");
    snprintf(r.fp.cpu, sizeof r.fp.cpu, "test");
    snprintf(r.fp.compiler, sizeof r.fp.compiler, "cc");
    snprintf(r.fp.flags, sizeof r.fp.flags, "-O2");
    r.fp.mhz = 1000;
    r.fp.cores = 2;
    char **names = calloc(n, sizeof *names);
    for (size_t i = 0; names && i < n; i++) {
        names[i] = malloc(32);
        if (names[i])
            snprintf(names[i], 32, "b%zu@1", i);
    }
    double cpu = 0;
    char err[512] = "";
    CHECK_INT_EQ(qqb_results_init(&r, (const char *const *)names, n), 0);
    for (size_t i = 0; i < r.ncases; i++) {
        r.cases[i]->bench = strdup("b");
        r.cases[i]->nodes = 1;
        r.cases[i]->runs = 1;
    }
    int wrc = qqb_baseline_write("big.yaml", &r, err, sizeof err);
    CHECK_INT_EQ(wrc, 0);
    if (wrc != 0)
        fprintf(stderr, "%s\n", err);
    else
        CHECK_INT_EQ(in_child(read_big, &cpu), 0);
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    qqb_results_free(&r);
    return cpu;
}

static void test_baseline_many_cases(void)
{
    double small = baseline_cases(4000), big = baseline_cases(40000);
    CHECK(check_ratio("baseline of 40000 cases", small, big, 10));
}

static const char *suite_err;
static char suite_msg[512];

static int load_suite(void)
{
    struct qqb_suite *s = NULL;
    int rc = qqb_suite_load("params.yaml", NULL, &s, suite_msg, sizeof suite_msg);
    qqb_suite_free(s);
    printf("%s\n", suite_msg);
    return rc == 0 ? 0 : strstr(suite_msg, suite_err) ? 2 : 1;
}

/* Two parameters of 100k values each: duplicate values found by hash, and
 * the product refused with a message. One of a million and one values is
 * refused at the value past the bound. */
static void write_params(int nvalues)
{
    FILE *fp = fopen("params.yaml", "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fputs("suite: big\nbenchmarks:\n  - name: a\n    kernel: /bin/true\n"
          "    args: [\"{p}\", \"{q}\"]\n    params:\n",
          fp);
    for (int k = 0; k < 2; k++) {
        fprintf(fp, "      %c: [", "pq"[k]);
        for (int i = 0; i < nvalues; i++)
            fprintf(fp, "%s%d", i ? "," : "", i);
        fputs("]\n", fp);
    }
    fclose(fp);
}

static void test_suite_big_params(void)
{
    double small = 0, cpu = 0;
    suite_err = "benchmark 'a' expands to more than 1000000 cases";
    write_params(NKEYS / 10);
    CHECK_INT_EQ(in_child(load_suite, &small), 2);
    write_params(NKEYS);
    CHECK_INT_EQ(in_child(load_suite, &cpu), 2);
    CHECK(check_ratio("two params of 100000 values", small, cpu, 10));

    FILE *fp = fopen("params.yaml", "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fputs("suite: big\nbenchmarks:\n  - name: a\n    kernel: /bin/true\n"
          "    args: [\"{p}\"]\n    params:\n      p: [",
          fp);
    for (int i = 0; i <= 1000000; i++)
        fprintf(fp, "%s%d", i ? "," : "", i);
    fputs("]\n", fp);
    fclose(fp);
    suite_err = "params.yaml:7:6888901: error: parameter 'p' has more than 1000000 values";
    double million = 0;
    CHECK_INT_EQ(in_child(load_suite, &million), 2);
    /* 1000001 values of one parameter against the 2 x 10000 above: 50x
     * the values read. */
    CHECK(check_ratio("one param of 1000001 values", small, million, 50));
}

/* The files this test writes, all in its own folder. */
/* (The baseline's lock file is the store's to remove: 0560a48.) */
static const char *const scratch[] = {"a.qq", "b.qq", "big.yaml", "child.out", "params.yaml"};

/* The names in the working directory, joined by '/' (which no name has),
 * sorted; NULL when it cannot be read. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *listing(void)
{
    char **names = NULL, *out = NULL;
    size_t n = 0, len = 1;
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char **nv = realloc(names, (n + 1) * sizeof *names);
        if (!nv)
            break;
        names = nv;
        if (!(names[n] = strdup(e->d_name)))
            break;
        len += strlen(names[n++]) + 1;
    }
    if (d) {
        closedir(d);
        out = calloc(len, 1);
    }
    if (out && n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (out) {
            strcat(out, names[i]);
            strcat(out, "/");
        }
        free(names[i]);
    }
    free(names);
    return out;
}

int main(void)
{
    /* The inputs go to a folder of their own made here, and go with it:
     * run from anywhere (ctest's tests/work/test_big_inputs, or a source
     * tree by hand, which once left params.yaml and child.out committed
     * at the repository's root), the directory it was started in is left
     * as it was found. */
    char *before = listing();
    char dir[] = "big_inputs.XXXXXX";
    if (!before || !mkdtemp(dir) || chdir(dir) != 0) {
        perror("test_big_inputs: a scratch folder in the working directory");
        free(before);
        return 1;
    }
    QQInit(10);
    RUN(test_strmap_probes);
    RUN(test_compare_many_keys);
    RUN(test_open_many_nodes);
    RUN(test_baseline_many_cases);
    RUN(test_suite_big_params);
    for (size_t i = 0; i < sizeof scratch / sizeof *scratch; i++)
        if (unlink(scratch[i]) != 0)
            TEST_FAIL_AT("%s/%s was not written by the test (%s)", dir, scratch[i],
                         strerror(errno));
    CHECK(chdir("..") == 0);
    CHECK(rmdir(dir) == 0); /* fails if anything else was left in it */
    char *after = listing();
    CHECK_STR_EQ(after, before);
    free(before);
    free(after);
    return TEST_DONE();
}
