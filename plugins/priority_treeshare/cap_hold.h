/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cap_hold.h - Maui feasibility caps (fscap= in the targets file,
 * src/caps.h) enforced in an unmodified slurmctld by a "cap hold":
 * priority 0, state_reason WAIT_HELD and a state_desc of our own
 * ("FairshareCap:physics=31.25%>=30%"), which every start path honours
 * (main scheduler, backfill, select_nodes at submission; see
 * ../shared/labs/caps/SLURM-GATES.md).
 *
 *   cap table   per association id, the reason its jobs may not start,
 *               or none; built each cycle from the tree (cap_table_
 *               build(), no lock), published at write back (cap_table_
 *               publish(), { .assoc = WRITE_LOCK }), read under
 *               { .assoc = READ_LOCK }: a hash lookup, no allocation.
 *   held set    jobs this plugin holds, keyed (array_job_id or job_id,
 *               submit time); only these are ever released.
 *   exempt set  jobs an operator released with scontrol release (an
 *               override): never cap-held again while pending.
 * Both sets are committed with the usage (checkpoint.c, treeshare_state)
 * and restored at start, so an override survives a restart.
 *
 * Maui's other credentials (issue 27): a job whose user (NAME@*), Unix
 * group, QOS or partition is at or over its fscap= is held the same way,
 * the reason naming the credential ("FairshareCap:qos:gpu=12.50%>=10%");
 * cred_table.h evaluates those caps each cycle, with the association
 * tree's, and a job's association is looked at first.
 *
 * A user's or an administrator's hold (direct_set_prio, WAIT_HELD_USER,
 * any priority-0 job not in the held set) is never touched, and neither
 * is a job that is not pending.
 */
#ifndef PT_CAP_HOLD_H
#define PT_CAP_HOLD_H

#include "slurmctld_api.h"

#include <stdbool.h>

#include "src/tree.h"
#include "src/usage_state.h"

#include "priority_conf.h"

/*
 * cap_table_build() - evaluate c's caps on tree t (usage filled, root =
 * all delivered) into a table kept aside; no lock.  RET 0, or -1 (logged;
 * the published table then stays).
 */
int cap_table_build(const struct ts_tree *t, const struct priority_conf *c);

/* cap_table_publish() - the table built last goes live.  Assoc write lock. */
void cap_table_publish(void);

/*
 * cap_table_drop() - no cap in force from now on (a configuration
 * without fscap= was installed): a job set after it is not held, those
 * held are released by the next pass.  The table a cycle is building
 * may still be published by it.  Assoc write lock.
 */
void cap_table_drop(void);

/*
 * cap_hold_at_set() - priority_p_set()'s step, before the priority is
 * computed; the caller holds the job write lock and { .assoc =
 * READ_LOCK }.  An operator's release of a cap-held job exempts it.
 * RET true when the job is now cap-held: its priority is to be 0.
 */
bool cap_hold_at_set(job_record_t *job);

/*
 * cap_hold_pass() - the decay cycle's cap step: hold pending jobs of
 * capped associations, refresh the reason of held ones, release those no
 * longer capped (priority recomputed, scheduler queued), adopt cap holds
 * found in the job records (after a restart: state_desc prefix).  Takes
 * the job write lock and the association read lock itself.
 */
void cap_hold_pass(const struct priority_conf *c);

/*
 * cap_hold_watch_interval() - while an association is over its cap, how
 * often (seconds) the decay thread runs cap_hold_pass() between cycles,
 * else 0.  Slurm before 25.05 does not ask the plugin for a requeued
 * job's priority; such a job may start cred_expire + 1 s after its
 * requeue (AuthInfo, default 120 s): half of that, so that a pass holds
 * it before.  The decay thread's.
 */
int cap_hold_watch_interval(void);

/*
 * cap_hold_keys() - the held and exempt sets as of now into s's job keys
 * (unsorted), for a commit.  No Slurm lock needed.  RET TS_OK or
 * TS_ENOMEM.
 */
int cap_hold_keys(struct ts_usage_state *s, struct ts_error *err);

/*
 * cap_hold_restore() - at start, before any job is loaded: the sets of
 * the last commit, read from file and suffix (".prev" or ""), as logged.
 * The first pass keeps only keys of pending jobs.
 */
void cap_hold_restore(const struct ts_usage_state *u, const char *file,
		      const char *suffix);

/* cap_hold_counts() - jobs held and exempt now (for logs and tests). */
void cap_hold_counts(size_t *held, size_t *exempt);

/* cap_hold_fini() - release all memory (plugin fini). */
void cap_hold_fini(void);

#endif /* PT_CAP_HOLD_H */
