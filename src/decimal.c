/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decimal.c - locale-independent decimal text <-> double.
 *
 * Reading uses strtod() under a thread-local C locale on a NUL-terminated
 * copy of exactly the scanned bytes, so strtod() can never read further
 * than the scanner did ("0x1p3" is "0" then "x1p3").  Writing tries 15,
 * 16 and 17 significant digits and keeps the first that reads back
 * exactly: 17 always does for an IEEE double.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at s[i ..), before end. */
static size_t digits(const char *s, size_t i, size_t end)
{
	size_t n = 0;

	while (i + n < end && is_digit(s[i + n]))
		n++;
	return n;
}

/*
 * The number at the start of s[0 .. end) (end SIZE_MAX: up to the NUL,
 * which no rule takes), with an exponent only when exp_ok.
 */
static size_t scan(const char *s, size_t end, int exp_ok)
{
	size_t n = digits(s, 0, end), frac = 0, exp;

	if (n < end && s[n] == '.') {
		frac = digits(s, n + 1, end);
		if (!n && !frac)
			return 0;
		n += 1 + frac;
	}
	if (!n)
		return 0;
	if (exp_ok && n < end && (s[n] == 'e' || s[n] == 'E')) {
		size_t sign =
			n + 1 < end && (s[n + 1] == '+' || s[n + 1] == '-');

		exp = digits(s, n + 1 + sign, end);
		if (exp)
			n += 1 + sign + exp;
	}
	return n;
}

size_t ts_decimal_scan(const char *s)
{
	return scan(s, SIZE_MAX, 1);
}

/* Run the C locale on this thread until c_locale_end(). */
static locale_t c_locale_begin(locale_t *old)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);

	*old = c ? uselocale(c) : (locale_t)0;
	return c;
}

static void c_locale_end(locale_t c, locale_t old)
{
	if (!c)
		return;
	uselocale(old);
	freelocale(c);
}

static double read_c(const char *text)
{
	locale_t old, c = c_locale_begin(&old);
	double v = strtod(text, NULL);

	c_locale_end(c, old);
	return v;
}

int ts_decimal_value(const char *s, size_t len, double *out)
{
	char small[64];
	char *copy = small;
	double v;

	if (len >= sizeof(small)) {
		copy = malloc(len + 1);
		if (!copy)
			return -1;
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	v = read_c(copy);
	if (copy != small)
		free(copy);
	if (isinf(v))
		return -1;
	*out = v;
	return 0;
}

int ts_decimal_read(const char *s, size_t len, int plain, long double *out)
{
	char small[64];
	char *copy = small;
	locale_t old, c;
	long double v;
	int range;

	if (!len || scan(s, len, !plain) != len)
		return TS_DECIMAL_SYNTAX;
	if (len >= sizeof(small)) {
		copy = malloc(len + 1);
		if (!copy)
			return TS_DECIMAL_NOMEM;
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	c = c_locale_begin(&old);
	errno = 0;
	v = strtold(copy, NULL);
	/* valgrind's strtold() clamps an overflow to LDBL_MAX: errno says */
	range = !isfinite(v) || (errno == ERANGE && v > 1);
	c_locale_end(c, old);
	if (copy != small)
		free(copy);
	if (range)
		return TS_DECIMAL_RANGE;
	*out = v;
	return TS_DECIMAL_OK;
}

int ts_decimal_format(double v, char *buf, size_t size)
{
	char text[40];
	locale_t old, c = c_locale_begin(&old);
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(text, sizeof(text), "%.*g", prec, v);
		if (strtod(text, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(text, sizeof(text), "%.17g", v);
	c_locale_end(c, old);
	return snprintf(buf, size, "%s", text);
}
