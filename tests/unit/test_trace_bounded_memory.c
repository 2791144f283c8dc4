/* test_trace_bounded_memory.c - qqbench export, view and whatif stream the file: their maximum
 * resident memory does not grow with it (ru_maxrss of each child, against the file's size; no
 * timing). */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child_rss.h"
#include "qq_internal.h"
#include "test.h"

/* 1 when FILE has a line holding TEXT. */
static int has_line(const char *file, const char *text)
{
    char line[512];
    int found = 0;
    FILE *fp = fopen(file, "r");
    while (fp && fgets(line, sizeof line, fp))
        found |= strstr(line, text) != NULL;
    if (fp)
        fclose(fp);
    return found;
}

int main(void)
{
    long size = child_rss_files();
    if (size == 0)
        return 77;
    if (TEST_ASAN) {
        /* ASan keeps freed blocks in a quarantine of up to 256 MB whatever
         * the file's size: the Chrome writer's small objects (several per
         * event, each freed at once) filled it, +490 MB of maximum RSS. The
         * bound is on qqbench's own memory: the children run without it. */
        const char *old = getenv("ASAN_OPTIONS");
        char opts[1024];
        snprintf(opts, sizeof opts, "%s%squarantine_size_mb=0", old ? old : "",
                 old && *old ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
    }
    CHECK(size > 96000000L);
    const char *qqbench = getenv("QQBENCH");

    /* A file of zeros behind a valid header whose size is the file's:
     * "no key table", once the walk over its sections (16 zero bytes each,
     * of no known kind) reaches the end. Read whole, it cost its size in
     * memory before the message. Sparse: it takes no disk. */
    const long zsize = 200L * 1000 * 1000;
    unsigned char head[QQ__HEADER_SIZE] = {0};
    memcpy(head, QQ__MAGIC, 8);
    head[8] = QQ__VERSION_MAJOR;
    qq__store_u32(head + 12, QQ__HEADER_SIZE);
    qq__store_u32(head + 16, QQ__FLAG_COMPLETE);
    qq__store_u64(head + 32, (uint64_t)zsize);
    FILE *fp = fopen("zeros.qq", "wb");
    CHECK(fp && fwrite(head, 1, sizeof head, fp) == sizeof head);
    CHECK(fp && ftruncate(fileno(fp), zsize) == 0);
    if (fp)
        fclose(fp);

    /* Each command on the three files: of the first two it reads every
     * entry (chrome with one key: every entry read, a sixteenth written). */
    struct {
        const char *what;
        char *args[8];
        const char *says; /* a line of its output on the big file */
    } cmds[] = {
        {"export csv", {"export", "FILE", "--format", "csv", "--out", "/dev/null"}, NULL},
        {"export chrome",
         {"export", "FILE", "--format", "chrome", "--keys", "state_a", "--out", "/dev/null"},
         NULL},
        {"view", {"view", "FILE", "--no-plot", "--out", "FILE-view"}, ": 1 node, 0 to"},
        {"whatif", {"whatif", "FILE", "--scale", "state_a=0.5", "--waiting", "state_b"}, "all "},
    };
    const char *files[] = {"small.qq", "big.qq", "zeros.qq"};
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        long rss[3];
        for (int f = 0; f < 3; f++) {
            char *argv[10] = {(char *)qqbench}, outdir[64], out[64];
            snprintf(outdir, sizeof outdir, "%s-view", files[f]);
            snprintf(out, sizeof out, "%s.out", files[f]);
            for (int i = 0; i < 8 && cmds[c].args[i]; i++)
                argv[i + 1] = !strcmp(cmds[c].args[i], "FILE")        ? (char *)files[f]
                              : !strcmp(cmds[c].args[i], "FILE-view") ? outdir
                                                                      : cmds[c].args[i];
            CHECK_INT_EQ(child_rss(argv, out, &rss[f]), f < 2 ? 0 : 2);
        }
        if (cmds[c].says)
            CHECK(has_line("big.qq.out", cmds[c].says));
        CHECK(has_line("zeros.qq.out", "zeros.qq: no key table"));
        CHECK(access("zeros.qq-view", F_OK) != 0);
        printf("maximum RSS of qqbench %s: %ld bytes for a 240 KB file, %ld bytes for %ld bytes "
               "(+%ld), %ld bytes for %ld bytes of zeros (+%ld)\n",
               cmds[c].what, rss[0], rss[1], size, rss[1] - rss[0], rss[2], zsize, rss[2] - rss[0]);
        /* Read whole, the file alone would add its size. Streamed, what
         * remains is the chunk (256 KiB a node), whatif's interval lengths
         * for the ticks per hit (4 bytes per state pair, a 24th of this
         * file), view's points (a picture's width per key and node), with
         * allocator slack (larger under ASan). Half the file's size tells
         * the two apart on any machine. */
        CHECK(rss[1] - rss[0] < size / 2);
        CHECK(rss[2] - rss[0] < zsize / 2);
    }
    unlink("big.qq");
    unlink("small.qq");
    unlink("zeros.qq");
    return TEST_DONE();
}
