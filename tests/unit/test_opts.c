/* test_opts.c - the option tables of harness/cli/opts.h: every kind of option, ranges, repeated
 * lists, positional arguments, the usage generated from the table, the one wording of errors,
 * headings and two tables as one, and every qqbench command's --help and unknown option. */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_output.h"
#include "cmds.h"
#include "opts.h"
#include "test.h"

/* ------------------------------------------------------------ a small table */

struct vals {
    int flag, on, n, given_n;
    const char *str, *pick, *first, *second, *cb;
    size_t size;
    double d;
    char **list;
    size_t nlist;
};

static const struct qqb_opts_cmd demo = {"demo", "usage: qqbench demo [options] A [B]\n\n",
                                         "\nExit: 0.\n"};

/* A callback: takes only values that start with 'x'. */
static int starts_x(const char *v, void *ctx, char *err, size_t errlen)
{
    if (v[0] != 'x') {
        snprintf(err, errlen, "--cb '%s' does not start with x", v);
        return -1;
    }
    *(const char **)ctx = v;
    return 0;
}

static const char *const picks[] = {"red", "green", "blue", NULL};

/* The file NAME's text into BUF. */
static void slurp(const char *name, char *buf, size_t len)
{
    FILE *fp = fopen(name, "r");
    size_t got = fp ? fread(buf, 1, len - 1, fp) : 0;
    buf[got] = '\0';
    if (fp)
        fclose(fp);
}

/* FD (standard output or error) into the file NAME: the saved FD. */
static int to_file(int fd, const char *name)
{
    fflush(fd == STDOUT_FILENO ? stdout : stderr);
    int saved = dup(fd);
    int f = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(f, fd);
    close(f);
    return saved;
}

static void restore(int fd, int saved)
{
    fflush(fd == STDOUT_FILENO ? stdout : stderr);
    dup2(saved, fd);
    close(saved);
}

/* Parse ARGS (NULL-terminated, argv[0] added) by the demo table into V;
 * what the parser printed on stderr into ERR (ERRLEN bytes). */
static int parse(struct vals *v, char *err, size_t errlen, const char *const *args)
{
    memset(v, 0, sizeof *v);
    v->on = 1;
    v->n = -7;
    const struct qqb_opt table[] = {
        QQB_OPT_FLAG("--flag", 'f', &v->flag, "a flag"),
        QQB_OPT_FLAG_OFF("--no-on", &v->on, "turns on off"),
        QQB_OPT_STRING("--str", "S", &v->str, "a string,\nover two lines"),
        QQB_OPT_CHOICE("--pick", "COLOUR", &v->pick, picks, "red, green or blue"),
        {.kind = QQB_OPTK_INT,
         .name = "--n",
         .arg = "N",
         .value = &v->n,
         .min = 2,
         .max = 10,
         .given = &v->given_n,
         .help = "a whole number from 2 to 10"},
        QQB_OPT_SIZE("--size", "K", &v->size, 1, 1000, "a size"),
        QQB_OPT_DOUBLE("--d", "X", &v->d, 0, 1, QQB_OPT_ABOVE_MIN, "a number in (0, 1]"),
        QQB_OPT_LIST("--list", "L", &v->list, &v->nlist, 3, "repeatable, three at most"),
        QQB_OPT_CALLBACK("--cb", "XS", starts_x, &v->cb, "starts with x"),
        QQB_OPT_POSITIONAL("A", &v->first),
        QQB_OPT_POSITIONAL("B", &v->second),
        QQB_OPT_END,
    };
    char *argv[32] = {"demo"};
    int argc = 1;
    while (args[argc - 1])
        argv[argc] = (char *)args[argc - 1], argc++;
    /* --help prints on stdout: into opts.out; errors into opts.err. */
    int saved_err = to_file(STDERR_FILENO, "opts.err");
    int saved_out = to_file(STDOUT_FILENO, "opts.out");
    int rc = qqb_opts_parse(&demo, table, argc, argv, NULL);
    restore(STDOUT_FILENO, saved_out);
    restore(STDERR_FILENO, saved_err);
    slurp("opts.err", err, errlen);
    return rc;
}

