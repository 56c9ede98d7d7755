/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path_view.c - PBS's "pbsfs -g ENTITY" view (seed 000, PP-718 interface
 * 4) on the association tree:
 *
 *   fairshare entity: scott
 *   Resgroup				: 4	<- the parent's id
 *   cresgroup				: 6	<- the entity's id
 *   Shares					: 40
 *   Percentage				: 24.000000%	<- fairshare_perc
 *   fairshare_tree_usage	: 0.832973
 *   usage					: 1000 (RawUsage)
 *   usage/perc				: 4167
 *   Path from root:
 *   TREEROOT  :     0       1201 / 1.000 = 1201
 *   group2    :     4       1001 / 0.600 = 1668
 *   scott     :     6       1000 / 0.240 = 4167
 *
 * Ids are Slurm's association ids online and the file's node index
 * offline (the root is 0).  PBS prints the usage resource ("cput"); here
 * it is Slurm's RawUsage.  A zero percentage has no ratio: "inf" when
 * there is usage, 0 when there is none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cap_cells.h"
#include "explain.h"
#include "entity.h"
#include "views.h"

#define MAX_MATCHES 64

/*
 * Node i's usage as sshare prints RawUsage: online the controller's own
 * (the tree holds NormUsage x root's, which read 9 for sshare's 10 once);
 * offline the file's, truncated as Slurm converts its long double.
 */
static long double raw_usage(const struct share_set *s, long i)
{
	long double u = s->tree.usage[i];

	if (s->raw_usage)
		return (long double)s->raw_usage[i];
	return isfinite(u) ? truncl(u) : u;
}

static void ratio(char *buf, size_t len, long double usage, double perc)
{
	if (perc > 0)
		snprintf(buf, len, "%.0Lf", usage / perc);
	else
		snprintf(buf, len, "%s", usage > 0 ? "inf" : "0");
}

static void path_line(FILE *f, const struct share_set *s, long i)
{
	const struct ts_tree *t = &s->tree;
	const struct share_ext *e = &s->ext;
	char r[64];

	ratio(r, sizeof(r), raw_usage(s, i), e->perc[i]);
	fprintf(f, "%-10s: %5u %10.0Lf / %.3f = %s\n",
		i ? ts_tree_name(t, (size_t)i) : "TREEROOT", t->id[i],
		raw_usage(s, i), e->perc[i], r);
}

/* Root first (ts_explain_path()); a file may nest very deep. */
static void path(FILE *f, const struct share_set *s, long i)
{
	const struct ts_tree *t = &s->tree;
	size_t cap = t->depth[i] + 1, n, k;
	long *up = malloc(cap * sizeof(*up));

	if (!up)
		return;
	n = ts_explain_path(t, (size_t)i, up, cap);
	for (k = 0; k < n; k++)
		path_line(f, s, up[k]);
	free(up);
}

/* With --targets: the entity's fscap, its usage against it, capped by. */
static void cap_lines(FILE *f, const struct share_set *s, long i)
{
	char v[TS_CAP_CELL_MAX];

	if (!s->cap_by)
		return;
	fprintf(f, "fscap\t\t\t\t\t: %s\n",
		cap_cell(s, i, F_FS_CAP, v, sizeof(v)) ? v : "none");
	if (cap_cell(s, i, F_CAP_USAGE, v, sizeof(v)))
		fprintf(f, "fscap usage\t\t\t\t: %s\n", v);
	(void)cap_cell(s, i, F_CAPPED_BY, v, sizeof(v));
	fprintf(f, "capped by\t\t\t\t: %s\n", v);
}

static void entity(FILE *f, const struct share_set *s, long i)
{
	const struct ts_tree *t = &s->tree;
	const struct share_ext *e = &s->ext;
	char r[64];

	fprintf(f, "fairshare entity: %s\n",
		i ? ts_tree_name(t, (size_t)i) : "TREEROOT");
	if (t->parent[i] >= 0)
		fprintf(f, "Resgroup\t\t\t\t: %u\n", t->id[t->parent[i]]);
	else
		fprintf(f, "Resgroup\t\t\t\t: -1\n");
	fprintf(f, "cresgroup\t\t\t\t: %u\n", t->id[i]);
	if (!i)
		fprintf(f, "Shares\t\t\t\t\t: -1\n");
	else if (t->shares[i] == TS_SHARES_PARENT)
		fprintf(f, "Shares\t\t\t\t\t: parent\n");
	else
		fprintf(f, "Shares\t\t\t\t\t: %u\n", t->shares[i]);
	fprintf(f, "Percentage\t\t\t\t: %f%%\n", e->perc[i] * 100.0);
	fprintf(f, "fairshare_tree_usage\t: %f\n", e->tree_usage[i]);
	fprintf(f, "usage\t\t\t\t\t: %.0Lf (RawUsage%s)\n", raw_usage(s, i),
		s->consumed ? ", consumed CPU-seconds" : "");
	ratio(r, sizeof(r), raw_usage(s, i), e->perc[i]);
	fprintf(f, "usage/perc\t\t\t\t: %s\n", r);
	cap_lines(f, s, i);
	fprintf(f, "Path from root: \n");
	path(f, s, i);
}

int path_view(FILE *f, const struct share_set *s, const char *name, char *msg,
	      size_t len)
{
	long found[MAX_MATCHES];
	size_t n = s->have_ext ? entity_find(&s->tree, name, found, MAX_MATCHES)
			       : 0,
	       k;

	if (!n) {
		snprintf(msg, len, "-g %s: no such account or user", name);
		return -1;
	}
	for (k = 0; k < n; k++) {
		if (k)
			fputc('\n', f);
		entity(f, s, found[k]);
	}
	return 0;
}
