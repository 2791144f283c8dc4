/* runner.c - run a kernel in its own process group with a timeout, then read what it wrote. */
#define _DEFAULT_SOURCE /* setenv, kill on process groups */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qq_file.h"
#include "runner.h"

static volatile uint64_t reference_sink;

double qqb_reference_ticks(void)
{
    enum { INTERVALS = 101, CHAIN = 5000 };
    double t[INTERVALS];
    uint64_t x = 1;
    for (int i = 0; i < INTERVALS; i++) {
        uint64_t t0 = qq_ticks();
        for (int j = 0; j < CHAIN; j++)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
        t[i] = (double)(qq_ticks() - t0);
    }
    reference_sink = x;
    /* The median, by partial selection sort of the lower half. */
    for (int i = 0; i <= INTERVALS / 2; i++)
        for (int j = i + 1; j < INTERVALS; j++)
            if (t[j] < t[i]) {
                double tmp = t[i];
                t[i] = t[j];
                t[j] = tmp;
            }
    return t[INTERVALS / 2];
}

double qqb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int is_mpi_launcher(const char *prog)
{
    const char *base = strrchr(prog, '/');
    base = base ? base + 1 : prog;
    return !strcmp(base, "mpirun") || !strcmp(base, "mpiexec") ||
           !strcmp(base, "orterun");
}

/* A line worth quoting: it has a letter or a digit (launchers end their
 * reports with rules of dashes). */
static int has_words(const char *line)
{
    for (; *line; line++)
        if ((*line >= 'a' && *line <= 'z') || (*line >= 'A' && *line <= 'Z') ||
            (*line >= '0' && *line <= '9'))
            return 1;
    return 0;
}

/* The last line of the log with words in it, to say why a kernel failed;
 * a launcher's line that names a signal wins, since it says what a rank
 * died of. */
static void last_log_line(const char *path, char *out, size_t len)
{
    out[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[512];
    int have_signal = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!has_words(p))
            continue;
        int sig = strstr(p, "signal") != NULL;
        if (sig || !have_signal)
            snprintf(out, len, "%.200s", p);
        have_signal |= sig;
    }
    fclose(fp);
}

static void child(const struct qqb_launch *l)
{
    setpgid(0, 0);
    if (l->out_path)
        setenv("QQ_OUTPUT", l->out_path, 1);
    if (l->events > 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)l->events);
        setenv("QQ_EVENTS", buf, 1);
    }
    if (geteuid() == 0 && is_mpi_launcher(l->argv[0])) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    int fd = open(l->log_path ? l->log_path : "/dev/null",
                  O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    int in = open("/dev/null", O_RDONLY);
    if (in >= 0) {
        dup2(in, STDIN_FILENO);
        close(in);
    }
    execvp(l->argv[0], l->argv);
    fprintf(stderr, "qqbench: cannot run %s: %s\n", l->argv[0], strerror(errno));
    _exit(127);
}

