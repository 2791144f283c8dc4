/* qq_mem_print.c - MemPrint: the memory keys' table printed, from a snapshot or a file's. */

/* Never the redirection macros here: every malloc and free below is libc's. */
#define QQ__MEM_IMPL 1

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "qq_internal.h"
#include "qq_mem.h"
#include "qq_mem_internal.h"

/* Bytes to kilobytes, rounded up as on the paper's slide 23 (120 -> 1). */
static uint64_t kb(uint64_t bytes)
{
    return (bytes + 1023) / 1024;
}

/* R's peak as text: one figure where its bounds agree, "low..high" where
 * they do not (several threads on the key at once); in KB when KBYTES. */
static const char *peak_text(char *buf, size_t len, const struct qq_mem_row *r, int kbytes)
{
    uint64_t lo = r->peak_low < r->peak_bytes ? r->peak_low : r->peak_bytes, hi = r->peak_bytes;
    if (kbytes) {
        lo = kb(lo);
        hi = kb(hi);
    }
    if (lo == hi)
        snprintf(buf, len, "%" PRIu64, hi);
    else
        snprintf(buf, len, "%" PRIu64 "..%" PRIu64, lo, hi);
    return buf;
}

static void print_rows(FILE *fp, const struct qq_mem_table *t, int w)
{
    char peak[48];
    for (uint32_t i = 0; i < t->nrows; i++) {
        const struct qq_mem_row *r = &t->rows[i];
        fprintf(fp,
                "%-*.*s %8" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
                " %9s\n",
                w, w, r->name ? r->name : "", r->obj_size, r->created, r->deleted, kb(r->obj_bytes),
                kb(r->alloc_bytes), kb(r->obj_bytes + r->alloc_bytes),
                peak_text(peak, sizeof peak, r, 1));
    }
}

static void print_exact(FILE *fp, const struct qq_mem_table *t, int w)
{
    char peak[48];
    fprintf(fp, "\n%-*s %9s %9s %7s %12s %12s %12s\n", w, "Item", "Allocs", "Frees", "Double",
            "Obj bytes", "Alloc bytes", "Max bytes");
    for (uint32_t i = 0; i < t->nrows; i++) {
        const struct qq_mem_row *r = &t->rows[i];
        fprintf(fp,
                "%-*.*s %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12s\n",
                w, w, r->name ? r->name : "", r->allocs, r->frees, r->double_frees, r->obj_bytes,
                r->alloc_bytes, peak_text(peak, sizeof peak, r, 0));
    }
}

void qq_mem_print_table(FILE *fp, const struct qq_mem_table *t)
{
    if (!fp)
        fp = stdout;
    static const struct qq_mem_table none = {0, NULL, 0, 0};
    if (!t)
        t = &none;
    int w = 4; /* "Item" */
    uint64_t total = 0, dbl = 0;
    int bounds = 0;
    for (uint32_t i = 0; i < t->nrows; i++) {
        const struct qq_mem_row *r = &t->rows[i];
        size_t len = r->name ? strlen(r->name) : 0;
        if (len > (size_t)w)
            w = len > 40 ? 40 : (int)len;
        total += r->obj_bytes + r->alloc_bytes;
        dbl += r->double_frees;
        bounds |= r->peak_low < r->peak_bytes;
    }
    fprintf(fp, "Memory Allocation Total Allocated %" PRIu64 " KBytes\n", kb(total));
    fprintf(fp, "%-*s %8s %9s %9s %9s %9s %9s %9s\n", w, "", "Object", "Number", "Number", "Object",
            "Alloc", "Total", "Max");
    fprintf(fp, "%-*s %8s %9s %9s %9s %9s %9s %9s\n", w, "Item", "Size", "Created", "Deleted", "KB",
            "KB", "KB", "KB");
    print_rows(fp, t, w);
    int width = w + 9 + 6 * 10;
    for (int i = 0; i < width; i++)
        fputc('-', fp);
    fputc('\n', fp);
    fprintf(fp, "%-*s %8d %9d %9d %9d %9d %9d %9d\n", w, "1", 2, 3, 4, 5, 6, 7, 8);
    fprintf(fp, "Key\n"
                "1 - Internal name given to recording category\n"
                "2 - Size of one object in bytes (MEMADDOBJECT)\n"
                "3 - Number of objects created\n"
                "4 - Number of objects deleted\n"
                "5 - KBytes of live objects\n"
                "6 - KBytes of live allocations (malloc & co)\n"
                "7 - Total KBytes in use (5 + 6)\n"
                "8 - Maximum of 7 ever held\n");
    if (bounds)
        fprintf(fp, "    low..high: the maximum lies between the two (threads allocated on the "
                    "key at once)\n");
    /* The exact figures the KB columns round (slide 21: single-byte
     * accuracy), and the call counts. */
    print_exact(fp, t, w);
    fprintf(fp,
            "Tracked bytes %" PRIu64 ", process %" PRIu64 " KBytes (VmSize), foreign frees %" PRIu64
            ", double frees %" PRIu64 "\n",
            total, kb(t->process_bytes), t->foreign_frees, dbl);
}
void MemPrint(FILE *fp)
{
    struct qq__mem_snapshot s;
    int rc = qq__mem_snapshot(&s);
    if (rc < 0)
        return;
    if (rc == 0) {
        /* Nothing tracked yet: still the table's frame, with the default key. */
        static const struct qq_mem_row none = {.name = "default"};
        long pb = qq_mem_process_bytes();
        struct qq_mem_table t = {1, &none, 0, pb > 0 ? (uint64_t)pb : 0};
        qq_mem_print_table(fp, &t);
        return;
    }
    struct qq_mem_table t = {s.nrows, s.rows, s.foreign_frees, s.process_bytes};
    qq_mem_print_table(fp, &t);
    qq__mem_snapshot_free(&s);
    uint64_t lost = qq__mem_untracked();
    if (lost)
        fprintf(fp ? fp : stdout,
                "Untracked blocks %" PRIu64 " (no memory for the address table)\n", lost);
}
