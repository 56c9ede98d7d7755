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

/*
 * extended_compute() - s->ext from s->tree with s->damp, every algorithm
 * in turn in fs (sized here, any content lost), its columns kept.  skip:
 * -1 online (all, PBS's values kept with classic); offline s->algo,
 * which the caller then computes in fs with ts_fs_compute() (PBS's values
 * included) and links with extended_link().  RET TS_OK or the error.
 */
int extended_compute(struct share_set *s, int skip, struct ts_fs *fs,
		     struct ts_error *err);

/*
 * extended_link() - the columns of s->algo and PBS's point into fs, which
 * holds ts_fs_compute()'s results for s->algo and must live as long as s.
 */
void extended_link(struct share_set *s, const struct ts_fs *fs);

/* extended_free() - release the kept columns. */
void extended_free(struct share_ext *e);

/*
 * extended_usage_norm() - node's usage over the root's (at most 1), as
 * every algorithm's NormUsage: the --tree view's bar.
 */
double extended_usage_norm(const struct share_set *s, size_t node);

/*
 * extended_value() - column f (an extended one) of tree node i.
 * RET 0 for a blank cell (no node, an account's Rank or FairTreeFS).
 * Rank is returned as a double.
 */
int extended_value(const struct share_set *s, long node, enum field_id f,
		   double *out);

#endif /* SSHARE_EXT_EXTENDED_H */
