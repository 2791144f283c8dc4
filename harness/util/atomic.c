/* atomic.c - a file replaced whole or not at all (atomic.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"

static int failed(const char *what, const char *tmp, char *err, size_t errlen)
{
    int e = errno;
    if (tmp)
        unlink(tmp);
    snprintf(err, errlen, "%s: %s", what, strerror(e));
    errno = e;
    return -1;
}

/* LEN bytes of TEXT to FD, whatever the writes take; 0, or -1 with errno. */
static int write_all(int fd, const char *text, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t k = write(fd, text + off, len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;
            return -1;
        }
        off += (size_t)k;
    }
    return 0;
}

/* A device or a FIFO, which is written, not replaced. */
static int is_stream(mode_t m)
{
    return S_ISCHR(m) || S_ISBLK(m) || S_ISFIFO(m);
}

int qqb_output_check(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        return failed("cannot look at it", NULL, err, errlen);
    }
    if (S_ISREG(st.st_mode))
        return 0;
    if (is_stream(st.st_mode))
        return 1;
    snprintf(err, errlen, "%s",
             S_ISLNK(st.st_mode)
                 ? "it is a symbolic link, which is neither followed nor replaced (name the file "
                   "it points at)"
             : S_ISDIR(st.st_mode) ? "it is a folder, not a file"
                                   : "it is a socket or another special file, not a regular file, "
                                     "a device or a FIFO");
    errno = S_ISLNK(st.st_mode) ? ELOOP : S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return -1;
}

/* TEXT written into the device or FIFO PATH as it is: no temporary, no
 * rename, nothing created or truncated; a FIFO waits for its reader. */
static int write_in_place(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return failed("cannot open it", NULL, err, errlen);
    struct stat st;
    if (fstat(fd, &st) != 0 || !is_stream(st.st_mode)) {
        int e = fstat(fd, &st) != 0 ? errno : EINVAL;
        close(fd);
        errno = e;
        return failed("it changed while it was opened", NULL, err, errlen);
    }
    if (write_all(fd, text, len) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return failed("write failed", NULL, err, errlen);
    }
    if (close(fd) != 0)
        return failed("close failed", NULL, err, errlen);
    return 0;
}

int qqb_atomic_prepare(struct qqb_atomic *a, const char *path, const char *text, size_t len,
                       char *err, size_t errlen)
{
    a->ready = 0;
    if (snprintf(a->path, sizeof a->path, "%s", path) >= (int)sizeof a->path ||
        snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof a->tmp) {
        errno = ENAMETOOLONG;
        return failed("cannot name its temporary file", NULL, err, errlen);
    }
    unlink(a->tmp); /* one left by a killed process of the same pid */
    int fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return failed("cannot create its temporary file", NULL, err, errlen);
    if (write_all(fd, text, len) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return failed("write failed", a->tmp, err, errlen);
    }
    /* The data on disk before the rename makes it the file. */
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return failed("fsync failed", a->tmp, err, errlen);
    }
    if (close(fd) != 0)
        return failed("close failed", a->tmp, err, errlen);
    a->ready = 1;
    return 0;
}

int qqb_atomic_commit(struct qqb_atomic *a, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    if (!a->ready) {
        errno = EINVAL;
        return failed("nothing prepared", NULL, err, errlen);
    }
    a->ready = 0;
    if (rename(a->tmp, a->path) != 0)
        return failed("cannot rename its temporary file into place", a->tmp, err, errlen);
    /* And the rename itself must survive a crash. */
    const char *slash = strrchr(a->path, '/');
    if (slash && (size_t)(slash - a->path) < sizeof dir) {
        memcpy(dir, a->path, (size_t)(slash - a->path));
        dir[slash - a->path] = '\0';
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    int dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        if (fsync(dfd) != 0 && errno != EINVAL) {
            int e = errno;
            close(dfd);
            errno = e;
            return failed("fsync of its folder failed", NULL, err, errlen);
        }
        close(dfd);
    }
    return 0;
}

void qqb_atomic_abort(struct qqb_atomic *a)
{
    if (a->ready)
        unlink(a->tmp);
    a->ready = 0;
}

int qqb_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    int kind = qqb_output_check(path, err, errlen);
    if (kind < 0)
        return -1;
    if (kind > 0)
        return write_in_place(path, text, len, err, errlen);
    struct qqb_atomic a;
    if (qqb_atomic_prepare(&a, path, text, len, err, errlen) != 0)
        return -1;
    return qqb_atomic_commit(&a, err, errlen);
}

FILE *qqb_open_regular(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fstat(fd, &st) != 0 ? errno : EINVAL;
        snprintf(err, errlen, "%s",
                 e != EINVAL            ? strerror(e)
                 : S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file"
                 : S_ISDIR(st.st_mode)  ? "is a folder, not a regular file"
                 : S_ISCHR(st.st_mode)  ? "is a device, not a regular file"
                                        : "is not a regular file");
        close(fd);
        errno = e;
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s", strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

/* DIR into FAILED for qqb_mkdirs' caller, errno kept; -1. */
static int mkdirs_failed(const char *dir, char *failed, size_t failedlen)
{
    int e = errno;
    if (failed && failedlen)
        snprintf(failed, failedlen, "%s", dir);
    errno = e;
    return -1;
}

int qqb_mkdirs(const char *dir, char *failed, size_t failedlen)
{
    char buf[PATH_MAX];
    size_t len = strlen(dir);

    if (len >= sizeof buf) {
        errno = ENAMETOOLONG;
        return mkdirs_failed(dir, failed, failedlen);
    }
    if (len == 0)
        return 0;
    memcpy(buf, dir, len + 1);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char keep = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return mkdirs_failed(buf, failed, failedlen);
            *p = keep;
            if (keep == '\0')
                break;
        }
    }
    return 0;
}
