/* runner.c - run a kernel in its own process group with a timeout; collect.c reads its file. */
#define _DEFAULT_SOURCE /* setenv, kill on process groups */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "proc.h"
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

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int is_mpi_launcher(const char *prog)
{
    const char *base = strrchr(prog, '/');
    base = base ? base + 1 : prog;
    return !strcmp(base, "mpirun") || !strcmp(base, "mpiexec") || !strcmp(base, "orterun");
}

/* A line worth quoting: it has a letter or a digit (launchers end their
 * reports with rules of dashes). */
static int has_words(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            return 1;
    }
    return 0;
}

/* The last line of the output's tail with words in it, to say why a kernel
 * failed; a launcher's line that names a signal wins, since it says what a
 * rank died of. */
static void last_line(const char *buf, size_t len, char *out, size_t outlen)
{
    out[0] = '\0';
    int have_signal = 0;
    size_t at = 0;
    while (at < len) {
        const char *line = buf + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        at += n + 1;
        while (n > 0 && (line[0] == ' ' || line[0] == '\t')) {
            line++;
            n--;
        }
        while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == '\n'))
            n--;
        if (!has_words(line, n))
            continue;
        char probe[201];
        size_t pn = n < 200 ? n : 200;
        memcpy(probe, line, pn);
        probe[pn] = '\0';
        int sig = strstr(probe, "signal") != NULL;
        if (sig || !have_signal)
            snprintf(out, outlen, "%s", probe);
        have_signal |= sig;
    }
}

/* ---------------------------------------------------------------------
 * The program's output: a bounded tail.
 *
 * The program writes into a pipe that qqbench drains while it waits; only
 * the last QQB_TAIL bytes are kept (a ring), and those alone are written to
 * the launch's log when it ends. A kernel printing gigabytes costs the time
 * to read them once, never memory, disk, or a re-scan.
 * --------------------------------------------------------------------- */

#define QQB_TAIL ((size_t)64 * 1024)

struct tail {
    char buf[QQB_TAIL];
    size_t pos;     /* next write position in buf */
    uint64_t total; /* bytes seen */
};

static void tail_add(struct tail *t, const char *p, size_t n)
{
    t->total += n;
    if (n > QQB_TAIL) {
        p += n - QQB_TAIL;
        n = QQB_TAIL;
    }
    while (n > 0) {
        size_t k = QQB_TAIL - t->pos < n ? QQB_TAIL - t->pos : n;
        memcpy(t->buf + t->pos, p, k);
        t->pos = (t->pos + k) % QQB_TAIL;
        p += k;
        n -= k;
    }
}

/* The kept bytes in order, in OUT (QQB_TAIL bytes); returns their count. A
 * cut tail starts after its first newline, so it holds whole lines. */
static size_t tail_get(const struct tail *t, char *out)
{
    if (t->total <= QQB_TAIL) {
        memcpy(out, t->buf, (size_t)t->total);
        return (size_t)t->total;
    }
    memcpy(out, t->buf + t->pos, QQB_TAIL - t->pos);
    memcpy(out + (QQB_TAIL - t->pos), t->buf, t->pos);
    char *nl = memchr(out, '\n', QQB_TAIL);
    size_t skip = nl && nl < out + QQB_TAIL - 1 ? (size_t)(nl - out) + 1 : 0;
    memmove(out, out + skip, QQB_TAIL - skip);
    return QQB_TAIL - skip;
}

/* Read what the pipe holds now (it is non-blocking). Returns 1 at end of
 * file (every writer closed it), 0 otherwise. */
static int drain(int fd, struct tail *t)
{
    char chunk[16384];
    for (;;) {
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r > 0) {
            tail_add(t, chunk, (size_t)r);
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        return r == 0;
    }
}

