/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner.h - the decisions of node_power's ramp-rate limiting (seed 001,
 * PBS PP-824), as pure functions of the loaded state, the configuration
 * and the time passed in.  transition.c applies them under the state
 * file's lock; the unit tests call them directly.
 *
 * Rules:
 *   - What restores a node (power on, ramp up) is never refused; what
 *     takes capacity away needs its enable key: power off needs
 *     power_on_off_enable, the node in poweroff_eligible and slurmctld not
 *     reporting it allocated or mixed; ramp down needs
 *     power_ramp_rate_enable and the node not busy.
 *   - At most max_concurrent_nodes nodes hold a claim (an operation in
 *     progress) at any moment, whoever holds them.
 *   - A node powered off at off_at is powered on no earlier than
 *     off_at + min_node_down_delay.
 *   - A claim whose owner is gone, or older than
 *     ts_power_planner_stale_after(), is repaired: released, and a power
 *     operation leaves power unknown.
 */
#ifndef TS_POWER_PLANNER_H
#define TS_POWER_PLANNER_H

#include <stddef.h>
#include <time.h>

#include "error.h"
#include "log.h"
#include "power/backend.h"
#include "power/config.h"
#include "power/hostlist.h"
#include "power/state.h"

enum ts_power_verdict {
	TS_POWER_PENDING,	      /* still to be done */
	TS_POWER_DONE,		      /* node reached the requested state */
	TS_POWER_FAILED,	      /* backend error or timeout */
	TS_POWER_REFUSED_DISABLED,    /* enable key is False */
	TS_POWER_REFUSED_INELIGIBLE,  /* not in poweroff_eligible */
	TS_POWER_REFUSED_BUSY,	      /* slurmctld: allocated or mixed */
	TS_POWER_REFUSED_UNSUPPORTED, /* backend has no sleep states */
	TS_POWER_DELAYED,    /* min_node_down_delay ends after the wait */
	TS_POWER_NO_SLOT,    /* no free slot before the wait ended */
	TS_POWER_SUPERSEDED, /* a later request took the node over */
};

/*
 * ts_power_planner_verdict_name() - "done", "refused (not
 * poweroff_eligible)", ...
 */
const char *ts_power_planner_verdict_name(enum ts_power_verdict v);

/*
 * ts_power_planner_op_event() - the seed's log event of an operation:
 * node_power_on, node_power_off, power_ramp_up, power_ramp_down.
 */
const char *ts_power_planner_op_event(enum ts_power_op op);

/*
 * ts_power_planner_refusal() - TS_POWER_PENDING if op may be applied to
 * the node, else the refusal.  busy: slurmctld reports it allocated or mixed.
 * has_sleep: the backend can set sleep-state limits.
 */
enum ts_power_verdict
ts_power_planner_refusal(const struct ts_power_config *cfg, enum ts_power_op op,
			 const char *node, int busy, int has_sleep);

/*
 * ts_power_planner_suspend_op() - what a suspend (Slurm's SuspendProgram)
 * does to a node (seed 001: power off/on only for eligible nodes when
 * power_on_off_enable is set, else sleep-state ramping only):
 * TS_POWER_OP_OFF when power_on_off_enable is True and the node is
 * poweroff_eligible; else TS_POWER_OP_RAMP_DOWN when
 * power_ramp_rate_enable is True and the backend has sleep states; else
 * TS_POWER_OP_OFF, which ts_power_planner_refusal() then refuses.
 */
enum ts_power_op ts_power_planner_suspend_op(const struct ts_power_config *cfg,
					     const char *node, int has_sleep);

/*
 * ts_power_planner_stale_after() - age in seconds after which a claim is
 * repaired even if its owner pid exists (the pid may have been reused):
 * twice the longest a run may legitimately hold one.
 */
time_t ts_power_planner_stale_after(const struct ts_power_config *cfg);

/*
 * ts_power_planner_repair() - release claims whose owner is gone (env) or that
 * are older than stale_after; logs one line per node.  RET nodes repaired.
 */
size_t ts_power_planner_repair(struct ts_power_state *st,
			       const struct ts_power_env *env, time_t now,
			       time_t stale_after, const struct ts_logger *lg);

/*
 * ts_power_planner_delay_end() - earliest time node i may be powered on:
 * off_at + min_node_down_delay, or 0 if not powered off by node_power.
 */
time_t ts_power_planner_delay_end(const struct ts_power_config *cfg,
				  const struct ts_power_node *nd);

/*
 * ts_power_planner_next_limit() - the next sleep-state limit a ramp sets on a
 * node whose limit is cur: ramp down steps up through the configured
 * levels to the deepest, ramp up steps down through them to 0.
 * RET the limit, or -1 when the node is already at the ramp's end.
 * Levels 1 2 3 4: down from 0 gives 1, 2, 3, 4; up from 4 gives 3, 2, 1, 0.
 */
long ts_power_planner_next_limit(const struct ts_power_config *cfg,
				 enum ts_power_op op, long cur);

/* One node as slurmctld reports it, for `node_power cycle`. */
struct ts_power_slurm_node {
	const char *name;
	int busy;	  /* allocated, mixed or completing */
	int idle;	  /* idle, powered up, not powering */
	int powered_down; /* powered down or powering down */
	time_t last_busy; /* Slurm's LastBusyTime; 0 unknown */
};

/* One pending job with the scheduler's estimate, for `cycle`. */
struct ts_power_pending_job {
	unsigned long job_id;
	time_t start_time;	 /* expected start; 0 none */
	const char *sched_nodes; /* hostlist; NULL or "" none */
};

/* What one `cycle` decided. */
struct ts_power_cycle_plan {
	struct ts_hostlist ramp_up;   /* sleep limit back to 0 */
	struct ts_hostlist ramp_down; /* sleep limit to the deepest */
	struct ts_hostlist power_up;  /* ask slurmctld to power up */
	size_t jobs_analyzed;
};

void ts_power_planner_plan_free(struct ts_power_cycle_plan *p);

/*
 * ts_power_planner_cycle() - the periodic analysis (PP-824's server periodic
 * hook) on one snapshot:
 *   1. records last_used_time in st: now for busy nodes, else Slurm's
 *      last_busy if newer; a node never seen busy gets now;
 *   2. takes the pending jobs that have a start time and scheduled nodes,
 *      earliest first, at most max_jobs_analyze_limit; their nodes are
 *      "needed";
 *   3. ramp_up: nodes with a sleep limit above 0 that are needed or busy;
 *      ramp_down (power_ramp_rate_enable only): idle nodes, not needed,
 *      not yet at the deepest level, unused for node_idle_limit seconds;
 *      power_up (power_on_off_enable only): needed nodes slurmctld has
 *      powered down and not allocated (an allocated one is being resumed
 *      for its job already).
 * Each list is sorted.  RET TS_OK, or an error (bad sched_nodes names the
 * job) with *err set; p is then empty.
 */
int ts_power_planner_cycle(const struct ts_power_config *cfg,
			   struct ts_power_state *st,
			   const struct ts_power_slurm_node *nodes,
			   size_t n_nodes,
			   const struct ts_power_pending_job *jobs,
			   size_t n_jobs, time_t now,
			   struct ts_power_cycle_plan *p, struct ts_error *err);

#endif /* TS_POWER_PLANNER_H */
