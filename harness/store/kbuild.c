/* kbuild.c - a kernel's build ID, compiler and flags from its ELF file (kbuild.h), through
 * libelf and libdw (elfutils), which check every offset and size against the file. */
#include "kbuild.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <libelf.h>

#include "strv.h"

/* Longest string kept, and most compile units looked at (a huge program's
 * units beyond it repeat the producers already seen). */
#define MAX_STR   512
#define MAX_UNITS 100000
/* The longest build ID kept (a SHA-1 one is 20 bytes). */
#define MAX_ID    64

/* A string list being built: distinct strings, NULL-ended. */
struct list {
    char **v;
    size_t n;
};

/* S[0..LEN) as a printable ASCII copy cut at MAX_STR, added to L unless it
 * is there already or L is full. 0, or -1 on out of memory. */
static int add_distinct(struct list *l, const char *s, size_t len)
{
    if (len > MAX_STR)
        len = MAX_STR;
    while (len && s[len - 1] == ' ')
        len--;
    if (!len || l->n >= QQB_KBUILD_MAX)
        return 0;
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        c[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    c[len] = '\0';
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], c) == 0) {
            free(c);
            return 0;
        }
    char **nv = realloc(l->v, (l->n + 2) * sizeof *nv);
    if (!nv) {
        free(c);
        return -1;
    }
    l->v = nv;
    l->v[l->n++] = c;
    l->v[l->n] = NULL;
    return 0;
}

static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* The GNU build ID note, in hex. */
static int read_id(Elf *elf, struct qqb_kbuild *b)
{
    const void *p = NULL;
    ssize_t n = dwelf_elf_gnu_build_id(elf, &p);
    if (n <= 0 || n > MAX_ID || !p)
        return 0;
    b->id = malloc((size_t)n * 2 + 1);
    if (!b->id)
        return -1;
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = p;
    for (ssize_t i = 0; i < n; i++) {
        b->id[2 * i] = hex[u[i] >> 4];
        b->id[2 * i + 1] = hex[u[i] & 15];
    }
    b->id[2 * n] = '\0';
    return 0;
}

/* The NUL-separated strings of the .comment section(s). */
static int read_comment(Elf *elf, struct list *l)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!name || strcmp(name, ".comment") != 0)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL); /* NULL when it does not fit the file */
        if (!d || !d->d_buf)
            continue;
        const char *s = d->d_buf;
        size_t size = d->d_size;
        for (size_t at = 0; at < size;) {
            const char *nul = memchr(s + at, '\0', size - at);
            size_t len = nul ? (size_t)(nul - (s + at)) : size - at;
            if (add_distinct(l, s + at, len) != 0)
                return -1;
            at += len + 1;
        }
    }
    return 0;
}

/* 1 when the compile unit DIE is one of libqq's own: its file, DW_AT_name
 * (joined to DW_AT_comp_dir when relative), ends in qq/src/F with F one of
 * QQB_LIBQQ_UNITS, libqq's source files (harness/CMakeLists.txt). libqq.a
 * is linked into every kernel, built with -g, so its units would speak for
 * a kernel built without -g; the kernel's flags are its own units'. */
