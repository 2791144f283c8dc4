/* test_baseline_lock.c - the baseline lock file is never reached through a symbolic link, and
 * none is left behind. */
#define _DEFAULT_SOURCE /* symlink, mkdtemp */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* The bytes of PATH ("" when it does not exist), malloc'd. */
static char *contents(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return strdup("");
    char *buf = calloc(1, 1 << 16);
    if (buf)
        buf[fread(buf, 1, (1 << 16) - 1, fp)] = '\0';
    fclose(fp);
    return buf;
}

/* Hold PATH.lock in a child until it is killed; its pid. */
static pid_t hold_lock(const char *path)
{
    char lock[400];
    snprintf(lock, sizeof lock, "%s.lock", path);
    int ready[2];
    if (pipe(ready) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(lock, O_RDWR | O_CREAT, 0644);
        if (fd < 0 || flock(fd, LOCK_EX) != 0)
            _exit(1);
        (void)!write(ready[1], "x", 1);
        pause();
        _exit(0);
    }
    char c;
    close(ready[1]);
    if (read(ready[0], &c, 1) != 1)
        pid = -1;
    close(ready[0]);
    return pid;
}

/* Two baselines (a timing one and the memory one) are updated both or
 * neither: with either's lock held by another writer, neither file
 * changes (the memory lock refused left the timing baseline updated). */
static void test_update_both(void)
{
    char dir[] = "bothtest.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/x/lock.yaml", dir);
    snprintf(b, sizeof b, "%s/lock.memory.yaml", dir);
    struct qqb_results r;
    make_result(&r);
    char err[512] = "";
    CHECK_INT_EQ(qqb_baseline_update_both(a, &r, 5, b, &r, 1, err, sizeof err), 0);
    qqb_baseline_set_lock_timeout(0.2);
    for (int which = 0; which < 2; which++) {
        char *before_a = contents(a), *before_b = contents(b);
        pid_t holder = hold_lock(which ? a : b);
        CHECK(holder > 0);
        err[0] = '\0';
        CHECK_INT_EQ(qqb_baseline_update_both(a, &r, 5, b, &r, 1, err, sizeof err), -2);
        CHECK_STR_CONTAINS(err, which ? "x/lock.yaml.lock" : "lock.memory.yaml.lock");
        char *after_a = contents(a), *after_b = contents(b);
        CHECK_STR_EQ(after_a, before_a); /* neither written */
        CHECK_STR_EQ(after_b, before_b);
        kill(holder, SIGKILL);
        waitpid(holder, NULL, 0);
        free(before_a), free(before_b), free(after_a), free(after_b);
    }
    /* With the locks free both move on together: the timing one holds two
     * runs now. */
    CHECK_INT_EQ(qqb_baseline_update_both(a, &r, 5, b, &r, 1, err, sizeof err), 0);
    char *ta = contents(a);
    CHECK_STR_CONTAINS(ta, "runs: 2");
    free(ta);
    qqb_baseline_set_lock_timeout(QQB_BASELINE_LOCK_SECONDS);
    qqb_results_free(&r);
}

/* No PATH.lock is left beside a baseline once it is written or updated
 * (git add -A committed them); a writer that waited on a lock whose holder
 * removed the file locks the file at PATH.lock again, not the removed one. */
static void test_no_lock_left(void)
{
    char dir[] = "lefttest.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char a[256], b[256], la[300], lb[300];
    snprintf(a, sizeof a, "%s/x/lock.yaml", dir);
    snprintf(b, sizeof b, "%s/lock.memory.yaml", dir);
    snprintf(la, sizeof la, "%s.lock", a);
    snprintf(lb, sizeof lb, "%s.lock", b);
    struct qqb_results r;
    make_result(&r);
    char err[512] = "";
    struct stat st;
    CHECK_INT_EQ(qqb_baseline_write(a, &r, err, sizeof err), 0);
    CHECK(lstat(la, &st) != 0 && errno == ENOENT);
    CHECK_INT_EQ(qqb_baseline_update(a, &r, 5, err, sizeof err), 0);
    CHECK_INT_EQ(qqb_baseline_update_both(a, &r, 5, b, &r, 1, err, sizeof err), 0);
    CHECK(lstat(la, &st) != 0 && errno == ENOENT);
    CHECK(lstat(lb, &st) != 0 && errno == ENOENT);
    /* A holder that removes the lock file, then unlocks after the writer
     * began to wait: the writer gets a lock on a new file, and writes. */
    pid_t holder = hold_lock(a);
    CHECK(holder > 0);
    CHECK_INT_EQ(unlink(la), 0);
    pid_t writer = fork();
    if (writer == 0)
        _exit(qqb_baseline_update(a, &r, 5, err, sizeof err) == 0 ? 0 : 1);
    struct timespec ts = {0, 100L * 1000 * 1000};
    nanosleep(&ts, NULL);
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    int ws = -1;
    CHECK(waitpid(writer, &ws, 0) == writer && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    CHECK(lstat(la, &st) != 0 && errno == ENOENT);
    char *ta = contents(a);
    CHECK_STR_CONTAINS(ta, "runs: 4");
    free(ta);
    qqb_results_free(&r);
}

int main(void)
{
    RUN(test_dangling_lock_link);
    RUN(test_update_both);
    RUN(test_no_lock_left);
    return TEST_DONE();
}
