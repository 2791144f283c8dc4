/* cmd_whatif.c - qqbench whatif: re-lay a recorded timeline with one key's intervals made faster or
 * slower. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "number.h"
#include "opts.h"
#include "qq_file.h"
#include "trace.h"
#include "whatif.h"
#include "words.h"

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

static int parse_kv(const char *opt, int mode, const char *v, void *ctx, char *err, size_t errlen)
{
    struct whatif_change *c = ctx;
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

static int parse_scale(const char *v, void *ctx, char *err, size_t errlen)
{
    return parse_kv("--scale", 1, v, ctx, err, errlen);
}

static int parse_per_hit(const char *v, void *ctx, char *err, size_t errlen)
{
    return parse_kv("--per-hit", 2, v, ctx, err, errlen);
}

/* The prediction as a table: per node, then the slowest node. */
static void print_whatif(const char *path, const struct qqb_whatif_spec *s,
                         const struct qqb_whatif *w, int other)
{
    int scale = s->mode == QQB_WHATIF_SCALE;
    printf("whatif: %s, intervals of '%s' %s", path, s->key, scale ? "scaled by" : "at");
    printf(scale ? " %g of their net cost\n" : " %g net ticks per hit\n", s->amount);
    if (s->nwaits)
        printf("waiting: %d key%s, %s\n", s->nwaits, s->nwaits == 1 ? "" : "s",
               w->collective ? "collective (the same number of waits on every "
                               "node: each ends when the last node arrives)"
                             : "per node (a wait ends at its measured time, or "
                               "at once if the node arrives later)");
    printf("\n%-6s %10s %10s %16s %16s %9s", "node", "net/hit", "new/hit", "measured ticks",
           "predicted ticks", "change");
    if (other)
        printf(" %16s %9s", "other run", "error");
    printf("\n");
    double worst_old = 0, worst_new = 0, worst_g = 0;
    for (uint32_t r = 0; r < w->nnodes; r++) {
        const struct qqb_whatif_row *p = &w->row[r];
        double old = p->measured, new_ = p->predicted;
        if (old > worst_old)
            worst_old = old;
        if (new_ > worst_new)
            worst_new = new_;
        printf("%-6" PRIu32 " %10.1f %10.1f %16.0f %16.0f %8.2f%%", r, p->net, p->new_hit, old,
               new_, old > 0 ? 100 * (new_ - old) / old : 0);
        if (p->has_other) {
            double m = p->other;
            if (m > worst_g)
                worst_g = m;
            printf(" %16.0f %8.2f%%", m, m > 0 ? 100 * (new_ - m) / m : 0);
        }
        printf("\n");
    }
    printf("%-6s %10s %10s %16.0f %16.0f %8.2f%%", "all", "", "", worst_old, worst_new,
           worst_old > 0 ? 100 * (worst_new - worst_old) / worst_old : 0);
    if (other)
        printf(" %16.0f %8.2f%%", worst_g, worst_g > 0 ? 100 * (worst_new - worst_g) / worst_g : 0);
    printf("\n");
    double mhz = w->mhz;
    if (mhz > 0)
        printf("\nrun time (slowest node): measured %.3f ms, predicted %.3f ms%s",
               worst_old / mhz / 1e3, worst_new / mhz / 1e3, other ? "" : "\n");
    struct qqb_signed se;
    if (other && mhz > 0)
        printf(", other run %.3f ms (prediction error %s%%)\n", worst_g / mhz / 1e3,
               qqb_signed(&se, worst_g > 0 ? 100 * (worst_new - worst_g) / worst_g : 0, 2));
}

/* whatif re-lays each node's entries as one time line (a rank's): a node
 * whose entries are several threads' (docs/THREADS.md) has no one time
 * line to re-lay. 0, or -1 after saying so. */
static int single_threaded(const struct qq_file *f, const char *path)
{
    for (uint32_t n = 0; n < qq_file_nnodes(f); n++) {
        uint32_t busy = 0;
        for (uint32_t t = 0; t < qq_file_nthreads(f, n); t++)
            busy += qq_file_thread(f, n, t)->events > 0;
        if (busy > 1) {
            fprintf(stderr,
                    "qqbench whatif: error: %s: node %u recorded in %u threads; whatif "
                    "re-lays one time line per node (threads: not yet)\n",
                    path, qq_file_node(f, n)->node, busy);
            return -1;
        }
    }
    return 0;
}

/* Open PATH streamed, its ticks fit to judge; NULL after saying why. */
static struct qq_file *open_run(const char *path)
{
    struct qq_file *f = NULL;
    char terr[600];
    int st = qq_file_open_stream(path, &f);
    if (st != 0) {
        fprintf(stderr, "%s: error: %s\n", path, f ? qq_file_errmsg(f) : qq_strerror(st));
        qq_file_close(f);
        return NULL;
    }
    if (qqb_ticks_judgeable(f, path, terr, sizeof terr) != 0) {
        fprintf(stderr, "qqbench whatif: error: %s\n", terr);
        qq_file_close(f);
        return NULL;
    }
    if (single_threaded(f, path) != 0) {
        qq_file_close(f);
        return NULL;
    }
    return f;
}

int cmd_whatif(int argc, char **argv)
{
    const char *path = NULL, *measured = NULL, *waits[QQB_WHATIF_WAITS];
    char **wlist = NULL;
    size_t nw = 0;
    struct whatif_change c = {.mode = 0, .amount = 1};
    const struct qqb_opt table[] = {
        QQB_OPT_CALLBACK("--scale", "KEY=F", parse_scale, &c,
                         "make KEY's intervals F times as costly (0 to 1e9)"),
        QQB_OPT_CALLBACK("--per-hit", "KEY=T", parse_per_hit, &c,
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
    struct qqb_whatif w;
    char err[1200];
    int rc = QQB_EXIT_USAGE;
    struct qq_file *f = open_run(path), *g = NULL;
    if (f && (!measured || (g = open_run(measured)))) {
        if (qqb_whatif_run(f, path, g, measured, &spec, &w, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
        } else {
            print_whatif(path, &spec, &w, g != NULL);
            qqb_whatif_free(&w);
            rc = QQB_EXIT_OK;
        }
    }
    qq_file_close(g);
    qq_file_close(f);
    return rc;
}
