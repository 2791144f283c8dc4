/* test_trace_stream.c - export and view read a streamed file through one cursor (qqb_events): the
 * same entries and the same output at any chunk size as the file read whole; a damaged entry past
 * the first chunk, or a failed write, leaves no output behind and says what the whole file's open
 * said. */
#define _DEFAULT_SOURCE /* symlink */
#define QQ_ENABLE       1
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "craft.h"
#include "qq.h"
#include "qq_file.h"
#include "test.h"
#include "trace.h"

static int kstep, ksync, ktick, kqueue, kvalue, kodd;

/* Chunk sizes that put boundaries everywhere: one entry, a few, not a
 * multiple of 24, and more than any node here (each node one chunk: its
 * entries as one array, as a file read whole gives them). */
static const size_t chunks[] = {24, 72, 1000, (size_t)1 << 30};
#define NCHUNKS (sizeof chunks / sizeof chunks[0])

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void)
{
    return test_rand(&rng);
}

/* NNODES nodes of N[i] random entries over every kind of key: states on
 * and off (some left on, some off while off), marks, counts, values. */
static void make_file(const char *path, uint32_t nnodes, const uint64_t *n)
{
    const int keys[] = {kstep, ksync, ktick, kqueue, kvalue, kodd};
    struct qq_event *ev[4];
    for (uint32_t i = 0; i < nnodes; i++) {
        ev[i] = calloc(n[i] + 1, sizeof **ev);
        uint64_t tick = 1000 + 37 * i;
        for (uint64_t j = 0; j < n[i]; j++) {
            int k = keys[next_rand() % 6];
            tick += next_rand() % 5000;
            ev[i][j].key = (uint32_t)k;
            ev[i][j].tick = tick;
            if (k == kvalue)
                ev[i][j].info.d = (double)(int64_t)(next_rand() % 20001 - 10000) / 16.0;
            else if (k == kqueue)
                ev[i][j].info.i = (int64_t)(next_rand() % 2001) - 1000;
            else if (k == kstep || k == ksync)
                ev[i][j].info.i = (int64_t)(next_rand() % 2);
        }
    }
    const struct qq_event *const evc[4] = {ev[0], nnodes > 1 ? ev[1] : NULL,
                                           nnodes > 2 ? ev[2] : NULL, nnodes > 3 ? ev[3] : NULL};
    CHECK_INT_EQ(craft_file(path, nnodes, evc, n), 0);
    for (uint32_t i = 0; i < nnodes; i++)
        free(ev[i]);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        *len = 0;
        return NULL;
    }
    fseek(fp, 0, SEEK_END);
    *len = (size_t)ftell(fp);
    rewind(fp);
    char *p = malloc(*len + 1);
    if (p && fread(p, 1, *len, fp) != *len) {
        free(p);
        p = NULL;
    }
    if (p)
        p[*len] = '\0';
    fclose(fp);
    return p;
}

/* 1 when files A and B hold the same bytes. */
static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *pa = slurp(a, &la), *pb = slurp(b, &lb);
    int same = pa && pb && la == lb && memcmp(pa, pb, la) == 0;
    free(pa);
    free(pb);
    return same;
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

/* Run CMD in-process with ARGV (NULL-terminated), its standard output into
 * "run.out" and its standard error into "run.err". Returns its status. */
