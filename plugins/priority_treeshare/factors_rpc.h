/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factors_rpc.h - sprio's request: the priority factors of pending jobs
 * (all jobs with CALCULATE_RUNNING) whose accrual has begun, that are not
 * held, that uid may see (PrivateData=jobs), filtered by the request's
 * job ids, user ids and partitions.
 */
#ifndef PT_FACTORS_RPC_H
#define PT_FACTORS_RPC_H

#include "slurmctld_api.h"

#include "priority_conf.h"

/*
 * The request's filters (22.05; from 24.05 sprio filters itself and the
 * plugin gets none).  Each NULL: no filter.
 */
struct factors_filter {
	list_t *job_ids;	/* uint32_t job ids */
	list_t *uids;		/* uint32_t user ids */
	const char *partitions; /* "p1,p2" */
};

/*
 * factors_rpc_list() - the rows uid may see.  take_locks: take the job,
 * node and partition read locks here (22.05); from 24.05 the caller
 * holds them.  RET a list of priority_factors_object_t, or NULL when none.
 */
list_t *factors_rpc_list(const struct priority_conf *c,
			 const struct factors_filter *filter, uid_t uid,
			 bool take_locks);

#endif /* PT_FACTORS_RPC_H */
