/* test_st_bounded_memory.c - qqbench st streams: its maximum resident memory does not grow with the
 * file (ru_maxrss of the child, against the file's size; no timing). */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child_rss.h"
#include "test.h"

int main(void)
{
    long size = child_rss_files(), small, big;
    if (size == 0)
        return 77;
    CHECK(size > 96000000L);
    const char *qqbench = getenv("QQBENCH");

    char *st_small[] = {(char *)qqbench, "st", "small.qq", NULL};
    char *st_big[] = {(char *)qqbench, "st", "big.qq", NULL};
    CHECK_INT_EQ(child_rss(st_small, "small.out", &small), 0);
    CHECK_INT_EQ(child_rss(st_big, "big.out", &big), 0);
    /* The big file was read to its end: 2.5 x 10^5 intervals of each of the
     * four states (two pairs in every 8 entries). */
    char line[256];
    int found = 0;
    FILE *fp = fopen("big.out", "r");
    while (fp && fgets(line, sizeof line, fp))
        if (strstr(line, " 250000 ") && strstr(line, "'state_d'"))
            found = 1;
    if (fp)
        fclose(fp);
    CHECK(found);
    printf("maximum RSS of qqbench st: %ld bytes for a 240 KB file, %ld bytes for %ld bytes "
           "(+%ld)\n",
           small, big, size, big - small);
    /* Read whole, the file alone would add its size. Streamed, what remains
     * is the 256 KiB chunk and the interval lengths the estimator needs (8
     * bytes per state pair, a twelfth of this file: +9 MB here), with
     * allocator slack (ASan's quarantine keeps the outgrown arrays: +19 MB
     * here). Half the file's size tells the two apart on any machine. */
    CHECK(big - small < size / 2);
    unlink("big.qq");
    unlink("small.qq");
    return TEST_DONE();
}