static int run(int (*cmd)(int, char **), char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(NULL);
    int so = dup(1), se = dup(2);
    int fo = open("run.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open("run.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (so < 0 || se < 0 || fo < 0 || fe < 0)
        exit(1);
    dup2(fo, 1);
    dup2(fe, 2);
    close(fo);
    close(fe);
    int rc = cmd(argc, argv);
    fflush(NULL);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    return rc;
}

/* What qq_file_open (the file read whole, checked at open) says of PATH. */
static void whole_error(const char *path, char *msg, size_t len)
{
    struct qq_file *w;
    CHECK(qq_file_open(path, &w) != 0);
    snprintf(msg, len, "%s", qq_file_errmsg(w));
    qq_file_close(w);
}

/* ---------------------------------------------------------------------- */

/* The cursor hands out every entry in order, at every chunk size, from a
 * streamed file and from one read whole; a node out of range is refused. */
static void test_cursor(void)
{
    struct qq_file *whole;
    CHECK_INT_EQ(qq_file_open("multi.qq", &whole), 0);
    for (size_t c = 0; c <= NCHUNKS; c++) {
        qq__read_chunk = c < NCHUNKS ? chunks[c] : (size_t)1 << 18;
        struct qq_file *f;
        CHECK_INT_EQ(qq_file_open_stream("multi.qq", &f), 0);
        for (int w = 0; w < 2; w++) {
            const struct qq_file *src = w ? whole : f;
            for (uint32_t n = 0; n < qq_file_nnodes(src); n++) {
                const struct qq_event *all = qq_file_entries(whole, n), *e;
                uint64_t i = 0, entries = qq_file_node(src, n)->entries;
                struct qqb_events it;
                CHECK_INT_EQ(qqb_events_open(src, n, &it), 0);
                while ((e = qqb_events_next(&it))) {
                    CHECK(i < entries && memcmp(e, &all[i], sizeof *e) == 0);
                    i++;
                }
                CHECK(qqb_events_next(&it) == NULL); /* the end stays the end */
                CHECK_INT_EQ(qqb_events_close(&it), 0);
                CHECK_U64_EQ(i, entries);
            }
        }
        struct qqb_events it;
        CHECK_INT_EQ(qqb_events_open(f, 9, &it), QQ_EINVAL);
        CHECK(qqb_events_next(&it) == NULL);
        CHECK_INT_EQ(qqb_events_close(&it), QQ_EINVAL);
        CHECK_STR_CONTAINS(qq_file_errmsg(f), "no node 9");
        qq_file_close(f);
    }
    qq__read_chunk = (size_t)1 << 18;
    qq_file_close(whole);
}

/* The CSV the file read whole gives: every entry of qq_file_entries, in
 * the format export documents. */
static void csv_quoted(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++)
        fprintf(fp, *s == '"' ? "\"\"" : "%c", *s);
    fputc('"', fp);
}

static void csv_reference(const char *path, const char *out)
{
    struct qq_file *w;
    struct qqb_trace t;
    char err[512];
    CHECK_INT_EQ(qq_file_open(path, &w), 0);
    CHECK_INT_EQ(qqb_trace_open(&t, path, err, sizeof err), 0);
    FILE *fp = fopen(out, "w");
    fprintf(fp, "node,key,type,info,tick,seconds,run_seconds,thread,tid\n");
    for (uint32_t n = 0; n < qq_file_nnodes(w); n++) {
        const struct qq_event *e = qq_file_entries(w, n);
        for (uint64_t i = 0; i < qq_file_node(w, n)->entries; i++) {
            const struct qq_key_info *k = qq_file_key(w, e[i].key);
            fprintf(fp, "%u,", qq_file_node(w, n)->node);
            csv_quoted(fp, k->name);
            fprintf(fp, ",%s,", qqb_trace_type_name(k->type));
            if (k->type == QQ_TYPE_VALUE)
                fprintf(fp, "%.17g", e[i].info.d);
            else
                fprintf(fp, "%" PRId64, e[i].info.i);
            fprintf(fp, ",%" PRIu64 ",%.9f,%.9f,", e[i].tick, qqb_trace_node_sec(&t, n, e[i].tick),
                    qqb_trace_sec(&t, n, e[i].tick));
            /* The thread whose block [first, first + events) holds entry i. */
            const struct qq_thread_info *ti = NULL;
            for (uint32_t th = 0; th < qq_file_nthreads(w, n); th++) {
                const struct qq_thread_info *x = qq_file_thread(w, n, th);
                if (i >= x->first && i < x->first + x->events)
                    ti = x;
            }
            fprintf(fp, "%u,", ti ? ti->index : 0);
            if (ti && ti->tid)
                fprintf(fp, "%" PRIu64, ti->tid);
            fputc('\n', fp);
        }
    }
    fclose(fp);
    qqb_trace_close(&t);
    qq_file_close(w);
}

/* export, csv and chrome, whole and with a selection, and view's data: the
 * same bytes at every chunk size; the CSV the same as the file read whole
 * gives. */
