/* st.c - `qqbench st`: the summary tables of .qq files, as the paper's st program prints them
 * (Figure 5), plus marks, counts, values, threads and memory. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq_file.h"
#include "qq_mem.h"
#include "st.h"
#include "trace.h"
#include "words.h"

/* Cycles per hit of each state key: the estimator's figure, and net of the
 * calibrated empty state when the file has a calibration. */
static void print_per_hit(const struct qq_file *f, const struct qq_hit_stat *hs,
                          const struct qq_calib *cal)
{
    static const char *const rule[] = {"-", "mean", "p10", "median"};
    uint32_t nkeys = qq_file_nkeys(f);
    printf("Cycles per hit: ticks per interval%s\n\n",
           cal ? ", and net of the empty state" : " (no calibration in the file)");
    printf("      Intervals      Per hit          Net   Figure    Name\n");
    for (uint32_t k = 0; k < nkeys; k++) {
        const struct qq_key_info *key = qq_file_key(f, k);
        const struct qq_hit_stat *h = &hs[k];
        if (key->type != QQ_TYPE_STATE || h->intervals == 0)
            continue;
        printf("%u: %12" PRIu64 " %12.1f %12.1f   %-6s    '%s'", k + 1, h->intervals, h->raw,
               h->net, rule[h->rule], key->name);
        if (h->kept < h->intervals)
            printf("  (%" PRIu64 " outliers left out)", h->intervals - h->kept);
        if (cal && cal->step > 0 && h->net <= qq_resolution_ticks(cal->step))
            printf("  (net within the counter's resolution, %.0f ticks: not resolved)",
                   qq_resolution_ticks(cal->step));
        printf("\n");
    }
    printf("\n");
}

/* The calibrated empty state, or why there is no figure: at or below the
 * counter's resolution it cannot be told from 0 (qq_calib_resolved). */
static void print_calib(const struct qq_calib *cal)
{
    const char *reads = cal->ordered ? "ordered" : "unordered";
    if (qq_calib_resolved(cal)) {
        printf("          empty state = %.1f ticks (min %.0f, median %.1f; %u "
               "timed), counter step %.0f ticks, %s reads\n\n",
               cal->empty_typical, cal->empty_min, cal->empty_median, cal->samples, cal->step,
               reads);
        return;
    }
    printf("          empty state: below the counter's resolution (%.1f ticks), the "
           "calibration cannot resolve it\n"
           "          (typical %.2f, min %.0f, median %.1f of %u timed), ",
           qq_resolution_ticks(cal->step), cal->empty_typical, cal->empty_min, cal->empty_median,
           cal->samples);
    if (cal->step > 0)
        printf("counter step %.0f ticks, %s reads\n\n", cal->step, reads);
    else
        printf("no counter step seen (all read the same), %s reads\n\n", reads);
}

/* Node I's threads, when it has more than one: name, OS id, events and
 * drops; with PER_THREAD each one's states (hits, intervals, ticks per hit
 * raw and net), from a pass over its own entries. Returns 0 or the
 * reader's error. */
static int print_threads(const struct qq_file *f, uint32_t i, int per_thread,
                         const struct qq_calib *cal)
{
    uint32_t nt = qq_file_nthreads(f, i), nkeys = qq_file_nkeys(f);
    if (nt < 2 && !per_thread)
        return 0;
    printf("Threads: %u\n\n    Thread          Tid       Events    Dropped    Name\n", nt);
    for (uint32_t t = 0; t < nt; t++) {
        const struct qq_thread_info *ti = qq_file_thread(f, i, t);
        printf("    %6u %12" PRIu64 " %12" PRIu64 " %10" PRIu64 "    '%s'\n", ti->index, ti->tid,
               ti->events, ti->dropped, ti->name);
    }
    printf("\n");
    if (!per_thread)
        return 0;
    struct qq_key_summary *ks = calloc(nkeys ? nkeys : 1, sizeof *ks);
    struct qq_hit_stat *hs = calloc(nkeys ? nkeys : 1, sizeof *hs);
    int rc = ks && hs ? 0 : QQ_ENOMEM;
    for (uint32_t t = 0; rc == 0 && t < nt; t++) {
        struct qq_node_summary ns;
        if ((rc = qq_file_thread_stats(f, i, t, &ns, ks, hs)) != 0)
            break;
        printf("Thread %u ('%s'): states\n\n", t, qq_file_thread(f, i, t)->name);
        printf("      Hits    Intervals      Per hit          Net    Name\n");
        for (uint32_t k = 0; k < nkeys; k++) {
            const struct qq_key_info *key = qq_file_key(f, k);
            if (key->type != QQ_TYPE_STATE || ks[k].hits == 0)
                continue;
            printf("%u: %6" PRIu64 " %12" PRIu64 " %12.1f %12.1f    '%s'", k + 1, ks[k].hits,
                   hs[k].intervals, hs[k].raw, cal ? hs[k].net : hs[k].raw, key->name);
            if (ks[k].unbalanced)
                printf("  (%" PRIu64 " unbalanced)", ks[k].unbalanced);
            printf("\n");
        }
        printf("\n");
    }
    free(ks);
    free(hs);
    return rc;
}

