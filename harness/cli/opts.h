/* opts.h - a command's options as a table: one parser, one usage text, one wording of errors. */
#ifndef QQB_OPTS_H
#define QQB_OPTS_H

#include <stddef.h>
#include <stdio.h>

/* What an option takes and where its value goes (struct qqb_opt's value). */
enum qqb_opt_kind {
    QQB_OPTK_END = 0,     /* ends a table */
    QQB_OPTK_FLAG,        /* int *: set to 1 */
    QQB_OPTK_FLAG_OFF,    /* int *: set to 0 (--no-confirm) */
    QQB_OPTK_STRING,      /* const char **: the value (the argv string itself) */
    QQB_OPTK_CHOICE,      /* const char **: a value of choices (did you mean on a typo) */
    QQB_OPTK_INT,         /* int *: a whole number from min to max */
    QQB_OPTK_SIZE,        /* size_t *: a whole number from min to max */
    QQB_OPTK_DOUBLE,      /* double *: a finite number from min to max (flags: open ends) */
    QQB_OPTK_LIST,        /* char ***, count: each value appended (repeatable; max: most, 0 any) */
    QQB_OPTK_CALLBACK,    /* check(value, ctx, ...) takes the value */
    QQB_OPTK_POSITIONAL,  /* const char **: the next argument that is not an option */
    QQB_OPTK_POSITIONALS, /* char ***, count: every argument that is not an option, after the
                             POSITIONALs (st's FILE...); options may come before or after */
    QQB_OPTK_GROUP,       /* no option: a heading in the usage over the lines after it (help) */
};

/* struct qqb_opt's flags: the ends of a DOUBLE's range that are excluded;
 * a POSITIONAL that must be given (missing: the usage on stderr, -1). */
enum { QQB_OPT_ABOVE_MIN = 1, QQB_OPT_BELOW_MAX = 2, QQB_OPT_REQUIRED = 4 };

/* A callback's check of VALUE: 0 taken, -1 refused with the whole reason
 * in ERR ("--record 'a/b' has ..."), which follows "qqbench CMD: error: ". */
typedef int (*qqb_opt_check)(const char *value, void *ctx, char *err, size_t errlen);

/* One option, or one positional argument. Tables end with QQB_OPT_END. */
struct qqb_opt {
    const char *name;           /* "--record"; POSITIONAL: its name in messages ("SUITE.yaml") */
    const char *arg;            /* the value's name in the usage ("LABEL"); NULL for flags */
    const char *help;           /* the usage's text, lines separated by '\n'; NULL: not listed */
    void *value;                /* where the value goes: see enum qqb_opt_kind; CALLBACK: ctx */
    size_t *count;              /* LIST: the number of values */
    const char *expect;         /* the value in errors ("a number above 0"); NULL: the range */
    const char *const *choices; /* CHOICE: the values, NULL-terminated */
    qqb_opt_check check;        /* CALLBACK */
    int *given;                 /* set to 1 when the option is given; may be NULL */
    double min, max;            /* INT, SIZE, DOUBLE: the range; LIST: max is the most values */
    enum qqb_opt_kind kind;
    int flags;       /* QQB_OPT_ABOVE_MIN, QQB_OPT_BELOW_MAX, QQB_OPT_REQUIRED */
    char short_name; /* 'q' for -q; 0 none */
};

/* The table entries (git's OPT_BOOL and kin). */
#define QQB_OPT_FLAG(n, s, p, h)                                                                   \
    {                                                                                              \
        .kind = QQB_OPTK_FLAG, .name = (n), .short_name = (s), .value = (p), .help = (h)           \
    }
#define QQB_OPT_FLAG_OFF(n, p, h)                                                                  \
    {                                                                                              \
        .kind = QQB_OPTK_FLAG_OFF, .name = (n), .value = (p), .help = (h)                          \
    }
#define QQB_OPT_STRING(n, a, p, h)                                                                 \
    {                                                                                              \
        .kind = QQB_OPTK_STRING, .name = (n), .arg = (a), .value = (p), .help = (h)                \
    }
#define QQB_OPT_CHOICE(n, a, p, c, h)                                                              \
    {                                                                                              \
        .kind = QQB_OPTK_CHOICE, .name = (n), .arg = (a), .value = (p), .choices = (c),            \
        .help = (h)                                                                                \
    }
#define QQB_OPT_INT(n, a, p, lo, hi, h)                                                            \
    {                                                                                              \
        .kind = QQB_OPTK_INT, .name = (n), .arg = (a), .value = (p), .min = (lo), .max = (hi),     \
        .help = (h)                                                                                \
    }
