/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - compare two ts-harness reports (rules in compare.h).
 *
 * Self-contained: reads text, knows the record layouts only by their
 * field names, so a difference is reported as "assoc 7 (bob) field
 * EffectvUsage: 0.125 vs 0.12500001".
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"

#include "compare.h"

#define REL_TOL	   1e-9
#define MAX_FIELDS 32

struct lines {
	char **line;
	size_t n;
};

struct layout {
	const char *type;
	bool tolerant; /* fair-share/usage record */
	const char *field[MAX_FIELDS];
};

/* Field names per record type, as ts-harness(1) OUTPUT documents them. */
static const struct layout layouts[] = {
	{ "config", false, { "type", "key", "PriorityFlags", "cycles" } },
	{ "assoc",
	  true,
	  { "type", "cycle", "ID", "kind", "Name", "Parent", "RawShares",
	    "NormShares", "RawUsage", "NormUsage", "EffectvUsage", "FairShare",
	    "LevelFS", "fs_factor", "GrpTRESRaw(secs)", "TRESRunSecs" } },
	{ "qos",
	  true,
	  { "type", "cycle", "ID", "Name", "usage_raw", "grp_used_wall",
	    "norm_priority", "usage_tres_raw", "grp_used_tres_run_secs" } },
	{ "prio",
	  false,
	  { "type", "cycle", "JOBID", "PARTITION", "USER", "AGE", "ASSOC",
	    "FAIRSHARE", "JOBSIZE", "PARTITION_PRIO", "QOS", "SITE", "NICE",
	    "direct_prio", "TRES", "tres_weights", "QOS_NAME" } },
	{ "qos_used",
	  true,
	  { "type", "cycle", "ID", "kind", "account or uid",
	    "tres_run_secs" } },
	{ "job",
	  false,
	  { "type", "cycle", "JOBID", "state", "priority", "priority_array" } },
	{ "set", false, { "type", "cycle", "JOBID", "priority_p_set" } },
};

static void free_lines(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	l->line = NULL;
	l->n = 0;
}

static int read_lines(const char *path, struct lines *l)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;

	l->line = NULL;
	l->n = 0;
	if (!f) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&buf, &cap, f)) >= 0) {
		char **grown;

		if (len && buf[len - 1] == '\n')
			buf[len - 1] = '\0';
		grown = realloc(l->line, (l->n + 1) * sizeof(*l->line));
		if (!grown || !(grown[l->n] = strdup(buf))) {
			fprintf(stderr, "ts-harness: out of memory\n");
			exit(2);
		}
		l->line = grown;
		l->n++;
	}
	free(buf);
	fclose(f);
	return 0;
}

static const struct layout *layout_of(const char *line)
{
	size_t i, n;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		n = strlen(layouts[i].type);
		if (!strncmp(line, layouts[i].type, n) && line[n] == '|')
			return &layouts[i];
	}
	return NULL;
}

/* Split a copy of line at '|'; RET number of fields. */
static int split(char *line, char **field)
{
	int n = 0;

	field[n++] = line;
	for (; *line; line++) {
		if (*line == '|') {
			*line = '\0';
			if (n == MAX_FIELDS)
				return -1;
			field[n++] = line + 1;
		}
	}
	return n;
}

static bool parse_number(const char *s, long double *v, bool *integer)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtold(s, &end);
	if (*end || errno == EINVAL)
		return false;
	*integer = !strpbrk(s, ".eEn"); /* no point, exponent, nan/inf */
	return true;
}

/* One value of an assoc/qos field, equal within the tolerance? */
static bool close_enough(const char *a, const char *b)
{
	long double x, y, diff, scale;
	bool xi, yi;

	if (!strcmp(a, b))
		return true;
	if (!parse_number(a, &x, &xi) || !parse_number(b, &y, &yi))
		return false;
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	diff = fabsl(x - y);
	scale = fmaxl(fabsl(x), fabsl(y));
	if (diff <= REL_TOL * scale)
		return true;
	return xi && yi && diff <= 1;
}

/* A comma-separated list field, element by element. */
static bool field_close(char *a, char *b)
{
	char *sa = NULL, *sb = NULL, *ea, *eb;

	if (!strcmp(a, b))
		return true;
	ea = strtok_r(a, ",", &sa);
	eb = strtok_r(b, ",", &sb);
	while (ea && eb) {
		if (!close_enough(ea, eb))
			return false;
		ea = strtok_r(NULL, ",", &sa);
		eb = strtok_r(NULL, ",", &sb);
	}
	return !ea && !eb;
}

