/* test_qq_reader_stream.c - a streamed file reads as the whole file does: figures, errors, chunks.
 */
#define QQ_ENABLE 1
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "craft.h"
#include "qq.h"
#include "qq_file.h"
#include "qq_internal.h"
#include "test.h"

#include "qq_mem.h" /* last: it redirects malloc & co */

/* Chunk sizes that put boundaries everywhere: one entry, a few, not a
 * multiple of 24, and the default. */
static const size_t chunks[] = {24, 72, 1000, 4096, (size_t)1 << 18};
#define NCHUNKS (sizeof chunks / sizeof chunks[0])

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
    return test_rand(&rng);
}

static void write_file(const char *path, const unsigned char *p, size_t len)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (!fp)
        exit(1);
    CHECK(fwrite(p, 1, len, fp) == len);
    fclose(fp);
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        exit(1);
    fseek(fp, 0, SEEK_END);
    *len = (size_t)ftell(fp);
    rewind(fp);
    unsigned char *p = (malloc)(*len ? *len : 1);
    if (fread(p, 1, *len, fp) != *len)
        exit(1);
    fclose(fp);
    return p;
}

/* ----------------------------------------------------------------------
 * The reader before streaming, kept as the oracle: a summary and the hit
 * stats of a node from its whole entry array, with a full sort for the
 * estimator.
 * ---------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double ref_per_hit(double *v, size_t n, double short_ticks, double step, int *rule,
                          size_t *kept)
{
    *rule = QQ_HIT_NONE;
    *kept = 0;
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    if (med < short_ticks) {
        double fence = 4.0 * med + 16.0 * step, sum = 0;
        size_t k = 0;
        while (k < n && v[k] <= fence)
            sum += v[k++];
        *rule = QQ_HIT_MEAN;
        *kept = k;
        return sum / (double)k;
    }
    *kept = n;
    *rule = n >= 10 ? QQ_HIT_P10 : QQ_HIT_MEDIAN;
    return n >= 10 ? v[n / 10] : med;
}

/* Per key: hits, intervals, ticks on, unbalanced, sums and extremes, and
 * the per-hit figures; compared with the reader's field by field. */
