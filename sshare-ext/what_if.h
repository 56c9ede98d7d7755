/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * what_if.h - --set and --usage: change a tree's shares or raw usage
 * before the algorithms run.
 *
 * NAME is read as entity.h says and must name one association: a user
 * in several accounts needs "user@account".  The root has usage only.
 * --usage on a user or an account moves every ancestor's usage by the
 * same difference, as Slurm charges a job to its association and all
 * above it; an account's new usage may not be below its children's sum.
 */
#ifndef SSHARE_EXT_WHAT_IF_H
#define SSHARE_EXT_WHAT_IF_H

#include <stddef.h>

#include "cli.h"
#include "tree.h"

/*
 * what_if_apply() - apply w[0 .. n-1] in order, then re-finish t.
 * RET 0, or -1 with msg naming the option and the reason.
 */
int what_if_apply(struct ts_tree *t, const struct what_if *w, size_t n,
		  char *msg, size_t len);

#endif /* SSHARE_EXT_WHAT_IF_H */
