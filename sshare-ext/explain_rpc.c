/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_rpc.c - what --explain reads from slurmctld (explain.h): the
 * job as squeue gets it, its rows as sprio gets them, the weights from
 * the configuration.  Release differences: plugins/slurm_compat.h.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>

#include "plugins/slurm_compat.h"

#include "explain_rpc.h"
#include "settings.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Any formula name is a variable here: slurmctld checked them. */
static long any_name(void *arg, const char *name, size_t len)
{
	(void)arg;
	return name && len ? 0 : -1;
}

/* The algorithm slurmctld runs: fairshare= else PriorityFlags. */
static enum ts_fs_algo conf_algo(const slurm_conf_t *conf,
				 const struct ts_settings *set)
{
	if (set && (set->given & TS_SET_FAIRSHARE))
		return set->fairshare;
	if (conf->priority_flags & PRIORITY_FLAGS_FAIR_TREE)
		return TS_FS_FAIR_TREE;
	if (conf->priority_flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS)
		return TS_FS_DEPTH_OBLIVIOUS;
	return TS_FS_CLASSIC;
}

int explain_conf_load(struct explain_conf *c, char *msg, size_t len)
{
	struct ts_formula_vars vars = { .resolve = any_name };
	struct ts_error err = TS_ERROR_INIT;
	struct ts_settings set;
	slurm_conf_t *conf = NULL;
	int ours, k;

	memset(c, 0, sizeof(*c));
	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS) {
		snprintf(msg, len,
			 "cannot get the configuration from slurmctld: %s",
			 slurm_strerror(errno));
		return -1;
	}
	ours = conf->priority_type &&
	       strstr(conf->priority_type, "priority/treeshare") != NULL;
	c->treeshare = ours;
	c->w_age = conf->priority_weight_age;
	c->w_assoc = conf->priority_weight_assoc;
	c->w_fs = conf->priority_weight_fs;
	c->w_js = conf->priority_weight_js;
	c->w_part = conf->priority_weight_part;
	c->w_qos = conf->priority_weight_qos;
	c->max_age = conf->priority_max_age;
	c->half_life = conf->priority_decay_hl;
	c->calc_period = conf->priority_calc_period;
	c->damp = conf->fs_dampening_factor ? conf->fs_dampening_factor : 1;
	c->private_usage = (conf->private_data & PRIVATE_DATA_USAGE) != 0;
	if (ours && !ts_settings_parse(conf->priority_params, &vars, NULL, &set,
				       &err)) {
		c->algo = conf_algo(conf, &set);
		c->formula = dup_or_null(set.formula_text);
		for (k = 0; k < TS_CRED_N; k++)
			if (set.cred_weight[k])
				c->cred_fs = 1;
		if (set.usage_window &&
		    asprintf(&c->usage_window, "usage_window=%us",
			     set.usage_window) < 0)
			c->usage_window = NULL;
		ts_settings_free(&set);
	} else {
		c->algo = conf_algo(conf, NULL);
	}
	ts_free_ctl_conf(conf);
	return 0;
}

void explain_conf_free(struct explain_conf *c)
{
	free(c->formula);
	free(c->usage_window);
	memset(c, 0, sizeof(*c));
}

/* Row k's copy of a sprio row's factors. */
static int copy_factors(struct explain_row *r, const ts_client_factors_t *pf)
{
	uint32_t i;

	r->f.age = pf->priority_age;
	r->f.assoc = pf->priority_assoc;
	r->f.fs = pf->priority_fs;
	r->f.js = pf->priority_js;
	r->f.part = pf->priority_part;
	r->f.qos = pf->priority_qos;
	r->f.site = pf->priority_site;
	r->f.nice = pf->nice;
	r->tres_cnt = pf->priority_tres ? pf->tres_cnt : 0;
	if (!r->tres_cnt)
		return 0;
	r->tres = calloc(r->tres_cnt, sizeof(*r->tres));
	r->tres_weights = calloc(r->tres_cnt, sizeof(*r->tres_weights));
	r->tres_names = calloc(r->tres_cnt, sizeof(*r->tres_names));
	if (!r->tres || !r->tres_weights || !r->tres_names)
		return -1;
	for (i = 0; i < r->tres_cnt; i++) {
		r->tres[i] = pf->priority_tres[i];
		if (pf->tres_weights)
			r->tres_weights[i] = pf->tres_weights[i];
		if (pf->tres_names && pf->tres_names[i] &&
		    !(r->tres_names[i] = strdup(pf->tres_names[i])))
			return -1;
	}
	r->f.tres = r->tres;
	return 0;
}

