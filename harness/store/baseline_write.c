/* baseline_write.c - baselines written atomically under a lock: write, update (read-merge-write),
 * both.
 */
/* flock() is BSD, not POSIX: the build's _POSIX_C_SOURCE alone hides it. */
#define _GNU_SOURCE

#include "atomic.h"
#include "baseline_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define MAX_LABEL         128
/* Baselines hold raw samples, but not this many: a bound on what is read. */
#define MAX_BASELINE_SIZE ((size_t)256 << 20)

static double lock_timeout = QQB_BASELINE_LOCK_SECONDS;

void qqb_baseline_set_lock_timeout(double seconds)
{
    if (seconds > 0 && isfinite(seconds))
        lock_timeout = seconds;
}

/* Take the exclusive lock PATH.lock (its name into LP, PATH_MAX bytes);
 * returns its descriptor or -1. The holder removes the lock file before it
 * unlocks (drop_lock), so none is left beside the baseline (git add -A
 * committed them); a waiter that then gets the lock of a file no longer
 * at LP opens LP again, so a waiter and a newcomer never hold two
 * different files. The lock dies with the process holding it. */
static int take_lock(const char *path, char *lp, char *err, size_t errlen)
{
    double deadline = qqb_now() + lock_timeout;

    if (snprintf(lp, PATH_MAX, "%s.lock", path) >= PATH_MAX)
        return qqb__bl_ferr(err, errlen, path, "path too long");
    for (;;) {
        /* O_NOFOLLOW: a symbolic link here (dangling or not) would make us
         * create or lock a file somewhere else. */
        int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0)
            return qqb__bl_ferr(err, errlen, lp, "cannot open the lock file: %s",
                                errno == ELOOP ? "it is a symbolic link (not followed)"
                                               : strerror(errno));
        for (;;) {
            if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
                struct stat held, named;
                if (fstat(fd, &held) == 0 && lstat(lp, &named) == 0 &&
                    held.st_dev == named.st_dev && held.st_ino == named.st_ino)
                    return fd;
                break; /* the file was removed by the holder before us: again */
            }
            if (errno == EINTR)
                continue;
            if (errno != EWOULDBLOCK) {
                int e = errno;
                close(fd);
                return qqb__bl_ferr(err, errlen, lp, "cannot lock: %s", strerror(e));
            }
            if (qqb_now() >= deadline) {
                close(fd);
                return qqb__bl_ferr(err, errlen, path,
                                    "another writer has held the lock %s for %.0f s; giving "
                                    "up (is another qqbench still running?)",
                                    lp, lock_timeout);
            }
            struct timespec ts = {0, 20L * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        close(fd);
    }
}

/* The lock file LP removed, then the lock FD dropped. */
static void drop_lock(int fd, const char *lp)
{
    unlink(lp);
    flock(fd, LOCK_UN);
    close(fd);
}

/* Under the lock, any BASE.tmp.<pid> left in DIR is from a writer that died
 * (a live one would hold the lock): remove it. */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t blen = strlen(base);

    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        const char *s = de->d_name;
        char full[PATH_MAX];
        if (strncmp(s, base, blen) != 0 || strncmp(s + blen, ".tmp.", 5) != 0)
            continue;
        s += blen + 5;
        if (!*s || strspn(s, "0123456789") != strlen(s))
            continue;
        if (snprintf(full, sizeof full, "%s/%s", dir, de->d_name) < (int)sizeof full)
            unlink(full);
    }
    closedir(d);
}

/* The locked part of a write: the document made in memory and written to
 * a temporary beside PATH, fsync'd (atomic.h); PATH itself is untouched
 * until the commit. Returns 0, -1 (R cannot be written: a string that is
 * not UTF-8, or out of memory), or -2 (the file system refused). */
static int prepare_locked(struct qqb_atomic *a, const char *path, const char *dir, const char *base,
                          const struct qqb_results *r, char *err, size_t errlen)
{
    char why[512];
    char *text;
    size_t len;

    remove_stale(dir, base);
    if (qqb__bl_text(path, r, &text, &len, err, errlen))
        return -1;
    int rc = qqb_atomic_prepare(a, path, text, len, why, sizeof why);
    free(text);
    return rc != 0 ? qqb__bl_fserr(err, errlen, path, "%s", why) : 0;
}

/* One baseline being stored: its lock held, its new text prepared. */
struct staged {
    int lock;
    char lockpath[PATH_MAX];
    struct qqb_atomic a;
};