static void test_same_output_any_chunk(void)
{
    csv_reference("multi.qq", "reference.csv");
    char *const views[] = {"view-nodes.dat", "view-states.dat", "view-events.dat", "view.gp"};
    for (size_t c = NCHUNKS; c-- > 0;) {
        /* The first run (one chunk per node) writes one.*, the others now.*. */
        int first = c == NCHUNKS - 1;
        char *json_out = first ? "one.json" : "now.json",
             *sel_out = first ? "one-sel.json" : "now-sel.json";
        char *view_out = first ? "one-view" : "now-view";
        qq__read_chunk = chunks[c];
        char *csv[] = {"export", "multi.qq", "--format", "csv", "--out", "now.csv", NULL};
        char *json[] = {"export", "multi.qq", "--format", "chrome", "--out", json_out, NULL};
        char *sel[] = {"export", "multi.qq", "--format", "chrome", "--nodes", "0,2",
                       "--keys", "step,V",   "--out",    sel_out,  NULL};
        char *view[] = {"view", "multi.qq", "--no-plot", "--out", view_out, NULL};
        CHECK_INT_EQ(run(cmd_export, csv), 0);
        CHECK(same_file("now.csv", "reference.csv"));
        CHECK_INT_EQ(run(cmd_export, json), 0);
        CHECK_INT_EQ(run(cmd_export, sel), 0);
        CHECK_INT_EQ(run(cmd_view, view), 0);
        if (first)
            continue;
        CHECK(same_file("now.json", "one.json"));
        CHECK(same_file("now-sel.json", "one-sel.json"));
        for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
            char a[64], b[64];
            snprintf(a, sizeof a, "now-view/%s", views[i]);
            snprintf(b, sizeof b, "one-view/%s", views[i]);
            CHECK(same_file(a, b));
        }
    }
    qq__read_chunk = (size_t)1 << 18;
    size_t len;
    char *text = slurp("one.json", &len);
    CHECK(text && len > 100000); /* thousands of events, not an empty trace */
    free(text);
}

/* A file of two nodes of 15,000 entries (two chunks each at the default
 * 256 KiB) whose node 1 has entry 12,000 damaged: past the first chunk,
 * after node 0 and a chunk of node 1 were exported. */
static void test_damaged_past_first_chunk(void)
{
    const uint64_t n[2] = {15000, 15000};
    make_file("late.qq", 2, n);
    size_t len;
    char *bytes = slurp("late.qq", &len);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("late.qq", &f), 0);
    uint64_t at = qq_file_node(f, 1)->offset + 12000 * QQ__EVENT_SIZE;
    uint32_t nk = qq_file_nkeys(f);
    qq_file_close(f);
    qq__store_u32((unsigned char *)bytes + at, nk + 2);
    FILE *fp = fopen("late.qq", "wb");
    CHECK(fp && fwrite(bytes, 1, len, fp) == len);
    if (fp)
        fclose(fp);
    free(bytes);
    char msg[512], want[600];
    whole_error("late.qq", msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "late.qq: node 1: entry 12000 has key");
    CHECK((uint64_t)12000 * QQ__EVENT_SIZE > qq__read_chunk);

    /* export: the message, exit 2, the old file as it was, no new file and
     * no temporary left. */
    write_text("kept.csv", "the previous export\n");
    for (int chrome = 0; chrome < 2; chrome++) {
        const char *outs[] = {"kept.csv", "fresh.out"};
        for (int o = 0; o < 2; o++) {
            char *argv[] = {"export", "late.qq",       "--format", chrome ? "chrome" : "csv",
                            "--out",  (char *)outs[o], NULL};
            CHECK_INT_EQ(run(cmd_export, argv), QQB_EXIT_USAGE);
            snprintf(want, sizeof want, "qqbench export: error: %s\n", msg);
            char *err = slurp("run.err", &len);
            CHECK_STR_EQ(err, want);
            free(err);
            CHECK_INT_EQ(test_temporaries(outs[o]), 0);
        }
        char *kept = slurp("kept.csv", &len);
        CHECK_STR_EQ(kept, "the previous export\n");
        free(kept);
        CHECK(access("fresh.out", F_OK) != 0);
    }
    /* To standard output: what was read before the damage may be there (as
     * st prints the nodes before a damaged one); the exit and the message
     * are the file's. */
    char *to_stdout[] = {"export", "late.qq", "--format", "csv", NULL};
    CHECK_INT_EQ(run(cmd_export, to_stdout), QQB_EXIT_USAGE);
    char *err = slurp("run.err", &len);
    CHECK_STR_EQ(err, want);
    free(err);

    /* view: the message, exit 2, no folder made. */
    char *view[] = {"view", "late.qq", "--no-plot", "--out", "late-view", NULL};
    CHECK_INT_EQ(run(cmd_view, view), QQB_EXIT_USAGE);
    snprintf(want, sizeof want, "qqbench view: error: %s\n", msg);
    err = slurp("run.err", &len);
    CHECK_STR_EQ(err, want);
    free(err);
    CHECK(access("late-view", F_OK) != 0);
    /* Only node 0, which is whole, is drawn. */
    char *view0[] = {"view", "late.qq", "--no-plot",       "--nodes",
                     "0",    "--out",   "late-node0-view", NULL};
    CHECK_INT_EQ(run(cmd_view, view0), 0);

    /* whatif: FILE: error: the message, exit 2, nothing on standard output. */
    char *whatif[] = {"whatif", "late.qq", "--scale", "step=0.5", "--waiting", "Sync", NULL};
    CHECK_INT_EQ(run(cmd_whatif, whatif), QQB_EXIT_USAGE);
    snprintf(want, sizeof want, "late.qq: error: %s\n", msg);
    err = slurp("run.err", &len);
    CHECK_STR_EQ(err, want);
    free(err);
    char *out = slurp("run.out", &len);
    CHECK(out && len == 0);
    free(out);
    /* ... and as the other run (--measured), named so. */
    char *measured[] = {"whatif", "multi.qq", "--scale", "step=0.5", "--measured", "late.qq", NULL};
    CHECK_INT_EQ(run(cmd_whatif, measured), QQB_EXIT_USAGE);
    err = slurp("run.err", &len);
    CHECK_STR_EQ(err, want);
    free(err);
    out = slurp("run.out", &len);
    CHECK(out && len == 0);
    free(out);
}

