/* ci_exec.c - what qqbench ci runs and how: commands logged and stoppable, the build command's
 * placeholders, qqbench's install prefix (ci_exec.h). */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "ci_exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "strbuf.h"

/* The signal that stopped ci, 0 until one does. The command running is
 * stopped, and ci cleans up and ends by the same signal (it left cmake
 * running under init, the folder in TMPDIR and the worktree registered).
 * SIGPIPE too: 'qqbench ci ... | head' ended ci at its next write, by
 * SIGPIPE's default action, with the worktree and the folder left. */
static volatile sig_atomic_t ci_stop;
static const int ci_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NCISIG (sizeof ci_sigs / sizeof ci_sigs[0])
static struct sigaction ci_old[NCISIG];

static void on_ci_signal(int sig)
{
    ci_stop = sig;
}

void qqb_ci_trap(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_ci_signal; /* no SA_RESTART: waitpid returns EINTR */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCISIG; i++)
        sigaction(ci_sigs[i], on ? &sa : &ci_old[i], on ? &ci_old[i] : NULL);
}

int qqb_ci_stopped(void)
{
    return ci_stop;
}

int qqb_ci_unstop(void)
{
    int sig = ci_stop;
    ci_stop = 0;
    return sig;
}

/* 1 when the library folder LIB holds QQ's CMake package: then LIB into
 * LIBDIR (LEN bytes; a longer LIB is not taken). */
static int has_qq_package(const char *lib, char *libdir, size_t len)
{
    char path[PATH_MAX + 64];
    if (strlen(lib) >= len || strlen(lib) >= PATH_MAX)
        return 0;
    snprintf(path, sizeof path, "%.4096s/cmake/QQ/QQConfig.cmake", lib);
    if (access(path, R_OK) != 0)
        return 0;
    memcpy(libdir, lib, strlen(lib) + 1);
    return 1;
}

void qqb_ci_find_prefix(struct qqb_ci_env *env)
{
    char exe[PATH_MAX], lib[PATH_MAX + 16];
    env->prefix[0] = env->libdir[0] = '\0';
    if (!realpath("/proc/self/exe", exe))
        return;
    char *slash = strrchr(exe, '/'); /* PREFIX/bin/qqbench */
    if (!slash)
        return;
    *slash = '\0';
    if (!(slash = strrchr(exe, '/')) || strcmp(slash, "/bin") != 0)
        return;
    *slash = '\0';
    const char *prefix = exe[0] ? exe : "/";
    static const char *const libs[] = {"lib", "lib64"};
    int found = 0;
    for (size_t i = 0; i < 2 && !found; i++) {
        snprintf(lib, sizeof lib, "%s/%s", exe, libs[i]);
        found = has_qq_package(lib, env->libdir, sizeof env->libdir);
    }
    /* lib/x86_64-linux-gnu and the like (GNUInstallDirs under /usr). */
    snprintf(lib, sizeof lib, "%s/lib", exe);
    DIR *d = found ? NULL : opendir(lib);
    for (struct dirent *e; d && !found && (e = readdir(d)) != NULL;) {
        char sub[2 * PATH_MAX];
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%.4200s/%.255s", lib, e->d_name);
        found = has_qq_package(sub, env->libdir, sizeof env->libdir);
    }
    if (d)
        closedir(d);
    if (found)
        snprintf(env->prefix, sizeof env->prefix, "%s", prefix);
}

/* NAME=FIRST, or FIRST:OLD when NAME is set and not empty. */
static void env_first(const char *name, const char *first)
{
    const char *old = getenv(name);
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    qqb_strbuf_str(&b, first);
    if (old && *old)
        qqb_strbuf_printf(&b, ":%s", old);
    if (!qqb_strbuf_failed(&b))
        setenv(name, qqb_strbuf_str_of(&b), 1);
    qqb_strbuf_free(&b);
}

/* The child's environment (qqb_proc's setup): ENV's prefix first in
 * CMAKE_PREFIX_PATH, its pkgconfig folder first in PKG_CONFIG_PATH. */
static void prefix_env(void *arg)
{
    const struct qqb_ci_env *env = arg;
    char pc[4300];
    snprintf(pc, sizeof pc, "%s/pkgconfig", env->libdir);
    env_first("CMAKE_PREFIX_PATH", env->prefix);
    env_first("PKG_CONFIG_PATH", pc);
}

