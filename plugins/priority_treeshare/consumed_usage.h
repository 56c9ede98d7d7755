/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * consumed_usage.h - usage_metric=consumed (issue 20): the fair-share
 * usage of the jobs that ended, as the CPU time their steps used (sacct's
 * TotalCPU), read back from slurmdbd; the span rules are in
 * src/consumed.h.  Running jobs are charged no fair-share usage
 * (usage_charge_job()'s consumed); limits' usage stays dedicated.
 */
#ifndef PT_CONSUMED_USAGE_H
#define PT_CONSUMED_USAGE_H

#include "slurmctld_api.h"

#include <stdbool.h>
#include <time.h>

#include "priority_conf.h"

/*
 * consumed_usage_charge() - charge the jobs that ended in the span of the
 * cycle starting at start (the previous one at last_ran) to their
 * association and every ancestor: to the usage windows when windows,
 * else to usage_raw decayed by decay (per second) from their end to
 * start.  Asks slurmdbd with no lock held, then takes assoc_mgr's write
 * locks.  A failed query is logged and retried by the next cycle.
 */
void consumed_usage_charge(time_t last_ran, time_t start, double decay,
			   bool windows, time_t since);

/*
 * consumed_usage_of() - is job's fair-share usage its consumed CPU time
 * (usage_metric=consumed, and its run started at or after c's
 * consumed_since), not dedicated?  Each job is charged by one metric,
 * the one in force when it started: so a switch counts nothing twice.
 */
static inline bool consumed_usage_of(const struct priority_conf *c,
				     const job_record_t *job)
{
	return c && c->settings.consumed &&
	       job->start_time >= c->consumed_since;
}

/*
 * consumed_usage_restore() - at start, the consumed_since of the state
 * the usage is resumed from (0: dedicated then, or no state).
 */
void consumed_usage_restore(time_t since);

/*
 * consumed_usage_fini() - at fini: no restored start, no span to ask
 * again, as a fresh load (the .so stays mapped).
 */
void consumed_usage_fini(void);

/*
 * consumed_usage_adopt() - at start, before c is installed: with
 * usage_metric=consumed, c's consumed_since becomes the restored one, or
 * with none (dedicated before) stays the start's, logged as a switch.
 */
void consumed_usage_adopt(struct priority_conf *c);

/* consumed_usage_switched() - log a reconfigure's switch of metric. */
void consumed_usage_switched(const struct priority_conf *c,
			     const struct priority_conf *old);

/*
 * consumed_usage_gather_none() - JobAcctGatherType is jobacct_gather/none
 * (or unset): no step's CPU time is recorded.
 */
bool consumed_usage_gather_none(void);

#endif /* PT_CONSUMED_USAGE_H */
