/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage.c - decay, charge and reset of association and QOS usage (see
 * usage.h for the rules).  The arithmetic and its types follow
 * priority/multifactor's step by step, since sshare prints RawUsage to
 * the unit and parity is checked on it.
 */
#include "usage.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/usage_charge.h"
#include "src/usage_state.h"

#include "cred_table.h"
#include "usage_windows.h"

static int tres_count(void)
{
	return (&slurmctld_tres_cnt && slurmctld_tres_cnt > 0)
		       ? slurmctld_tres_cnt
		       : 0;
}

static bool enforce_limits(void)
{
	return &accounting_enforce &&
	       (accounting_enforce & ACCOUNTING_ENFORCE_LIMITS);
}

static void scale_assoc_usage(slurmdb_assoc_usage_t *u, double f, int n,
			      bool raw)
{
	int i;

	if (raw)
		u->usage_raw *= f;
	for (i = 0; i < n; i++)
		u->usage_tres_raw[i] *= f;
	u->grp_used_wall *= f;
}

/* One decay, carried through list_for_each_ro(). */
struct decay {
	double factor;
	int n;	  /* TRES */
	bool raw; /* usage_raw too */
};

static int decay_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *assoc = x;
	const struct decay *d = arg;

	scale_assoc_usage(assoc->usage, d->factor, d->n, d->raw);
	if (assoc->leaf_usage && assoc->leaf_usage != assoc->usage)
		scale_assoc_usage(assoc->leaf_usage, d->factor, d->n, d->raw);
	return 0;
}

static int decay_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	const struct decay *d = arg;
	int i;

	if (qos->flags & QOS_FLAG_NO_DECAY)
		return 0;
	qos->usage->usage_raw *= d->factor;
	for (i = 0; i < d->n; i++)
		qos->usage->usage_tres_raw[i] *= d->factor;
	qos->usage->grp_used_wall *= d->factor;
	return 0;
}

void usage_decay(double factor, bool raw)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	struct decay d = { .factor = factor, .n = tres_count(), .raw = raw };

	assoc_mgr_lock(&locks);
	/*
	 * All of them, the root included: usage is kept per subtree.  One
	 * walk each, the list's own lock taken once (an iterator takes it
	 * per record).
	 */
	(void)list_for_each_ro(assoc_mgr_assoc_list, decay_assoc, &d);
	(void)list_for_each_ro(assoc_mgr_qos_list, decay_qos, &d);
	assoc_mgr_unlock(&locks);
}

void usage_reset(void)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	slurmdb_assoc_rec_t *assoc;
	slurmdb_qos_rec_t *qos;
	list_itr_t *itr;
	int i, n = tres_count();

	assoc_mgr_lock(&locks);
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((assoc = list_next(itr))) {
		assoc->usage->usage_raw = 0;
		for (i = 0; i < n; i++)
			assoc->usage->usage_tres_raw[i] = 0;
		assoc->usage->grp_used_wall = 0;
		if (assoc->leaf_usage && assoc->leaf_usage != assoc->usage) {
			slurmdb_destroy_assoc_usage(assoc->leaf_usage);
			assoc->leaf_usage = NULL;
		}
	}
	list_iterator_destroy(itr);

	itr = list_iterator_create(assoc_mgr_qos_list);
	while ((qos = list_next(itr))) {
		qos->usage->usage_raw = 0;
		for (i = 0; i < n; i++)
			qos->usage->usage_tres_raw[i] = 0;
		qos->usage->grp_used_wall = 0;
	}
	list_iterator_destroy(itr);
	assoc_mgr_unlock(&locks);
	info("%s: usage reset (PriorityUsageResetPeriod)", plugin_type);
}

/* ------------------------------------------------ accounts' usage */

/* One association record's values: raw, wall, then n TRES. */
static void get_values(long double *val, const slurmdb_assoc_usage_t *u, int n)
{
	int i;

	val[0] = u->usage_raw;
	val[1] = u->grp_used_wall;
	for (i = 0; i < n; i++)
		val[2 + i] = u->usage_tres_raw ? u->usage_tres_raw[i] : 0;
}

static void set_values(slurmdb_assoc_usage_t *u, const long double *val, int n)
{
	int i;

	u->usage_raw = val[0];
	u->grp_used_wall = (double)val[1];
	for (i = 0; u->usage_tres_raw && i < n; i++)
		u->usage_tres_raw[i] = val[2 + i];
}

