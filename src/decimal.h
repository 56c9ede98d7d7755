/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decimal.h - decimal numbers as text, whatever the process locale.
 *
 * The formula language, PriorityParameters, tree files (USAGE,
 * NormShares) and fs_targets (percentages, fscap=) read numbers such as
 * "0.5", ".25", "3." and "1.5e-3" here, and print them back.  strtod() and
 * printf("%g") follow LC_NUMERIC, so a controller started under a locale
 * with a decimal comma would read "0.5" as 0.  Both directions here use
 * the C locale for the calling thread only (uselocale()), so they are
 * thread-safe and never change the process locale.
 */
#ifndef TS_DECIMAL_H
#define TS_DECIMAL_H

#include <stddef.h>

/*
 * ts_decimal_scan() - length of the unsigned decimal number at the start
 * of s: DIGITS [ "." [DIGITS] ] | "." DIGITS, then optionally
 * ("e" | "E") ["+" | "-"] DIGITS.  No sign, no hex, no "inf" or "nan".
 * An "e" not followed by digits is not part of the number.
 * RET the number of bytes of the number, 0 if s does not start with one.
 */
size_t ts_decimal_scan(const char *s);

/*
 * ts_decimal_value() - the correctly rounded double of the len bytes at s,
 * which ts_decimal_scan() accepted in full.  Underflow gives 0 or a
 * subnormal.  RET 0, or -1 when the value overflows (*out untouched) or
 * memory for a long number's copy runs out.
 */
int ts_decimal_value(const char *s, size_t len, double *out);

/* ts_decimal_read()'s outcomes. */
#define TS_DECIMAL_OK	  0
#define TS_DECIMAL_SYNTAX -1 /* not one number, or more than one */
#define TS_DECIMAL_RANGE  -2 /* past LDBL_MAX */
#define TS_DECIMAL_NOMEM  -3 /* a long number's copy: no memory */

/*
 * ts_decimal_read() - the number that is all of s[0 .. len) (s needs no
 * NUL), in ts_decimal_scan()'s grammar, without the exponent when plain
 * is not 0; correctly rounded to a long double in the C locale (strtold()
 * on a copy of exactly those bytes).  The one reader of the files' and
 * parameters' numbers with ts_decimal_value() (tree files, fs_targets).
 * RET TS_DECIMAL_OK with *out set, or TS_DECIMAL_SYNTAX, _RANGE, _NOMEM
 * (*out untouched).
 */
int ts_decimal_read(const char *s, size_t len, int plain, long double *out);

/*
 * ts_decimal_format() - the shortest text that ts_decimal_value() reads
 * back as exactly v (a finite double), "%.17g" style ("0.5", "1e-05",
 * "-3"), with "." as decimal point.  RET the length snprintf() would give;
 * buf is always NUL-terminated when size > 0.
 */
int ts_decimal_format(double v, char *buf, size_t size);

#endif /* TS_DECIMAL_H */
