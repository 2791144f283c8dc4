/* opts.c - a command's options as a table: one parser, one usage text, one wording of errors. */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"
#include "number.h"

void qqb_opts_error(const struct qqb_opts_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "qqbench %s: error: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "; see 'qqbench %s --help'\n", cmd->name);
    va_end(ap);
}

struct qqb_opt *qqb_opts_concat(const struct qqb_opt *a, const struct qqb_opt *b)
{
    size_t na = 0, nb = 0;
    while (a[na].kind != QQB_OPTK_END)
        na++;
    while (b[nb].kind != QQB_OPTK_END)
        nb++;
    struct qqb_opt *t = calloc(na + nb + 1, sizeof *t); /* zeroed: the last is QQB_OPT_END */
    if (!t)
        return NULL;
    memcpy(t, a, na * sizeof *t);
    memcpy(t + na, b, nb * sizeof *t);
    return t;
}

/* ------------------------------------------------------------------ usage */

/* "-q, --quiet" or "--keep-runs K": the left column of an option's line. */
static int label(const struct qqb_opt *o, char *buf, size_t len)
{
    char s[8] = "";
    if (o->short_name)
        snprintf(s, sizeof s, "-%c, ", o->short_name);
    return snprintf(buf, len, "%s%s%s%s", s, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* 1 when O is an option (not a positional argument, not a heading). */
static int is_option(const struct qqb_opt *o)
{
    return o->kind != QQB_OPTK_POSITIONAL && o->kind != QQB_OPTK_POSITIONALS &&
           o->kind != QQB_OPTK_GROUP;
}

static int listed(const struct qqb_opt *o)
{
    return is_option(o) && o->help;
}

/* The help text's lines, the first after the label padded to WIDTH, the
 * others under it. */
static void help_lines(FILE *fp, const char *lab, int width, const char *help)
{
    fprintf(fp, "  %-*s  ", width, lab);
    for (const char *p = help; *p; p++) {
        fputc(*p, fp);
        if (*p == '\n' && p[1])
            fprintf(fp, "  %-*s  ", width, "");
    }
    if (!*help || help[strlen(help) - 1] != '\n')
        fputc('\n', fp);
}

void qqb_opts_usage(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, FILE *fp)
{
    static const struct qqb_opt help = {
        .kind = QQB_OPTK_FLAG, .name = "--help", .short_name = 'h', .help = "this text"};
    char lab[128];
    int width = label(&help, lab, sizeof lab);
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++) {
        int w = listed(o) ? label(o, lab, sizeof lab) : 0;
        if (w > width)
            width = w;
    }
    fputs(cmd->header, fp);
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++) {
        if (o->kind == QQB_OPTK_GROUP && o->help)
            fprintf(fp, "\n%s\n", o->help);
        if (!listed(o))
            continue;
        label(o, lab, sizeof lab);
        help_lines(fp, lab, width, o->help);
    }
    label(&help, lab, sizeof lab);
    help_lines(fp, lab, width, help.help);
    if (cmd->footer)
        fputs(cmd->footer, fp);
}

/* ------------------------------------------------------------------ values */

/* The expected value of O in words, for its error. */
static void expected(const struct qqb_opt *o, char *buf, size_t len)
{
    if (o->expect) {
        snprintf(buf, len, "%s", o->expect);
    } else if (o->kind == QQB_OPTK_INT || o->kind == QQB_OPTK_SIZE) {
        snprintf(buf, len, "a whole number from %.0f to %.0f", o->min, o->max);
    } else if (o->kind == QQB_OPTK_CHOICE) {
        size_t n = 0;
        buf[0] = '\0';
        for (const char *const *c = o->choices; *c && n < len; c++)
            n += (size_t)snprintf(buf + n, len - n, "%s%s",
                                  c == o->choices ? ""
                                  : c[1]          ? ", "
                                                  : " or ",
                                  *c);
    } else if (isinf(o->max)) {
        snprintf(buf, len, "a number %s %g", o->flags & QQB_OPT_ABOVE_MIN ? "above" : "of at least",
                 o->min);
    } else {
        snprintf(buf, len, "a number from %g to %g%s", o->min, o->max,
                 o->flags & (QQB_OPT_ABOVE_MIN | QQB_OPT_BELOW_MAX) ? ", ends excluded" : "");
    }
}