/* A record and its index, sorted by the record's address. */
struct rec_at {
	const slurmdb_assoc_rec_t *a;
	long i;
};

static int cmp_rec_at(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const struct rec_at *)x)->a;
	uintptr_t b = (uintptr_t)((const struct rec_at *)y)->a;

	return a < b ? -1 : a > b;
}

/* The root record when accounts were last checked; under assoc's lock. */
static const slurmdb_assoc_rec_t *checked_root;

void usage_note_root(void)
{
	checked_root = assoc_mgr_root_assoc;
}

bool usage_assoc_reloaded(void)
{
	return checked_root && assoc_mgr_root_assoc != checked_root;
}

void usage_fini(void)
{
	checked_root = NULL;
}

int usage_rebuild_accounts(struct usage_rebuilt *out)
{
	int n_tres = tres_count();
	size_t v = 2 + (size_t)n_tres, n, i;
	slurmdb_assoc_rec_t **rec;
	struct rec_at *at, key, *hit;
	long double *own, *val, *sum;
	long *parent, differ;
	list_itr_t *itr;
	slurmdb_assoc_rec_t *a;

	memset(out, 0, sizeof(*out));
	usage_note_root();
	if (assoc_mgr_root_assoc)
		out->root_was = out->root_now =
			assoc_mgr_root_assoc->usage->usage_raw;
	n = assoc_mgr_assoc_list ? list_count(assoc_mgr_assoc_list) : 0;
	if (!n)
		return 0;
	rec = xcalloc(n, sizeof(*rec));
	at = xcalloc(n, sizeof(*at));
	parent = xcalloc(n, sizeof(*parent));
	own = xcalloc(n * v, sizeof(*own));
	val = xcalloc(n * v, sizeof(*val));
	sum = xcalloc(n * v, sizeof(*sum));
	i = 0;
	itr = list_iterator_create(assoc_mgr_assoc_list);
	while ((a = list_next(itr)) && i < n) {
		rec[i] = a;
		at[i].a = a;
		at[i].i = (long)i;
		get_values(&val[i * v], a->usage, n_tres);
		if (a->user)
			memcpy(&own[i * v], &val[i * v], v * sizeof(*own));
		else if (a->leaf_usage && a->leaf_usage != a->usage)
			get_values(&own[i * v], a->leaf_usage, n_tres);
		i++;
	}
	list_iterator_destroy(itr);
	n = i;
	qsort(at, n, sizeof(*at), cmp_rec_at);
	for (i = 0; i < n; i++) {
		key.a = rec[i]->usage->parent_assoc_ptr;
		hit = key.a ? bsearch(&key, at, n, sizeof(*at), cmp_rec_at)
			    : NULL;
		parent[i] = hit ? hit->i : -1;
	}
	differ = ts_usage_sum_children(n, v, parent, own, val, sum);
	if (differ < 0)
		error("%s: the association tree's parent links loop; accounts' usage not checked",
		      plugin_type);
	for (i = 0; differ > 0 && i < n; i++)
		if (!rec[i]->user)
			set_values(rec[i]->usage, &sum[i * v], n_tres);
	if (differ > 0) {
		out->accounts = (size_t)differ;
		if (assoc_mgr_root_assoc)
			out->root_now = assoc_mgr_root_assoc->usage->usage_raw;
	}
	xfree(rec);
	xfree(at);
	xfree(parent);
	xfree(own);
	xfree(val);
	xfree(sum);
	return differ < 0 ? -1 : 0;
}

/*
 * Add tres_used to usage_tres_raw (when given) and give back tres_secs
 * of the job's reserved TRES run seconds.  Only under
 * AccountingStorageEnforce=limits, as in Slurm: without it neither
 * changes.  Energy is not a time-limited TRES and is skipped.
 */
/*
 * The TRES a charge moves: the indices where the job's figures are not 0
 * (energy never), so that the walks up the tree and over the QOS skip
 * the others, on which a give-back adds and removes nothing.
 */
struct tres_moved {
	int n;
	int *idx;
	bool limits; /* enforce_limits(), read once a job, not per record */
};

