/* git.c - the commit checked out in a git working tree (read from .git without running git); where
 * a suite's baselines live (asking git). */
/* realpath() is XSI: the build's _POSIX_C_SOURCE alone hides it. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "git.h"
#include "proc.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ======================================================================
 * The git commit, without git.
 * ====================================================================== */

/* First line of FILE into BUF, without the newline. */
static int read_line(const char *file, char *buf, size_t len)
{
    FILE *f = fopen(file, "r");
    int ok;
    if (!f)
        return -1;
    ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 0;
}

static int is_hash(const char *s)
{
    size_t n = strlen(s);
    return (n == 40 || n == 64) && strspn(s, "0123456789abcdef") == n;
}

/* Resolve REF ("refs/heads/main") in GITDIR, then COMMON, then packed-refs. */
static int resolve_ref(const char *gitdir, const char *common, const char *ref, char *hash,
                       size_t len, int depth)
{
    char p[PATH_MAX], line[PATH_MAX + 100];
    const char *dirs[2] = {gitdir, common};

    if (depth > 5 || strncmp(ref, "refs/", 5) || strstr(ref, ".."))
        return -1;
    for (int i = 0; i < 2; i++) {
        if (snprintf(p, sizeof p, "%s/%s", dirs[i], ref) >= (int)sizeof p)
            return -1;
        if (read_line(p, line, sizeof line) == 0) {
            if (!strncmp(line, "ref: ", 5))
                return resolve_ref(gitdir, common, line + 5, hash, len, depth + 1);
            if (!is_hash(line) || strlen(line) >= len)
                return -1;
            memcpy(hash, line, strlen(line) + 1);
            return 0;
        }
    }
    if (snprintf(p, sizeof p, "%s/packed-refs", common) >= (int)sizeof p)
        return -1;
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        char *sp;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '^' || !(sp = strchr(line, ' ')))
            continue;
        *sp = '\0';
        if (!strcmp(sp + 1, ref) && is_hash(line) && strlen(line) < len) {
            memcpy(hash, line, strlen(line) + 1);
            rc = 0;
            break;
        }
    }
    fclose(f);
    return rc;
}

int qqb_git_commit(const char *repo_dir, char *out, size_t len)
{
    char dir[PATH_MAX], gitdir[PATH_MAX], common[PATH_MAX], p[PATH_MAX], line[PATH_MAX];
    struct stat st;

    if (!repo_dir || !out || len == 0 || !realpath(repo_dir, dir))
        return -1;
    /* The checkout holding REPO_DIR: the nearest parent with .git. */
    for (;;) {
        if (snprintf(gitdir, sizeof gitdir, "%s/.git", dir) >= (int)sizeof gitdir)
            return -1;
        if (stat(gitdir, &st) == 0)
            break;
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            if (strcmp(dir, "/") == 0)
                return -1;
            strcpy(dir, "/");
        } else {
            *slash = '\0';
        }
    }
    if (S_ISREG(st.st_mode)) {
        /* Worktrees and submodules: ".git" holds "gitdir: PATH". */
        if (read_line(gitdir, line, sizeof line) || strncmp(line, "gitdir: ", 8))
            return -1;
        if (line[8] == '/')
            snprintf(gitdir, sizeof gitdir, "%s", line + 8);
        else if (snprintf(gitdir, sizeof gitdir, "%s/%s", strcmp(dir, "/") ? dir : "", line + 8) >=
                 (int)sizeof gitdir)
            return -1;
    } else if (!S_ISDIR(st.st_mode)) {
        return -1;
    }
    /* A linked worktree keeps its branches in the main repository. */
    snprintf(common, sizeof common, "%s", gitdir);
    if (snprintf(p, sizeof p, "%s/commondir", gitdir) < (int)sizeof p &&
        read_line(p, line, sizeof line) == 0) {
        if (line[0] == '/')
            snprintf(common, sizeof common, "%s", line);
        else if (snprintf(common, sizeof common, "%s/%s", gitdir, line) >= (int)sizeof common)
            return -1;
    }
    if (snprintf(p, sizeof p, "%s/HEAD", gitdir) >= (int)sizeof p ||
        read_line(p, line, sizeof line))
        return -1;
    if (!strncmp(line, "ref: ", 5))
        return resolve_ref(gitdir, common, line + 5, out, len, 0);
    if (!is_hash(line) || strlen(line) >= len)
        return -1;
    memcpy(out, line, strlen(line) + 1);
    return 0;
}

/* Run `git -C DIR ARGS...` (qqb_git_line): its exit status, or -1 when it
 * could not run or died by a signal. */
static int run_git(const char *dir, const char *const *args, char *buf, size_t len)
{
    char *argv[8];
    size_t n = 0;
    argv[n++] = "git";
    argv[n++] = "-C";
    argv[n++] = (char *)dir;
    for (size_t i = 0; args[i] && n < 7; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    struct qqb_proc p = {.argv = argv,
                         .in = QQB_PROC_DEVNULL,
                         .out = fd[1],
                         .err = QQB_PROC_DEVNULL,
                         .same_group = 1};
    pid_t pid = qqb_proc_spawn(&p);
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    close(fd[1]);
    char tmp[PATH_MAX];
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd[0], tmp + got, sizeof tmp - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
        if (got == sizeof tmp - 1)
            break;
    }
    close(fd[0]);
    tmp[got] = '\0';
    tmp[strcspn(tmp, "\n")] = '\0';
    int st;
    if (qqb_proc_wait(pid, NULL, &st) != 0)
        return -1;
    if (buf && len)
        snprintf(buf, len, "%s", tmp);
    return qqb_proc_exit_code(st);
}

int qqb_git_line(const char *dir, const char *const *args, char *buf, size_t len, int *status)
{
    int code = run_git(dir, args, buf, len);
    if (status)
        *status = code;
    return code == 0 ? 0 : -1;
}

int qqb_git_baselines_dir(const char *suite_dir, char *out, size_t len)
{
    char top[PATH_MAX];
    const char *root = suite_dir;
    static const char *const toplevel[] = {"rev-parse", "--show-toplevel", NULL};
    static const char *const ignored[] = {"check-ignore", "-q", ".", NULL};
    int status = -1;
    if (qqb_git_line(suite_dir, toplevel, top, sizeof top, NULL) == 0 && top[0] == '/' &&
        qqb_git_line(suite_dir, ignored, NULL, 0, &status) != 0 && status == 1)
        root = top; /* in a checkout, and not an ignored (build) folder */
    int n = snprintf(out, len, "%s/baselines", strcmp(root, "/") ? root : "");
    return n < 0 || (size_t)n >= len ? -1 : 0;
}
