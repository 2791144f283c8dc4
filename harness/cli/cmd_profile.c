/* cmd_profile.c - qqbench profile-machine: this machine's rates (timer, memory, flops, MPI) as
 * profile.yaml. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "cmds.h"
#include "opts.h"
#include "fingerprint.h"
#include "git.h"
#include "pictures_model.h"
#include "profile.h"
#include "yamlcur.h"
#include "qq.h"
#include "results.h"

extern char **environ;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The measurement loops read our own buffers: keep the sanitizers' checks
 * out of them, or ASan+UBSan builds measure the shadow memory and the
 * overflow checks instead (a 16 KiB set read at 5-17 GB/s, slower than
 * DRAM, with UBSan's checks left in). */
#if defined(__SANITIZE_ADDRESS__)
#define QQB_NO_ASAN __attribute__((no_sanitize("address", "undefined")))
#else
#define QQB_NO_ASAN
#endif

static volatile uint64_t sink;

QQB_NO_ASAN static uint64_t sum_pass(const uint64_t *a, size_t n)
{
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
        s4 += a[i + 4];
        s5 += a[i + 5];
        s6 += a[i + 6];
        s7 += a[i + 7];
    }
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

/* Bytes per second reading a working set of BYTES, best of TRIALS. */
static double bandwidth(uint64_t *a, size_t bytes, int trials)
{
    size_t n = bytes / sizeof *a;
    size_t passes = (size_t)(64.0 * 1024 * 1024 / (double)bytes) + 1;
    double best = INFINITY;
    sink += sum_pass(a, n); /* warm */
    for (int t = 0; t < trials; t++) {
        double t0 = now();
        for (size_t p = 0; p < passes; p++)
            sink += sum_pass(a, n);
        double dt = (now() - t0) / (double)passes;
        if (dt < best)
            best = dt;
    }
    return (double)(n * sizeof *a) / best;
}

QQB_NO_ASAN static size_t chase(const size_t *next, size_t steps)
{
    size_t i = 0;
    while (steps--)
        i = next[i];
    return i;
}

