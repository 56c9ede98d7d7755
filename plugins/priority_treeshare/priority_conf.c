/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf.c - reading slurm.conf's priority keys (see
 * priority_conf.h) and keeping the configuration in force.
 */
#include "slurmctld_api.h"

#include <stdio.h>
#include <pthread.h>
#include <string.h>

#include "priority_conf.h"
#include "src/file_trust.h"

#include "consumed_usage.h"
#include "error_once.h"
#include "src/usage_charge.h"

/*
 * current: the configuration in force; its ->older chain holds every
 * earlier one.  Written under conf_mutex (installs are rare), read with
 * one atomic acquire load (conf_get() is on every priority_p_set()).  A
 * conf is complete before the release store that publishes it, and never
 * changes or goes away before fini, so a reader needs nothing more.
 */
static pthread_mutex_t conf_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct priority_conf *current;

double conf_decay_factor(uint32_t hl)
{
	return ts_decay_per_second(hl);
}

static unsigned prio_flags(const struct priority_conf *c)
{
	unsigned f = 0;

	if (c->flags & PRIORITY_FLAGS_SIZE_RELATIVE)
		f |= TS_PRIO_SIZE_RELATIVE;
	if (c->favor_small)
		f |= TS_PRIO_FAVOR_SMALL;
	if (c->flags & PRIORITY_FLAGS_NO_NORMAL_ASSOC)
		f |= TS_PRIO_NO_NORMAL_ASSOC;
	if (c->flags & PRIORITY_FLAGS_NO_NORMAL_PART)
		f |= TS_PRIO_NO_NORMAL_PART;
	if (c->flags & PRIORITY_FLAGS_NO_NORMAL_QOS)
		f |= TS_PRIO_NO_NORMAL_QOS;
	if (c->flags & PRIORITY_FLAGS_NO_NORMAL_TRES)
		f |= TS_PRIO_NO_NORMAL_TRES;
	if (c->flags & PRIORITY_FLAGS_INCR_ONLY)
		f |= TS_PRIO_INCR_ONLY;
	return f;
}

/* Formula faults (issue 5) reach slurmctld's log through this. */
static void log_to_slurm(void *arg, enum ts_log_level level, const char *msg)
{
	(void)arg;
	if (level == TS_LOG_ERROR)
		error("%s: %s", plugin_type, msg);
	else if (level == TS_LOG_INFO)
		info("%s: %s", plugin_type, msg);
	else
		log_flag(PRIO, "%s: %s", plugin_type, msg);
}

static const struct ts_logger slurm_logger = { .fn = log_to_slurm };

static const char *const fixed_vars[] = {
	[CONF_VAR_AGE] = "age",
	[CONF_VAR_ASSOC] = "assoc",
	[CONF_VAR_FAIRSHARE] = "fairshare",
	[CONF_VAR_JOBSIZE] = "jobsize",
	[CONF_VAR_PARTITION] = "partition",
	[CONF_VAR_QOS] = "qos",
	[CONF_VAR_SITE] = "site",
	[CONF_VAR_NICE] = "nice",
	[CONF_VAR_PBS_TREE_USAGE] = "fairshare_tree_usage",
	[CONF_VAR_PBS_PERC] = "fairshare_perc",
	[CONF_VAR_PBS_FACTOR] = "fairshare_factor",
	[CONF_VAR_MAUI_FS] = "maui_fs",
	[CONF_VAR_FS_USER_DELTA] = "fs_user_delta",
	[CONF_VAR_FS_GROUP_DELTA] = "fs_group_delta",
	[CONF_VAR_FS_ACCOUNT_DELTA] = "fs_account_delta",
	[CONF_VAR_FS_QOS_DELTA] = "fs_qos_delta",
	[CONF_VAR_FS_CLASS_DELTA] = "fs_class_delta",
};

_Static_assert(CONF_VAR_FS_USER_DELTA + TS_CRED_CLASS ==
		       CONF_VAR_FS_CLASS_DELTA,
	       "the delta variables follow enum ts_cred");

int conf_tres_var_name(const char *tres, char *buf, size_t size)
{
	int len = snprintf(buf, size, "tres_%s", tres ? tres : "");
	size_t i;

	for (i = 5; i < size && buf[i]; i++) {
		char ch = buf[i];

		if (ch >= 'A' && ch <= 'Z')
			buf[i] = (char)(ch - 'A' + 'a');
		else if (!(ch >= 'a' && ch <= 'z') && !(ch >= '0' && ch <= '9'))
			buf[i] = '_';
	}
	return len;
}

