/* plot.c - gnuplot pictures: folders, data files, .gp scripts with the house theme, running
 * gnuplot. */
#include "plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

/* Okabe & Ito (2008), vermillion kept apart as the alert colour; yellow
 * last because thin yellow lines are hard to see on white. */
static const char *const cycle[] = {"#0072B2", "#009E73", "#E69F00", "#CC79A7",
                                    "#56B4E9", "#000000", "#F0E442"};

const char *qqb_plot_color(size_t i)
{
    return cycle[i % (sizeof cycle / sizeof cycle[0])];
}

int qqb_plot_mkdir(const char *dir, char *err, size_t errsz)
{
    size_t len = strlen(dir);
    char *p = malloc(len + 1);
    if (!p) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    memcpy(p, dir, len + 1);
    /* Each prefix ending before a '/', then the whole path. */
    for (size_t i = 1; i <= len; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        struct stat st;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errsz, "cannot create folder %s: %s", p, strerror(errno));
            free(p);
            return -1;
        }
        if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errsz, "%s is not a folder", p);
            free(p);
            return -1;
        }
        p[i] = c;
    }
    free(p);
    return 0;
}

FILE *qqb_plot_create(const char *dir, const char *name, char *err, size_t errsz)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    snprintf(path, n, "%s/%s", dir, name);
    /* Never through a symbolic link: a report folder's index.html that
     * points at another file would have that file overwritten. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        snprintf(err, errsz, "cannot write %s: %s", path,
                 e == ELOOP ? "it is a symbolic link, which a report does not follow"
                            : strerror(e));
    }
    free(path);
    return fp;
}

/* Where quoted text goes: a stream, or a buffer (cut short, always ended). */
struct sink {
    FILE *fp;
    char *buf;
    size_t cap, len;
};

static void put(struct sink *k, const char *t)
{
    if (k->fp) {
        fputs(t, k->fp);
        return;
    }
    for (; *t; t++)
        if (k->len + 1 < k->cap)
            k->buf[k->len++] = *t;
    if (k->cap)
        k->buf[k->len] = '\0';
}

/* The one quoting rule (plot.h says it). */
static void quote(struct sink *k, const char *s, unsigned flags)
{
    put(k, "'");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        char one[2] = {(char)c, '\0'};
        if (c == '\n' && (flags & QQB_GP_LINES))
            put(k, "'.\"\\n\".'");
        else if (c == '\'' || c == '`')
            put(k, "''");
        else if (c == '%' && (flags & QQB_GP_FORMAT))
            put(k, "%%");
        else
            put(k, c < 0x20 || c == 0x7f ? " " : one);
    }
    put(k, "'");
}

void qqb_plot_str(FILE *gp, const char *s, unsigned flags)
{
    struct sink k = {gp, NULL, 0, 0};
    quote(&k, s, flags);
}

const char *qqb_plot_quoted(char *out, size_t outsz, const char *s, unsigned flags)
{
    struct sink k = {NULL, out, outsz, 0};
    if (outsz)
        out[0] = '\0';
    quote(&k, s, flags);
    return out;
}

void qqb_plot_comment(FILE *gp, const char *s)
{
    fputs("# ", gp);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, gp);
    }
    fputc('\n', gp);
}

/* Whether byte C starts a character: it is no UTF-8 continuation byte
 * (10xxxxxx). */
static int char_start(unsigned char c)
{
    return (c & 0xC0) != 0x80;
}

const char *qqb_plot_short(char *out, size_t outsz, const char *s, size_t max)
{
    size_t len = strlen(s), nchars = 0;
    for (size_t i = 0; i < len; i++)
        nchars += (size_t)char_start((unsigned char)s[i]);
    if (nchars <= max || max < 3) {
        snprintf(out, outsz, "%s", s);
        return out;
    }
    /* HEAD characters from the start, TAIL from the end, "…" between. */
    size_t head = (max - 1) / 2, tail = max - 1 - head, h = 0, t = len;
    for (size_t k = 0; k <= head && h < len; h++)
        if (char_start((unsigned char)s[h]) && k++ == head)
            break;
    for (size_t k = 0; k < tail && t > 0;)
        if (char_start((unsigned char)s[--t]))
            k++;
    snprintf(out, outsz, "%.*s\xe2\x80\xa6%s", (int)h, s, s + t);
    return out;
}

void qqb_plot_begin(FILE *gp, const char *what)
{
    qqb_plot_comment(gp, what);
    fprintf(gp, "# Written by qqbench %s. Re-draw from this folder with: gnuplot THIS.gp\n",
            QQB_VERSION);
    fprintf(gp,
            "reset\n"
            "set encoding utf8\n"
            "# Light theme: dark text and axes, faint grid behind the data.\n"
            "set border 3 front lc rgb '%s' lw 1\n"
            "set tics nomirror out textcolor rgb '%s'\n"
            "set grid back lc rgb '%s' lw 1 dt solid\n"
            "set key textcolor rgb '%s' noautotitle\n"
            "set title textcolor rgb '%s'\n"
            "set xlabel textcolor rgb '%s'\n"
            "set ylabel textcolor rgb '%s'\n"
            "set style fill solid 1.0 noborder\n",
            QQB_PLOT_INK, QQB_PLOT_INK, QQB_PLOT_FAINT, QQB_PLOT_INK, QQB_PLOT_INK, QQB_PLOT_INK,
            QQB_PLOT_INK);
}

