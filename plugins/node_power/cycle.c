/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle.c - `node_power cycle`, PP-824's periodic analysis (run by a
 * systemd timer, contrib/systemd/node_power-cycle.timer): snapshot nodes
 * and pending jobs from slurmctld, let ts_power_planner_cycle() decide,
 * then ramp sleep states up or down under the shared limit, and ask
 * slurmctld to power up powered-down nodes that pending jobs are scheduled
 * on (it then runs ResumeProgram, so its node states stay true).  Logs
 * seed 001's
 *   power_ramp_limit: nodes to ramp up: <node_list>
 *   power_ramp_limit: nodes to ramp down: <node_list>
 */
#include <stdlib.h>
#include <time.h>

#include "node_power.h"
#include "power/state_file.h"
#include "slurm_query.h"

static void log_list(struct np_ctx *ctx, const char *what,
		     const struct ts_hostlist *hl)
{
	char *list;

	if (!hl->n)
		return;
	list = ts_hostlist_ranged(hl, NULL);
	np_log(&ctx->log, TS_LOG_INFO, "node_power;power_ramp_limit: %s: %s",
	       what, list ? list : "?");
	free(list);
}

/* Record last_used_time and plan, under the state lock. */
static int plan(struct np_ctx *ctx, const struct np_slurm_snapshot *snap,
		struct ts_power_cycle_plan *p, struct ts_error *err)
{
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	int rc = ts_power_state_file_lock(&s, ctx->cfg.state_file, &st, err);

	if (rc == TS_ECORRUPT) {
		np_log(&ctx->log, TS_LOG_ERROR,
		       "node_power;state file %s is corrupt (%s); moved to %s.corrupt",
		       ctx->cfg.state_file, err->msg, ctx->cfg.state_file);
		ts_error_clear(err);
		rc = ts_power_state_file_quarantine(&s, err);
	}
	if (rc == TS_OK)
		rc = ts_power_planner_cycle(&ctx->cfg, &st, snap->node,
					    snap->n_node, snap->job,
					    snap->n_job, time(NULL), p, err);
	if (rc == TS_OK)
		rc = ts_power_state_file_save(&s, &st, err);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	return rc;
}

int np_cycle(struct np_ctx *ctx)
{
	struct np_slurm_snapshot snap;
	struct ts_power_cycle_plan p = { TS_HOSTLIST_INIT, TS_HOSTLIST_INIT,
					 TS_HOSTLIST_INIT, 0 };
	struct ts_error err = TS_ERROR_INIT;
	int code = NP_EXIT_OK, c;

	if (np_slurm_snapshot(&snap, &err) != TS_OK) {
		np_log(&ctx->log, TS_LOG_ERROR, "node_power;cycle: %s",
		       err.msg);
		return NP_EXIT_FAILED;
	}
	if (plan(ctx, &snap, &p, &err) != TS_OK) {
		np_log(&ctx->log, TS_LOG_ERROR, "node_power;cycle: %s",
		       err.msg);
		np_slurm_snapshot_free(&snap);
		return NP_EXIT_FAILED;
	}
	np_log(&ctx->log, TS_LOG_INFO,
	       "node_power;cycle: %zu nodes, %zu pending jobs, %zu analyzed",
	       snap.n_node, snap.n_job, p.jobs_analyzed);
	log_list(ctx, "nodes to ramp up", &p.ramp_up);
	log_list(ctx, "nodes to ramp down", &p.ramp_down);
	if (p.ramp_up.n) {
		c = np_run(ctx, TS_POWER_OP_RAMP_UP,
			   (const char *const *)p.ramp_up.name, p.ramp_up.n,
			   NULL);
		code = c > code ? c : code;
	}
	if (p.ramp_down.n) {
		c = np_run(ctx, TS_POWER_OP_RAMP_DOWN,
			   (const char *const *)p.ramp_down.name, p.ramp_down.n,
			   NULL);
		code = c == NP_EXIT_FAILED || code == NP_EXIT_OK ? c : code;
	}
	if (p.power_up.n) {
		char *list = ts_hostlist_ranged(&p.power_up, NULL);

		if (list && np_slurm_power_up(list, &err) == TS_OK) {
			np_log(&ctx->log, TS_LOG_INFO,
			       "node_power_on;cycle: asked slurmctld to power up %s, scheduled for pending jobs",
			       list);
		} else {
			np_log(&ctx->log, TS_LOG_ERROR,
			       "node_power_on;cycle: %s", err.msg);
			code = NP_EXIT_FAILED;
		}
		free(list);
	}
	ts_power_planner_plan_free(&p);
	np_slurm_snapshot_free(&snap);
	return code;
}
