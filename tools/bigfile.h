/* bigfile.h - a .qq file of N events in a fixed mix, through the QQ API (qq_bigfile, qq_readbench). */
#ifndef QQ_TOOLS_BIGFILE_H
#define QQ_TOOLS_BIGFILE_H

#include "qq.h"

/*
 * Record N events (N >= 8) and write them to PATH: of every 8, two state
 * pairs (on, off) on one of 4 state keys, a mark, a count, a value and a
 * mark again (keys round robin); marks fill up to N. Returns qq_out's
 * result (0, or a QQ_E* code with qq_out_errmsg()).
 */
static inline int bigfile_write(const char *path, long long n)
{
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
    return qq_out(path, 0, 1);
}

#endif /* QQ_TOOLS_BIGFILE_H */
