/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * duration.c - "43200", "12h", "12:00:00", "0-12" and "1-00:00:00" as
 * seconds (forms in duration.h).
 *
 * Each field is read with a cap of FIELD_MAX, so the weighted sum
 * (at most FIELD_MAX * 86400 * 2) fits in uint64_t long before the
 * caller's maximum is compared.
 */
#include <stdio.h>

#include "duration.h"

#define FIELD_MAX 1000000000000ULL /* 10^12 */

static const char expected[] =
	"expected seconds (43200), a number with unit s, m, h or d (12h), [[DD:]HH:]MM:SS or D-HH[:MM[:SS]]";

/* Read digits at *pos; RET 1 if any, -1 if too large, 0 if none. */
static int field(const char *text, size_t *pos, uint64_t *out)
{
	size_t i = *pos;
	uint64_t v = 0;
	int big = 0;

	while (text[i] >= '0' && text[i] <= '9') {
		if (v > FIELD_MAX)
			big = 1;
		else
			v = v * 10 + (uint64_t)(text[i] - '0');
		i++;
	}
	if (i == *pos)
		return 0;
	*pos = i;
	*out = v;
	return big || v > FIELD_MAX ? -1 : 1;
}

static uint64_t unit_of(char c)
{
	switch (c) {
	case 's':
	case 'S':
		return 1;
	case 'm':
	case 'M':
		return 60;
	case 'h':
	case 'H':
		return 3600;
	case 'd':
	case 'D':
		return 86400;
	}
	return 0;
}

/*
 * Read up to max_fields ':'-separated fields from *pos into f[], left to
 * right; *n is how many.  RET TS_OK or TS_E* with err set.
 */
static int colon_fields(const char *text, size_t *pos, uint64_t *f,
			int max_fields, int *n, struct ts_error *err)
{
	int r;

	for (*n = 0;;) {
		r = field(text, pos, &f[*n]);
		if (r == 0)
			return ts_error_set(err, TS_EINVAL, (long)*pos + 1,
					    "%s", expected);
		if (r < 0)
			return ts_error_set(err, TS_ERANGE, (long)*pos,
					    "number too large");
		(*n)++;
		if (text[*pos] != ':' || *n == max_fields)
			return TS_OK;
		(*pos)++;
	}
}

/* RET TS_OK if v < limit, else TS_EINVAL naming the field. */
static int below(uint64_t v, uint64_t limit, const char *what,
		 struct ts_error *err)
{
	if (v < limit)
		return TS_OK;
	return ts_error_set(err, TS_EINVAL, 1, "%s must be below %llu", what,
			    (unsigned long long)limit);
}

/* Slurm: days-hours[:minutes[:seconds]]; *pos is just after the '-'. */
static int slurm_form(const char *text, size_t *pos, uint64_t days,
		      uint64_t *total, struct ts_error *err)
{
	uint64_t f[3] = { 0, 0, 0 };
	int n, rc;

	rc = colon_fields(text, pos, f, 3, &n, err);
	if (!rc)
		rc = below(f[0], 24, "hours", err);
	if (!rc)
		rc = below(f[1], 60, "minutes", err);
	if (!rc)
		rc = below(f[2], 60, "seconds", err);
	*total = days * 86400 + f[0] * 3600 + f[1] * 60 + f[2];
	return rc;
}

/* Maui: [[DD:]HH:]MM:SS, right-aligned; *pos is after the first ':'. */
static int maui_form(const char *text, size_t *pos, uint64_t first,
		     uint64_t *total, struct ts_error *err)
{
	uint64_t f[4] = { first, 0, 0, 0 }, g[4] = { 0, 0, 0, 0 };
	int n, i, rc;

	rc = colon_fields(text, pos, f + 1, 3, &n, err);
	if (rc)
		return rc;
	n++;
	for (i = 0; i < n; i++)
		g[4 - n + i] = f[i];
	rc = below(g[3], 60, "seconds", err);
	if (!rc && n > 2)
		rc = below(g[2], 60, "minutes", err);
	if (!rc && n > 3)
		rc = below(g[1], 24, "hours", err);
	*total = g[0] * 86400 + g[1] * 3600 + g[2] * 60 + g[3];
	return rc;
}

int ts_duration_parse(const char *text, uint64_t max, uint64_t *secs,
		      struct ts_error *err)
{
	uint64_t first, total = 0;
	size_t pos = 0;
	int r, rc = TS_OK;

	r = field(text, &pos, &first);
	if (r == 0)
		return ts_error_set(err, TS_EINVAL, 1, "%s", expected);
	if (r < 0)
		return ts_error_set(err, TS_ERANGE, 1, "number too large");

	if (text[pos] == '\0') {
		total = first;
	} else if (unit_of(text[pos]) && text[pos + 1] == '\0') {
		total = first * unit_of(text[pos]);
		pos++;
	} else if (text[pos] == '-') {
		pos++;
		rc = slurm_form(text, &pos, first, &total, err);
	} else if (text[pos] == ':') {
		pos++;
		rc = maui_form(text, &pos, first, &total, err);
	} else {
		rc = ts_error_set(err, TS_EINVAL, (long)pos + 1, "%s",
				  expected);
	}
	if (rc)
		return rc;
	if (text[pos] != '\0')
		return ts_error_set(err, TS_EINVAL, (long)pos + 1, "%s",
				    expected);
	if (total > max)
		return ts_error_set(err, TS_ERANGE, 1,
				    "longer than %llu seconds",
				    (unsigned long long)max);
	*secs = total;
	return TS_OK;
}

int ts_duration_format(uint64_t secs, char *buf, size_t size)
{
	unsigned long long d = secs / 86400, h = secs / 3600 % 24,
			   m = secs / 60 % 60, s = secs % 60;

	if (d)
		return snprintf(buf, size, "%llu-%02llu:%02llu:%02llu", d, h, m,
				s);
	return snprintf(buf, size, "%02llu:%02llu:%02llu", h, m, s);
}
