/* test_profile.c - machine profiles read back, and the signature x profile convolution. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "yamlcur.h"
#include "test.h"

/* A hand-written profile: two working sets, a flop rate, two message sizes. */
static const char PROFILE[] =
    "profile: 1\n"
    "timer:\n  tick_mhz: 2000.0\n"
    "memory:\n"
    "  # a comment\n"
    "  - bytes: 1024\n    bandwidth_gbps: 100\n    latency_ns: 1\n"
    "  - bytes: 1048576\n    bandwidth_gbps: 10\n    latency_ns: 100\n"
    "flops:\n  fma_chains: 8\n  gflops: 2.5\n"
    "mpi:\n  launcher: \"mpirun -np 2\"\n  ranks: 2\n  pingpong:\n"
    "    - bytes: 1\n      latency_us: 1.0\n      bandwidth_mbps: 1\n"
    "    - bytes: 1000\n      latency_us: 10.0\n      bandwidth_mbps: 100\n";

static void test_profile_parse(void)
{
    struct qqb_profile p;
    char err[300];
    CHECK_INT_EQ(qqb_profile_parse("p.yaml", PROFILE, strlen(PROFILE), &p, err, sizeof err), 0);
    CHECK_DBL_NEAR(p.tick_mhz, 2000, 0);
    CHECK_INT_EQ((int)p.nmem, 2);
    CHECK_DBL_NEAR(p.mem_bytes[1], 1048576, 0);
    CHECK_DBL_NEAR(p.mem_gbps[1], 10, 0);
    CHECK_DBL_NEAR(p.mem_ns[0], 1, 0);
    CHECK_DBL_NEAR(p.gflops, 2.5, 0);
    CHECK_INT_EQ((int)p.nmpi, 2);
    CHECK_DBL_NEAR(p.mpi_us[1], 10, 0);
    /* round trip through the run's JSON */
    json_t *j = qqb_profile_json(&p);
    struct qqb_profile q;
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), 0);
    CHECK_INT_EQ((int)q.nmpi, 2);
    CHECK_DBL_NEAR(q.mem_gbps[0], 100, 0);
    /* A run JSON's profile is a stranger's: a figure out of its range is
     * refused naming its field (one reached gnuplot, which named none). */
    json_t *mem = json_object_get(json_object_get(j, "memory"), "bytes");
    json_array_set_new(mem, 1, json_real(1e308));
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "memory.bytes[1]: 1e+308 is out of range");
    json_array_set_new(mem, 1, json_real(512)); /* smaller than the one before */
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "memory.bytes[1]: 512 is out of range");
    json_array_set_new(mem, 1, json_real(1048576));
    json_array_set_new(json_object_get(json_object_get(j, "mpi"), "one_way_us"), 0,
                       json_string("fast"));
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "mpi.one_way_us[0]: a value that is not a number is out of range");
    json_object_set_new(j, "gflops", json_real(-1));
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "gflops: -1 is out of range");
    json_decref(j);
    CHECK_INT_EQ(qqb_profile_from_json(NULL, &q, err, sizeof err), 1);
    /* "mpi: null" is a profile without MPI; no figures at all is none */
    const char *nompi = "memory:\n  - bytes: 1024\n    bandwidth_gbps: 1\nmpi: null\n";
    CHECK_INT_EQ(qqb_profile_parse("n.yaml", nompi, strlen(nompi), &p, err, sizeof err), 0);
    CHECK_INT_EQ((int)p.nmpi, 0);
    const char *none = "suite: x\n";
    CHECK_INT_EQ(qqb_profile_parse("x.yaml", none, strlen(none), &p, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "x.yaml:1:1: error: not a machine profile");
    /* any issue rate is a figure, as int_ns is: fp_ns alone was refused */
    const char *fp = "issue:\n  fp_ns: 0.5\n";
    CHECK_INT_EQ(qqb_profile_parse("f.yaml", fp, strlen(fp), &p, err, sizeof err), 0);
    CHECK_DBL_NEAR(p.fp_ns, 0.5, 0);
    const char *bad = "memory: [\n";
    CHECK_INT_EQ(qqb_profile_parse("b.yaml", bad, strlen(bad), &p, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "b.yaml:");
}

/* Strings written into a profile by hand go through libyaml's quoting: a
 * launcher with a quote and a backslash reads back (it made a profile every
 * later run refused as damaged), and the scalar is what YAML says. */
/* The levels and issue rates: written by qqb_profile_write from a
 * measured machine, read back figure for figure, through the run JSON too;
 * hostile bytes give one line naming the place. */
static void test_profile_levels_round_trip(void)
{
    struct qqb_machine m = {0};
    m.l1 = 32768;
    m.l2 = 524288;
    m.ns = 1;
    m.sizes[0] = 16384;
    m.bw[0] = 4e10;
    m.lat[0] = 1.5;
    m.fl = 2e9;
    m.int_ns = 0.25;
    m.fp_dep_ns = 2.5;
    m.seconds = 3;
    double lat[] = {1.5, 4.75, 40, 125}, thr[] = {0.125, 0.25, 1, 3.5};
    for (int l = 0; l < QQB_NLEVELS; l++) {
        m.level[l].bytes = l == 0 ? 32768 : l == 1 ? 524288 : l == 2 ? 1 << 25 : 0;
        m.level[l].set = (size_t)8192 << (4 * l);
        m.level[l].lat_ns = lat[l];
        m.level[l].thr_ns = thr[l];
    }
    char *text = NULL, err[300];
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK_INT_EQ(qqb_profile_write(fp, &m, 1, NULL, err, sizeof err), 0);
    fclose(fp);
    struct qqb_profile p, q;
    CHECK_INT_EQ(qqb_profile_parse("w.yaml", text, len, &p, err, sizeof err), 0);
    for (int l = 0; l < QQB_NLEVELS; l++) {
        CHECK_DBL_NEAR(p.level[l].lat_ns, lat[l], 0);
        CHECK_DBL_NEAR(p.level[l].thr_ns, thr[l], 0);
        CHECK_DBL_NEAR(p.level[l].set, (double)((size_t)8192 << (4 * l)), 0);
    }
    CHECK_DBL_NEAR(p.level[QQB_LEVEL_L2].bytes, 524288, 0);
    CHECK_DBL_NEAR(p.int_ns, 0.25, 0);
    CHECK_DBL_NEAR(p.fp_ns, 0.5, 0);
    CHECK_DBL_NEAR(p.fp_dep_ns, 2.5, 0);
    json_t *j = qqb_profile_json(&p);
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), 0);
    CHECK_DBL_NEAR(q.level[QQB_LEVEL_MEM].lat_ns, 125, 0);
    CHECK_DBL_NEAR(q.fp_dep_ns, 2.5, 0);
    json_object_set_new(json_object_get(json_object_get(j, "levels"), "ll"), "latency_ns",
                        json_real(-3));
    CHECK_INT_EQ(qqb_profile_from_json(j, &q, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "levels.ll.latency_ns: -3 is out of range");
    json_decref(j);
    /* a negative cost in the file: one line, naming the field */
    const char *neg = "levels:\n  l2:\n    latency_ns: -1\n    throughput_ns: 1\n";
    CHECK_INT_EQ(qqb_profile_parse("n.yaml", neg, strlen(neg), &p, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "n.yaml: error: levels.l2.latency_ns: -1 is out of range");
    /* every truncation and every flipped byte of the written profile: read,
     * or refused with one line that names the file */
    for (size_t k = 0; k < len; k++) {
        char *t = malloc(len);
        memcpy(t, text, len);
        t[k] = (char)(t[k] ^ (k % 2 ? 0x80 : 0x2d));
        int rc1 = qqb_profile_parse("h.yaml", t, len, &p, err, sizeof err);
        int ok = rc1 == 0 || (!strncmp(err, "h.yaml", 6) && !strchr(err, '\n'));
        int rc2 = qqb_profile_parse("h.yaml", text, k, &p, err, sizeof err);
        ok = ok && (rc2 == 0 || (!strncmp(err, "h.yaml", 6) && !strchr(err, '\n')));
        free(t);
        if (!ok) {
            CHECK(ok);
            break;
        }
    }
    free(text);
}

static void test_profile_quoted_launcher(void)
{
    char q[256], text[1024], err[300];
    const char *launcher = "env Q=a\"b\\c\tmpirun -np 2";
    CHECK_INT_EQ(qqb_yaml_quote(q, sizeof q, launcher), 0);
    CHECK_STR_EQ(q, "\"env Q=a\\\"b\\\\c\\tmpirun -np 2\"");
    snprintf(text, sizeof text,
             "profile: 1\nhost: %s\ntimer:\n  tick_mhz: 2000.0\n"
             "mpi:\n  launcher: %s\n  ranks: 2\n  pingpong:\n"
             "    - bytes: 1\n      latency_us: 1.0\n      bandwidth_mbps: 1\n",
             q, q);
    struct qqb_profile p;
    CHECK_INT_EQ(qqb_profile_parse("p.yaml", text, strlen(text), &p, err, sizeof err), 0);
    CHECK_INT_EQ((int)p.nmpi, 1);
    char small[8];
    CHECK_INT_EQ(qqb_yaml_quote(small, sizeof small, "far too long for it"), -1);
    CHECK_STR_EQ(small, "");
    CHECK_INT_EQ(qqb_yaml_quote(q, sizeof q, "\xff\xfe not UTF-8"), -1);
}

static void test_profile_predict(void)
{
    struct qqb_profile p;
    char err[300];
    CHECK_INT_EQ(qqb_profile_parse("p.yaml", PROFILE, strlen(PROFILE), &p, err, sizeof err), 0);
    double parts[QQB_NRES];
    enum qqb_sig_resource bound;
    /* 1e9 flops at 2.5 GFLOP/s: 0.4 s, flop-bound */
    struct qqb_signature s = {0};
    s.flops = 1e9;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, parts, &bound), 0.4, 1e-12);
    CHECK_INT_EQ((int)bound, (int)QQB_RES_FLOPS);
    /* bytes at a working set between the two sizes: log-log interpolation,
     * halfway in log size is sqrt(100 * 10) GB/s */
    memset(&s, 0, sizeof s);
    s.bytes = 1e9;
    s.working_set = 32768;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, parts, &bound), 1 / sqrt(1000.0), 1e-9);
    CHECK_INT_EQ((int)bound, (int)QQB_RES_MEMORY);
    /* beyond the table: the last size's rate */
    s.working_set = 1e12;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, NULL, NULL), 0.1, 1e-12);
    /* memory and flops overlap (the larger counts), messages add */
    s.working_set = 1048576; /* 0.1 s of memory */
    s.flops = 0.5e9;         /* 0.2 s of flops */
    s.messages = 100;
    s.message_bytes = 100 * 1000.0; /* 10 us each: 1 ms */
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, parts, &bound), 0.2 + 1e-3, 1e-12);
    CHECK_DBL_NEAR(parts[QQB_RES_MEMORY], 0.1, 1e-12);
    CHECK_DBL_NEAR(parts[QQB_RES_NETWORK], 1e-3, 1e-12);
    CHECK_INT_EQ((int)bound, (int)QQB_RES_FLOPS);
    /* a flop count on a profile without a flop rate cannot be predicted */
    p.gflops = 0;
    memset(&s, 0, sizeof s);
    s.flops = 1;
    CHECK(isnan(qqb_profile_predict(&p, &s, NULL, NULL)));
}

