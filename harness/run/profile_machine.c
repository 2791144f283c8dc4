/* profile_machine.c - qqbench profile-machine: measure this machine (measure/machine.c), write
 * profile.yaml (store/profile.c) beside the baselines or to --out, and draw it with --plot. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "fingerprint.h"
#include "git.h"
#include "machine.h"
#include "pictures_model.h"
#include "pipeline.h"
#include "profile.h"
#include "profile_machine.h"

/* Where the profile goes: --out, else BASELINES/ID/profile.yaml (into
 * BUF). Checked first: an unwritable place fails before a minute of
 * measuring; only the default place (a new machine's folder) is made.
 * 0, or -1 with the error printed. */
static int out_path(struct qqb_profile_machine_opts *o, char *buf, size_t len)
{
    char bbuf[4096];
    if (!o->out) {
        struct qqb_fingerprint fpr;
        qqb_fingerprint_this(&fpr);
        const char *bdir = o->bdir;
        if (!bdir) {
            if (qqb_git_baselines_dir(".", bbuf, sizeof bbuf) != 0) {
                fprintf(stderr, "qqbench profile-machine: error: the current folder's path is "
                                "too long\n");
                return -1;
            }
            bdir = bbuf;
        }
        if (qqb_profile_path(bdir, fpr.id, buf, len) != 0) {
            fprintf(stderr, "qqbench profile-machine: error: %s: path too long\n", bdir);
            return -1;
        }
        o->out = buf;
        return 0;
    }
    char odir[4200];
    snprintf(odir, sizeof odir, "%s", o->out);
    char *oslash = strrchr(odir, '/');
    if (oslash)
        oslash[oslash == odir ? 1 : 0] = '\0';
    const char *od = oslash ? odir : ".";
    if (strcmp(o->out, "-") && access(od, W_OK) != 0) {
        fprintf(stderr, "qqbench profile-machine: error: cannot write %s: %s\n", o->out,
                strerror(errno));
        return -1;
    }
    char why[256];
    if (strcmp(o->out, "-") && qqb_output_check(o->out, why, sizeof why) < 0) {
        fprintf(stderr, "qqbench profile-machine: error: cannot write %s: %s\n", o->out, why);
        return -1;
    }
    return 0;
}

/* The ping-pong helper next to this qqbench (into BUF), else by name. */
static const char *default_helper(char *buf, size_t len)
{
    ssize_t k = readlink("/proc/self/exe", buf, len - 32);
    if (k <= 0)
        return "qqb_pingpong";
    buf[k] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash)
        snprintf(slash + 1, len - (size_t)(slash + 1 - buf), "%s", "qqb_pingpong");
    return buf;
}

/* TEXT (LEN bytes; CLOSED 0 when its memory stream failed) to --out (or
 * stdout), then the pictures with --plot. 0, or -1 with the error
 * printed. */
static int store(const struct qqb_profile_machine_opts *o, int closed, const char *text, size_t len)
{
    char err[1024];
    int wrc = closed ? 0 : -1;
    if (wrc == 0 && !strcmp(o->out, "-"))
        wrc = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : -1;
    else if (wrc == 0)
        wrc = qqb_profile_store(o->out, text, len, err, sizeof err);
    else
        snprintf(err, sizeof err, "qqbench profile-machine: error: out of memory");
    if (wrc != 0) {
        fprintf(stderr, "%s\n",
                strcmp(o->out, "-") ? err
                                    : "qqbench profile-machine: error: "
                                      "cannot write to stdout");
        return -1;
    }
    if (o->plot) {
        struct qqb_profile prof;
        char stems[2][64];
        size_t nst;
        if (qqb_profile_parse(o->out, text, len, &prof, err, sizeof err) != 0 ||
            qqb_profile_plot(&prof, o->plot, "profile", 0, stems, &nst, err, sizeof err) != 0) {
            fprintf(stderr, "qqbench profile-machine: error: --plot %s: %s\n", o->plot, err);
            return -1;
        }
        fprintf(stderr, "qqbench profile-machine: pictures: %s/%s.svg%s%s%s\n", o->plot, stems[0],
                nst > 1 ? ", " : "", nst > 1 ? stems[1] : "", nst > 1 ? ".svg" : "");
    }
    return 0;
}

/* --plan: what the measuring would do on this machine's caches, counted,
 * and the seconds it takes at most at machine.c's worst prices. */
static int print_plan(const struct qqb_profile_machine_opts *o)
{
    struct qqb_machine m = {0};
    qqb_machine_caches(&m);
    struct qqb_machine_plan p;
    qqb_machine_plan(&m, o->quick, o->mpi, &p);
    printf("caches: l1d %ld, l2 %ld, l3 %ld bytes\n"
           "dependent loads: %.0f in caches, %.0f in memory\n"
           "independent loads: %.0f in caches, %.0f in memory\n"
           "bytes summed: %.0f, written: %.0f\n"
           "arithmetic ops: %.0f, counter reads: %.0f\n"
           "MPI round trips: %.0f, bytes: %.0f\n"
           "bound: %.2f s at the worst prices of machine.c\n",
           m.l1, m.l2, m.l3, p.chase_loads, p.chase_mem_loads, p.stream_loads, p.stream_mem_loads,
           p.sum_bytes, p.write_bytes, p.ops, p.reads, p.mpi_trips, p.mpi_bytes, p.bound_s);
    return QQB_EXIT_OK;
}

int qqb_profile_machine(const struct qqb_profile_machine_opts *given)
{
    /* A copy: the defaults (the output path, the helper) are filled in. */
    struct qqb_profile_machine_opts copy = *given, *o = &copy;
    char outbuf[4200], helper_buf[PATH_MAX];
    if (o->plan)
        return print_plan(o);
    if (out_path(o, outbuf, sizeof outbuf) != 0)
        return QQB_EXIT_USAGE;
    char *text = NULL;
    size_t textlen = 0;
    FILE *fp = open_memstream(&text, &textlen);
    if (!fp) {
        fprintf(stderr, "qqbench profile-machine: error: out of memory\n");
        return QQB_EXIT_USAGE;
    }
    if (!o->helper)
        o->helper = default_helper(helper_buf, sizeof helper_buf);
    struct qqb_machine m = {0};
    char err[1024];
    if (qqb_machine_measure(&m, o->quick, o->mpi ? o->launcher : NULL, o->helper, err,
                            sizeof err) != 0 ||
        qqb_profile_write(fp, &m, o->quick, o->mpi ? o->launcher : NULL, err, sizeof err) != 0) {
        fprintf(stderr, "qqbench profile-machine: error: %s\n", err);
        fclose(fp);
        free(text);
        return QQB_EXIT_USAGE;
    }
    /* The stream sets TEXT and TEXTLEN when it is closed. */
    int closed = fclose(fp) == 0;
    int src = store(o, closed, text, textlen);
    free(text);
    if (src != 0)
        return QQB_EXIT_USAGE;
    fprintf(stderr,
            "qqbench profile-machine: wrote %s: counter read %.1f ns, "
            "bandwidth %.1f GB/s (%zu KiB) to %.1f GB/s (%zu MiB), %.2f GFLOP/s%s; "
            "took %.1f s\n",
            o->out, m.ns_bare, m.bw[0] / 1e9, m.sizes[0] >> 10, m.bw[m.ns - 1] / 1e9,
            m.sizes[m.ns - 1] >> 20, m.fl / 1e9, o->mpi && m.mpi_rc == 0 ? ", MPI measured" : "",
            m.seconds);
    return m.mpi_rc ? QQB_EXIT_KERNEL : QQB_EXIT_OK;
}
