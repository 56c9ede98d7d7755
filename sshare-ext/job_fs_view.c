/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_fs_view.c - sshare-ext --diagnose-p: Maui's "diagnose -p" part for
 * fair share (issue 27): each pending job of the controller, in each of
 * its partitions, with FS(USR:GRP:ACC:QOS:CLS), the deltas of its user,
 * group, account, QOS and class (target minus usage, in percent; 0
 * without a target), Maui's weighted sum, the component (FSWEIGHT x the
 * sum) and the FairShare factor priority/treeshare gives it.  The
 * arithmetic is src/cred_shares.c's, the plugin's own; this file finds
 * the jobs and the ids.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>

#include "plugins/slurm_compat.h"

#include "cred_names.h"
#include "cred_shares.h"
#include "shares_rpc.h"
#include "views.h"

/* ts_cred_id_of: a targets file's names as the plugin resolves them. */
static uint32_t id_of_name(enum ts_cred c, const char *name, void *arg)
{
	if (c == TS_CRED_ACCOUNT || c == TS_CRED_QOS)
		return cred_names_id(arg, c, name);
	return ts_cred_system_id(c, name);
}

/* One line: job in partition part (its class). */
static void pending_job_line(FILE *out, const struct ts_cred_shares *s,
			     const slurm_job_info_t *job, const char *part,
			     const struct cred_names *names, double fs_weight,
			     const double weight[], enum ts_fs_policy policy)
{
	uint32_t ids[TS_CRED_N];
	struct ts_cred_fs fs;
	char cell[128];

	ids[TS_CRED_USER] = job->user_id;
	ids[TS_CRED_GROUP] = job->group_id;
	ids[TS_CRED_ACCOUNT] =
		cred_names_id(names, TS_CRED_ACCOUNT, job->account);
	ids[TS_CRED_QOS] = cred_names_id(names, TS_CRED_QOS, job->qos);
	ids[TS_CRED_CLASS] = ts_cred_class_id(part);
	ts_cred_shares_job(s, ids, weight, fs_weight, policy, &fs);
	snprintf(cell, sizeof(cell), "%.2f:%.2f:%.2f:%.2f:%.2f",
		 fs.delta[TS_CRED_USER], fs.delta[TS_CRED_GROUP],
		 fs.delta[TS_CRED_ACCOUNT], fs.delta[TS_CRED_QOS],
		 fs.delta[TS_CRED_CLASS]);
	fprintf(out, "%-10u %-12s %-38s %12.2f %14.2f %9.6f\n", job->job_id,
		part ? part : "", cell, fs.sum, fs.component, fs.factor);
}

/* Each partition of a pending job's comma-separated list. */
static void pending_job_lines(FILE *out, const struct ts_cred_shares *s,
			      const slurm_job_info_t *job,
			      const struct cred_names *names, double fs_weight,
			      const double weight[], enum ts_fs_policy policy)
{
	char *parts = strdup(job->partition ? job->partition : ""), *save;
	const char *p;

	if (!parts)
		return;
	for (p = strtok_r(parts, ",", &save); p; p = strtok_r(NULL, ",", &save))
		pending_job_line(out, s, job, p, names, fs_weight, weight,
				 policy);
	free(parts);
}

int job_fs_view(FILE *out, const char *state, const struct ts_targets *tg,
		enum ts_fs_policy policy, const struct cred_names *names,
		double fs_weight, const double weight[], uint32_t only_job,
		char *msg, size_t len)
{
	struct ts_cred_shares s = TS_CRED_SHARES_INIT;
	struct ts_error err = TS_ERROR_INIT;
	job_info_msg_t *jobs = NULL;
	struct ts_cred_usage cu;
	char first[1024];
	uint32_t i;

	if (diagnose_usage_load(state, &cu, first, sizeof(first), msg, len))
		return -1;
	if (ts_cred_shares_take(&s, &cu, tg, id_of_name, (void *)names, &err)) {
		snprintf(msg, len, "%s", err.msg);
		ts_cred_usage_free(&cu);
		return -1;
	}
	ts_cred_usage_free(&cu);
	if (slurm_load_jobs((time_t)0, &jobs, SHOW_ALL) != SLURM_SUCCESS) {
		snprintf(msg, len, "cannot get the jobs from slurmctld: %s",
			 slurm_strerror(errno));
		ts_cred_shares_free(&s);
		return -1;
	}
	fprintf(out, "%s\n", first);
	fprintf(out,
		"FSWeight %g, FSUserWeight %g, FSGroupWeight %g, FSAccountWeight %g, FSQOSWeight %g, FSClassWeight %g, FS Policy: %s\n\n",
		fs_weight, weight[TS_CRED_USER], weight[TS_CRED_GROUP],
		weight[TS_CRED_ACCOUNT], weight[TS_CRED_QOS],
		weight[TS_CRED_CLASS],
		policy == TS_FS_POLICY_RATIO ? "ratio" : "difference");
	fprintf(out, "%-10s %-12s %-38s %12s %14s %9s\n", "JobID", "Partition",
		"FS(USR:GRP:ACC:QOS:CLS)", "Sum", "Component", "FairShare");
	for (i = 0; i < jobs->record_count; i++)
		if ((jobs->job_array[i].job_state & JOB_STATE_BASE) ==
			    JOB_PENDING &&
		    (!only_job || jobs->job_array[i].job_id == only_job))
			pending_job_lines(out, &s, &jobs->job_array[i], names,
					  fs_weight, weight, policy);
	slurm_free_job_info_msg(jobs);
	ts_cred_shares_free(&s);
	return 0;
}

int job_fs_view_online(FILE *out, uint32_t only_job, char *msg, size_t len)
{
	struct diagnose_conf d = { 0 };
	struct ts_error err = TS_ERROR_INIT;
	struct cred_names *names;
	struct ts_targets *tg = NULL;
	char note[256] = "";
	int rc;

	if (shares_rpc_diagnose_conf(&d, msg, len))
		return -1;
	names = cred_names_load(d.cluster, note, sizeof(note));
	rc = d.targets ? ts_targets_load(d.targets, NULL, &tg, &err) : 0;
	if (rc)
		snprintf(msg, len, "%s", err.msg);
	else
		rc = job_fs_view(
			out, d.state, tg,
			d.ratio ? TS_FS_POLICY_RATIO : TS_FS_POLICY_DIFFERENCE,
			names, d.fs_weight, d.cred_weight, only_job, msg, len);
	ts_targets_free(tg);
	cred_names_free(names);
	shares_rpc_diagnose_conf_free(&d);
	return rc;
}