static void test_kinds(void)
{
    struct vals v;
    char err[1024];
    const char *const args[] = {"a",   "--flag", "--no-on", "--str", "s1",      "--pick", "green",
                                "--n", "10",     "--size",  "1000",  "--d=0.5", "--list", "l1",
                                "b",   "--list", "l2",      "--cb",  "xy",      NULL};
    CHECK_INT_EQ(parse(&v, err, sizeof err, args), 0);
    CHECK_STR_EQ(err, "");
    CHECK_INT_EQ(v.flag, 1);
    CHECK_INT_EQ(v.on, 0);
    CHECK_STR_EQ(v.str, "s1");
    CHECK_STR_EQ(v.pick, "green");
    CHECK_INT_EQ(v.n, 10);
    CHECK_INT_EQ(v.given_n, 1);
    CHECK(v.size == 1000);
    CHECK_DBL_NEAR(v.d, 0.5, 0);
    CHECK(v.nlist == 2 && !strcmp(v.list[0], "l1") && !strcmp(v.list[1], "l2"));
    CHECK_STR_EQ(v.cb, "xy");
    CHECK_STR_EQ(v.first, "a");
    CHECK_STR_EQ(v.second, "b");
    free(v.list);

    /* Nothing given: the defaults stay; a short name; "--" ends the options. */
    const char *const none[] = {"-f", "--", "--flag", NULL};
    CHECK_INT_EQ(parse(&v, err, sizeof err, none), 0);
    CHECK(v.flag == 1 && v.on == 1 && v.n == -7 && !v.given_n && v.str == NULL);
    CHECK_STR_EQ(v.first, "--flag");
    CHECK(v.second == NULL && v.nlist == 0);
}

/* ARGS fail with exactly the one line WANT on stderr. */
static void fails(const char *const *args, const char *want)
{
    struct vals v;
    char err[1024];
    CHECK_INT_EQ(parse(&v, err, sizeof err, args), -1);
    CHECK_STR_EQ(err, want);
    free(v.list);
}

static void test_errors(void)
{
    const char *const unknown[] = {"--flg", NULL};
    fails(unknown, "qqbench demo: error: unknown option '--flg' (did you mean '--flag'?); see "
                   "'qqbench demo --help'\n");
    const char *const far[] = {"--zzzzzz=3", NULL};
    fails(far, "qqbench demo: error: unknown option '--zzzzzz'; see 'qqbench demo --help'\n");
    const char *const shrt[] = {"-x", NULL};
    fails(shrt, "qqbench demo: error: unknown option '-x'; see 'qqbench demo --help'\n");
    const char *const missing[] = {"a", "--str", NULL};
    fails(missing, "qqbench demo: error: missing value for '--str'; see 'qqbench demo --help'\n");
    const char *const flagval[] = {"--flag=1", NULL};
    fails(flagval, "qqbench demo: error: '--flag' takes no value; see 'qqbench demo --help'\n");
    const char *const nan[] = {"--n", "abc", NULL};
    fails(nan, "qqbench demo: error: --n 'abc': expected a whole number from 2 to 10; see "
               "'qqbench demo --help'\n");
    const char *const low[] = {"--n", "1", NULL};
    fails(low, "qqbench demo: error: --n '1': expected a whole number from 2 to 10; see "
               "'qqbench demo --help'\n");
    const char *const high[] = {"--size", "1001", NULL};
    fails(high, "qqbench demo: error: --size '1001': expected a whole number from 1 to 1000; see "
                "'qqbench demo --help'\n");
    const char *const open_end[] = {"--d", "0", NULL};
    fails(open_end, "qqbench demo: error: --d '0': expected a number from 0 to 1, ends excluded; "
                    "see 'qqbench demo --help'\n");
    const char *const inf[] = {"--d", "inf", NULL};
    fails(inf, "qqbench demo: error: --d 'inf': expected a number from 0 to 1, ends excluded; "
               "see 'qqbench demo --help'\n");
    /* One parser of decimal numbers (qqb_decimal), as whatif's --scale:
     * strtod's hex is not a number here (issue 33). */
    const char *const hex[] = {"--d", "0x0.8", NULL};
    fails(hex, "qqbench demo: error: --d '0x0.8': expected a number from 0 to 1, ends excluded; "
               "see 'qqbench demo --help'\n");
    const char *const pick[] = {"--pick", "gren", NULL};
    fails(pick, "qqbench demo: error: --pick 'gren': expected red, green or blue (did you mean "
                "'green'?); see 'qqbench demo --help'\n");
    const char *const many[] = {"--list", "1", "--list", "2", "--list", "3", "--list", "4", NULL};
    fails(many, "qqbench demo: error: more than 3 --list; see 'qqbench demo --help'\n");
    const char *const cb[] = {"--cb", "y", NULL};
    fails(cb, "qqbench demo: error: --cb 'y' does not start with x; see 'qqbench demo --help'\n");
    const char *const three[] = {"a", "b", "c", NULL};
    fails(three, "qqbench demo: error: unexpected argument 'c'; see 'qqbench demo --help'\n");
}

