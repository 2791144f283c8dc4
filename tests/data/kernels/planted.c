/* planted.c - a test kernel with a planted amount of extra work, and every way a kernel can fail.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qq.h"
#include "qq_mem.h"

static volatile unsigned long long sink;

/* A dependent multiply-add chain: its cycles do not depend on the data. */
static unsigned long long chain(long n, unsigned long long x)
{
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

static void usage(void)
{
    printf("usage: planted [--work N] [--extra PERMILLE] [--square D] [--reps R] [--mem BYTES]\n"
           "               [--side S]\n"
           "               [--crash | --hang | --exit N | --no-output | --bad-output | --nan]\n\n"
           "State key 'work' wraps a chain of N (default 20000) multiply-adds, plus\n"
           "PERMILLE/1000 of N more, plus N*N/D more (a cost that grows as N^2);\n"
           "R (default 200) intervals per run. --side S adds state key 'side', timed\n"
           "S times per interval of 'work' (S x R calls a run) around a chain of 100. --mem\n"
           "allocates BYTES under the memory key 'buffers'. The failure options\n"
           "make the run crash, hang, exit N, write no file or a damaged one.\n");
}

int main(int argc, char **argv)
{
    long work = 20000, extra = 0, square = 0, reps = 200, mem = 0, code = 0, side = 0;
    int crash = 0, hang = 0, no_output = 0, bad_output = 0, nan_value = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (!strcmp(a, "--work") && v) {
            work = atol(v), i++;
        } else if (!strcmp(a, "--extra") && v) {
            extra = atol(v), i++;
        } else if (!strcmp(a, "--square") && v) {
            square = atol(v), i++;
        } else if (!strcmp(a, "--reps") && v) {
            reps = atol(v), i++;
        } else if (!strcmp(a, "--side") && v) {
            side = atol(v), i++;
        } else if (!strcmp(a, "--mem") && v) {
            mem = atol(v), i++;
        } else if (!strcmp(a, "--exit") && v) {
            code = atol(v), i++;
        } else if (!strcmp(a, "--crash")) {
            crash = 1;
        } else if (!strcmp(a, "--hang")) {
            hang = 1;
        } else if (!strcmp(a, "--no-output")) {
            no_output = 1;
        } else if (!strcmp(a, "--bad-output")) {
            bad_output = 1;
        } else if (!strcmp(a, "--nan")) {
            nan_value = 1;
        } else {
            fprintf(stderr, "planted: unknown option '%s'\n", a);
            return 2;
        }
    }
    QQInit((int)(2 * reps * (1 + (side > 0 ? side : 0)) + 16));
    int kwork = QQAddState("work");
    int kside = side > 0 ? QQAddState("side") : -1;
    int kbuf = MemAddKey("buffers");
    if (nan_value) /* one value that is not a number */
        QQValue(QQAddValue("ratio"), NAN);
    long n = work + work * extra / 1000 + (square > 0 ? work * work / square : 0);
    unsigned long long x = 1;
    for (long r = 0; r < reps; r++) {
        QQStateOn(kwork);
        x = chain(n, x);
        QQStateOff(kwork);
        for (long k = 0; k < side; k++) {
            QQStateOn(kside);
            x = chain(100, x);
            QQStateOff(kside);
        }
    }
    sink = x;
    void *p = mem > 0 ? MemMalloc(kbuf, (size_t)mem) : NULL;
    if (p)
        memset(p, 1, (size_t)mem);
    if (crash) {
        fprintf(stderr, "planted: crashing on purpose\n");
        raise(SIGSEGV);
    }
    if (hang) {
        fprintf(stderr, "planted: hanging on purpose\n");
        for (;;)
            pause();
    }
    if (code) {
        fprintf(stderr, "planted: exiting with %ld on purpose\n", code);
        return (int)code;
    }
    if (!no_output && qq_out("planted.qq", 0, 1) != 0) {
        fprintf(stderr, "planted: %s\n", qq_out_errmsg());
        return 1;
    }
    if (bad_output) {
        const char *path = getenv("QQ_OUTPUT") ? getenv("QQ_OUTPUT") : "planted.qq";
        FILE *fp = fopen(path, "r+b");
        if (fp) {
            fseek(fp, 0, SEEK_SET);
            fputs("NOTQQ", fp);
            fclose(fp);
        }
    }
    MemFree(kbuf, p);
    return 0;
}