/*
 * One record's share of a charge: the usage its TRES add, and the run
 * seconds Slurm reserved at the job's start given back (never below 0:
 * an underflow is logged with the record and the TRES).
 */
static inline __attribute__((always_inline)) void
give_back(const char *what, uint32_t rec_id, const char *name,
	  long double *usage_tres_raw, uint64_t *run_secs,
	  const long double *tres_used, const uint64_t *tres_secs,
	  const struct tres_moved *moved, uint32_t job_id)
{
	int k;

	if (!moved->limits)
		return;
	for (k = 0; k < moved->n; k++) {
		int i = moved->idx[k];

		if (tres_used)
			usage_tres_raw[i] += tres_used[i];
		if (tres_secs[i] > run_secs[i]) {
			char *who =
				name ? xstrdup_printf("%s %s", what, name)
				     : xstrdup_printf("%s %u", what, rec_id);

			/* clang-format off */
			error("%s: job %u: %s TRES %s grp_used_tres_run_secs underflow: %" PRIu64 " to remove, %" PRIu64 " left",
			      plugin_type, job_id, who,
			      assoc_mgr_tres_name_array[i], tres_secs[i],
			      run_secs[i]);
			/* clang-format on */
			xfree(who);
			run_secs[i] = 0;
		} else {
			run_secs[i] -= tres_secs[i];
		}
	}
}

/*
 * A QOS's share of a charge; from 24.11 also the QOS's record of the
 * job's account and user (none for a job without association, whose QOS
 * is then left alone, as multifactor does).
 */
static void qos_give_back(slurmdb_qos_rec_t *qos, job_record_t *job,
			  const long double *tres_used,
			  const uint64_t *tres_secs,
			  const struct tres_moved *moved)
{
	slurmdb_used_limits_t *acct, *user;

	if (!qos || !moved->limits)
		return;
	if (ts_qos_used_limits(qos, job, &acct, &user) && !acct)
		return;
	give_back("QOS", qos->id, qos->name, qos->usage->usage_tres_raw,
		  qos->usage->grp_used_tres_run_secs, tres_used, tres_secs,
		  moved, job->job_id);
	if (acct)
		give_back("QOS account limit", qos->id, qos->name, NULL,
			  ts_used_limits_run_secs(acct), NULL, tres_secs, moved,
			  job->job_id);
	if (user)
		give_back("QOS user limit", qos->id, qos->name, NULL,
			  ts_used_limits_run_secs(user), NULL, tres_secs, moved,
			  job->job_id);
}

static void assoc_give_back(slurmdb_assoc_rec_t *assoc,
			    const long double *tres_used,
			    const uint64_t *tres_secs,
			    const struct tres_moved *moved, uint32_t job_id)
{
	give_back("assoc", assoc->id, NULL, assoc->usage->usage_tres_raw,
		  assoc->usage->grp_used_tres_run_secs, tres_used, tres_secs,
		  moved, job_id);
}

/* Charge one QOS: NoDecay QOS get the undecayed figures. */
static void charge_qos(slurmdb_qos_rec_t *qos, double wall_decay,
		       double wall_nodecay, double used_decay,
		       double used_nodecay, const long double *tres_decay,
		       const long double *tres_nodecay,
		       const uint64_t *tres_secs,
		       const struct tres_moved *moved, job_record_t *job)
{
	if (qos->flags & QOS_FLAG_NO_DECAY) {
		qos->usage->grp_used_wall += wall_nodecay;
		qos->usage->usage_raw += (long double)used_nodecay;
		qos_give_back(qos, job, tres_nodecay, tres_secs, moved);
	} else {
		qos->usage->grp_used_wall += wall_decay;
		qos->usage->usage_raw += (long double)used_decay;
		qos_give_back(qos, job, tres_decay, tres_secs, moved);
	}
}

static double billable_tres(job_record_t *job, time_t from)
{
	/* Slurm's own billing (TRESBillingWeights, MAX_TRES), cached. */
	if (&calc_job_billable_tres)
		return calc_job_billable_tres(job, from, true);
	return job->total_cpus;
}

/*
 * usage_window=: the undecayed usage to the association chain's windows.
 * RET false when the windows are not in use (nothing charged).
 */
