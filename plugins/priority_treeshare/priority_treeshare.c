/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority_treeshare.c - the plugin block and the entry points Slurm
 * resolves for a priority plugin (syms[] in 22.05's
 * src/common/slurm_priority.c, 24.11's src/interfaces/priority.c;
 * priority_p_recover() and priority_p_thread_start() are 24.11's).
 * Each forwards to the file that owns the concept:
 *
 *   priority_conf.c  slurm.conf's priority keys, PriorityParameters
 *   cycle.c          the decay thread
 *   usage.c          decay, charge and reset of usage
 *   assoc_tree.c     associations to src/'s tree and results back
 *   job_prio.c       job records to src/priority.c and back
 *   factors_rpc.c    sprio's factor list
 *   checkpoint.c     the state kept across restarts, one commit a cycle
 *   usage_windows.c  Maui usage windows (usage_window=)
 *
 * In a client (sshare) only init(), fini() and
 * priority_p_calc_fs_factor() are ever called; no thread is started and
 * no slurmctld symbol is needed (slurmctld_api.h).
 */
#include "slurmctld_api.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assoc_tree.h"
#include "cap_hold.h"
#include "checkpoint.h"
#include "consumed_usage.h"
#include "cred_table.h"
#include "cycle.h"
#include "factors_rpc.h"
#include "fs_cache.h"
#include "job_prio.h"
#include "priority_conf.h"
#include "usage.h"
#include "usage_windows.h"
#include "src/usage_state.h"

const char plugin_name[] = "Priority treeshare plugin";
/*
 * TS_AS_MULTIFACTOR: the same sources built as priority_multifactor.so
 * for package treeshare-as-multifactor, which diverts Debian's file
 * (debian/treeshare-as-multifactor.preinst).  Slurm loads a plugin by
 * file name (plugin.c, plugin_load_and_link(): plugin_type unchecked)
 * and, when PluginDir's last directory has no such file, by the
 * plugin_type of each .so there (plugin_context_create(), plugrack.c
 * plugrack_use_by_type()): so the type is the one it stands in for,
 * and Slurm's log prefix (plugin_type) is multifactor's too.
 */
#ifdef TS_AS_MULTIFACTOR
const char plugin_type[] = "priority/multifactor";
#else
const char plugin_type[] = "priority/treeshare";
#endif
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static bool in_ctld;	    /* set by init(), read-only after */
static bool site_factor_up; /* ts_site_factor_init() succeeded */

/*
 * Slurm calls priority_p_set_assoc_usage() holding only the association
 * read lock; on_demand_mutex keeps two such callers from storing into
 * the same record at once.
 */
static pthread_mutex_t on_demand_mutex = PTHREAD_MUTEX_INITIALIZER;

/*
 * Calls after fini().  Slurm 24.11 to 26.05 unload the priority plugin
 * (controller.c, priority_g_fini()) while RPC threads still run, and
 * priority_g_*() then call through the pointers they kept, checked by an
 * xassert() alone (none in a release build): a job end, a submission or
 * an sprio in that window lands here.  -z nodelete (module.mk) keeps the
 * code mapped; finalized turns such calls away with a harmless value,
 * and fini() waits for calls already inside (calls_in) to leave before
 * it frees what they use.  A successful init() clears finalized: a
 * failed scontrol reconfigure or a backup taking over starts the plugin
 * again in the same process, on the same statics.
 */
static int finalized;
static unsigned calls_in;
static int refusal_logged; /* one line per fini() */

/* A call refused after fini(): one line per fini(). */
static __attribute__((noinline, cold)) void refused(const char *fn)
{
	__atomic_sub_fetch(&calls_in, 1, __ATOMIC_RELEASE);
	if (!__atomic_exchange_n(&refusal_logged, 1, __ATOMIC_RELAXED))
		/* clang-format off */
		info("%s: %s() called after fini(): ignored, and so is every later call until the plugin starts again (Slurm unloads its priority plugin before its RPC threads stop)",
		     plugin_type, fn);
	/* clang-format on */
}

/*
 * Every entry point but init() and fini().  RET false after fini().
 * Inline, the refusal out of line: priority_p_set() runs for every job
 * of a set pass, where this costs an add, a load and a subtract.
 */
static inline bool enter(const char *fn)
{
	/* Both seq_cst, as in fini(): it sees us inside, or we see it. */
	__atomic_add_fetch(&calls_in, 1, __ATOMIC_SEQ_CST);
	if (__builtin_expect(!__atomic_load_n(&finalized, __ATOMIC_SEQ_CST), 1))
		return true;
	refused(fn);
	return false;
}

static inline void leave(void)
{
	__atomic_sub_fetch(&calls_in, 1, __ATOMIC_RELEASE);
}

/* fini(): no new call gets in; those inside have left on return. */
static void refuse_calls(void)
{
	const struct timespec tick = { .tv_nsec = 1000000 };
	unsigned ticks = 0;
	unsigned n;

	__atomic_store_n(&finalized, 1, __ATOMIC_SEQ_CST);
	while ((n = __atomic_load_n(&calls_in, __ATOMIC_SEQ_CST))) {
		/* A call waits for a Slurm lock; fini()'s caller holds none. */
		if (++ticks == 10000)
			info("%s: fini() waits for %u call(s) still inside the plugin",
			     plugin_type, n);
		nanosleep(&tick, NULL);
	}
}

/* init() succeeded: calls are served again. */
static void accept_calls(void)
{
	__atomic_store_n(&refusal_logged, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&finalized, 0, __ATOMIC_SEQ_CST);
}

/* Each association's shares_norm the way the algorithm now in force
 * normalises them (Fair Tree: per level; else: product up the tree). */
static void renormalise_shares(list_t *kids)
{
	slurmdb_assoc_rec_t *a;
	list_itr_t *itr;

	if (!kids || list_is_empty(kids))
		return;
	itr = list_iterator_create(kids);
	while ((a = list_next(itr))) {
		assoc_mgr_normalize_assoc_shares(a);
		if (!a->user)
			renormalise_shares(a->usage->children_list);
	}
	list_iterator_destroy(itr);
}

/* The settings in force, once at start and after each change. */
static void log_active(const struct priority_conf *c,
		       const struct priority_conf *old)
{
	if (old && !strcmp(old->active, c->active))
		return;
	if (c->active[0])
		info("%s: PriorityParameters in force: %s", plugin_type,
		     c->active);
	else
		/* clang-format off */
		info("%s: no PriorityParameters: priority/multifactor's behaviour",
		     plugin_type);
	/* clang-format on */
}

/*
 * Fair share from the association tree: the committed state (usage put
 * back as of the last commit, its decay time; checkpoint.h), the usage
 * windows, the root's usage.  Before the thread starts and before any
 * job can end, on every release.  RET 0, or -1 after logging why.
 */
static int start_fair_share(struct priority_conf *c, const char *outcome)
{
	assoc_mgr_lock_t write = { .assoc = WRITE_LOCK };
	time_t ran = 0, reset = 0;

	if (checkpoint_recover(slurm_conf.state_save_location, time(NULL), &ran,
			       &reset) ||
	    (c->windows && usage_windows_start(c, time(NULL), outcome))) {
		usage_windows_fini();
		checkpoint_fini();
		return -1;
	}
	/* without windows, usage per credential decays by half-life */
	if (!c->windows && c->cred_usage)
		usage_windows_cred_start(c, time(NULL));
	/* at a start, as a reconfigure that removes usage_window says it */
	if (!c->windows && usage_windows_kept())
		/* clang-format off */
		info("%s: no usage_window: usage decays by PriorityDecayHalfLife, from RawUsage as it is; the saved usage windows are kept in %s, and setting usage_window again resumes them",
		     plugin_type, TS_USAGE_STATE_FILE);
	/* clang-format on */
	consumed_usage_adopt(c);
	assoc_mgr_lock(&write);
	assoc_mgr_root_assoc->usage->usage_efctv = 1.0;
	usage_note_root();
	assoc_mgr_unlock(&write);
	cycle_prepare(ran, reset);
	return 0;
}

/*
 * init() - in a client (sshare) only the configuration; in slurmctld the
 * configuration, the state files and the decay thread's clock.  Where
 * the release starts the decay thread from init() (22.05) it starts here
 * and jobs without slurmdbd get their first factors here; later releases
 * call init() under the configuration write lock before the jobs are
 * read, and ask for both with priority_p_thread_start() and
 * priority_p_recover() (slurm_compat.h).
 */
extern int init(void)
{
	const char *outcome = "slurmctld cannot start";
	struct priority_conf *c;

	in_ctld = ctld_present();
#ifdef TS_AS_MULTIFACTOR
	if (in_ctld)
		/* clang-format off */
		info("%s: this is treeshare (priority/treeshare) under priority/multifactor's name, from package treeshare-as-multifactor; PriorityParameters takes treeshare's keys (priority_treeshare(5))",
		     plugin_type);
		/* clang-format on */
#endif
	if (in_ctld && getenv("SLURMCTLD_RECONF"))
		/* 24.11's scontrol reconfigure: this is the new process. */
		/* clang-format off */
		outcome = "this slurmctld cannot start (scontrol reconfigure: a daemonised slurmctld keeps running with its previous configuration)";
	/* clang-format on */
	if (!(c = conf_build(NULL, in_ctld, outcome)))
		return SLURM_ERROR;
	if (!in_ctld) {
		conf_install(c);
		accept_calls();
		debug("%s: %s loaded in a client", __func__, plugin_name);
		return SLURM_SUCCESS;
	}
	if (!(site_factor_up = ts_site_factor_init() == SLURM_SUCCESS) &&
	    !TS_SLURM_INIT_STARTS_THREAD) {
		/* As 24.11's multifactor: no priorities without it. */
		error("%s: the site factor plugin (%s) did not start; %s",
		      plugin_type, slurm_conf.site_factor_plugin, outcome);
		conf_discard(c);
		return SLURM_ERROR;
	}
	log_active(c, NULL);

	if (!slurm_with_slurmdbd()) {
		/* clang-format off */
		if (c->prio.w_age)
			error("%s: PriorityWeightAge needs SlurmDBD (AccountingStorageType=accounting_storage/slurmdbd); ignored",
			      plugin_type);
		if (c->prio.w_fs)
			error("%s: PriorityWeightFairshare needs SlurmDBD (AccountingStorageType=accounting_storage/slurmdbd); ignored",
			      plugin_type);
		/* clang-format on */
		conf_no_fair_share(c);
		conf_install(c);
		if (TS_SLURM_INIT_STARTS_THREAD)
			cycle_initial_priorities(c);
		else
			cycle_prepare(0, 0);
	} else if (assoc_mgr_root_assoc) {
		if (start_fair_share(c, outcome)) {
			conf_discard(c);
			goto fail;
		}
		conf_install(c);
		if (TS_SLURM_INIT_STARTS_THREAD && cycle_start()) {
			usage_windows_fini();
			checkpoint_fini();
			conf_fini();
			goto fail;
		}
	} else {
		if (c->prio.w_fs) {
			/* clang-format off */
			error("%s: no association data from the database, which PriorityWeightFairshare needs: check the slurmdbd connection; %s",
			      plugin_type, outcome);
			/* clang-format on */
			conf_discard(c);
			goto fail;
		}
		conf_no_fair_share(c);
		conf_install(c);
		if (!TS_SLURM_INIT_STARTS_THREAD)
			cycle_prepare(0, 0);
	}

	accept_calls();
	debug("%s: %s loaded", __func__, plugin_name);
	return SLURM_SUCCESS;
fail:
	if (site_factor_up)
		ts_site_factor_fini();
	site_factor_up = false;
	return SLURM_ERROR;
}

/*
 * priority_p_thread_start() - the decay thread (24.05 and later, after
 * read_slurm_conf(), still under the configuration write lock: the
 * thread takes slurmctld's locks only once it runs).  A thread that
 * cannot be created is logged; priorities then stay as priority_p_set()
 * gives them.
 */
extern void priority_p_thread_start(void)
{
	if (!enter(__func__))
		return;
	if (in_ctld && !TS_SLURM_INIT_STARTS_THREAD)
		(void)cycle_start();
	leave();
}

/*
 * priority_p_recover() - after slurmctld has read its jobs (23.02 and
 * later): without slurmdbd every job gets its factors once, so that
 * sprio has something to show.  prio_boost is priority/basic's.
 */
extern uint32_t priority_p_recover(uint32_t prio_boost)
{
	struct priority_conf *c;

	(void)prio_boost;
	if (!enter(__func__))
		return 0;
	c = conf_get();
	if (in_ctld && c && !TS_SLURM_INIT_STARTS_THREAD &&
	    !slurm_with_slurmdbd())
		cycle_initial_priorities(c);
	leave();
	return 0;
}

/*
 * priority_p_set()'s weights with the cluster's counts, kept from job to
 * job while the configuration and the counts stay: copying them for every
 * job was ~30 instructions of ~1,300.  Guarded by slurmctld's job write
 * lock, which every caller of priority_p_set() holds (set_job_prio(), as
 * for Slurm's own lowest_prio there).  A conf is freed only at fini
 * (priority_conf.c), so its address names it until fini clears this.
 */
static struct {
	const struct priority_conf *c; /* NULL: none kept */
	uint32_t cpus;
	int nodes;
	struct ts_prio_config p;
} set_conf;

extern int fini(void)
{
	time_t ran, reset;

	refuse_calls();
	cycle_stop();
	if (checkpoint_armed()) {
		/* What job ends charged since the last cycle. */
		cycle_times(&ran, &reset);
		(void)checkpoint_commit(ran, reset);
	}
	checkpoint_fini();
	cycle_fini();
	consumed_usage_fini();
	usage_fini();
	usage_windows_fini();
	cap_hold_fini();
	cred_table_fini();
	fs_cache_free();
	if (site_factor_up)
		ts_site_factor_fini();
	site_factor_up = false;
	set_conf.c = NULL; /* its conf is freed next */
	conf_fini();
	return SLURM_SUCCESS;
}

/*
 * priority_p_set() for a job whose user's usage is to be computed now
 * and kept, as in Slurm: under the association write lock, where caps
 * published since the read lock was let go may hold it.
 */
static uint32_t set_storing_usage(const struct priority_conf *c,
				  const struct ts_prio_config *p,
				  job_record_t *job)
{
	assoc_mgr_lock_t write = { .assoc = WRITE_LOCK, .qos = READ_LOCK };
	struct fs_memo memo = { .may_store = true };
	uint32_t prio = 0;

	assoc_mgr_lock(&write);
	if (!cap_hold_at_set(job))
		prio = job_prio_compute(c, p, job, time(NULL), &memo);
	assoc_mgr_unlock(&write);
	return prio;
}

/* conf_prio_now(c), from set_conf when c and the counts are its own. */
static const struct ts_prio_config *
set_prio_weights(const struct priority_conf *c)
{
	uint32_t cpus = &cluster_cpus ? cluster_cpus : 0;
	int nodes = ts_node_count();

	if (set_conf.c != c || set_conf.cpus != cpus ||
	    set_conf.nodes != nodes) {
		set_conf.p = conf_prio_now(c);
		set_conf.c = c;
		set_conf.cpus = cpus;
		set_conf.nodes = nodes;
	}
	return &set_conf.p;
}

/* priority_p_set() once let in: the job's priority, 0 before init(). */
static uint32_t set_prio(job_record_t *job_ptr)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };
	struct priority_conf *c;
	const struct ts_prio_config *p;
	struct fs_memo memo = { .read_only = true };
	uint32_t prio = 0;

	if (!(c = conf_get()))
		return 0;
	/*
	 * The site factor first, so that the sum includes its change.
	 * site_factor/none's changes nothing, and Slurm's wrapper times
	 * each call with two gettimeofday() and a formatted string: the
	 * job's priority is the same without the call.  Its record is far
	 * in memory: ask for it while the call runs (without the call, the
	 * next line reads it at once, and the hints would only cost).
	 */
	if (!c->site_factor_none) {
		job_prio_prefetch(job_ptr, 0);
		site_factor_g_set(job_ptr);
	}
	/* Ask for what the record points to before the locks. */
	job_prio_prefetch(job_ptr, 1);
	p = set_prio_weights(c);

	assoc_mgr_lock(&read);
	/* fscap=: a job of a capped association is held, not prioritised. */
	if (!cap_hold_at_set(job_ptr))
		prio = job_prio_compute(c, p, job_ptr, time(NULL), &memo);
	assoc_mgr_unlock(&read);
	if (memo.needs_write)
		prio = set_storing_usage(c, p, job_ptr);

	debug2("%s: initial priority for %pJ is %u", plugin_type, job_ptr,
	       prio);
	return prio;
}

extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio;

	/* After fini(): Slurm's lowest so far, not 0, which holds the job. */
	if (!enter(__func__))
		return last_prio ? last_prio : 1;
	prio = set_prio(job_ptr);
	leave();
	return prio;
}

/*
 * The caps of the last cycle end with a configuration that has none: a
 * job submitted before the next cycle is not held by them.
 */
static void drop_caps(void)
{
	assoc_mgr_lock_t write = { .assoc = WRITE_LOCK };

	assoc_mgr_lock(&write);
	cap_table_drop();
	cred_table_uncap();
	assoc_mgr_unlock(&write);
}

/*
 * priority_p_reconfig() once let in: slurm.conf's priority keys and
 * PriorityParameters read again; a refused configuration keeps the one
 * in force (logged).
 */
static void reconfig(bool assoc_clear)
{
	assoc_mgr_lock_t write = { .assoc = WRITE_LOCK };
	struct priority_conf *old = conf_get(), *c;
	char *outcome;
	time_t ran;
	double decay;

	/* clang-format off */
	outcome = xstrdup_printf(
		"running configuration kept (PriorityParameters in force: '%s')",
		old && old->active ? old->active : "");
	/* clang-format on */
	c = conf_build(old, in_ctld, outcome);
	xfree(outcome);
	if (c) {
		/* Fair Tree normalises shares per level; the rest do not. */
		if (in_ctld && old &&
		    ((old->flags ^ c->flags) & PRIORITY_FLAGS_FAIR_TREE) &&
		    assoc_mgr_root_assoc) {
			assoc_mgr_lock(&write);
			renormalise_shares(
				assoc_mgr_root_assoc->usage->children_list);
			assoc_mgr_unlock(&write);
		}
		if (in_ctld) {
			log_active(c, old);
			consumed_usage_switched(c, old);
			usage_windows_reconfigure(c, time(NULL));
		}
		conf_install(c);
		if (in_ctld && !ts_targets_fscap_count(c->targets))
			drop_caps();
	}
	if (!in_ctld)
		return;

	/* A reload refilled the TRES run seconds of running jobs. */
	if (assoc_clear) {
		cycle_usage_clock(&ran, &decay);
		usage_give_back_run_secs(ran);
	}
	ts_site_factor_reconfig();
	debug2("%s: %s reconfigured", "priority_p_reconfig", plugin_name);
}

