/* fuzz_report_json.c - libFuzzer target: any bytes as a run's --json file through the report that
 * qqbench report draws (data, scripts and index.html; no gnuplot), with an oracle that nothing
 * lands outside the output folder, no script holds what gnuplot would execute and index.html holds
 * no markup but the report's own (no raw '<' from the input). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_file.h"
#include "pictures.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Outside gnuplot's single-quoted strings (where it substitutes nothing),
 * a script written by the report may hold only the report's own code: no
 * backquote (command substitution), and double-quoted strings only of the
 * report's own making ("\n" between title lines, tic labels such as
 * "+5%"), never a name. A comment runs to the end of its line. */
static void check_script(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        abort();
    char line[1 << 16];
    int lineno = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        int sq = 0, dq = 0;
        for (const char *p = line; *p; p++) {
            unsigned char c = (unsigned char)*p;
            if (sq) {
                if (c == '\'' && p[1] == '\'')
                    p++;
                else if (c == '\'')
                    sq = 0;
                else if (c < 0x20 && c != '\n')
                    goto bad; /* a control character inside a name */
                continue;
            }
            if (dq) {
                if (c == '"')
                    dq = 0;
                else if (!strchr("0123456789.+-%\\ne ", c))
                    goto bad;
                continue;
            }
            if (c == '#')
                break;
            if (c == '`' || c >= 0x80)
                goto bad;
            if (c == '\'')
                sq = 1;
            else if (c == '"')
                dq = 1;
        }
        if (sq || dq)
            goto bad; /* a string left open at the end of a line */
    }
    fclose(fp);
    return;
bad:
    fprintf(stderr, "oracle: %s line %d holds text outside the report's quoting:\n%s", path, lineno,
            line);
    abort();
}

/* The page's markup is the report's own: every '<' opens (or closes) an
 * element of the few the report writes, with only the attributes it
 * writes, each value double-quoted without '<' or '>' (and a link's only
 * of percent-encoded file-name bytes); one <style> and one <script>, whose
 * bodies are skipped. Text from the input goes through qqb_markup_text, so
 * a '<' of the input never opens anything: an element, an attribute such
 * as onerror or a second script here is an escape that failed. */
static const char *const html_elems[] = {
    "a",     "b",     "body", "br", "code",  "figcaption", "figure", "h1",     "h2",   "h3",
    "head",  "html",  "img",  "li", "link",  "meta",       "p",      "script", "span", "style",
    "table", "tbody", "td",   "th", "thead", "title",      "tr",     "ul",     NULL};
static const char *const html_attrs[] = {"alt",  "charset", "class", "content", "href",   "id",
                                         "lang", "name",    "rel",   "src",     "hidden", NULL};

static size_t html_word(const char *p, const char *const *set, int *known)
{
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '-')
        n++;
    *known = 0;
    for (size_t k = 0; n && set[k]; k++)
        if (strlen(set[k]) == n && !strncmp(set[k], p, n))
            *known = 1;
    return n;
}

static void html_bad(const char *path, const char *page, const char *at, const char *why)
{
    long off = (long)(at - page);
    fprintf(stderr, "oracle: %s at byte %ld: %s: %.80s\n", path, off, why, at);
    abort();
}

static void check_html(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        abort();
    static char page[1 << 22];
    size_t len = fread(page, 1, sizeof page - 1, fp);
    fclose(fp);
    page[len] = 0;
    int scripts = 0, styles = 0;
    const char *p = page;
    static const char doctype[] = "<!DOCTYPE html>";
    if (!strncmp(p, doctype, sizeof doctype - 1))
        p += sizeof doctype - 1;
    for (; *p; p++) {
        if (*p == '>')
            html_bad(path, page, p, "a '>' outside an element");
        if (*p != '<')
            continue;
        const char *tag = ++p;
        int closing = *p == '/', known;
        p += closing;
        size_t n = html_word(p, html_elems, &known);
        if (!known)
            html_bad(path, page, tag - 1, "an element the report does not write");
        int script = n == 6 && !strncmp(p, "script", 6), style = n == 5 && !strncmp(p, "style", 5);
        int link = (n == 1 && *p == 'a') || (n == 3 && !strncmp(p, "img", 3));
        p += n;
        while (!closing && *p == ' ') {
            p++;
            size_t an = html_word(p, html_attrs, &known);
            if (!known)
                html_bad(path, page, p, "an attribute the report does not write");
            int url =
                link && ((an == 4 && !strncmp(p, "href", 4)) || (an == 3 && !strncmp(p, "src", 3)));
            p += an;
            if (*p != '=')
                continue; /* hidden */
            if (*++p != '"')
                html_bad(path, page, p, "an attribute value not double-quoted");
            for (p++; *p && *p != '"'; p++)
                if (*p == '<' || *p == '>' ||
                    (url && !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789._-%:,",
                                    *p)))
                    html_bad(path, page, p, "an attribute value holds markup");
            if (*p++ != '"')
                html_bad(path, page, tag, "an attribute value left open");
        }
        if (*p != '>')
            html_bad(path, page, tag - 1, "an element left open");
        if (closing || !(script || style))
            continue;
        if ((script && ++scripts > 1) || (style && ++styles > 1))
            html_bad(path, page, tag - 1, "a second <script> or <style>");
        const char *end = strstr(p, script ? "</script>" : "</style>");
        if (!end)
            html_bad(path, page, tag - 1, "a <script> or <style> left open");
        p = end - 1;
    }
}

/* Every entry of DIR is a plain name the report chose: a script is
 * checked, and index.html; a folder inside it is a way out. */
static void check_out(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return; /* refused input: nothing written */
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 3 && !strcmp(e->d_name + n - 3, ".gp"))
            check_script(path);
        else if (!strcmp(e->d_name, "index.html"))
            check_html(path);
    }
    closedir(d);
}

/* The work folder holds the output folder and nothing else: a name that
 * climbed out (../) would have left something beside it. */
static void check_nothing_beside(const char *work)
{
    DIR *d = opendir(work);
    if (!d)
        abort();
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "out")) {
            fprintf(stderr, "oracle: %s/%s was written outside the output folder\n", work,
                    e->d_name);
            abort();
        }
    closedir(d);
}

static void remove_out(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d)) != NULL) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char work[512], out[600];
    if (!work[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(work, sizeof work, "%s/qqfuzz-report-%ld", tmp && *tmp ? tmp : "/tmp",
                 (long)getpid());
        mkdir(work, 0700);
        snprintf(out, sizeof out, "%s/out", work);
    }
    const char *path = fuzz_as_file(data, size, ".json");
    char err[1024];
    if (path && qqb_report_write(path, out, 1, err, sizeof err) == 0)
        check_out(out);
    check_nothing_beside(work);
    remove_out(out);
    return 0;
}