static void ref_check_node(const struct qq_file *whole, uint32_t node,
                           const struct qq_node_summary *ns, const struct qq_key_summary *ks,
                           const struct qq_hit_stat *hs)
{
    uint32_t nk = qq_file_nkeys(whole);
    const struct qq_node_info *ni = qq_file_node(whole, node);
    const struct qq_event *e = qq_file_entries(whole, node);
    uint64_t *open = calloc(nk + 1, sizeof *open);
    int *on = calloc(nk + 1, sizeof *on);
    double **iv = calloc(nk + 1, sizeof *iv);
    size_t *niv = calloc(nk + 1, sizeof *niv);
    struct qq_key_summary *r = calloc(nk + 1, sizeof *r);
    uint64_t state_events = 0;
    for (uint32_t k = 0; k < nk; k++)
        iv[k] = calloc(ni->entries + 1, sizeof **iv);
    for (uint64_t j = 0; j < ni->entries; j++) {
        uint32_t k = e[j].key;
        r[k].hits++;
        uint32_t t = qq_file_key(whole, k)->type;
        if (t == QQ_TYPE_STATE) {
            state_events++;
            if (e[j].info.i) {
                if (on[k])
                    r[k].unbalanced++;
                else {
                    on[k] = 1;
                    open[k] = e[j].tick;
                }
            } else if (!on[k]) {
                r[k].unbalanced++;
            } else {
                on[k] = 0;
                r[k].intervals++;
                r[k].state_ticks += e[j].tick - open[k];
                iv[k][niv[k]++] = (double)(e[j].tick - open[k]);
            }
        } else if (t == QQ_TYPE_COUNT) {
            r[k].isum += e[j].info.i; /* small values here: no overflow */
            if (r[k].hits == 1 || e[j].info.i < r[k].imin)
                r[k].imin = e[j].info.i;
            if (r[k].hits == 1 || e[j].info.i > r[k].imax)
                r[k].imax = e[j].info.i;
        } else if (t == QQ_TYPE_VALUE) {
            r[k].dsum += e[j].info.d;
            if (r[k].hits == 1 || e[j].info.d < r[k].dmin)
                r[k].dmin = e[j].info.d;
            if (r[k].hits == 1 || e[j].info.d > r[k].dmax)
                r[k].dmax = e[j].info.d;
        }
    }
    CHECK_U64_EQ(ns->state_events, state_events);
    CHECK_U64_EQ(ns->first_tick, ni->entries ? e[0].tick : 0);
    CHECK_U64_EQ(ns->last_tick, ni->entries ? e[ni->entries - 1].tick : 0);
    struct qq_calib cal;
    int have = qq_file_calib(whole, node, &cal);
    const char *ms = qq_file_meta(whole, "tick_step");
    double step = have && cal.step > 0 ? cal.step : (ms ? strtod(ms, NULL) : 0);
    for (uint32_t k = 0; k < nk; k++) {
        CHECK_U64_EQ(ks[k].hits, r[k].hits);
        CHECK_U64_EQ(ks[k].intervals, r[k].intervals);
        CHECK_U64_EQ(ks[k].state_ticks, r[k].state_ticks);
        CHECK_U64_EQ(ks[k].unbalanced, r[k].unbalanced + (uint64_t)on[k]);
        CHECK(ks[k].isum == r[k].isum && ks[k].imin == r[k].imin && ks[k].imax == r[k].imax);
        CHECK(ks[k].dsum == r[k].dsum && ks[k].dmin == r[k].dmin && ks[k].dmax == r[k].dmax);
        int rule;
        size_t kept;
        double sum = 0;
        for (size_t i = 0; i < niv[k]; i++)
            sum += iv[k][i];
        double raw = ref_per_hit(iv[k], niv[k], qq_short_ticks(ni->mhz, step), step, &rule, &kept);
        CHECK_U64_EQ(hs[k].intervals, niv[k]);
        CHECK_U64_EQ(hs[k].kept, kept);
        CHECK_INT_EQ(hs[k].rule, rule);
        CHECK(hs[k].raw == raw);
        /* A key without intervals has no figures at all. */
        CHECK(hs[k].net == (niv[k] ? raw - (have ? cal.empty_typical : 0) : 0));
        CHECK(niv[k] == 0 || hs[k].mean == sum / (double)niv[k]);
        free(iv[k]);
    }
    free(open);
    free(on);
    free(iv);
    free(niv);
    free(r);
}

/* PATH read whole (the oracle's entries) and streamed at every chunk size:
 * the same node summaries and hit stats, the same entries in chunks. */
static void check_same(const char *path)
{
    struct qq_file *whole;
    CHECK_INT_EQ(qq_file_open(path, &whole), 0);
    uint32_t nk = qq_file_nkeys(whole), nn = qq_file_nnodes(whole);
    struct qq_key_summary *ks = calloc(nk + 1, sizeof *ks), *ks2 = calloc(nk + 1, sizeof *ks2);
    struct qq_hit_stat *hs = calloc(nk + 1, sizeof *hs), *hs2 = calloc(nk + 1, sizeof *hs2);
    for (size_t c = 0; c < NCHUNKS; c++) {
        qq__read_chunk = chunks[c];
        struct qq_file *f;
        CHECK_INT_EQ(qq_file_open_stream(path, &f), 0);
        CHECK_INT_EQ(qq_file_nnodes(f), nn);
        CHECK_INT_EQ(qq_file_nkeys(f), nk);
        for (uint32_t n = 0; n < nn; n++) {
            CHECK(qq_file_entries(f, n) == NULL);
            struct qq_node_summary ns, ns2;
            CHECK_INT_EQ(qq_file_node_stats(f, n, &ns, ks, hs), 0);
            ref_check_node(whole, n, &ns, ks, hs);
            /* The separate calls, on either file, agree with the one pass. */
            CHECK_INT_EQ(qq_file_summarize(whole, n, &ns2, ks2), 0);
            CHECK(memcmp(&ns, &ns2, sizeof ns) == 0);
            CHECK(memcmp(ks, ks2, nk * sizeof *ks) == 0);
            CHECK_INT_EQ(qq_file_hit_stats(f, n, hs2), 0);
            CHECK(memcmp(hs, hs2, nk * sizeof *hs) == 0);
            struct qq_mem_table m1, m2;
            CHECK_INT_EQ(qq_file_mem(f, n, &m1), qq_file_mem(whole, n, &m2));
            CHECK_INT_EQ(m1.nrows, m2.nrows);
            struct qq_calib c1, c2;
            CHECK_INT_EQ(qq_file_calib(f, n, &c1), qq_file_calib(whole, n, &c2));
            CHECK(memcmp(&c1, &c2, sizeof c1) == 0);
            /* The chunks, end to end, are the entries. */
            struct qq_chunks *ch;
            const struct qq_event *e;
            size_t m, chunks_seen = 0;
            uint64_t at = 0;
            int rc = qq_file_chunks_open(f, n, &ch);
            CHECK_INT_EQ(rc, 0);
            while (rc == 0 && (rc = qq_chunks_next(ch, &e, &m)) > 0) {
                CHECK(m >= 1 && at + m <= qq_file_node(f, n)->entries);
                CHECK(memcmp(e, qq_file_entries(whole, n) + at, m * sizeof *e) == 0);
                at += m;
                chunks_seen++;
                rc = 0;
            }
            qq_chunks_close(ch);
            CHECK_INT_EQ(rc, 0);
            CHECK_U64_EQ(at, qq_file_node(f, n)->entries);
            uint64_t per = chunks[c] / QQ__EVENT_SIZE ? chunks[c] / QQ__EVENT_SIZE : 1;
            CHECK_U64_EQ(chunks_seen, (at + per - 1) / per);
        }
        qq_file_close(f);
    }
    qq__read_chunk = (size_t)1 << 18;
    free(ks);
    free(ks2);
    free(hs);
    free(hs2);
    qq_file_close(whole);
}

