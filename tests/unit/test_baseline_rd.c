/* test_baseline_rd.c - store/baseline_rd.h, the baseline reader's cursor, on crafted YAML: each
 * value reader takes what the format writes (whole numbers up to a limit, decimals, .inf and
 * .nan where allowed, true/false, flow lists, a name) and refuses the rest with one line naming
 * the file, the value's line and column, the field and what it got: a number past its limit or
 * quoted, hex, "nan", a number past a double's range, 'yes', a NUL inside a string, a string
 * longer than its buffer, a bad name, a key given twice, a required field missing, a file whose
 * fields disagree with its path, an empty file or a list where the mapping should be. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline_rd.h"
#include "test.h"

#define FILE_NAME "rd.yaml"

static const char *const fields[] = {"v", "w"};

/* TEXT as the file, opened; 0 with the cursor on the first field's key
 * (which must be 'v'), or -1 with ERR. */
static int at_v(struct rd *r, const char *text, size_t len, char *err, size_t n)
{
    FILE *f = fopen(FILE_NAME, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        return -1;
    memset(r, 0, sizeof *r);
    err[0] = '\0';
    if (qqb__rd_open(r, FILE_NAME, err, n))
        return -1;
    unsigned seen = 0;
    int k = -2;
    return qqb__rd_next_key(r, fields, 2, &seen, &k) == 1 && k == 0 ? 0 : -1;
}

#define AT(r, text, err) at_v(r, text, strlen(text), err, sizeof err)

static void test_numbers(void)
{
    struct rd r;
    char err[512];
    uint64_t u = 0;
    double d = 0;
    CHECK_INT_EQ(AT(&r, "v: 42\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u64(&r, "v", 100, &u), 0);
    CHECK_U64_EQ(u, 42);
    qqb_ycur_close(&r.y);
    /* Past its limit, past 64 bits, signed, quoted, empty: refused at the value. */
    CHECK_INT_EQ(AT(&r, "v: 101\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u64(&r, "v", 100, &u), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: number '101' for 'v' is out of range");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: 18446744073709551616\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u64(&r, "v", UINT64_MAX, &u), -1);
    CHECK_STR_CONTAINS(err, "is out of range");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: -1\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u64(&r, "v", 100, &u), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected a whole number for 'v', got '-1'");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: '7'\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u64(&r, "v", 100, &u), -1);
    CHECK_STR_CONTAINS(err, "expected a whole number for 'v'");
    qqb_ycur_close(&r.y);
    CHECK_U64_EQ(u, 42); /* never written by a refusal */

    CHECK_INT_EQ(AT(&r, "v: -1.5e3\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double(&r, "v", 1, &d), 0);
    CHECK(d == -1500.0);
    qqb_ycur_close(&r.y);
    /* .inf and .nan where the field may hold them; never where it must be finite. */
    CHECK_INT_EQ(AT(&r, "v: -.Inf\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double(&r, "v", 0, &d), 0);
    CHECK(isinf(d) && d < 0);
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: .nan\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double(&r, "v", 0, &d), 0);
    CHECK(isnan(d));
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: .inf\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double(&r, "v", 1, &d), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected a finite number for 'v', got '.inf'");
    qqb_ycur_close(&r.y);
    /* What strtod takes and a baseline never holds. */
    static const char *const bad[] = {"v: nan\n",  "v: inf\n",   "v: 0x10\n",
                                      "v: 1.5x\n", "v: '1.5'\n", "v: [1]\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        d = 7;
        CHECK_INT_EQ(AT(&r, bad[i], err), 0);
        CHECK_INT_EQ(qqb__rd_double(&r, "v", 0, &d), -1);
        CHECK_STR_CONTAINS(err, FILE_NAME ":1:4: error: expected a number for 'v', got ");
        CHECK(d == 7);
        qqb_ycur_close(&r.y);
    }
    CHECK_INT_EQ(AT(&r, "v:\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double(&r, "v", 0, &d), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:3: error: expected a number for 'v', got an empty value");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: 1e999\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double(&r, "v", 0, &d), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: number '1e999' for 'v' is out of range");
    qqb_ycur_close(&r.y);
}

static void test_bool_and_strings(void)
{
    struct rd r;
    char err[512];
    int b = -1;
    CHECK_INT_EQ(AT(&r, "v: false\n", err), 0);
    CHECK_INT_EQ(qqb__rd_bool(&r, "v", &b), 0);
    CHECK_INT_EQ(b, 0);
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: yes\n", err), 0);
    CHECK_INT_EQ(qqb__rd_bool(&r, "v", &b), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected true or false for 'v', got 'yes'");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: 'true'\n", err), 0);
    CHECK_INT_EQ(qqb__rd_bool(&r, "v", &b), -1);
    qqb_ycur_close(&r.y);

    char *s = strdup("old");
    CHECK_INT_EQ(AT(&r, "v: \"a b\"\n", err), 0);
    CHECK_INT_EQ(qqb__rd_string(&r, "v", &s, 0), 0);
    CHECK_STR_EQ(s, "a b");
    qqb_ycur_close(&r.y);
    /* null: NULL where nullable, refused where not. */
    CHECK_INT_EQ(AT(&r, "v: ~\n", err), 0);
    CHECK_INT_EQ(qqb__rd_string(&r, "v", &s, 1), 0);
    CHECK(s == NULL);
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: null\n", err), 0);
    CHECK_INT_EQ(qqb__rd_string(&r, "v", &s, 0), -1);
    CHECK_STR_CONTAINS(err, "expected a string for 'v'");
    qqb_ycur_close(&r.y);
    /* A NUL inside a string (escaped, or a raw byte): refused, not cut short. */
    CHECK_INT_EQ(AT(&r, "v: \"a\\0b\"\n", err), 0);
    CHECK_INT_EQ(qqb__rd_string(&r, "v", &s, 0), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: 'v' holds a NUL character");
    CHECK(s == NULL);
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(at_v(&r, "v: a\0b\n", 7, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, FILE_NAME);
    qqb_ycur_close(&r.y);
    /* A buffer of 4: 3 bytes and the NUL. */
    char fixed[4] = "xyz";
    CHECK_INT_EQ(AT(&r, "v: abcd\n", err), 0);
    CHECK_INT_EQ(qqb__rd_fixed(&r, "v", fixed, sizeof fixed), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: 'v' is longer than 3 bytes");
    CHECK_STR_EQ(fixed, "xyz");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: abc\n", err), 0);
    CHECK_INT_EQ(qqb__rd_fixed(&r, "v", fixed, sizeof fixed), 0);
    CHECK_STR_EQ(fixed, "abc");
    qqb_ycur_close(&r.y);
    /* A name: the names rule (a control character is not one). */
    CHECK_INT_EQ(AT(&r, "v: \"chain[direct]@1\"\n", err), 0);
    CHECK_INT_EQ(qqb__rd_name(&r, "v", &s), 0);
    CHECK_STR_EQ(s, "chain[direct]@1");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: \"a\\tb\"\n", err), 0);
    CHECK_INT_EQ(qqb__rd_name(&r, "v", &s), -1);
    CHECK_STR_CONTAINS(err, FILE_NAME ":1:4: error: 'v': the name ");
    CHECK_STR_CONTAINS(err, "; expected ");
    qqb_ycur_close(&r.y);
    free(s);
}

static void test_lists(void)
{
    struct rd r;
    char err[512];
    uint32_t *u = NULL;
    size_t n = 0;
    CHECK_INT_EQ(AT(&r, "v: [0, 7, 4294967295]\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u32_list(&r, "v", &u, &n), 0);
    CHECK(n == 3 && u && u[0] == 0 && u[1] == 7 && u[2] == UINT32_MAX);
    qqb_ycur_close(&r.y);
    /* Past 32 bits, signed, or not a number: refused at the item. */
    static const char *const bad[] = {"v: [1, 4294967296]\n", "v: [1, +2]\n", "v: [1, -2]\n",
                                      "v: [1, [2]]\n", "v: [1, '2']\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT_EQ(AT(&r, bad[i], err), 0);
        CHECK_INT_EQ(qqb__rd_u32_list(&r, "v", &u, &n), -1);
        CHECK_STR_CONTAINS(err, FILE_NAME ":1:8: error: expected a whole number for 'v'");
        qqb_ycur_close(&r.y);
    }
    free(u);
    CHECK_INT_EQ(AT(&r, "v: 3\n", err), 0);
    u = NULL, n = 0;
    CHECK_INT_EQ(qqb__rd_u32_list(&r, "v", &u, &n), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected a list of whole numbers for 'v', got '3'");
    qqb_ycur_close(&r.y);

    /* Numbers with their places; a non-finite one refused at its own. */
    double *d = NULL;
    yaml_mark_t *marks = NULL;
    n = 0;
    CHECK_INT_EQ(AT(&r, "v:\n  - 1.5\n  - -2\n  - 3e2\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double_list(&r, "v", &d, &n, &marks), 0);
    CHECK(n == 3 && d && d[0] == 1.5 && d[1] == -2 && d[2] == 300);
    CHECK(marks && marks[0].line == 1 && marks[2].line == 3 && marks[2].column == 4);
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: [1, .nan]\n", err), 0);
    CHECK_INT_EQ(qqb__rd_double_list(&r, "v", &d, &n, NULL), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:8: error: expected a finite number for 'v', got '.nan'");
    qqb_ycur_close(&r.y);
    free(d);
    free(marks);

    char **sv = NULL;
    CHECK_INT_EQ(AT(&r, "v: [mpirun, \"-np 2\", '']\n", err), 0);
    CHECK_INT_EQ(qqb__rd_strv(&r, "v", &sv), 0);
    CHECK(sv && !strcmp(sv[0], "mpirun") && !strcmp(sv[1], "-np 2") && !strcmp(sv[2], "") &&
          !sv[3]);
    qqb_ycur_close(&r.y);
    for (size_t i = 0; sv && sv[i]; i++)
        free(sv[i]);
    free(sv);
    sv = NULL;
    CHECK_INT_EQ(AT(&r, "v: [a, {b: c}]\n", err), 0);
    CHECK_INT_EQ(qqb__rd_strv(&r, "v", &sv), -1);
    CHECK_STR_CONTAINS(err, FILE_NAME ":1:8: error: expected a string for 'v'");
    CHECK(sv == NULL);
    qqb_ycur_close(&r.y);
}

/* An item reader for qqb__rd_each: counts the mappings, skips them. */
static int count_item(struct rd *r, void *ctx)
{
    (*(int *)ctx)++;
    return qqb_ycur_skip(&r->y);
}

static void test_structure(void)
{
    struct rd r;
    char err[512];
    unsigned seen = 0;
    int k = -2;
    /* A key given twice; an unknown key is -1 for the caller to skip. */
    CHECK_INT_EQ(AT(&r, "v: 1\nx: 2\nv: 3\n", err), 0);
    CHECK_INT_EQ(qqb_ycur_skip(&r.y) == 0 && qqb_ycur_next(&r.y) == 0, 1);
    seen = 1;
    CHECK_INT_EQ(qqb__rd_next_key(&r, fields, 2, &seen, &k), 1);
    CHECK_INT_EQ(k, -1);
    CHECK_INT_EQ(qqb_ycur_next(&r.y), 0);
    CHECK_INT_EQ(qqb__rd_next_key(&r, fields, 2, &seen, &k), -1);
    CHECK_STR_EQ(err, FILE_NAME ":3:1: error: 'v' is given twice");
    qqb_ycur_close(&r.y);
    /* The end of the mapping: 0; a required field missing, named at the mapping. */
    CHECK_INT_EQ(AT(&r, "v: 1\n", err), 0);
    CHECK_INT_EQ(qqb_ycur_next(&r.y), 0);
    seen = 1;
    CHECK_INT_EQ(qqb__rd_next_key(&r, fields, 2, &seen, &k), 0);
    yaml_mark_t start = {0, 0, 0};
    CHECK_INT_EQ(qqb__rd_required(&r, &start, fields, 2, 3, seen, "the baseline"), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:1: error: the baseline is missing 'w'");
    CHECK_INT_EQ(qqb__rd_required(&r, &start, fields, 2, 1, seen, "the baseline"), 0);
    qqb_ycur_close(&r.y);
    /* A file whose own field disagrees with its path; no path to agree with. */
    CHECK_INT_EQ(AT(&r, "v: ncs\n", err), 0);
    CHECK_INT_EQ(qqb__rd_path_field(&r, "suite", "ncs", NULL), 0);
    CHECK_INT_EQ(qqb__rd_path_field(&r, "suite", "ncs", "ncs"), 0);
    CHECK_INT_EQ(qqb__rd_path_field(&r, "suite", "ncs", "other"), -1);
    CHECK_STR_CONTAINS(err, "suite 'ncs' disagrees with the path, which is for suite 'other'");
    qqb_ycur_close(&r.y);
    /* A list of mappings; anything else in it is refused. */
    int items = 0;
    CHECK_INT_EQ(AT(&r, "v: [{a: 1}, {b: 2}]\n", err), 0);
    CHECK_INT_EQ(qqb__rd_each(&r, "v", "a list of cases", "a case", count_item, &items), 0);
    CHECK_INT_EQ(items, 2);
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: [{a: 1}, 2]\n", err), 0);
    CHECK_INT_EQ(qqb__rd_each(&r, "v", "a list of cases", "a case", count_item, &items), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:13: error: expected a case for 'v', got '2'");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "v: {a: 1}\n", err), 0);
    CHECK_INT_EQ(qqb__rd_each(&r, "v", "a list of cases", "a case", count_item, &items), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:4: error: expected a list of cases for 'v', got a mapping");
    qqb_ycur_close(&r.y);
}

static void test_open(void)
{
    struct rd r;
    char err[512];
    /* Empty, a list, a bare word: not a baseline, said at the place. */
    CHECK_INT_EQ(AT(&r, "", err), -1);
    CHECK_STR_CONTAINS(err, "empty file; expected a qqbench baseline");
    qqb_ycur_close(&r.y);
    CHECK_INT_EQ(AT(&r, "- v\n", err), -1);
    CHECK_STR_EQ(err, FILE_NAME ":1:1: error: expected a mapping (a qqbench baseline), got a list");
    qqb_ycur_close(&r.y);
    /* YAML that breaks off: libyaml's reason, at its place. */
    uint32_t *u = NULL;
    size_t n = 0;
    CHECK_INT_EQ(AT(&r, "v: [1\n", err), 0);
    CHECK_INT_EQ(qqb__rd_u32_list(&r, "v", &u, &n), -1);
    CHECK_STR_CONTAINS(err, FILE_NAME ":");
    CHECK_STR_CONTAINS(err, ": error: invalid YAML");
    CHECK(n == 1 && u && u[0] == 1);
    free(u);
    qqb_ycur_close(&r.y);
    /* No file: its reason. */
    memset(&r, 0, sizeof r);
    unlink(FILE_NAME);
    CHECK_INT_EQ(qqb__rd_open(&r, FILE_NAME, err, sizeof err), -1);
    CHECK_STR_CONTAINS(err, FILE_NAME);
    CHECK_STR_CONTAINS(err, "No such file");
    qqb_ycur_close(&r.y);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    if (t && *t && chdir(t) != 0) {
        perror(t);
        return 1;
    }
    RUN(test_numbers);
    RUN(test_bool_and_strings);
    RUN(test_lists);
    RUN(test_structure);
    RUN(test_open);
    unlink(FILE_NAME);
    return TEST_DONE();
}
