/* export.c - qqbench export: the exporters' table, and the output: standard output, or a file
 * replaced whole or not at all. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "export.h"

/*
 * F a regular file, or a name not yet taken, is written into a temporary
 * beside it (util/atomic.h) and renamed over it once the export is
 * complete: a damaged entry met halfway, a full disk or an interrupt leaves
 * F as it was, never a partial export. A symbolic link is followed to its
 * file. A device or a FIFO (/dev/null, a pipe) is written in place: there
 * is nothing to replace.
 */
struct output {
    FILE *fp;
    const char *name; /* for messages */
    int atomic;       /* fp writes A's temporary */
    struct qqb_atomic a;
};

static int output_open(struct output *o, const char *out, char *err, size_t errsz)
{
    memset(o, 0, sizeof *o);
    if (!out || !strcmp(out, "-")) {
        o->fp = stdout;
        o->name = "standard output";
        return 0;
    }
    o->name = out;
    char resolved[PATH_MAX];
    const char *target = out;
    struct stat st;
    if (lstat(out, &st) != 0) {
        o->atomic = errno == ENOENT;
    } else if (S_ISREG(st.st_mode)) {
        o->atomic = 1;
    } else if (S_ISLNK(st.st_mode) && realpath(out, resolved) && stat(resolved, &st) == 0 &&
               S_ISREG(st.st_mode)) {
        o->atomic = 1;
        target = resolved;
    }
    char why[512];
    if (o->atomic && qqb_atomic_prepare(&o->a, target, "", 0, why, sizeof why) != 0) {
        snprintf(err, errsz, "cannot write %s: %s", out, strerror(errno));
        return -1;
    }
    o->fp = fopen(o->atomic ? o->a.tmp : out, "w");
    if (!o->fp) {
        int e = errno;
        qqb_atomic_abort(&o->a);
        snprintf(err, errsz, "cannot write %s: %s", out, strerror(e));
        return -1;
    }
    return 0;
}

/* Flush and close the output; a temporary is renamed over F, or removed when
 * the export FAILED. Returns 0, or -1 with ERR when a write failed (a full
 * device). */
static int output_close(struct output *o, int failed, char *err, size_t errsz)
{
    if (!o->fp)
        return 0;
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    if (!bad && !failed && o->atomic && fsync(fileno(o->fp)) != 0)
        bad = 1;
    int e = errno ? errno : EIO;
    if (o->fp != stdout && fclose(o->fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->fp = NULL;
    char why[512];
    if (failed || bad)
        qqb_atomic_abort(&o->a);
    else if (o->atomic && qqb_atomic_commit(&o->a, why, sizeof why) != 0) {
        snprintf(err, errsz, "cannot write %s: %s", o->name, why);
        return -1;
    }
    if (bad && !failed) {
        snprintf(err, errsz, "cannot write %s: %s", o->name, strerror(e));
        return -1;
    }
    return 0;
}

const struct qqb_exporter qqb_exporters[] = {
    {"chrome", qqb_export_chrome},
    {"csv", qqb_export_csv},
    {NULL, NULL},
};

int qqb_export(const struct qqb_export_opts *o, char *err, size_t errsz)
{
    const struct qqb_exporter *x = qqb_exporters;
    while (x->name && strcmp(x->name, o->format))
        x++;
    if (!x->name) {
        snprintf(err, errsz, "--format '%s': no such exporter", o->format);
        return -1;
    }
    struct qqb_trace t;
    struct output out = {0};
    int rc = -1;
    if (qqb_trace_open(&t, o->file, err, errsz) != 0 ||
        (o->nodes && qqb_trace_select_nodes(&t, o->nodes, err, errsz) != 0) ||
        (o->keys && qqb_trace_select_keys(&t, o->keys, err, errsz) != 0) ||
        output_open(&out, o->out, err, errsz) != 0)
        goto done;
    /* A damaged entry met on the way is the file's error (bad input, as
     * when the file was checked whole before writing); a write that failed
     * (a full device) is said as such, -2 (the results were not stored);
     * an exporter's own failures are memory or a name its format cannot
     * hold. */
    errno = 0;
    int xr = x->write(&t, out.fp, err, errsz);
    if (xr == 1)
        snprintf(err, errsz, "%s", qq_file_errmsg(t.f));
    if (xr == 1 || (xr != 0 && !ferror(out.fp))) {
        output_close(&out, 1, err, errsz);
        goto done;
    }
    if (output_close(&out, 0, err, errsz) != 0) {
        rc = -2;
        goto done;
    }
    rc = 0;
done:
    output_close(&out, 1, err, errsz);
    qqb_trace_close(&t);
    return rc;
}