/* ---------------------------------------------------------------------
 * Signals that end a run. SIGINT, SIGTERM, SIGHUP and SIGPIPE to qqbench
 * kill the running launch's process group (an mpirun and its ranks with
 * it), remove the work folder, and end qqbench by the same signal (a shell
 * sees 128+N). SIGPIPE: 'qqbench run ... | head' ended qqbench at its next
 * write with the launch logs left in the work folder. The handler uses
 * async-signal-safe calls only.
 * --------------------------------------------------------------------- */

static const int trap_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NTRAP (sizeof trap_sigs / sizeof trap_sigs[0])
static struct sigaction trap_old[NTRAP];
static int trap_on;
static char trap_dir[4096];           /* the work folder, "" to keep it */
static volatile sig_atomic_t running; /* process group of the launch, 0 */

/* ---------------------------------------------------------------------
 * Descendants. A kernel can leave processes that its process group does
 * not hold: a daemon that setsid()s, or MPI ranks (Open MPI puts each rank
 * in a group of its own) whose mpirun was killed. qqbench makes itself a
 * child subreaper (Linux PR_SET_CHILD_SUBREAPER), so every orphan of a
 * launch becomes qqbench's child instead of init's; at the end of each
 * launch, and when qqbench is stopped by a signal, its children are killed
 * and reaped until none is left (qqbench runs nothing else meanwhile).
 * Children are listed from /proc/self/task/T/children, or by scanning
 * /proc where the kernel lacks that file. Raw system calls and fixed
 * buffers only: the signal handler uses this too.
 * --------------------------------------------------------------------- */

#define QQB_MAX_CHILDREN   1024
#define QQB_LEFTOVER_GRACE 2.0 /* seconds */

/* Append text or a decimal number at P (bounded by END); returns the new P.
 * (snprintf is not async-signal-safe.) */
static char *put_str(char *p, char *end, const char *s)
{
    while (*s && p < end - 1)
        *p++ = *s++;
    *p = '\0';
    return p;
}

static char *put_long(char *p, char *end, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0 : (unsigned long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u && n < (int)sizeof digits);
    while (n > 0 && p < end - 1)
        *p++ = digits[--n];
    *p = '\0';
    return p;
}

/* Read up to N-1 bytes of PATH into BUF, NUL-ended; returns the count or -1. */
static ssize_t read_small(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got < n - 1) {
        ssize_t r = read(fd, buf + got, n - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

/* From /proc/PID/stat: the state letter, the parent and the command name
 * (up to COMMLEN-1 bytes; the name may hold spaces and parentheses, so it
 * ends at the last ')'). Returns 0, or -1 when the process is gone. */
static int proc_stat(pid_t pid, char *state, pid_t *ppid, char *comm, size_t commlen)
{
    char path[64], buf[512];
    char *p = put_str(path, path + sizeof path, "/proc/");
    p = put_long(p, path + sizeof path, pid);
    put_str(p, path + sizeof path, "/stat");
    if (read_small(path, buf, sizeof buf) <= 0)
        return -1;
    char *open_paren = strchr(buf, '(');
    char *close_paren = strrchr(buf, ')');
    /* ") S PPID": the state and the parent must both be there. */
    if (!open_paren || !close_paren || close_paren < open_paren || close_paren[1] != ' ' ||
        !close_paren[2] || close_paren[3] != ' ')
        return -1;
    if (comm && commlen > 0) {
        size_t n = (size_t)(close_paren - open_paren - 1);
        if (n >= commlen)
            n = commlen - 1;
        memcpy(comm, open_paren + 1, n);
        comm[n] = '\0';
    }
    *state = close_paren[2];
    long pp = 0;
    for (const char *q = close_paren + 4; *q >= '0' && *q <= '9'; q++)
        pp = pp * 10 + (*q - '0');
    *ppid = (pid_t)pp;
    return 0;
}

/* Parse decimal numbers separated by anything else from BUF into OUT. */
static size_t parse_pids(const char *buf, pid_t *out, size_t n, size_t max)
{
    long v = -1;
    for (const char *q = buf;; q++) {
        if (*q >= '0' && *q <= '9') {
            if (v < 100000000) /* pids are below 2^22 on Linux */
                v = (v < 0 ? 0 : v * 10) + (*q - '0');
        } else {
            if (v > 0 && n < max)
                out[n++] = (pid_t)v;
            v = -1;
            if (!*q)
                break;
        }
    }
    return n;
}

/* Call FN(NAME) for each entry of the folder PATH but "." and "..". */
static void each_entry(const char *path, void (*fn)(int, const char *, void *), void *arg)
{
#if defined(__linux__) && defined(SYS_getdents64)
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096] __attribute__((aligned(8)));
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0)
            break;
        for (long at = 0; at < n;) {
            unsigned short reclen;
            memcpy(&reclen, buf + at + 16, sizeof reclen);
            const char *name = buf + at + 19;
            if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                fn(fd, name, arg);
            at += reclen;
        }
    }
    close(fd);
