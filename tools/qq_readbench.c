/* qq_readbench.c - how fast a .qq file is read: plain read() against the reader API and qqbench st.
 */
#define _DEFAULT_SOURCE /* posix_fadvise is POSIX; fork/exec for st */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QQ_ENABLE 1
#include "bigfile.h"
#include "qq.h"
#include "qq_file.h"

/*
 * usage: qq_readbench [--make N] FILE [REPS [QQBENCH]]
 *
 * --make N first writes FILE with N events (the mix of qq_bigfile), so
 * that a suite can run it as a kernel with nothing prepared.
 * Each round (REPS, default 7, after one warm-up that brings FILE into the
 * page cache) times, interleaved:
 *   plain    read() of the whole file in 1 MiB chunks, summing one 8-byte
 *            word per 24 bytes (the bytes are touched, as the reader does)
 *   chunks   qq_file_open_stream + qq_file_chunks_open/qq_chunks_next over
 *            every node: the reader API alone (reads and checks entries)
 *   stats    qq_file_open_stream + qq_file_node_stats of every node: what
 *            st computes (summaries and ticks per hit, one pass)
 *   whole    qq_file_open (the file read whole) + qq_file_node_stats
 *   st       QQBENCH st FILE > /dev/null, fork to exit (when given)
 * Each is a QQ state, so the file QQOut writes ($QQ_OUTPUT, else
 * readbench.qq) gives the harness their ticks per hit; the table printed is
 * the median over rounds, of wall and of CPU time (this process's, or the
 * st child's user + system), in ms, M events/s, MB/s and the ratio to plain.
 */

enum { PLAIN, CHUNKS, STATS, WHOLE, ST, NKIND };
static const char *const kind_name[NKIND] = {"plain", "chunks", "stats", "whole", "st"};
static volatile uint64_t sink;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double st_cpu; /* the last st child's user + system seconds */

static int plain(const char *path)
{
    static uint64_t buf[(1 << 20) / 8];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    uint64_t acc = 0;
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0)
        for (size_t i = 0; i + 3 <= (size_t)r / 8; i += 3)
            acc += buf[i + 2];
    close(fd);
    sink = acc;
    return r < 0 ? -1 : 0;
}

static int reader(const char *path, int kind)
{
    struct qq_file *f;
    int rc = kind == WHOLE ? qq_file_open(path, &f) : qq_file_open_stream(path, &f);
    uint32_t nk = rc == 0 ? qq_file_nkeys(f) : 0;
    struct qq_key_summary *ks = calloc(nk + 1, sizeof *ks);
    struct qq_hit_stat *hs = calloc(nk + 1, sizeof *hs);
    uint64_t acc = 0;
    for (uint32_t n = 0; rc == 0 && n < qq_file_nnodes(f); n++) {
        if (kind == CHUNKS) {
            struct qq_chunks *c;
            const struct qq_event *e;
            size_t m;
            rc = qq_file_chunks_open(f, n, &c);
            while (rc == 0 && (rc = qq_chunks_next(c, &e, &m)) > 0) {
                for (size_t j = 0; j < m; j++)
                    acc += e[j].tick;
                rc = 0;
            }
            qq_chunks_close(c);
        } else {
            struct qq_node_summary ns;
            rc = ks && hs ? qq_file_node_stats(f, n, &ns, ks, hs) : QQ_ENOMEM;
            acc += ns.last_tick;
        }
    }
    if (rc != 0)
        fprintf(stderr, "qq_readbench: %s\n", qq_file_errmsg(f));
    sink = acc;
    free(ks);
    free(hs);
    qq_file_close(f);
    return rc;
}