static int whole(const struct qqb_opt *o, const char *v, long long *out)
{
    char *end;
    errno = 0;
    long long r = strtoll(v, &end, 10);
    if (end == v || *end || errno || (double)r < o->min || (double)r > o->max)
        return -1;
    *out = r;
    return 0;
}

static int number(const struct qqb_opt *o, const char *v, double *out)
{
    double d = 0;
    if (qqb_decimal(v, &d) != 0 || d < o->min || d > o->max ||
        ((o->flags & QQB_OPT_ABOVE_MIN) && d == o->min) ||
        ((o->flags & QQB_OPT_BELOW_MAX) && d == o->max))
        return -1;
    *out = d;
    return 0;
}

static int choice(const struct qqb_opts_cmd *cmd, const struct qqb_opt *o, const char *v)
{
    size_t n = 0;
    while (o->choices[n])
        n++;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v, o->choices[i])) {
            *(const char **)o->value = o->choices[i];
            return 0;
        }
    char want[256];
    expected(o, want, sizeof want);
    const char *near = qqb_nearest(v, o->choices, n);
    qqb_opts_error(cmd, "%s '%s': expected %s%s%s%s", o->name, v, want,
                   near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    return -1;
}

static int append(const struct qqb_opts_cmd *cmd, const struct qqb_opt *o, const char *v)
{
    char ***list = o->value;
    if (o->max > 0 && (double)*o->count >= o->max) {
        qqb_opts_error(cmd, "more than %.0f %s", o->max, o->name);
        return -1;
    }
    char **grown = realloc(*list, (*o->count + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "qqbench %s: error: out of memory\n", cmd->name);
        return -1;
    }
    *list = grown;
    grown[(*o->count)++] = (char *)v;
    return 0;
}

/* Take V as O's value: 0, or -1 with the error printed. */
static int take(const struct qqb_opts_cmd *cmd, const struct qqb_opt *o, const char *v)
{
    long long w = 0;
    double d = 0;
    char why[512];
    switch (o->kind) {
    case QQB_OPTK_STRING:
        *(const char **)o->value = v;
        return 0;
    case QQB_OPTK_CHOICE:
        return choice(cmd, o, v);
    case QQB_OPTK_LIST:
        return append(cmd, o, v);
    case QQB_OPTK_CALLBACK:
        why[0] = '\0';
        if (o->check(v, o->value, why, sizeof why) == 0)
            return 0;
        qqb_opts_error(cmd, "%s", why);
        return -1;
    case QQB_OPTK_INT:
    case QQB_OPTK_SIZE:
        if (whole(o, v, &w) == 0) {
            if (o->kind == QQB_OPTK_INT)
                *(int *)o->value = (int)w;
            else
                *(size_t *)o->value = (size_t)w;
            return 0;
        }
        break;
    case QQB_OPTK_DOUBLE:
        if (number(o, v, &d) == 0) {
            *(double *)o->value = d;
            return 0;
        }
        break;
    default:
        return 0;
    }
    expected(o, why, sizeof why);
    qqb_opts_error(cmd, "%s '%s': expected %s", o->name, v, why);
    return -1;
}

/* ------------------------------------------------------------------ parse */

/* The option ARG (without any "=VALUE", NAMELEN bytes) names, or NULL. */
static const struct qqb_opt *find(const struct qqb_opt *table, const char *arg, size_t namelen)
{
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++) {
        if (!is_option(o))
            continue;
        if (arg[1] != '-' && namelen == 2 && o->short_name && arg[1] == o->short_name)
            return o;
        if (arg[1] == '-' && strlen(o->name) == namelen && !strncmp(o->name, arg, namelen))
            return o;
    }
    return NULL;
}

