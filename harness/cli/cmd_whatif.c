/* cmd_whatif.c - qqbench whatif: the options; trace/whatif_main.c re-lays the recorded
 * timeline with one key's intervals made faster or slower. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "number.h"
#include "opts.h"
#include "whatif.h"

/* The usage's prose around the option lines, which the table in
 * cmd_whatif generates. */
static const struct qqb_opts_cmd whatif_cmd = {
    "whatif",
    "usage: qqbench whatif FILE.qq (--scale KEY=F | --per-hit KEY=T)\n"
    "                      [--waiting KEY]... [--measured OTHER.qq]\n\n"
    "Is this line worth optimising? Re-lay each node's recorded timeline\n"
    "with the intervals of state KEY made F times as costly (--scale\n"
    "Km=0.5: half the cost), or costing T net ticks per hit (--per-hit\n"
    "Km=11), keeping the order of events, and print the predicted run time\n"
    "(first to last event) per node and overall (the slowest node) against\n"
    "the measured one.\n\n"
    "A short key (its per-hit figure a fenced mean: docs/STATISTICS.md)\n"
    "changes each interval by (F - 1) x its net ticks per hit on that node,\n"
    "not by F x the interval's own length: an interval an interrupt\n"
    "stretched keeps the interrupt. A long key (10th percentile or median)\n"
    "has the net part of each interval (its length minus the calibrated\n"
    "empty state) multiplied by F: long intervals differ for real (load).\n"
    "Either way QQ's own cost in the interval stays.\n\n"
    "Waiting states (--waiting, e.g. MessageBus::Sync around a barrier)\n"
    "absorb or grow: when every node has the same number of intervals of\n"
    "the waiting key, the k-th of each node is taken as one collective: it\n"
    "ends, on every node, when the last node arrives (re-laid) plus that\n"
    "node's measured release latency. Otherwise a wait ends at its measured\n"
    "time if the node now arrives earlier, at once if later.\n\n",
    "\nExit: 0, or 2 for bad input.\n"};

/* The largest factor or per-hit figure taken: a billion times (or ticks)
 * is far past any question a prediction answers, and a product of ticks
 * that large still fits a double with room (1e308 printed "inf ms"). */
#define QQB_WHATIF_MAX 1e9

/* --scale KEY=F or --per-hit KEY=T: which of the two was given (one at
 * most), the key and the figure. */
struct whatif_change {
    int mode; /* 1 scale, 2 per-hit, 0 neither yet */
    char key[256];
    double amount;
};

/* What one of the two options fills: the change, and which option it is. */
struct whatif_option {
    struct whatif_change *c;
    const char *opt;
    int mode;
};

/* --scale KEY=F and --per-hit KEY=T, one callback (CTX: its option). */
static int parse_change(const char *v, void *ctx, char *err, size_t errlen)
{
    const struct whatif_option *o = ctx;
    struct whatif_change *c = o->c;
    const char *opt = o->opt;
    int mode = o->mode;
    const char *eq = strrchr(v, '=');
    if (c->mode) {
        snprintf(err, errlen, "one --scale or --per-hit");
        return -1;
    }
    if (!eq || eq == v || (size_t)(eq - v) >= sizeof c->key) {
        snprintf(err, errlen, "%s needs KEY=NUMBER", opt);
        return -1;
    }
    memcpy(c->key, v, (size_t)(eq - v));
    c->key[eq - v] = '\0';
    /* Decimal only (the parser of every option's number): not 0x10 or nan. */
    int rc = qqb_decimal(eq + 1, &c->amount);
    if (rc == -1) {
        snprintf(err, errlen, "%s %s: '%s' is not a decimal number", opt, v, eq + 1);
        return -1;
    }
    if (rc != 0 || c->amount < 0 || c->amount > QQB_WHATIF_MAX) {
        snprintf(err, errlen, "%s %s: '%s' is not a number from 0 to %g", opt, v, eq + 1,
                 QQB_WHATIF_MAX);
        return -1;
    }
    c->mode = mode;
    return 0;
}

int cmd_whatif(int argc, char **argv)
{
    const char *path = NULL, *measured = NULL, *waits[QQB_WHATIF_WAITS];
    char **wlist = NULL;
    size_t nw = 0;
    struct whatif_change c = {.mode = 0, .amount = 1};
    struct whatif_option scale = {&c, "--scale", 1}, per_hit = {&c, "--per-hit", 2};
    const struct qqb_opt table[] = {
        QQB_OPT_CALLBACK("--scale", "KEY=F", parse_change, &scale,
                         "make KEY's intervals F times as costly (0 to 1e9)"),
        QQB_OPT_CALLBACK("--per-hit", "KEY=T", parse_change, &per_hit,
                         "make KEY's intervals cost T net ticks per hit"),
        QQB_OPT_LIST("--waiting", "KEY", &wlist, &nw, QQB_WHATIF_WAITS,
                     "a waiting state (repeatable, at most 16)"),
        QQB_OPT_STRING("--measured", "OTHER.qq", &measured,
                       "the run of the changed program: print its run\n"
                       "time and the prediction's error"),
        QQB_OPT_POSITIONAL("FILE.qq", &path),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&whatif_cmd, table, argc, argv, NULL);
    int nwaits = wlist ? (int)nw : 0; /* the parser allocates WLIST */
    for (int w = 0; w < nwaits; w++)
        waits[w] = wlist[w];
    free(wlist);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (!path || !c.mode) {
        qqb_opts_usage(&whatif_cmd, table, stderr);
        return QQB_EXIT_USAGE;
    }
    struct qqb_whatif_spec spec = {c.key, c.mode, c.amount, waits, nwaits};
    return qqb_whatif_main(path, measured, &spec) == 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
}
