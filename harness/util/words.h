/* words.h - how a number is said: a count with its noun, a change with its sign. */
#ifndef QQB_WORDS_H
#define QQB_WORDS_H

/* N and its noun, the noun with an 's' unless N is 1: "1 case", "3 cases",
 * "0 launches" (a noun ending in s, x, z, ch or sh takes "es"). ONE is the
 * singular; a noun whose plural is another word ("series") is not for this. */
struct qqb_count {
    char s[96];
};
const char *qqb_count(struct qqb_count *b, unsigned long long n, const char *one);

/* V with its sign and PREC decimals (0..9): "+1.25", "-0.50"; a figure that
 * rounds to zero at PREC is "+0.00", never "-0.00"; NaN "nan", an infinity
 * "+inf" or "-inf"; past 1e15 in size, three significant digits ("+1.23e+20"),
 * so the text always fits. */
struct qqb_signed {
    char s[48];
};
const char *qqb_signed(struct qqb_signed *b, double v, int prec);

/* How many bytes of S, at most MAX, end at a character's end (S UTF-8):
 * for a name cut to its column, printf("%-24.*s", qqb_utf8_fit(s, 24), s),
 * never half a character (a lead byte without its continuation bytes). */
int qqb_utf8_fit(const char *s, int max);

/* The same in a buffer of the enclosing block (a compound literal): for one
 * call's arguments, as in printf("%s%%", QQB_SIGNED(pct, 2)). */
#define QQB_SIGNED(v, prec) qqb_signed(&(struct qqb_signed){{0}}, (v), (prec))
#define QQB_COUNT(n, one)   qqb_count(&(struct qqb_count){{0}}, (n), (one))

#endif /* QQB_WORDS_H */