/* The job's rows of sprio's answer, in its order. */
static int load_rows(struct explain_job *j, char *msg, size_t len)
{
	priority_factors_response_msg_t *resp = NULL;
	priority_factors_object_t *o;
	list_itr_t *it;
	int rc = 0;

	if (ts_client_load_job_prio(&resp) != SLURM_SUCCESS) {
		snprintf(msg, len,
			 "cannot get the priority factors from slurmctld: %s",
			 slurm_strerror(errno));
		return -1;
	}
	if (!resp || !resp->priority_factors_list)
		goto out;
	it = slurm_list_iterator_create(resp->priority_factors_list);
	while ((o = slurm_list_next(it))) {
		const ts_client_factors_t *pf = ts_client_row_factors(o);
		struct explain_row *r, *tmp;

		if (ts_client_row_job_id(o) != j->id)
			continue;
		tmp = realloc(j->rows, (j->n_rows + 1) * sizeof(*tmp));
		if (!tmp) {
			rc = -1;
			break;
		}
		j->rows = tmp;
		r = &j->rows[j->n_rows++];
		memset(r, 0, sizeof(*r));
		r->held_by = -1;
		r->partition = dup_or_null(o->partition);
		r->qos = dup_or_null(ts_client_row_qos(o));
		r->direct_prio = o->direct_prio;
		r->direct = o->direct_prio > 0;
		if (pf && copy_factors(r, pf)) {
			rc = -1;
			break;
		}
	}
	slurm_list_iterator_destroy(it);
	if (rc)
		snprintf(msg, len, "out of memory");
out:
	if (resp)
		slurm_free_priority_factors_response_msg(resp);
	return rc;
}

/*
 * The integer each row's priority is in slurmctld: the job's own with
 * one row; with several, the partition's entry of priority_array (24.11
 * on), summed partition term first; unknown before.
 */
static void link_priorities(struct explain_job *j, const slurm_job_info_t *ji)
{
	size_t k;

	if (j->n_rows == 1) {
		j->rows[0].held_by = ji->priority;
		return;
	}
	for (k = 0; k < j->n_rows; k++)
		j->rows[k].part_first = 1;
#if TS_CLIENT_PRIORITY_ARRAY
	if (ji->priority_array && ji->priority_array_names) {
		char *names = strdup(ji->priority_array_names), *save, *p;
		size_t i = 0;

		for (p = names ? strtok_r(names, ",", &save) : NULL; p;
		     p = strtok_r(NULL, ",", &save), i++)
			for (k = 0; k < j->n_rows; k++)
				if (j->rows[k].partition &&
				    !strcmp(j->rows[k].partition, p))
					j->rows[k].held_by =
						ji->priority_array[i];
		free(names);
	}
#endif
}

int explain_job_load(uint32_t id, struct explain_job *j, char *msg, size_t len)
{
	job_info_msg_t *jobs = NULL;
	const slurm_job_info_t *ji;

	memset(j, 0, sizeof(*j));
	j->id = id;
	if (ts_client_load_job(&jobs, id) != SLURM_SUCCESS || !jobs ||
	    !jobs->record_count) {
		snprintf(msg, len, "job %u: %s", id,
			 errno ? slurm_strerror(errno) : "not found");
		if (jobs)
			slurm_free_job_info_msg(jobs);
		return -1;
	}
	ji = &jobs->job_array[0];
	j->uid = ji->user_id;
	j->assoc_id = ji->assoc_id;
	j->user = dup_or_null(ji->user_name);
	j->account = dup_or_null(ji->account);
	j->partition = dup_or_null(ji->partition);
	j->qos = dup_or_null(ji->qos);
	j->state = dup_or_null(ts_client_state_string(ji->job_state));
	j->reason = dup_or_null(
		ji->state_desc ? ji->state_desc
			       : ts_client_reason_string(ji->state_reason));
	j->pending = (ji->job_state & JOB_STATE_BASE) == JOB_PENDING;
	j->priority = ji->priority;
	j->submit = ji->submit_time;
	j->accrue = ji->accrue_time;
	if (load_rows(j, msg, len)) {
		slurm_free_job_info_msg(jobs);
		explain_job_free(j);
		return -1;
	}
	link_priorities(j, ji);
	slurm_free_job_info_msg(jobs);
	return 0;
}

void explain_job_free(struct explain_job *j)
{
	size_t k;
	uint32_t i;

	for (k = 0; k < j->n_rows; k++) {
		struct explain_row *r = &j->rows[k];

		for (i = 0; r->tres_names && i < r->tres_cnt; i++)
			free(r->tres_names[i]);
		free(r->tres_names);
		free(r->tres);
		free(r->tres_weights);
		free(r->partition);
		free(r->qos);
	}
	free(j->rows);
	free(j->user);
	free(j->account);
	free(j->partition);
	free(j->qos);
	free(j->state);
	free(j->reason);
	memset(j, 0, sizeof(*j));
}