/* A file that shrinks after it was opened: the cursor stops where its
 * entries stop and says so. */
static void test_shrunk_after_open(void)
{
    const uint64_t n[2] = {3000, 3000};
    make_file("shrink.qq", 2, n);
    qq__read_chunk = 1000;
    struct qqb_trace t;
    char err[512];
    CHECK_INT_EQ(qqb_trace_open(&t, "shrink.qq", err, sizeof err), 0);
    const struct qq_node_info *ni = qq_file_node(t.f, 1);
    CHECK_INT_EQ(truncate("shrink.qq", (off_t)(ni->offset + 2000 * QQ__EVENT_SIZE + 3)), 0);
    struct qqb_events it;
    uint64_t seen = 0;
    qqb_events_open(t.f, 1, &it);
    while (qqb_events_next(&it))
        seen++;
    CHECK_INT_EQ(qqb_events_close(&it), QQ_ETRUNCATED);
    CHECK(seen < 2000 && seen + 1000 / QQ__EVENT_SIZE >= 2000); /* whole chunks only */
    CHECK_STR_CONTAINS(qq_file_errmsg(t.f), "shrink.qq: truncated: node 1's entries stop at entry");
    struct qq_event e;
    CHECK_INT_EQ(qq_file_entry_at(t.f, 1, 2999, &e), QQ_ETRUNCATED);
    qqb_trace_close(&t);
    qq__read_chunk = (size_t)1 << 18;
}

/* A write that fails halfway (a file-size limit: a full disk's error,
 * EFBIG) leaves --out F as it was: export writes a temporary beside F and
 * renames it into place only when the whole export is written. Exit 3, the
 * write's error said. Before, F was truncated at the start and left with
 * what fitted. */
static void test_failed_write_keeps_the_old_file(void)
{
    write_text("big.csv", "the previous export\n");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {64 * 1024, 64 * 1024};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(99);
        char *argv[] = {"export", "multi.qq", "--format", "csv", "--out", "big.csv", NULL};
        _exit(run(cmd_export, argv));
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK_INT_EQ(WEXITSTATUS(status), QQB_EXIT_KERNEL);
    size_t len;
    char *err = slurp("run.err", &len);
    CHECK_STR_EQ(err, "qqbench export: error: cannot write big.csv: File too large\n");
    free(err);
    char *kept = slurp("big.csv", &len);
    CHECK_STR_EQ(kept, "the previous export\n");
    free(kept);
    CHECK_INT_EQ(test_temporaries("big.csv"), 0);

    /* Through a symbolic link: the file it names is replaced, the link
     * stays a link. */
    write_text("target.csv", "old\n");
    unlink("link.csv");
    CHECK_INT_EQ(symlink("target.csv", "link.csv"), 0);
    char *argv[] = {"export", "multi.qq", "--format", "csv", "--out", "link.csv", NULL};
    CHECK_INT_EQ(run(cmd_export, argv), 0);
    struct stat st;
    CHECK(lstat("link.csv", &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(same_file("target.csv", "reference.csv"));
    CHECK_INT_EQ(test_temporaries("target.csv"), 0);
}

int main(void)
{
    QQInit(10);
    kstep = QQAddState("step");
    ksync = QQAddState("Sync");
    ktick = QQAddMark("tick");
    kqueue = QQAddCount("queue");
    kvalue = QQAddValue("V");
    kodd = QQAddMark("odd,\"name\"");
    /* Three nodes (one empty): 2000 and 1777 entries, tens of chunks each
     * at the small chunk sizes. */
    const uint64_t n[3] = {2000, 0, 1777};
    make_file("multi.qq", 3, n);
    RUN(test_cursor);
    RUN(test_same_output_any_chunk);
    RUN(test_damaged_past_first_chunk);
    RUN(test_shrunk_after_open);
    RUN(test_failed_write_keeps_the_old_file);
    return TEST_DONE();
}
