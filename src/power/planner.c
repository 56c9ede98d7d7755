/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * planner.c - node_power's decisions (planner.h), seed 001 (PBS PP-824).
 *
 * Ramp steps, with L = sleep_state_levels ascending and cur the node's
 * current limit:
 *   ramp down: next = min { l in L : l > cur }          (none: done)
 *   ramp up:   next = max { l in L u {0} : l < cur }     (none: done)
 * so 1 2 3 4 ramps down 0 -> 1 -> 2 -> 3 -> 4 and up 4 -> 3 -> 2 -> 1 -> 0,
 * each step one capmc set_sleep_state_limit, a pause between two steps.
 *
 * The cycle's idle test: a node is ramped down when
 *   now - max(last_used_time, Slurm's last_busy) >= node_idle_limit.
 * Edge cases: a job without start time or scheduled nodes is skipped and
 * not counted against max_jobs_analyze_limit; a scheduled node Slurm does
 * not report is ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "power/planner.h"

const char *ts_power_planner_verdict_name(enum ts_power_verdict v)
{
	switch (v) {
	case TS_POWER_PENDING:
		return "pending";
	case TS_POWER_DONE:
		return "done";
	case TS_POWER_FAILED:
		return "failed";
	case TS_POWER_REFUSED_DISABLED:
		return "refused (disabled by configuration)";
	case TS_POWER_REFUSED_INELIGIBLE:
		return "refused (not poweroff_eligible)";
	case TS_POWER_REFUSED_BUSY:
		return "refused (allocated or mixed)";
	case TS_POWER_REFUSED_UNSUPPORTED:
		return "refused (backend has no sleep states)";
	case TS_POWER_DELAYED:
		return "not done (min_node_down_delay)";
	case TS_POWER_NO_SLOT:
		return "not done (max_concurrent_nodes busy)";
	case TS_POWER_SUPERSEDED:
		return "dropped (superseded by a later request)";
	}
	return "?";
}

const char *ts_power_planner_op_event(enum ts_power_op op)
{
	switch (op) {
	case TS_POWER_OP_ON:
		return "node_power_on";
	case TS_POWER_OP_OFF:
		return "node_power_off";
	case TS_POWER_OP_RAMP_UP:
		return "power_ramp_up";
	case TS_POWER_OP_RAMP_DOWN:
		return "power_ramp_down";
	case TS_POWER_OP_NONE:
		break;
	}
	return "node_power";
}

enum ts_power_verdict
ts_power_planner_refusal(const struct ts_power_config *cfg, enum ts_power_op op,
			 const char *node, int busy, int has_sleep)
{
	switch (op) {
	case TS_POWER_OP_OFF:
		if (!cfg->power_on_off_enable)
			return TS_POWER_REFUSED_DISABLED;
		if (!ts_power_config_eligible(cfg, node))
			return TS_POWER_REFUSED_INELIGIBLE;
		if (busy)
			return TS_POWER_REFUSED_BUSY;
		return TS_POWER_PENDING;
	case TS_POWER_OP_RAMP_DOWN:
		if (!has_sleep)
			return TS_POWER_REFUSED_UNSUPPORTED;
		if (!cfg->power_ramp_rate_enable)
			return TS_POWER_REFUSED_DISABLED;
		if (busy)
			return TS_POWER_REFUSED_BUSY;
		return TS_POWER_PENDING;
	case TS_POWER_OP_RAMP_UP:
		if (!has_sleep)
			return TS_POWER_REFUSED_UNSUPPORTED;
		return TS_POWER_PENDING;
	case TS_POWER_OP_ON:
	case TS_POWER_OP_NONE:
		break;
	}
	return TS_POWER_PENDING;
}

enum ts_power_op ts_power_planner_suspend_op(const struct ts_power_config *cfg,
					     const char *node, int has_sleep)
{
	if (cfg->power_on_off_enable && ts_power_config_eligible(cfg, node))
		return TS_POWER_OP_OFF;
	if (cfg->power_ramp_rate_enable && has_sleep)
		return TS_POWER_OP_RAMP_DOWN;
	return TS_POWER_OP_OFF;
}

time_t ts_power_planner_stale_after(const struct ts_power_config *cfg)
{
	long per_cmd = cfg->command_timeout * (cfg->command_retries + 1);
	long ramp =
		(long)(cfg->n_levels + 1) * (cfg->sleep_state_pause + per_cmd);
	long power = 2 * per_cmd + cfg->confirm_timeout + cfg->soft_off_timeout;

	return (time_t)(2 * (ramp > power ? ramp : power));
}

size_t ts_power_planner_repair(struct ts_power_state *st,
			       const struct ts_power_env *env, time_t now,
			       time_t stale_after, const struct ts_logger *lg)
{
	size_t i, repaired = 0;

	for (i = 0; i < st->n; i++) {
		struct ts_power_node *nd = &st->node[i];
		int alive, stale;

		if (nd->op == TS_POWER_OP_NONE)
			continue;
		alive = env->owner_alive(env->ctx, nd->owner);
		stale = now - nd->since > stale_after;
		if (alive && !stale)
			continue;
		ts_log(lg, TS_LOG_ERROR,
		       "%s;repaired: %s was left in %s by %s %ld since %lld; claim released%s",
		       ts_power_planner_op_event(nd->op), nd->name,
		       ts_power_state_op_name(nd->op),
		       alive ? "stale claim of pid" : "dead pid", nd->owner,
		       (long long)nd->since,
		       (nd->op == TS_POWER_OP_ON || nd->op == TS_POWER_OP_OFF)
			       ? ", power now unknown"
			       : "");
		if (nd->op == TS_POWER_OP_ON || nd->op == TS_POWER_OP_OFF)
			nd->power = TS_POWER_UNKNOWN;
		nd->op = TS_POWER_OP_NONE;
		nd->owner = 0;
		nd->since = 0;
		repaired++;
	}
	return repaired;
}

time_t ts_power_planner_delay_end(const struct ts_power_config *cfg,
				  const struct ts_power_node *nd)
{
	if (!nd->off_at || nd->power == TS_POWER_ON)
		return 0;
	return nd->off_at + (time_t)cfg->min_node_down_delay;
}

long ts_power_planner_next_limit(const struct ts_power_config *cfg,
				 enum ts_power_op op, long cur)
{
	size_t i;

	if (op == TS_POWER_OP_RAMP_DOWN) {
		for (i = 0; i < cfg->n_levels; i++)
			if (cfg->sleep_state_levels[i] > cur)
				return cfg->sleep_state_levels[i];
		return -1;
	}
	if (op == TS_POWER_OP_RAMP_UP) {
		for (i = cfg->n_levels; i > 0; i--)
			if (cfg->sleep_state_levels[i - 1] < cur)
				return cfg->sleep_state_levels[i - 1];
		return cur > 0 ? 0 : -1;
	}
	return -1;
}

void ts_power_planner_plan_free(struct ts_power_cycle_plan *p)
{
	ts_hostlist_free(&p->ramp_up);
	ts_hostlist_free(&p->ramp_down);
	ts_hostlist_free(&p->power_up);
	p->jobs_analyzed = 0;
}

static int cmp_job(const void *a, const void *b)
{
	const struct ts_power_pending_job *x = *(const void *const *)a;
	const struct ts_power_pending_job *y = *(const void *const *)b;

	if (x->start_time != y->start_time)
		return x->start_time < y->start_time ? -1 : 1;
	return (x->job_id > y->job_id) - (x->job_id < y->job_id);
}

/* Needed nodes: scheduled nodes of the analyzed jobs. */
static int needed_nodes(const struct ts_power_config *cfg,
			const struct ts_power_pending_job *jobs, size_t n_jobs,
			struct ts_hostlist *needed, size_t *analyzed,
			struct ts_error *err)
{
	const struct ts_power_pending_job **v;
	size_t i, n = 0;
	int rc = TS_OK;

	v = malloc((n_jobs ? n_jobs : 1) * sizeof(*v));
	if (!v)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	for (i = 0; i < n_jobs; i++)
		if (jobs[i].start_time > 0 && jobs[i].sched_nodes &&
		    jobs[i].sched_nodes[0])
			v[n++] = &jobs[i];
	qsort(v, n, sizeof(*v), cmp_job);
	if (n > (size_t)cfg->max_jobs_analyze_limit)
		n = (size_t)cfg->max_jobs_analyze_limit;
	for (i = 0; i < n && rc == TS_OK; i++) {
		struct ts_error e = TS_ERROR_INIT;

		if (ts_hostlist_expand(needed, v[i]->sched_nodes, &e) != TS_OK)
			rc = ts_error_set(err, e.code, (long)v[i]->job_id,
					  "job %lu: sched_nodes \"%s\": %s",
					  v[i]->job_id, v[i]->sched_nodes,
					  e.msg);
	}
	*analyzed = n;
	free(v);
	return rc;
}

int ts_power_planner_cycle(const struct ts_power_config *cfg,
			   struct ts_power_state *st,
			   const struct ts_power_slurm_node *nodes,
			   size_t n_nodes,
			   const struct ts_power_pending_job *jobs,
			   size_t n_jobs, time_t now,
			   struct ts_power_cycle_plan *p, struct ts_error *err)
{
	struct ts_hostlist needed = TS_HOSTLIST_INIT;
	long deepest = cfg->sleep_state_levels[cfg->n_levels - 1];
	size_t i;
	int rc;

	memset(p, 0, sizeof(*p));
	rc = needed_nodes(cfg, jobs, n_jobs, &needed, &p->jobs_analyzed, err);
	for (i = 0; i < n_nodes && rc == TS_OK; i++) {
		const struct ts_power_slurm_node *sn = &nodes[i];
		struct ts_power_node *nd;
		long k = ts_power_state_get(st, sn->name, err);
		int need;

		if (k < 0) {
			rc = err ? err->code : TS_ENOMEM;
			break;
		}
		nd = &st->node[k];
		if (sn->busy)
			nd->used = now;
		else if (sn->last_busy > nd->used)
			nd->used = sn->last_busy;
		else if (!nd->used)
			nd->used = now; /* first seen, never busy */

		need = ts_hostlist_find(&needed, sn->name) >= 0;
		if (nd->sleep > 0 && (need || sn->busy) && !sn->powered_down)
			rc = ts_hostlist_add(&p->ramp_up, sn->name, err);
		else if (cfg->power_ramp_rate_enable && sn->idle && !need &&
			 !sn->busy && nd->sleep < deepest &&
			 now - nd->used >= cfg->node_idle_limit)
			rc = ts_hostlist_add(&p->ramp_down, sn->name, err);
		if (rc == TS_OK && cfg->power_on_off_enable && need &&
		    sn->powered_down && !sn->busy)
			rc = ts_hostlist_add(&p->power_up, sn->name, err);
	}
	ts_hostlist_free(&needed);
	if (rc != TS_OK) {
		ts_power_planner_plan_free(p);
		return rc;
	}
	ts_hostlist_uniq(&p->ramp_up);
	ts_hostlist_uniq(&p->ramp_down);
	ts_hostlist_uniq(&p->power_up);
	return TS_OK;
}
