/* export_csv.c - qqbench export --format csv: one row per entry (RFC 4180). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export.h"

/* A field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_field(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

/* Returns 0, or 1 when the reader met an error (a damaged entry, a file
 * that shrank: qq_file_errmsg says it). */
int qqb_export_csv(const struct qqb_trace *t, FILE *fp, char *err, size_t errsz)
{
    (void)err, (void)errsz;
    fprintf(fp, "node,key,type,info,tick,seconds,run_seconds,thread,tid\n");
    for (uint32_t n = 0; n < t->nnodes; n++) {
        if (!t->node_on[n])
            continue;
        const struct qq_node_info *ni = qq_file_node(t->f, n);
        struct qqb_events it;
        const struct qq_event *e;
        qqb_events_open(t->f, n, &it);
        while ((e = qqb_events_next(&it))) {
            /* The entry's thread: its reserved field, which the reader
             * checked against the node's thread table (NULL: none). */
            const struct qq_thread_info *ti = qq_file_thread(t->f, n, e->reserved);
            if (!t->key_on[e->key])
                continue;
            const struct qq_key_info *k = qq_file_key(t->f, e->key);
            fprintf(fp, "%u,", ni->node);
            csv_field(fp, k->name);
            fprintf(fp, ",%s,", qqb_trace_type_name(k->type));
            if (k->type == QQ_TYPE_VALUE)
                fprintf(fp, "%.17g", e->info.d);
            else
                fprintf(fp, "%" PRId64, e->info.i);
            fprintf(fp, ",%" PRIu64 ",%.9f,%.9f,%u,", e->tick, qqb_trace_node_sec(t, n, e->tick),
                    qqb_trace_sec(t, n, e->tick), ti ? ti->index : 0);
            if (ti && ti->tid)
                fprintf(fp, "%" PRIu64, ti->tid);
            fputc('\n', fp);
        }
        if (qqb_events_close(&it) != 0)
            return 1;
    }
    return 0;
}
