/* fuzz_qq_reader.c - libFuzzer target: any bytes through the .qq reader and every accessor a tool
 * uses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qq_file.h"
#include "qq_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reader promises: after a successful open every offset, count and key
 * index it hands out is in range. Walk all of them, as st, compare and the
 * harness do, so the sanitizers see any read that is not. */
/* Open F's bytes streamed, from a file, in chunks of 3 entries, and take
 * every node's stats: 0 or the first error. With KS and HS (nkeys + 1
 * each per node, NN nodes) the figures are left there. A node whose
 * entries all passed gives each thread's first and last entry alone too
 * (the earliest and the latest of them are the node's first and last
 * ticks), and refuses the index past its end. */
static int streamed(const uint8_t *data, size_t size, struct qq_key_summary *ks,
                    struct qq_hit_stat *hs)
{
    char path[64];
    snprintf(path, sizeof path, "fuzz-stream-%ld.qq", (long)getpid());
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size)
        abort();
    fclose(fp);
    struct qq_file *s = NULL;
    qq__read_chunk = 72;
    int rc = qq_file_open_stream(path, &s);
    uint32_t nk = rc == 0 ? qq_file_nkeys(s) : 0;
    for (uint32_t n = 0; rc == 0 && n < qq_file_nnodes(s); n++) {
        struct qq_node_summary ns;
        rc = qq_file_node_stats(s, n, &ns, ks ? ks + (size_t)n * (nk + 1) : NULL,
                                hs ? hs + (size_t)n * (nk + 1) : NULL);
        uint64_t entries = qq_file_node(s, n)->entries;
        struct qq_event e;
        /* The node's first and last ticks: the earliest first entry and
         * the latest last entry of its threads (each thread a block). */
        uint64_t first = UINT64_MAX, last = 0;
        for (uint32_t t = 0; rc == 0 && t < qq_file_nthreads(s, n); t++) {
            const struct qq_thread_info *ti = qq_file_thread(s, n, t);
            if (!ti->events)
                continue;
            if (qq_file_entry_at(s, n, ti->first, &e) != 0)
                abort();
            first = e.tick < first ? e.tick : first;
            if (qq_file_entry_at(s, n, ti->first + ti->events - 1, &e) != 0)
                abort();
            last = e.tick > last ? e.tick : last;
        }
        if (rc == 0 && entries && (first != ns.first_tick || last != ns.last_tick))
            abort();
        if (rc == 0 && qq_file_entry_at(s, n, entries, &e) != QQ_EINVAL)
            abort();
    }
    if (rc)
        (void)strlen(qq_file_errmsg(s));
    qq_file_close(s);
    unlink(path);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct qq_file *f = NULL;
    if (qq_file_open_mem(data, size, "fuzz", &f) != 0) {
        if (f)
            (void)strlen(qq_file_errmsg(f));
        qq_file_close(f);
        /* Streamed, the same bytes are refused too (at open or at a node). */
        if (streamed(data, size, NULL, NULL) == 0)
            abort();
        return 0;
    }
    uint32_t nk = qq_file_nkeys(f), nn = qq_file_nnodes(f);
    for (uint32_t k = 0; k < nk; k++)
        (void)strlen(qq_file_key(f, k)->name);
    const char *name, *value;
    for (size_t i = 0; qq_file_meta_at(f, i, &name, &value) == 0; i++)
        (void)(strlen(name) + strlen(value));
    struct qq_key_summary *ks = calloc(nk + 1, sizeof *ks);
    struct qq_hit_stat *hs = calloc(nk + 1, sizeof *hs);
    for (uint32_t n = 0; n < nn && ks && hs; n++) {
        const struct qq_node_info *ni = qq_file_node(f, n);
        const struct qq_event *e = qq_file_entries(f, n);
        uint64_t acc = 0;
        for (uint64_t j = 0; j < ni->entries; j++)
            acc += e[j].key + e[j].tick;
        (void)acc;
        struct qq_node_summary ns;
        qq_file_summarize(f, n, &ns, ks);
        qq_file_hit_stats(f, n, hs);
        struct qq_mem_table mt;
        if (qq_file_mem(f, n, &mt))
            for (uint32_t r = 0; r < mt.nrows; r++)
                (void)strlen(mt.rows[r].name);
        struct qq_calib c;
        qq_file_calib(f, n, &c);
        /* The threads (THRD): their blocks tile the node's entries, and
         * each one's own pass succeeds on a file read whole. */
        uint64_t covered = 0;
        for (uint32_t t = 0; t < qq_file_nthreads(f, n); t++) {
            const struct qq_thread_info *ti = qq_file_thread(f, n, t);
            (void)strlen(ti->name);
            if (ti->first != covered || qq_file_thread_stats(f, n, t, &ns, ks, hs) != 0)
                abort();
            covered += ti->events;
        }
        if (covered != ni->entries)
            abort();
    }
    free(ks);
    free(hs);
    /* Streamed, the same figures, node by node. */
    size_t cells = (size_t)(nk + 1) * (nn ? nn : 1);
    struct qq_key_summary *k1 = calloc(cells, sizeof *k1), *k2 = calloc(cells, sizeof *k2);
    struct qq_hit_stat *h1 = calloc(cells, sizeof *h1), *h2 = calloc(cells, sizeof *h2);
    if (k1 && k2 && h1 && h2) {
        for (uint32_t n = 0; n < nn; n++) {
            struct qq_node_summary ns;
            if (qq_file_node_stats(f, n, &ns, k1 + (size_t)n * (nk + 1),
                                   h1 + (size_t)n * (nk + 1)) != 0)
                abort();
        }
        if (streamed(data, size, k2, h2) != 0 || memcmp(k1, k2, cells * sizeof *k1) != 0 ||
            memcmp(h1, h2, cells * sizeof *h1) != 0)
            abort();
    }
    free(k1);
    free(k2);
    free(h1);
    free(h2);
    qq_file_close(f);
    return 0;
}