int qqb_launch_run(const struct qqb_launch *l, struct qqb_launch_result *r)
{
    memset(r, 0, sizeof *r);
    if (l->out_path)
        unlink(l->out_path);
    double t0 = qqb_now();
    pid_t pid = fork();
    if (pid < 0) {
        r->status = QQB_LAUNCH_SPAWN;
        snprintf(r->reason, sizeof r->reason, "cannot fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0)
        child(l);
    setpgid(pid, pid); /* also here: whichever runs first wins the race */

    int status = 0, timed_out = 0;
    long wait_ms = 1;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            status = 0;
            break;
        }
        if (qqb_now() - t0 > l->timeout) {
            timed_out = 1;
            kill(-pid, SIGTERM);
            double t1 = qqb_now();
            while (waitpid(pid, &status, WNOHANG) != pid) {
                if (qqb_now() - t1 > 2.0) {
                    kill(-pid, SIGKILL);
                    waitpid(pid, &status, 0);
                    break;
                }
                sleep_ms(10);
            }
            break;
        }
        /* Poll quickly at first (most kernels are short), then back off. */
        sleep_ms(wait_ms);
        if (wait_ms < 20)
            wait_ms++;
    }
    /* Whatever the program left running in its group (ranks of a launcher
     * that died) goes too. */
    kill(-pid, SIGKILL);
    r->seconds = qqb_now() - t0;

    char last[256];
    last_log_line(l->log_path ? l->log_path : "/dev/null", last, sizeof last);
    const char *sep = last[0] ? ": " : "";
    if (timed_out) {
        r->status = QQB_LAUNCH_TIMEOUT;
        snprintf(r->reason, sizeof r->reason, "timed out after %.1f s (killed)%s%s",
                 l->timeout, sep, last);
        return -1;
    }
    if (WIFSIGNALED(status)) {
        r->status = QQB_LAUNCH_SIGNAL;
        r->code = WTERMSIG(status);
        snprintf(r->reason, sizeof r->reason, "crashed: killed by signal %d (%s)%s%s",
                 r->code, strsignal(r->code), sep, last);
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
        is_mpi_launcher(l->argv[0])) {
        /* mpirun reports a rank killed by signal N as its own exit 128+N. */
        r->status = QQB_LAUNCH_SIGNAL;
        r->code = WEXITSTATUS(status) - 128;
        snprintf(r->reason, sizeof r->reason,
                 "crashed: a rank was killed by signal %d (%s)%s%s", r->code,
                 strsignal(r->code), sep, last);
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        r->status = WEXITSTATUS(status) == 127 ? QQB_LAUNCH_SPAWN : QQB_LAUNCH_EXIT;
        r->code = WEXITSTATUS(status);
        snprintf(r->reason, sizeof r->reason, "exited with status %d%s%s", r->code,
                 sep, last);
        return -1;
    }
    struct stat st;
    if (l->out_path && stat(l->out_path, &st) != 0) {
        r->status = QQB_LAUNCH_NOFILE;
        snprintf(r->reason, sizeof r->reason,
                 "exited 0 but wrote no QQ file (does it call QQOut?)%s%s", sep, last);
        return -1;
    }
    return 0;
}

