/* test_st_summary.c - harness/trace/st.c: `qqbench st`'s summary of a hand-made file: each kind of
 * key's figures (intervals and time of a state, a mark's hits, a count's sum, min and max with a
 * sum past 64 bits said saturated, a value's mean), one node alone, a node or a file that is not
 * there refused in one line on stderr after what came before. */
#define QQ_ENABLE 1
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "craft.h"
#include "qq.h"
#include "st.h"
#include "test.h"

static int ka, km, kq, kv;

/* Standard output and error of qqb_st_files(FILES, N, ONLY, 0) into OUT and
 * ERR (4 KiB each); its return. */
static int st(char **files, size_t n, long only, char *out, char *err)
{
    fflush(NULL);
    int so = dup(1), se = dup(2);
    int fo = open("st.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open("st.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fo, 1);
    dup2(fe, 2);
    close(fo);
    close(fe);
    int rc = qqb_st_files(files, n, only, 0, 0);
    fflush(NULL);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    const char *names[2] = {"st.out", "st.err"};
    char *bufs[2] = {out, err};
    for (int i = 0; i < 2; i++) {
        FILE *fp = fopen(names[i], "rb");
        bufs[i][fp ? fread(bufs[i], 1, 4095, fp) : 0] = '\0';
        if (fp)
            fclose(fp);
    }
    return rc;
}

/* Node 0: A on/off twice (1 us each at 2100 MHz), M three times, q 5 then
 * INT64_MAX (a sum past 64 bits: held at INT64_MAX), V 1.5 and 2.5. Node 1 empty. */
static void make_file(const char *path)
{
    struct qq_event e[11];
    memset(e, 0, sizeof e);
    const int key[11] = {ka, km, ka, km, ka, ka, km, kq, kq, kv, kv};
    for (int i = 0; i < 11; i++) {
        e[i].key = (uint32_t)key[i];
        e[i].tick = 2100 * (uint64_t)(i + 1);
    }
    e[0].info.i = 1;
    e[2].tick = e[0].tick + 2100;
    e[4].info.i = 1;
    e[5].tick = e[4].tick + 2100;
    e[7].info.i = 5;
    e[8].info.i = INT64_MAX;
    e[9].info.d = 1.5;
    e[10].info.d = 2.5;
    const struct qq_event *const ev[2] = {e, NULL};
    const uint64_t n[2] = {11, 0};
    CHECK_INT_EQ(craft_file(path, 2, ev, n), 0);
}

static char out[4096], err[4096];

static void test_summary(void)
{
    char *files[] = {"st.qq"};
    CHECK_INT_EQ(st(files, 1, -1, out, err), 0);
    CHECK_STR_EQ(err, "");
    CHECK_STR_CONTAINS(out, "File st.qq:    2 nodes\n");
    CHECK_STR_CONTAINS(out, "Node    0:  2100.000 MHz");
    CHECK_STR_CONTAINS(out, "Node    1:  2100.000 MHz");
    /* 4200 ticks on of the 23100 since the base time: 18.182%; the time in
     * millions of ticks. */
    CHECK_STR_CONTAINS(out, "1:      2      0.004200   18.182%   'A'");
    CHECK_STR_CONTAINS(out, "1:            2       2100.0       2100.0   median    'A'");
    CHECK_STR_CONTAINS(out, "'A'\n");
    CHECK_STR_CONTAINS(out, "2:      3    'M'\n");
    CHECK_STR_CONTAINS(out, "3:      2 9223372036854775807            5 9223372036854775807");
    CHECK_STR_CONTAINS(out, "'q'  (sum saturated: beyond 64 bits)\n");
    CHECK_STR_CONTAINS(out, "4:      2              2            1.5            2.5    'V'\n");
    /* One node alone: node 1, nothing of node 0. */
    CHECK_INT_EQ(st(files, 1, 1, out, err), 0);
    CHECK(strstr(out, "Node    1:") && !strstr(out, "Node    0:"));
}

static void test_refusals(void)
{
    char *files[] = {"st.qq", "missing.qq"};
    CHECK_INT_EQ(st(files, 1, 7, out, err), -1);
    CHECK_STR_EQ(err, "qqbench st: error: st.qq has 2 nodes, no node 7\n");
    CHECK(!strstr(out, "Node "));
    /* The first file summarised, then the missing one said. */
    CHECK_INT_EQ(st(files, 2, -1, out, err), -1);
    CHECK_STR_CONTAINS(out, "Node    1:");
    CHECK_STR_CONTAINS(err, "qqbench st: error: ");
    CHECK_STR_CONTAINS(err, "missing.qq");
    CHECK(strchr(err, '\n') == err + strlen(err) - 1);
    FILE *fp = fopen("empty.qq", "w");
    fclose(fp);
    char *empty[] = {"empty.qq"};
    CHECK_INT_EQ(st(empty, 1, -1, out, err), -1);
    CHECK_STR_CONTAINS(err, "empty.qq");
    CHECK_STR_EQ(out, "");
}

int main(void)
{
    QQInit(10);
    ka = QQAddState("A");
    km = QQAddMark("M");
    kq = QQAddCount("q");
    kv = QQAddValue("V");
    make_file("st.qq");
    RUN(test_summary);
    RUN(test_refusals);
    return TEST_DONE();
}