#else
    (void)path;
    (void)fn;
    (void)arg;
#endif
}

static void unlink_entry(int dirfd, const char *name, void *arg)
{
    (void)arg;
    unlinkat(dirfd, name, 0);
}

/* Every entry of DIR (flat: the launches' logs, files and temporaries). */
static void empty_dir(const char *dir)
{
    each_entry(dir, unlink_entry, NULL);
}

struct child_list {
    pid_t *pids;
    size_t n, max;
    pid_t self;
    int have_children_file; /* /proc/self/task/T/children exists */
};

static void add_task_children(int dirfd, const char *tid, void *arg)
{
    (void)dirfd;
    struct child_list *cl = arg;
    char path[96], buf[4096];
    char *p = put_str(path, path + sizeof path, "/proc/self/task/");
    p = put_str(p, path + sizeof path, tid);
    put_str(p, path + sizeof path, "/children");
    if (read_small(path, buf, sizeof buf) < 0)
        return;
    cl->have_children_file = 1;
    cl->n = parse_pids(buf, cl->pids, cl->n, cl->max);
}

static void add_if_child(int dirfd, const char *name, void *arg)
{
    (void)dirfd;
    struct child_list *cl = arg;
    if (name[0] < '1' || name[0] > '9')
        return;
    pid_t pid = 0;
    if (parse_pids(name, &pid, 0, 1) != 1)
        return;
    char state;
    pid_t ppid;
    if (proc_stat(pid, &state, &ppid, NULL, 0) == 0 && ppid == cl->self && cl->n < cl->max)
        cl->pids[cl->n++] = pid;
}

/* qqbench's children now, at most MAX. */
static size_t list_children(pid_t *pids, size_t max)
{
    struct child_list cl = {pids, 0, max, getpid(), 0};
    each_entry("/proc/self/task", add_task_children, &cl);
    if (!cl.have_children_file)
        each_entry("/proc", add_if_child, &cl);
    return cl.n;
}

/* What was left running: how many, and the first one's pid and name. */
struct leftover {
    int n;
    pid_t first;
    char comm[32];
};

/* An MPI runtime's own daemon: Open MPI's singleton start (a program run
 * without mpirun calling MPI_Init) forks an orted that ends by itself about
 * 1.5 s after the program (measured here). It is the runtime's, not the
 * kernel's: a launch does not wait for it or fail for it; the next launch's
 * end reaps it, and qqbench waits for it before it exits. */
static int runtime_daemon(const char *comm)
{
    return !strcmp(comm, "orted") || !strcmp(comm, "prted") || !strcmp(comm, "prte") ||
           !strcmp(comm, "hydra_pmi_proxy");
}

/* qqbench's children that are still running, zombies reaped first (their
 * pids into PIDS, at most QQB_MAX_CHILDREN); SPARE leaves out the MPI
 * runtime's daemons. The first one's name goes into COMM. */
