/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_conf.h - the configuration in force: every slurm.conf key
 * priority/multifactor reads, and PriorityParameters (treeshare's own
 * keys, issue 5), read once at init and at each reconfigure.
 *
 * A struct priority_conf never changes after it is built.  Readers take a
 * reference with conf_get() and drop it with conf_put(); a reconfigure
 * builds a new one and conf_install() swaps it in, so a decay cycle, a
 * priority_p_set() and a reconfigure never see half of each other, and
 * no reader holds a lock while it computes.  A bad new configuration is
 * logged and never installed: the running one stays.
 */
#ifndef PT_PRIORITY_CONF_H
#define PT_PRIORITY_CONF_H

#include <stdbool.h>
#include <stdint.h>

#include "src/fairshare.h"
#include "src/priority.h"

struct priority_conf {
	unsigned refs;	       /* guarded by conf_mutex (priority_conf.c) */
	unsigned generation;   /* 1 for the first, +1 per install */
	bool calc_fairshare;   /* false without slurmdbd or associations */
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
	struct ts_fs_config fs; /* fair-share algorithm and dampening */
	char *params;		/* PriorityParameters as configured */
};

/*
 * conf_build() - a new configuration from slurm_conf.  calc_fairshare and
 * the weights it zeroes are taken from old (fair share on when old is
 * NULL).  in_ctld is false in a client such as sshare: then only what
 * priority_p_calc_fs_factor() needs is read and PriorityParameters errors
 * are not fatal.  outcome ends the error line: what the error costs
 * ("slurmctld cannot start", "running configuration kept").
 * RET the new conf (refs 1), or NULL after logging one error line that
 * names the bad key and its value.
 */
struct priority_conf *conf_build(const struct priority_conf *old, bool in_ctld,
				 const char *outcome);

/* conf_no_fair_share() - fair share off (no slurmdbd): no age, no fs. */
void conf_no_fair_share(struct priority_conf *c);

/* conf_install() - make c the configuration in force (takes c's ref). */
void conf_install(struct priority_conf *c);

/* conf_get() - a reference to the configuration in force, or NULL. */
struct priority_conf *conf_get(void);

/* conf_put() - drop a reference; c may be NULL. */
void conf_put(struct priority_conf *c);

/* conf_fini() - drop the configuration in force (at plugin fini). */
void conf_fini(void);

/*
 * conf_decay_factor() - usage kept per second for a half-life of hl
 * seconds: 1 - 0.693 / hl, Slurm's first-order approximation of
 * 2^(-1/hl), kept for parity; 1 (no decay) when hl is 0.
 */
double conf_decay_factor(uint32_t hl);

/* conf_prio_now() - c->prio with the cluster's CPU and node counts now. */
struct ts_prio_config conf_prio_now(const struct priority_conf *c);

#endif /* PT_PRIORITY_CONF_H */
