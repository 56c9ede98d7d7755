/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmctld_api.h - the Slurm headers the plugin is built against, and the
 * symbols only slurmctld defines, declared weak.
 *
 * Debian's sshare loads the configured priority plugin in the client to
 * compute FairShare (priority_g_calc_fs_factor()).  sshare has none of
 * slurmctld's symbols; declared weak they resolve to NULL there instead
 * of failing the load, and ctld_present() tells the two cases apart.
 * Everything else the plugin calls is in libslurmfull, which slurmctld,
 * sshare and the parity harness all link.  Which symbols those are
 * depends on the release (24.11: the QOS used-limit lookups and
 * part_list_to_xstr() are slurmctld's; lock_state_files() has moved to
 * libslurmfull); a name the release does not have stays unreferenced.
 */
#ifndef PT_SLURMCTLD_API_H
#define PT_SLURMCTLD_API_H

#include "config.h"

#include <stdbool.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

/* What differs by Slurm release (priority, site factor, mcs headers too) */
#define TS_COMPAT_CTLD
#include "plugins/slurm_compat.h"

#pragma weak acct_db_conn
#pragma weak accounting_enforce
#pragma weak calc_job_billable_tres
#pragma weak cluster_cpus
#pragma weak find_job_record
#pragma weak find_part_record
#pragma weak job_list
#pragma weak last_job_update
#pragma weak last_part_update
#pragma weak part_list
#pragma weak lock_slurmctld
#pragma weak lock_state_files
#pragma weak queue_job_scheduler
#pragma weak slurmctld_tres_cnt
#pragma weak unlock_slurmctld
#pragma weak unlock_state_files
#pragma weak validate_operator
#if TS_CTLD_CALLS_2311
#pragma weak acct_policy_get_acct_used_limits
#pragma weak acct_policy_get_user_used_limits
#pragma weak part_list_to_xstr
#endif

/*
 * ctld_present() - true inside slurmctld (or a harness standing in for
 * it), false in a client such as sshare.  Like priority/multifactor, a
 * cluster_cpus of NO_VAL also means "not the controller".
 */
static inline bool ctld_present(void)
{
	return &cluster_cpus && &job_list && &lock_slurmctld &&
	       &unlock_slurmctld && cluster_cpus != NO_VAL;
}

#endif /* PT_SLURMCTLD_API_H */
