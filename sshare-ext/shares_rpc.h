/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shares_rpc.h - online: the controller's own answer to sshare's request
 * (REQUEST_SHARE_INFO, assoc_mgr_get_shares()), so any priority plugin
 * and PrivateData=usage behave exactly as for sshare.  The request is
 * sshare's: the -u users (default: the caller; none with -a) and the -A
 * accounts.  The FairShare rule and FairShareDampeningFactor come from
 * the controller's configuration (slurm_load_ctl_conf()).
 *
 * With need_tree, a second request for every association builds the
 * tree the extended columns, -g and --tree use (skipped when the first
 * already asked for everything).  Under PrivateData=usage a user sees
 * only part of the tree; rows outside it get blank extended cells.
 */
#ifndef SSHARE_EXT_SHARES_RPC_H
#define SSHARE_EXT_SHARES_RPC_H

#include <stddef.h>

#include "cli.h"
#include "credential.h"
#include "share_set.h"

/*
 * shares_rpc_setup() - before any libslurm call: a readable Slurm
 * configuration (else -1 with msg), and libslurm's log quiet unless
 * verbose.  shares_rpc_load() calls it.
 */
int shares_rpc_setup(int verbose, char *msg, size_t len);

/*
 * shares_rpc_load() - RET 0; 1 when the controller answered with no
 * list (sshare prints nothing then); -1 with msg on error.
 */
int shares_rpc_load(struct share_set *s, const struct cli *c, int need_tree,
		    char *msg, size_t len);

/* What --diagnose-f online reads of the controller's configuration. */
struct diagnose_conf {
	char *state;	  /* StateSaveLocation/treeshare_state */
	char *targets;	  /* PriorityParameters' fs_targets=, or NULL */
	int ratio;	  /* its fs_policy=ratio */
	char *cluster;	  /* ClusterName */
	double fs_weight; /* fs_weight= (FSWEIGHT) */
	double cred_weight[TS_CRED_N]; /* fs_user_weight= .. */
};

/*
 * shares_rpc_diagnose_conf() - *d from slurmctld's configuration
 * (slurm_load_ctl_conf(); shares_rpc_setup() first).  RET 0, or -1 with
 * msg (PriorityParameters that do not parse are named).  Free with
 * shares_rpc_diagnose_conf_free().
 */
int shares_rpc_diagnose_conf(struct diagnose_conf *d, char *msg, size_t len);
void shares_rpc_diagnose_conf_free(struct diagnose_conf *d);

#endif /* SSHARE_EXT_SHARES_RPC_H */