const struct qqb_opt *qqb_opts_find(const struct qqb_opt *table, const char *arg)
{
    if (arg[0] != '-' || !arg[1])
        return NULL;
    const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
    return find(table, arg, eq ? (size_t)(eq - arg) : strlen(arg));
}

static void unknown(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, const char *arg,
                    size_t namelen)
{
    const char *names[128];
    size_t n = 0;
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END && n < 127; o++)
        if (is_option(o))
            names[n++] = o->name;
    names[n++] = "--help";
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(namelen < 127 ? namelen : 127), arg);
    const char *near = qqb_nearest(word, names, n);
    qqb_opts_error(cmd, "unknown option '%s'%s%s%s", word, near ? " (did you mean '" : "",
                   near ? near : "", near ? "'?)" : "");
}

/* The next unfilled positional slot, or NULL. */
static const struct qqb_opt *next_slot(const struct qqb_opt *table, const struct qqb_opt **last)
{
    *last = NULL;
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++) {
        if (o->kind != QQB_OPTK_POSITIONAL)
            continue;
        if (!*(const char **)o->value)
            return o;
        *last = o;
    }
    return NULL;
}

static int positional(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, const char *arg)
{
    const struct qqb_opt *last, *slot = next_slot(table, &last);
    if (slot) {
        *(const char **)slot->value = arg;
        return 0;
    }
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++)
        if (o->kind == QQB_OPTK_POSITIONALS)
            return append(cmd, o, arg);
    size_t slots = 0;
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++)
        slots += o->kind == QQB_OPTK_POSITIONAL;
    if (slots == 1)
        qqb_opts_error(cmd, "one %s at a time ('%s' and '%s')", last->name,
                       *(const char **)last->value, arg);
    else
        qqb_opts_error(cmd, "unexpected argument '%s'", arg);
    return -1;
}

/* The option at ARGV[*I]: its value (the next argument, or after '=')
 * taken, *I past it. 0, 1 help printed, -1 an error printed. */
static int option(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, int argc,
                  char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        qqb_opts_usage(cmd, table, stdout);
        return 1;
    }
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
    size_t namelen = eq ? (size_t)(eq - a) : strlen(a);
    const struct qqb_opt *o = find(table, a, namelen);
    if (!o) {
        unknown(cmd, table, a, namelen);
        return -1;
    }
    if (o->given)
        *o->given = 1;
    if (o->kind == QQB_OPTK_FLAG || o->kind == QQB_OPTK_FLAG_OFF) {
        if (eq) {
            qqb_opts_error(cmd, "'%s' takes no value", o->name);
            return -1;
        }
        *(int *)o->value = o->kind == QQB_OPTK_FLAG;
        return 0;
    }
    const char *v = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
    if (!v) {
        qqb_opts_error(cmd, "missing value for '%s'", o->name);
        return -1;
    }
    return take(cmd, o, v);
}

int qqb_opts_parse(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, int argc,
                   char **argv, int *rest)
{
    int ended = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!ended && !strcmp(a, "--")) {
            ended = 1;
            continue;
        }
        if (!ended && a[0] == '-' && a[1]) {
            int rc = option(cmd, table, argc, argv, &i);
            if (rc != 0)
                return rc;
            continue;
        }
        if (rest) {
            *rest = i;
            return 0;
        }
        if (positional(cmd, table, a) != 0)
            return -1;
    }
    if (rest) {
        *rest = argc;
        return 0;
    }
    for (const struct qqb_opt *o = table; o->kind != QQB_OPTK_END; o++)
        if (o->kind == QQB_OPTK_POSITIONAL && (o->flags & QQB_OPT_REQUIRED) &&
            !*(const char **)o->value) {
            /* One line, with the usage's first: the whole help (84 lines
             * for run) buried the error. */
            const char *u = cmd->header ? cmd->header : "";
            int n = (int)strcspn(u, "\n");
            qqb_opts_error(cmd, "no %s given (%.*s)", o->name, n, u);
            return -1;
        }
    return 0;
}
