/* number.h - the one parser of decimal numbers given on a command line or read from a file. */
#ifndef QQB_NUMBER_H
#define QQB_NUMBER_H

/*
 * S as a finite decimal number into *OUT: optional sign, digits, a point,
 * an exponent ("12", "-0.5", "1e-3"), the whole string, nothing else:
 * not hex ("0x10", which strtod takes as 16), "inf", "nan" or spaces.
 * Returns 0; -1 not a decimal number; -2 a decimal number past the range
 * of a double (1e999).
 */
int qqb_decimal(const char *s, double *out);

#endif /* QQB_NUMBER_H */
