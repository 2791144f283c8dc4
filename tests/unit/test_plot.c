/* test_plot.c - the gnuplot helper: palette, quoting, folders, and a run that fails on any warning.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "test.h"

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void test_palette(void)
{
    /* Seven distinct colours, then the cycle repeats; vermillion is not in it. */
    for (size_t i = 0; i < 7; i++) {
        CHECK(strlen(qqb_plot_color(i)) == 7);
        CHECK(strcmp(qqb_plot_color(i), QQB_PLOT_ALERT) != 0);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(qqb_plot_color(i), qqb_plot_color(j)) != 0);
    }
    CHECK_STR_EQ(qqb_plot_color(7), qqb_plot_color(0));
}

static void test_quote(void)
{
    char buf[128] = "";
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    qqb_plot_quote(fp, "it's a\nkey");
    fclose(fp);
    CHECK_STR_EQ(buf, "'it''s a key'");
}

static void test_mkdir(void)
{
    char err[256] = "";
    CHECK_INT_EQ(qqb_plot_mkdir("a/b/c", err, sizeof err), 0);
    CHECK_INT_EQ(qqb_plot_mkdir("a/b/c", err, sizeof err), 0); /* again: fine */
    struct stat st;
    CHECK(stat("a/b/c", &st) == 0 && S_ISDIR(st.st_mode));
    FILE *fp = fopen("a/file", "w");
    if (fp)
        fclose(fp);
    CHECK_INT_EQ(qqb_plot_mkdir("a/file/x", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "a/file");
    CHECK(qqb_plot_create("no/such/dir", "x.dat", err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "no/such/dir/x.dat");
}

/* A script made with the helper draws both pictures; one with a warning fails. */
static void test_run(void)
{
    char err[512] = "";
    CHECK_INT_EQ(qqb_plot_mkdir("pic", err, sizeof err), 0);
    FILE *d = qqb_plot_create("pic", "line.dat", err, sizeof err);
    FILE *gp = qqb_plot_create("pic", "line.gp", err, sizeof err);
    if (!d || !gp) {
        TEST_FAIL_AT("cannot create files: %s", err);
        return;
    }
    fprintf(d, "1 2\n2 3\n3 5\n");
    fclose(d);
    qqb_plot_begin(gp, "a test line");
    fprintf(gp, "set xlabel 'n (count)'\n");
    qqb_plot_svg(gp, "line", 400, 300);
    fprintf(gp, "plot 'line.dat' using 1:2 with lines lc rgb '%s' title 'cycles_per_hit'\n",
            qqb_plot_color(0));
    qqb_plot_png_replot(gp, "line", 400, 300);
    fclose(gp);
    int rc = qqb_plot_run("pic", "line.gp", err, sizeof err);
    CHECK_INT_EQ(rc, 0);
    if (rc != 0)
        fprintf(stderr, "  gnuplot: %s\n", err);
    CHECK(file_size("pic/line.svg") > 0);
    CHECK(file_size("pic/line.png") > 0);

    /* gnuplot exits 0 after a warning: the helper must not. */
    gp = qqb_plot_create("pic", "warn.gp", err, sizeof err);
    fprintf(gp, "set terminal svg\nset output 'warn.svg'\nset xrange [1:1]\nplot x\n");
    fclose(gp);
    CHECK_INT_EQ(qqb_plot_run("pic", "warn.gp", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "warn.gp");
    CHECK_STR_CONTAINS(err, "line 4");

    /* An error: the message is gnuplot's last line, not the echoed command. */
    gp = qqb_plot_create("pic", "bad.gp", err, sizeof err);
    fprintf(gp, "set terminal svg\nset output 'bad.svg'\nplot no_such_variable\n");
    fclose(gp);
    CHECK_INT_EQ(qqb_plot_run("pic", "bad.gp", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "undefined variable");

    /* No gnuplot at all, and a folder that is not there. */
    setenv("QQB_GNUPLOT", "./no-such-gnuplot", 1);
    CHECK_INT_EQ(qqb_plot_run("pic", "line.gp", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "not found");
    unsetenv("QQB_GNUPLOT");
    CHECK_INT_EQ(qqb_plot_run("no-such-folder", "line.gp", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "no-such-folder");
}

int main(void)
{
    RUN(test_palette);
    RUN(test_quote);
    RUN(test_mkdir);
    /* An empty script tells whether gnuplot is there at all. */
    char err[256] = "";
    FILE *gp = qqb_plot_create(".", "empty.gp", err, sizeof err);
    if (gp)
        fclose(gp);
    if (qqb_plot_run(".", "empty.gp", err, sizeof err) != 0 && strstr(err, "not found"))
        printf("skipped test_run: %s\n", err);
    else
        RUN(test_run);
    return TEST_DONE();
}
