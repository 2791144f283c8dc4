/* fuzz_qq_reader.c - libFuzzer target: any bytes through the .qq reader and every accessor a tool
 * uses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qq_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reader promises: after a successful open every offset, count and key
 * index it hands out is in range. Walk all of them, as st, compare and the
 * harness do, so the sanitizers see any read that is not. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct qq_file *f = NULL;
    if (qq_file_open_mem(data, size, "fuzz", &f) != 0) {
        if (f)
            (void)strlen(qq_file_errmsg(f));
        qq_file_close(f);
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
    }
    free(ks);
    free(hs);
    qq_file_close(f);
    return 0;
}
