/* test_ci_exec.c - qqbench ci's helpers: the build command's placeholders quoted for the shell, a
 * log's last lines, a command's exit status and output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "ci_exec.h"

/* CMD expanded with SRC and OUT, run by /bin/sh -c, its output. */
static void shell_out(const char *cmd, const char *src, const char *out, char *buf, size_t len)
{
    char *line = qqb_ci_expand(cmd, src, out);
    CHECK(line != NULL);
    buf[0] = '\0';
    if (!line)
        return;
    char *argv[] = {"/bin/sh", "-c", line, NULL};
    remove("ci_exec.out");
    CHECK_INT_EQ(qqb_ci_run(argv, "ci_exec.out", NULL, NULL), 0);
    FILE *f = fopen("ci_exec.out", "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    free(line);
}

static void test_expand(void)
{
    char *e = qqb_ci_expand("make -C {src} O={out} {other} {src}", "/a b", "/o");
    CHECK_STR_EQ(e, "make -C '/a b' O='/o' {other} '/a b'");
    free(e);
    e = qqb_ci_expand("", "s", "o");
    CHECK_STR_EQ(e, "");
    free(e);
    /* A folder's name is one word whatever it holds: blanks, quotes, $, ;. */
    char buf[512];
    shell_out("printf '[%s]' {src} {out}", "it's a $HOME; `x`", "o\"d\\", buf, sizeof buf);
    CHECK_STR_EQ(buf, "[it's a $HOME; `x`][o\"d\\]");
}

static void test_run_status(void)
{
    char *no[] = {"/bin/sh", "-c", "exit 3", NULL};
    CHECK_INT_EQ(qqb_ci_run(no, NULL, NULL, NULL), 3);
    char *missing[] = {"/no/such/program", NULL};
    CHECK_INT_EQ(qqb_ci_run(missing, NULL, NULL, NULL), 127);
    char *killed[] = {"/bin/sh", "-c", "kill -9 $$", NULL};
    CHECK_INT_EQ(qqb_ci_run(killed, NULL, NULL, NULL), -1);
}

static void test_log_tail(void)
{
    FILE *f = fopen("ci_exec.log", "w");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int i = 1; i <= 40; i++)
        fprintf(f, "line %d\n", i);
    fprintf(f, "\n\n");
    fclose(f);
    f = fopen("ci_exec.tail", "w+");
    CHECK(f != NULL);
    if (!f)
        return;
    qqb_ci_log_tail("ci_exec.log", 3, f);
    rewind(f);
    char buf[256];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK_STR_EQ(buf, "  | line 38\n  | line 39\n  | line 40\n");
    remove("ci_exec.log");
    remove("ci_exec.tail");
    remove("ci_exec.out");
}

int main(void)
{
    RUN(test_expand);
    RUN(test_run_status);
    RUN(test_log_tail);
    return TEST_DONE();
}
