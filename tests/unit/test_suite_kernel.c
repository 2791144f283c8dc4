/* test_suite_kernel.c - suite/kernel.c, finding a benchmark's kernel: a bare name in the kernel
 * folder, a path from the suite's folder, an absolute path; made absolute with its folder
 * resolved and its own name kept (a link stays the link's name); refused, with where it was
 * looked for, when it is missing (a bare name says how to look elsewhere), not a regular file,
 * not executable, or a bare name with no kernel folder; a name's control characters never
 * printed raw. */
/* realpath() is XSI (as in kernel.c). */
#if !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite_int.h"
#include "test.h"

static char top[PATH_MAX], real_top[PATH_MAX], kdir[PATH_MAX + 16];

static void test_dir_of(void)
{
    static const struct {
        const char *path, *dir;
    } cases[] = {{"a/b/c", "a/b"}, {"c", "."}, {"/c", "/"}, {"/a/b", "/a"}, {"a/", "a"}, {"", "."}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *d = qqb__suite_dir_of(cases[i].path);
        CHECK_STR_EQ(d, cases[i].dir);
        free(d);
    }
}

/* Kernel K from the suite's folder SHOWN with kernel folder KD: its path,
 * or NULL with WHY. */
static char *find(const char *k, const char *shown, const char *kd, char *why, size_t n)
{
    char *path = (char *)1;
    why[0] = '\0';
    int rc = qqb__suite_kernel(k, shown, kd, &path, why, n);
    if (rc != 0 && path != NULL)
        TEST_FAIL_AT("%s: refused but a path was set", k);
    if (rc == 0 && why[0])
        TEST_FAIL_AT("%s: found but a reason was set: %s", k, why);
    return rc == 0 ? path : NULL;
}

static void test_found(void)
{
    char why[2048], want[PATH_MAX * 2];
    /* A bare name in the kernel folder: absolute, the folder resolved. */
    char *p = find("prog", ".", kdir, why, sizeof why);
    snprintf(want, sizeof want, "%s/kernels/prog", real_top);
    CHECK_STR_EQ(p, want);
    free(p);
    /* A path from the suite's folder, through "..": resolved. */
    p = find("kernels/../kernels/prog", top, NULL, why, sizeof why);
    CHECK_STR_EQ(p, want);
    free(p);
    p = find("./kernels/prog", top, NULL, why, sizeof why);
    CHECK_STR_EQ(p, want);
    free(p);
    /* A link keeps its own name (a program may care how it is called). */
    p = find("link", ".", kdir, why, sizeof why);
    snprintf(want, sizeof want, "%s/kernels/link", real_top);
    CHECK_STR_EQ(p, want);
    free(p);
    /* An absolute path: itself, its folder resolved. */
    p = find("/bin/sh", top, kdir, why, sizeof why);
    CHECK(p && p[0] == '/' && strlen(p) > 3 && !strcmp(p + strlen(p) - 3, "/sh"));
    free(p);
}

static void test_refused(void)
{
    char why[2048];
    CHECK(find("prog", ".", NULL, why, sizeof why) == NULL);
    CHECK_STR_EQ(why, "kernel 'prog' is a bare name but no kernel directory is known; write a "
                      "path such as './prog' (or set --kernels DIR or $QQBENCH_KERNELS)");
    CHECK(find("missing", ".", kdir, why, sizeof why) == NULL);
    CHECK_STR_CONTAINS(why, "kernel 'missing' (");
    CHECK_STR_CONTAINS(why, "does not exist; expected an executable program (bare names are "
                            "looked up in ");
    CHECK_STR_CONTAINS(why, "set --kernels DIR or $QQBENCH_KERNELS)");
    /* A path that is not there: no hint about bare names. */
    CHECK(find("kernels/missing", top, kdir, why, sizeof why) == NULL);
    CHECK_STR_CONTAINS(why, "does not exist; expected an executable program");
    CHECK(strstr(why, "bare names") == NULL);
    /* Through a file: not there either. */
    CHECK(find("kernels/prog/x", top, kdir, why, sizeof why) == NULL);
    CHECK_STR_CONTAINS(why, "does not exist");
    CHECK(find("sub", ".", kdir, why, sizeof why) == NULL);
    CHECK_STR_CONTAINS(why, "is not a regular file; expected an executable program");
    CHECK(find("data", ".", kdir, why, sizeof why) == NULL);
    CHECK_STR_CONTAINS(why, "is not executable");
    /* A name with an escape sequence: quoted, never raw. */
    CHECK(find("pr\x1b[2Jog", ".", kdir, why, sizeof why) == NULL);
    CHECK(strchr(why, '\x1b') == NULL);
    CHECK_STR_CONTAINS(why, "does not exist");
}

static int make(const char *name, const char *text, mode_t mode)
{
    char p[PATH_MAX + 40];
    snprintf(p, sizeof p, "%s/%s", kdir, name);
    FILE *f = fopen(p, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        return -1;
    return chmod(p, mode);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(top, sizeof top, "%s/test_suite_kernel.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(top) || !realpath(top, real_top)) {
        perror(top);
        return 1;
    }
    snprintf(kdir, sizeof kdir, "%s/kernels", top);
    char sub[PATH_MAX + 40], link[PATH_MAX + 40];
    snprintf(sub, sizeof sub, "%s/sub", kdir);
    snprintf(link, sizeof link, "%s/link", kdir);
    if (mkdir(kdir, 0755) != 0 || mkdir(sub, 0755) != 0 ||
        make("prog", "#!/bin/sh\nexit 0\n", 0755) != 0 || make("data", "1 2 3\n", 0644) != 0 ||
        symlink("prog", link) != 0) {
        perror(kdir);
        return 1;
    }
    RUN(test_dir_of);
    RUN(test_found);
    RUN(test_refused);
    char p[PATH_MAX + 40];
    snprintf(p, sizeof p, "%s/prog", kdir);
    unlink(p);
    snprintf(p, sizeof p, "%s/data", kdir);
    unlink(p);
    unlink(link);
    rmdir(sub);
    rmdir(kdir);
    rmdir(top);
    return TEST_DONE();
}
