/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf.h - the configuration in force: every slurm.conf key
 * priority/multifactor reads, and PriorityParameters (treeshare's own
 * keys, issue 5), read once at init and at each reconfigure.
 *
 * A struct priority_conf never changes after it is installed, and is not
 * freed before the plugin unloads: a reader gets the one in force with
 * conf_get() and may use it for as long as it likes, holding nothing, so
 * a decay cycle, a priority_p_set() and a reconfigure never see half of
 * each other.  A reconfigure builds a new one and conf_install() makes it
 * current; the old one (a few hundred bytes) is kept until fini.  A bad
 * new configuration is logged and never installed: the running one stays.
 */
#ifndef PT_PRIORITY_CONF_H
#define PT_PRIORITY_CONF_H

#include "slurmctld_api.h"

#include <stdbool.h>
#include <stdint.h>

#include "src/fairshare.h"
#include "src/priority.h"
#include "src/settings.h"
#include "src/targets.h"

/*
 * formula='s variables, by index in the value array job_prio.c fills:
 * the job's normalised factors, its site factor and nice value, PBS's
 * three keywords for its association, Maui's fair-share component and
 * its five credentials' deltas (cred_table.h), then one per TRES in Slurm's TRES
 * order (tres_<name>, see conf_tres_var_name()).
 */
enum conf_var {
	CONF_VAR_AGE,
	CONF_VAR_ASSOC,
	CONF_VAR_FAIRSHARE,
	CONF_VAR_JOBSIZE,
	CONF_VAR_PARTITION,
	CONF_VAR_QOS,
	CONF_VAR_SITE,
	CONF_VAR_NICE,
	CONF_VAR_PBS_TREE_USAGE,
	CONF_VAR_PBS_PERC,
	CONF_VAR_PBS_FACTOR,
	CONF_VAR_MAUI_FS,	 /* Maui's component, FSWEIGHT x sum */
	CONF_VAR_FS_USER_DELTA,	 /* each credential's delta (issue 27), */
	CONF_VAR_FS_GROUP_DELTA, /* in enum ts_cred order */
	CONF_VAR_FS_ACCOUNT_DELTA,
	CONF_VAR_FS_QOS_DELTA,
	CONF_VAR_FS_CLASS_DELTA,
	CONF_VAR_TRES, /* + TRES position */
};

struct priority_conf {
	struct priority_conf *older; /* installed before; freed at fini */
	unsigned generation;	     /* 1 for the first, +1 per install */
	bool calc_fairshare;   /* false without slurmdbd or associations */
	bool site_factor_none; /* PrioritySiteFactorPlugin=site_factor/none */
	uint16_t flags;	       /* slurm_conf.priority_flags */
	uint16_t favor_small;  /* PriorityFavorSmall */
	uint16_t damp;	       /* FairShareDampeningFactor */
	uint32_t decay_hl;     /* PriorityDecayHalfLife, s; 0: no decay */
	double decay_factor;   /* per second, see conf_decay_factor() */
	uint32_t calc_period;  /* PriorityCalcPeriod, s */
	uint16_t reset_period; /* PriorityUsageResetPeriod, PRIORITY_RESET_* */
	struct ts_prio_config
		prio;		/* weights; cluster figures filled per use */
	double *w_tres;		/* PriorityWeightTRES; prio.w_tres */
	uint32_t *tres_on;	/* its non-zero ones; prio.tres_on */
	struct ts_fs_config fs; /* fair-share algorithm and dampening */
	char *params;		/* PriorityParameters as configured */
	struct ts_settings settings; /* ... parsed (issue 5's keys) */
	char *active;		     /* ... in canonical form ("" if none) */

