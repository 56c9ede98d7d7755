/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle.c - the decay thread (see cycle.h).
 */
#include "slurmctld_api.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>

#include "assoc_tree.h"
#include "cap_hold.h"
#include "checkpoint.h"
#include "consumed_usage.h"
#include "cred_table.h"
#include "cycle.h"
#include "fs_cache.h"
#include "job_prio.h"
#include "usage.h"
#include "src/usage_charge.h"
#include "usage_windows.h"

/* Jobs between two takes of assoc_mgr's locks in a job pass. */
#define CYCLE_CHUNK 1024
/*
 * A pass is bound by memory latency: every job record, its details and its
 * factors are cache misses, and so is each node of the job list.  So a
 * job is processed PASS_LAG jobs after the list walk reaches it, its
 * record requested at once, what the record points to PASS_STAGE1 jobs
 * later and one more level PASS_STAGE2 jobs later (job_prio_prefetch()).
 */
#define PASS_RING   32 /* power of two, > PASS_LAG */
#define PASS_LAG    16
#define PASS_STAGE1 8
#define PASS_STAGE2 12

/*
 * cycle_mutex guards everything below it: the thread's lifecycle, the
 * times a job end reads, the decay factor.
 */
static pthread_mutex_t cycle_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cycle_wake = PTHREAD_COND_INITIALIZER;
static pthread_t cycle_thread;
static bool prepared;		/* cycle_prepare() ran since the last stop */
static bool running;		/* the thread exists */
static bool stopping;		/* fini asked it to end */
static time_t last_ran;		/* running jobs charged up to here */
static time_t last_reset;	/* last PriorityUsageResetPeriod reset */
static double decay_factor = 1; /* usage kept per second */

/* The thread's own, never shared. */
static struct assoc_tree tree;

void cycle_usage_clock(time_t *ran, double *decay)
{
	slurm_mutex_lock(&cycle_mutex);
	*ran = last_ran;
	*decay = decay_factor;
	slurm_mutex_unlock(&cycle_mutex);
}

static void set_last_ran(time_t t)
{
	slurm_mutex_lock(&cycle_mutex);
	last_ran = t;
	slurm_mutex_unlock(&cycle_mutex);
}

/* --------------------------------------------------------- job passes */

/* A job not finishing with usage to charge: started and running (or
 * pending, with CALCULATE_RUNNING).  Reads only the job record. */
static inline bool charge_due(const struct priority_conf *c,
			      const job_record_t *job)
{
	return ((c->flags & PRIORITY_FLAGS_CALCULATE_RUNNING) ||
		!IS_JOB_PENDING(job)) &&
	       !IS_JOB_POWER_UP_NODE(job) && job->start_time && job->assoc_ptr;
}

/*
 * Charge a job's usage since the last cycle (Slurm's
 * decay_apply_new_usage()).  RET false for a job whose priority is not
 * to be recomputed in the same pass (finished, or its end charged).
 */
static bool charge_job(const struct priority_conf *c, job_record_t *job,
		       time_t from, time_t to, double decay, bool windows)
{
	if (IS_JOB_FINISHED(job) || IS_JOB_COMPLETING(job))
		return false;
	if (charge_due(c, job))
		return usage_charge_job(job, from, to, false, decay, windows,
					consumed_usage_of(c, job));
	return true;
}

bool cycle_windows(const struct priority_conf *c)
{
	return c->windows && usage_windows_active();
}

enum job_pass {
	/* Outside Fair Tree: each job charged, then prioritised, in turn,
	 * so a user's effective usage is computed at its first pending job
	 * from the usage charged so far, as multifactor does. */
	PASS_CHARGE_AND_PRIORITISE,
	PASS_CHARGE,	 /* Fair Tree, before ranking */
	PASS_PRIORITISE, /* Fair Tree, after ranking */
};

