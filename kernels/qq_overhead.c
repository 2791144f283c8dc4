/* qq_overhead.c - what QQ's recording costs: ticks per event of QQMark, QQStateOn/Off, QQCount,
 * QQValue, and of a mark and a state pair with QQRecord(0), vs a bare and an ordered read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "qq.h"
#include "kio.h"

#define PROG "qq_overhead"

/*
 * Each round times N bare counter reads and N events of every kind, each
 * as (ticks after the loop - ticks before) / N, the kinds interleaved
 * round by round so that drift and frequency changes hit all alike. The
 * measured events need an empty buffer of their own: before each inner
 * loop QQInit makes a fresh one (keys are kept). The results go into one
 * final buffer, made after the last round, as QQValue events (one per
 * round and kind), which QQOut writes; --print adds medians and ratios.
 */

enum { K_BARE, K_ORDERED, K_MARK, K_STATE, K_COUNT, K_VALUE, K_MARK_OFF, K_STATE_OFF, K_N };
static const char *const kind_name[K_N] = {"bare",  "ordered", "mark",     "state",
                                           "count", "value",   "mark_off", "state_off"};

static int in_mark, in_state, in_count, in_value;
static volatile uint64_t sink; /* keeps the bare reads alive */

static double time_kind(int kind, long n)
{
    uint64_t t0, t1, acc = 0;
    if (kind != K_BARE && kind != K_ORDERED)
        QQInit((int)(2 * n + 16)); /* a fresh, pre-faulted buffer */
    switch (kind) {
    case K_ORDERED:
        /* The reads a state uses in ordered mode: an opening and a closing
         * read per iteration, 2n reads. */
        t0 = qq_ticks();
        for (long i = 0; i < n; i++) {
            acc += qq_ticks_open();
            acc += qq_ticks_close();
        }
        t1 = qq_ticks();
        sink = acc;
        return (double)(t1 - t0) / (2.0 * (double)n);
    case K_BARE:
        t0 = qq_ticks();
        for (long i = 0; i < n; i++)
            acc += qq_ticks();
        t1 = qq_ticks();
        sink = acc;
        return (double)(t1 - t0) / (double)n;
    case K_MARK:
        t0 = qq_ticks();
        for (long i = 0; i < n; i++)
            QQMark(in_mark);
        t1 = qq_ticks();
        return (double)(t1 - t0) / (double)n;
    case K_STATE:
        /* One on and one off per iteration: 2n events. */
        t0 = qq_ticks();
        for (long i = 0; i < n; i++) {
            QQStateOn(in_state);
            QQStateOff(in_state);
        }
        t1 = qq_ticks();
        return (double)(t1 - t0) / (2.0 * (double)n);
    case K_COUNT:
        t0 = qq_ticks();
        for (long i = 0; i < n; i++)
            QQCount(in_count, (int)i);
        t1 = qq_ticks();
        return (double)(t1 - t0) / (double)n;
    case K_VALUE:
        t0 = qq_ticks();
        for (long i = 0; i < n; i++)
            QQValue(in_value, (double)i);
        t1 = qq_ticks();
        return (double)(t1 - t0) / (double)n;
    case K_MARK_OFF:
        /* Recording off: the record path's one test fails, nothing is
         * stored (a state still pays its closing read). */
        QQRecord(0);
        t0 = qq_ticks();
        for (long i = 0; i < n; i++)
            QQMark(in_mark);
        t1 = qq_ticks();
        QQRecord(1);
        return (double)(t1 - t0) / (double)n;
    default:
        QQRecord(0);
        t0 = qq_ticks();
        for (long i = 0; i < n; i++) {
            QQStateOn(in_state);
            QQStateOff(in_state);
        }
        t1 = qq_ticks();
        QQRecord(1);
        return (double)(t1 - t0) / (2.0 * (double)n);
    }
}

static const char *const variants[] = {"all", NULL};

int main(int argc, char **argv)
{
    static int median;
    static const struct kopt extra[] = {
        KIO_MEDIAN_OPTION(median),
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "QQ's recording cost: per round, N bare qq_ticks() reads, N "
                   "ordered reads (open+close),\nand N QQMark, QQStateOn+Off,"
                   "\nQQCount and QQValue events, and N QQMark and QQStateOn+Off with "
                   "QQRecord(0), each timed "
                   "as total ticks / N (interleaved by round).\n--size N = events "
                   "per measurement, --steps R = rounds. --print: medians in ticks\n"
                   "per event and the ratio to a bare read.",
        .keys = "  values  cost_bare, cost_ordered, cost_mark, cost_state, cost_count, "
                "cost_value,\n          cost_mark_off, cost_state_off (ticks per event, one "
                "per round)\n"
                "  (inner, measured: bench_mark, bench_state, bench_count, "
                "bench_value; their\n  events are discarded)",
        .variants = variants,
        .size_default = 10000,
        .size_max = 100000000,
        .steps_default = 21,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    long n = a.size, rounds = a.steps;

    QQInit(16);
    in_mark = QQAddMark("bench_mark");
    in_state = QQAddState("bench_state");
    in_count = QQAddCount("bench_count");
    in_value = QQAddValue("bench_value");
    int out_key[K_N];
    for (int k = 0; k < K_N; k++) {
        char name[32];
        snprintf(name, sizeof name, "cost_%s", kind_name[k]);
        out_key[k] = QQAddValue(name);
    }

    double *cost = kxcalloc(PROG, (size_t)(rounds * K_N), sizeof *cost);
    /* One warm-up round (caches, branch predictors, first mmap). */
    for (int k = 0; k < K_N; k++)
        (void)time_kind(k, n < 1000 ? n : 1000);
    for (long r = 0; r < rounds; r++)
        for (int k = 0; k < K_N; k++) {
            /* Rotate the order so that no kind always runs first. */
            int kk = (int)((k + r) % K_N);
            cost[kk * rounds + r] = time_kind(kk, n);
        }

    /* The one outer buffer: only the results. */
    QQInit(kqq_events((uint64_t)(rounds * K_N) + 16));
    /* With --median the rounds are reordered: the medians below are the
     * same either way. */
    for (int k = 0; k < K_N; k++)
        kio_record_rounds(out_key[k], cost + k * rounds, rounds, median);
    int rc = kqq_out(PROG, "qq_overhead.qq", 0, 1);

    if (a.print) {
        double med[K_N];
        for (int k = 0; k < K_N; k++)
            med[k] = kmedian(cost + k * rounds, (size_t)rounds);
        printf("events_per_round %ld\nrounds %ld\ntick_source %s\nstates %s\n", n, rounds,
               qq_tick_path_name(qq_tick_path()), QQ_ORDERED ? "ordered" : "unordered");
        /* States are held against the read they use; the rest against a
         * bare read. */
        for (int k = 0; k < K_N; k++) {
            int ref = (k == K_STATE || k == K_STATE_OFF) && QQ_ORDERED ? K_ORDERED : K_BARE;
            printf("cost_%s %.2f ticks/event  ratio %.2f (to %s)\n", kind_name[k], med[k],
                   med[ref] > 0 ? med[k] / med[ref] : 0.0, kind_name[ref]);
        }
    }
    kxfree(cost);
    return rc;
}