static size_t live_children(pid_t *pids, int spare, char *comm, size_t commlen)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
    size_t n = list_children(pids, QQB_MAX_CHILDREN), live = 0;
    for (size_t i = 0; i < n; i++) {
        char state, name[32];
        pid_t ppid;
        if (proc_stat(pids[i], &state, &ppid, name, sizeof name) != 0 || state == 'Z' ||
            state == 'X' || (spare && runtime_daemon(name)))
            continue;
        if (live == 0 && comm)
            put_str(comm, comm + commlen, name);
        pids[live++] = pids[i];
    }
    return live;
}

/* Give qqbench's children up to GRACE seconds to end by themselves; returns
 * 1 when none (but, with SPARE, the runtime's daemons) is left running. */
static int children_gone(double grace, int spare)
{
    static pid_t pids[QQB_MAX_CHILDREN];
    double t0 = qqb_now();
    long ms = 1;
    while (live_children(pids, spare, NULL, 0) > 0) {
        if (qqb_now() - t0 >= grace)
            return 0;
        sleep_ms(ms);
        if (ms < 20)
            ms *= 2;
    }
    return 1;
}

/* Kill (SIGKILL) and reap every child of qqbench, and the children they
 * leave, until none is left (or 5000 rounds pass: a process stuck in the
 * kernel); SPARE leaves the MPI runtime's daemons running. LO, if not NULL,
 * is told what was killed. */
static void kill_descendants(struct leftover *lo, int spare)
{
    static pid_t pids[QQB_MAX_CHILDREN], seen[QQB_MAX_CHILDREN];
    size_t nseen = 0;
    if (lo) {
        lo->n = 0;
        lo->first = 0;
        lo->comm[0] = '\0';
    }
    for (int round = 0; round < 5000; round++) {
        char comm[32] = "";
        size_t n = live_children(pids, spare, comm, sizeof comm);
        if (n == 0)
            return;
        for (size_t i = 0; i < n; i++) {
            size_t k;
            for (k = 0; k < nseen && seen[k] != pids[i]; k++)
                ;
            if (k == nseen && nseen < QQB_MAX_CHILDREN) {
                seen[nseen++] = pids[i];
                if (lo && lo->n++ == 0) {
                    lo->first = pids[i];
                    memcpy(lo->comm, comm, sizeof lo->comm);
                }
            }
            kill(pids[i], SIGKILL);
        }
        sleep_ms(1);
    }
}

/* At exit: the runtime's daemons of the last launches get their moment to
 * end, then nothing of the run is left. */
static void reap_at_exit(void)
{
    if (!children_gone(QQB_LEFTOVER_GRACE, 0))
        kill_descendants(NULL, 0);
}

/* Once per process: become the subreaper of whatever the launches start. */
static void become_subreaper(void)
{
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
    static int done;
    if (!done && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
        atexit(reap_at_exit);
    done = 1;
#endif
}

static void on_trap(int sig)
{
    int saved = errno;
    pid_t g = (pid_t)running;
    if (g > 0) {
        qqb_proc_stop_group(g);
        kill_descendants(NULL, 0);
    }
    if (trap_dir[0]) {
        empty_dir(trap_dir);
        rmdir(trap_dir);
    }
    /* End by the signal itself, so the shell and CI see 128+N. */
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    errno = saved;
    _exit(128 + sig);
}

int qqb_runner_trap_signals(const char *workdir)
{
    if (workdir && strlen(workdir) >= sizeof trap_dir)
        return -1;
    snprintf(trap_dir, sizeof trap_dir, "%s", workdir ? workdir : "");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_trap;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NTRAP; i++)
        sigaddset(&sa.sa_mask, trap_sigs[i]);
    for (size_t i = 0; i < NTRAP; i++)
        if (sigaction(trap_sigs[i], &sa, trap_on ? NULL : &trap_old[i]) != 0)
            return -1;
    trap_on = 1;
    return 0;
}

