/* git.c - the commit checked out in a git working tree, read from .git without running git. */
/* realpath() is XSI: the build's _POSIX_C_SOURCE alone hides it. */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git.h"

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
static int resolve_ref(const char *gitdir, const char *common, const char *ref,
                       char *hash, size_t len, int depth)
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
                return resolve_ref(gitdir, common, line + 5, hash, len,
                                   depth + 1);
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
    char dir[PATH_MAX], gitdir[PATH_MAX], common[PATH_MAX], p[PATH_MAX],
        line[PATH_MAX];
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
        else if (snprintf(gitdir, sizeof gitdir, "%s/%s", strcmp(dir, "/") ? dir : "",
                          line + 8) >= (int)sizeof gitdir)
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
        else if (snprintf(common, sizeof common, "%s/%s", gitdir, line) >=
                 (int)sizeof common)
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
