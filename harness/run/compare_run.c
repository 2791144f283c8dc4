/* compare_run.c - `qqbench compare`: the two files opened, compared, printed. */
#include <stdio.h>
#include <stdlib.h>

#include "compare_print.h"
#include "compare_run.h"
#include "judge_compare.h"
#include "pipeline.h"
#include "trace.h"
#include "words.h"

/* PATH opened into S, its ticks checked, its keys summed and their ticks per
 * hit made (one pass). 0, or -1 said. */
static int open_side(const char *path, struct qqb_qq_side *s)
{
    if (qq_file_open_stream(path, &s->f) != 0) {
        fprintf(stderr, "qqbench compare: error: %s\n", qq_file_errmsg(s->f));
        return -1;
    }
    char err[600];
    if (qqb_ticks_judgeable(s->f, path, err, sizeof err) != 0 ||
        qqb_qq_side_load(s, err, sizeof err) != 0) {
        fprintf(stderr, "qqbench compare: error: %s\n", err);
        return -1;
    }
    return 0;
}

/* The tables of A against B. 0, or -1 out of memory (said). */
static int print_tables(struct qqb_qq_side *a, struct qqb_qq_side *b, int all)
{
    struct qqb_key_cmp *keys = NULL;
    struct qqb_mem_cmp *mem = NULL;
    size_t nk = 0, nm = 0;
    int rc = -1;
    if (qqb_compare_keys(a, b, &keys, &nk) == 0) {
        qqb_compare_print_keys(keys, nk, all);
        if (qqb_compare_mem(a, b, &mem, &nm) == 0) {
            qqb_compare_print_mem(mem, nm, all);
            rc = 0;
        }
    }
    if (rc)
        fprintf(stderr, "qqbench compare: error: out of memory\n");
    free(keys);
    free(mem);
    return rc;
}

int qqb_compare_run(const char *fa, const char *fb, int all)
{
    struct qqb_qq_side a = {0}, b = {0};
    int rc = QQB_EXIT_USAGE;
    if (open_side(fa, &a) == 0 && open_side(fb, &b) == 0) {
        struct qqb_count na, nb;
        printf("A: %s (%s, %.3f MHz)\nB: %s (%s, %.3f MHz)\n\n", fa,
               qqb_count(&na, qq_file_nnodes(a.f), "node"), a.mhz, fb,
               qqb_count(&nb, qq_file_nnodes(b.f), "node"), b.mhz);
        if (print_tables(&a, &b, all) == 0) {
            printf("\nOne launch per side: differences below a few percent are within a "
                   "machine's noise;\nuse 'qqbench run' for verdicts.\n");
            rc = QQB_EXIT_OK;
        }
    }
    qqb_qq_side_free(&a);
    qqb_qq_side_free(&b);
    qq_file_close(a.f);
    qq_file_close(b.f);
    return rc;
}
