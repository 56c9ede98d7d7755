/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extended.h - sshare-ext's own columns: every algorithm of src/ run on
 * the same tree, so a site sees what a switch would do.
 *
 *   TreeUsage   PBS fairshare_tree_usage          ts_pbs()
 *   Perc        PBS fairshare_perc                ts_pbs()
 *   PBSFactor   PBS fairshare_factor              ts_pbs()
 *   Rank        Fair Tree rank of a user          ts_fair_tree()
 *   ClassicFS   classic factor                    ts_classic()
 *   DOFS        DEPTH_OBLIVIOUS factor            ts_depth_oblivious()
 *   FairTreeFS  Fair Tree factor of a user        ts_fair_tree()
 */
#ifndef SSHARE_EXT_EXTENDED_H
#define SSHARE_EXT_EXTENDED_H

#include "fields.h"
#include "share_set.h"

/* extended_compute() - fill s->fs[] from s->tree with s->damp. */
int extended_compute(struct share_set *s, struct ts_error *err);

/*
 * extended_value() - column f (an extended one) of tree node i.
 * RET 0 for a blank cell (no node, an account's Rank or FairTreeFS).
 * Rank is returned as a double.
 */
int extended_value(const struct share_set *s, long node, enum field_id f,
		   double *out);

#endif /* SSHARE_EXT_EXTENDED_H */