/* Nanoseconds per dependent load over a random cycle through BYTES. */
static double latency(size_t *next, size_t bytes, int trials, unsigned *seed)
{
    /* one pointer per 64-byte line: every load a new line */
    size_t stride = 64 / sizeof *next, lines = bytes / 64;
    if (lines < 2)
        return NAN;
    size_t *order = malloc(lines * sizeof *order);
    if (!order)
        return NAN;
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    for (size_t i = lines - 1; i > 0; i--) { /* Fisher-Yates, our own LCG */
        *seed = *seed * 1103515245u + 12345u;
        size_t j = ((size_t)*seed << 15 ^ (size_t)(*seed >> 7)) % (i + 1);
        size_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (size_t i = 0; i < lines; i++)
        next[order[i] * stride] = order[(i + 1) % lines] * stride;
    free(order);
    /* enough loads to leave the warm-up behind, few enough for DRAM's
     * hundreds of ns: 0.1-0.3 s per trial at most */
    size_t steps = bytes <= (8u << 20) ? 2000000 : 500000;
    double best = INFINITY;
    sink += chase(next, lines);
    for (int t = 0; t < trials; t++) {
        double t0 = now();
        sink += chase(next, steps);
        double dt = (now() - t0) / (double)steps;
        if (dt < best)
            best = dt;
    }
    return best * 1e9;
}

/* Double-precision multiply-adds per second: 8 independent chains. */
static double flops(int trials)
{
    double best = INFINITY;
    const long n = 20000000;
    for (int t = 0; t < trials; t++) {
        volatile double seed = 1.0;
        double a0 = seed, a1 = seed, a2 = seed, a3 = seed, a4 = seed, a5 = seed, a6 = seed,
               a7 = seed, m = 0.999999, c = 1e-7;
        double t0 = now();
        for (long i = 0; i < n; i++) {
            a0 = a0 * m + c;
            a1 = a1 * m + c;
            a2 = a2 * m + c;
            a3 = a3 * m + c;
            a4 = a4 * m + c;
            a5 = a5 * m + c;
            a6 = a6 * m + c;
            a7 = a7 * m + c;
        }
        double dt = now() - t0;
        sink += (uint64_t)(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7);
        if (dt < best)
            best = dt;
    }
    return 16.0 * (double)n / best; /* 2 flops x 8 chains */
}

/* Ticks and nanoseconds per counter read (bare and ordered pair). */
static void tick_cost(double *ns_bare, double *ticks_bare, double *ns_pair, double *mhz)
{
    const int n = 1000000;
    double t0 = now();
    uint64_t k0 = qq_ticks();
    for (int i = 0; i < n; i++)
        sink += qq_ticks();
    uint64_t k1 = qq_ticks();
    double t1 = now();
    for (int i = 0; i < n; i++) {
        sink += qq_ticks_open();
        sink += qq_ticks_close();
    }
    double t2 = now();
    *ns_bare = (t1 - t0) / n * 1e9;
    *ticks_bare = (double)(k1 - k0) / n;
    *ns_pair = (t2 - t1) / n * 1e9;
    /* QQ's calibration (bracketed clock/counter pairs over about 20 ms), the
     * figure the fingerprint and every .qq file carry: the loop above lasts
     * about 10 ms between two unbracketed reads, a few MHz off. */
    *mhz = qq_tick_mhz();
}

struct pp {
    int n;
    long size[16];
    double us[16], mbps[16];
};

/* Run the launcher + helper, collect its lines; -1 on failure (said why). */
static int pingpong(const char *launcher, const char *helper, struct pp *out)
{
    char *argv[32], buf[512];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", launcher);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 30;
         w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc++] = (char *)helper;
    argv[argc] = NULL;
    if (geteuid() == 0) { /* Open MPI refuses root without these */
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    int fd[2];
    if (pipe(fd) < 0) {
        fprintf(stderr, "qqbench profile-machine: error: pipe: %s\n", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    pid_t pid;
    int st = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fd[1]);
    if (st != 0) {
        close(fd[0]);
        fprintf(stderr, "qqbench profile-machine: error: cannot start %s: %s\n", argv[0],
                strerror(st));
        return -1;
    }
    char text[4096];
    size_t len = 0;
    double deadline = now() + 120;
    for (;;) {
        struct pollfd p = {fd[0], POLLIN, 0};
        int left = (int)((deadline - now()) * 1000);
        if (left <= 0 || poll(&p, 1, left) <= 0) {
            kill(-pid, SIGKILL);
            fprintf(stderr, "qqbench profile-machine: error: the MPI helper "
                            "ran past 120 s; killed\n");
            break;
        }
        ssize_t k = read(fd[0], text + len, sizeof text - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
        if (len == sizeof text - 1)
            break;
    }
    text[len] = '\0';
    close(fd[0]);
    int ws;
    waitpid(pid, &ws, 0);
    kill(-pid, SIGKILL); /* anything the launcher left behind */
    out->n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && out->n < 16;
         l = strtok_r(NULL, "\n", &save)) {
        char *e1, *e2, *e3;
        errno = 0;
        long size = strtol(l, &e1, 10);
        double us = strtod(e1, &e2), mbps = strtod(e2, &e3);
        if (errno == 0 && e1 != l && e2 != e1 && e3 != e2) {
            out->size[out->n] = size;
            out->us[out->n] = us;
            out->mbps[out->n] = mbps;
            out->n++;
        }
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || out->n == 0) {
        fprintf(stderr,
                "qqbench profile-machine: error: '%s %s' failed "
                "(%s %d) with %d results\n",
                launcher, helper, WIFEXITED(ws) ? "exit" : "signal",
                WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws), out->n);
        return -1;
    }
    return 0;
}

static long cache_size(int name)
{
    long v = sysconf(name);
    return v > 0 ? v : 0;
}

struct profile_opts {
    const char *out, *helper, *bdir, *plot, *launcher;
    int quick, mpi;
};

/* Where the profile goes: --out, else BASELINES/ID/profile.yaml (into
 * BUF). Checked first: an unwritable place fails before a minute of
 * measuring; only the default place (a new machine's folder) is made.
 * 0, or -1 with the error printed. */
static int out_path(struct profile_opts *o, char *buf, size_t len)
{
    char bbuf[4096];
    if (!o->out) {
        struct qqb_fingerprint fpr;
        qqb_fingerprint_this(&fpr);
        const char *bdir = o->bdir;
        if (!bdir) {
            if (qqb_git_baselines_dir(".", bbuf, sizeof bbuf) != 0) {
                fprintf(stderr, "qqbench profile-machine: error: the current folder's path is "
                                "too long\n");
                return -1;
            }
            bdir = bbuf;
        }
        if (qqb_profile_path(bdir, fpr.id, buf, len) != 0) {
            fprintf(stderr, "qqbench profile-machine: error: %s: path too long\n", bdir);
            return -1;
        }
        o->out = buf;
        return 0;
    }
    char odir[4200];
    snprintf(odir, sizeof odir, "%s", o->out);
    char *oslash = strrchr(odir, '/');
    if (oslash)
        oslash[oslash == odir ? 1 : 0] = '\0';
    const char *od = oslash ? odir : ".";
    if (strcmp(o->out, "-") && access(od, W_OK) != 0) {
        fprintf(stderr, "qqbench profile-machine: error: cannot write %s: %s\n", o->out,
                strerror(errno));
        return -1;
    }
    char why[256];
    if (strcmp(o->out, "-") && qqb_output_check(o->out, why, sizeof why) < 0) {
        fprintf(stderr, "qqbench profile-machine: error: cannot write %s: %s\n", o->out, why);
        return -1;
    }
    return 0;
}

/* The ping-pong helper next to this qqbench (into BUF), else by name. */
static const char *default_helper(char *buf, size_t len)
{
    ssize_t k = readlink("/proc/self/exe", buf, len - 32);
    if (k <= 0)
        return "qqb_pingpong";
    buf[k] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash)
        snprintf(slash + 1, len - (size_t)(slash + 1 - buf), "%s", "qqb_pingpong");
    return buf;
}

