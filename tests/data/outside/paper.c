/* paper.c - a user's program with the paper's API only: QQ on or off is the build's choice. */
#include <stdio.h>
#include "qq.h"

int main(void)
{
    QQInit(100);
    int k = QQAddState("paper");
    (void)k; /* unused when QQ is compiled out */
    for (int i = 0; i < 10; i++) {
        QQStateOn(k);
        QQStateOff(k);
    }
    QQOut("outside_paper.qq", 0, 1);
#if defined(QQ_ENABLE)
    printf("QQ on\n");
#else
    printf("QQ off\n");
#endif
    return 0;
}
