/* kernel.c - a benchmark's kernel: found (a bare name in the kernel folder, or a path from the
 * suite's), checked, made absolute. */
/* realpath() is XSI; the build's _POSIX_C_SOURCE alone hides it. */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include "suite_int.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"

/* DIR/NAME, or NAME alone when DIR is "." or NULL. */
static char *join(const char *dir, const char *name)
{
    struct qqb_strbuf b = QQB_STRBUF_INIT;
    if (dir && strcmp(dir, ".") != 0) {
        qqb_strbuf_str(&b, dir);
        if (b.n && b.s[b.n - 1] != '/')
            qqb_strbuf_str(&b, "/");
    }
    qqb_strbuf_str(&b, name);
    return qqb_strbuf_take(&b);
}

char *qqb__suite_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return sdup(".");
    if (slash == path)
        return sdup("/");
    return dupn(path, (size_t)(slash - path));
}

/* An absolute PATH: its directory resolved by realpath, its last component
 * kept (a program may care under which name it runs). */
static char *absolute(const char *path)
{
    char *dir = qqb__suite_dir_of(path), *real = NULL, *out = NULL;
    const char *slash = strrchr(path, '/');
    if (dir && (real = realpath(dir, NULL)) != NULL)
        out = join(strcmp(real, "/") == 0 ? "/" : real, slash ? slash + 1 : path);
    free(real);
    free(dir);
    return out;
}

int qqb__suite_kernel(const char *k, const char *shown_dir, const char *kernel_dir, char **path,
                      char *why, size_t whylen)
{
    char *full, shown[1300];
    struct qqb_qbuf q, q2;
    struct qqb_qpath qp, qd;
    struct stat st;
    int rc = -1;

    *path = NULL;
    if (strchr(k, '/')) {
        full = k[0] == '/' ? sdup(k) : join(shown_dir, k);
    } else if (!kernel_dir) {
        snprintf(why, whylen,
                 "kernel '%s' is a bare name but no kernel directory is "
                 "known; write a path such as './%s' (or set --kernels DIR or $QQBENCH_KERNELS)",
                 qqb_qs(&q, k), qqb_qs(&q2, k));
        return -1;
    } else {
        full = join(kernel_dir, k);
    }
    if (!full) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (strcmp(full, k) == 0)
        snprintf(shown, sizeof shown, "'%s'", qqb_qs(&q, k));
    else
        snprintf(shown, sizeof shown, "'%s' (%s)", qqb_qs(&q, k), qqb_qp(&qp, full));
    if (stat(full, &st) != 0) {
        if ((errno == ENOENT || errno == ENOTDIR) && !strchr(k, '/'))
            /* A bare name: say where it was looked for and how to look elsewhere. */
            snprintf(why, whylen,
                     "kernel %s does not exist; expected an "
                     "executable program (bare names are looked up in %s: "
                     "set --kernels DIR or $QQBENCH_KERNELS)",
                     shown, qqb_qp(&qd, kernel_dir));
        else if (errno == ENOENT || errno == ENOTDIR)
            snprintf(why, whylen,
                     "kernel %s does not exist; expected an "
                     "executable program",
                     shown);
        else
            snprintf(why, whylen, "kernel %s cannot be accessed: %s", shown, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen,
                 "kernel %s is not a regular file; expected an "
                 "executable program",
                 shown);
    } else if (access(full, X_OK) != 0) {
        snprintf(why, whylen, "kernel %s is not executable", shown);
    } else if (!(*path = absolute(full))) {
        snprintf(why, whylen, "kernel %s: cannot resolve its directory: %s", shown,
                 strerror(errno));
    } else {
        rc = 0;
    }
    free(full);
    return rc;
}