/* Node I's tables, from one pass over its entries (the file is streamed:
 * a damaged entry is found here). Returns 0 or the reader's error. */
/* Each state key's application signature on this node (docs/MODELS.md):
 * the counts named "sig:KEY:FIELD", one line a key. */
static void print_signature(const struct qq_file *f, const struct qq_key_summary *ks)
{
    uint32_t nkeys = qq_file_nkeys(f);
    int header = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
        const struct qq_key_info *key = qq_file_key(f, k);
        if (key->type != QQ_TYPE_STATE)
            continue;
        size_t len = strlen(key->name);
        int any = 0;
        for (uint32_t c = 0; c < nkeys; c++) {
            const char *n = qq_file_key(f, c)->name;
            if (qq_file_key(f, c)->type != QQ_TYPE_COUNT || strncmp(n, "sig:", 4) ||
                strncmp(n + 4, key->name, len) || n[4 + len] != ':')
                continue;
            if (!header)
                printf("Signatures: the sig: counts of each state key (docs/MODELS.md)\n\n");
            header = 1;
            if (!any)
                printf("  '%s':", key->name);
            printf("%s %s %" PRId64, any ? "," : "", n + 5 + len, ks[c].isum);
            any = 1;
        }
        if (any)
            printf("\n");
    }
    if (header)
        printf("\n");
    else
        printf("Signatures: no state key has sig: counts\n\n");
}

static int print_node(const struct qq_file *f, uint32_t i, int per_thread, int signature)
{
    const struct qq_node_info *n = qq_file_node(f, i);
    uint32_t nkeys = qq_file_nkeys(f);
    struct qq_key_summary *ks = calloc(nkeys ? nkeys : 1, sizeof *ks);
    struct qq_hit_stat *hs = calloc(nkeys ? nkeys : 1, sizeof *hs);
    struct qq_node_summary ns;
    int rc = ks && hs ? qq_file_node_stats(f, i, &ns, ks, hs) : QQ_ENOMEM;
    if (rc != 0) {
        free(ks);
        free(hs);
        return rc;
    }
    uint64_t from = ns.first_tick >= n->base_tick ? ns.first_tick - n->base_tick : 0;
    uint64_t to = ns.last_tick >= n->base_tick ? ns.last_tick - n->base_tick : 0;
    struct qqb_count nk, nst;
    printf("Node %4u:  %.3f MHz, %s, %s, ticks from %" PRIu64 " to %" PRIu64 "\n\n", n->node,
           n->mhz, qqb_count(&nk, nkeys, "key"), qqb_count(&nst, ns.state_events, "state"), from,
           to);
    printf("          ET = %.6f sec\n\n", ns.elapsed_sec);
    if (n->dropped)
        printf("          DROPPED %" PRIu64 " events: the buffer was full "
               "(raise QQInit's size or QQ_EVENTS)\n\n",
               n->dropped);
    struct qq_calib cal;
    int have_cal = qq_file_calib(f, i, &cal);
    if (have_cal) {
        print_calib(&cal);
        char path[300];
        qqb_tick_path_text(&cal, path, sizeof path);
        printf("          tick path: %s\n\n", path);
    }
    if (n->flags & QQ_NODE_OFFSET_VALID)
        printf("          tick offset to node 0: %" PRId64 " ticks (+/- %.0f)\n\n", n->tick_offset,
               n->offset_error);
    if ((rc = print_threads(f, i, per_thread, have_cal ? &cal : NULL)) != 0) {
        free(ks);
        free(hs);
        return rc;
    }

    double et_ticks = (double)to;
    int any[5] = {0};
    for (uint32_t k = 0; k < nkeys; k++)
        any[qq_file_key(f, k)->type] = 1;

    if (any[QQ_TYPE_STATE]) {
        printf("State outputs: Counts are millions of cycles\n\n");
        printf(" Intervals      Time    Percent    Name\n");
        for (uint32_t k = 0; k < nkeys; k++) {
            const struct qq_key_info *key = qq_file_key(f, k);
            if (key->type != QQ_TYPE_STATE)
                continue;
            double pct = et_ticks > 0 ? 100.0 * (double)ks[k].state_ticks / et_ticks : 0;
            printf("%u: %6" PRIu64 "   %11.6f %8.3f%%   '%s'", k + 1, ks[k].intervals,
                   (double)ks[k].state_ticks / 1e6, pct, key->name);
            if (ks[k].unbalanced)
                printf("  (%" PRIu64 " unbalanced)", ks[k].unbalanced);
            printf("\n");
        }
        printf("\n");
        print_per_hit(f, hs, have_cal ? &cal : NULL);
    }
    if (signature)
        print_signature(f, ks);
    if (any[QQ_TYPE_MARK]) {
        printf("Mark outputs:\n\n      Hits    Name\n");
        for (uint32_t k = 0; k < nkeys; k++)
            if (qq_file_key(f, k)->type == QQ_TYPE_MARK)
                printf("%u: %6" PRIu64 "    '%s'\n", k + 1, ks[k].hits, qq_file_key(f, k)->name);
        printf("\n");
    }
    if (any[QQ_TYPE_COUNT]) {
        printf("Count outputs:\n\n      Hits            Sum          Min          Max    Name\n");
        for (uint32_t k = 0; k < nkeys; k++)
            if (qq_file_key(f, k)->type == QQ_TYPE_COUNT)
                printf("%u: %6" PRIu64 " %14" PRId64 " %12" PRId64 " %12" PRId64 "    '%s'%s\n",
                       k + 1, ks[k].hits, ks[k].isum, ks[k].imin, ks[k].imax,
                       qq_file_key(f, k)->name,
                       ks[k].isum == INT64_MAX || ks[k].isum == INT64_MIN
                           ? "  (sum saturated: beyond 64 bits)"
                           : "");
        printf("\n");
    }
    if (any[QQ_TYPE_VALUE]) {
        printf(
            "Value outputs:\n\n      Hits           Mean            Min            Max    Name\n");
        for (uint32_t k = 0; k < nkeys; k++)
            if (qq_file_key(f, k)->type == QQ_TYPE_VALUE)
                printf("%u: %6" PRIu64 " %14.6g %14.6g %14.6g    '%s'\n", k + 1, ks[k].hits,
                       ks[k].hits ? ks[k].dsum / (double)ks[k].hits : 0.0, ks[k].dmin, ks[k].dmax,
                       qq_file_key(f, k)->name);
        printf("\n");
    }
    struct qq_mem_table mt;
    if (qq_file_mem(f, i, &mt)) {
        qq_mem_print_table(stdout, &mt);
        printf("\n");
    }
    free(ks);
    free(hs);
    return 0;
}