/* A program's own file (META, KEYS, NODE, EVTS, CALB, MEMT), of 5000
 * entries: 120 KB, larger than every chunk size but the default. */
static void make_program_file(const char *path)
{
    int mk = MemAddKey("blocks");
    MemAddObject(mk, NULL, 64);
    QQInit(6000);
    int s1 = QQAddState("s1"), s2 = QQAddState("s2"), c = QQAddCount("c");
    int v = QQAddValue("v"), m = QQAddMark("m");
    QQAddState("never");
    for (int i = 0; i < 1000; i++) {
        QQStateOn(s1);
        QQCount(c, i % 7 - 3);
        if (i % 97 == 0)
            QQStateOn(s1); /* unbalanced: on while on */
        QQStateOff(s1);
        QQStateOn(s2);
        QQValue(v, (double)(i % 13) * 0.25 - 1);
        if (i % 5)
            QQStateOff(s2); /* some left on: on while on next time */
        else
            QQMark(m);
    }
    CHECK_INT_EQ(qq_out(path, 0, 1), 0);
}

/* Three nodes of random entries (one empty), as an MPI merge lays them
 * out, with ticks far apart so that long intervals take the other rules. */
static void make_crafted_file(const char *path)
{
    const uint64_t n[3] = {3001, 0, 777};
    struct qq_event *ev[3];
    uint32_t nk = qq__keytab.n;
    for (int i = 0; i < 3; i++) {
        ev[i] = calloc(n[i] + 1, sizeof **ev);
        uint64_t tick = 1000;
        for (uint64_t j = 0; j < n[i]; j++) {
            uint32_t k = (uint32_t)(next_rand() % nk);
            tick += next_rand() % (i == 2 ? 100000 : 300);
            ev[i][j].key = k;
            ev[i][j].tick = tick;
            switch (qq__keytab.v[k].type) {
            case QQ_TYPE_STATE:
                ev[i][j].info.i = (int64_t)(next_rand() % 2);
                break;
            case QQ_TYPE_COUNT:
                ev[i][j].info.i = (int64_t)(next_rand() % 2001) - 1000;
                break;
            case QQ_TYPE_VALUE:
                ev[i][j].info.d = (double)(next_rand() % 1000) / 8.0;
                break;
            default:
                break;
            }
        }
    }
    size_t len;
    const struct qq_event *const evc[3] = {ev[0], ev[1], ev[2]};
    unsigned char *p = craft(3, evc, n, 0, &len);
    CHECK(p != NULL);
    if (p)
        write_file(path, p, len);
    (free)(p); /* craft's buffer: libc's malloc */
    for (int i = 0; i < 3; i++)
        free(ev[i]);
}

