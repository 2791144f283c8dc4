/* events.c - a user's program written with the paper's API alone: QQInit(N), M intervals, QQOut;
 * built with QQ on and off. */
#include <stdio.h>
#include <stdlib.h>

#include "qq.h"

static volatile unsigned long sink;

int main(int argc, char **argv)
{
    /* events INIT HITS: QQInit(INIT), then HITS intervals (2 events each). */
    int init = argc > 1 ? atoi(argv[1]) : 10;
    (void)init; /* unused when QQ is compiled out */
    int hits = argc > 2 ? atoi(argv[2]) : 20;
    QQInit(init);
    int k = QQAddState("loop");
    (void)k; /* unused when QQ is compiled out */
    for (int i = 0; i < hits; i++) {
        QQStateOn(k);
        for (int j = 0; j < 1000; j++)
            sink += (unsigned long)j;
        QQStateOff(k);
    }
    QQOut("events.qq", 0, 1);
    printf("events: %d intervals done\n", hits);
    return 0;
}