extern void priority_p_reconfig(bool assoc_clear)
{
	if (!enter(__func__))
		return;
	reconfig(assoc_clear);
	leave();
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	if (!enter(__func__))
		return;
	xassert(assoc_mgr_root_assoc);
	xassert(assoc && assoc->usage);

	slurm_mutex_lock(&on_demand_mutex);
	assoc_usage_on_demand(assoc, conf_get());
	slurm_mutex_unlock(&on_demand_mutex);
	leave();
}

/*
 * sshare's FairShare outside Fair Tree's bit, in the client: with
 * fairshare=pbs the records hold fairshare_tree_usage and fairshare_perc,
 * and the factor is PBS's, whatever FairShareDampeningFactor says.
 */
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	struct priority_conf *c;
	double f;

	/* After fini(): as without a configuration, from slurm.conf. */
	if (!enter(__func__))
		return ts_fs_record_factor(TS_FS_CLASSIC, usage_efctv,
					   shares_norm,
					   slurm_conf.fs_dampening_factor);
	if (!(c = conf_get()))
		f = ts_fs_record_factor(TS_FS_CLASSIC, usage_efctv, shares_norm,
					slurm_conf.fs_dampening_factor);
	else
		f = ts_fs_record_factor(c->fs.algo, usage_efctv, shares_norm,
					c->damp);
	leave();
	return f;
}

