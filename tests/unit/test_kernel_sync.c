/* test_kernel_sync.c - the sync kernel under MPI: barrier and horizon give the same spikes, and
 * every node records MessageBus::Sync. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qq_file.h"
#include "test.h"

static char out[1 << 14];
static const char *kdir;

static int run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    return pclose(p);
}

/* The word after "KEY " on a line of out[] ("" if none). */
static void field(const char *key, char *dst, size_t cap)
{
    size_t kl = strlen(key);
    dst[0] = '\0';
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, key, kl) == 0 && l[kl] == ' ') {
            sscanf(l + kl + 1, "%63s", dst);
            (void)cap;
            return;
        }
}

/* Run sync on NP ranks; fill digest and spikes; check its .qq file. */
static void run_sync(int np, const char *variant, const char *extra, char digest[64],
                     char spikes[64])
{
    char file[64], cmd[1024];
    snprintf(file, sizeof file, "sync_%d_%s.qq", np, variant);
    snprintf(cmd, sizeof cmd,
             "QQ_OUTPUT='%s' mpirun -np %d --oversubscribe '%s/sync' "
             "--variant %s --print %s",
             file, np, kdir, variant, extra);
    int rc = run(cmd);
    CHECK_INT_EQ(rc, 0);
    field("digest", digest, 64);
    field("spikes", spikes, 64);
    CHECK(digest[0] != '\0');

    struct qq_file *f = NULL;
    rc = qq_file_open(file, &f);
    CHECK_INT_EQ(rc, 0);
    if (rc == 0) {
        CHECK_INT_EQ(qq_file_nnodes(f), np);
        uint32_t nk = qq_file_nkeys(f), sync = UINT32_MAX;
        for (uint32_t k = 0; k < nk; k++)
            if (strcmp(qq_file_key(f, k)->name, "MessageBus::Sync") == 0)
                sync = k;
        CHECK(sync != UINT32_MAX);
        struct qq_key_summary *ks = calloc(nk, sizeof *ks);
        for (uint32_t node = 0; sync != UINT32_MAX && node < qq_file_nnodes(f); node++) {
            struct qq_node_summary ns;
            CHECK_INT_EQ(qq_file_summarize(f, node, &ns, ks), 0);
            /* One Sync interval per step on every node. */
            CHECK(ks[sync].hits > 0);
            CHECK_U64_EQ(ks[sync].unbalanced, 0);
            CHECK(ks[sync].intervals > 0);
        }
        free(ks);
    } else if (f) {
        fprintf(stderr, "%s\n", qq_file_errmsg(f));
    }
    qq_file_close(f);
}

static void compare(int np, const char *extra)
{
    char db[64], sb[64], dh[64], sh[64];
    run_sync(np, "barrier", extra, db, sb);
    run_sync(np, "horizon", extra, dh, sh);
    printf("  np %d %s: barrier %s (%s spikes), horizon %s (%s spikes)\n", np, extra, db, sb, dh,
           sh);
    CHECK_STR_EQ(db, dh);
    CHECK_STR_EQ(sb, sh);
    CHECK(atol(sb) > 0);
}

static void test_np2(void)
{
    compare(2, "--seed 3");
}
static void test_np4(void)
{
    compare(4, "--seed 4 --steps 600");
}
static void test_np4_short_delay(void)
{
    /* dt_min 1: the horizon is one step, the tightest case. */
    compare(4, "--seed 5 --steps 400 --min-delay 1 --delay-spread 3");
}

/* The firings received change the spikes: otherwise equal digests would
 * not show that delivery is right. */
static void test_input_matters(void)
{
    char d1[64], s1[64], d2[64], s2[64];
    run_sync(2, "horizon", "--seed 3", d1, s1);
    run_sync(2, "horizon", "--seed 3 --fanout 0", d2, s2);
    CHECK(strcmp(d1, d2) != 0);
}

int main(void)
{
    kdir = getenv("QQ_KERNEL_DIR");
    if (!kdir) {
        fprintf(stderr, "QQ_KERNEL_DIR is not set\n");
        return 1;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/sync", kdir);
    if (access(path, X_OK) != 0) {
        printf("skipped: %s not built (no MPI, so no libqq-mpi)\n", path);
        return TEST_SKIP_CODE;
    }
    if (system("mpirun --version >/dev/null 2>&1") != 0) {
        printf("skipped: no mpirun on this machine\n");
        return TEST_SKIP_CODE;
    }
    RUN(test_np2);
    RUN(test_np4);
    RUN(test_np4_short_delay);
    RUN(test_input_matters);
    return TEST_DONE();
}