/* What profile-machine measured. */
struct machine {
    long l1, l2, l3;
    size_t sizes[32];
    int ns;
    double bw[32], lat[32], fl;
    double ns_bare, ticks_bare, ns_pair, mhz;
    struct pp pp;
    int mpi_rc;
};

/* The working sets: 8 KiB up by fours, then a DRAM-sized set (twice the
 * last-level cache, at least 64 MiB, at most 1 GiB); three with --quick. */
static size_t working_sets(const struct machine *m, int quick, size_t *sizes, int *ns)
{
    long last = m->l3 ? m->l3 : m->l2 ? m->l2 : 8L << 20;
    size_t dram = (size_t)last * 2;
    if (dram < (64u << 20))
        dram = 64u << 20;
    if (dram > (1u << 30))
        dram = 1u << 30;
    *ns = 0;
    if (quick) {
        sizes[(*ns)++] = 16u << 10;
        sizes[(*ns)++] = 1u << 20;
        sizes[(*ns)++] = dram;
    } else {
        for (size_t s = 8u << 10; s * 2 < dram && *ns < 30; s *= 4)
            sizes[(*ns)++] = s;
        sizes[(*ns)++] = dram;
    }
    return dram;
}

/* Measure the machine into M. 0, or -1 with the error printed. */
static int measure(const struct profile_opts *o, struct machine *m)
{
    int trials = o->quick ? 3 : 5;
    m->l1 = cache_size(_SC_LEVEL1_DCACHE_SIZE);
    m->l2 = cache_size(_SC_LEVEL2_CACHE_SIZE);
    m->l3 = cache_size(_SC_LEVEL3_CACHE_SIZE);
    size_t dram = working_sets(m, o->quick, m->sizes, &m->ns);
    uint64_t *buf = calloc(1, dram); /* calloc: large, so fresh zero pages, no memset */
    if (!buf) {
        fprintf(stderr,
                "qqbench profile-machine: error: cannot allocate %zu "
                "bytes\n",
                dram);
        return -1;
    }
    for (size_t i = 0; i < dram / sizeof *buf; i++)
        buf[i] = i;
    tick_cost(&m->ns_bare, &m->ticks_bare, &m->ns_pair, &m->mhz);
    unsigned seed = 12345;
    for (int i = 0; i < m->ns; i++) {
        m->bw[i] = bandwidth(buf, m->sizes[i], trials);
        m->lat[i] = latency((size_t *)buf, m->sizes[i], o->quick ? 2 : 3, &seed);
    }
    m->fl = flops(trials);
    free(buf);
    m->mpi_rc = o->mpi ? pingpong(o->launcher, o->helper, &m->pp) : 0;
    return 0;
}

