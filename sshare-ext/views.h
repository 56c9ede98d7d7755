/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * views.h - the four ways sshare-ext prints a share_set, one file each:
 *   table_view.c  sshare's table (header, widths, account indentation)
 *   path_view.c   pbsfs -g: one entity and its path from the root
 *   json_view.c   every column of the rows, as JSON
 *   bar_view.c    the tree, one bar per entity: usage against target
 * and the one that prints no share_set:
 *   diagnose_view.c  Maui's diagnose -f: usage per credential, from a
 *                 treeshare_state file
 */
#ifndef SSHARE_EXT_VIEWS_H
#define SSHARE_EXT_VIEWS_H

#include <stdio.h>

#include "columns.h"
#include "fields.h"
#include "share_set.h"
#include "targets.h"

void table_view(FILE *f, const struct share_set *s,
		const struct field_list *list, enum col_mode mode, int header);

/* path_view() - RET 0, or -1 when entity names nothing (msg set). */
int path_view(FILE *f, const struct share_set *s, const char *entity, char *msg,
	      size_t len);

void json_view(FILE *f, const struct share_set *s);

void bar_view(FILE *f, const struct share_set *s);

/*
 * diagnose_view() - the usage per credential in the treeshare_state file
 * state (else its .prev, said in the first line), targets from tg (may
 * be NULL) under policy.  RET 0, or -1 with msg naming the file and the
 * defect, or saying the file keeps no usage per credential.
 */
int diagnose_view(FILE *f, const char *state, const struct ts_targets *tg,
		  enum ts_fs_policy policy, char *msg, size_t len);

#endif /* SSHARE_EXT_VIEWS_H */