void qqb_plot_svg(FILE *gp, const char *stem, int width, int height)
{
    fprintf(gp,
            "set terminal svg size %d,%d dynamic noenhanced font 'DejaVu Sans,12' "
            "background rgb 'white'\n",
            width, height);
    fprintf(gp, "set output ");
    qqb_plot_str(gp, stem, 0);
    fprintf(gp, ".'.svg'\n");
}

void qqb_plot_png_replot(FILE *gp, const char *stem, int width, int height)
{
    fprintf(gp,
            "set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,10' "
            "background rgb 'white'\n",
            width, height);
    fprintf(gp, "set output ");
    qqb_plot_str(gp, stem, 0);
    fprintf(gp, ".'.png'\nreplot\nunset output\n");
}

void qqb_plot_both_begin(FILE *gp, const char *stem, int width, int height)
{
    fprintf(gp, "do for [qqb_terminal = 1:2] {\n"
                "if (qqb_terminal == 1) {\n    ");
    qqb_plot_svg(gp, stem, width, height);
    fprintf(gp,
            "} else {\n"
            "    set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,10' "
            "background rgb 'white'\n"
            "    set output ",
            width, height);
    qqb_plot_str(gp, stem, 0);
    fprintf(gp, ".'.png'\n}\n");
}

void qqb_plot_both_end(FILE *gp)
{
    fprintf(gp, "unset output\n}\n");
}

/* Read everything from FD into BUF (keeping the first SZ-1 bytes). */
static size_t drain(int fd, char *buf, size_t sz)
{
    size_t have = 0;
    char tmp[4096];
    for (;;) {
        ssize_t r = read(fd, tmp, sizeof tmp);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = (size_t)r;
        if (have + take > sz - 1)
            take = sz - 1 - have;
        memcpy(buf + have, tmp, take);
        have += take;
    }
    buf[have] = '\0';
    return have;
}

/* gnuplot writes its pictures itself, following links: a folder that
 * holds one is refused before it runs. */
static int no_links(const char *dir, char *err, size_t errsz)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "cannot read %s: %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
            snprintf(err, errsz,
                     "%s/%s is a symbolic link: a report does not write through one "
                     "(remove it, or choose another folder)",
                     dir, e->d_name);
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

int qqb_plot_run(const char *dir, const char *script, char *err, size_t errsz)
{
    if (no_links(dir, err, errsz) != 0)
        return -1;
    const char *prog = getenv("QQB_GNUPLOT");
    if (!prog || !*prog)
        prog = "gnuplot";
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        snprintf(err, errsz, "cannot run %s: pipe: %s", prog, strerror(errno));
        return -1;
    }
    /* stdout to /dev/null, stderr to the pipe, no stdin, in DIR. */
    fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
    char *argv[] = {(char *)prog, (char *)script, NULL};
    struct qqb_proc p = {.argv = argv,
                         .cwd = dir,
                         .in = QQB_PROC_DEVNULL,
                         .out = QQB_PROC_DEVNULL,
                         .err = pipefd[1],
                         .same_group = 1};
    pid_t pid = qqb_proc_spawn(&p);
    if (pid < 0) {
        snprintf(err, errsz, "cannot run %s: fork: %s", prog, strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    close(pipefd[1]);
    char out[2048];
    size_t n = drain(pipefd[0], out, sizeof out);
    close(pipefd[0]);
    int status;
    if (qqb_proc_wait(pid, NULL, &status) != 0) {
        snprintf(err, errsz, "cannot run %s: waitpid: %s", prog, strerror(errno));
        return -1;
    }
    if (WIFSIGNALED(status)) {
        snprintf(err, errsz, "%s %s was killed by signal %d", prog, script, WTERMSIG(status));
        return -1;
    }
    int code = WEXITSTATUS(status);
    if (code == 126 || code == 127) {
        snprintf(err, errsz, "cannot run %s in %s (%s): install gnuplot (Debian: gnuplot-nox)",
                 prog, dir, code == 127 ? "not found" : "cannot enter the folder");
        return -1;
    }
    /* gnuplot echoes the failing command and a caret first; its message
     * ("x.gp" line 3: undefined variable: foo) is the last line. */
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' ' || out[n - 1] == '\r'))
        out[--n] = '\0';
    char *line = strrchr(out, '\n');
    line = line ? line + 1 : out;
    if (code != 0) {
        snprintf(err, errsz, "%s %s failed (exit %d)%s%s", prog, script, code, *line ? ": " : "",
                 line);
        return -1;
    }
    if (n > 0 && *line) {
        snprintf(err, errsz, "%s %s wrote on stderr: %s", prog, script, line);
        return -1;
    }
    return 0;
}
