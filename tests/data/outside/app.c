/* app.c - a user's program instrumented with an installed QQ. */
#include <stdio.h>
#include "qq.h"
#include "qq_file.h"

int main(void)
{
    QQInit(100);
    int k = QQAddState("outside");
    for (int i = 0; i < 10; i++) {
        QQStateOn(k);
        QQStateOff(k);
    }
    if (qq_out("outside.qq", 0, 1) != 0) {
        fprintf(stderr, "app: %s\n", qq_out_errmsg());
        return 1;
    }
    struct qq_file *f;
    if (qq_file_open("outside.qq", &f) != 0) {
        fprintf(stderr, "app: %s\n", qq_file_errmsg(f));
        return 1;
    }
    printf("entries %llu\n", (unsigned long long)qq_file_node(f, 0)->entries);
    qq_file_close(f);
    return 0;
}