/* One pass's state, carried through list_for_each_ro(). */
struct pass {
	enum job_pass what;
	const struct priority_conf *c;
	struct ts_prio_config p;
	time_t from, to;
	double decay;
	bool windows; /* usage_window= in force */
	bool tree_fs; /* jobs read the tree's factors (fs_cache.h) */
	struct fs_memo memo;
	assoc_mgr_lock_t *locks; /* held while the pass runs (or NULL) */
	bool usage_held;	 /* charge pass: usage locks taken */
	size_t usage_from;	 /* charge pass: done when they were */
	job_record_t *ring[PASS_RING];
	size_t seen;  /* jobs the walk reached */
	size_t done;  /* jobs processed */
	bool changed; /* a job's priority was stored */
};

/*
 * Fair Tree's charge pass takes the usage locks at a running job and
 * keeps them for the next CHARGE_HOLD jobs of the walk, not across
 * every pending one (which need none): taking them per charge, as
 * multifactor does, cost ~570 instructions a running job (bench shape
 * "running": 11 M of a 120 M cycle), and CHARGE_HOLD jobs of the walk
 * are a few microseconds.
 */
#define CHARGE_HOLD 256

static void usage_release(struct pass *ps)
{
	assoc_mgr_lock_t usage_locks = USAGE_LOCKS;

	if (ps->usage_held) {
		assoc_mgr_unlock(&usage_locks);
		ps->usage_held = false;
	}
}

static void charge_one(struct pass *ps, job_record_t *job)
{
	assoc_mgr_lock_t usage_locks = USAGE_LOCKS;
	const struct priority_conf *c = ps->c;

	if (ps->usage_held && ps->done - ps->usage_from >= CHARGE_HOLD)
		usage_release(ps);
	ps->done++;
	if (IS_JOB_FINISHED(job) || IS_JOB_COMPLETING(job) ||
	    !charge_due(c, job))
		return;
	if (!ps->usage_held) {
		assoc_mgr_lock(&usage_locks);
		ps->usage_held = true;
		ps->usage_from = ps->done;
	}
	(void)usage_charge_job(job, ps->from, ps->to, false, ps->decay,
			       ps->windows, consumed_usage_of(c, job));
}

/*
 * list_for_each_ro() callback of the charge pass: request this job's
 * state, charge an older one.  Apart from pass_step(): it runs over
 * every job to charge the few running ones, so it does no more.
 */
static int charge_step(void *x, void *arg)
{
	struct pass *ps = arg;
	size_t i = ps->seen++;
	job_record_t *job;

	ps->ring[i & (PASS_RING - 1)] = x;
	job_prio_prefetch(x, -1);
	if (i < PASS_LAG)
		return 0;
	job = ps->ring[(i - PASS_LAG) & (PASS_RING - 1)];
	/* Most jobs: pending, nothing to charge (charge_due()). */
	if (IS_JOB_PENDING(job) &&
	    !(ps->c->flags & PRIORITY_FLAGS_CALCULATE_RUNNING)) {
		ps->done++;
		if (ps->usage_held && ps->done - ps->usage_from >= CHARGE_HOLD)
			usage_release(ps);
	} else
		charge_one(ps, job);
	return 0;
}

/*
 * One job of a pass that prioritises: charged first (with the pass's
 * locks held) outside Fair Tree, then prioritised; the locks are let go
 * and retaken every CYCLE_CHUNK jobs.
 */
static void pass_job(struct pass *ps, job_record_t *job)
{
	const struct priority_conf *c = ps->c;
	bool again = true;

	if (ps->what != PASS_PRIORITISE)
		again = charge_job(c, job, ps->from, ps->to, ps->decay,
				   ps->windows);
	if (again)
		ps->changed |=
			job_prio_recompute(c, &ps->p, job, ps->to, &ps->memo);
	if (ps->memo.needs_write) {
		/* Rare (algorithm switched): store it as Slurm does. */
		assoc_mgr_lock_t write = { .assoc = WRITE_LOCK,
					   .qos = READ_LOCK };

		assoc_mgr_unlock(ps->locks);
		assoc_mgr_lock(&write);
		ps->memo = (struct fs_memo){ .may_store = true };
		ps->changed |=
			job_prio_recompute(c, &ps->p, job, ps->to, &ps->memo);
		ps->memo = (struct fs_memo){ .read_only = true };
		assoc_mgr_unlock(&write);
		assoc_mgr_lock(ps->locks);
	}
	if (!(++ps->done % CYCLE_CHUNK)) {
		assoc_mgr_unlock(ps->locks);
		assoc_mgr_lock(ps->locks);
	}
}

