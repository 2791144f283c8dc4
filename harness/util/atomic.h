/* atomic.h - a file replaced whole or not at all: temporary beside it, fsync, rename, fsync the
 * folder.
 */
#ifndef QQB_ATOMIC_H
#define QQB_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/* Write LEN bytes of TEXT as PATH, an output a user named (qqbench run
 * --json and --junit, profile-machine --out): a regular file or a name not
 * taken is written into PATH.tmp.PID beside it, fsync'd, then renamed over
 * PATH and the folder fsync'd, so that PATH is always either its old file
 * or the complete new one. A device or a FIFO (/dev/null, a pipe) is
 * written as it is, never replaced (as root, the rename made /dev/null a
 * regular file for the whole machine). A symbolic link, a folder or a
 * socket is refused, as coreutils' install and rsync would: the link is
 * neither followed nor replaced (qqb_output_check). On failure (a full
 * disk, a file-size limit, a folder that refuses) the temporary is
 * removed, PATH is untouched, ERR says which step failed and why ("write
 * failed: File too large"; the caller names PATH), errno is kept, and the
 * result is -1. */
int qqb_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* What qqb_write_atomic does with PATH: 0 a regular file or a name not
 * taken (replaced whole), 1 a device or a FIFO (written in place), -1 a
 * symbolic link, a folder, a socket or a path that cannot be looked at,
 * with ERR ("it is a symbolic link, ..."; the caller names PATH) and
 * errno. A command checks its outputs with it before it starts. */
int qqb_output_check(const char *path, char *err, size_t errlen);

/* The same in two steps, so that two files are replaced both or neither:
 * prepare writes TEXT into PATH's temporary beside it, fsync'd (PATH
 * untouched); commit renames it over PATH and fsyncs the folder; abort
 * removes a prepared temporary. Each returns 0 or -1 with ERR and errno,
 * as qqb_write_atomic; a failed prepare leaves no temporary. */
struct qqb_atomic {
    char tmp[4096], path[4096];
    int ready; /* a temporary is prepared */
};
int qqb_atomic_prepare(struct qqb_atomic *a, const char *path, const char *text, size_t len,
                       char *err, size_t errlen);
int qqb_atomic_commit(struct qqb_atomic *a, char *err, size_t errlen);
void qqb_atomic_abort(struct qqb_atomic *a);

/* Open PATH for reading only if it is a regular file: a FIFO where a
 * baseline, a snapshot or a machine profile should be would hang the read
 * forever, a device would never end (the open itself does not wait: it is
 * non-blocking until the check). Returns the stream, or NULL with ERR
 * ("is a FIFO, not a regular file"; the caller names PATH) and errno. */
FILE *qqb_open_regular(const char *path, char *err, size_t errlen);

/* mkdir -p DIR (mode 0777 less the umask): each missing folder on the way
 * made. Returns 0, or -1 with errno kept and, when FAILED is not NULL, the
 * folder that could not be made in it (DIR itself when DIR is PATH_MAX
 * bytes or longer: ENAMETOOLONG). */
int qqb_mkdirs(const char *dir, char *failed, size_t failedlen);

#endif
