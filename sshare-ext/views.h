/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * views.h - the four ways sshare-ext prints a share_set, one file each:
 *   table_view.c  sshare's table (header, widths, account indentation)
 *   path_view.c   pbsfs -g: one entity and its path from the root
 *   json_view.c   every column of the rows, as JSON
 *   bar_view.c    the tree, one bar per entity: usage against target
 * and those that print no share_set:
 *   diagnose_view.c  Maui's diagnose -f: usage per credential, from a
 *                 treeshare_state file (the controller's, online)
 *   job_fs_view.c    Maui's diagnose -p: pending jobs' fair share
 *   maui_export.c    the usage per credential as Maui's window files
 */
#ifndef SSHARE_EXT_VIEWS_H
#define SSHARE_EXT_VIEWS_H

#include <stdint.h>
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

/* json_string() - s as a JSON string, escaped; null when s is NULL. */
void json_string(FILE *f, const char *s);

void bar_view(FILE *f, const struct share_set *s);

/*
 * diagnose_view() - the usage per credential in the treeshare_state file
 * state (else its .prev, said in the first line), targets from tg (may
 * be NULL) under policy, accounts, QOS and partitions named by names
 * (NULL: numbers).  RET 0, or -1 with msg naming the file and the
 * defect, or saying the file keeps no usage per credential.
 */
struct cred_names;
struct ts_cred_usage;
int diagnose_view(FILE *f, const char *state, const struct ts_targets *tg,
		  enum ts_fs_policy policy, const struct cred_names *names,
		  char *msg, size_t len);

/*
 * diagnose_usage_load() - the usage per credential of the
 * treeshare_state file state (else its .prev) into *cu (free with
 * ts_cred_usage_free()), and the view's first line(s) into first:
 * "Usage per credential saved at TIME", after the defect when the .prev
 * was read.  RET 0, or -1 with msg (diagnose_view()'s).
 */
int diagnose_usage_load(const char *state, struct ts_cred_usage *cu,
			char *first, size_t first_len, char *msg, size_t len);

/*
 * job_fs_view() - Maui's diagnose -p (job_fs_view.c): each pending job
 * of the controller, in each of its partitions, with its credentials'
 * deltas against the usage in state and the targets tg under policy,
 * weighted fs_weight and weight[] (FS<TYPE>WEIGHT), as priority/treeshare
 * computes them.  RET 0, or -1 with msg.
 */
int job_fs_view(FILE *f, const char *state, const struct ts_targets *tg,
		enum ts_fs_policy policy, const struct cred_names *names,
		double fs_weight, const double weight[], uint32_t only_job,
		char *msg, size_t len);

/*
 * job_fs_view_online() - job_fs_view() of job only_job (0: every pending
 * job) with the controller's state file, fs_targets=, fs_policy= and
 * weights (--explain's Maui part).  RET 0, or -1 with msg.
 */
int job_fs_view_online(FILE *f, uint32_t only_job, char *msg, size_t len);

/*
 * maui_export() - --export-maui=DIR (maui_export.c): every window of the
 * usage per credential in state with usage delivered as Maui's
 * FS.<EPOCH> file in dir, named by names (cred_names_text()); a line per
 * file on f.  Refuses, writing nothing, when one of the files is there
 * already.  RET 0, or -1 with msg.
 */
int maui_export(FILE *f, const char *state, const char *dir,
		const struct cred_names *names, char *msg, size_t len);

#endif /* SSHARE_EXT_VIEWS_H */