static int libqq_unit(Dwarf_Die *die)
{
    Dwarf_Attribute at;
    const char *name = dwarf_attr(die, DW_AT_name, &at) ? dwarf_formstring(&at) : NULL;
    if (!name)
        return 0;
    size_t len = strnlen(name, MAX_STR);
    const char *slash = NULL; /* the last '/' of NAME */
    for (size_t i = 0; i < len; i++)
        if (name[i] == '/')
            slash = name + i;
    const char *base = slash ? slash + 1 : name;
    size_t blen = len - (size_t)(base - name);
    int known = 0;
    for (const char *w = QQB_LIBQQ_UNITS; *w && !known;) {
        size_t n = strcspn(w, " ");
        known = blen && n == blen && memcmp(w, base, n) == 0;
        w += n;
        w += strspn(w, " ");
    }
    if (!known)
        return 0;
    /* The folders before BASE: NAME's, else the compile directory's. */
    static const char dir[] = "qq/src/";
    size_t dlen = sizeof dir - 1, head = (size_t)(base - name);
    if (head >= dlen)
        return !memcmp(base - dlen, dir, dlen) && (head == dlen || *(base - dlen - 1) == '/');
    const char *cd = dwarf_attr(die, DW_AT_comp_dir, &at) ? dwarf_formstring(&at) : NULL;
    if (name[0] == '/' || !cd)
        return 0;
    /* NAME is relative: "src/F" under .../qq, or "F" under .../qq/src. */
    size_t clen = strnlen(cd, MAX_STR);
    while (clen && cd[clen - 1] == '/')
        clen--;
    char path[2 * MAX_STR + 2];
    snprintf(path, sizeof path, "%.*s/%.*s", (int)clen, cd, (int)head, name);
    size_t plen = strlen(path);
    return plen >= dlen && !memcmp(path + plen - dlen, dir, dlen) &&
           (plen == dlen || path[plen - dlen - 1] == '/');
}