/* Where each option's help text starts in the usage, or -1. */
static long help_column(const char *usage, const char *label, const char *help)
{
    char line[256];
    snprintf(line, sizeof line, "\n  %s ", label);
    const char *at = strstr(usage, line);
    if (!at)
        return -1;
    const char *h = strstr(at + 1, help);
    const char *eol = strchr(at + 1, '\n');
    if (!h || (eol && h > eol))
        return -1;
    return (long)(h - (at + 1));
}

static void test_usage(void)
{
    struct vals v;
    char err[1024], out[8192];
    const char *const help[] = {"a", "--help", "--bogus", NULL};
    CHECK_INT_EQ(parse(&v, err, sizeof err, help), 1); /* help first: the rest is not read */
    CHECK_STR_EQ(err, "");
    slurp("opts.out", out, sizeof out);
    static const char head[] = "usage: qqbench demo [options] A [B]\n\n  -f, --flag ";
    CHECK(!strncmp(out, head, strlen(head)));
    CHECK_STR_CONTAINS(out, "\nExit: 0.\n");
    /* Every option with its value's name, its help aligned on one column,
     * a help line's continuation under it; -h, --help last. */
    static const char *const labels[][2] = {
        {"-f, --flag", "a flag"},        {"--no-on", "turns on off"}, {"--str S", "a string,"},
        {"--pick COLOUR", "red, green"}, {"--n N", "a whole number"}, {"--size K", "a size"},
        {"--d X", "a number in"},        {"--list L", "repeatable"},  {"--cb XS", "starts with x"},
        {"-h, --help", "this text"},
    };
    long col = help_column(out, labels[0][0], labels[0][1]);
    CHECK(col > (long)strlen("  --pick COLOUR"));
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        long c = help_column(out, labels[i][0], labels[i][1]);
        if (c != col)
            TEST_FAIL_AT("'%s' help at column %ld, not %ld:\n%s", labels[i][0], c, col, out);
    }
    char cont[64];
    snprintf(cont, sizeof cont, "\n%*sover two lines\n", (int)col, "");
    CHECK_STR_CONTAINS(out, cont);
    CHECK(strstr(out, "  -h, --help") > strstr(out, "  --cb XS"));
    /* -h is --help. */
    const char *const h[] = {"-h", NULL};
    CHECK_INT_EQ(parse(&v, err, sizeof err, h), 1);
}

/* ------------------------------------------------------- every command */

struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *opts[26];
};

