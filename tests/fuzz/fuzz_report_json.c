/* fuzz_report_json.c - libFuzzer target: any bytes as a run's --json file through the report that
 * qqbench report draws (data, scripts and index.html; no gnuplot), with an oracle that nothing
 * lands outside the output folder and no script holds what gnuplot would execute. */
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

/* Every entry of DIR is a plain name the report chose: a script is
 * checked; a folder inside it is a way out. */
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
