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

int qqb_ci_run(char *const argv[], const char *log, const char *cwd, const struct qqb_ci_env *env)
{
    if (ci_stop)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out =
            log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644) : open("/dev/null", O_WRONLY);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
            _exit(127);
        if (cwd && chdir(cwd) != 0)
            _exit(127);
        if (env && env->prefix[0]) {
            char pc[4300];
            snprintf(pc, sizeof pc, "%s/pkgconfig", env->libdir);
            env_first("CMAKE_PREFIX_PATH", env->prefix);
            env_first("PKG_CONFIG_PATH", pc);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* both sides: whichever runs first */
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
        if (ci_stop) {
            qqb_proc_stop_group(pid);
            return -1;
        }
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int qqb_ci_run_fn(int (*fn)(void *), void *arg)
{
    if (ci_stop)
        return -1;
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        qqb_ci_trap(0);
        if (ci_stop) /* caught between the fork and the line above */
            raise(ci_stop);
        int rc = fn(arg);
        exit(rc < 0 || rc > 255 ? 255 : rc); /* atexit's handlers and stdio's buffers */
    }
    int st, passed = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
        if (ci_stop && !passed) {
            kill(pid, ci_stop);
            passed = 1;
        }
    }
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
