/* whatif_main.c - qqbench whatif's run: open the recorded run (and the
 * run of the changed program), re-lay it (whatif.c) and print the
 * prediction as a table. */
#include <inttypes.h>
#include <stdio.h>

#include "qq_file.h"
#include "trace.h"
#include "whatif.h"
#include "words.h"

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

int qqb_whatif_main(const char *path, const char *measured, const struct qqb_whatif_spec *spec)
{
    struct qqb_whatif w;
    char err[1200];
    int rc = -1;
    struct qq_file *f = open_run(path), *g = NULL;
    if (f && (!measured || (g = open_run(measured)))) {
        if (qqb_whatif_run(f, path, g, measured, spec, &w, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
        } else {
            print_whatif(path, spec, &w, g != NULL);
            qqb_whatif_free(&w);
            rc = 0;
        }
    }
    qq_file_close(g);
    qq_file_close(f);
    return rc;
}
