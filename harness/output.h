/* output.h - the verdicts of a run: the terminal table, JSON and JUnit XML. */
#ifndef QQB_OUTPUT_H
#define QQB_OUTPUT_H

#include <stdio.h>

#include "results.h"
#include "stats.h"

/* One timing comparison: a key of a case against the baseline (ab = 0) or
 * against the reference variant of the same point and node count (ab = 1). */
struct qqb_cmp {
    const char *case_name, *key;
    const char *ref_name; /* A/B: the reference case */
    int ab;
    int paired;           /* the interval is from adjacent-launch pairs */
    double base_median, cur_median; /* ticks per hit */
    double base_mhz, mhz;
    double threshold;     /* percent */
    struct qqb_change ch;
    enum qqb_verdict verdict;
    int confirmed;        /* -1 not needed, 0 did not hold, 1 held */
    double confirm_pct;   /* the confirmation's estimate */
    double machine_pct;   /* baseline rows: change of the machine reference */
    double norm_pct;      /* the change with samples divided by the reference */
    int machine_moved;    /* the verdict did not hold for normalised samples */
};

/* One memory key whose numbers moved (or appeared, or vanished). */
struct qqb_memcmp {
    const char *case_name, *key;
    int ab;
    const char *ref_name;
    struct qqb_mem base, cur;
    int verdict;          /* +1 more memory, -1 less, 0 only counts moved */
};

struct qqb_report {
    const char *suite;
    const char *baseline_path; /* NULL: no baseline to compare */
    int baseline_other;        /* the baseline is another machine's */
    const struct qqb_results *results;
    struct qqb_cmp *cmp;
    size_t ncmp, capcmp;
    struct qqb_memcmp *mem;
    size_t nmem, capmem;
    size_t kernel_failures;
    int confirmed_run;
    double elapsed;
    int exit_code;
};

/* The verdict table, memory changes, failures and a one-line summary. */
void qqb_report_print(FILE *fp, const struct qqb_report *r);
/* Every number as JSON (jansson) / a JUnit XML file. 0 or -1 with ERR. */
int qqb_report_json(const char *path, const struct qqb_report *r, char *err,
                    size_t errlen);
int qqb_report_junit(const char *path, const struct qqb_report *r, char *err,
                     size_t errlen);
void qqb_report_free(struct qqb_report *r);

#endif /* QQB_OUTPUT_H */
