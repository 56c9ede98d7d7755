/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.c - sshare's cell formats (columns.h).  Each function mirrors
 * one print_fields_*() routine's observable output, including its quirks:
 * a blank string cell in fixed mode is a single ' ' padded, a blank
 * number cell is printed with the signed width, and a double that is
 * exactly (double)NO_VAL, INFINITE, NO_VAL64 or INFINITE64 is blank.
 */
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "share_set.h"

/* A blank cell, for the number printers. */
static void blank_cell(const struct col_out *o, int len, int last)
{
	if (o->mode == COL_PARSABLE2 && last)
		return;
	if (o->mode != COL_FIXED)
		fputc('|', o->f);
	else
		fprintf(o->f, "%*s ", len, " ");
}

/* The parsable forms of a cell whose text is s; RET 1 if printed. */
static int parsable_cell(const struct col_out *o, const char *s, int last)
{
	if (o->mode == COL_FIXED)
		return 0;
	if (o->mode == COL_PARSABLE2 && last)
		fputs(s, o->f);
	else
		fprintf(o->f, "%s|", s);
	return 1;
}

/* Fixed width text, cut to |len|-1 characters and '+' when longer. */
static void fixed_text(const struct col_out *o, int len, const char *s)
{
	int abs_len = abs(len);
	size_t n = strlen(s);

	if (abs_len > 0 && n > (size_t)abs_len) {
		fprintf(o->f, len < 0 ? "%-*.*s+ " : "%*.*s+ ", abs_len - 1,
			abs_len - 1, s);
		return;
	}
	fprintf(o->f, len < 0 ? "%-*.*s " : "%*.*s ", abs_len, abs_len, s);
}

void col_header(const struct col_out *o, const char *const *names,
		const int *lens, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		if (o->mode == COL_PARSABLE2 && i == n - 1)
			fputs(names[i], o->f);
		else if (o->mode != COL_FIXED)
			fprintf(o->f, "%s|", names[i]);
		else
			fprintf(o->f, "%*.*s ", lens[i], abs(lens[i]),
				names[i]);
	}
	fputc('\n', o->f);
	if (o->mode != COL_FIXED)
		return;
	for (i = 0; i < n; i++) {
		for (k = 0; k < abs(lens[i]); k++)
			fputc('-', o->f);
		fputc(' ', o->f);
	}
	fputc('\n', o->f);
}

void col_str(const struct col_out *o, int len, const char *v, int last)
{
	if (parsable_cell(o, v ? v : "", last))
		return;
	if (!v) {
		fprintf(o->f, len < 0 ? "%-*.*s " : "%*.*s ", abs(len),
			abs(len), " ");
		return;
	}
	fixed_text(o, len, v);
}

void col_tres(const struct col_out *o, int len, const char *v, int last)
{
	if (!parsable_cell(o, v, last))
		fixed_text(o, len, v);
}

void col_uint32(const struct col_out *o, int len, uint32_t v, int last)
{
	char buf[16];

	if (v == SHARE_NO_VAL || v == SHARE_INFINITE) {
		blank_cell(o, len, last);
		return;
	}
	snprintf(buf, sizeof(buf), "%u", v);
	if (!parsable_cell(o, buf, last))
		fprintf(o->f, len < 0 ? "%-*s " : "%*s ", abs(len), buf);
}

void col_uint64(const struct col_out *o, int len, uint64_t v, int last)
{
	char buf[24];

	if (v == SHARE_NO_VAL64 || v == SHARE_INFINITE64) {
		blank_cell(o, len, last);
		return;
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	if (!parsable_cell(o, buf, last))
		fprintf(o->f, len < 0 ? "%-*s " : "%*s ", abs(len), buf);
}

void col_double(const struct col_out *o, int len, double v, int last)
{
	int abs_len = abs(len), width = abs_len, flen, elen;
	char buf[64];

	if (v == (double)SHARE_NO_VAL64 || v == (double)SHARE_INFINITE64 ||
	    v == (double)SHARE_NO_VAL || v == (double)SHARE_INFINITE) {
		blank_cell(o, len, last);
		return;
	}
	snprintf(buf, sizeof(buf), "%f", v);
	if (parsable_cell(o, buf, last))
		return;
	/* Too wide for "%*f": "%e", narrowed by the overflow of "%*.*e". */
	flen = snprintf(NULL, 0, "%*f", abs_len, v);
	if (flen <= width) {
		fprintf(o->f, len < 0 ? "%-*f " : "%*f ", width, v);
		return;
	}
	elen = snprintf(NULL, 0, "%*.*e", width, width, v);
	if (elen > width)
		width -= elen - width;
	fprintf(o->f, len < 0 ? "%-*.*e " : "%*.*e ", width, width, v);
}