void qqb_runner_untrap_signals(void)
{
    if (!trap_on)
        return;
    for (size_t i = 0; i < NTRAP; i++)
        sigaction(trap_sigs[i], &trap_old[i], NULL);
    trap_on = 0;
    trap_dir[0] = '\0';
}

static void block_traps(int how, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NTRAP; i++)
        sigaddset(&set, trap_sigs[i]);
    sigprocmask(how, &set, old);
}

/* ---------------------------------------------------------------------
 * One launch.
 * --------------------------------------------------------------------- */

/* The launch's environment, in the child (qqb_proc's setup): where QQOut
 * writes, QQ_EVENTS, the key callgrind counts, and Open MPI's consent to
 * run as root. */
static void launch_env(void *arg)
{
    const struct qqb_launch *l = arg;
    if (l->out_path)
        setenv("QQ_OUTPUT", l->out_path, 1);
    if (l->events > 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)l->events);
        setenv("QQ_EVENTS", buf, 1);
    }
    if (l->callgrind_key)
        setenv("QQ_CALLGRIND_KEY", l->callgrind_key, 1);
    if (geteuid() == 0 && is_mpi_launcher(l->argv[0])) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
}

/* The kept tail goes to the launch's log, with a first line saying how
 * much came before it. */
static void write_log(const char *path, const struct tail *t, const char *kept, size_t n)
{
    if (!path)
        return;
    FILE *fp = fopen(path, "w");
    if (!fp)
        return;
    if (t->total > n)
        fprintf(fp, "[qqbench: the first %llu of %llu bytes of output were not kept]\n",
                (unsigned long long)(t->total - n), (unsigned long long)t->total);
    fwrite(kept, 1, n, fp);
    fclose(fp);
}

/* A failed launch's output, kept where the run's sweep of its work folder
 * (run<N>.log, run<N>.qq) does not reach: <log>.failed.log beside the
 * launch's log, so the folder stays with it; its path is added to R's
 * reason, which every report of the failure shows. A failure used to show
 * the output's last line alone, the log removed with the folder. */
static void keep_failed_log(const struct qqb_launch *l, struct qqb_launch_result *r,
                            const struct tail *t, const char *kept, size_t n)
{
    if (!l->log_path)
        return;
    char path[4200];
    size_t len = strlen(l->log_path);
    if (len > 4 && strcmp(l->log_path + len - 4, ".log") == 0)
        len -= 4;
    if (snprintf(path, sizeof path, "%.*s.failed.log", (int)len, l->log_path) >= (int)sizeof path)
        return;
    write_log(path, t, kept, n);
    size_t used = strlen(r->reason);
    /* A path too long for the reason is cut: the reason stays one line. */
    if (access(path, R_OK) == 0 && used < sizeof r->reason &&
        snprintf(r->reason + used, sizeof r->reason - used, " (its output: %s)", path) < 0)
        r->reason[used] = '\0';
}

/* Fork the launch L, its output into a pipe, in its own process group: 0
 * with the child's *PID, the pipe's read end *RFD (non-blocking) and the
 * start time *T0, or -1 with R's status and reason set. */
