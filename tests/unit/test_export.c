/* test_export.c - harness/trace/export.c, export_csv.c, export_chrome.c on hand-made files: key
 * names with commas, quotes, backslashes, UTF-8 or nothing, quoted by CSV's rules and escaped in
 * Chrome's JSON (read back whole by a JSON parser); an empty node, a state left on; a name the
 * reader refuses, an unknown exporter, a missing or empty input, an output that cannot be opened.
 */
#define _GNU_SOURCE /* memmem */
#define QQ_ENABLE   1
#include <inttypes.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "craft.h"
#include "export.h"
#include "qq.h"
#include "qq_file.h"
#include "test.h"
#include "trace.h"

static int kcomma, kquote, kline, kvalue, kplain, kempty;

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    rewind(fp);
    char *p = malloc((size_t)len + 1);
    if (p && fread(p, 1, (size_t)len, fp) != (size_t)len) {
        free(p);
        p = NULL;
    }
    if (p)
        p[len] = '\0';
    fclose(fp);
    return p;
}

/* Export PATH in FORMAT through the exporter alone into OUT; its return. */
static int export_to(const char *path, const char *format, const char *nodes, const char *out,
                     char *err, size_t errsz)
{
    struct qqb_export_opts o = {path, format, out, nodes, NULL};
    return qqb_export(&o, err, errsz);
}

/* Two nodes at 2100 MHz: node 0 with every hostile key (the state "a,b"
 * on at 2100 ticks, off at 4200; the mark "say \"hi\""; the count with a
 * backslash and UTF-8; "plain" on at 6300 and never off; the mark named
 * ""; the value named ",\""), node 1 with nothing. */
static void make_file(const char *path)
{
    struct qq_event e0[7];
    memset(e0, 0, sizeof e0);
    e0[0] = (struct qq_event){.key = (uint32_t)kcomma, .tick = 2100, .info.i = 1};
    e0[1] = (struct qq_event){.key = (uint32_t)kquote, .tick = 3150};
    e0[2] = (struct qq_event){.key = (uint32_t)kcomma, .tick = 4200, .info.i = 0};
    e0[3] = (struct qq_event){.key = (uint32_t)kline, .tick = 5250, .info.i = -7};
    e0[4] = (struct qq_event){.key = (uint32_t)kplain, .tick = 6300, .info.i = 1};
    e0[5] = (struct qq_event){.key = (uint32_t)kempty, .tick = 7350};
    e0[6] = (struct qq_event){.key = (uint32_t)kvalue, .tick = 8400, .info.d = 2.5};
    const struct qq_event *const ev[2] = {e0, NULL};
    const uint64_t n[2] = {7, 0};
    CHECK_INT_EQ(craft_file(path, 2, ev, n), 0);
}

/* The CSV of every entry, byte for byte: a name with a comma or a quote
 * quoted (the quote doubled), a backslash, UTF-8 and an empty name as they
 * are; the empty node gives no row. */
static void test_csv(void)
{
    char err[512] = "";
    CHECK_INT_EQ(export_to("hostile.qq", "csv", NULL, "out.csv", err, sizeof err), 0);
    char *csv = slurp("out.csv");
    CHECK_STR_EQ(csv, "node,key,type,info,tick,seconds,run_seconds,thread,tid\n"
                      "0,\"a,b\",state,1,2100,0.000001000,0.000001000,0,\n"
                      "0,\"say \"\"hi\"\"\",mark,0,3150,0.000001500,0.000001500,0,\n"
                      "0,\"a,b\",state,0,4200,0.000002000,0.000002000,0,\n"
                      "0,back\\slash \xc3\xa9,count,-7,5250,0.000002500,0.000002500,0,\n"
                      "0,plain,state,1,6300,0.000003000,0.000003000,0,\n"
                      "0,,mark,0,7350,0.000003500,0.000003500,0,\n"
                      "0,\",\"\"\",value,2.5,8400,0.000004000,0.000004000,0,\n");
    free(csv);
    CHECK_INT_EQ(test_temporaries("out.csv"), 0);
    /* The empty node alone: the header and nothing else. */
    CHECK_INT_EQ(export_to("hostile.qq", "csv", "1", "empty.csv", err, sizeof err), 0);
    csv = slurp("empty.csv");
    CHECK_STR_EQ(csv, "node,key,type,info,tick,seconds,run_seconds,thread,tid\n");
    free(csv);
}

/* The event of TRACE named NAME with phase PH (NULL when none, or more
 * than one). */
static json_t *event(json_t *trace, const char *name, const char *ph, json_int_t pid)
{
    json_t *found = NULL, *ev;
    size_t i;
    int n = 0;
    json_array_foreach(json_object_get(trace, "traceEvents"), i, ev)
    {
        if (!strcmp(json_string_value(json_object_get(ev, "name")), name) &&
            !strcmp(json_string_value(json_object_get(ev, "ph")), ph) &&
            json_integer_value(json_object_get(ev, "pid")) == pid) {
            found = ev;
            n++;
        }
    }
    return n == 1 ? found : NULL;
}

