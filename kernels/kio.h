/* kio.h - what QQ's own benchmarks (qq_io, qq_merge, qq_overhead) share: wall time, a scratch path
 * beside the kernel's output, a plain write to compare QQOut with, recording the rounds' results.
 */
#ifndef KIO_H
#define KIO_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qq.h"
#include "kcommon.h"

/* Seconds of CLOCK_MONOTONIC: these intervals are milliseconds long, past
 * what one tick read is for, and include system calls. */
static inline double kio_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* BUF := the folder of $QQ_OUTPUT (where qqbench lets the kernel write)
 * or ".", then "/", then NAME. */
static inline void kio_scratch(char *buf, size_t len, const char *name)
{
    const char *out = getenv("QQ_OUTPUT");
    const char *slash = out ? strrchr(out, '/') : NULL;
    if (slash)
        snprintf(buf, len, "%.*s/%s", (int)(slash - out), out, name);
    else
        snprintf(buf, len, "./%s", name);
}

/* QQOut honours $QQ_OUTPUT before its argument: the timed writes must go
 * to the scratch name, the results to $QQ_OUTPUT. kio_hide_output takes
 * the variable away (kept in SAVED), kio_restore_output puts it back. */
static inline void kio_hide_output(char *saved, size_t len)
{
    const char *out = getenv("QQ_OUTPUT");
    snprintf(saved, len, "%s", out ? out : "");
    unsetenv("QQ_OUTPUT");
}

static inline void kio_restore_output(const char *saved)
{
    if (*saved)
        setenv("QQ_OUTPUT", saved, 1);
}

/* The plain reference: create PATH and write LEN bytes of BUF with write(2)
 * until done, as a program would that dumps an array. 0 or -1 (errno). */
static inline int kio_plain_write(const char *path, const void *buf, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return close(fd);
}

/* fsync of the file at PATH, apart from the write. 0 or -1. */
static inline int kio_fsync(const char *path)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    return close(fd) != 0 ? -1 : rc;
}

/* The --median option of QQ's benchmark kernels (a struct kopt), setting
 * the int VAR. */
#define KIO_MEDIAN_OPTION(var)                                                                     \
    {                                                                                              \
        "median", KOPT_FLAG, &(var), 0, "record each key's median over the rounds, not each round" \
    }

/* Record the ROUNDS results V of value KEY: one QQValue a round, or with
 * MEDIAN set only their median. qqbench sums a launch's values up by their
 * mean, which one preempted round of a loaded machine can move far; the
 * median it cannot. V is reordered. */
static inline void kio_record_rounds(int key, double *v, long rounds, int median)
{
    if (median) {
        QQValue(key, kmedian(v, (size_t)rounds));
        return;
    }
    for (long r = 0; r < rounds; r++)
        QQValue(key, v[r]);
}

#endif /* KIO_H */