/* list_for_each_ro() callback: request this job, process an older one. */
static int pass_step(void *x, void *arg)
{
	struct pass *ps = arg;
	size_t i = ps->seen++;

	ps->ring[i & (PASS_RING - 1)] = x;
	job_prio_prefetch(x, 0);
	if (i >= PASS_STAGE1) {
		job_record_t *ahead =
			ps->ring[(i - PASS_STAGE1) & (PASS_RING - 1)];

		job_prio_prefetch(ahead, 1);
		if (ps->tree_fs)
			fs_cache_prefetch(ahead->assoc_id);
	}
	if (i >= PASS_STAGE2)
		job_prio_prefetch(ps->ring[(i - PASS_STAGE2) & (PASS_RING - 1)],
				  2);
	if (i >= PASS_LAG)
		pass_job(ps, ps->ring[(i - PASS_LAG) & (PASS_RING - 1)]);
	return 0;
}

/*
 * One pass over the job list.  Caller holds the job write lock;
 * assoc_mgr's locks are taken here and retaken every CYCLE_CHUNK jobs.
 * Charging needs the usage locks; prioritising alone reads, except for
 * the rare job whose usage must be computed and stored (after an
 * algorithm switch), for which the write lock is taken alone.  Fair
 * Tree's charge-only pass takes the usage locks at a charge and keeps
 * them for CHARGE_HOLD jobs: most jobs are pending and need none.
 */
static void job_pass(enum job_pass what, const struct priority_conf *c,
		     time_t from, time_t to, double decay)
{
	assoc_mgr_lock_t usage_locks = USAGE_LOCKS;
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };
	struct pass ps = {
		.what = what,
		.c = c,
		.p = conf_prio_now(c),
		.from = from,
		.to = to,
		.decay = decay,
		.windows = cycle_windows(c),
		/* Maui's factors per credential replace the tree's */
		.tree_fs = !c->cred_fs,
		.memo = { .may_store = what != PASS_PRIORITISE,
			  .read_only = what == PASS_PRIORITISE },
		.locks = what == PASS_PRIORITISE ? &read
			 : what == PASS_CHARGE	 ? NULL
						 : &usage_locks,
	};

	if (!job_list)
		return;
	if (ps.locks)
		assoc_mgr_lock(ps.locks);
	if (what == PASS_CHARGE) {
		(void)list_for_each_ro(job_list, charge_step, &ps);
		while (ps.done < ps.seen)
			charge_one(&ps, ps.ring[ps.done & (PASS_RING - 1)]);
		usage_release(&ps);
	} else {
		(void)list_for_each_ro(job_list, pass_step, &ps);
		while (ps.done < ps.seen)
			pass_job(&ps, ps.ring[ps.done & (PASS_RING - 1)]);
	}
	if (ps.locks)
		assoc_mgr_unlock(ps.locks);
	if (ps.changed)
		last_job_update = time(NULL);
}

void cycle_initial_priorities(const struct priority_conf *c)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK,
				       .node = READ_LOCK,
				       .part = READ_LOCK };
	time_t ran, now = time(NULL);
	double decay;

	cycle_usage_clock(&ran, &decay);
	lock_slurmctld(job_write);
	job_pass(PASS_CHARGE_AND_PRIORITISE, c, ran, now, decay);
	unlock_slurmctld(job_write);
}

/* ------------------------------------------------------------ fair share */

static long node_of(const void *at, uint32_t id)
{
	return assoc_tree_node(at, id);
}

/*
 * Snapshot, compute outside the lock, store.  With usage windows the
 * snapshot's usage is the windows' (the usage-source hook).
 * RET 0 or -1 (logged).
 */
