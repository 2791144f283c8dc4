/* qq_io.c - QQOut's write rate: a file of --size events written by QQOut against a plain write(2)
 * of the same bytes, in the same launch, and the fsync apart. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qq.h"
#include "kio.h"

#define PROG "qq_io"

/*
 * The events are recorded once (states, marks, counts and values in turn,
 * as a program would), then every round writes them to a fresh scratch
 * file with QQOut and writes the same number of bytes to another with one
 * write(2) from a buffer of their own, the order alternating round by
 * round. Both go to the page cache; with --fsync 1 each QQOut file is then
 * fsync'd, timed apart, since durability is the disk's speed, not the
 * writer's. Each file is removed before the next write, so neither pays
 * for freeing the pages of a file it replaces (docs/PERFORMANCE.md). A
 * first round is not kept: the first pages a process writes cost a guest
 * of a virtual machine several times more (the host backs them), and
 * whichever write came first would pay it.
 */

enum { R_WRITE, R_PLAIN, R_FSYNC, R_N };
static const char *const res_name[R_N] = {"write_ms", "plain_ms", "fsync_ms"};

static void record(long n)
{
    int s = QQAddState("io_state"), m = QQAddMark("io_mark");
    int c = QQAddCount("io_count"), v = QQAddValue("io_value");
    for (long i = 0; i + 4 <= n; i += 4) {
        QQStateOn(s);
        QQCount(c, (int)i);
        QQValue(v, (double)i);
        QQStateOff(s);
    }
    for (long i = n - n % 4; i < n; i++)
        QQMark(m);
}

static const char *const variants[] = {"all", NULL};

int main(int argc, char **argv)
{
    static long do_fsync = 1;
    static int median;
    static const struct kopt extra[] = {
        KIO_MEDIAN_OPTION(median),
        {"fsync", KOPT_LONG, &do_fsync, 0,
         "1: fsync each QQOut file, timed apart from the write (default 1); 0: skip"},
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "QQOut's write rate: --size events (24 bytes each) recorded once, then per "
                   "round (--steps, after one not kept)\nwritten by QQOut to a fresh file and the "
                   "same bytes by "
                   "one write(2) to another,\nalternating which goes first; the fsync of the "
                   "QQOut file timed apart. Scratch\nfiles beside $QQ_OUTPUT (else in .), "
                   "removed after. --print: medians, GB/s, ratio.",
        .keys = "  values  write_ms (QQOut), plain_ms (write(2) of the same bytes), fsync_ms,\n"
                "          one per round",
        .variants = variants,
        .size_default = 10000000,
        .size_max = 80000000,
        .size_unit = "(1.9 GB of events)",
        .steps_default = 5,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    long n = a.size, rounds = a.steps;

    char saved[4096], qq_path[4096], plain_path[4096];
    kio_scratch(qq_path, sizeof qq_path, "qq_io.scratch.qq");
    kio_scratch(plain_path, sizeof plain_path, "qq_io.scratch.plain");

    QQInit((int)n);
    record(n);
    uint64_t file_bytes = 0;
    size_t bytes = (size_t)n * sizeof(struct qq_event);
    unsigned char *plain = kxcalloc(PROG, bytes, 1);
    memset(plain, 0x5a, bytes); /* its pages exist before the timing, as the events' do */
    double *res = kxcalloc(PROG, (size_t)(rounds * R_N), sizeof *res);

    kio_hide_output(saved, sizeof saved);
    int fail = 0;
    for (long r = -1; r < rounds && !fail; r++) {
        for (int k = 0; k < 2 && !fail; k++) {
            int which = (k + r + 2) % 2 == 0 ? R_WRITE : R_PLAIN;
            const char *path = which == R_WRITE ? qq_path : plain_path;
            unlink(path);
            double t0 = kio_now();
            int rc = which == R_WRITE ? qq_out(path, 0, 1) : kio_plain_write(path, plain, bytes);
            if (r >= 0)
                res[which * rounds + r] = 1e3 * (kio_now() - t0);
            if (rc != 0) {
                fprintf(stderr, "%s: cannot write %s: %s\n", PROG, path,
                        which == R_WRITE ? qq_out_errmsg() : strerror(errno));
                fail = 1;
            }
        }
        if (!fail && do_fsync && r >= 0) {
            double t0 = kio_now();
            if (kio_fsync(qq_path) != 0) {
                fprintf(stderr, "%s: cannot fsync %s: %s\n", PROG, qq_path, strerror(errno));
                fail = 1;
            }
            res[R_FSYNC * rounds + r] = 1e3 * (kio_now() - t0);
        }
        FILE *f = fopen(qq_path, "rb");
        if (f && fseek(f, 0, SEEK_END) == 0)
            file_bytes = (uint64_t)ftell(f);
        if (f)
            fclose(f);
        unlink(qq_path);
        unlink(plain_path);
    }
    kio_restore_output(saved);
    kxfree(plain);
    if (fail) {
        kxfree(res);
        return 1;
    }

    /* The results alone go out (the recorded events are discarded). */
    QQInit(kqq_events((uint64_t)(rounds * R_N) + 16));
    int key[R_N];
    for (int k = 0; k < R_N; k++)
        key[k] = QQAddValue(res_name[k]);
    for (int k = 0; k < R_N; k++)
        if (k != R_FSYNC || do_fsync)
            kio_record_rounds(key[k], res + k * rounds, rounds, median);
    int rc = kqq_out(PROG, "qq_io.qq", 0, 1);

    if (a.print) {
        double med[R_N];
        for (int k = 0; k < R_N; k++)
            med[k] = kmedian(res + k * rounds, (size_t)rounds);
        printf("events %ld\nfile_bytes %llu\nrounds %ld\n", n, (unsigned long long)file_bytes,
               rounds);
        printf("write_ms %.2f  %.2f GB/s (QQOut)\n", med[R_WRITE],
               (double)file_bytes / med[R_WRITE] / 1e6);
        printf("plain_ms %.2f  %.2f GB/s (write(2), %zu bytes)\n", med[R_PLAIN],
               (double)bytes / med[R_PLAIN] / 1e6, bytes);
        if (do_fsync)
            printf("fsync_ms %.2f  %.2f GB/s\n", med[R_FSYNC],
                   (double)file_bytes / med[R_FSYNC] / 1e6);
        printf("ratio write/plain %.2f\n", med[R_WRITE] / med[R_PLAIN]);
    }
    kxfree(res);
    return rc;
}