static int add(struct qqb_case_result *c, const char *key, const char *what,
               double v, char *err, size_t errlen)
{
    struct qqb_metric *m = qqb_case_metric(c, key, what);
    if (!m || qqb_metric_add(m, v) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int wanted(const char *name, char *const *keys, size_t nkeys)
{
    if (nkeys == 0)
        return 1;
    for (size_t i = 0; i < nkeys; i++)
        if (!strcmp(keys[i], name))
            return 1;
    return 0;
}

static int collect_mem(const struct qq_file *f, struct qqb_case_result *c)
{
    /* Memory is deterministic: each launch should give the same table, so
     * the last launch's table stands for the case. Summed over nodes. */
    for (size_t i = 0; i < c->nmem; i++)
        free(c->mem[i].key);
    free(c->mem);
    c->mem = NULL;
    c->nmem = 0;
    for (uint32_t n = 0; n < qq_file_nnodes(f); n++) {
        struct qq_mem_table t;
        if (!qq_file_mem(f, n, &t))
            continue;
        for (uint32_t r = 0; r < t.nrows; r++) {
            const struct qq_mem_row *row = &t.rows[r];
            size_t k;
            for (k = 0; k < c->nmem; k++)
                if (!strcmp(c->mem[k].key, row->name))
                    break;
            if (k == c->nmem) {
                struct qqb_mem *v = realloc(c->mem, (c->nmem + 1) * sizeof *v);
                if (!v)
                    return -1;
                c->mem = v;
                memset(&c->mem[k], 0, sizeof c->mem[k]);
                c->mem[k].key = strdup(row->name);
                if (!c->mem[k].key)
                    return -1;
                c->nmem++;
            }
            struct qqb_mem *m = &c->mem[k];
            m->obj_size = row->obj_size;
            m->created += row->created;
            m->deleted += row->deleted;
            m->obj_bytes += row->obj_bytes;
            m->alloc_bytes += row->alloc_bytes;
            m->peak_bytes += row->peak_bytes;
        }
    }
    return 0;
}

/*
 * A state's figures per launch come from the reader (qq_file_hit_stats):
 * one estimator, qq_per_hit, for libqq, st and here; its rule and measured
 * bias are in qq_file.h and docs/STATISTICS.md. The judged figure is NET:
 * the calibrated empty-state cost of the launch's own QQInit subtracted.
 */

/* Net figures under half a counter step cannot be told from zero (nor from
 * each other): they are stored as half a step, so ratios stay finite. The
 * raw figure is kept beside it (per_hit_raw). */
static double net_floor(double net, double step)
{
    double floor = step > 0 ? step / 2 : 0.5;
    return net > floor ? net : floor;
}

int qqb_collect(const char *path, char *const *keys, size_t nkeys,
                struct qqb_case_result *c, char *err, size_t errlen)
{
    struct qq_file *f;
    if (qq_file_open(path, &f) != 0) {
        snprintf(err, errlen, "%s", qq_file_errmsg(f));
        qq_file_close(f);
        return -1;
    }
    uint32_t nk = qq_file_nkeys(f), nn = qq_file_nnodes(f);
    size_t cells = (size_t)nk * (nn ? nn : 1) + 1;
    struct qq_key_summary *ks = calloc(cells, sizeof *ks);
    struct qq_hit_stat *hs = calloc(cells, sizeof *hs);
    int rc = 0;
    if (!ks || !hs) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto out;
    }
    for (uint32_t n = 0; n < nn && rc == 0; n++) {
        struct qq_node_summary ns;
        qq_file_summarize(f, n, &ns, ks + (size_t)n * nk);
        if (qq_file_hit_stats(f, n, hs + (size_t)n * nk) != 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
        const struct qq_node_info *ni = qq_file_node(f, n);
        if (ni->dropped > 0 && c->failure == NULL) {
            /* Not a failure, but the numbers undercount: say so once. */
            char buf[160];
            snprintf(buf, sizeof buf, "node %u dropped %llu events (buffer full; "
                     "raise QQ_EVENTS)", n, (unsigned long long)ni->dropped);
            c->failure = strdup(buf);
        }
    }
    c->mhz = qq_file_node(f, 0) ? qq_file_node(f, 0)->mhz : 0;
    /* Node 0's calibration: the launch's empty-state cost and step. */
    struct qq_calib cal;
    if (rc == 0 && nn > 0 && qq_file_calib(f, 0, &cal)) {
        rc |= add(c, QQB_TIMER_KEY, "empty", cal.empty_typical, err, errlen);
        rc |= add(c, QQB_TIMER_KEY, "step", cal.step, err, errlen);
    } else {
        memset(&cal, 0, sizeof cal);
    }
    for (uint32_t k = 0; k < nk && rc == 0; k++) {
        const struct qq_key_info *key = qq_file_key(f, k);
        if (!wanted(key->name, keys, nkeys))
            continue;
        double hits = 0, maxticks = 0, sumticks = 0, maxnet = 0, maxraw = 0,
               maxmean = 0, sum = 0, dsum = 0;
        for (uint32_t n = 0; n < nn; n++) {
            const struct qq_key_summary *s = &ks[(size_t)n * nk + k];
            const struct qq_hit_stat *h = &hs[(size_t)n * nk + k];
            hits += (double)s->hits;
            double t = (double)s->state_ticks;
            sumticks += t;
            if (t > maxticks)
                maxticks = t;
            /* The slowest node's figure (the first node sets the start). */
            if (n == 0 || h->net > maxnet)
                maxnet = h->net;
            if (h->raw > maxraw)
                maxraw = h->raw;
            if (h->mean > maxmean)
                maxmean = h->mean;
            sum += (double)s->isum;
            dsum += s->dsum;
        }
        rc |= add(c, key->name, "hits", hits, err, errlen);
        switch (key->type) {
        case QQ_TYPE_STATE:
            /* A key that never completed an interval in this launch has no
             * cycles to compare. */
            if (maxticks > 0) {
                rc |= add(c, key->name, "ticks", maxticks, err, errlen);
                rc |= add(c, key->name, "per_hit", net_floor(maxnet, cal.step),
                          err, errlen);
                rc |= add(c, key->name, "per_hit_raw", maxraw, err, errlen);
                rc |= add(c, key->name, "mean_hit", maxmean, err, errlen);
                if (nn > 1)
                    rc |= add(c, key->name, "imbalance", maxticks / (sumticks / nn),
                              err, errlen);
            }
            break;
        case QQ_TYPE_COUNT:
            rc |= add(c, key->name, "sum", sum, err, errlen);
            break;
        case QQ_TYPE_VALUE:
            rc |= add(c, key->name, "mean", hits > 0 ? dsum / hits : 0, err, errlen);
            break;
        default:
            break;
        }
    }
    if (rc == 0 && collect_mem(f, c) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
out:
    free(hs);
    free(ks);
    qq_file_close(f);
    return rc ? -1 : 0;
}
