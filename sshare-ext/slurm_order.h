/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_order.h - put a tree in the order Slurm 22.05 keeps associations
 * (slurmdb_sort_hierarchical_assoc_list()): depth first from the root,
 * each account's users before its sub-accounts, each group by name
 * (strcmp).  sshare prints rows in that order, and the order of each
 * account's children is Fair Tree's order for ties, so an offline tree
 * read from a file is reordered before anything is computed on it.
 */
#ifndef SSHARE_EXT_SLURM_ORDER_H
#define SSHARE_EXT_SLURM_ORDER_H

#include "tree.h"

/*
 * slurm_order() - t's nodes in Slurm's order, in place (ts_tree_permute():
 * one array copied at a time), ids and names kept, finished.
 * RET TS_OK or TS_E* with *err set.
 */
int slurm_order(struct ts_tree *t, struct ts_error *err);

#endif /* SSHARE_EXT_SLURM_ORDER_H */
