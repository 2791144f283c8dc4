/* profile.h - machine profiles (profile.yaml of `qqbench profile-machine`): read, store beside the
 * baselines, draw, and convolve with application signatures (docs/MODELS.md). */
#ifndef QQB_PROFILE_H
#define QQB_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#define QQB_PROFILE_MAX_SIZES 32

struct qqb_profile {
    char path[1024]; /* where it was read from ("" when built from JSON) */
    double tick_mhz;
    size_t nmem;
    double mem_bytes[QQB_PROFILE_MAX_SIZES]; /* working sets, increasing */
    double mem_gbps[QQB_PROFILE_MAX_SIZES];
    double mem_ns[QQB_PROFILE_MAX_SIZES];
    double gflops; /* 0: not measured */
    size_t nmpi;   /* 0: no MPI ping-pong */
    double mpi_bytes[QQB_PROFILE_MAX_SIZES];
    double mpi_us[QQB_PROFILE_MAX_SIZES]; /* one-way time of a message of that size */
    double mpi_mbps[QQB_PROFILE_MAX_SIZES];
    /* The cost of a load per level (index enum qqb_level; lat_ns and
     * thr_ns 0: not measured) and the issue rates, ns per op (0: not
     * measured; fp_ns is 1 / gflops). */
    struct {
        double bytes, set, lat_ns, thr_ns;
    } level[4];
    double int_ns, fp_ns, fp_dep_ns;
};

/* BASELINES/ID/profile.yaml: the profile of the machine whose baselines
 * are in BASELINES/ID (qqb_baseline_path's folder). 0 or -1 (too long). */
int qqb_profile_path(const char *baselines, const char *id, char *out, size_t len);

/* Read PATH. 0, or -1 with "PATH:LINE:COL: error: ..." in ERR. */
int qqb_profile_read(const char *path, struct qqb_profile *p, char *err, size_t errlen);
/* The same from LEN bytes of TEXT, named PATH in messages. */
int qqb_profile_parse(const char *path, const char *text, size_t len, struct qqb_profile *p,
                      char *err, size_t errlen);

/* Write LEN bytes of TEXT to PATH atomically (a temp file beside it,
 * fsync, rename), making its folder. 0, or -1 with ERR. */
int qqb_profile_store(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* The profile as JSON (the run's "profile" and "baseline_profile") and
 * back: 0; 1 when O is no object (absent: nothing to draw); -1 with ERR
 * naming the field ("memory.bytes[1]: 1e+308 is out of range: ...") when
 * its tables differ in length or a figure is out of its range
 * (qqb_profile_check): a run JSON may be a stranger's, and a figure
 * gnuplot cannot place failed the report with a message that named no
 * field. */
json_t *qqb_profile_json(const struct qqb_profile *p);
int qqb_profile_from_json(const json_t *o, struct qqb_profile *p, char *err, size_t errlen);

/* The one range check of a profile's figures, whichever file they came
 * from: sizes more than 0, at most 1e15 bytes and each larger than the
 * one before; bandwidths and one-way times more than 0; latencies, tick
 * rate and GFLOP/s 0 (not measured) or more; every figure finite and at
 * most 1e9 (1e6 GB/s). 0, or -1 with ERR naming the first figure out of
 * range as "memory.bytes[1]: ...". */
int qqb_profile_check(const struct qqb_profile *p, char *err, size_t errlen);

/* ======================================================================
 * Application signatures (Snavely): operation counts a kernel reports with
 * QQCount under "sig:KEY:bytes", "sig:KEY:working_set", "sig:KEY:flops",
 * "sig:KEY:messages", "sig:KEY:message_bytes", KEY being the state key
 * whose time they describe (docs/MODELS.md).
 * ====================================================================== */

#define QQB_SIG_PREFIX "sig:"

/* memory: independent loads and stores at each level's throughput (and
 * bytes at the bandwidth of their working set); flops: the issue of
 * instructions and independent flops; latency: dependent loads at each
 * level's latency and dependent flops at a chain's; network: messages. */
enum qqb_sig_resource { QQB_RES_MEMORY, QQB_RES_FLOPS, QQB_RES_NETWORK, QQB_RES_LATENCY, QQB_NRES };

/* Where a traced load or store was served (callgrind's cache simulation
 * has two levels: L1 and the last level). */
enum qqb_sig_level { QQB_SIG_L1, QQB_SIG_LL, QQB_SIG_MEM, QQB_SIG_NLEVELS };

struct qqb_signature { /* per node, per launch */
    double bytes, working_set, flops, messages, message_bytes;
    double instr;                   /* instructions */
    double loads[QQB_SIG_NLEVELS];  /* loads by the level that served them */
    double stores[QQB_SIG_NLEVELS]; /* stores likewise */
    double dep_loads, dep_flops;    /* of them, on one dependent chain */
};

/* The predicted seconds of signature S on profile P (docs/MODELS.md):
 * max(memory, flops, latency) + network, each resource's share in PARTS
 * (may be NULL) and the largest in *BOUND. NaN when the profile lacks a
 * rate the signature needs. */
double qqb_profile_predict(const struct qqb_profile *p, const struct qqb_signature *s,
                           double parts[QQB_NRES], enum qqb_sig_resource *bound);
const char *qqb_sig_resource_name(enum qqb_sig_resource r);

/* ======================================================================
 * What `qqbench profile-machine` measured (measure/machine.c), and the
 * profile.yaml it writes.
 * ====================================================================== */

#define QQB_PINGPONG_MAX 16 /* message sizes read from the ping-pong helper */

struct qqb_pingpong {
    int n;
    long size[QQB_PINGPONG_MAX];
    double us[QQB_PINGPONG_MAX], mbps[QQB_PINGPONG_MAX];
};

/* The hierarchy's levels, as a profile names them: l1, l2, ll (the last
 * level, when there is a third), memory. */
enum qqb_level { QQB_LEVEL_L1, QQB_LEVEL_L2, QQB_LEVEL_LL, QQB_LEVEL_MEM, QQB_NLEVELS };
extern const char *const qqb_level_names[QQB_NLEVELS];

/* The cost of one load served by a level. */
struct qqb_level_cost {
    long bytes;    /* the level's size (sysfs, else CPUID); 0: unknown or memory */
    size_t set;    /* the working set measured; 0: level not measured */
    double lat_ns; /* a dependent load (pointer chase) */
    double thr_ns; /* an independent 8-byte load (eight scalar streams) */
};

struct qqb_machine {
    long l1, l2, l3; /* cache sizes in bytes (0: unknown) */
    struct qqb_level_cost level[QQB_NLEVELS];
    double int_ns, fp_dep_ns; /* an integer op (independent), a flop of one dependent chain */
    double seconds;           /* how long the measuring took */
    size_t sizes[QQB_PROFILE_MAX_SIZES];
    int ns; /* working sets measured */
    double bw[QQB_PROFILE_MAX_SIZES], lat[QQB_PROFILE_MAX_SIZES], fl;
    double ns_bare, ticks_bare, ns_pair, mhz;
    struct qqb_pingpong pp;
    int mpi_rc; /* 0: measured (or not asked for); -1: the helper failed */
};

/* M as profile.yaml on FP, with this host's name and the date: QUICK
 * (--quick), LAUNCHER the MPI launcher (NULL: --no-mpi). 0, or -1 with
 * ERR ("--launcher: not UTF-8 text"). */
int qqb_profile_write(FILE *fp, const struct qqb_machine *m, int quick, const char *launcher,
                      char *err, size_t errlen);

#endif /* QQB_PROFILE_H */
