/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ft_decide.h - why one user is ahead of another under Fair Tree (issue
 * 29, "which job is ahead and why"): Fair Tree ranks siblings by Level FS
 * from the root down (fair_tree.c), so two associations are ordered at
 * their first common ancestor in the fair-share tree (fs_parent links),
 * by the two children of it on their paths: the one that sorts first
 * (ts_ft_before(): higher Level FS, a user before an account on equal
 * Level FS, else kid order) puts every user below it ahead.
 */
#ifndef TS_FT_DECIDE_H
#define TS_FT_DECIDE_H

#include <stddef.h>

#include "error.h"
#include "fairshare.h"
#include "tree.h"

struct ts_ft_decision {
	long ancestor;	     /* the first common ancestor */
	long side_a, side_b; /* its children on a's and b's paths */
	int a_first;	     /* a's side sorts first */
	int tied;	     /* equal Level FS there: may share a rank */
};

/*
 * ts_ft_decide() - the decision between nodes a and b (neither the
 * other's fs ancestor) of t, whose Fair Tree figures are fs.
 * RET TS_OK, or TS_EINVAL (a node out of range, a == b, one above the
 * other) with *err set.
 */
int ts_ft_decide(const struct ts_tree *t, const struct ts_fs *fs, size_t a,
		 size_t b, struct ts_ft_decision *d, struct ts_error *err);

#endif /* TS_FT_DECIDE_H */