/*
 * formula='s resolver: the names of enum conf_var, then tres_<name> for
 * the TRES slurmctld knows.  A client (sshare) never evaluates the
 * formula and has no TRES list: any tres_ name is accepted there.
 */
static long resolve_var(void *arg, const char *name, size_t len)
{
	assoc_mgr_lock_t locks = { .tres = READ_LOCK };
	bool in_ctld = *(const bool *)arg;
	char spelt[256];
	long found = -1;
	size_t i;

	for (i = 0; i < sizeof(fixed_vars) / sizeof(fixed_vars[0]); i++)
		if (strlen(fixed_vars[i]) == len &&
		    !memcmp(fixed_vars[i], name, len))
			return (long)i;
	if (len <= 5 || memcmp(name, "tres_", 5))
		return -1;
	if (!in_ctld)
		return CONF_VAR_TRES;
	assoc_mgr_lock(&locks);
	for (i = 0; assoc_mgr_tres_name_array && i < (size_t)g_tres_count;
	     i++) {
		conf_tres_var_name(assoc_mgr_tres_name_array[i], spelt,
				   sizeof(spelt));
		if (strlen(spelt) == len && !memcmp(spelt, name, len)) {
			found = CONF_VAR_TRES + (long)i;
			break;
		}
	}
	assoc_mgr_unlock(&locks);
	return found;
}

/*
 * PriorityParameters, through src/settings.c (which names the key, the
 * value and the column of any error, a formula's column included), then
 * checked against PriorityFlags.  Its keys are treeshare's own (issue 5).
 * RET 0, or -1 with *msg (xfree it) saying why, in one line.
 */
static int read_params(struct priority_conf *c, bool in_ctld, char **msg)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_formula_vars vars = { .resolve = resolve_var,
					.arg = &in_ctld };
	bool ft = c->flags & PRIORITY_FLAGS_FAIR_TREE;
	bool dob = c->flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS;
	int len;

	if (ts_settings_parse(c->params, &vars, &slurm_logger, &c->settings,
			      &err) ||
	    ts_settings_check_flags(&c->settings, ft, dob, &err)) {
		*msg = xstrdup(err.msg);
		ts_settings_free(&c->settings);
		return -1;
	}
	if (c->settings.consumed && consumed_usage_gather_none()) {
		/* clang-format off */
		*msg = xstrdup("usage_metric=consumed needs JobAcctGatherType=jobacct_gather/linux or jobacct_gather/cgroup: with jobacct_gather/none no step's CPU time is recorded");
		/* clang-format on */
		ts_settings_free(&c->settings);
		return -1;
	}
	c->fs.algo = ts_settings_algo(&c->settings, ft, dob);
	c->windows = c->settings.given & TS_SET_USAGE_WINDOW;
	c->fs_policy = c->settings.fs_ratio ? TS_FS_POLICY_RATIO
					    : TS_FS_POLICY_DIFFERENCE;
	c->formula = c->settings.formula;
	len = ts_settings_render(&c->settings, NULL, 0);
	c->active = xmalloc(len + 1);
	ts_settings_render(&c->settings, c->active, len + 1);
	return 0;
}

/* user@*, group, qos and class entries of tg (NULL: none). */
static size_t cred_entries(const struct ts_targets *tg)
{
	return tg ? ts_targets_cred_count(tg, TS_CRED_USER) +
			       ts_targets_cred_count(tg, TS_CRED_GROUP) +
			       ts_targets_cred_count(tg, TS_CRED_QOS) +
			       ts_targets_cred_count(tg, TS_CRED_CLASS)
		  : 0;
}

/*
 * fs_targets=: a fresh copy of the file, read only if root or SlurmUser
 * owns it (and every link to it) and no one else may write it
 * (file_trust.h).  At reconfigure a file that is refused, cannot be read
 * or parsed keeps old's targets (logged); at start it is an error.
 * RET 0, or -1 with *msg (xfree it) saying why.
 */