/* One node whose state keys take every path of the 32-bit interval
 * lengths: short ones counted in 32 bits, 1500 of 5000-8000 ticks (the
 * counts cannot give the median: selected as doubles), and lengths past
 * 2^32 ticks (kept as doubles from the first). */
static void make_wide_file(const char *path)
{
    int ks[3] = {QQAddState("w_short"), QQAddState("w_long"), QQAddState("w_huge")};
    const size_t per = 1500, n = 3 * 2 * per;
    struct qq_event *ev = calloc(n + 1, sizeof *ev);
    uint64_t tick = 1000;
    size_t j = 0;
    for (size_t i = 0; i < per; i++)
        for (int k = 0; k < 3; k++) {
            uint64_t len = k == 0         ? 40 + next_rand() % 30
                           : k == 1       ? 5000 + next_rand() % 3000
                           : i % 500 == 7 ? (UINT64_C(1) << 32) + next_rand() % 1000
                                          : 100 + next_rand() % 50;
            ev[j].key = (uint32_t)ks[k];
            ev[j].info.i = 1;
            ev[j++].tick = tick;
            tick += len;
            ev[j].key = (uint32_t)ks[k];
            ev[j].info.i = 0;
            ev[j++].tick = tick;
            tick += next_rand() % 10;
        }
    size_t len;
    const struct qq_event *const evc[1] = {ev};
    const uint64_t nn[1] = {n};
    unsigned char *p = craft(1, evc, nn, 0, &len);
    CHECK(p != NULL);
    if (p)
        write_file(path, p, len);
    (free)(p); /* craft's buffer: libc's malloc */
    free(ev);
}

static void test_same_as_whole(void)
{
    make_program_file("program.qq");
    check_same("program.qq");
    make_crafted_file("crafted.qq");
    check_same("crafted.qq");
    make_wide_file("wide.qq");
    check_same("wide.qq");
}

/* The estimator counts or selects where it sorted: the same figure, rule
 * and count on any input, quantised or not, with runs of equal values. */
static void test_per_hit_as_sorted(void)
{
    static double a[5000], b[5000];
    for (int trial = 0; trial < 3000; trial++) {
        size_t n = trial < 2500 ? (size_t)(1 + next_rand() % 60) : (size_t)(1 + next_rand() % 5000);
        double step = (double)(next_rand() % 30);
        /* Medians below and above the estimator's counting range (4096),
         * and now and then values that are not whole ticks. */
        double base = (double)(next_rand() % 6000) + (trial % 7 == 0 ? 0.5 : 0);
        for (size_t i = 0; i < n; i++) {
            double q = step > 0 ? step : 1;
            a[i] = base + q * (double)(next_rand() % 8);
            if (next_rand() % 50 == 0)
                a[i] += (double)(next_rand() % 100000); /* an interrupt */
            b[i] = a[i];
        }
        double short_ticks = trial % 2 ? 2600.0 : 10.0;
        int r1, r2;
        size_t k1, k2;
        double x1 = qq_per_hit(a, n, short_ticks, step, &r1, &k1);
        double x2 = ref_per_hit(b, n, short_ticks, step, &r2, &k2);
        CHECK(x1 == x2);
        CHECK_INT_EQ(r1, r2);
        CHECK_U64_EQ(k1, k2);
    }
    /* Sorted, reversed and constant inputs (a quickselect's bad cases). */
    for (int kind = 0; kind < 3; kind++) {
        size_t n = 5000;
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = kind == 0 ? (double)i : kind == 1 ? (double)(n - i) : 7.0;
        int r1, r2;
        size_t k1, k2;
        double x1 = qq_per_hit(a, n, 100, 1, &r1, &k1);
        double x2 = ref_per_hit(b, n, 100, 1, &r2, &k2);
        CHECK(x1 == x2);
        CHECK_INT_EQ(r1, r2);
        CHECK_U64_EQ(k1, k2);
    }
}

/* Open PATH read whole and streamed (every node's stats at chunk size
 * CHUNK): the same result code, and the same message. */