/* The profile as YAML on FP. 0, or -1 with the error printed. */
static int write_yaml(FILE *fp, const struct profile_opts *o, const struct machine *m)
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
    if (o->mpi && qqb_yaml_quote(qlaunch, sizeof qlaunch, o->launcher) != 0) {
        fprintf(stderr, "qqbench profile-machine: error: --launcher: not UTF-8 text\n");
        return -1;
    }
    fprintf(fp,
            "# qqbench machine profile (qqbench profile-machine, docs/MODELS.md)\n"
            "profile: 1\nhost: %s\ndate: \"%s\"\nqqbench_version: \"%s\"\n"
            "quick: %s\n",
            qhost, date, QQB_VERSION, o->quick ? "true" : "false");
    fprintf(fp, "caches:\n  l1d_bytes: %ld\n  l2_bytes: %ld\n  l3_bytes: %ld\n", m->l1, m->l2,
            m->l3);
    fprintf(fp,
            "timer:\n  tick_mhz: %.3f\n  read_ns: %.3f\n  read_ticks: %.3f\n"
            "  ordered_pair_ns: %.3f\n",
            m->mhz, m->ns_bare, m->ticks_bare, m->ns_pair);
    fprintf(fp, "memory:\n  # streaming sum of 8-byte words; dependent loads "
                "over a random cycle of 64-byte lines\n");
    for (int i = 0; i < m->ns; i++)
        fprintf(fp, "  - bytes: %zu\n    bandwidth_gbps: %.3f\n    latency_ns: %.3f\n", m->sizes[i],
                m->bw[i] / 1e9, m->lat[i]);
    fprintf(fp, "flops:\n  fma_chains: 8\n  gflops: %.3f\n", m->fl / 1e9);
    if (o->mpi && m->mpi_rc == 0) {
        fprintf(fp, "mpi:\n  launcher: %s\n  ranks: 2\n  pingpong:\n", qlaunch);
        for (int i = 0; i < m->pp.n; i++)
            fprintf(fp,
                    "    - bytes: %ld\n      latency_us: %.4f\n"
                    "      bandwidth_mbps: %.2f\n",
                    m->pp.size[i], m->pp.us[i], m->pp.mbps[i]);
    } else {
        fprintf(fp, "mpi: null  # %s\n", o->mpi ? "the helper failed" : "--no-mpi");
    }
    return 0;
}

/* TEXT (LEN bytes; CLOSED 0 when its memory stream failed) to --out (or
 * stdout), then the pictures with --plot. 0, or -1 with the error
 * printed. */
static int store(const struct profile_opts *o, int closed, const char *text, size_t len)
{
    char err[1024];
    int wrc = closed ? 0 : -1;
    if (wrc == 0 && !strcmp(o->out, "-"))
        wrc = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : -1;
    else if (wrc == 0)
        wrc = qqb_profile_store(o->out, text, len, err, sizeof err);
    else
        snprintf(err, sizeof err, "qqbench profile-machine: error: out of memory");
    if (wrc != 0) {
        fprintf(stderr, "%s\n",
                strcmp(o->out, "-") ? err
                                    : "qqbench profile-machine: error: "
                                      "cannot write to stdout");
        return -1;
    }
    if (o->plot) {
        struct qqb_profile prof;
        char stems[2][64];
        size_t nst;
        if (qqb_profile_parse(o->out, text, len, &prof, err, sizeof err) != 0 ||
            qqb_profile_plot(&prof, o->plot, "profile", 0, stems, &nst, err, sizeof err) != 0) {
            fprintf(stderr, "qqbench profile-machine: error: --plot %s: %s\n", o->plot, err);
            return -1;
        }
        fprintf(stderr, "qqbench profile-machine: pictures: %s/%s.svg%s%s%s\n", o->plot, stems[0],
                nst > 1 ? ", " : "", nst > 1 ? stems[1] : "", nst > 1 ? ".svg" : "");
    }
    return 0;
}