int qqb_ci_run(char *const argv[], const char *log, const char *cwd, const struct qqb_ci_env *env)
{
    if (ci_stop)
        return -1;
    int out = log ? open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : QQB_PROC_DEVNULL;
    if (out == -1)
        return 127; /* as a command that could not start */
    struct qqb_proc p = {.argv = argv,
                         .setup = env && env->prefix[0] ? prefix_env : NULL,
                         .arg = (void *)env,
                         .cwd = cwd,
                         .in = QQB_PROC_DEVNULL,
                         .out = out,
                         .err = out};
    pid_t pid = qqb_proc_spawn(&p);
    if (out >= 0)
        close(out);
    struct qqb_proc_wait w = {.stop = &ci_stop};
    int st;
    if (pid < 0 || qqb_proc_wait(pid, &w, &st) != 0)
        return -1;
    return qqb_proc_exit_code(st);
}

/* In qqb_ci_run_fn's child: the dispositions from before ci's trap, and a
 * signal caught between the fork and then raised again. */
static void untrap(void *arg)
{
    (void)arg;
    qqb_ci_trap(0);
    if (ci_stop)
        raise(ci_stop);
}

int qqb_ci_run_fn(int (*fn)(void *), void *arg)
{
    if (ci_stop)
        return -1;
    struct qqb_proc p = {.fn = fn,
                         .arg = arg,
                         .setup = untrap,
                         .in = QQB_PROC_KEEP,
                         .out = QQB_PROC_KEEP,
                         .err = QQB_PROC_KEEP,
                         .same_group = 1};
    pid_t pid = qqb_proc_spawn(&p);
    struct qqb_proc_wait w = {.stop = &ci_stop, .forward = 1};
    int st;
    if (pid < 0 || qqb_proc_wait(pid, &w, &st) != 0)
        return -1;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st)) {
        for (size_t i = 0; i < NCISIG; i++)
            if (WTERMSIG(st) == ci_sigs[i])
                ci_stop = ci_sigs[i];
    }
    return -1;
}

void qqb_ci_remove_tree(const char *dir)
{
    char *argv[] = {"rm", "-rf", "--", (char *)dir, NULL};
    qqb_ci_run(argv, NULL, NULL, NULL);
}

void qqb_ci_log_tail(const char *log, int n, FILE *fp)
{
    /* The end of the file is enough: 30 lines of a compiler's errors fit
     * in 64 KB; a longer line is shown by its end. */
    enum { TAIL = 64 * 1024 };
    FILE *in = fopen(log, "rb");
    if (!in)
        return;
    char *buf = malloc(TAIL + 1);
    size_t got = 0;
    if (buf && fseek(in, 0, SEEK_END) == 0) {
        long size = ftell(in);
        long from = size > TAIL ? size - TAIL : 0;
        if (size >= 0 && fseek(in, from, SEEK_SET) == 0)
            got = fread(buf, 1, TAIL, in);
    }
    fclose(in);
    if (!buf)
        return;
    while (got && buf[got - 1] == '\n')
        got--;
    size_t start = got;
    for (int lines = 0; start > 0; start--)
        if (buf[start - 1] == '\n' && ++lines == n)
            break;
    buf[got] = '\0';
    for (char *line = buf + start; got && line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        fprintf(fp, "  | %s\n", line);
        line = nl ? nl + 1 : NULL;
    }
    free(buf);
}

/* S quoted for /bin/sh: '...', each ' inside as '\''. */
static void sh_quote(struct qqb_strbuf *b, const char *s)
{
    qqb_strbuf_str(b, "'");
    for (; *s; s++) {
        if (*s == '\'')
            qqb_strbuf_str(b, "'\\''");
        else
            qqb_strbuf_add(b, s, 1);
    }
    qqb_strbuf_str(b, "'");
}

char *qqb_ci_expand(const char *cmd, const char *src, const char *out)
{
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    while (*cmd) {
        if (!strncmp(cmd, "{src}", 5) || !strncmp(cmd, "{out}", 5)) {
            sh_quote(&b, cmd[1] == 's' ? src : out);
            cmd += 5;
        } else {
            qqb_strbuf_add(&b, cmd++, 1);
        }
    }
    return qqb_strbuf_take(&b);
}
