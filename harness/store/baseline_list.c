/* baseline_list.c - baselines found on disk: other machines' of a suite, history snapshots in
 * order. */
/* strverscmp() is GNU, not POSIX: the build's _POSIX_C_SOURCE alone hides it. */
#define _GNU_SOURCE

#include "baseline_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct list {
    char **v;
    size_t n, cap;
};

static int push(struct list *l, char *s)
{
    if (!s)
        return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            free(s);
            return -1;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

void qqb_baseline_free_list(char **list, size_t n)
{
    if (!list)
        return;
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int qqb_baseline_find_others(const char *dir, const char *suite, const char *except_id, char ***ids,
                             size_t *n)
{
    struct list l = {NULL, 0, 0};
    struct dirent *de;
    DIR *d;

    *ids = NULL;
    *n = 0;
    if (!qqb__bl_plain_name(suite))
        return -1;
    if (!dir || !*dir)
        dir = "baselines";
    d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    while ((de = readdir(d)) != NULL) {
        char p[PATH_MAX];
        struct stat st;
        if (de->d_name[0] == '.' || !qqb__bl_plain_name(de->d_name) ||
            (except_id && !strcmp(de->d_name, except_id)))
            continue;
        if (snprintf(p, sizeof p, "%s/%s/%s.yaml", dir, de->d_name, suite) >= (int)sizeof p)
            continue;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (push(&l, strdup(de->d_name))) {
            closedir(d);
            qqb_baseline_free_list(l.v, l.n);
            return -1;
        }
    }
    closedir(d);
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, cmp_str);
    *ids = l.v;
    *n = l.n;
    return 0;
}

struct snap {
    char *date; /* NULL: unreadable, sorts last */
    char *label;
};

static int cmp_snap(const void *a, const void *b)
{
    const struct snap *x = a, *y = b;
    if (!x->date != !y->date)
        return x->date ? -1 : 1;
    if (x->date) {
        int c = strcmp(x->date, y->date);
        if (c)
            return c;
    }
    return qqb_label_cmp(x->label, y->label);
}

int qqb_label_cmp(const char *a, const char *b)
{
    return strverscmp(a, b);
}

/* Whether LABEL's file name (qqb_baseline_path's mapping) is the LLEN
 * bytes at LAB. */
static int label_leads_to(const char *label, const char *lab, size_t llen)
{
    size_t n = strlen(label);
    if (n != llen || n == 0 || n > MAX_LABEL)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (qqb__bl_label_file_char(label[i]) != lab[i])
            return 0;
    return 1;
}

int qqb_baseline_history(const char *dir, const char *suite, const char *fp_id, char ***labels,
                         size_t *n)
{
    char hdir[PATH_MAX];
    struct snap *s = NULL;
    size_t ns = 0, cap = 0, slen;
    struct dirent *de;
    DIR *d;
    int rc = 0;

    *labels = NULL;
    *n = 0;
    if (!qqb__bl_plain_name(suite) || !qqb__bl_plain_name(fp_id))
        return -1;
    if (!dir || !*dir)
        dir = "baselines";
    if (snprintf(hdir, sizeof hdir, "%s/%s/history", dir, fp_id) >= (int)sizeof hdir)
        return -1;
    d = opendir(hdir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    slen = strlen(suite);
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name, *lab;
        size_t len = strlen(name), llen;
        char p[PATH_MAX];
        if (len <= slen + 6 || strncmp(name, suite, slen) || name[slen] != '@' ||
            strcmp(name + len - 5, ".yaml"))
            continue;
        lab = name + slen + 1;
        llen = len - slen - 1 - 5;
        /* Only names qqb_baseline_path can make: "a@b@c.yaml" belongs to
         * suite "a@b", never to suite "a" with label "b@c". */
        int ok = 1;
        for (size_t i = 0; i < llen; i++)
            if (!qqb__bl_name_char(lab[i]))
                ok = 0;
        if (!ok)
            continue;
        if (snprintf(p, sizeof p, "%s/%s", hdir, name) >= (int)sizeof p)
            continue;
        if (ns == cap) {
            size_t nc = cap ? 2 * cap : 8;
            struct snap *v = realloc(s, nc * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            s = v;
            cap = nc;
        }
        s[ns].date = NULL;
        s[ns].label = NULL;
        char *inside = NULL;
        qqb__bl_peek_header(p, &s[ns].date, &inside);
        /* The label inside (the user's spelling, "../evil") when it leads
         * back to this file ("..__evil"); otherwise the file name's, so a
         * copy with another label is read as itself (and refused there),
         * never as the file its label names (history read that twice). */
        if (inside && label_leads_to(inside, lab, llen))
            s[ns].label = inside;
        else {
            free(inside);
            s[ns].label = strndup(lab, llen);
        }
        ns++;
        if (!s[ns - 1].label) {
            rc = -1;
            break;
        }
    }
    closedir(d);
    if (rc == 0 && ns > 1)
        qsort(s, ns, sizeof *s, cmp_snap);
    if (rc == 0 && ns) {
        *labels = malloc(ns * sizeof **labels);
        if (!*labels)
            rc = -1;
    }
    for (size_t i = 0; i < ns; i++) {
        free(s[i].date);
        if (rc == 0)
            (*labels)[i] = s[i].label;
        else
            free(s[i].label);
    }
    free(s);
    if (rc == 0)
        *n = ns;
    else
        *labels = NULL;
    return rc;
}
