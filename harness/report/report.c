/* report.c - report: what the reporters share (report.h): the one writer of a
 * report file, the formats of a figure, and text made safe for XML and HTML. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "atomic.h"

double qqb_ticks_ns(double ticks, double mhz)
{
    return mhz > 0 ? ticks * 1000.0 / mhz : NAN;
}

int qqb_reporter_write(const char *path, const struct qqb_reporter *rep, const struct qqb_report *r,
                       char *err, size_t errlen)
{
    /* Made in memory, then written whole or not at all (atomic.h): a full
     * disk leaves the old report, never half. */
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp) {
        snprintf(err, errlen, "%s: error: cannot write the %s report: out of memory", path,
                 rep->name);
        return -1;
    }
    int rc = rep->emit(fp, r);
    if (fclose(fp) != 0 || rc != 0 || !text) {
        free(text);
        snprintf(err, errlen, "%s: error: cannot write the %s report: out of memory", path,
                 rep->name);
        return -1;
    }
    char why[512];
    rc = qqb_write_atomic(path, text, len, why, sizeof why);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "%s: error: cannot write the %s report: %s", path, rep->name, why);
        return -1;
    }
    return 0;
}

int qqb_report_json(const char *path, const struct qqb_report *r, char *err, size_t errlen)
{
    return qqb_reporter_write(path, &qqb_json_reporter, r, err, errlen);
}

int qqb_report_junit(const char *path, const struct qqb_report *r, char *err, size_t errlen)
{
    return qqb_reporter_write(path, &qqb_junit_reporter, r, err, errlen);
}

void qqb_fmt_count(char *buf, size_t len, double v)
{
    static const char *const suffix[] = {"", "k", "M", "G", "T"};
    int i = 0;
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    while (fabs(v) >= 999.95 && i < 4) {
        v /= 1000.0;
        i++;
    }
    snprintf(buf, len, "%.1f%s", v, suffix[i]);
}

/* "12.3", "4567", "1.2e+04": three or four significant digits. */
void qqb_fmt_sig(char *buf, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (fabs(v) >= 100)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

void qqb_fmt_cycles(char *buf, size_t len, double ticks, double mhz, enum qqb_cyc_style style)
{
    char c[32];
    if (style == QQB_CYC_PROSE && !isfinite(ticks)) {
        snprintf(buf, len, "-");
        return;
    }
    if (style == QQB_CYC_PROSE)
        qqb_fmt_sig(c, sizeof c, ticks);
    else
        qqb_fmt_count(c, sizeof c, ticks);
    double ns = qqb_ticks_ns(ticks, mhz);
    const char *u = "ns";
    if (ns >= 1e6) {
        ns /= 1e6;
        u = "ms";
    } else if (ns >= 1e3) {
        ns /= 1e3;
        u = style == QQB_CYC_PROSE ? "\xc2\xb5s" : "us";
    }
    if (style == QQB_CYC_PROSE && mhz > 0)
        snprintf(buf, len, "%s cyc (%.3g %s)", c, ns, u);
    else if (style == QQB_CYC_PROSE)
        snprintf(buf, len, "%s cyc", c);
    else if (isfinite(ns))
        snprintf(buf, len, "%7s cyc %6.1f %s", c, ns, u);
    else
        snprintf(buf, len, "%7s cyc", c);
}

const char *qqb_mem_verdict_word(int verdict, int gates)
{
    return verdict > 0   ? (gates ? "regressed" : "more")
           : verdict < 0 ? (gates ? "improved" : "less")
                         : "counts changed";
}

/* ---------------------------------------------------------------------
 * JUnit XML.
 * --------------------------------------------------------------------- */

void qqb_markup_text(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", fp);
            break;
        case '>':
            fputs("&gt;", fp);
            break;
        case '&':
            fputs("&amp;", fp);
            break;
        case '"':
            fputs("&quot;", fp);
            break;
        case '\'':
            fputs("&#39;", fp); /* HTML has no &apos; before HTML5; both read this */
            break;
        default:
            /* Control characters are not allowed in XML 1.0. */
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
                fputc('?', fp);
            else
                fputc(*s, fp);
        }
    }
}

void qqb_markup_href(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.')
            fputc(c, fp);
        else
            fprintf(fp, "%%%02X", c);
    }
}
