/* instrumented.c - a kernel with every QQ call; compiled with QQ off it must equal twin.c. */
#include "qq.h"
#include "qq_mem.h"

double work(double *x, int n);

double work(double *x, int n)
{
    QQInit(1000);
    QQBaseTime(0);
    int kstate = QQAddState("state");
    int kmark = QQAddMark("mark");
    int kcount = QQAddCount("count");
    int kvalue = QQAddValue("value");
    int calls = 0;
    double s = 0;
    QQRecord(1);
    for (int i = 0; i < n; i++) {
        QQStateOn(kstate);
        s += x[i] * x[i];
        QQStateOff(kstate);
        QQMark(kmark);
        QQCount(kcount, calls++); /* not evaluated when off */
        QQValue(kvalue, s);
        MEMADDOBJECT(&x[i], sizeof x[i]);
        MEMFREEOBJECT(&x[i], sizeof x[i]);
    }
    QQRecord(0);
    QQOut("out.qq", 0, 1);
    return s + calls;
}
