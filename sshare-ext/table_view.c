/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table_view.c - sshare's table.  The Account column indents each row
 * one blank deeper than the latest account row above it that is its
 * parent (slurmdb_tree_name_get()): the root and any account whose parent
 * is not shown start at column 0, a user row shows its account's name one
 * blank deeper than that account.  sshare keeps these blanks in -p/-P
 * output too, so they are kept here.
 */
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "cap_cells.h"
#include "extended.h"
#include "views.h"

/*
 * Accounts seen so far, by name (users are never parents): the cell of
 * the first row with that name and the depth of the latest, which is
 * what slurmdb_tree_name_get()'s list walk finds.
 */
struct seen {
	char *first_cell;
	size_t last_depth;
};

struct indent {
	struct hsearch_data names; /* name -> struct seen */
	struct seen *seen;
	size_t n;
	int ok;		 /* the table could be made */
	char *user_cell; /* the last user row's cell */
};

static int indent_init(struct indent *in, size_t rows)
{
	memset(in, 0, sizeof(*in));
	in->seen = calloc(rows + 1, sizeof(*in->seen));
	in->ok = in->seen && hcreate_r(2 * rows + 16, &in->names);
	return in->ok ? 0 : -1;
}

static struct seen *find_seen(struct indent *in, const char *name)
{
	ENTRY key = { (char *)name, NULL }, *hit = NULL;

	if (!name || !hsearch_r(key, FIND, &hit, &in->names))
		return NULL;
	return hit->data;
}

static char *indented(size_t depth, const char *name)
{
	char *cell = malloc(depth + strlen(name) + 1);

	if (cell) {
		memset(cell, ' ', depth);
		strcpy(cell + depth, name);
	}
	return cell;
}

/*
 * The Account cell of row r: its name indented one blank per level, as
 * sshare prints it; an account seen before keeps its first cell.
 * RET a string owned by in or r, not to be freed.
 */
static const char *indent_name(struct indent *in, const struct share_row *r)
{
	const char *parent = r->parent;
	struct seen *par, *self;
	size_t depth;
	char *cell;

	if (!in->ok)
		return r->is_user ? (parent ? parent : "") : r->name;
	self = r->is_user ? NULL : find_seen(in, r->name);
	if (self && parent)
		return self->first_cell;
	par = find_seen(in, parent);
	depth = par ? par->last_depth + 1 : 0;
	if (r->is_user) {
		/* users are never looked up again: keep only the text */
		free(in->user_cell);
		in->user_cell = indented(depth, parent ? parent : "");
		return in->user_cell ? in->user_cell : "";
	}
	if (self) { /* a second root row */
		self->last_depth = depth;
		return self->first_cell;
	}
	if (!(cell = indented(depth, r->name)))
		return r->name;
	self = &in->seen[in->n];
	self->first_cell = cell;
	self->last_depth = depth;
	{
		ENTRY add = { r->name, self }, *hit;

		if (!hsearch_r(add, ENTER, &hit, &in->names)) {
			free(cell);
			return r->name;
		}
	}
	in->n++;
	return cell;
}

static void indent_free(struct indent *in)
{
	size_t i;

	if (in->ok)
		hdestroy_r(&in->names);
	for (i = 0; i < in->n; i++)
		free(in->seen[i].first_cell);
	free(in->seen);
	free(in->user_cell);
}

/* Print row r's cell of column f (last: no separator after it). */
static void print_cell(const struct col_out *o, const struct share_set *s,
		       const struct share_row *r, enum field_id f,
		       struct indent *in, int last)
{
	int len = fields[f].len;
	char cap[TS_CAP_CELL_MAX];
	double v;

	switch (f) {
	case F_ACCOUNT:
		col_str(o, len, indent_name(in, r), last);
		break;
	case F_CLUSTER:
		col_str(o, len, r->cluster, last);
		break;
	case F_EFFECTV_USAGE:
		col_double(o, len, r->usage_efctv, last);
		break;
	case F_FAIRSHARE:
		if (share_set_fairshare(s, r, &v))
			col_double(o, len, v, last);
		else
			col_str(o, len, NULL, last);
		break;
	case F_GRP_TRES_MINS:
		col_tres(o, len, r->grp_tres_mins ? r->grp_tres_mins : "",
			 last);
		break;
	case F_GRP_TRES_RAW:
		col_tres(o, len, r->grp_tres_raw ? r->grp_tres_raw : "", last);
		break;
	case F_ID:
		col_uint32(o, len, r->id, last);
		break;
	case F_LEVEL_FS:
		if (r->shares_raw == SHARE_USE_PARENT)
			col_str(o, len, NULL, last);
		else
			col_double(o, len, r->level_fs, last);
		break;
	case F_NORM_SHARES:
		col_double(o, len, r->shares_norm, last);
		break;
	case F_NORM_USAGE:
		col_double(o, len, r->usage_norm, last);
		break;
	case F_PARTITION:
		col_str(o, len, r->partition, last);
		break;
	case F_RAW_SHARES:
		if (r->shares_raw == SHARE_USE_PARENT)
			col_str(o, len, "parent", last);
		else
			col_uint32(o, len, r->shares_raw, last);
		break;
	case F_RAW_USAGE:
		col_uint64(o, len, r->usage_raw, last);
		break;
	case F_TRES_RUN_MINS:
		col_tres(o, len, r->tres_run_mins ? r->tres_run_mins : "",
			 last);
		break;
	case F_USER:
		col_str(o, len, r->is_user ? r->name : NULL, last);
		break;
	case F_FS_CAP:
	case F_CAP_USAGE:
	case F_CAPPED_BY:
		col_str(o, len,
			cap_cell(s, r->node, f, cap, sizeof(cap)) ? cap : NULL,
			last);
		break;
	case F_RANK:
		if (extended_value(s, r->node, f, &v))
			col_uint32(o, len, (uint32_t)v, last);
		else
			col_str(o, len, NULL, last);
		break;
	default:
		if (extended_value(s, r->node, f, &v))
			col_double(o, len, v, last);
		else
			col_str(o, len, NULL, last);
		break;
	}
}

void table_view(FILE *f, const struct share_set *s,
		const struct field_list *list, enum col_mode mode, int header)
{
	struct col_out o = { f, mode };
	struct indent in;
	const char *names[FIELDS_MAX];
	int lens[FIELDS_MAX], i;
	size_t k;

	for (i = 0; i < list->n; i++) {
		names[i] = fields[list->id[i]].name;
		lens[i] = fields[list->id[i]].len;
	}
	indent_init(&in, s->n);
	if (header)
		col_header(&o, names, lens, list->n);
	for (k = 0; k < s->n; k++) {
		struct share_row tmp;
		const struct share_row *r = share_set_row(s, k, &tmp);

		for (i = 0; i < list->n; i++)
			print_cell(&o, s, r, list->id[i], &in,
				   i == list->n - 1);
		fputc('\n', f);
	}
	indent_free(&in);
}
