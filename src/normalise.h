/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * normalise.h - what every fair-share algorithm starts from: the input
 * check and Slurm 22.05's two normalisations, NormUsage and traditional
 * NormShares (normalise.c).  Internal to the fair-share core: classic.c,
 * depth_oblivious.c, fair_tree.c, pbs.c and the dispatcher fairshare.c
 * call it; it calls none of them.  ts_normalise_node_usage() also serves
 * callers that compute one node at a time (the plugin's users).
 */
#ifndef TS_NORMALISE_H
#define TS_NORMALISE_H

#include "error.h"
#include "fairshare.h"
#include "tree.h"

/*
 * ts_normalise_check() - t finished, fs big enough.  RET TS_OK or
 * TS_EINVAL naming what (as "who: ...").
 */
int ts_normalise_check(const struct ts_tree *t, const struct ts_fs *fs,
		       const char *who, struct ts_error *err);

/*
 * ts_normalise_usage() - Slurm's set_assoc_usage_norm() for every node:
 * usage / root's usage, capped at 1, 0 when the root has none; the root
 * keeps TS_USAGE_NO_VAL (Slurm never computes it).
 */
void ts_normalise_usage(const struct ts_tree *t, struct ts_fs *fs);

/*
 * ts_normalise_node_usage() - one node's usage_norm: usage / total, at
 * most 1, 0 when total is 0 (what ts_normalise_usage() does for every
 * node).
 */
long double ts_normalise_node_usage(long double usage, long double total);

/*
 * ts_normalise_shares_traditional() - Slurm's shares_norm outside Fair
 * Tree: the product, multiplied from the node up in Slurm's order, of
 * shares / level_shares over the node and its direct ancestors below the
 * root, Fairshare=parent levels skipped, 0 once a level_shares is 0.  A
 * Fairshare=parent node takes its fs parent's; the root 1.0.  Exact to
 * the bit down to TS_NORMALISE_EXACT_DEPTH; below, parent's product times
 * own ratio (a few ulps off Slurm's rounding), keeping the cost O(n * 64).
 */
#define TS_NORMALISE_EXACT_DEPTH 64
void ts_normalise_shares_traditional(const struct ts_tree *t, struct ts_fs *fs);

#endif /* TS_NORMALISE_H */