static int read_targets(struct priority_conf *c,
			const struct priority_conf *old, char **msg)
{
	struct ts_error err = TS_ERROR_INIT;
	const char *path = c->settings.fs_targets;
	struct ts_trust trust = {
		.slurm_uid = (unsigned)slurm_conf.slurm_user_id,
		.slurm_user = slurm_conf.slurm_user_name
				      ? slurm_conf.slurm_user_name
				      : "root",
	};

	if (!path)
		return 0;
	if (!ts_targets_load(path, &trust, &c->targets, &err)) {
		size_t cred = cred_entries(c->targets);

		c->targets_owned = true;
		log_flag(PRIO, "%s: fs_targets %s: %zu targets", plugin_type,
			 path, ts_targets_count(c->targets));
		/* their targets count through fs_*_weight (cred_table.h) */
		if (cred)
			info("%s: fs_targets %s: %zu user@*, group, qos and class entries",
			     plugin_type, path, cred);
		return 0;
	}
	if (!old) {
		*msg = xstrdup_printf("fs_targets %s: %s", path, err.msg);
		return -1;
	}
	/* clang-format off */
	error("%s: fs_targets %s: %s; %s", plugin_type, path, err.msg,
	      old->targets ? "previous targets kept" : "no targets in force");
	/* clang-format on */
	c->targets = old->targets;
	c->targets_owned = false;
	return 0;
}

/* formula=: every factor computed; the TRES ones need a weight array. */
static void formula_factors(struct priority_conf *c)
{
	struct ts_prio_config *f = &c->factors;
	size_t i;

	*f = c->prio;
	if (!c->formula)
		return;
	f->w_age = f->w_age ? f->w_age : 1;
	f->w_assoc = f->w_assoc ? f->w_assoc : 1;
	f->w_fs = f->w_fs ? f->w_fs : 1;
	f->w_js = f->w_js ? f->w_js : 1;
	f->w_part = f->w_part ? f->w_part : 1;
	f->w_qos = f->w_qos ? f->w_qos : 1;
	f->w_tres = NULL;
	f->tres_on = NULL; /* a formula reads every TRES factor */
	f->n_tres_on = 0;
	if (f->tres_cnt) {
		c->tres_ones = xcalloc(f->tres_cnt, sizeof(double));
		for (i = 0; i < f->tres_cnt; i++)
			c->tres_ones[i] = 1.0;
		f->w_tres = c->tres_ones;
	}
}

/*
 * A refused PriorityParameters: the reason (key and column first) must
 * reach the log whole, so a long value is quoted by its first characters
 * and its length.
 */
static void report_once(const char *params, const char *msg,
			const char *outcome)
{
	const int quote = 80;
	size_t len = params ? strlen(params) : 0;
	char *line;

	if (len <= (size_t)quote)
		line = xstrdup_printf("PriorityParameters=%s: %s; %s",
				      params ? params : "", msg, outcome);
	else
		line = xstrdup_printf(
			"PriorityParameters=%.*s... (%zu characters): %s; %s",
			quote, params, len, msg, outcome);
	error_once(line);
	xfree(line);
}

void conf_discard(struct priority_conf *c)
{
	if (!c)
		return;
	if (c->targets_owned)
		ts_targets_free(c->targets);
	ts_settings_free(&c->settings);
	xfree(c->active);
	xfree(c->tres_ones);
	xfree(c->tres_on);
	xfree(c->w_tres);
	xfree(c->params);
	xfree(c);
}

/*
 * Maui's weights as the per-job arithmetic takes them, and whether they
 * decide FairShare: as Maui, "the fairshare mechanism will be enabled
 * but have no effect" while every FS<TYPE>WEIGHT is 0.
 */
static void cred_weights(struct priority_conf *c)
{
	int k;

	c->fs_weight = (double)c->settings.fs_weight;
	c->cred_fs = false;
	for (k = 0; k < TS_CRED_N; k++) {
		c->cred_weight[k] = (double)c->settings.cred_weight[k];
		if (c->cred_usage && c->settings.cred_weight[k])
			c->cred_fs = true;
	}
}

void conf_no_fair_share(struct priority_conf *c)
{
	c->calc_fairshare = false;
	c->prio.w_age = 0;
	c->prio.w_fs = 0;
	c->factors.w_age = 0;
	c->factors.w_fs = 0;
	c->need_fs = false;
}

