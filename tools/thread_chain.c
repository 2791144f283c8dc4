/* thread_chain.c - QQ's per-thread figures against bulk timing: T threads each time a known-cost
 * chain P times under one state, and in bulk; prints each thread's net per hit beside its bulk.
 *
 * usage: thread_chain [THREADS [PAIRS [OPS]]]   (defaults 4, 100000, 100)
 *
 * Each thread runs x = x * a + c, OPS times in a row (a dependent chain:
 * its cost is OPS multiply-add latencies), PAIRS times under the state
 * 'chain' (tools/thread_chain.qq), in 10 batches; after each batch it times
 * blocks of the same chain in bulk between two ordered counter reads, at
 * OPS and at 0 ops (the loop alone). A thread's bulk figure is the median
 * block's ticks per repetition at OPS minus that at 0: the chain's cost with
 * no QQ in it. The file is read back: each thread's net ticks per hit
 * (qq_file_thread_stats, the calibrated empty state subtracted) should
 * agree with it. A benchmark, not a test: it prints figures and exits 0
 * (docs/PERFORMANCE.md, "Threads"); a busy machine moves them.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#define QQ_ENABLE   1
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq.h"
#include "qq_file.h"

#define BATCHES 10
#define BLOCKS  9    /* bulk blocks per batch and length */
#define PER_BLK 2000 /* repetitions per bulk block */

static long g_pairs = 100000, g_ops = 100;
static int k_chain;
static volatile double g_a = 0.999999, g_c = 1e-9;

#define KEEP(v) __asm__ __volatile__("" ::"X"(v))

static inline double chain(double x, double a, double c, long n)
{
    for (long i = 0; i < n; i++) {
        x = x * a + c;
        KEEP(x);
    }
    return x;
}

struct thr {
    int n;
    double bulk; /* ticks per repetition: OPS minus 0 ops */
    double x;
};

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double bulk_block(double *x, double a, double c, long ops)
{
    uint64_t t0 = qq_ticks_open();
    for (long r = 0; r < PER_BLK; r++) {
        *x = chain(*x, a, c, ops);
        KEEP(*x);
    }
    uint64_t t1 = qq_ticks_close();
    return (double)(t1 - t0) / PER_BLK;
}

static void *run(void *p)
{
    struct thr *t = p;
    char name[16];
    snprintf(name, sizeof name, "chain-%d", t->n);
    pthread_setname_np(pthread_self(), name);
    double a = g_a, c = g_c, x = 1.0;
    long ops = g_ops;
    double full[BATCHES * BLOCKS], empty[BATCHES * BLOCKS];
    for (int b = 0; b < BATCHES; b++) {
        for (long s = g_pairs * b / BATCHES; s < g_pairs * (b + 1) / BATCHES; s++) {
            QQStateOn(k_chain);
            x = chain(x, a, c, ops);
            QQKeep(x);
            QQStateOff(k_chain);
        }
        for (int k = 0; k < BLOCKS; k++) {
            full[b * BLOCKS + k] = bulk_block(&x, a, c, ops);
            empty[b * BLOCKS + k] = bulk_block(&x, a, c, 0);
        }
    }
    qsort(full, BATCHES * BLOCKS, sizeof *full, cmp_d);
    qsort(empty, BATCHES * BLOCKS, sizeof *empty, cmp_d);
    t->bulk = full[BATCHES * BLOCKS / 2] - empty[BATCHES * BLOCKS / 2];
    t->x = x;
    return NULL;
}

int main(int argc, char **argv)
{
    int nt = argc > 1 ? atoi(argv[1]) : 4;
    if (argc > 2)
        g_pairs = atol(argv[2]);
    if (argc > 3)
        g_ops = atol(argv[3]);
    if (nt < 1 || nt > 64 || g_pairs < BATCHES || g_ops < 1) {
        fprintf(stderr, "usage: thread_chain [THREADS 1-64 [PAIRS >= 10 [OPS >= 1]]]\n");
        return 2;
    }
    QQInit((int)(2 * g_pairs + 16));
    k_chain = QQAddState("chain");
    pthread_t tid[64];
    struct thr t[64];
    for (int i = 0; i < nt; i++) {
        t[i] = (struct thr){.n = i};
        pthread_create(&tid[i], NULL, run, &t[i]);
    }
    for (int i = 0; i < nt; i++)
        pthread_join(tid[i], NULL);
    if (qq_out("thread_chain.qq", 0, 1) != 0) {
        fprintf(stderr, "thread_chain: %s\n", qq_out_errmsg());
        return 1;
    }
    struct qq_file *f;
    if (qq_file_open_stream("thread_chain.qq", &f) != 0) {
        fprintf(stderr, "thread_chain: %s\n", qq_file_errmsg(f));
        qq_file_close(f);
        return 1;
    }
    struct qq_calib cal;
    qq_file_calib(f, 0, &cal);
    printf("%d threads x %ld pairs of a chain of %ld multiply-adds; empty state %.1f ticks\n", nt,
           g_pairs, g_ops, cal.empty_typical);
    printf("thread  name        intervals   net/hit    bulk   net/bulk\n");
    int within = 0, counted = 0;
    for (uint32_t i = 0; i < qq_file_nthreads(f, 0); i++) {
        const struct qq_thread_info *ti = qq_file_thread(f, 0, i);
        struct qq_node_summary ns;
        struct qq_key_summary ks[1];
        struct qq_hit_stat hs[1];
        if (!ti->events || qq_file_thread_stats(f, 0, i, &ns, ks, hs) != 0)
            continue;
        int n = -1;
        sscanf(ti->name, "chain-%d", &n);
        double bulk = n >= 0 && n < nt ? t[n].bulk : 0;
        double r = bulk > 0 ? hs[0].net / bulk : 0;
        counted++;
        within += r > 0.9 && r < 1.1;
        printf("%6u  %-10s %10llu %9.1f %7.1f %9.3f\n", i, ti->name,
               (unsigned long long)hs[0].intervals, hs[0].net, bulk, r);
    }
    printf("%d of %d threads within 10%% of their bulk figure\n", within, counted);
    qq_file_close(f);
    return 0;
}