static bool charge_windows(job_record_t *job, double used, time_t from,
			   time_t to)
{
	slurmdb_assoc_rec_t *assoc;
	size_t n = 0;

	for (assoc = job->assoc_ptr; assoc;
	     assoc = assoc->usage->parent_assoc_ptr)
		n++;
	{
		uint32_t ids[n ? n : 1];

		n = 0;
		for (assoc = job->assoc_ptr; assoc;
		     assoc = assoc->usage->parent_assoc_ptr)
			ids[n++] = assoc->id;
		return usage_windows_charge(ids, n, cred_table_job_ids, job,
					    (long double)used, from, to);
	}
}

/*
 * usage_charge_job()'s last run * d^run; guarded by assoc_mgr's
 * association write lock, which its callers hold.
 */
static struct ts_wall_memo wall_memo;

bool usage_charge_job(job_record_t *job, time_t from, time_t to, bool at_end,
		      double decay, bool windows, bool consumed)
{
	int i, n = tres_count();
	uint64_t tres_secs[n > 0 ? n : 1];
	long double tres_decay[n > 0 ? n : 1];
	long double tres_nodecay[n > 0 ? n : 1];
	int moved_idx[n > 0 ? n : 1];
	struct tres_moved moved = { .idx = moved_idx,
				    .limits = enforce_limits() };
	double run, wall_decay, wall_nodecay, used_decay, used_nodecay;
	double billable;
	bool raw;
	uint64_t limit_ends, reserved_secs = 0;
	slurmdb_qos_rec_t *qos;
	slurmdb_assoc_rec_t *assoc;

	/* The end of this job was charged already. */
	if (job->end_time_exp == (time_t)NO_VAL)
		return false;

	run = ts_charge_run(job->start_time, job->end_time, at_end, from, to,
			    &from);

	/*
	 * The run seconds to give back: Slurm reserved TRES x time limit at
	 * start, so never more than up to the time limit.
	 */
	limit_ends = (uint64_t)job->start_time + (uint64_t)job->time_limit * 60;
	if ((uint64_t)from >= limit_ends) {
		reserved_secs = 0;
	} else if (IS_JOB_FINISHED(job) || IS_JOB_COMPLETING(job) ||
		   IS_JOB_RESIZING(job)) {
		/* Requeued jobs may be pending + completing: the same. */
		reserved_secs = limit_ends - (uint64_t)from;
	} else if (to > job->end_time_exp) {
		int left = difftime(job->end_time_exp, from);

		if (left > 0)
			reserved_secs = (uint64_t)left;
	} else {
		reserved_secs = run;
	}
	if (at_end)
		job->end_time_exp = (time_t)NO_VAL;

	/* Usage spread evenly over [from, to], decayed to "to". */
	wall_decay = ts_charge_wall_memo(&wall_memo, run, decay);
	billable = billable_tres(job, from);
	used_decay = wall_decay * billable;
	used_nodecay = run * billable;
	wall_nodecay = run;

	qos = job->qos_ptr;
	if (qos && qos->usage_factor >= 0) {
		used_decay *= qos->usage_factor;
		wall_decay *= qos->usage_factor;
		used_nodecay *= qos->usage_factor;
		wall_nodecay *= qos->usage_factor;
		reserved_secs *= qos->usage_factor;
	}
	/*
	 * tres_secs, tres_decay and tres_nodecay are not zeroed first: only
	 * the moved entries are read (give_back()), and those are set here.
	 */
	moved.n = 0;
	if (job->tres_alloc_cnt) {
		for (i = 0; i < n; i++) {
			uint64_t cnt = job->tres_alloc_cnt[i];

			if (!cnt || cnt == NO_CONSUME_VAL64)
				continue;
			tres_secs[i] = reserved_secs * cnt;
			tres_decay[i] =
				(long double)wall_decay * (long double)cnt;
			tres_nodecay[i] =
				(long double)wall_nodecay * (long double)cnt;
			if (i != TRES_ARRAY_ENERGY)
				moved.idx[moved.n++] = i;
		}
	}

	/* clang-format off */
	log_flag(PRIO,
		 "%s: job %u ran %g s of [%ld, %ld], billable %f: adds %f (%f undecayed)",
		 plugin_type, job->job_id, run, (long)from, (long)to, billable,
		 used_decay, used_nodecay);
	/* clang-format on */

	if (qos)
		charge_qos(qos, wall_decay, wall_nodecay, used_decay,
			   used_nodecay, tres_decay, tres_nodecay, tres_secs,
			   &moved, job);
	/* The partition's QOS too, unless it is the job's (UsageFactor
	 * is the job QOS's only). */
	if (job->part_ptr && job->part_ptr->qos_ptr &&
	    job->part_ptr->qos_ptr != qos)
		charge_qos(job->part_ptr->qos_ptr, wall_decay, wall_nodecay,
			   used_decay, used_nodecay, tres_decay, tres_nodecay,
			   tres_secs, &moved, job);

	/* The association and every ancestor: the root's total is what
	 * usage is normalised against.  With usage windows, fair-share
	 * usage goes to the windows instead, undecayed (to usage_raw if
	 * a reconfigure stopped them meanwhile).  Consumed usage comes
	 * when the job has ended, not here. */
	if (consumed)
		raw = false;
	else
		raw = !windows || !charge_windows(job, used_nodecay, from,
						  from + (time_t)run);
	for (assoc = job->assoc_ptr; assoc;
	     assoc = assoc->usage->parent_assoc_ptr) {
		assoc->usage->grp_used_wall += wall_decay;
		if (raw)
			assoc->usage->usage_raw += (long double)used_decay;
		assoc_give_back(assoc, tres_decay, tres_secs, &moved,
				job->job_id);
	}
	/* Maui's usage per credential by half-life: what usage_raw got. */
	if (raw)
		usage_windows_cred_charge(cred_table_job_ids, job,
					  (long double)used_decay, to);
	return true;
}