static const struct command commands[] = {
    {"run",
     cmd_run,
     {"--update-baseline",
      "--keep-runs",
      "--record",
      "--baselines",
      "--require-baseline",
      "--baseline-from",
      "--kernels",
      "--against",
      "--only",
      "--repetitions",
      "--max-repetitions",
      "--no-confirm",
      "--fail-on-noisy",
      "--threshold-bound",
      "--seed",
      "--json",
      "--junit",
      "--report",
      "--no-report",
      "--work",
      "--keep",
      "-q, --quiet",
      "-v, --verbose",
      "-h, --help"}},
    {"ci", cmd_ci, {"--base", "--keep", "--jobs", "--kernels-subdir", "-h, --help"}},
    {"compare", cmd_compare, {"--all", "-h, --help"}},
    {"st", cmd_st, {"--node", "-h, --help"}},
    {"view",
     cmd_view,
     {"--nodes", "--keys", "--from", "--to", "--idle", "--out", "--no-plot", "-h, --help"}},
    {"export", cmd_export, {"--format", "--out", "--nodes", "--keys", "-h, --help"}},
    {"whatif", cmd_whatif, {"--scale", "--per-hit", "--waiting", "--measured", "-h, --help"}},
    {"profile-machine",
     cmd_profile,
     {"--out", "--baselines", "--plot", "--quick", "--no-mpi", "--mpi-helper", "--launcher",
      "-h, --help"}},
    {"model",
     cmd_model,
     {"--model", "--metric", "--key", "--bench", "--predict", "--confidence", "--baseline",
      "--sigmas", "--threshold", "--bigsim", "--dilation", "--unweighted", "--plot", "-h, --help"}},
    {"history", cmd_history, {"--baselines", "--key", "--machine", "--plot", "-h, --help"}},
    {"report", cmd_report, {"--out", "--no-plot", "-h, --help"}},
};

static void test_commands_help(void)
{
    static char out[32768];
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        const struct command *k = &commands[c];
        char name[32], help[] = "--help";
        snprintf(name, sizeof name, "%s", k->name);
        char *argv[] = {name, help, NULL};
        int rc = cmd_output(k->fn, 2, argv, out, sizeof out);
        if (rc != 0)
            TEST_FAIL_AT("%s --help: exit %d", k->name, rc);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: qqbench %s ", k->name);
        if (strncmp(out, usage, strlen(usage)) != 0)
            TEST_FAIL_AT("%s --help does not start with '%s'", k->name, usage);
        long col = -1;
        for (size_t i = 0; i < 26 && k->opts[i]; i++) {
            char line[64];
            snprintf(line, sizeof line, "\n  %s ", k->opts[i]);
            const char *at = strstr(out, line);
            if (!at) {
                TEST_FAIL_AT("%s --help does not list %s:\n%s", k->name, k->opts[i], out);
                continue;
            }
            /* The help texts start on one column. */
            const char *p = at + strlen(line);
            while (*p && *p != ' ' && *p != '\n')
                p++; /* the value's name */
            while (*p == ' ')
                p++;
            long c2 = (long)(p - (at + 1));
            if (col < 0)
                col = c2;
            else if (c2 != col)
                TEST_FAIL_AT("%s --help: %s's text at column %ld, not %ld", k->name, k->opts[i], c2,
                             col);
        }
    }
}

/* CMD's stderr for ARGS into ERR. */
static int command_err(const struct command *k, char *bogus, char *err, size_t errlen)
{
    char name[32];
    snprintf(name, sizeof name, "%s", k->name);
    char *argv[] = {name, bogus, NULL};
    int saved = to_file(STDERR_FILENO, "cmd.err");
    char out[4096];
    int rc = cmd_output(k->fn, 2, argv, out, sizeof out);
    restore(STDERR_FILENO, saved);
    slurp("cmd.err", err, errlen);
    return rc;
}

