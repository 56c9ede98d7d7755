/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stubs.c - the slurmctld symbols a priority plugin needs, for ts-harness.
 *
 * priority_multifactor.so leaves these undefined for slurmctld to supply
 * (nm -D --undefined-only, minus what libslurmfull.so exports), by
 * release:
 *   both   calc_job_billable_tres, lock_slurmctld, unlock_slurmctld,
 *          validate_operator
 *   22.05  find_part_record, lock_state_files, unlock_state_files
 *   24.11  acct_policy_get_acct_used_limits,
 *          acct_policy_get_user_used_limits, part_list_to_xstr
 * and it defines job_list, last_job_update, cluster_cpus,
 * slurmctld_tres_cnt, accounting_enforce and acct_db_conn (24.11: and
 * last_part_update) itself, so that it also loads in sshare, while
 * slurmctld's definitions take precedence when it runs there.
 * treeshare reads last_part_update (weak) on every release, as every
 * slurmctld has it, so the harness exports it on every release.  In 24.11
 * lock_state_files() and unlock_state_files() are libslurmfull's, called
 * by its save_buf_to_state(); the harness still defines them, to see a
 * cycle end, and they take precedence over libslurmfull's as the clock
 * does.  The executable exports exactly the names in stubs.list and
 * stubs-RELEASE.list (the release's own), so ours take precedence the
 * same way.
 *
 * Each function does what slurmctld's does, reduced to the records the
 * harness builds; semantics in ts-harness(1), STUBBED SLURMCTLD SYMBOLS.
 * Locks are real: slurmctld's five rwlocks taken in slurmctld's order, so
 * helgrind sees the locking the plugin really does.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "src/common/assoc_mgr.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "cycle_gate.h"
#include "lock_hold.h"
#include "release.h"
#include "stubs.h"

/* slurmctld's globals that plugins read. */
list_t *job_list = NULL;	 /* the harness's jobs, fixture order */
list_t *part_list = NULL;	 /* the harness's partitions */
time_t last_job_update = 0;	 /* set by the plugin on a change */
time_t last_part_update = 0;	 /* partitions never change */
uint32_t cluster_cpus = NO_VAL;	 /* != NO_VAL: "running in slurmctld" */
int slurmctld_tres_cnt = 0;	 /* g_tres_count once TRES are loaded */
uint16_t accounting_enforce = 0; /* AccountingStorageEnforce bits */
void *acct_db_conn = NULL;	 /* no database connection */

/* slurmctld's config, job, node, partition and federation locks. */
static pthread_rwlock_t ctld_locks[5] = {
	PTHREAD_RWLOCK_INITIALIZER, PTHREAD_RWLOCK_INITIALIZER,
	PTHREAD_RWLOCK_INITIALIZER, PTHREAD_RWLOCK_INITIALIZER,
	PTHREAD_RWLOCK_INITIALIZER,
};

/* Serializes state-file access, as slurmctld's state_mutex. */
static pthread_mutex_t state_files_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Guarded by state_files_mutex: the decay file as lock_state_files saw it */
static char *decay_file;
static struct stat decay_before;
static bool decay_existed;

static void take(pthread_rwlock_t *lock, lock_level_t level)
{
	if (level == READ_LOCK)
		pthread_rwlock_rdlock(lock);
	else if (level == WRITE_LOCK)
		pthread_rwlock_wrlock(lock);
}

static void release(pthread_rwlock_t *lock, lock_level_t level)
{
	if (level != NO_LOCK)
		pthread_rwlock_unlock(lock);
}

void lock_slurmctld(slurmctld_lock_t lock_levels)
{
	take(&ctld_locks[CONF_LOCK], lock_levels.conf);
	take(&ctld_locks[JOB_LOCK], lock_levels.job);
	take(&ctld_locks[NODE_LOCK], lock_levels.node);
	take(&ctld_locks[PART_LOCK], lock_levels.part);
	take(&ctld_locks[FED_LOCK], lock_levels.fed);
	if (lock_levels.job == WRITE_LOCK)
		th_hold_taken(TH_HOLD_JOB);
}

void unlock_slurmctld(slurmctld_lock_t lock_levels)
{
	if (lock_levels.job == WRITE_LOCK)
		th_hold_released(TH_HOLD_JOB);
	release(&ctld_locks[FED_LOCK], lock_levels.fed);
	release(&ctld_locks[PART_LOCK], lock_levels.part);
	release(&ctld_locks[NODE_LOCK], lock_levels.node);
	release(&ctld_locks[JOB_LOCK], lock_levels.job);
	release(&ctld_locks[CONF_LOCK], lock_levels.conf);
}

void th_stubs_watch_decay_file(const char *path)
{
	pthread_mutex_lock(&state_files_mutex);
	xfree(decay_file);
	decay_file = xstrdup(path);
	pthread_mutex_unlock(&state_files_mutex);
}

void th_stubs_free(void)
{
	pthread_mutex_lock(&state_files_mutex);
	xfree(decay_file);
	pthread_mutex_unlock(&state_files_mutex);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

void lock_state_files(void)
{
	pthread_mutex_lock(&state_files_mutex);
	decay_existed = decay_file && !stat(decay_file, &decay_before);
}

/* A rewrite of the decay file under this lock ends one decay cycle. */
void unlock_state_files(void)
{
	struct stat now;
	bool exists = decay_file && !stat(decay_file, &now);
	bool rewritten =
		exists && (!decay_existed || !same_file(&decay_before, &now));

	pthread_mutex_unlock(&state_files_mutex);
	if (rewritten)
		th_gate_cycle_ended();
}

static int match_part_name(void *x, void *key)
{
	part_record_t *part = x;

	return !xstrcmp(part->name, key);
}

part_record_t *find_part_record(char *name)
{
	if (!part_list || !name)
		return NULL;
	return list_find_first(part_list, match_part_name, name);
}

/* The harness runs as root, which slurmctld always treats as operator. */
bool validate_operator(uid_t uid)
{
	return uid == 0 || uid == slurm_conf.slurm_user_id;
}

/*
 * As slurmctld: 0 without allocated TRES; the cached value unless the job
 * was resized after start_time; total_cpus without partition billing
 * weights; else the partition's TRESBillingWeights applied by assoc_mgr
 * (MAX_TRES honoured there).
 */
double calc_job_billable_tres(job_record_t *job_ptr, time_t start_time,
			      bool assoc_mgr_locked)
{
	part_record_t *part = job_ptr->part_ptr;

	if (!job_ptr->tres_alloc_cnt)
		return 0;
	if (!fuzzy_equal(job_ptr->billable_tres, NO_VAL) &&
	    difftime(job_ptr->resize_time, start_time) < 0.0)
		return job_ptr->billable_tres;
	if (!part || !part->billing_weights) {
		job_ptr->billable_tres = job_ptr->total_cpus;
		return job_ptr->billable_tres;
	}
	job_ptr->billable_tres = assoc_mgr_tres_weighted(
		job_ptr->tres_alloc_cnt, part->billing_weights,
		slurm_conf.priority_flags, assoc_mgr_locked);
	return job_ptr->billable_tres;
}

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
static int match_used_acct(void *x, void *key)
{
	return !xstrcmp(((slurmdb_used_limits_t *)x)->acct, key);
}

static int match_used_uid(void *x, void *key)
{
	return ((slurmdb_used_limits_t *)x)->uid == *(uint32_t *)key;
}

static slurmdb_used_limits_t *new_used(void)
{
	slurmdb_used_limits_t *u = xmalloc(sizeof(*u));

	u->tres = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
	u->tres_run_secs = xcalloc(slurmctld_tres_cnt, sizeof(uint64_t));
	return u;
}

/* As acct_policy.c: the QOS's record of acct, created when missing. */
slurmdb_used_limits_t *acct_policy_get_acct_used_limits(list_t **list,
							char *acct)
{
	slurmdb_used_limits_t *u;

	if (!*list)
		*list = list_create(slurmdb_destroy_used_limits);
	if (!(u = list_find_first(*list, match_used_acct, acct))) {
		u = new_used();
		u->acct = xstrdup(acct);
		list_append(*list, u);
	}
	return u;
}

/* As acct_policy.c: the QOS's record of user uid, created when missing. */
slurmdb_used_limits_t *acct_policy_get_user_used_limits(list_t **list,
							uint32_t uid)
{
	slurmdb_used_limits_t *u;

	if (!*list)
		*list = list_create(slurmdb_destroy_used_limits);
	if (!(u = list_find_first(*list, match_used_uid, &uid))) {
		u = new_used();
		u->uid = uid;
		list_append(*list, u);
	}
	return u;
}

static int append_name(void *x, void *arg)
{
	char **names = arg;

	xstrfmtcat(*names, "%s%s", *names ? "," : "",
		   ((part_record_t *)x)->name);
	return 0;
}

/* As partition_mgr.c: "p1,p2" in list order. */
char *part_list_to_xstr(list_t *list)
{
	char *names = NULL;

	(void)list_for_each(list, append_name, &names);
	return names;
}
#endif