static void expect_same_error(const char *path, size_t chunk)
{
    struct qq_file *w, *s;
    int rw = qq_file_open(path, &w);
    qq__read_chunk = chunk;
    int rs = qq_file_open_stream(path, &s);
    uint32_t nk = rs == 0 ? qq_file_nkeys(s) : 0;
    struct qq_key_summary *ks = calloc(nk + 1, sizeof *ks);
    struct qq_hit_stat *hs = calloc(nk + 1, sizeof *hs);
    for (uint32_t n = 0; rs == 0 && n < qq_file_nnodes(s); n++) {
        struct qq_node_summary ns;
        rs = qq_file_node_stats(s, n, &ns, ks, hs);
    }
    qq__read_chunk = (size_t)1 << 18;
    CHECK_INT_EQ(rs, rw);
    if (rw != 0)
        CHECK_STR_EQ(qq_file_errmsg(s), qq_file_errmsg(w));
    free(ks);
    free(hs);
    qq_file_close(w);
    qq_file_close(s);
}

/* One damaged entry at every position of a node, so that it falls at the
 * start, middle and end of chunks and in the last, short one; every kind
 * of entry damage; every truncation of a small file. */
static void test_damage_at_chunk_boundaries(void)
{
    size_t len;
    unsigned char *good = read_file("program.qq", &len);
    struct qq_file *f;
    CHECK_INT_EQ(qq_file_open("program.qq", &f), 0);
    const struct qq_node_info *ni = qq_file_node(f, 0);
    uint64_t off = ni->offset, entries = ni->entries;
    uint32_t nk = qq_file_nkeys(f), kstate = nk, kvalue = nk;
    for (uint32_t k = 0; k < nk; k++) {
        if (qq_file_key(f, k)->type == QQ_TYPE_STATE && kstate == nk)
            kstate = k;
        if (qq_file_key(f, k)->type == QQ_TYPE_VALUE)
            kvalue = k;
    }
    qq_file_close(f);
    unsigned char *bad = (malloc)(len);
    int cases = 0;
    for (uint64_t j = 0; j < entries; j += (j < 60 || entries - j < 60) ? 1 : 37) {
        for (int kind = 0; kind < 3; kind++) {
            memcpy(bad, good, len);
            unsigned char *e = bad + off + j * QQ__EVENT_SIZE;
            if (kind == 0) {
                qq__store_u32(e, nk + 3);
            } else if (kind == 1) {
                qq__store_u32(e, kstate);
                qq__store_u64(e + 8, 2);
            } else {
                double nan = NAN;
                uint64_t u;
                memcpy(&u, &nan, sizeof u);
                qq__store_u32(e, kvalue);
                qq__store_u64(e + 8, u);
            }
            write_file("bad.qq", bad, len);
            expect_same_error("bad.qq", chunks[(j + (uint64_t)kind) % 3]);
            cases++;
        }
    }
    for (size_t cut = 0; cut < len; cut += cut < 400 ? 1 : 997) {
        write_file("cut.qq", good, cut);
        expect_same_error("cut.qq", 72);
        cases++;
    }
    printf("  %d damaged files: the same error read whole and streamed\n", cases);
    (free)(bad);
    (free)(good);
}

/* A file cut short after it was opened: the chunk that meets the end says
 * so, naming the node and the entry. */
static void test_shrunk_after_open(void)
{
    size_t len;
    unsigned char *good = read_file("program.qq", &len);
    for (size_t c = 0; c < 3; c++) {
        write_file("shrink.qq", good, len);
        qq__read_chunk = chunks[c];
        struct qq_file *f;
        CHECK_INT_EQ(qq_file_open_stream("shrink.qq", &f), 0);
        const struct qq_node_info *ni = qq_file_node(f, 0);
        CHECK_INT_EQ(truncate("shrink.qq", (off_t)(ni->offset + 1234 * QQ__EVENT_SIZE + 5)), 0);
        struct qq_node_summary ns;
        struct qq_key_summary ks[16];
        CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), QQ_ETRUNCATED);
        CHECK_STR_CONTAINS(qq_file_errmsg(f), "shrink.qq: truncated: node 0's entries stop at");
        CHECK_STR_CONTAINS(qq_file_errmsg(f), "shrank after it was opened");
        qq_file_close(f);
    }
    qq__read_chunk = (size_t)1 << 18;
    (free)(good);
}

/* One entry by its index: the entry itself from a file read whole and from
 * a streamed one; an index or node out of range refused; a damaged entry
 * refused with the message the whole file's open gives; a file that shrank
 * after it was opened said to be truncated. */
