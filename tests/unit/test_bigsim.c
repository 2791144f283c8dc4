/* test_bigsim.c - trace/bigsim.c, BigSim's TRACEBIGSIM lines: a record's fields in any order,
 * blanks where BigSim writes them, PAPI counters kept out; a line that is not a record is 0;
 * every fault -1 with its reason and the 1-based column where it is (an unknown or repeated
 * field, a brace missing or never closed, an empty or overlong event name or one outside the
 * names rule (a control character, a backquote, bytes that are not UTF-8), a number that is
 * not one or not finite, two numbers where one goes, a negative time, a seqno that is not a
 * whole number up to 2^62, more than 20 parameters, no event or no time). */
#include <string.h>

#include "bigsim.h"
#include "test.h"

static struct qqb_bigsim_rec rec;
static char err[256];
static int col;

static int parse(const char *line)
{
    err[0] = '\0';
    col = 0;
    return qqb_bigsim_parse_line(line, &rec, &col, err, sizeof err);
}

/* LINE refused with WHY at column AT. */
#define REFUSED(line, why, at)                                                                     \
    do {                                                                                           \
        CHECK_INT_EQ(parse(line), -1);                                                             \
        CHECK_STR_EQ(err, why);                                                                    \
        CHECK_INT_EQ(col, at);                                                                     \
    } while (0)

static void test_records(void)
{
    CHECK_INT_EQ(parse("TRACEBIGSIM: event:{ doWork } seqno: { 0 } time:{ 0.000015009 } "
                       "params:{ 100.00 0.00 2.5e1 }"),
                 1);
    CHECK_STR_EQ(rec.event, "doWork");
    CHECK_INT_EQ(rec.seqno, 0);
    CHECK_DBL_NEAR(rec.time, 0.000015009, 0);
    CHECK(rec.nparams == 3 && rec.p[0] == 100 && rec.p[1] == 0 && rec.p[2] == 25);
    /* Any order, PAPI kept out, no seqno (-1), blanks around and a CR. */
    CHECK_INT_EQ(parse("  \tTRACEBIGSIM: params:{1} PAPI:{ 1234 x } time:{2}event:{ a b }\r\n"), 1);
    CHECK_STR_EQ(rec.event, "a b");
    CHECK_INT_EQ(rec.seqno, -1);
    CHECK(rec.time == 2 && rec.nparams == 1 && rec.p[0] == 1);
    /* No parameters at all, or an empty list: none. */
    CHECK_INT_EQ(parse("TRACEBIGSIM: event:{e} time:{0}"), 1);
    CHECK_INT_EQ(rec.nparams, 0);
    CHECK_INT_EQ(parse("TRACEBIGSIM: event:{e} time:{0} params:{ }"), 1);
    CHECK_INT_EQ(rec.nparams, 0);
    /* 20 parameters, and the largest seqno. */
    CHECK_INT_EQ(parse("TRACEBIGSIM: event:{e} time:{1} seqno:{4611686018427387904} "
                       "params:{1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20}"),
                 1);
    CHECK(rec.nparams == 20 && rec.p[19] == 20 && rec.seqno == 4611686018427387904L);
    /* An event name of 127 characters fits. */
    char line[300];
    snprintf(line, sizeof line, "TRACEBIGSIM: event:{%0127d} time:{1}", 0);
    CHECK_INT_EQ(parse(line), 1);
    CHECK_INT_EQ(strlen(rec.event), 127);
}

static void test_not_records(void)
{
    CHECK_INT_EQ(parse(""), 0);
    CHECK_INT_EQ(parse("# a comment"), 0);
    CHECK_INT_EQ(parse("TRACEBIGSIM event:{e} time:{1}"), 0); /* no colon: another word */
    CHECK_INT_EQ(parse("tracebigsim: event:{e} time:{1}"), 0);
}

static void test_faults(void)
{
    REFUSED("TRACEBIGSIM: event:{e} when:{1}", "unknown field 'when:'", 24);
    REFUSED("TRACEBIGSIM: event:{e} time:{1} time:{2}", "field 'time:' twice", 33);
    REFUSED("TRACEBIGSIM: event:{e} 5", "expected a field (event:, time:, params:, seqno:, PAPI:)",
            24);
    REFUSED("TRACEBIGSIM: event e", "expected a field (event:, time:, params:, seqno:, PAPI:)", 14);
    REFUSED("TRACEBIGSIM: event: e} time:{1}", "expected '{' after 'event:'", 21);
    REFUSED("TRACEBIGSIM: event:{e time:{1", "'{' of 'event:' is never closed", 20);
    REFUSED("TRACEBIGSIM: event:{  } time:{1}", "empty event name", 23);
    char line[300];
    snprintf(line, sizeof line, "TRACEBIGSIM: event:{%0128d} time:{1}", 0);
    REFUSED(line, "event name longer than 127 characters", 21);
    /* An event name is printed and becomes a series' name: the names rule
     * (names.h), never an escape sequence to the terminal. */
    REFUSED("TRACEBIGSIM: event:{ a\x1b[2Jb } time:{1}",
            "event name has the byte 0x1b at 2; expected 1 to 255 bytes of UTF-8 with no control "
            "character and no backquote",
            22);
    REFUSED("TRACEBIGSIM: event:{ a`b } time:{1}",
            "event name has the byte 0x60 at 2; expected 1 to 255 bytes of UTF-8 with no control "
            "character and no backquote",
            22);
    REFUSED("TRACEBIGSIM: event:{ \xff } time:{1}",
            "event name has the byte 0xff at 1; expected 1 to 255 bytes of UTF-8 with no control "
            "character and no backquote",
            22);
    CHECK_INT_EQ(parse("TRACEBIGSIM: event:{ \xc2\xb5s } time:{1}"), 1); /* UTF-8 is fine */
    REFUSED("TRACEBIGSIM: event:{e} time:{ abc }", "expected a number in 'time:'", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{ nan }", "expected a number in 'time:'", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{ inf }", "expected a number in 'time:'", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{ 1e999 }", "expected a number in 'time:'", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{ 1,5 }", "expected a number in 'time:'", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{ 1 2 }", "one number expected in 'time:'", 33);
    REFUSED("TRACEBIGSIM: event:{e} time:{ }", "'time:' holds no number", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{ -1 }", "negative time", 31);
    REFUSED("TRACEBIGSIM: event:{e} time:{1} seqno:{ 1.5 }",
            "seqno must be a whole number from 0 to 2^62", 41);
    REFUSED("TRACEBIGSIM: event:{e} time:{1} seqno:{-1}",
            "seqno must be a whole number from 0 to 2^62", 40);
    REFUSED("TRACEBIGSIM: event:{e} time:{1} seqno:{1e19}",
            "seqno must be a whole number from 0 to 2^62", 40);
    REFUSED("TRACEBIGSIM: event:{e} time:{1} params:{1 x}", "expected a number in 'params:'", 43);
    REFUSED("TRACEBIGSIM: event:{e} time:{1} "
            "params:{1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21}",
            "more than 20 parameters", 92);
    REFUSED("TRACEBIGSIM: time:{1}", "record without event:{ }", 22);
    REFUSED("TRACEBIGSIM: event:{e} ", "record without time:{ }", 24);
    REFUSED("TRACEBIGSIM:", "record without event:{ }", 13);
}

int main(void)
{
    RUN(test_records);
    RUN(test_not_records);
    RUN(test_faults);
    return TEST_DONE();
}
