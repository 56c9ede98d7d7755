/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bar_view.c - the whole tree, one line per association, fitting 80
 * columns:
 *
 *   ENTITY                   USAGE AGAINST TARGET (| target, end 2x)
 *   root/                    [###############|###############] 100.0% of 100.0%
 *     group1/                [######.........|...............]  16.7% of  40.0%
 *       bob                  [######.........|...............]   8.3% of  20.0%
 *
 * The target is PBS's fairshare_perc (Perc), the share of the machine
 * the shares promise; the usage is NormUsage, the share actually used.
 * The bar has 15 cells up to the target and 15 beyond, so a full bar is
 * twice the target; '>' in the last cell means more than that.  An
 * association with no target (zero shares) shows "no target".
 * Accounts end in '/'; names too long for their cell end in '+'.
 */
#include <stdio.h>
#include <string.h>

#include "extended.h"
#include "views.h"

#define NAME_WIDTH 24
#define HALF	   15 /* cells from empty to the target */

static void name_cell(FILE *f, const struct ts_tree *t, size_t i)
{
	char cell[NAME_WIDTH + 1];
	const char *name = i ? ts_tree_name(t, i) : "root";
	size_t indent = 2 * (size_t)t->depth[i], len = strlen(name), pos;
	int is_account = !t->is_user[i];

	memset(cell, ' ', NAME_WIDTH);
	cell[NAME_WIDTH] = '\0';
	if (indent > NAME_WIDTH - 4)
		indent = NAME_WIDTH - 4;
	pos = indent;
	if (len + (size_t)is_account > NAME_WIDTH - indent) {
		memcpy(cell + pos, name, NAME_WIDTH - indent - 1);
		cell[NAME_WIDTH - 1] = '+';
	} else {
		memcpy(cell + pos, name, len);
		if (is_account)
			cell[pos + len] = '/';
	}
	fprintf(f, "%s ", cell);
}

static void bar(FILE *f, double used, double target)
{
	char cells[2 * HALF + 2];
	double ratio = target > 0 ? used / target : 0;
	int fill = (int)(ratio * HALF + 0.5), k, pos = 0;

	if (fill > 2 * HALF)
		fill = 2 * HALF + 1;
	for (k = 0; k < 2 * HALF; k++) {
		if (k == HALF)
			cells[pos++] = '|';
		cells[pos++] = k < fill ? '#' : '.';
	}
	cells[pos] = '\0';
	if (fill > 2 * HALF)
		cells[pos - 1] = '>';
	fprintf(f, "[%s]", cells);
}

void bar_view(FILE *f, const struct share_set *s)
{
	const struct ts_tree *t = &s->tree;
	size_t i;

	if (!s->have_ext)
		return;
	fprintf(f, "%-*s %s\n", NAME_WIDTH, "ENTITY",
		"USAGE AGAINST TARGET (| target, end 2x)");
	for (i = 0; i < t->n; i++) {
		double used = i			? extended_usage_norm(s, i)
			      : t->usage[0] > 0 ? 1.0
						: 0.0;
		double target = s->ext.perc[i];

		name_cell(f, t, i);
		if (target > 0) {
			bar(f, used, target);
			fprintf(f, " %5.1f%% of %5.1f%%\n", 100 * used,
				100 * target);
		} else {
			fprintf(f, "%-*s %5.1f%% no target\n", 2 * HALF + 3, "",
				100 * used);
		}
	}
}