struct priority_conf *conf_build(const struct priority_conf *old, bool in_ctld,
				 const char *outcome)
{
	struct priority_conf *c = xmalloc(sizeof(*c));
	char *msg = NULL;

	c->calc_fairshare = old ? old->calc_fairshare : true;
	c->flags = slurm_conf.priority_flags;
	c->favor_small = slurm_conf.priority_favor_small;
	c->damp = slurm_conf.fs_dampening_factor;
	c->decay_hl = slurm_conf.priority_decay_hl;
	c->decay_factor = conf_decay_factor(c->decay_hl);
	c->calc_period = slurm_conf.priority_calc_period;
	c->reset_period = slurm_conf.priority_reset_period;
	c->fs.damp = c->damp;
	c->params = xstrdup(slurm_conf.priority_params);
	c->site_factor_none =
		!slurm_conf.site_factor_plugin ||
		!xstrcmp(slurm_conf.site_factor_plugin, "site_factor/none");

	if (read_params(c, in_ctld, &msg)) {
		if (in_ctld) {
			report_once(c->params, msg, outcome);
			xfree(msg);
			conf_discard(c);
			return NULL;
		}
		/* A client follows PriorityFlags alone, as multifactor. */
		c->fs.algo = ts_settings_algo(
			&c->settings, c->flags & PRIORITY_FLAGS_FAIR_TREE,
			c->flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS);
		c->active = xstrdup("");
		debug("%s: PriorityParameters ignored in a client: %s",
		      plugin_type, msg);
		xfree(msg);
	}
	if (!in_ctld)
		return c;
	if (read_targets(c, old, &msg)) {
		report_once(c->params, msg, outcome);
		xfree(msg);
		conf_discard(c);
		return NULL;
	}
	if (c->settings.given & (TS_SET_FS_WEIGHT | TS_SET_FS_CRED_WEIGHT))
		c->cred_usage = true;
	if (cred_entries(c->targets) || c->settings.fs_import)
		c->cred_usage = true;

	cred_weights(c);

	c->prio.w_age = slurm_conf.priority_weight_age;
	c->prio.w_assoc = slurm_conf.priority_weight_assoc;
	c->prio.w_fs = slurm_conf.priority_weight_fs;
	c->prio.w_js = slurm_conf.priority_weight_js;
	c->prio.w_part = slurm_conf.priority_weight_part;
	c->prio.w_qos = slurm_conf.priority_weight_qos;
	c->prio.max_age = slurm_conf.priority_max_age;
	c->prio.flags = prio_flags(c);
	c->prio.tres_cnt = slurmctld_tres_cnt > 0 ? slurmctld_tres_cnt : 0;
	if (slurm_conf.priority_weight_tres &&
	    *slurm_conf.priority_weight_tres && c->prio.tres_cnt) {
		c->w_tres = slurm_get_tres_weight_array(
			slurm_conf.priority_weight_tres, c->prio.tres_cnt,
			false);
		if (!c->w_tres) {
			/* Slurm logged which item; say what it costs. */
			error("%s: PriorityWeightTRES: cannot use '%s': %s",
			      plugin_type, slurm_conf.priority_weight_tres,
			      outcome);
			conf_discard(c);
			return NULL;
		}
		c->tres_on = xcalloc(c->prio.tres_cnt, sizeof(*c->tres_on));
		c->prio.n_tres_on = ts_prio_tres_select(
			c->w_tres, c->prio.tres_cnt, c->tres_on);
		c->prio.tres_on = c->tres_on;
	}
	c->prio.w_tres = c->w_tres;
	formula_factors(c);
	c->need_fs = c->prio.w_fs || c->formula;
	if (old && !old->calc_fairshare)
		conf_no_fair_share(c);
	if (c->settings.consumed)
		c->consumed_since = old && old->consumed_since
					    ? old->consumed_since
					    : time(NULL);

	/* clang-format off */
	log_flag(PRIO,
		 "%s: weights age %.0f assoc %.0f fairshare %.0f jobsize %.0f partition %.0f qos %.0f; max age %u s; flags 0x%x; dampening %u; half-life %u s; period %u s",
		 plugin_type, c->prio.w_age, c->prio.w_assoc, c->prio.w_fs,
		 c->prio.w_js, c->prio.w_part, c->prio.w_qos, c->prio.max_age,
		 c->flags, c->damp, c->decay_hl, c->calc_period);
	/* clang-format on */
	return c;
}

void conf_install(struct priority_conf *c)
{
	slurm_mutex_lock(&conf_mutex);
	c->generation = current ? current->generation + 1 : 1;
	c->older = current;
	__atomic_store_n(&current, c, __ATOMIC_RELEASE);
	slurm_mutex_unlock(&conf_mutex);
}

struct priority_conf *conf_get(void)
{
	return __atomic_load_n(&current, __ATOMIC_ACQUIRE);
}

void conf_fini(void)
{
	struct priority_conf *c;

	slurm_mutex_lock(&conf_mutex);
	c = current;
	__atomic_store_n(&current, NULL, __ATOMIC_RELEASE);
	slurm_mutex_unlock(&conf_mutex);
	while (c) {
		struct priority_conf *older = c->older;

		conf_discard(c);
		c = older;
	}
}

struct ts_prio_config conf_factors_now(const struct priority_conf *c)
{
	struct ts_prio_config p = c->factors;

	conf_cluster_now(&p);
	return p;
}
