/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_query.c - node states, pending jobs and power-up requests through
 * libslurm (slurm_query.h).  Slurm 22.05 node states: the base state
 * (node_state & NODE_STATE_BASE) is IDLE, ALLOCATED, MIXED, DOWN, ...;
 * power saving adds flags POWERED_DOWN ("~"), POWERING_DOWN ("%"),
 * POWERING_UP ("#"), and COMPLETING marks a node still ending a job.
 * 24.11 keeps these flags and values, and the fields read here.  Failed
 * calls leave their error in errno (22.05's slurm_get_errno() only
 * returned errno; 24.11 no longer exports it).
 */
#include <errno.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_query.h"

void np_slurm_init(void)
{
	static int done;

	if (!done)
		slurm_init(NULL);
	done = 1;
}

static int busy_state(uint32_t st)
{
	uint32_t base = st & NODE_STATE_BASE;

	return base == NODE_STATE_ALLOCATED || base == NODE_STATE_MIXED ||
	       (st & NODE_STATE_COMPLETING);
}

static int load_nodes(node_info_msg_t **msg, struct ts_error *err)
{
	np_slurm_init();
	if (slurm_load_node((time_t)0, msg, SHOW_ALL) != SLURM_SUCCESS)
		return ts_error_set(err, TS_EIO, -1, "slurm_load_node: %s",
				    slurm_strerror(errno));
	return TS_OK;
}

int np_slurm_busy(const char *const *nodes, size_t n, int *busy, int *unknown,
		  struct ts_error *err)
{
	node_info_msg_t *msg = NULL;
	size_t i;
	uint32_t j;
	int rc = load_nodes(&msg, err);

	if (rc != TS_OK)
		return rc;
	for (i = 0; i < n; i++) {
		busy[i] = 0;
		unknown[i] = 1;
		for (j = 0; j < msg->record_count; j++) {
			node_info_t *ni = &msg->node_array[j];

			if (!ni->name || strcmp(ni->name, nodes[i]))
				continue;
			busy[i] = busy_state(ni->node_state);
			unknown[i] = 0;
			break;
		}
	}
	slurm_free_node_info_msg(msg);
	return TS_OK;
}

int np_slurm_snapshot(struct np_slurm_snapshot *s, struct ts_error *err)
{
	node_info_msg_t *nodes = NULL;
	job_info_msg_t *jobs = NULL;
	uint32_t i;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = load_nodes(&nodes, err);
	if (rc != TS_OK)
		return rc;
	s->node_msg = nodes;
	if (slurm_load_jobs((time_t)0, &jobs, SHOW_ALL) != SLURM_SUCCESS) {
		rc = ts_error_set(err, TS_EIO, -1, "slurm_load_jobs: %s",
				  slurm_strerror(errno));
		np_slurm_snapshot_free(s);
		return rc;
	}
	s->job_msg = jobs;
	s->node = calloc(nodes->record_count + 1, sizeof(*s->node));
	s->job = calloc(jobs->record_count + 1, sizeof(*s->job));
	if (!s->node || !s->job) {
		np_slurm_snapshot_free(s);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	for (i = 0; i < nodes->record_count; i++) {
		node_info_t *ni = &nodes->node_array[i];
		struct ts_power_slurm_node *sn = &s->node[s->n_node];
		uint32_t st = ni->node_state;
		uint32_t power = NODE_STATE_POWERED_DOWN |
				 NODE_STATE_POWERING_DOWN |
				 NODE_STATE_POWERING_UP;

		if (!ni->name)
			continue;
		sn->name = ni->name;
		sn->busy = busy_state(st);
		sn->powered_down = !!(st & (NODE_STATE_POWERED_DOWN |
					    NODE_STATE_POWERING_DOWN));
		sn->idle = (st & NODE_STATE_BASE) == NODE_STATE_IDLE &&
			   !(st & power) && !(st & NODE_STATE_NO_RESPOND);
		sn->last_busy = ni->last_busy;
		s->n_node++;
	}
	for (i = 0; i < jobs->record_count; i++) {
		slurm_job_info_t *ji = &jobs->job_array[i];
		struct ts_power_pending_job *pj = &s->job[s->n_job];

		if ((ji->job_state & JOB_STATE_BASE) != JOB_PENDING)
			continue;
		pj->job_id = ji->job_id;
		pj->start_time = ji->start_time;
		pj->sched_nodes = ji->sched_nodes;
		s->n_job++;
	}
	return TS_OK;
}

void np_slurm_snapshot_free(struct np_slurm_snapshot *s)
{
	if (s->node_msg)
		slurm_free_node_info_msg(s->node_msg);
	if (s->job_msg)
		slurm_free_job_info_msg(s->job_msg);
	free(s->node);
	free(s->job);
	memset(s, 0, sizeof(*s));
}

int np_slurm_power_up(const char *expr, struct ts_error *err)
{
	update_node_msg_t msg;

	np_slurm_init();
	slurm_init_update_node_msg(&msg);
	msg.node_names = (char *)expr;
	msg.node_state = NODE_STATE_POWER_UP;
	if (slurm_update_node(&msg) != SLURM_SUCCESS)
		return ts_error_set(err, TS_EIO, -1,
				    "slurm_update_node(%s, power_up): %s", expr,
				    slurm_strerror(errno));
	return TS_OK;
}
