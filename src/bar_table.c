/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bar_table.c - '|'-separated tables with a header (bar_table.h). */
#include <string.h>
#include <strings.h>

#include "bar_table.h"

char *ts_bar_next_line(char **p, char *end)
{
	char *line = *p, *nl;

	if (line >= end)
		return NULL;
	nl = memchr(line, '\n', (size_t)(end - line));
	if (nl) {
		*nl = 0;
		if (nl > line && nl[-1] == '\r')
			nl[-1] = 0;
	}
	*p = nl ? nl + 1 : end;
	return line;
}

size_t ts_bar_split(char *s, char **f, size_t max)
{
	size_t n = 0;

	for (;;) {
		char *bar = strchr(s, '|');

		if (n < max)
			f[n] = s;
		n++;
		if (!bar)
			return n;
		*bar = 0;
		s = bar + 1;
	}
}

size_t ts_bar_header(char *line, const char *const *names, size_t n_names,
		     int *col)
{
	size_t i, k, n = 1;
	char *p, *name;

	for (p = line; *p; p++)
		n += *p == '|';
	for (k = 0; k < n_names; k++)
		col[k] = -1;
	for (i = 0, name = line; i < n; i++) {
		char *bar = strchr(name, '|');

		if (bar)
			*bar = 0;
		for (k = 0; k < n_names; k++)
			if (!strcasecmp(name, names[k]) && col[k] < 0)
				col[k] = (int)i;
		name = bar ? bar + 1 : name;
	}
	return n;
}