/* Validate, mkdir -p, lock; then prepare R (or, MERGE, what is stored
 * merged with R). 0 with the lock held and the text prepared; -1 or -2
 * (as store's) with neither. */
static int stage(struct staged *st, const char *path, const struct qqb_results *r, int merge,
                 size_t keep_runs, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    const char *base;
    int rc;

    st->lock = -1;
    st->a.ready = 0;
    if (!path || !*path || !r)
        return qqb__bl_ferr(err, errlen, path ? path : "(null)", "no path or results");
    if (qqb__bl_split_path(path, dir, sizeof dir, &base) || !*base)
        return qqb__bl_ferr(err, errlen, path, "not a file name");
    if (qqb__bl_check_results(path, r, err, errlen))
        return -1;
    /* From here a failure is the file system's (full, read-only, not a
     * folder, locked by another writer too long): -2. */
    if (qqb__bl_make_dirs(dir, err, errlen))
        return -2;
    st->lock = take_lock(path, st->lockpath, err, errlen);
    if (st->lock < 0)
        return -2;
    if (merge && access(path, F_OK) == 0) {
        struct qqb_results old;
        rc = qqb_baseline_read_as(path, r->suite, r->fp.id[0] ? r->fp.id : NULL, &old, err, errlen);
        if (rc == 0) {
            if (qqb_baseline_merge(&old, r, keep_runs) != 0)
                rc = qqb__bl_ferr(err, errlen, path,
                                  "cannot merge: the stored baseline is for another "
                                  "suite or machine (or out of memory)");
            else
                rc = prepare_locked(&st->a, path, dir, base, &old, err, errlen);
        }
        qqb_results_free(&old);
    } else {
        rc = prepare_locked(&st->a, path, dir, base, r, err, errlen);
    }
    if (rc != 0) {
        drop_lock(st->lock, st->lockpath);
        st->lock = -1;
    }
    return rc;
}

static void unstage(struct staged *st)
{
    qqb_atomic_abort(&st->a);
    if (st->lock >= 0)
        drop_lock(st->lock, st->lockpath);
    st->lock = -1;
}

/* The prepared text renamed into place, the lock dropped. 0 or -2. */
static int commit_staged(struct staged *st, const char *path, char *err, size_t errlen)
{
    char why[512];
    int rc = qqb_atomic_commit(&st->a, why, sizeof why);
    unstage(st);
    return rc != 0 ? qqb__bl_fserr(err, errlen, path, "%s", why) : 0;
}

static int store(const char *path, const struct qqb_results *r, int merge, size_t keep_runs,
                 char *err, size_t errlen)
{
    struct staged st;
    int rc = stage(&st, path, r, merge, keep_runs, err, errlen);
    return rc != 0 ? rc : commit_staged(&st, path, err, errlen);
}

int qqb_baseline_update_both(const char *p1, const struct qqb_results *r1, size_t keep1,
                             const char *p2, const struct qqb_results *r2, size_t keep2, char *err,
                             size_t errlen)
{
    /* Locks in one order (by path), so two runs storing the same pair
     * cannot each hold one and wait for the other. */
    int swap = p1 && p2 && strcmp(p1, p2) > 0;
    const char *pa = swap ? p2 : p1, *pb = swap ? p1 : p2;
    const struct qqb_results *ra = swap ? r2 : r1, *rb = swap ? r1 : r2;
    size_t ka = swap ? keep2 : keep1, kb = swap ? keep1 : keep2;
    struct staged sa, sb;
    int rc = stage(&sa, pa, ra, 1, ka, err, errlen);
    if (rc != 0)
        return rc;
    rc = stage(&sb, pb, rb, 1, kb, err, errlen);
    if (rc != 0) {
        unstage(&sa);
        return rc;
    }
    /* Both prepared: the renames are what is left, in one folder's file
     * system each; a rename that fails after the first is said. */
    rc = commit_staged(&sa, pa, err, errlen);
    if (rc != 0) {
        unstage(&sb);
        return rc;
    }
    rc = commit_staged(&sb, pb, err, errlen);
    return rc;
}

int qqb_baseline_write(const char *path, const struct qqb_results *r, char *err, size_t errlen)
{
    return store(path, r, 0, 1, err, errlen);
}

int qqb_baseline_update(const char *path, const struct qqb_results *cur, size_t keep_runs,
                        char *err, size_t errlen)
{
    return store(path, cur, 1, keep_runs, err, errlen);
}