/* DW_AT_producer of every compile unit's top entry but libqq's own. */
static int read_producers(Elf *elf, struct list *l)
{
    Dwarf *dbg = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    if (!dbg)
        return 0;
    Dwarf_CU *cu = NULL;
    Dwarf_Half version;
    uint8_t type;
    Dwarf_Die die;
    int rc = 0;
    for (size_t units = 0;
         units < MAX_UNITS && dwarf_get_units(dbg, cu, &cu, &version, &type, &die, NULL) == 0;
         units++) {
        if (libqq_unit(&die))
            continue;
        Dwarf_Attribute at;
        const char *s = dwarf_attr(&die, DW_AT_producer, &at) ? dwarf_formstring(&at) : NULL;
        if (s && (rc = add_distinct(l, s, strnlen(s, MAX_STR))) != 0)
            break;
    }
    dwarf_end(dbg);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int qqb_kbuild_read(const char *path, struct qqb_kbuild *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || elf_version(EV_CURRENT) == EV_NONE) {
        close(fd);
        return 0;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    struct list comment = {0}, producer = {0};
    int rc = 0;
    if (elf && elf_kind(elf) == ELF_K_ELF)
        rc = read_id(elf, b) || read_comment(elf, &comment) || read_producers(elf, &producer);
    if (elf)
        elf_end(elf);
    close(fd);
    b->compiler = comment.v;
    if (producer.n)
        qsort(producer.v, producer.n, sizeof *producer.v, cmp_str);
    b->producer = producer.v;
    if (rc != 0) {
        qqb_kbuild_free(b);
        snprintf(err, errlen, "%s: error: out of memory reading its build", path);
        return -1;
    }
    return 0;
}

int qqb_kbuild_copy(struct qqb_kbuild *d, const struct qqb_kbuild *s)
{
    memset(d, 0, sizeof *d);
    if ((s->id && !(d->id = strdup(s->id))) || qqb_strv_dup(s->compiler, &d->compiler) ||
        qqb_strv_dup(s->producer, &d->producer)) {
        qqb_kbuild_free(d);
        return -1;
    }
    return 0;
}

void qqb_kbuild_free(struct qqb_kbuild *b)
{
    free(b->id);
    free_strv(b->compiler);
    free_strv(b->producer);
    memset(b, 0, sizeof *b);
}

/* The list that says how a build was made: its producers, else its
 * compilers (NULL: neither). */
static char *const *evidence(const struct qqb_kbuild *b, int producer)
{
    char *const *v = producer ? b->producer : b->compiler;
    return v && v[0] ? v : NULL;
}

/* 1 when every string of the NULL-ended list A is in B. */
static int all_in(char *const *a, char *const *b)
{
    for (; *a; a++) {
        char *const *j = b;
        while (*j && strcmp(*a, *j))
            j++;
        if (!*j)
            return 0;
    }
    return 1;
}

/* 1 when the NULL-ended sets A and B hold the same strings. */
static int same_set(char *const *a, char *const *b)
{
    return all_in(a, b) && all_in(b, a);
}

int qqb_kbuild_differs(const struct qqb_kbuild *a, const struct qqb_kbuild *b)
{
    if (evidence(a, 1) && evidence(b, 1))
        return !same_set(a->producer, b->producer);
    if (!evidence(a, 0) || !evidence(b, 0))
        return 0;
    /* Both read from their ELF files: one with units of its own (-g), the
     * other none (built without -g) differ by -g at least. */
    if (!evidence(a, 1) != !evidence(b, 1))
        return 1;
    return !evidence(a, 1) && !same_set(a->compiler, b->compiler);
}

/* 1 when the word W[0..N) is one of the words of the strings V. */
static int has_word(char *const *v, const char *w, size_t n)
{
    for (size_t i = 0; v[i]; i++)
        for (const char *p = v[i]; *p;) {
            size_t len = strcspn(p, " ");
            if (len == n && memcmp(p, w, n) == 0)
                return 1;
            p += len;
            p += strspn(p, " ");
        }
    return 0;
}

/* The words of A that B lacks, once each, into OUT, cut near 60 bytes. */
static void words_only(char *const *a, char *const *b, struct qqb_strbuf *out)
{
    size_t shown = 0;
    struct qqb_strbuf said = QQB_STRBUF_INIT; /* the words put out, as one string */
    for (size_t i = 0; a[i]; i++)
        for (const char *p = a[i] + strspn(a[i], " "); *p;) {
            size_t len = strcspn(p, " ");
            const char *saidv[2] = {qqb_strbuf_str_of(&said), NULL};
            if (!has_word(b, p, len) && !has_word((char *const *)saidv, p, len)) {
                if (shown >= 60) {
                    qqb_strbuf_str(out, " ...");
                    qqb_strbuf_free(&said);
                    return;
                }
                if (shown)
                    qqb_strbuf_str(out, " ");
                for (size_t k = 0; k < len; k++) /* a baseline's text: printable only */
                    qqb_strbuf_add(out, p[k] > 0x20 && p[k] < 0x7f ? p + k : "?", 1);
                qqb_strbuf_add(&said, p, len);
                qqb_strbuf_str(&said, " ");
                shown += len + 1;
            }
            p += len;
            p += strspn(p, " ");
        }
    qqb_strbuf_free(&said);
}

/* The strings of A that B does not hold, as a NULL-ended array of A's
 * pointers (malloc'd; NULL on out of memory). */
static char **strings_only(char *const *a, char *const *b)
{
    size_t n = 0;
    while (a[n])
        n++;
    char **v = calloc(n + 1, sizeof *v);
    for (size_t i = 0, k = 0; v && i < n; i++) {
        size_t j = 0;
        while (b[j] && strcmp(a[i], b[j]))
            j++;
        if (!b[j])
            v[k++] = a[i];
    }
    return v;
}

void qqb_kbuild_brief(const struct qqb_kbuild *a, const struct qqb_kbuild *b, struct qqb_strbuf *sa,
                      struct qqb_strbuf *sb)
{
    int producer = evidence(a, 1) && evidence(b, 1);
    static char *const none[] = {NULL};
    if (!producer && (evidence(a, 1) || evidence(b, 1))) {
        /* One side built without -g: its switches are not in the file. */
        int ha = evidence(a, 1) != NULL;
        words_only(ha ? a->producer : b->producer, none, ha ? sa : sb);
        qqb_strbuf_str(ha ? sb : sa, QQB_KBUILD_NO_G);
        return;
    }
    char *const *va = evidence(a, producer), *const *vb = evidence(b, producer);
    /* The words that differ between the units only one side has: a
     * library both link (its units the same) adds none. */
    char **oa = strings_only(va ? va : none, vb ? vb : none);
    char **ob = strings_only(vb ? vb : none, va ? va : none);
    if (oa && ob) {
        words_only(oa, ob, sa);
        words_only(ob, oa, sb);
    }
    free(oa);
    free(ob);
    if (!qqb_strbuf_str_of(sa)[0] && !qqb_strbuf_str_of(sb)[0]) {
        qqb_strbuf_str(sa, "the same words in other units");
        qqb_strbuf_str(sb, "the same words in other units");
    }
}
