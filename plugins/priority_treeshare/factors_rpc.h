/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factors_rpc.h - sprio's request: the priority factors of pending jobs
 * (all jobs with CALCULATE_RUNNING) whose accrual has begun, that are not
 * held, that uid may see (PrivateData=jobs), filtered by the request's
 * job ids, user ids and partitions.  Takes the job read lock.
 */
#ifndef PT_FACTORS_RPC_H
#define PT_FACTORS_RPC_H

#include "slurmctld_api.h"

#include "priority_conf.h"

/* RET a list of priority_factors_object_t, or NULL when none. */
List factors_rpc_list(const struct priority_conf *c,
		      priority_factors_request_msg_t *req, uid_t uid);

#endif /* PT_FACTORS_RPC_H */
