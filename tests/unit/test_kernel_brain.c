/* test_kernel_brain.c - the brain kernel's memory table: objects per type equal the sizes asked
 * for, in MemPrint and in the .qq file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "qq_file.h"
#include "test.h"

#define NTYPES 9
static const char *const types[NTYPES] = {"Brain",   "CellManager", "Cell",
                                          "Channel", "Compartment", "MessageMgr",
                                          "Report",  "Stimulus",    "Synapse"};

static char out[1 << 16];
static const char *kdir;

/* Run the brain kernel with ARGS, output file FILE; stdout into out[]. */
static int run_brain(const char *args, const char *file)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "QQ_OUTPUT='%s' '%s/brain' %s", file, kdir, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    return pclose(p);
}

/* The number after "KEY " at the start of a line of out[], or -1. */
static long field(const char *key)
{
    size_t kl = strlen(key);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, key, kl) == 0 && l[kl] == ' ')
            return strtol(l + kl + 1, NULL, 10);
    return -1;
}

/* MemPrint's row for NAME: size, created, deleted (first table). */
static int memprint_row(const char *name, long v[3])
{
    size_t nl = strlen(name);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, name, nl) == 0 && l[nl] == ' ')
            return sscanf(l + nl, "%ld %ld %ld", &v[0], &v[1], &v[2]) == 3 ? 0 : -1;
    return -1;
}

static const struct qq_mem_row *row(const struct qq_mem_table *t, const char *name)
{
    for (uint32_t i = 0; i < t->nrows; i++)
        if (t->rows[i].name && strcmp(t->rows[i].name, name) == 0)
            return &t->rows[i];
    return NULL;
}

static void check_brain(const char *args, const char *file, long mult, const long want[NTYPES])
{
    int rc = run_brain(args, file);
    CHECK_INT_EQ(rc, 0);
    CHECK(field("spikes") > 0);
    CHECK(field("firings") > 0);
    /* The model's firing rate: under 1% of synapses per step. */
    CHECK(field("firings") < field("synapses") * field("steps") / 100);
    CHECK_INT_EQ(field("synapses"), 10000 * mult);

    struct qq_file *f = NULL;
    rc = qq_file_open(file, &f);
    CHECK_INT_EQ(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s\n", f ? qq_file_errmsg(f) : "no memory");
        qq_file_close(f);
        return;
    }
    struct qq_mem_table t;
    CHECK_INT_EQ(qq_file_mem(f, 0, &t), 1);
    for (int i = 0; i < NTYPES; i++) {
        char key[64];
        snprintf(key, sizeof key, "sizeof %s", types[i]);
        long size = field(key);
        const struct qq_mem_row *r = row(&t, types[i]);
        CHECK(r != NULL);
        CHECK(size > 0);
        if (!r)
            continue;
        CHECK_U64_EQ(r->created, want[i]);
        CHECK_U64_EQ(r->deleted, 0);
        CHECK_U64_EQ(r->obj_size, size);
        CHECK_U64_EQ(r->obj_bytes, (uint64_t)want[i] * (uint64_t)size);
        long mp[3];
        CHECK_INT_EQ(memprint_row(types[i], mp), 0);
        CHECK_INT_EQ(mp[0], size);
        CHECK_INT_EQ(mp[1], want[i]);
        CHECK_INT_EQ(mp[2], 0);
    }
    /* MessageBus: no object, its 1 KB packet buffer. */
    const struct qq_mem_row *bus = row(&t, "MessageBus");
    CHECK(bus != NULL);
    if (bus) {
        CHECK_U64_EQ(bus->created, 0);
        CHECK_U64_EQ(bus->alloc_bytes, 1024);
    }
    /* Synapse firings in flight hold dynamic memory; all frees matched. */
    const struct qq_mem_row *syn = row(&t, "Synapse");
    if (syn) {
        CHECK(syn->allocs >= syn->frees);
        CHECK_U64_EQ(syn->double_frees, 0);
    }
    CHECK_U64_EQ(t.foreign_frees, 0);

    /* The timing keys are there and were hit every step. */
    uint32_t nk = qq_file_nkeys(f);
    struct qq_key_summary *ks = calloc(nk ? nk : 1, sizeof *ks);
    struct qq_node_summary ns;
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    const char *want_states[3] = {"update", "fire", "deliver"};
    for (int s = 0; s < 3; s++) {
        int found = 0;
        for (uint32_t k = 0; k < nk; k++) {
            const struct qq_key_info *ki = qq_file_key(f, k);
            if (ki && strcmp(ki->name, want_states[s]) == 0) {
                found = 1;
                CHECK_U64_EQ(ks[k].intervals, (uint64_t)field("steps"));
            }
        }
        CHECK(found);
    }
    free(ks);
    qq_file_close(f);
}

static void test_defaults(void)
{
    static const long want[NTYPES] = {1, 1, 100, 300, 100, 1, 1, 1, 10000};
    check_brain("--print --steps 300", "brain_default.qq", 1, want);
}

static void test_size2(void)
{
    static const long want[NTYPES] = {1, 1, 200, 600, 200, 1, 1, 1, 20000};
    check_brain("--print --size 2 --steps 200 --seed 5", "brain_size2.qq", 2, want);
}

static void test_deterministic(void)
{
    CHECK_INT_EQ(run_brain("--print --steps 300 --seed 9", "brain_det.qq"), 0);
    long d1 = field("spikes");
    char first[64];
    const char *p = strstr(out, "digest ");
    snprintf(first, sizeof first, "%.23s", p ? p : "");
    CHECK_INT_EQ(run_brain("--print --steps 300 --seed 9", "brain_det.qq"), 0);
    CHECK_INT_EQ(field("spikes"), d1);
    CHECK_STR_CONTAINS(out, first);
}

static void test_quiet_and_errors(void)
{
    CHECK_INT_EQ(run_brain("--steps 20", "brain_quiet.qq"), 0);
    CHECK_STR_EQ(out, "");
    int rc = run_brain("--cells 10 --compartments 5 2>/dev/null", "brain_bad.qq");
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    rc = run_brain("--variant nosuch 2>/dev/null", "brain_bad.qq");
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
}

int main(void)
{
    kdir = getenv("QQ_KERNEL_DIR");
    if (!kdir) {
        fprintf(stderr, "QQ_KERNEL_DIR is not set\n");
        return 1;
    }
    RUN(test_defaults);
    RUN(test_size2);
    RUN(test_deterministic);
    RUN(test_quiet_and_errors);
    return TEST_DONE();
}