static int fair_share(const struct priority_conf *c)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK };
	assoc_mgr_lock_t write = { .assoc = WRITE_LOCK };
	int rc;

	/* Without slurmdbd (24.11 runs the cycle all the same): no tree. */
	if (!c->calc_fairshare)
		return 0;
	cred_table_update(c);
	assoc_mgr_lock(&read);
	rc = assoc_tree_copy_in(&tree);
	assoc_mgr_unlock(&read);
	if (!rc && cycle_windows(c))
		tree.usage_from_windows =
			usage_windows_fill_tree(&tree.tree, node_of, &tree);
	if (rc || assoc_tree_compute(&tree, c))
		return -1;
	rc = cap_table_build(&tree.tree, c);
	assoc_mgr_lock(&write);
	assoc_tree_write_back(&tree, c);
	if (!rc)
		cap_table_publish();
	assoc_mgr_unlock(&write);
	log_flag(PRIO,
		 "%s: fair share of %zu associations (%zu users) computed",
		 plugin_type, tree.tree.n, tree.tree.n_users);
	return 0;
}

/*
 * After Slurm replaced the association list (slurmdbd back after a start
 * from slurmctld's cache), the new root holds the old root's usage plus
 * every leaf's: accounts are set to what their children hold.
 */
static void check_accounts(void)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK };
	assoc_mgr_lock_t write = USAGE_LOCKS;
	struct usage_rebuilt rb;
	bool reloaded;

	assoc_mgr_lock(&read);
	reloaded = usage_assoc_reloaded();
	assoc_mgr_unlock(&read);
	if (!reloaded)
		return;
	assoc_mgr_lock(&write);
	if (usage_rebuild_accounts(&rb))
		rb.accounts = 0;
	assoc_mgr_unlock(&write);
	/* clang-format off */
	if (rb.accounts)
		info("%s: the association list was reloaded from slurmdbd: %zu accounts did not hold what their children hold: set to the sum of their children's usage and their own (root RawUsage %.0Lf -> %.0Lf)",
		     plugin_type, rb.accounts, rb.root_was, rb.root_now);
	/* clang-format on */
}

/* ------------------------------------------------------------- one cycle */

/*
 * One cycle at start, in multifactor's order: for classic and
 * DEPTH_OBLIVIOUS the accounts' effective usage comes from the usage
 * before this cycle's decay and charges, and jobs are charged and
 * prioritised in one pass; Fair Tree (and PBS, which also needs the whole
 * tree) charges all jobs, then computes, then prioritises.  Nothing is
 * decayed or charged in a first cycle outside Fair Tree (no last run).
 * With usage windows the windows roll to start after the charges (which
 * split at any boundary they cross) and half-life decay leaves usage_raw
 * alone.
 */
static void run_cycle(const struct priority_conf *c, time_t start)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK,
				       .node = READ_LOCK,
				       .part = READ_LOCK };
	bool fair_tree =
		c->fs.algo == TS_FS_FAIR_TREE || c->fs.algo == TS_FS_PBS;
	bool windows = cycle_windows(c);
	time_t ran;
	double decay, delta;

	check_accounts();
	if (!fair_tree)
		(void)fair_share(c);

	cycle_usage_clock(&ran, &decay);
	if (ran && (delta = difftime(start, ran)) > 0) {
		double real = ts_decay_over(decay, delta);

		/* clang-format off */
		log_flag(PRIO,
			 "%s: Decay factor over %g seconds goes from %.15f -> %.15f",
			 plugin_type, delta, decay, real);
		/* clang-format on */
		if (c->calc_fairshare && real != 1) {
			usage_decay(real, !windows);
			if (!windows)
				usage_windows_cred_decay(real);
		}

		lock_slurmctld(job_write);
		site_factor_g_update();
		if (!fair_tree) {
			job_pass(PASS_CHARGE_AND_PRIORITISE, c, ran, start,
				 decay);
			set_last_ran(start);
		}
		unlock_slurmctld(job_write);
	}

	if (!fair_tree && c->settings.consumed)
		consumed_usage_charge(ran, start, decay, windows,
				      c->consumed_since);
	if (fair_tree) {
		lock_slurmctld(job_write);
		job_pass(PASS_CHARGE, c, ran, start, decay);
		set_last_ran(start);
		unlock_slurmctld(job_write);
		if (c->settings.consumed)
			consumed_usage_charge(ran, start, decay, windows,
					      c->consumed_since);
		if (windows)
			usage_windows_roll(start);

		/* On failure the last factors stay; priorities still age. */
		(void)fair_share(c);
		lock_slurmctld(job_write);
		job_pass(PASS_PRIORITISE, c, start, start, decay);
		unlock_slurmctld(job_write);
	} else if (windows) {
		usage_windows_roll(start);
	}
	set_last_ran(start);
	/* fscap=: after the tree, so that caps follow this cycle's usage. */
	cap_hold_pass(c);
}