#if TS_PLUGIN_FILTERS_SPRIO
/* 22.05: the request's filters applied here, the job locks taken here. */
extern list_t *
priority_p_get_priority_factors_list(priority_factors_request_msg_t *req_msg,
				     uid_t uid)
{
	struct factors_filter filter = { .job_ids = req_msg->job_id_list,
					 .uids = req_msg->uid_list,
					 .partitions = req_msg->partitions };
	struct priority_conf *c;
	list_t *l;

	if (!enter(__func__))
		return NULL;
	c = conf_get();
	l = c ? factors_rpc_list(c, &filter, uid, true) : NULL;
	leave();
	return l;
}
#else
/* 24.05 and later: sprio filters; slurmctld holds the job read locks. */
extern list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	struct priority_conf *c;
	list_t *l;

	if (!enter(__func__))
		return NULL;
	c = conf_get();
	l = c ? factors_rpc_list(c, NULL, uid, false) : NULL;
	leave();
	return l;
}
#endif

/* priority_p_job_end() once let in: the job's last slice charged. */
static void job_end(job_record_t *job_ptr)
{
	assoc_mgr_lock_t locks = USAGE_LOCKS;
	time_t ran;
	double decay;

	struct priority_conf *c = conf_get();

	if (TS_JOB_END_OF_PENDING_JOB && !job_ptr->start_time) {
		/* clang-format off */
		log_flag(PRIO, "%s: %pJ ended before it started: nothing to charge",
			 plugin_type, job_ptr);
		/* clang-format on */
		/* As charged: its real start resets it (job_end_time_reset) */
		job_ptr->end_time_exp = (time_t)NO_VAL;
		return;
	}
	log_flag(PRIO, "%s: %pJ ended", plugin_type, job_ptr);
	cycle_usage_clock(&ran, &decay);
	assoc_mgr_lock(&locks);
	(void)usage_charge_job(job_ptr, ran, time(NULL), true, decay,
			       c && cycle_windows(c),
			       consumed_usage_of(c, job_ptr));
	assoc_mgr_unlock(&locks);
}

/* Called with the job write lock (Slurm's acct_policy_job_fini()). */
extern void priority_p_job_end(job_record_t *job_ptr)
{
	if (!enter(__func__))
		return;
	job_end(job_ptr);
	leave();
}