/* The convolution on hand-made levels and issue rates: every part exact. */
static void test_profile_predict_levels(void)
{
    const char *text = "levels:\n  l1:\n    bytes: 32768\n    latency_ns: 1\n"
                       "    throughput_ns: 0.25\n  l2:\n    bytes: 524288\n"
                       "    latency_ns: 5\n    throughput_ns: 0.5\n  ll:\n    bytes: 8388608\n"
                       "    latency_ns: 40\n    throughput_ns: 1\n  memory:\n"
                       "    latency_ns: 100\n    throughput_ns: 4\n"
                       "issue:\n  int_ns: 0.125\n  fp_ns: 0.5\n  fp_dep_ns: 2\n";
    struct qqb_profile p;
    char err[300];
    CHECK_INT_EQ(qqb_profile_parse("l.yaml", text, strlen(text), &p, err, sizeof err), 0);
    double parts[QQB_NRES];
    enum qqb_sig_resource bound;
    struct qqb_signature s = {0};
    /* 1000 loads at each level, 500 stores at L1, no dependence:
     * 1000 x (0.25 + 0.5 + 4) + 500 x 0.25 ns = 4875 ns, memory-bound */
    s.loads[QQB_SIG_L1] = s.loads[QQB_SIG_LL] = s.loads[QQB_SIG_MEM] = 1000;
    s.stores[QQB_SIG_L1] = 500;
    s.instr = 8000; /* 1000 ns of issue: overlapped */
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, parts, &bound), 4875e-9, 1e-18);
    CHECK_INT_EQ((int)bound, (int)QQB_RES_MEMORY);
    CHECK_DBL_NEAR(parts[QQB_RES_FLOPS], 1000e-9, 1e-18);
    /* a working set beyond L2: the middle level is the last level's */
    s.working_set = 4e6;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, NULL, NULL), 5375e-9, 1e-18);
    /* half the loads dependent: at latency, 1500 x (1 + 40 + 100) / 3 ns */
    s.dep_loads = 1500;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, parts, &bound), 500 * 141e-9, 1e-15);
    CHECK_DBL_NEAR(parts[QQB_RES_MEMORY], (500 * 5.25 + 125) * 1e-9, 1e-18);
    CHECK_INT_EQ((int)bound, (int)QQB_RES_LATENCY);
    /* a dependent chain of 1000 flops (2 ns each) beside 1000 independent
     * ones (0.5 ns): the chain bounds */
    memset(&s, 0, sizeof s);
    s.flops = 2000;
    s.dep_flops = 1000;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, parts, &bound), 2000e-9, 1e-18);
    CHECK_DBL_NEAR(parts[QQB_RES_FLOPS], 500e-9, 1e-18);
    CHECK_INT_EQ((int)bound, (int)QQB_RES_LATENCY);
    /* a level the profile lacks (no ll: its loads at L2's) and a rate it
     * lacks (no int_ns: NaN) */
    p.level[QQB_LEVEL_LL].thr_ns = 0;
    memset(&s, 0, sizeof s);
    s.loads[QQB_SIG_LL] = 1000;
    s.working_set = 4e6;
    CHECK_DBL_NEAR(qqb_profile_predict(&p, &s, NULL, NULL), 500e-9, 1e-18);
    p.int_ns = 0;
    s.instr = 1;
    CHECK(isnan(qqb_profile_predict(&p, &s, NULL, NULL)));
}

int main(void)
{
    RUN(test_profile_predict_levels);
    RUN(test_profile_parse);
    RUN(test_profile_levels_round_trip);
    RUN(test_profile_quoted_launcher);
    RUN(test_profile_predict);
    return TEST_DONE();
}
