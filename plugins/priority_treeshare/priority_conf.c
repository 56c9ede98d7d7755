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
	if (hl > 0)
		return 1 - (0.693 / (double)hl);
	return 1;
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

static enum ts_fs_algo fs_algo(uint16_t flags)
{
	if (flags & PRIORITY_FLAGS_FAIR_TREE)
		return TS_FS_FAIR_TREE;
	if (flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS)
		return TS_FS_DEPTH_OBLIVIOUS;
	return TS_FS_CLASSIC;
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

/*
 * PriorityParameters, through src/settings.c (which names the key, the
 * value and the column of any error).  Its keys are treeshare's own
 * (issue 5).  Until the plugin applies a key, a valid one is refused
 * too, so that a site never runs with a setting silently ignored.
 * RET 0, or -1 with msg filled (one line: the text and why).
 */
static int read_params(struct priority_conf *c, char *msg, size_t size)
{
	struct ts_error err = TS_ERROR_INIT;
	bool ft = c->flags & PRIORITY_FLAGS_FAIR_TREE;
	bool dob = c->flags & PRIORITY_FLAGS_DEPTH_OBLIVIOUS;

	if (ts_settings_parse(c->params, NULL, &slurm_logger, &c->settings,
			      &err) ||
	    ts_settings_check_flags(&c->settings, ft, dob, &err)) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	if (c->settings.given) {
		char text[256];

		ts_settings_render(&c->settings, text, sizeof(text));
		snprintf(msg, size,
			 "'%s' is valid but this build does not apply it yet",
			 text);
		return -1;
	}
	return 0;
}

/*
 * The error line for a bad PriorityParameters.  When init() fails, Slurm's
 * plugin loader tries a second way and calls init() again; the plugin is
 * linked -z nodelete so this survives the unload in between, and the
 * administrator reads the line once.  Guarded by conf_mutex.
 */
static void report_once(const char *params, const char *msg,
			const char *outcome)
{
	static char last[768];
	char line[768];
	bool again;

	snprintf(line, sizeof(line), "PriorityParameters=%s: %s; %s", params,
		 msg, outcome);
	slurm_mutex_lock(&conf_mutex);
	again = !strcmp(line, last);
	snprintf(last, sizeof(last), "%s", line);
	slurm_mutex_unlock(&conf_mutex);
	if (again)
		debug("%s: %s (again)", plugin_type, line);
	else
		error("%s: %s", plugin_type, line);
}

void conf_discard(struct priority_conf *c)
{
	if (!c)
		return;
	ts_settings_free(&c->settings);
	xfree(c->w_tres);
	xfree(c->params);
	xfree(c);
}

void conf_no_fair_share(struct priority_conf *c)
{
	c->calc_fairshare = false;
	c->prio.w_age = 0;
	c->prio.w_fs = 0;
}

struct priority_conf *conf_build(const struct priority_conf *old, bool in_ctld,
				 const char *outcome)
{
	struct priority_conf *c = xmalloc(sizeof(*c));
	char msg[384];

	c->calc_fairshare = old ? old->calc_fairshare : true;
	c->flags = slurm_conf.priority_flags;
	c->favor_small = slurm_conf.priority_favor_small;
	c->damp = slurm_conf.fs_dampening_factor;
	c->decay_hl = slurm_conf.priority_decay_hl;
	c->decay_factor = conf_decay_factor(c->decay_hl);
	c->calc_period = slurm_conf.priority_calc_period;
	c->reset_period = slurm_conf.priority_reset_period;
	c->fs.algo = fs_algo(c->flags);
	c->fs.damp = c->damp;
	c->params = xstrdup(slurm_conf.priority_params);
	c->site_factor_none =
		!slurm_conf.site_factor_plugin ||
		!xstrcmp(slurm_conf.site_factor_plugin, "site_factor/none");

	if (read_params(c, msg, sizeof(msg))) {
		if (in_ctld) {
			report_once(c->params, msg, outcome);
			conf_discard(c);
			return NULL;
		}
		debug("%s: PriorityParameters ignored in a client: %s",
		      plugin_type, msg);
	}
	if (!in_ctld)
		return c;

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
	}
	c->prio.w_tres = c->w_tres;
	if (old && !old->calc_fairshare)
		conf_no_fair_share(c);

	/* clang-format off */
	log_flag(PRIO,
		 "%s: weights age %u assoc %u fairshare %u jobsize %u partition %u qos %u; max age %u s; flags 0x%x; dampening %u; half-life %u s; period %u s",
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

struct ts_prio_config conf_prio_now(const struct priority_conf *c)
{
	struct ts_prio_config p = c->prio;

	p.cluster_cpus = &cluster_cpus ? cluster_cpus : 0;
	p.node_count = node_record_count > 0 ? (uint32_t)node_record_count : 0;
	return p;
}