/* The parameters QQTune chose (the file's TUNE records): each candidate's
 * fastest call, the rank that ran it, and the choice marked. */
static void print_tunes(const struct qq_file *f)
{
    for (uint32_t i = 0; i < qq_file_ntunes(f); i++) {
        const struct qq_tune_info *t = qq_file_tune(f, i);
        struct qqb_count nc, nr;
        printf("Tuned '%s' = %" PRId64 ": %s over %s, %u round%s each\n\n", t->name,
               t->cand[t->choice].value, qqb_count(&nc, t->ncand, "candidate"),
               qqb_count(&nr, t->nodes, "rank"), t->reps, t->reps == 1 ? "" : "s");
        printf("           Value      Fastest (s)   Runs   Rank\n");
        for (uint32_t c = 0; c < t->ncand; c++)
            printf("  %s %12" PRId64 "   %14.6g %6u %6u\n", c == t->choice ? "chosen" : "      ",
                   t->cand[c].value, t->cand[c].seconds, t->cand[c].runs, t->cand[c].node);
        printf("\n");
    }
}

int qqb_st_files(char **files, size_t nfiles, long only, int per_thread, int signature)
{
    for (size_t a = 0; a < nfiles; a++) {
        struct qq_file *f;
        int rc = qq_file_open_stream(files[a], &f);
        if (rc != 0) {
            fprintf(stderr, "qqbench st: error: %s\n", qq_file_errmsg(f));
            qq_file_close(f);
            return -1;
        }
        uint32_t nn = qq_file_nnodes(f);
        struct qqb_count nc;
        printf("File %s:    %s\n\n", files[a], qqb_count(&nc, nn, "node"));
        if (only >= 0 && (uint64_t)only >= nn) {
            fprintf(stderr, "qqbench st: error: %s has %s, no node %ld\n", files[a], nc.s, only);
            qq_file_close(f);
            return -1;
        }
        print_tunes(f);
        for (uint32_t i = 0; i < nn && rc == 0; i++)
            if (only < 0 || (uint32_t)only == i)
                rc = print_node(f, i, per_thread, signature);
        if (rc != 0) {
            fflush(stdout);
            fprintf(stderr, "qqbench st: error: %s\n",
                    rc == QQ_ENOMEM ? "out of memory" : qq_file_errmsg(f));
            qq_file_close(f);
            return -1;
        }
        qq_file_close(f);
    }
    return 0;
}
