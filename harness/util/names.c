/* names.c - the one rule for names read from suites, run JSON, baselines and .qq files. */
#include "names.h"

#include "qq_file.h"

#include <stdio.h>
#include <string.h>

int qqb_name_plain_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
}

int qqb_name_check(enum qqb_name_kind kind, const char *s, char *why, size_t whysz)
{
    size_t max = kind == QQB_NAME_PLAIN ? QQB_NAME_PLAIN_MAX : QQB_NAME_TEXT_MAX;
    if (!s || !*s) {
        snprintf(why, whysz, "is empty");
        return -1;
    }
    size_t n = strlen(s);
    if (n > max) {
        snprintf(why, whysz, "is %zu bytes, at most %zu", n, max);
        return -1;
    }
    if (kind == QQB_NAME_PLAIN && (!strcmp(s, ".") || !strcmp(s, ".."))) {
        snprintf(why, whysz, "is '%s'", s);
        return -1;
    }
    if (kind == QQB_NAME_TEXT) {
        /* libqq's rule for key names, the one a .qq file's names obey. */
        size_t bad = qq_name_check(s, n);
        if (bad) {
            snprintf(why, whysz, "has the byte 0x%02x at %zu", (unsigned char)s[bad - 1], bad);
            return -1;
        }
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!qqb_name_plain_char(c)) {
            snprintf(why, whysz, "has the byte 0x%02x at %zu", c, i + 1);
            return -1;
        }
    }
    return 0;
}

const char *qqb_name_rule(enum qqb_name_kind kind)
{
    return kind == QQB_NAME_PLAIN
               ? "1 to 128 letters, digits, '_', '.' or '-'"
               : "1 to 255 bytes of UTF-8 with no control character and no backquote";
}