_Static_assert(PRIORITY_RESET_NONE == TS_RESET_NONE &&
		       PRIORITY_RESET_NOW == TS_RESET_NOW &&
		       PRIORITY_RESET_DAILY == TS_RESET_DAILY &&
		       PRIORITY_RESET_WEEKLY == TS_RESET_WEEKLY &&
		       PRIORITY_RESET_MONTHLY == TS_RESET_MONTHLY &&
		       PRIORITY_RESET_QUARTERLY == TS_RESET_QUARTERLY &&
		       PRIORITY_RESET_YEARLY == TS_RESET_YEARLY,
	       "src/usage_charge.h's periods are Slurm's PRIORITY_RESET_*");

/* PriorityUsageResetPeriod; now is the cycle's start. */
static void maybe_reset(uint16_t *period, time_t *next, time_t now)
{
	time_t reset;

	slurm_mutex_lock(&cycle_mutex);
	reset = last_reset;
	slurm_mutex_unlock(&cycle_mutex);

	switch (*period) {
	case PRIORITY_RESET_NONE:
		return;
	case PRIORITY_RESET_NOW: /* once per start or reconfigure */
		usage_reset();
		*period = PRIORITY_RESET_NONE;
		reset = now;
		break;
	default:
		if (!*next)
			*next = ts_next_reset((enum ts_reset_period) * period,
					      reset, time(NULL));
		if (!*next || now < *next)
			return;
		usage_reset();
		reset = *next;
		*next = ts_next_reset((enum ts_reset_period) * period, reset,
				      time(NULL));
		break;
	}
	slurm_mutex_lock(&cycle_mutex);
	last_reset = reset;
	slurm_mutex_unlock(&cycle_mutex);
}

/*
 * Wait on cycle_wake (cycle_mutex held) until the next cycle, wake;
 * while an association is over its cap, come back every
 * cap_hold_watch_interval() seconds before that to hold the pending jobs
 * no priority call reached (requeued ones).  RET true when the wait is
 * over (the time came, or a signal: stop or reconfigure).
 */
static bool wait_or_watch(const struct timespec *wake)
{
	struct timespec until = *wake;
	struct priority_conf *c = conf_get();
	time_t watch = cap_hold_watch_interval(), now = time(NULL);
	bool watching = c && watch && now + watch < wake->tv_sec;

	if (watching) {
		until.tv_sec = now + watch;
		until.tv_nsec = 0;
	}
	if (pthread_cond_timedwait(&cycle_wake, &cycle_mutex, &until) !=
		    ETIMEDOUT ||
	    !watching)
		return true;
	slurm_mutex_unlock(&cycle_mutex);
	cap_hold_pass(c);
	slurm_mutex_lock(&cycle_mutex);
	return false;
}

/*
 * The decay thread: every PriorityCalcPeriod a usage reset when due
 * (maybe_reset()), one cycle (run_cycle()), then the state files, until
 * stopping is set; a reconfigure's new periods apply from the next turn.
 */