/* The usage's prose around the option lines, which the table in
 * cmd_profile generates. */
static const struct qqb_opts_cmd profile_cmd = {
    "profile-machine",
    "usage: qqbench profile-machine [--out PROFILE.yaml] [options]\n\n"
    "Measure this machine's rates (Snavely's machine profile) and write them\n"
    "as YAML: the cost of a counter read, memory bandwidth (a streaming sum)\n"
    "and latency (a dependent pointer chase over a random cycle) over\n"
    "working sets from 8 KiB to twice the last-level cache (the curve\n"
    "shows the cache levels), a floating-point rate (independent\n"
    "multiply-adds), and MPI ping-pong latency and bandwidth between 2 ranks\n"
    "over message sizes (mpirun --oversubscribe -np 2 qqb_pingpong).\n"
    "Every figure is the best of several trials: interference only adds time.\n\n",
    "\nExit: 0, 2 for bad usage or an unwritable file, 3 when the MPI\n"
    "helper fails (the rest of the profile is still written).\n"};

int cmd_profile(int argc, char **argv)
{
    struct profile_opts o = {.launcher = "mpirun --oversubscribe -np 2", .mpi = 1};
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--out", "FILE", &o.out,
                       "where to write ('-' for stdout); default: beside\n"
                       "this machine's baselines, BASELINES/ID/profile.yaml,\n"
                       "where 'qqbench run' finds it (written atomically)"),
        QQB_OPT_STRING("--baselines", "DIR", &o.bdir,
                       "the baselines folder (default: baselines/ at the\n"
                       "root of the git checkout holding the current\n"
                       "folder, else ./baselines)"),
        QQB_OPT_STRING("--plot", "DIR", &o.plot,
                       "also draw the profile: bandwidth and latency against\n"
                       "the working set, MPI time and bandwidth against the\n"
                       "message size (gnuplot: data, .gp, SVG, PNG)"),
        QQB_OPT_FLAG("--quick", 0, &o.quick, "fewer sizes and trials (about a second)"),
        QQB_OPT_FLAG_OFF("--no-mpi", &o.mpi, "skip the MPI ping-pong"),
        QQB_OPT_STRING("--mpi-helper", "PATH", &o.helper,
                       "the ping-pong program (default: qqb_pingpong\n"
                       "next to qqbench)"),
        QQB_OPT_STRING("--launcher", "CMD", &o.launcher,
                       "default \"mpirun --oversubscribe -np 2\""),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&profile_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    char outbuf[4200], helper_buf[PATH_MAX];
    if (out_path(&o, outbuf, sizeof outbuf) != 0)
        return QQB_EXIT_USAGE;
    char *text = NULL;
    size_t textlen = 0;
    FILE *fp = open_memstream(&text, &textlen);
    if (!fp) {
        fprintf(stderr, "qqbench profile-machine: error: out of memory\n");
        return QQB_EXIT_USAGE;
    }
    if (!o.helper)
        o.helper = default_helper(helper_buf, sizeof helper_buf);
    struct machine m = {0};
    if (measure(&o, &m) != 0 || write_yaml(fp, &o, &m) != 0) {
        fclose(fp);
        free(text);
        return QQB_EXIT_USAGE;
    }
    /* The stream sets TEXT and TEXTLEN when it is closed. */
    int closed = fclose(fp) == 0;
    int src = store(&o, closed, text, textlen);
    free(text);
    if (src != 0)
        return QQB_EXIT_USAGE;
    fprintf(stderr,
            "qqbench profile-machine: wrote %s: counter read %.1f ns, "
            "bandwidth %.1f GB/s (%zu KiB) to %.1f GB/s (%zu MiB), %.2f GFLOP/s%s\n",
            o.out, m.ns_bare, m.bw[0] / 1e9, m.sizes[0] >> 10, m.bw[m.ns - 1] / 1e9,
            m.sizes[m.ns - 1] >> 20, m.fl / 1e9, o.mpi && m.mpi_rc == 0 ? ", MPI measured" : "");
    return m.mpi_rc ? QQB_EXIT_KERNEL : QQB_EXIT_OK;
}
