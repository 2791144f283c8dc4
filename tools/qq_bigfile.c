/* qq_bigfile.c - write a .qq file of N events through the QQ API, for the reader's benchmarks. */
#include <stdio.h>
#include <stdlib.h>

#define QQ_ENABLE 1
#include "bigfile.h"

/* usage: qq_bigfile FILE N (the mix: bigfile.h) */
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: qq_bigfile FILE N\n");
        return 2;
    }
    char *end;
    long long n = strtoll(argv[2], &end, 10);
    if (*end || n < 8 || n > 1000000000LL) {
        fprintf(stderr, "qq_bigfile: N must be a whole number from 8 to 10^9, not '%s'\n", argv[2]);
        return 2;
    }
    if (bigfile_write(argv[1], n) != 0) {
        fprintf(stderr, "qq_bigfile: %s\n", qq_out_errmsg());
        return 1;
    }
    return 0;
}