	/* What the settings mean for the plugin (issue 5). */
	bool windows; /* usage_window=: Maui windows */
	/*
	 * Maui's usage per credential is kept (usage_windows.h): usage
	 * windows, and user@*, group, qos or class targets or any of
	 * fs_weight .. fs_class_weight (issue 27).
	 */
	bool cred_usage;
	/*
	 * Maui's fair share per credential decides FairShare (cred_table.h):
	 * usage per credential kept and one of fs_user_weight ..
	 * fs_class_weight not 0.  The weights as doubles.
	 */
	bool cred_fs;
	double fs_weight;
	double cred_weight[TS_CRED_N];
	struct ts_targets *targets; /* fs_targets= loaded, or NULL */
	bool targets_owned;	    /* false: an older conf's, kept */
	enum ts_fs_policy fs_policy;
	const struct ts_formula *formula; /* settings.formula, or NULL */
	/*
	 * Which factors to compute: prio itself, or with formula= every
	 * weight at least 1 (a formula may use a factor whose weight is 0;
	 * the weights then only scale what sprio shows).
	 */
	struct ts_prio_config factors;
	double *tres_ones; /* factors.w_tres with formula= */
	bool need_fs;	   /* a job's fair-share factor is used */
	/*
	 * usage_metric=consumed in force since (0: dedicated): a job whose
	 * run started before is charged dedicated to its end, one started
	 * at or after consumed (consumed_usage_of()).  Kept from old while
	 * consumed stays, else the build's time; at start the committed
	 * one (consumed_usage_adopt()).
	 */
	time_t consumed_since;
};

/*
 * conf_build() - a new configuration from slurm_conf.  calc_fairshare and
 * the weights it zeroes are taken from old (fair share on when old is
 * NULL).  in_ctld is false in a client such as sshare: then only what
 * priority_p_calc_fs_factor() needs is read and PriorityParameters errors
 * are not fatal.  outcome ends the error line: what the error costs
 * ("slurmctld cannot start", "running configuration kept").
 * RET the new conf (not installed), or NULL after logging one error line that
 * names the bad key and its value.
 */
struct priority_conf *conf_build(const struct priority_conf *old, bool in_ctld,
				 const char *outcome);

/* conf_no_fair_share() - fair share off (no slurmdbd): no age, no fs. */
void conf_no_fair_share(struct priority_conf *c);

/* conf_install() - make c the configuration in force; it is owned then. */
void conf_install(struct priority_conf *c);

/* conf_discard() - free a conf that was built but not installed. */
void conf_discard(struct priority_conf *c);

/*
 * conf_get() - the configuration in force, or NULL before init; valid
 * until conf_fini().
 */
struct priority_conf *conf_get(void);

/* conf_fini() - free every configuration ever installed (plugin fini). */
void conf_fini(void);

/*
 * conf_decay_factor() - usage kept per second for a half-life of hl
 * seconds: 1 - 0.693 / hl, Slurm's first-order approximation of
 * 2^(-1/hl), kept for parity; 1 (no decay) when hl is 0.
 */
double conf_decay_factor(uint32_t hl);

/* conf_cluster_now() - the cluster's CPU and node counts now into p. */
static inline void conf_cluster_now(struct ts_prio_config *p)
{
	int nodes = ts_node_count();

	p->cluster_cpus = &cluster_cpus ? cluster_cpus : 0;
	p->node_count = nodes > 0 ? (uint32_t)nodes : 0;
	/* 24.11 gives no job size without nodes or CPUs (22.05 divides). */
	if (!ts_job_size_defined(p->node_count, p->cluster_cpus))
		p->w_js = 0;
}

/*
 * conf_prio_now() - c->prio with the cluster's CPU and node counts now.
 * Inline: priority_p_set() takes it once per job.
 */
static inline struct ts_prio_config conf_prio_now(const struct priority_conf *c)
{
	struct ts_prio_config p = c->prio;

	conf_cluster_now(&p);
	return p;
}

/* conf_factors_now() - c->factors with the cluster's counts now. */
struct ts_prio_config conf_factors_now(const struct priority_conf *c);

/*
 * conf_tres_var_name() - a TRES name as a formula variable: "tres_" then
 * the name in lower case with every character that a formula name cannot
 * hold ("/", "-", ":", ...) written "_": gres/gpu is tres_gres_gpu.
 * RET the length snprintf() would give.
 */
int conf_tres_var_name(const char *tres, char *buf, size_t size);

#endif /* PT_PRIORITY_CONF_H */