static void *decay_thread(void *arg)
{
	time_t start = time(NULL), next_reset = 0, ran, reset;
	unsigned seen = 0;
	uint16_t period = PRIORITY_RESET_NONE;
	struct timespec wake;
	struct timeval tv;

	(void)arg;
	if (prctl(PR_SET_NAME, "tsdecay", NULL, NULL, NULL) < 0)
		debug("%s: cannot name the decay thread: %m", plugin_type);
	gettimeofday(&tv, NULL);
	wake.tv_sec = tv.tv_sec;
	wake.tv_nsec = tv.tv_usec * 1000;

	slurm_mutex_lock(&cycle_mutex);
	if (!last_reset)
		last_reset = start;
	ran = last_ran;
	slurm_mutex_unlock(&cycle_mutex);
	usage_give_back_run_secs(ran);

	while (true) {
		struct priority_conf *c = conf_get();

		if (!c)
			break;
		/* At start and after a reconfigure: the new periods. */
		if (c->generation != seen) {
			seen = c->generation;
			period = c->reset_period;
			next_reset = 0;
			slurm_mutex_lock(&cycle_mutex);
			decay_factor = c->decay_factor;
			slurm_mutex_unlock(&cycle_mutex);
		}
		maybe_reset(&period, &next_reset, start);
		run_cycle(c, start);

		slurm_mutex_lock(&cycle_mutex);
		ran = last_ran;
		reset = last_reset;
		slurm_mutex_unlock(&cycle_mutex);
		/* The cycle's usage, windows and decay time: one commit. */
		(void)checkpoint_commit(ran, reset);

		slurm_mutex_lock(&cycle_mutex);
		wake.tv_sec += c->calc_period;
		while (!stopping && !wait_or_watch(&wake))
			;
		if (stopping) {
			slurm_mutex_unlock(&cycle_mutex);
			break;
		}
		slurm_mutex_unlock(&cycle_mutex);
		start = time(NULL);
	}
	return NULL;
}

void cycle_prepare(time_t ran, time_t reset)
{
	struct priority_conf *c = conf_get();

	slurm_mutex_lock(&cycle_mutex);
	last_ran = ran;
	last_reset = reset;
	decay_factor = c ? c->decay_factor : 1;
	stopping = false;
	prepared = true;
	slurm_mutex_unlock(&cycle_mutex);
}

int cycle_start(void)
{
	int rc;

	if (!conf_get())
		return -1;
	if (assoc_tree_init(&tree))
		return -1;
	slurm_mutex_lock(&cycle_mutex);
	if (!prepared || running) {
		slurm_mutex_unlock(&cycle_mutex);
		assoc_tree_free(&tree);
		return -1;
	}
	rc = pthread_create(&cycle_thread, NULL, decay_thread, NULL);
	running = !rc;
	slurm_mutex_unlock(&cycle_mutex);
	if (rc) {
		error("%s: cannot start the decay thread: %s", plugin_type,
		      strerror(rc));
		assoc_tree_free(&tree);
		return -1;
	}
	return 0;
}

void cycle_stop(void)
{
	bool join;

	slurm_mutex_lock(&cycle_mutex);
	stopping = true;
	join = running;
	running = false;
	prepared = false;
	pthread_cond_broadcast(&cycle_wake);
	slurm_mutex_unlock(&cycle_mutex);

	/* Join outside the lock: the thread takes it to finish. */
	if (join)
		pthread_join(cycle_thread, NULL);
	/* The thread is gone (or never was): its memory is ours now. */
	assoc_tree_free(&tree);
}

void cycle_fini(void)
{
	slurm_mutex_lock(&cycle_mutex);
	last_ran = 0;
	last_reset = 0;
	decay_factor = 1;
	stopping = false;
	slurm_mutex_unlock(&cycle_mutex);
}

void cycle_times(time_t *ran, time_t *reset)
{
	slurm_mutex_lock(&cycle_mutex);
	*ran = last_ran;
	*reset = last_reset;
	slurm_mutex_unlock(&cycle_mutex);
}
