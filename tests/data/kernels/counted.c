/* counted.c - a test kernel for instruction counts: keys of known shape (one function, nesting,
 * repetition, threads, MPI ranks) and one instruction planted per hit with -DEXTRA=1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq.h"
#if defined(QQ_MPI) && QQ_MPI
#include <mpi.h>
#endif

#ifndef EXTRA
#define EXTRA 0
#endif

static volatile unsigned long long sink;
static long work_n = 2000;

/* The one function key 'one' wraps: callgrind's inclusive count of it is
 * the key's count less the record path's few instructions per hit. */
__attribute__((noinline)) static void one(long n)
{
    unsigned long long x = sink;
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink = x;
}

static int k_one, k_a, k_b, k_outer, k_inner, k_thread;

/* 'outer' opens again inside itself (a repeated state: counted once, from
 * its outermost opening), around 'inner'. */
static void nested(int depth)
{
    QQStateOn(k_outer);
    one(work_n / 4);
    if (depth > 0)
        nested(depth - 1);
    QQStateOn(k_inner);
    one(work_n / 8);
    QQStateOff(k_inner);
    QQStateOff(k_outer);
}

static void *thread_main(void *arg)
{
    long reps = *(const long *)arg;
    for (long r = 0; r < reps; r++) {
        QQStateOn(k_thread);
        one(work_n / 2);
        QQStateOff(k_thread);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long reps = 50, threads = 0, variant = 0;
    int node = 0, nodes = 1;
#if defined(QQ_MPI) && QQ_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &node);
    MPI_Comm_size(MPI_COMM_WORLD, &nodes);
#endif
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--work"))
            work_n = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads"))
            threads = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--variant"))
            variant = atol(argv[i + 1]);
    }
    QQInit(1 << 16);
    k_one = QQAddState("one");
    k_a = QQAddState("a");
    k_b = QQAddState("b");
    k_outer = QQAddState("outer");
    k_inner = QQAddState("inner");
    k_thread = QQAddState("thread");
    for (long r = 0; r < reps; r++) {
        QQStateOn(k_one);
        one(work_n);
        QQStateOff(k_one);
        QQStateOn(k_a);
        one(work_n / 10 + variant);
#if EXTRA
        __asm__ __volatile__("nop");
#endif
        QQStateOff(k_a);
        QQStateOn(k_b);
        one(work_n / 10 + (node + 1) * 3);
        QQStateOff(k_b);
        nested(1);
    }
    pthread_t t[8];
    if (threads > 8)
        threads = 8;
    for (long i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, thread_main, &reps);
    for (long i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    QQOut("counted.qq", node, nodes);
#if defined(QQ_MPI) && QQ_MPI
    MPI_Finalize();
#endif
    return 0;
}
