/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_query.h - what node_power asks slurmctld, through libslurm's
 * public API (never by parsing scontrol/squeue output):
 *   - node states, so that an allocated or mixed node is never powered
 *     off (slurm_load_node);
 *   - pending jobs with the scheduler's expected start time and
 *     scheduled nodes, for `cycle` (slurm_load_jobs: start_time and
 *     sched_nodes of job_info_t);
 *   - power-up requests for `cycle` (slurm_update_node with
 *     NODE_STATE_POWER_UP, as "scontrol update state=power_up" does), so
 *     slurmctld itself runs ResumeProgram and its state stays right.
 */
#ifndef NP_SLURM_QUERY_H
#define NP_SLURM_QUERY_H

#include <stddef.h>

#include "error.h"
#include "power/planner.h"

/* A snapshot for `cycle`; names point into memory the snapshot owns. */
struct np_slurm_snapshot {
	struct ts_power_slurm_node *node;
	size_t n_node;
	struct ts_power_pending_job *job;
	size_t n_job;
	void *node_msg, *job_msg; /* libslurm buffers */
};

/* np_slurm_init() - libslurm's slurm_init(), once. */
void np_slurm_init(void);

/*
 * np_slurm_busy() - busy[i] = 1 if slurmctld reports nodes[i] allocated,
 * mixed or completing; unknown[i] = 1 if it does not know the node.
 * RET TS_OK or TS_EIO ("slurm_load_node: Unable to contact slurm
 * controller").
 */
int np_slurm_busy(const char *const *nodes, size_t n, int *busy, int *unknown,
		  struct ts_error *err);

/* np_slurm_snapshot() - every node and every pending job. */
int np_slurm_snapshot(struct np_slurm_snapshot *s, struct ts_error *err);

void np_slurm_snapshot_free(struct np_slurm_snapshot *s);

/* np_slurm_power_up() - ask slurmctld to power up the nodes of expr. */
int np_slurm_power_up(const char *expr, struct ts_error *err);

#endif /* NP_SLURM_QUERY_H */
