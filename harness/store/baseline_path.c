/* baseline_path.c - where baselines live: plain names, paths, folders; the store's messages. */
#include "baseline_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "names.h"

int qqb__bl_ferr(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_vyerr(err, errlen, path, 0, 0, fmt, ap);
    va_end(ap);
    return -1;
}

/* qqb__bl_ferr for a refusal of the file system (full, read-only, ...): -2. */
int qqb__bl_fserr(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qqb_vyerr(err, errlen, path, 0, 0, fmt, ap);
    va_end(ap);
    return -2;
}

int qqb__bl_name_char(char ch)
{
    return qqb_name_plain_char((unsigned char)ch);
}

/* A label's character in its snapshot's file name (one rule, for writing
 * the path and for finding the label that leads to a file). */
char qqb__bl_label_file_char(char ch)
{
    return qqb__bl_name_char(ch) ? ch : '_';
}

/* A suite name or fingerprint id usable as one path component. */
int qqb__bl_plain_name(const char *s)
{
    if (!s || !*s || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    for (; *s; s++)
        if (!qqb__bl_name_char(*s))
            return 0;
    return 1;
}

int qqb_baseline_memory_path(const char *dir, const char *suite, char *out, size_t outlen)
{
    if (!out || outlen == 0 || !qqb__bl_plain_name(suite))
        return -1;
    int n = snprintf(out, outlen, "%s/%s.memory.yaml", dir ? dir : "baselines", suite);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int qqb_baseline_path(const char *dir, const char *suite, const struct qqb_fingerprint *fp,
                      const char *label, char *out, size_t outlen)
{
    char safe[MAX_LABEL + 1];
    int n;

    if (!out || outlen == 0 || !fp || !qqb__bl_plain_name(suite) || !qqb__bl_plain_name(fp->id))
        return -1;
    if (!dir || !*dir)
        dir = "baselines";
    if (!label) {
        n = snprintf(out, outlen, "%s/%s/%s.yaml", dir, fp->id, suite);
    } else {
        size_t len = strlen(label);
        if (len == 0 || len > MAX_LABEL)
            return -1;
        /* Only [A-Za-z0-9._-] survives, so no '/' can leave history/; the
         * '@' before it keeps "." and ".." from being whole names. */
        for (size_t i = 0; i <= len; i++)
            safe[i] = i == len ? '\0' : qqb__bl_label_file_char(label[i]);
        n = snprintf(out, outlen, "%s/%s/history/%s@%s.yaml", dir, fp->id, suite, safe);
    }
    if (n < 0 || (size_t)n >= outlen)
        return -1;
    return 0;
}

/* Split PATH into its directory ("." when none) and base name. */
int qqb__bl_split_path(const char *path, char *dir, size_t dirlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *base = path;
        return snprintf(dir, dirlen, ".") < (int)dirlen ? 0 : -1;
    }
    *base = slash + 1;
    size_t n = (size_t)(slash - path);
    if (n == 0)
        n = 1; /* "/x": the root */
    if (n >= dirlen)
        return -1;
    memcpy(dir, path, n);
    dir[n] = '\0';
    return 0;
}

/* mkdir -p DIR. */
int qqb__bl_make_dirs(const char *dir, char *err, size_t errlen)
{
    char failed[PATH_MAX];
    struct stat st;

    if (strlen(dir) >= sizeof failed)
        return qqb__bl_ferr(err, errlen, dir, "directory name too long");
    if (qqb_mkdirs(dir, failed, sizeof failed) != 0)
        return qqb__bl_ferr(err, errlen, failed, "cannot create directory: %s", strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return qqb__bl_ferr(err, errlen, dir, "not a directory");
    return 0;
}