/* Give back one job's used run seconds (list_for_each_ro() callback). */
static int give_back_job(void *x, void *arg)
{
	job_record_t *job = x;
	time_t last_ran = *(time_t *)arg;
	int i, n = tres_count();
	uint64_t tres_secs[n > 0 ? n : 1];
	int moved_idx[n > 0 ? n : 1];
	struct tres_moved moved = { .idx = moved_idx,
				    .limits = enforce_limits() };
	slurmdb_assoc_rec_t *assoc;
	double used = 1.0;

	if (job->end_time_exp == (time_t)NO_VAL || !IS_JOB_RUNNING(job) ||
	    job->start_time > last_ran || !job->tres_alloc_cnt)
		return 0;

	if (job->qos_ptr && job->qos_ptr->usage_factor >= 0)
		used = job->qos_ptr->usage_factor;
	used *= (double)(last_ran - job->start_time);
	memset(tres_secs, 0, sizeof(tres_secs));
	moved.n = 0;
	for (i = 0; i < n; i++) {
		if (job->tres_alloc_cnt[i] == NO_CONSUME_VAL64)
			continue;
		tres_secs[i] = job->tres_alloc_cnt[i] * used;
		if (tres_secs[i] && i != TRES_ARRAY_ENERGY)
			moved.idx[moved.n++] = i;
	}

	qos_give_back(job->qos_ptr, job, NULL, tres_secs, &moved);
	if (job->part_ptr && job->part_ptr->qos_ptr != job->qos_ptr)
		qos_give_back(job->part_ptr->qos_ptr, job, NULL, tres_secs,
			      &moved);
	for (assoc = job->assoc_ptr; assoc;
	     assoc = assoc->usage->parent_assoc_ptr)
		assoc_give_back(assoc, NULL, tres_secs, &moved, job->job_id);
	return 0;
}

void usage_give_back_run_secs(time_t last_ran)
{
	slurmctld_lock_t job_read = { .job = READ_LOCK };
	assoc_mgr_lock_t locks = USAGE_LOCKS;

	if (!(slurm_conf.accounting_storage_enforce &
	      ACCOUNTING_ENFORCE_LIMITS))
		return;
	lock_slurmctld(job_read);
	if (!job_list || !list_count(job_list)) {
		unlock_slurmctld(job_read);
		return;
	}
	log_flag(PRIO, "%s: giving back TRES run seconds used before %ld",
		 plugin_type, (long)last_ran);
	assoc_mgr_lock(&locks);
	(void)list_for_each_ro(job_list, give_back_job, &last_ran);
	assoc_mgr_unlock(&locks);
	unlock_slurmctld(job_read);
}
