/* report_junit.c - the JUnit reporter: a test case per gated comparison, memory
 * key, gated verdict on counts and failed launch, for CI systems that read JUnit XML. */
#include <math.h>
#include <stdio.h>

#include "report.h"
#include "words.h"

/* A blind row that fails the run: --fail-on-blind, or its benchmark's
 * fail_on_blind: true. */
static int blind_fails(const struct qqb_report *r, const struct qqb_cmp *c)
{
    return c->verdict == QQB_BLIND && (r->fail_on_blind || c->blind_fails);
}

/* The gated verdicts on counts (calls with gate: counts, instructions
 * against the baseline or the reference build): a test case each. */
static void junit_counts(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_judgement *jd = r->j;
    for (size_t i = 0; i < jd->ncounts; i++) {
        const struct qqb_countcmp *c = &jd->counts[i];
        if (!c->gated)
            continue;
        const char *vs = c->ab == QQB_CMP_BUILD ? " vs reference build" : "";
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, c->case_name);
        fprintf(fp, "\" name=\"%s:", c->calls ? "calls" : "instructions");
        qqb_markup_text(fp, c->key);
        fprintf(fp, "%s\">", vs);
        if (c->c.verdict == QQB_REGRESSED) {
            fprintf(fp, "<failure message=\"regressed%s: ", vs);
            qqb_markup_text(fp, c->why);
            fprintf(fp, "\"/>");
        } else {
            fprintf(fp, "<system-out>%s: ", qqb_verdict_name(c->c.verdict));
            qqb_markup_text(fp, c->why);
            fprintf(fp, "</system-out>");
        }
        fprintf(fp, "</testcase>\n");
    }
}

static int junit_emit(FILE *fp, const struct qqb_report *r)
{
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *jd = r->j;
    size_t tests = 0, failures = 0;
    for (size_t i = 0; i < jd->ncmp; i++)
        if (jd->cmp[i].ab != QQB_CMP_VARIANT) {
            tests++;
            failures += jd->cmp[i].verdict == QQB_REGRESSED ||
                        (r->fail_on_noisy && jd->cmp[i].verdict == QQB_NOISY) ||
                        blind_fails(r, &jd->cmp[i]);
        }
    for (size_t i = 0; i < jd->nmem; i++)
        if (jd->mem[i].ab != QQB_CMP_VARIANT) {
            tests++;
            failures += jd->mem[i].verdict > 0;
        }
    for (size_t i = 0; i < jd->ncounts; i++)
        if (jd->counts[i].gated) {
            tests++;
            failures += jd->counts[i].c.verdict == QQB_REGRESSED;
        }
    tests += r->kernel_failures;
    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(fp, "  <testsuite name=\"");
    qqb_markup_text(fp, r->suite);
    fprintf(fp, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", tests,
            failures, r->kernel_failures, r->elapsed);
    for (size_t i = 0; i < jd->ncmp; i++) {
        const struct qqb_cmp *c = &jd->cmp[i];
        if (c->ab == QQB_CMP_VARIANT)
            continue;
        const char *vs = c->ab == QQB_CMP_BUILD ? " vs reference build" : "";
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, c->case_name);
        fprintf(fp, "\" name=\"");
        qqb_markup_text(fp, c->key);
        fprintf(fp, "%s\">", vs);
        struct qqb_signed sp, sl, sh;
        if (c->verdict == QQB_REGRESSED) {
            fprintf(fp,
                    "<failure message=\"regressed%s %s%% [%s, %s] "
                    "(threshold %.1f%%)\"/>",
                    vs, qqb_signed(&sp, c->ch.pct, 2), qqb_signed(&sl, c->ch.lo, 2),
                    qqb_signed(&sh, c->ch.hi, 2), c->threshold);
        } else if (r->fail_on_noisy && c->verdict == QQB_NOISY) {
            fprintf(fp, "<failure message=\"noisy (--fail-on-noisy): ");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "\"/>");
        } else if (blind_fails(r, c)) {
            fprintf(fp, "<failure message=\"blind (%s): ",
                    r->fail_on_blind ? "--fail-on-blind" : "fail_on_blind: true");
            qqb_markup_text(fp, c->why);
            fprintf(fp, "\"/>");
        } else {
            fprintf(fp, "<system-out>%s%s %s%s</system-out>", qqb_verdict_name(c->verdict), vs,
                    isfinite(c->ch.pct) ? qqb_signed(&sp, c->ch.pct, 2) : "n/a",
                    isfinite(c->ch.pct) ? "%" : "");
        }
        fprintf(fp, "</testcase>\n");
    }
    for (size_t i = 0; i < jd->nmem; i++) {
        const struct qqb_memcmp *m = &jd->mem[i];
        if (m->ab == QQB_CMP_VARIANT)
            continue;
        const char *vs = m->ab == QQB_CMP_BUILD ? " vs reference build" : "";
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, m->case_name);
        fprintf(fp, "\" name=\"memory:");
        qqb_markup_text(fp, m->key);
        fprintf(fp, "%s\">", vs);
        if (m->verdict > 0)
            fprintf(fp, "<failure message=\"memory regressed%s: live", vs);
        if (m->verdict > 0)
            fprintf(fp,
                    " %llu -> %llu, "
                    "peak %llu -> %llu bytes\"/>",
                    (unsigned long long)m->base.obj_bytes + (unsigned long long)m->base.alloc_bytes,
                    (unsigned long long)m->cur.obj_bytes + (unsigned long long)m->cur.alloc_bytes,
                    (unsigned long long)m->base.peak_bytes, (unsigned long long)m->cur.peak_bytes);
        fprintf(fp, "</testcase>\n");
    }
    junit_counts(fp, r);
    for (size_t i = 0; i < res->ncases; i++) {
        const struct qqb_case_result *c = res->cases[i];
        if (!c->failures)
            continue;
        fprintf(fp, "    <testcase classname=\"");
        qqb_markup_text(fp, r->suite);
        fputc('.', fp);
        qqb_markup_text(fp, c->name);
        fprintf(fp, "\" name=\"launch\"><error message=\"");
        qqb_markup_text(fp, c->failure);
        fprintf(fp, "\"/></testcase>\n");
    }
    fprintf(fp, "  </testsuite>\n</testsuites>\n");
    return 0;
}

const struct qqb_reporter qqb_junit_reporter = {"JUnit", junit_emit};
