/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * caps.h - Maui feasibility caps (seed 003, 6.3.3.2: "If the fairshare
 * cap is reached or exceeded, the job is not allowed to run even if there
 * are resources available"), evaluated on the association tree.
 *
 * A cap is an entry's fscap= in the targets file (targets.h): an absolute
 * amount of usage (the tree's usage units: RawUsage's, or the usage
 * windows' decay-weighted sum) or a percentage of all usage delivered
 * (100 * usage[i] / usage[root], seed 003's Usage).  An association is
 * over its own cap when its usage is at or over it; it is capped when it
 * or any ancestor is over its own cap.  A user's own cap is that of
 * "user NAME@ACCOUNT", else "user NAME"; an account's, its own entry's.
 * Percentages with a root usage of 0 count as 0 %, so fscap=0% (and
 * fscap=0) caps at once: no job below it runs.
 */
#ifndef TS_CAPS_H
#define TS_CAPS_H

#include <stddef.h>

#include "targets.h"
#include "tree.h"

/*
 * ts_caps_own() - node i's own feasibility cap (none for the root).
 * RET the cap or NULL.  Allocates nothing.
 */
const struct ts_fscap *ts_caps_own(const struct ts_targets *tg,
				   const struct ts_tree *t, size_t i);

/*
 * ts_caps_used() - node i's usage in cap c's terms: usage[i] for an
 * absolute cap, 100 * usage[i] / usage[0] (0 when usage[0] is 0) for a
 * percentage.
 */
double ts_caps_used(const struct ts_fscap *c, const struct ts_tree *t,
		    size_t i);

/*
 * ts_caps_evaluate() - by[i] (t->n entries) = the node whose cap keeps
 * node i's jobs from starting: the highest ancestor-or-self at or over
 * its own cap, or TS_NO_NODE.  One pass, parents first (tree.h).
 * tg NULL caps nothing.  RET the number of capped nodes.  Allocates
 * nothing.
 */
size_t ts_caps_evaluate(const struct ts_targets *tg, const struct ts_tree *t,
			long *by);

/*
 * ts_caps_evaluate_own() - the same, with each node's own cap given:
 * own[i] is ts_caps_own() of node i (a caller that keeps them across
 * cycles, by association id, spares the name look-ups).
 */
size_t ts_caps_evaluate_own(const struct ts_tree *t,
			    const struct ts_fscap *const *own, long *by);

/*
 * ts_caps_describe() - the hold reason for capping node `by` into
 * buf[len], without blanks (scontrol shows a reason's blanks as '_'):
 * "FairshareCap:physics=31.25%>=30%" or, for an absolute cap,
 * "FairshareCap:bob@theory=5000>=4000" (usage rounded down).  Always
 * NUL-terminated (cut when len is short).  RET the length it needed.
 */
size_t ts_caps_describe(const struct ts_targets *tg, const struct ts_tree *t,
			size_t by, char *buf, size_t len);

/* The prefix of every ts_caps_describe() text. */
#define TS_CAPS_REASON_PREFIX "FairshareCap:"

#endif /* TS_CAPS_H */
