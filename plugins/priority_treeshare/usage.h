/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage.h - usage accounting, as priority/multifactor keeps it:
 *
 *   decay   every association's and QOS's usage_raw, usage_tres_raw and
 *           grp_used_wall (the leaf copy too) times f = d^dt, where
 *           d = 1 - 0.693 / PriorityDecayHalfLife and dt the seconds since
 *           the last cycle; QOS with Flags=NoDecay keep theirs.
 *   charge  a running job's billable TRES-seconds of [from, to], decayed
 *           as if spread evenly (dt * d^dt), times its QOS UsageFactor,
 *           added to its QOS, its partition's QOS (when another) and its
 *           association and every ancestor up to the root; the TRES run
 *           seconds accounting_storage_enforce=limits reserved for it
 *           are given back as they are consumed.
 *   reset   everything zeroed, per PriorityUsageResetPeriod.
 *
 * With usage_window= (issue 5) the associations' usage_raw is neither
 * decayed nor charged here: charges go to the usage windows and each
 * cycle writes the weighted window usage back as usage_raw.  Limits'
 * usage (usage_tres_raw, grp_used_wall) and QOS usage are unchanged.
 *
 * Every function here writes association and QOS records: the caller
 * holds assoc_mgr's { .assoc = WRITE_LOCK, .qos = WRITE_LOCK,
 * .tres = READ_LOCK } (and, for usage_charge_job(), the job write lock),
 * except where a function says it locks itself.
 */
#ifndef PT_USAGE_H
#define PT_USAGE_H

#include "slurmctld_api.h"

#include <stdbool.h>
#include <time.h>

/* The assoc_mgr locks usage accounting needs, by name. */
#define USAGE_LOCKS                                                            \
	{                                                                      \
		.assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK      \
	}

/*
 * usage_decay() - multiply all usage by factor; raw false leaves the
 * associations' usage_raw alone (usage_window=: the windows are the
 * fair-share usage).  Locks assoc_mgr itself.
 */
void usage_decay(double factor, bool raw);

/* usage_reset() - zero all usage; locks assoc_mgr itself. */
void usage_reset(void);

/*
 * usage_charge_job() - add job's usage of [from, to] (Slurm's
 * _apply_new_usage()).  at_end: the job has ended; its usage is charged up
 * to its end time and never again.  decay: d, the per-second factor.
 * windows: usage_window= is in force; the association chain's fair-share
 * usage (undecayed billable TRES-seconds times UsageFactor) goes to the
 * usage windows (usage_windows.h) instead of usage_raw; everything else
 * is charged as without.  consumed: usage_metric=consumed, the association
 * chain gets no fair-share usage (neither usage_raw nor windows; the
 * job's CPU time comes from consumed_usage.h once it has ended); limits'
 * and QOS usage are charged as without.
 * RET false when the job's end was already charged (nothing done).
 */
bool usage_charge_job(job_record_t *job, time_t from, time_t to, bool at_end,
		      double decay, bool windows, bool consumed);

/*
 * usage_give_back_run_secs() - at start and after an association reload,
 * Slurm reserves each running job's TRES x time limit in
 * grp_used_tres_run_secs; give back what the job used up to last_ran.
 * Takes the job read lock and assoc_mgr locks itself.
 */
void usage_give_back_run_secs(time_t last_ran);

/* What usage_rebuild_accounts() found. */
struct usage_rebuilt {
	size_t accounts;      /* accounts set to what their children hold */
	long double root_was; /* root's RawUsage before */
	long double root_now; /* and after */
};

/*
 * usage_rebuild_accounts() - every account's usage (usage_raw,
 * usage_tres_raw, grp_used_wall) made the sum of its direct children's
 * plus its own separate leaf usage (leaf_usage: charged to the account
 * association itself, or kept from deleted children), where it is not,
 * within rounding.  Slurm's association refresh when slurmdbd returns
 * after a start from its cache copies the old root's usage into the new
 * root and then adds every leaf's on top: root twice over.  Caller holds
 * USAGE_LOCKS.  RET 0 with *out filled, or -1 (no memory, or parent
 * links that loop; logged, nothing changed).
 */
int usage_rebuild_accounts(struct usage_rebuilt *out);

/*
 * usage_note_root() - remember the root record (caller holds
 * { .assoc = WRITE_LOCK }); usage_rebuild_accounts() does it too.
 * usage_assoc_reloaded() - the association list was replaced since (a
 * new root record: the refresh when slurmdbd returns); caller holds
 * { .assoc = READ_LOCK }.
 */
void usage_note_root(void);
bool usage_assoc_reloaded(void);

/* usage_fini() - at fini, no call left: no root remembered. */
void usage_fini(void);

#endif /* PT_USAGE_H */