static int st(const char *qqbench, const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || dup2(fd, 1) < 0)
            _exit(126);
        execl(qqbench, qqbench, "st", path, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
        return -1;
    st_cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
             (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int run(int kind, const char *path, const char *qqbench)
{
    return kind == PLAIN ? plain(path) : kind == ST ? st(qqbench, path) : reader(path, kind);
}

/* The CPU's model name ("model name" of /proc/cpuinfo, else "Hardware" or
 * "CPU part", else "unknown CPU") into BUF: printed beside every ratio, as
 * the read path's goals are kept per CPU family (docs/PERFORMANCE.md). */
static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown CPU");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    char line[512];
    int found = 0;
    while (fp && !found && fgets(line, sizeof line, fp)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        found = strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0 ||
                strncmp(line, "CPU part", 8) == 0;
        if (found) {
            char *v = colon + 1 + strspn(colon + 1, " \t");
            v[strcspn(v, "\n")] = '\0';
            snprintf(buf, size, "%s", *v ? v : "unknown CPU");
        }
    }
    if (fp)
        fclose(fp);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long long make = 0;
    if (argc > 2 && strcmp(argv[1], "--make") == 0) {
        char *end;
        make = strtoll(argv[2], &end, 10);
        if (*end || make < 8 || make > 1000000000LL) {
            fprintf(stderr, "qq_readbench: --make N: a whole number from 8 to 10^9, not '%s'\n",
                    argv[2]);
            return 2;
        }
        argc -= 2;
        argv += 2;
    }
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: qq_readbench [--make N] FILE [REPS [QQBENCH]]\n");
        return 2;
    }
    if (make) {
        /* $QQ_OUTPUT names the results' file, not this one. */
        const char *env = getenv(QQ_OUTPUT_ENV);
        char *out = env ? strdup(env) : NULL;
        unsetenv(QQ_OUTPUT_ENV);
        int rc = bigfile_write(argv[1], make);
        if (out)
            setenv(QQ_OUTPUT_ENV, out, 1);
        free(out);
        if (rc != 0) {
            fprintf(stderr, "qq_readbench: %s\n", qq_out_errmsg());
            return 1;
        }
    }
    const char *path = argv[1], *qqbench = argc > 3 ? argv[3] : NULL;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (reps < 1 || reps > 1000) {
        fprintf(stderr, "qq_readbench: REPS from 1 to 1000, not '%s'\n", argv[2]);
        return 2;
    }
    struct qq_file *f;
    if (qq_file_open_stream(path, &f) != 0) {
        fprintf(stderr, "qq_readbench: %s\n", qq_file_errmsg(f));
        qq_file_close(f);
        return 2;
    }
    uint64_t events = 0, bytes = 0;
    for (uint32_t n = 0; n < qq_file_nnodes(f); n++)
        events += qq_file_node(f, n)->entries;
    qq_file_close(f);
    int nkind = qqbench ? NKIND : ST;

    QQInit(4 * NKIND * reps + 64);
    int key[NKIND];
    for (int k = 0; k < nkind; k++) {
        char name[32];
        snprintf(name, sizeof name, "read_%s", kind_name[k]);
        key[k] = QQAddState(name);
    }
    /* Wall and CPU seconds (this process's, or the st child's): on a shared
     * machine the wall clock also counts the time others ran. */
    double *t = calloc((size_t)(NKIND * reps), sizeof *t);
    double *cpu = calloc((size_t)(NKIND * reps), sizeof *cpu);
    if (!t || !cpu)
        return 1;
    for (int k = 0; k < nkind; k++) /* warm: the page cache, the code */
        if (run(k, path, qqbench) != 0) {
            fprintf(stderr, "qq_readbench: %s failed on %s\n", kind_name[k], path);
            return 1;
        }
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < nkind; i++) {
            int k = (i + r) % nkind; /* no kind always first */
            double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            QQStateOn(key[k]);
            int rc = run(k, path, qqbench);
            QQStateOff(key[k]);
            t[k * reps + r] = clock_s(CLOCK_MONOTONIC) - t0;
            cpu[k * reps + r] = k == ST ? st_cpu : clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
            if (rc != 0)
                return 1;
        }
    FILE *fp = fopen(path, "rb");
    if (fp && fseek(fp, 0, SEEK_END) == 0)
        bytes = (uint64_t)ftell(fp);
    if (fp)
        fclose(fp);
    char cpu_name[128];
    cpu_model(cpu_name, sizeof cpu_name);
    printf("%s: %llu events, %llu bytes; median of %d warm rounds; CPU %s\n\n", path,
           (unsigned long long)events, (unsigned long long)bytes, reps, cpu_name);
    printf("%-8s %9s %11s %8s %8s   %9s %11s %8s %8s   %s\n", "", "wall ms", "M events/s", "MB/s",
           "x plain", "CPU ms", "M events/s", "MB/s", "x plain", "CPU");
    double plain_s[2] = {0, 0};
    for (int k = 0; k < nkind; k++) {
        printf("%-8s", kind_name[k]);
        for (int w = 0; w < 2; w++) {
            double *x = (w ? cpu : t) + k * reps;
            qsort(x, (size_t)reps, sizeof *x, cmp_double);
            double s = x[reps / 2];
            if (k == PLAIN)
                plain_s[w] = s;
            printf(" %9.2f %11.1f %8.0f %8.2f  ", s * 1e3, (double)events / s / 1e6,
                   (double)bytes / s / 1e6, s / plain_s[w]);
        }
        printf(" %s\n", cpu_name);
    }
    free(t);
    free(cpu);
    QQOut("readbench.qq", 0, 1);
    return 0;
}