static int spawn(const struct qqb_launch *l, struct qqb_launch_result *r, pid_t *pid, int *rfd,
                 double *t0)
{
    int pfd[2] = {-1, -1};
    if (pipe(pfd) != 0) {
        r->status = QQB_LAUNCH_SPAWN;
        snprintf(r->reason, sizeof r->reason, "cannot start: %s", strerror(errno));
        return -1;
    }
    fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
    fcntl(pfd[0], F_SETFL, O_NONBLOCK);

    become_subreaper();
    *t0 = qqb_now();
    /* Signals wait until the group is known to the handler. In the child:
     * qqbench's handlers are not the program's, nor is SIGXFSZ ignored
     * (main.c); then the mask it had. Should qqbench die without cleaning
     * up (SIGKILL), the program gets SIGTERM (mpirun passes it on). */
    static const int dfl[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
    sigset_t mask;
    block_traps(SIG_BLOCK, &mask);
    struct qqb_proc p = {.argv = l->argv,
                         .setup = launch_env,
                         .arg = (void *)l,
                         .in = QQB_PROC_DEVNULL,
                         .out = pfd[1],
                         .err = pfd[1],
                         .dfl = dfl,
                         .ndfl = sizeof dfl / sizeof dfl[0],
                         .mask = &mask,
                         .pdeathsig = SIGTERM,
                         .say_exec_error = 1};
    *pid = qqb_proc_spawn(&p);
    int fork_errno = errno;
    if (*pid > 0)
        running = *pid;
    sigprocmask(SIG_SETMASK, &mask, NULL);
    close(pfd[1]);
    if (*pid < 0) {
        close(pfd[0]);
        r->status = QQB_LAUNCH_SPAWN;
        snprintf(r->reason, sizeof r->reason, "cannot fork: %s", strerror(fork_errno));
        return -1;
    }
    *rfd = pfd[0];
    return 0;
}

/* The pipe drained while the launch runs (qqb_proc_wait's idle): output
 * waited for up to MS, then read; closed and set to -1 at its end. */
struct drain_ctx {
    int *rfd;
    struct tail *t;
};

static void drain_idle(void *arg, long ms)
{
    struct drain_ctx *d = arg;
    if (*d->rfd < 0) {
        sleep_ms(ms);
        return;
    }
    struct pollfd pf = {*d->rfd, POLLIN, 0};
    if (poll(&pf, 1, (int)ms) > 0 && drain(*d->rfd, d->t)) {
        close(*d->rfd);
        *d->rfd = -1;
    }
}

/* Wait for PID (started at T0) up to L's timeout, draining the pipe *RFD
 * into T meanwhile (closed and set to -1 at its end); past the timeout the
 * group gets SIGTERM, then SIGKILL 2 s later. Its wait status into
 * *STATUS; returns 1 when it timed out, else 0. */
static int wait_child(const struct qqb_launch *l, pid_t pid, double t0, int *rfd, struct tail *t,
                      int *status)
{
    struct drain_ctx d = {rfd, t};
    struct qqb_proc_wait w = {
        .timeout = l->timeout - (qqb_now() - t0), .idle = drain_idle, .arg = &d};
    if (w.timeout <= 0)
        w.timeout = 1e-9; /* already past it */
    int rc = qqb_proc_wait(pid, &w, status);
    if (rc < 0)
        *status = 0;
    return rc == 1;
}

/* How the launch L ended (wait STATUS, TIMED_OUT, processes LO left
 * running, the last line LAST it wrote) as R's status and reason: 0 when
 * it succeeded, else -1. */
static int judge_end(const struct qqb_launch *l, struct qqb_launch_result *r, int status,
                     int timed_out, const struct leftover *lo, const char *last)
{
    const char *sep = last[0] ? ": " : "";
    if (timed_out) {
        r->status = QQB_LAUNCH_TIMEOUT;
        snprintf(r->reason, sizeof r->reason, "timed out after %.1f s (killed)%s%s", l->timeout,
                 sep, last);
        return -1;
    }
    if (WIFSIGNALED(status)) {
        r->status = QQB_LAUNCH_SIGNAL;
        r->code = WTERMSIG(status);
        snprintf(r->reason, sizeof r->reason, "crashed: killed by signal %d (%s)%s%s", r->code,
                 strsignal(r->code), sep, last);
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && is_mpi_launcher(l->argv[0])) {
        /* mpirun reports a rank killed by signal N as its own exit 128+N. */
        r->status = QQB_LAUNCH_SIGNAL;
        r->code = WEXITSTATUS(status) - 128;
        snprintf(r->reason, sizeof r->reason, "crashed: a rank was killed by signal %d (%s)%s%s",
                 r->code, strsignal(r->code), sep, last);
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        r->status = WEXITSTATUS(status) == 127 ? QQB_LAUNCH_SPAWN : QQB_LAUNCH_EXIT;
        r->code = WEXITSTATUS(status);
        snprintf(r->reason, sizeof r->reason, "exited with status %d%s%s", r->code, sep, last);
        return -1;
    }
    if (lo->n > 0) {
        r->status = QQB_LAUNCH_LEFTOVER;
        snprintf(r->reason, sizeof r->reason,
                 "exited 0 but left %d process%s running after it ended (pid %ld %s%s), "
                 "killed: a kernel must wait for what it starts",
                 lo->n, lo->n == 1 ? "" : "es", (long)lo->first, lo->comm,
                 lo->n > 1 ? ", ..." : "");
        return -1;
    }
    struct stat st;
    if (l->out_path && stat(l->out_path, &st) != 0) {
        r->status = QQB_LAUNCH_NOFILE;
        snprintf(r->reason, sizeof r->reason,
                 "exited 0 but wrote no QQ file: either it never calls QQOut, or QQ "
                 "was compiled out (built without -DQQ_ENABLE, which CMake's QQ::qq "
                 "and pkg-config qq add)%s%s",
                 sep, last);
        return -1;
    }
    return 0;
}

int qqb_launch_run(const struct qqb_launch *l, struct qqb_launch_result *r)
{
    memset(r, 0, sizeof *r);
    if (l->out_path)
        unlink(l->out_path);
    struct tail *t = calloc(1, sizeof *t);
    char *kept = malloc(QQB_TAIL);
    if (!t || !kept) {
        r->status = QQB_LAUNCH_SPAWN;
        snprintf(r->reason, sizeof r->reason, "cannot start: %s", "out of memory");
        free(t);
        free(kept);
        return -1;
    }
    double t0;
    pid_t pid;
    int rfd, status;
    if (spawn(l, r, &pid, &rfd, &t0)) {
        free(t);
        free(kept);
        return -1;
    }
    int timed_out = wait_child(l, pid, t0, &rfd, t, &status);
    /* What the program wrote before it ended (ranks that still hold the
     * pipe are not waited for). Whatever it left running goes too: in its
     * group, or escaped from it (setsid daemons, ranks of a launcher that
     * died), all now qqbench's children. */
    if (rfd >= 0) {
        drain(rfd, t);
        close(rfd);
    }
    /* What a launch that ended by itself leaves gets a moment to end too;
     * whatever is still running then fails the launch. */
    struct leftover lo = {0, 0, ""};
    if (timed_out || children_gone(QQB_LEFTOVER_GRACE, 1))
        kill_descendants(NULL, 1);
    else
        kill_descendants(&lo, 1);
    kill(-pid, SIGKILL);
    running = 0;
    r->seconds = qqb_now() - t0;

    size_t n = tail_get(t, kept);
    write_log(l->log_path, t, kept, n);
    char last[256];
    last_line(kept, n, last, sizeof last);
    int rc = judge_end(l, r, status, timed_out, &lo, last);
    if (rc != 0)
        keep_failed_log(l, r, t, kept, n);
    free(kept);
    free(t);
    return rc;
}

const char *qqb_default_kernel_dir(char *buf, size_t len)
{
    const char *env = getenv("QQBENCH_KERNELS");
    if (env && *env)
        return env;
    /* Next to the program: build/harness/qqbench -> build/kernels, or an
     * installed bin/qqbench -> libexec/qqbench/kernels. */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    snprintf(buf, len, "%.3900s/../kernels", exe);
    struct stat st;
    if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
        return buf;
    snprintf(buf, len, "%.3900s/../libexec/qqbench/kernels", exe);
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : NULL;
}
