/* launcher.c - the launcher template ("mpirun -np {nodes}") as the argv a case runs under. */
#include "suite_int.h"

const char *qqb_launcher_default(void)
{
    return QQB_DEFAULT_LAUNCHER;
}

void qqb_argv_free(char **argv)
{
    char **p;
    if (!argv)
        return;
    for (p = argv; *p; p++)
        free(*p);
    free(argv);
}

int qqb_launcher_argv(const char *tmpl, int nodes, char ***argv, size_t *argc)
{
    char **v = NULL, **nv;
    size_t n = 0;
    const char *s = tmpl, *e;

    if (argv)
        *argv = NULL;
    if (argc)
        *argc = 0;
    if (!tmpl || !argv || nodes < 1)
        return -1;
    for (;;) {
        char *word, *x;
        while (is_blank(*s))
            s++;
        if (!*s)
            break;
        for (e = s; *e && !is_blank(*e); e++)
            ;
        word = dupn(s, (size_t)(e - s));
        x = word ? qqb__suite_expand(word, NULL, NULL, nodes) : NULL;
        free(word);
        if (!x || !(nv = realloc(v, (n + 2) * sizeof *v))) {
            free(x);
            goto fail;
        }
        v = nv;
        v[n++] = x;
        v[n] = NULL;
        s = e;
    }
    if (n == 0)
        goto fail;
    *argv = v;
    if (argc)
        *argc = n;
    return 0;
fail:
    if (v) {
        v[n] = NULL;
        qqb_argv_free(v);
    }
    return -1;
}