static void test_entry_at(void)
{
    struct qq_file *whole, *f;
    CHECK_INT_EQ(qq_file_open("crafted.qq", &whole), 0);
    CHECK_INT_EQ(qq_file_open_stream("crafted.qq", &f), 0);
    struct qq_event e, w;
    for (uint32_t n = 0; n < qq_file_nnodes(f); n++) {
        uint64_t entries = qq_file_node(f, n)->entries;
        const struct qq_event *all = qq_file_entries(whole, n);
        for (uint64_t j = 0; j < entries; j += j < 10 || entries - j < 10 ? 1 : 97) {
            CHECK_INT_EQ(qq_file_entry_at(f, n, j, &e), 0);
            CHECK_INT_EQ(qq_file_entry_at(whole, n, j, &w), 0);
            CHECK(memcmp(&e, &all[j], sizeof e) == 0);
            CHECK(memcmp(&w, &all[j], sizeof w) == 0);
        }
        CHECK_INT_EQ(qq_file_entry_at(f, n, entries, &e), QQ_EINVAL);
        CHECK_STR_CONTAINS(qq_file_errmsg(f), "entries, no entry");
        CHECK_INT_EQ(qq_file_entry_at(whole, n, entries, &w), QQ_EINVAL);
        CHECK(e.tick == 0 && e.key == 0); /* zeroed on failure */
    }
    CHECK_INT_EQ(qq_file_entry_at(f, 3, 0, &e), QQ_EINVAL);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "crafted.qq: no node 3 (the file has 3)");
    CHECK_INT_EQ(qq_file_entry_at(f, UINT32_MAX, 0, &e), QQ_EINVAL);
    qq_file_close(f);

    /* Entry 700 of node 2 damaged: the file read whole is refused at open;
     * streamed, the entry is refused when it is read, with the same
     * message, and its neighbours are read. */
    size_t len;
    unsigned char *bytes = read_file("crafted.qq", &len);
    const struct qq_node_info *ni = qq_file_node(whole, 2);
    qq__store_u32(bytes + ni->offset + 700 * QQ__EVENT_SIZE, qq_file_nkeys(whole) + 5);
    write_file("bad_entry.qq", bytes, len);
    struct qq_file *bad;
    CHECK(qq_file_open("bad_entry.qq", &bad) == QQ_ECORRUPT);
    char want[512];
    snprintf(want, sizeof want, "%s", qq_file_errmsg(bad));
    qq_file_close(bad);
    CHECK_INT_EQ(qq_file_open_stream("bad_entry.qq", &f), 0);
    CHECK_INT_EQ(qq_file_entry_at(f, 2, 699, &e), 0);
    CHECK_INT_EQ(qq_file_entry_at(f, 2, 701, &e), 0);
    CHECK_INT_EQ(qq_file_entry_at(f, 2, 700, &e), QQ_ECORRUPT);
    CHECK_STR_EQ(qq_file_errmsg(f), want);
    CHECK_STR_CONTAINS(want, "node 2: entry 700 has key");
    qq_file_close(f);

    /* The file cut inside node 2's entry 500 after it was opened. */
    write_file("cut_entry.qq", bytes, len);
    CHECK_INT_EQ(qq_file_open_stream("cut_entry.qq", &f), 0);
    CHECK_INT_EQ(truncate("cut_entry.qq", (off_t)(ni->offset + 500 * QQ__EVENT_SIZE + 7)), 0);
    CHECK_INT_EQ(qq_file_entry_at(f, 2, 499, &e), 0);
    CHECK_INT_EQ(qq_file_entry_at(f, 2, 500, &e), QQ_ETRUNCATED);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "cut_entry.qq: truncated: node 2's entry 500 of 777");
    CHECK_INT_EQ(qq_file_entry_at(f, 2, 776, &e), QQ_ETRUNCATED);
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "entry 776 of 777");
    CHECK_STR_CONTAINS(qq_file_errmsg(f), "shrank after it was opened");
    qq_file_close(f);
    (free)(bytes);
    qq_file_close(whole);
}

int main(void)
{
    RUN(test_same_as_whole);
    RUN(test_per_hit_as_sorted);
    RUN(test_damage_at_chunk_boundaries);
    RUN(test_shrunk_after_open);
    RUN(test_entry_at);
    return TEST_DONE();
}
