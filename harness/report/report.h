/* report.h - report: the verdict table in the terminal, JSON and JUnit XML, one
 * reporter each behind struct qqb_reporter. */
#ifndef QQB_REPORT_H
#define QQB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "judge.h"
#include "judge_model.h"
#include "judge_sig.h"
#include "judge_tune.h"
#include "results.h"

struct qqb_report {
    const char *suite;
    const char *baseline_path;        /* NULL: no baseline to compare */
    int baseline_other;               /* the baseline is another machine's */
    const char *baseline_other_build; /* kernels the baseline's builds differ in, or NULL */
    const char *against;              /* --against DIR, or NULL */
    const char *memory_baseline_path; /* memory compared with it, or NULL */
    /* No baseline: the line under the title and the summary's line (NULL:
     * the defaults; set when the missing baseline is loud, run/gate.c). */
    const char *no_baseline_note, *no_baseline_summary;
    int memory_only; /* --memory-only: timing not compared, by choice */
    const struct qqb_results *results;
    const struct qqb_judgement *j;
    const struct qqb_model_judgement *models; /* `model:` fits, or NULL */
    const struct qqb_sig_judgement *sigs;     /* signatures x profiles, or NULL */
    const struct qqb_tune_judgement *tunes;   /* QQTune's choices, or NULL */
    size_t kernel_failures;
    int fail_on_noisy;
    int fail_on_blind; /* --fail-on-blind: blind rows fail (text, JUnit) */
    uint64_t seed;     /* of the round order */
    int passes;        /* passes over the suite the launches took */
    double elapsed;
    int exit_code;
};

/* A reporter: one format of a run's report, one file each (as
 * google/benchmark's *_reporter.cc): report_text.c, report_json.c,
 * report_junit.c. Each reads the results and the judgement and prints them;
 * none decides or computes a figure. */
struct qqb_reporter {
    const char *name; /* the format, as an error names it: "JSON" */
    /* R in this format onto FP. 0, or -1 out of memory. */
    int (*emit)(FILE *fp, const struct qqb_report *r);
};
/* The verdict tables with thresholds and reasons, a legend, memory changes,
 * failures and a one-line summary. */
extern const struct qqb_reporter qqb_text_reporter;
/* Every number as the run JSON (run_json.h, the one schema). */
extern const struct qqb_reporter qqb_json_reporter;
/* JUnit XML: a test case per gated comparison, memory key, failed launch. */
extern const struct qqb_reporter qqb_junit_reporter;

/* R by REP into the file PATH, whole or not at all (made in memory, then
 * written by atomic.h). 0, or -1 with ERR: "PATH: error: cannot write the
 * NAME report: why". */
int qqb_reporter_write(const char *path, const struct qqb_reporter *rep, const struct qqb_report *r,
                       char *err, size_t errlen);
/* qqb_text_reporter onto FP. */
void qqb_report_print(FILE *fp, const struct qqb_report *r);
/* qqb_reporter_write with qqb_json_reporter / qqb_junit_reporter. */
int qqb_report_json(const char *path, const struct qqb_report *r, char *err, size_t errlen);
int qqb_report_junit(const char *path, const struct qqb_report *r, char *err, size_t errlen);

/* TICKS at MHZ in nanoseconds; NaN when MHZ <= 0 (unknown). */
double qqb_ticks_ns(double ticks, double mhz);

/* "14.5M" / "123.4" / "5.55k": one format for a column of cycles. */
void qqb_fmt_count(char *buf, size_t len, double v);
/* "12.3", "4567", "1.2e+04": three or four significant digits; "-" when
 * not finite. */
void qqb_fmt_sig(char *buf, size_t len, double v);

/* TICKS cycles with the time they take at MHZ (MHZ <= 0: cycles alone):
 * COLUMN, for the terminal's tables, "  45.3k cyc   21.6 us" (qqb_fmt_count,
 * fixed widths); PROSE, for pages, "2703 cyc (1.29 us)" with the micro sign (qqb_fmt_sig),
 * "-" when TICKS is not finite. */
enum qqb_cyc_style { QQB_CYC_COLUMN, QQB_CYC_PROSE };
void qqb_fmt_cycles(char *buf, size_t len, double ticks, double mhz, enum qqb_cyc_style style);

/* A memory verdict (+1 more, -1 less, 0 counts changed) as the terminal,
 * index.html and the pictures say it: "regressed"/"improved" where it
 * gates (against the baseline or the reference build, GATES != 0),
 * "more"/"less" between variants. */
const char *qqb_mem_verdict_word(int verdict, int gates);

/* S as text for XML or HTML (JUnit, index.html): the five markup characters
 * escaped, control characters other than tab and newline as '?'. Every
 * string an HTML or XML writer did not spell out itself goes through it
 * (or, as a link, through qqb_markup_href). */
void qqb_markup_text(FILE *fp, const char *s);
/* A file name in a link's attribute (href, src, id): every byte but
 * [A-Za-z0-9._-] percent-encoded, so nothing in it is markup. */
void qqb_markup_href(FILE *fp, const char *s);

#endif /* QQB_REPORT_H */
