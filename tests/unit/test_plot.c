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

static void quoted(const char *s, unsigned flags, const char *want)
{
    char buf[256] = "";
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    qqb_plot_str(fp, s, flags);
    fclose(fp);
    CHECK_STR_EQ(buf, want);
    char b2[256];
    CHECK_STR_EQ(qqb_plot_quoted(b2, sizeof b2, s, flags), want);
}

static void test_quote(void)
{
    quoted("it's a\nkey", 0, "'it''s a key'");
    /* What gnuplot would run, or read as the end of a command, never
     * reaches it as such: backquotes, newlines, CR, ESC, DEL. */
    quoted("x`id >PWN`", 0, "'x''id >PWN'''");
    quoted("a\nsystem('id')\r\x1b[31m\x7f", 0, "'a system(''id'')  [31m '");
    quoted("50% of", QQB_GP_FORMAT, "'50%% of'");
    quoted("two\nlines", QQB_GP_LINES, "'two'.\"\\n\".'lines'");
    quoted(NULL, 0, "''");
    char small[6];
    CHECK_STR_EQ(qqb_plot_quoted(small, sizeof small, "abcdefgh", 0), "'abcd");
    char buf[256] = "";
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    qqb_plot_comment(fp, "a title\nsystem('touch PWN')");
    fclose(fp);
    CHECK_STR_EQ(buf, "# a title system('touch PWN')\n");
}

/* Hostile names through the helpers into a script gnuplot runs: nothing
 * they hold is executed, and the picture is drawn. */
static void test_quote_gnuplot(void)
{
    static const char *const evil[] = {"x`touch PWN1`", "y\nsystem('touch PWN2')\n#",
                                       "z' . system('touch PWN3') . '", "w\\\\`touch PWN4`"};
    char err[512] = "";
    CHECK_INT_EQ(qqb_plot_mkdir("evil", err, sizeof err), 0);
    FILE *d = qqb_plot_create("evil", "e.dat", err, sizeof err);
    FILE *gp = qqb_plot_create("evil", "e.gp", err, sizeof err);
    if (!d || !gp) {
        TEST_FAIL_AT("cannot create files: %s", err);
        return;
    }
    fprintf(d, "1 2\n2 3\n");
    fclose(d);
    qqb_plot_begin(gp, evil[1]);
    qqb_plot_svg(gp, "e", 400, 300);
    fprintf(gp, "set title ");
    qqb_plot_str(gp, evil[0], QQB_GP_LINES);
    fprintf(gp, "\nset xlabel ");
    qqb_plot_str(gp, evil[1], QQB_GP_LINES);
    fprintf(gp, "\nset xtics (");
    qqb_plot_str(gp, evil[3], QQB_GP_FORMAT);
    fprintf(gp, " 1)\nplot 'e.dat' using 1:2 with lines title ");
    qqb_plot_str(gp, evil[2], 0);
    fprintf(gp, "\n");
    qqb_plot_png_replot(gp, "e", 400, 300);
    fclose(gp);
    int rc = qqb_plot_run("evil", "e.gp", err, sizeof err);
    CHECK_INT_EQ(rc, 0);
    if (rc != 0)
        fprintf(stderr, "  gnuplot: %s\n", err);
    CHECK(file_size("evil/e.svg") > 0);
    const char *pwn[] = {"PWN1",      "PWN2",      "PWN3",      "PWN4",
                         "evil/PWN1", "evil/PWN2", "evil/PWN3", "evil/PWN4"};
    for (size_t i = 0; i < sizeof pwn / sizeof pwn[0]; i++)
        if (file_size(pwn[i]) >= 0)
            TEST_FAIL_AT("gnuplot ran a command from a name: %s exists", pwn[i]);
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

/* qqb_plot_short: whole up to MAX characters; past it the start and the
 * end around an ellipsis, MAX characters in all, never a UTF-8 character
 * cut (each of "é" is two bytes). */
static void test_short(void)
{
    char b[128];
    CHECK_STR_EQ(qqb_plot_short(b, sizeof b, "MessageBus::Sync", 16), "MessageBus::Sync");
    CHECK_STR_EQ(qqb_plot_short(b, sizeof b, "MessageBus::Synchronize", 10),
                 "Mess\xe2\x80\xa6onize");
    CHECK_STR_EQ(qqb_plot_short(b, sizeof b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 6),
                 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    CHECK_STR_EQ(
        qqb_plot_short(b, sizeof b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 5),
        "\xc3\xa9\xc3\xa9\xe2\x80\xa6\xc3\xa9\xc3\xa9");
    CHECK_STR_EQ(qqb_plot_short(b, sizeof b, "", 5), "");
}

int main(void)
{
    RUN(test_palette);
    RUN(test_quote);
    RUN(test_short);
    RUN(test_mkdir);
    /* An empty script tells whether gnuplot is there at all. */
    char err[256] = "";
    FILE *gp = qqb_plot_create(".", "empty.gp", err, sizeof err);
    if (gp)
        fclose(gp);
    if (qqb_plot_run(".", "empty.gp", err, sizeof err) != 0 && strstr(err, "not found"))
        printf("skipped test_run, test_quote_gnuplot: %s\n", err);
    else {
        RUN(test_run);
        RUN(test_quote_gnuplot);
    }
    return TEST_DONE();
}
