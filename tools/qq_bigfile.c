/* qq_bigfile.c - write a .qq file of N events through the QQ API, for the reader's benchmarks. */
#include <stdio.h>
#include <stdlib.h>

#define QQ_ENABLE 1
#include "qq.h"

/*
 * usage: qq_bigfile FILE N
 * N events in a fixed mix, as a profiled program makes them: of every 8,
 * two state pairs (on, off) on one of 4 state keys, a mark, a count and a
 * value (keys chosen round robin). The file is what QQOut writes; its
 * digest depends only on N and the ticks.
 */
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
    QQInit((int)n);
    int st[4], mk = QQAddMark("mark"), ct = QQAddCount("count"), va = QQAddValue("value");
    st[0] = QQAddState("state_a");
    st[1] = QQAddState("state_b");
    st[2] = QQAddState("state_c");
    st[3] = QQAddState("state_d");
    long long i = 0;
    for (long long r = 0; i + 8 <= n; r++) {
        int s = st[r % 4];
        QQStateOn(s);
        QQStateOff(s);
        QQStateOn(st[(r + 1) % 4]);
        QQMark(mk);
        QQStateOff(st[(r + 1) % 4]);
        QQCount(ct, (int)(r % 1000) - 500);
        QQValue(va, (double)(r % 977) * 0.5);
        QQMark(mk);
        i += 8;
    }
    for (; i < n; i++)
        QQMark(mk);
    int rc = qq_out(argv[1], 0, 1);
    if (rc != 0) {
        fprintf(stderr, "qq_bigfile: %s\n", qq_out_errmsg());
        return 1;
    }
    return 0;
}
