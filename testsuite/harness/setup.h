/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setup.h - turn a fixture into the controller state a priority plugin
 * sees in slurmctld, through Slurm's own code wherever slurmctld uses it:
 *
 *   slurm.conf  written to a private directory, read by slurm_conf_init()
 *   TRES, QOS,  written as slurmctld's state files (last_tres,
 *   associations, assoc_mgr_state, assoc_usage, qos_usage) and loaded by
 *   usage       assoc_mgr exactly as slurmctld does when slurmdbd is down
 *               at start (ctld_assoc_mgr_init()), so fs_assoc_ptr,
 *               children_list, level_shares, shares_norm, priority_norm,
 *               g_user_assoc_count and the usage sums are assoc_mgr's own
 *   partitions  part_record_t as read_config.c leaves them (norm_priority,
 *               tres_cnt, billing weights)
 *   jobs        job_record_t as a restarted slurmctld holds them, with
 *               acct_policy_job_begin()'s grp_used_tres_run_secs for
 *               running jobs when AccountingStorageEnforce has "limits"
 *   decay state StateSaveLocation/priority_last_decay_ran, multifactor's
 *               format (last ran, last reset), unless the fixture says none
 */
#ifndef TH_SETUP_H
#define TH_SETUP_H

#include <stdbool.h>

#include "fixture.h"

struct th_setup {
	const char *plugin;	/* PriorityType */
	const char *plugin_dir; /* PluginDir value */
	const char *state_dir;	/* -D: use (and keep) this directory */
	unsigned resume;	/* -r: cycles a crashed run ended; 0: none */
	char *dir;	   /* private dir: slurm.conf + StateSaveLocation */
	int verbose;	   /* extra Slurm log levels on stderr */
	bool keep_dir;	   /* leave dir behind (debugging) */
	char *decay_state; /* priority_last_decay_ran as written */
	size_t decay_len;
	char **override; /* reconfigure lines so far, in order */
	size_t n_override;
};

/*
 * th_setup_conf() - create the private directory, write slurm.conf and
 * read it with slurm_conf_init(); start Slurm's logging as "slurmctld".
 * RET 0, or -1 after printing why.
 */
int th_setup_conf(struct th_setup *s, const struct th_fixture *fx);

/*
 * th_setup_controller() - load TRES, QOS, associations and usage, build
 * partitions and jobs, write the decay state.  After th_setup_conf().
 * With s->resume (a restart after a crash during cycle resume), the
 * state files already in the directory are slurmctld's last save and are
 * loaded as they are, no decay state is written, and jobs that finished
 * before the crash are complete, their end charged (as slurmctld's job
 * state says); no job may finish between the crash and the restart.
 * RET 0, or -1 after printing why.
 */
int th_setup_controller(struct th_setup *s, const struct th_fixture *fx);

/*
 * th_setup_default_plugin_dir() - "<bin>/../lib/slurm:<Debian's dir>",
 * the first part only if it exists.  RET an xmalloc'ed string.
 */
char *th_setup_default_plugin_dir(void);

/*
 * th_setup_restore_decay_state() - put priority_last_decay_ran back as
 * th_setup_controller() wrote it, so that a second plugin starts where
 * the first did.  RET 0 or -1.
 */
int th_setup_restore_decay_state(struct th_setup *s);

/* th_setup_set_plugin() - switch PriorityType (bench children). */
void th_setup_set_plugin(const char *plugin);

/*
 * th_setup_reconfigure() - slurm.conf's key of conf ("Key=Value") becomes
 * Value (added if the fixture does not set it) and slurm.conf is read
 * again with slurm_conf_reinit() under the config write lock, as
 * slurmctld's reconfigure does; the caller then calls
 * priority_g_reconfig().  RET 0, or -1 after printing why.
 */
int th_setup_reconfigure(struct th_setup *s, const struct th_fixture *fx,
			 const char *conf);

/*
 * th_setup_restart_run_secs() - what a restarted slurmctld does to the
 * TRES run seconds: every association's and QOS's are zeroed, then each
 * running job's are reserved again as acct_policy_job_begin() does (the
 * plugin gives back what was used, up to its last decay, at start).
 */
void th_setup_restart_run_secs(void);

/*
 * th_setup_reconfigure_undo() - forget the last th_setup_reconfigure()
 * and read slurm.conf again as it was before it.  RET 0 or -1.
 */
int th_setup_reconfigure_undo(struct th_setup *s, const struct th_fixture *fx);

/*
 * th_setup_end_jobs() - every job whose finish time has come ends as in
 * slurmctld's job_completion(): under the job write lock, state
 * COMPLETE, end_time its finish time, then priority_g_job_end().
 * RET how many ended.
 */
int th_setup_end_jobs(const struct th_fixture *fx, time_t now);

/*
 * th_setup_damage() - damage StateSaveLocation/FILE (default
 * treeshare_state; "both" also its previous copy, .prev, or .old for
 * priority_last_decay_ran) as a crash, a bad disk or a stepped clock
 * would.  now: the clock ("future" is an hour after it).  RET 0 or -1.
 */
int th_setup_damage(struct th_setup *s, enum th_damage damage, const char *file,
		    time_t now);

/*
 * th_setup_remove() - remove StateSaveLocation/FILE and its previous copy
 * (.prev, or .old for priority_last_decay_ran), as an administrator
 * might.  RET 0 or -1 (either exists and cannot be removed).
 */
int th_setup_remove(struct th_setup *s, const char *file);

/*
 * th_setup_slurm_save() - slurmctld's periodic save of its usage
 * (dump_assoc_mgr_state(): assoc_usage, qos_usage, ...).
 */
void th_setup_slurm_save(void);

/* th_setup_free() - free jobs, partitions, assoc_mgr; remove the dir. */
void th_setup_free(struct th_setup *s);

#endif
