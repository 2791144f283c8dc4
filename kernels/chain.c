/* chain.c - a known-cost kernel: a dependent chain of N multiply-adds under one state, and the same
 * chain timed in bulk. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "qq.h"
#include "kcommon.h"

#define PROG "chain"

/*
 * The line under test is x = x * a + c, --ops times in a row, each step
 * needing the one before: the interval's cost is N times the latency of a
 * multiply then an add (no other work can overlap it). --steps intervals
 * are recorded under the state "chain".
 *
 * The independent check is the bulk time: --bulk repetitions of the same
 * chain in KBULK_BLOCKS blocks, each between two ordered counter reads, the
 * value of x carried from one repetition to the next so they cannot overlap
 * either, the blocks interleaved with the intervals. Recorded as the value
 * "bulk": the median block's ticks per repetition. The difference of two bulk
 * times (N ops minus 0 ops) is the chain's cost with no QQ in it: what a
 * state's net figure must agree with.
 *
 * The chain is unrolled by 8 (Duff's device): for N up to 8 the code is a
 * straight line, and longer chains take one predictable branch per 8 ops.
 */

static long g_ops = 10, g_bulk = 0;
static volatile double g_a = 0.999999, g_c = 1e-9, g_x0 = 1.0;

static inline double chain(double x, double a, double c, long n)
{
    if (n <= 0)
        return x;
    long rounds = (n + 7) / 8;
    switch (n % 8) {
    case 0:
        do {
            x = x * a + c;
            /* fall through */
        case 7:
            x = x * a + c;
            /* fall through */
        case 6:
            x = x * a + c;
            /* fall through */
        case 5:
            x = x * a + c;
            /* fall through */
        case 4:
            x = x * a + c;
            /* fall through */
        case 3:
            x = x * a + c;
            /* fall through */
        case 2:
            x = x * a + c;
            /* fall through */
        case 1:
            x = x * a + c;
        } while (--rounds > 0);
    }
    return x;
}

static const char *const variants[] = {"fma", NULL};

int main(int argc, char **argv)
{
    static const struct kopt extra[] = {
        {"ops", KOPT_LONG, &g_ops, 0, "multiply-adds in the chain (default 10)"},
        {"bulk", KOPT_LONG, &g_bulk, 0,
         "repetitions timed in bulk, recorded as the value 'bulk' (default 0: none)"},
        {NULL, KOPT_LONG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "A dependent chain of --ops multiply-adds (x = x*a + c) under "
                   "the state 'chain',\n--steps times; with --bulk R, the same "
                   "chain timed R times between two\nordered reads, for an "
                   "independent cost per repetition. --size is unused.",
        .keys = "  states  chain (one chain of --ops multiply-adds)\n"
                "  value   bulk (ticks per repetition of the chain timed in bulk)",
        .variants = variants,
        .size_default = 1,
        .steps_default = 20000,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    /* Locals, in registers: a load of the global inside the interval
     * would be timed with the chain. */
    double ca = g_a, cc = g_c, x = g_x0;
    long ops = g_ops;

    QQInit(kqq_events(2 * (uint64_t)a.steps + 16));
    int k_chain = QQAddState("chain");
    int k_bulk = QQAddValue("bulk");
    QQBaseTime();

    /* The intervals in KBULK_POINTS batches, each followed by a burst of
     * bulk blocks, so both see the same machine (kcommon.h). */
    static double block[KBULK_BLOCKS];
    long per_block = g_bulk / KBULK_BLOCKS > 0 ? g_bulk / KBULK_BLOCKS : 1;
    size_t nblocks = 0;
    for (int p = 0; p < KBULK_POINTS; p++) {
        long from = a.steps * p / KBULK_POINTS, to = a.steps * (p + 1) / KBULK_POINTS;
        /* N = 0 is an empty state, not a call that tests n and returns:
         * that test would be timed as the line (about a tick). */
        if (ops == 0) {
            for (long s = from; s < to; s++) {
                QQStateOn(k_chain);
                QQKeep(x);
                QQStateOff(k_chain);
            }
        } else {
            for (long s = from; s < to; s++) {
                QQStateOn(k_chain);
                x = chain(x, ca, cc, ops);
                QQKeep(x);
                QQStateOff(k_chain);
            }
        }
        for (int b = 0; g_bulk > 0 && b < KBULK_BLOCKS / KBULK_POINTS; b++) {
            uint64_t t0 = qq_ticks_open();
            for (long r = 0; r < per_block; r++) {
                x = chain(x, ca, cc, ops);
                KKEEP(x);
            }
            uint64_t t1 = qq_ticks_close();
            block[nblocks++] = (double)(t1 - t0) / (double)per_block;
        }
    }
    double per_rep = 0;
    if (g_bulk > 0) {
        per_rep = kmedian(block, nblocks);
        QQValue(k_bulk, per_rep);
    }

    /* The signature of the 'chain' key (docs/MODELS.md): a multiply and an
     * add per op, every one waiting for the one before (dep_flops: the
     * chain runs at a multiply-add's latency, not at the machine's flop
     * rate). Its keys are made here, after the timed loops, so nothing of
     * them is live across them. */
    uint64_t flops = 2 * (uint64_t)(ops > 0 ? ops : 0) * (uint64_t)a.steps;
    kqq_signature(QQAddCount("sig:chain:flops"), flops);
    kqq_signature(QQAddCount("sig:chain:dep_flops"), flops);
    int rc = kqq_out(PROG, "chain.qq", 0, 1);
    if (a.print) {
        printf("ops %ld\nsteps %ld\n", g_ops, a.steps);
        if (g_bulk > 0)
            printf("bulk_reps %ld\nbulk_ticks_per_rep %.3f\n", g_bulk, per_rep);
        printf("x %.17g\n", x);
    }
    return rc;
}
