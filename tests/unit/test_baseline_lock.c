/* test_baseline_lock.c - the baseline lock file is never reached through a symbolic link. */
#define _DEFAULT_SOURCE /* symlink, mkdtemp */

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "test.h"

/* The smallest result a baseline write accepts. */
static void make_result(struct qqb_results *r)
{
    memset(r, 0, sizeof *r);
    r->suite = strdup("lock");
    r->date = strdup("2026-11-22T22:47:01Z");
    r->version = strdup("0.1.0");
    snprintf(r->fp.cpu, sizeof r->fp.cpu, "test cpu");
    r->fp.mhz = 2100;
    r->fp.cores = 2;
    snprintf(r->fp.compiler, sizeof r->fp.compiler, "GNU 12.2.0");
    snprintf(r->fp.flags, sizeof r->fp.flags, "Release");
    snprintf(r->fp.id, sizeof r->fp.id, "x86_64-2cpu-00000000");
    struct qqb_case_result *c = qqb_results_case(r, "k@1");
    c->bench = strdup("k");
    c->nodes = 1;
    qqb_metric_add(qqb_case_metric(c, "s", "per_hit"), 100.0);
}

/* PATH.lock is a dangling symbolic link: the write is refused with a
 * message, and the link's target is not created. */
static void test_dangling_lock_link(void)
{
    char dir[] = "locktest.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], lock[300], target[300];
    snprintf(path, sizeof path, "%s/lock.yaml", dir);
    snprintf(lock, sizeof lock, "%s.lock", path);
    snprintf(target, sizeof target, "%s/elsewhere", dir);
    CHECK_INT_EQ(symlink("elsewhere", lock), 0);

    struct qqb_results r;
    make_result(&r);
    char err[512] = "";
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), -2);
    CHECK_STR_CONTAINS(err, "lock.yaml.lock");
    CHECK_STR_CONTAINS(err, "symbolic link");
    struct stat st;
    CHECK(lstat(target, &st) != 0 && errno == ENOENT);
    CHECK(lstat(path, &st) != 0 && errno == ENOENT);
    CHECK(lstat(lock, &st) == 0 && S_ISLNK(st.st_mode));

    /* The same with a link to an existing file: neither followed. */
    FILE *fp = fopen(target, "w");
    fputs("keep\n", fp);
    fclose(fp);
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), -2);
    CHECK_STR_CONTAINS(err, "symbolic link");

    /* Without the link, the write goes through. */
    unlink(lock);
    err[0] = '\0';
    CHECK_INT_EQ(qqb_baseline_write(path, &r, err, sizeof err), 0);
    CHECK_STR_EQ(err, "");
    qqb_results_free(&r);
    unlink(path);
    unlink(lock);
    unlink(target);
    rmdir(dir);
}

int main(void)
{
    RUN(test_dangling_lock_link);
    return TEST_DONE();
}
