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

int qqb_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char tmp[PATH_MAX], dir[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return failed("cannot name its temporary file", NULL, err, errlen);
    }
    unlink(tmp); /* one left by a killed process of the same pid */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return failed("cannot create its temporary file", NULL, err, errlen);
    for (size_t off = 0; off < len;) {
        ssize_t k = write(fd, text + off, len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;
            int e = errno;
            close(fd);
            errno = e;
            return failed("write failed", tmp, err, errlen);
        }
        off += (size_t)k;
    }
    /* The data on disk before the rename makes it the file. */
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return failed("fsync failed", tmp, err, errlen);
    }
    if (close(fd) != 0)
        return failed("close failed", tmp, err, errlen);
    if (rename(tmp, path) != 0)
        return failed("cannot rename its temporary file into place", tmp, err, errlen);
    /* And the rename itself must survive a crash. */
    const char *slash = strrchr(path, '/');
    if (slash && (size_t)(slash - path) < sizeof dir) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
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