#define QQB_OPT_SIZE(n, a, p, lo, hi, h)                                                           \
    {                                                                                              \
        .kind = QQB_OPTK_SIZE, .name = (n), .arg = (a), .value = (p), .min = (lo), .max = (hi),    \
        .help = (h)                                                                                \
    }
#define QQB_OPT_DOUBLE(n, a, p, lo, hi, fl, h)                                                     \
    {                                                                                              \
        .kind = QQB_OPTK_DOUBLE, .name = (n), .arg = (a), .value = (p), .min = (lo), .max = (hi),  \
        .flags = (fl), .help = (h)                                                                 \
    }
#define QQB_OPT_LIST(n, a, p, cnt, most, h)                                                        \
    {                                                                                              \
        .kind = QQB_OPTK_LIST, .name = (n), .arg = (a), .value = (p), .count = (cnt),              \
        .max = (most), .help = (h)                                                                 \
    }
#define QQB_OPT_CALLBACK(n, a, fn, ctx, h)                                                         \
    {                                                                                              \
        .kind = QQB_OPTK_CALLBACK, .name = (n), .arg = (a), .check = (fn), .value = (ctx),         \
        .help = (h)                                                                                \
    }
#define QQB_OPT_POSITIONAL(n, p)                                                                   \
    {                                                                                              \
        .kind = QQB_OPTK_POSITIONAL, .name = (n), .value = (p)                                     \
    }
#define QQB_OPT_POSITIONALS(n, p, cnt)                                                             \
    {                                                                                              \
        .kind = QQB_OPTK_POSITIONALS, .name = (n), .value = (p), .count = (cnt)                    \
    }
#define QQB_OPT_REQUIRED_POSITIONAL(n, p)                                                          \
    {                                                                                              \
        .kind = QQB_OPTK_POSITIONAL, .name = (n), .value = (p), .flags = QQB_OPT_REQUIRED          \
    }
#define QQB_OPT_GROUP(h)                                                                           \
    {                                                                                              \
        .kind = QQB_OPTK_GROUP, .name = "", .help = (h)                                            \
    }
#define QQB_OPT_END                                                                                \
    {                                                                                              \
        .kind = QQB_OPTK_END                                                                       \
    }

/* A command: its name in messages and the usage's prose around the option
 * lines, which the table generates. */
struct qqb_opts_cmd {
    const char *name;   /* "run": "qqbench run: error: ..." */
    const char *header; /* "usage: ...\n\nprose\n\n" up to the option lines */
    const char *footer; /* after them ("\nExit: ...\n"); NULL: none */
};

/* Parse ARGV[1..ARGC-1] by TABLE (a POSITIONAL's pointer starts NULL). Options are --name VALUE,
 * --name=VALUE, -s VALUE; "--" ends them; -h and --help print the usage on stdout. With REST NULL,
 * options and positional arguments mix and a positional argument beyond the table's is an error.
 * With REST, parsing stops at the first argument that is not an option (after a "--"), whose index
 * goes to *REST (ARGC when none); the caller takes the rest.
 * Returns 0 parsed, 1 the usage printed (the caller exits 0), -1 an error
 * printed on stderr (the caller exits QQB_EXIT_USAGE): one line,
 *   qqbench CMD: error: unknown option '--x' (did you mean '--y'?); see 'qqbench CMD --help'
 * or, for a missing QQB_OPT_REQUIRED positional argument, the usage.
 * LIST values are allocated even on error: the caller frees *value. */
int qqb_opts_parse(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, int argc,
                   char **argv, int *rest);

/* The option of TABLE that ARG ("--name", "--name=VALUE" or "-x") names,
 * or NULL. */
const struct qqb_opt *qqb_opts_find(const struct qqb_opt *table, const char *arg);

/* A table of A's entries then B's (git's parse_options_concat), one
 * QQB_OPT_END: malloc'd (the caller frees it), NULL when out of memory.
 * An option in both is A's: the parser takes the first it finds. */
struct qqb_opt *qqb_opts_concat(const struct qqb_opt *a, const struct qqb_opt *b);

/* The usage: CMD's header, an aligned line (or lines) per option of
 * TABLE with a help text, a QQB_OPT_GROUP's heading as a line of its own
 * after a blank one, then -h, --help, then CMD's footer. */
void qqb_opts_usage(const struct qqb_opts_cmd *cmd, const struct qqb_opt *table, FILE *fp);

/* "qqbench CMD: error: " MSG "; see 'qqbench CMD --help'" on stderr: a
 * command's own check of its options reads as the parser's. */
void qqb_opts_error(const struct qqb_opts_cmd *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* QQB_OPTS_H */