static double num(json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* Chrome's JSON read back whole by jansson: each hostile name exactly as
 * registered, each event at its microsecond, the state left on a slice to
 * the node's last entry marked unbalanced, the empty node a process with
 * no event, the count of events in otherData true. */
static void test_chrome(void)
{
    char err[512] = "";
    CHECK_INT_EQ(export_to("hostile.qq", "chrome", NULL, "out.json", err, sizeof err), 0);
    json_error_t je;
    json_t *j = json_load_file("out.json", 0, &je);
    CHECK(j != NULL);
    if (!j) {
        printf("  %s:%d: %s\n", "out.json", je.line, je.text);
        return;
    }
    json_t *e = event(j, "a,b", "X", 0);
    CHECK(e && num(e, "ts") == 1.0 && num(e, "dur") == 1.0 && !json_object_get(e, "args"));
    e = event(j, "say \"hi\"", "i", 0);
    CHECK(e && num(e, "ts") == 1.5);
    e = event(j, "back\\slash \xc3\xa9", "C", 0);
    CHECK(e && num(e, "ts") == 2.5 &&
          json_integer_value(json_object_get(json_object_get(e, "args"), "value")) == -7);
    e = event(j, "plain", "X", 0);
    CHECK(e && num(e, "ts") == 3.0 && num(e, "dur") == 1.0 &&
          json_is_true(json_object_get(json_object_get(e, "args"), "unbalanced")));
    e = event(j, "", "i", 0);
    CHECK(e && num(e, "ts") == 3.5);
    e = event(j, ",\"", "C", 0);
    CHECK(e && num(e, "ts") == 4.0 &&
          json_number_value(json_object_get(json_object_get(e, "args"), "value")) == 2.5);
    /* Tracks named by key (no thread ids): a state's lane is its key + 1. */
    e = event(j, "a,b", "X", 0);
    CHECK(e && json_integer_value(json_object_get(e, "tid")) == kcomma + 1);
    json_t *events = json_object_get(j, "traceEvents");
    size_t i, node1 = 0, named1 = 0;
    json_array_foreach(events, i, e)
    {
        if (json_integer_value(json_object_get(e, "pid")) != 1)
            continue;
        node1++;
        CHECK_STR_EQ(json_string_value(json_object_get(e, "ph")), "M");
        named1 += !strcmp(json_string_value(json_object_get(e, "name")), "process_name");
    }
    CHECK(node1 > 0);
    CHECK_INT_EQ((int)named1, 1);
    json_t *other = json_object_get(j, "otherData");
    CHECK_INT_EQ((int)json_integer_value(json_object_get(other, "trace_events")),
                 (int)json_array_size(events));
    CHECK_INT_EQ((int)json_array_size(json_object_get(other, "nodes")), 2);
    CHECK_STR_EQ(json_string_value(json_object_get(other, "file")), "hostile.qq");
    json_decref(j);
    CHECK_INT_EQ(test_temporaries("out.json"), 0);
}

/* A name the reader refuses (a line break where the writer put '?'): no
 * export, one line saying why, an old output left as it was, no
 * temporary. */
static void test_damaged_keeps_old(void)
{
    char *q = slurp("hostile.qq");
    CHECK(q != NULL);
    if (!q)
        return;
    struct stat st;
    CHECK_INT_EQ(stat("hostile.qq", &st), 0);
    char *at = memmem(q, (size_t)st.st_size, "plain", 5);
    CHECK(at != NULL);
    if (at)
        at[2] = '\n';
    FILE *fp = fopen("damaged.qq", "wb");
    fwrite(q, 1, (size_t)st.st_size, fp);
    fclose(fp);
    free(q);
    const char *formats[] = {"csv", "chrome"};
    for (int f = 0; f < 2; f++) {
        fp = fopen("keep.out", "w");
        fputs("old\n", fp);
        fclose(fp);
        char err[512] = "";
        CHECK_INT_EQ(export_to("damaged.qq", formats[f], NULL, "keep.out", err, sizeof err), -1);
        CHECK(err[0] != '\0' && !strchr(err, '\n'));
        char *old = slurp("keep.out");
        CHECK_STR_EQ(old, "old\n");
        free(old);
        CHECK_INT_EQ(test_temporaries("keep.out"), 0);
    }
}

/* Refusals, each one line in ERR and no output made: an unknown
 * exporter, a missing or empty input, a node the file does not have, an
 * output in a folder that does not exist. */
static void test_refusals(void)
{
    char err[512] = "";
    unlink("none.out");
    CHECK_INT_EQ(export_to("hostile.qq", "xml", NULL, "none.out", err, sizeof err), -1);
    CHECK_STR_EQ(err, "--format 'xml': no such exporter");
    CHECK(access("none.out", F_OK) != 0);
    err[0] = '\0';
    CHECK_INT_EQ(export_to("missing.qq", "csv", NULL, "none.out", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "missing.qq");
    CHECK(access("none.out", F_OK) != 0);
    FILE *fp = fopen("empty.qq", "w");
    fclose(fp);
    err[0] = '\0';
    CHECK_INT_EQ(export_to("empty.qq", "chrome", NULL, "none.out", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "empty.qq");
    CHECK(access("none.out", F_OK) != 0);
    err[0] = '\0';
    CHECK_INT_EQ(export_to("hostile.qq", "csv", "2", "none.out", err, sizeof err), -1);
    CHECK(err[0] != '\0');
    CHECK(access("none.out", F_OK) != 0);
    err[0] = '\0';
    CHECK_INT_EQ(export_to("hostile.qq", "csv", NULL, "no/such/folder.csv", err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, "cannot write no/such/folder.csv");
    /* Every exporter is in the table, which ends with NULL. */
    int n = 0;
    for (const struct qqb_exporter *x = qqb_exporters; x->name; x++)
        n++;
    CHECK_INT_EQ(n, 2);
}

int main(void)
{
    QQInit(10);
    kcomma = QQAddState("a,b");
    kquote = QQAddMark("say \"hi\"");
    kline = QQAddCount("back\\slash \xc3\xa9");
    kvalue = QQAddValue(",\"");
    kplain = QQAddState("plain");
    kempty = QQAddMark("");
    make_file("hostile.qq");
    RUN(test_csv);
    RUN(test_chrome);
    RUN(test_damaged_keeps_old);
    RUN(test_refusals);
    return TEST_DONE();
}