/* RET -1 if equal, else the index of the first differing field. */
static int first_difference(const char *a, const char *b)
{
	const struct layout *lay = layout_of(a);
	char *ca = strdup(a), *cb = strdup(b);
	char *fa[MAX_FIELDS], *fb[MAX_FIELDS];
	int na, nb, i, diff = -1;

	if (!ca || !cb) {
		fprintf(stderr, "ts-harness: out of memory\n");
		exit(2);
	}
	na = split(ca, fa);
	nb = split(cb, fb);
	if (na < 0 || nb < 0 || na != nb || lay != layout_of(b) || !lay) {
		diff = 0;
		goto done;
	}
	for (i = 0; i < na; i++) {
		char tmp_a[4096], tmp_b[4096];

		if (!strcmp(fa[i], fb[i]))
			continue;
		if (!lay->tolerant || i < 2 || strlen(fa[i]) >= sizeof(tmp_a) ||
		    strlen(fb[i]) >= sizeof(tmp_b)) {
			diff = i;
			break;
		}
		strcpy(tmp_a, fa[i]);
		strcpy(tmp_b, fb[i]);
		if (!field_close(tmp_a, tmp_b)) {
			diff = i;
			break;
		}
	}
done:
	free(ca);
	free(cb);
	return diff;
}

/* Cycle-1 lines do not count for DEPTH_OBLIVIOUS (see compare.h). */
static bool skipped(const char *line, bool skip_cycle_1)
{
	const struct layout *lay = layout_of(line);

	return skip_cycle_1 && lay && strcmp(lay->type, "config") &&
	       !strncmp(strchr(line, '|'), "|1|", 3);
}

static bool depth_oblivious(const struct lines *l)
{
	unsigned long flags;

	if (!l->n || strncmp(l->line[0], "config|flags|", 13))
		return false;
	flags = strtoul(l->line[0] + 13, NULL, 16);
	return (flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS) &&
	       !(flags & PRIORITY_FLAGS_FAIR_TREE);
}

static void show_difference(FILE *out, const char *a, const char *b,
			    size_t line_a, size_t line_b)
{
	const struct layout *lay = a ? layout_of(a) : NULL;
	int field = (a && b) ? first_difference(a, b) : -1;

	fprintf(out, "# first difference: line %zu of A, line %zu of B\n",
		line_a, line_b);
	fprintf(out, "#  A: %s\n", a ? a : "(end of report)");
	fprintf(out, "#  B: %s\n", b ? b : "(end of report)");
	if (lay && field > 0 && field < MAX_FIELDS && lay->field[field])
		fprintf(out, "#  field %d (%s) differs%s\n", field,
			lay->field[field],
			lay->tolerant ? " by more than 1e-9 relative" : "");
}

int th_compare_files(const char *a, const char *b, FILE *out)
{
	struct lines la, lb;
	size_t ia = 0, ib = 0;
	bool skip;
	int rc = 0;

	if (read_lines(a, &la))
		return 2;
	if (read_lines(b, &lb)) {
		free_lines(&la);
		return 2;
	}
	skip = depth_oblivious(&la);
	for (;;) {
		while (ia < la.n && skipped(la.line[ia], skip))
			ia++;
		while (ib < lb.n && skipped(lb.line[ib], skip))
			ib++;
		if (ia == la.n && ib == lb.n)
			break;
		if (ia == la.n || ib == lb.n ||
		    first_difference(la.line[ia], lb.line[ib]) >= 0) {
			show_difference(out, ia < la.n ? la.line[ia] : NULL,
					ib < lb.n ? lb.line[ib] : NULL, ia + 1,
					ib + 1);
			rc = 1;
			break;
		}
		ia++;
		ib++;
	}
	if (!rc && !la.n) {
		fprintf(out, "# both reports are empty\n");
		rc = 1;
	}
	free_lines(&la);
	free_lines(&lb);
	return rc;
}

int th_compare_main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: ts-harness compare FILE_A FILE_B\n");
		return 2;
	}
	return th_compare_files(argv[1], argv[2], stdout);
}
