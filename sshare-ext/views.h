/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * views.h - the four ways sshare-ext prints a share_set, one file each:
 *   table_view.c  sshare's table (header, widths, account indentation)
 *   path_view.c   pbsfs -g: one entity and its path from the root
 *   json_view.c   every column of the rows, as JSON
 *   bar_view.c    the tree, one bar per entity: usage against target
 */
#ifndef SSHARE_EXT_VIEWS_H
#define SSHARE_EXT_VIEWS_H

#include <stdio.h>

#include "columns.h"
#include "fields.h"
#include "share_set.h"

void table_view(FILE *f, const struct share_set *s,
		const struct field_list *list, enum col_mode mode, int header);

/* path_view() - RET 0, or -1 when entity names nothing (msg set). */
int path_view(FILE *f, const struct share_set *s, const char *entity, char *msg,
	      size_t len);

void json_view(FILE *f, const struct share_set *s);

void bar_view(FILE *f, const struct share_set *s);

#endif /* SSHARE_EXT_VIEWS_H */
