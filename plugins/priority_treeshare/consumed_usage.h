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

#include <stdbool.h>
#include <time.h>

/*
 * consumed_usage_charge() - charge the jobs that ended in the span of the
 * cycle starting at start (the previous one at last_ran) to their
 * association and every ancestor: to the usage windows when windows,
 * else to usage_raw decayed by decay (per second) from their end to
 * start.  Asks slurmdbd with no lock held, then takes assoc_mgr's write
 * locks.  A failed query is logged and retried by the next cycle.
 */
void consumed_usage_charge(time_t last_ran, time_t start, double decay,
			   bool windows);

/*
 * consumed_usage_gather_none() - JobAcctGatherType is jobacct_gather/none
 * (or unset): no step's CPU time is recorded.
 */
bool consumed_usage_gather_none(void);

#endif /* PT_CONSUMED_USAGE_H */
