/* record.c - the record path's functions alone, compiled against qq.h and against the
 * single-thread qq.h of before threads (qq_before_threads.h), to compare their instructions. */
#define QQ_ENABLE 1
#include "qq.h"
void on(int k)
{
    QQStateOn(k);
}
void off(int k)
{
    QQStateOff(k);
}
void mark(int k)
{
    QQMark(k);
}
void count(int k, int c)
{
    QQCount(k, c);
}