static void test_commands_errors(void)
{
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        const struct command *k = &commands[c];
        char err[1024], want[256], bogus[] = "--bogus";
        int rc = command_err(k, bogus, err, sizeof err);
        snprintf(want, sizeof want,
                 "qqbench %s: error: unknown option '--bogus'; see 'qqbench %s --help'\n", k->name,
                 k->name);
        if (rc != QQB_EXIT_USAGE || strcmp(err, want) != 0)
            TEST_FAIL_AT("%s --bogus: exit %d, said '%s'", k->name, rc, err);
        /* A typo of the command's first option: did you mean it. */
        char typo[64];
        const char *first = k->opts[0];
        snprintf(typo, sizeof typo, "%s", first);
        typo[strlen(typo) - 1] = '\0'; /* "--al" for "--all" */
        command_err(k, typo, err, sizeof err);
        snprintf(want, sizeof want, "(did you mean '%s'?)", first);
        if (strlen(first) > 4 && !strstr(err, want))
            TEST_FAIL_AT("%s %s: no '%s' in '%s'", k->name, typo, want, err);
    }
}

/* A heading in the usage, never an option; two tables as one, the first's
 * option taken where both name it (ci's table then run's, git's
 * parse_options_concat); qqb_opts_find by long name, with "=", and short. */
static void test_groups_concat(void)
{
    int a_keep = 0, b_keep = 0, b_q = 0;
    const char *b_json = NULL;
    const struct qqb_opt a[] = {
        QQB_OPT_GROUP("a's options:"),
        QQB_OPT_FLAG("--keep", 0, &a_keep, "a's keep"),
        QQB_OPT_END,
    };
    const struct qqb_opt b[] = {
        QQB_OPT_GROUP("b's options:"),
        QQB_OPT_FLAG("--keep", 0, &b_keep, "b's keep"),
        QQB_OPT_STRING("--json", "FILE", &b_json, "b's json"),
        QQB_OPT_FLAG("--quiet", 'q', &b_q, "quiet"),
        QQB_OPT_END,
    };
    struct qqb_opt *ab = qqb_opts_concat(a, b), *ba = qqb_opts_concat(b, a);
    CHECK(ab && ba);
    if (!ab || !ba)
        return;
    CHECK(qqb_opts_find(ab, "--keep")->value == &a_keep);
    CHECK(qqb_opts_find(ba, "--keep")->value == &b_keep);
    CHECK(qqb_opts_find(ab, "--json=x")->value == &b_json);
    CHECK(qqb_opts_find(ab, "-q")->value == &b_q);
    CHECK(qqb_opts_find(ab, "--jsonx") == NULL);
    CHECK(qqb_opts_find(ab, "json") == NULL);
    /* A heading's empty name matches nothing, "--" included. */
    CHECK(qqb_opts_find(ab, "--") == NULL);
    char *argv[] = {"demo", "--keep", "--json", "f", "-q", NULL};
    CHECK_INT_EQ(qqb_opts_parse(&demo, ba, 5, argv, NULL), 0);
    CHECK(b_keep && !a_keep && b_json && !strcmp(b_json, "f") && b_q);
    int saved = to_file(STDOUT_FILENO, "opts.out");
    qqb_opts_usage(&demo, ab, stdout);
    restore(STDOUT_FILENO, saved);
    char out[4096];
    slurp("opts.out", out, sizeof out);
    CHECK_STR_CONTAINS(out, "[B]\n\n\na's options:\n  --keep       a's keep\n\nb's options:\n");
    CHECK_STR_CONTAINS(out, "  --keep       b's keep\n  --json FILE  b's json\n");
    free(ab);
    free(ba);
}

int main(void)
{
    RUN(test_kinds);
    RUN(test_errors);
    RUN(test_usage);
    RUN(test_commands_help);
    RUN(test_commands_errors);
    RUN(test_groups_concat);
    return TEST_DONE();
}
