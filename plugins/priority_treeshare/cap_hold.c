/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cap_hold.c - feasibility caps held in slurmctld (see cap_hold.h).
 */
#include "slurmctld_api.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/caps.h"
#include "src/id_map.h"
#include "src/job_set.h"

#include "cap_hold.h"
#include "cred_table.h"
#include "job_prio.h"

#define REASON_MAX   160		 /* "FairshareCap:" + names + figures */
#define FREE_IDS_MAX (UINT32_C(1) << 26) /* 8 MiB of bits at most */

/*
 * Association id -> reason its jobs may not start: texts[v - 1] for
 * value v, none for 0.
 */
struct cap_table {
	struct ts_id_map reason; /* size 0: no caps configured */
	char (*texts)[REASON_MAX];
	/*
	 * A bit per association id below n_free_ids: set when the table
	 * holds it with no reason.  Most jobs' associations are under
	 * every cap: one load tells so, without the hash lookup.
	 */
	uint64_t *free_ids;
	uint32_t n_free_ids;
	size_t n_capped; /* associations over their own cap */
};

/* live: read under the assoc read lock; staged: the cycle thread's. */
static struct cap_table live, staged;

/*
 * cap_mutex guards the sets against readers outside the job write lock;
 * writers also hold the job write lock (priority_p_set(), the pass).
 */
static pthread_mutex_t cap_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct ts_job_set held, exempt;
static bool adopted; /* a pass has looked for holds in the job records */

static void table_free(struct cap_table *t)
{
	ts_id_map_free(&t->reason);
	free(t->texts);
	free(t->free_ids);
	memset(t, 0, sizeof(*t));
}

/*
 * Each association's own cap, by id, for the targets of one serial
 * (ts_targets_serial()): the name look-ups of ts_caps_own() are made
 * once an association, not once a cycle.  An association keeps its
 * user and account for life, so its own cap changes only with the
 * targets.  The cycle thread's alone.
 */
static struct own_memo {
	uint64_t serial;
	struct ts_id_map node; /* id -> its index in cap */
	const struct ts_fscap **cap;
} memo;

static void memo_free(struct own_memo *m)
{
	ts_id_map_free(&m->node);
	free(m->cap);
	memset(m, 0, sizeof(*m));
}

/* own[i] = node i's own cap; the memo then holds the tree's ids. */
static void own_caps(const struct ts_targets *tg, const struct ts_tree *t,
		     const struct ts_fscap **own)
{
	struct own_memo nm = { .serial = ts_targets_serial(tg) };
	struct ts_error err = TS_ERROR_INIT;
	bool reuse = memo.node.size && memo.serial == nm.serial, keep;
	size_t i;

	keep = !ts_id_map_reserve(&nm.node, t->n, &err);
	if (keep) {
		nm.cap = malloc(t->n * sizeof(*nm.cap));
		keep = nm.cap != NULL;
	}
	for (i = 0; i < t->n; i++) {
		uint32_t id = t->id[i];
		long m;

		if (reuse && id && (m = ts_id_map_find(&memo.node, id)) >= 0)
			own[i] = memo.cap[m];
		else
			own[i] = ts_caps_own(tg, t, i);
		if (id && keep &&
		    (m = ts_id_map_insert(&nm.node, id, (uint32_t)i)) >= 0)
			nm.cap[m] = own[i];
	}
	memo_free(&memo);
	if (keep)
		memo = nm;
	else
		memo_free(&nm); /* no memory: look up again next cycle */
}

/* The bits of the table's ids without a reason (none if no memory). */
static void free_ids_build(struct cap_table *nt, const struct ts_tree *t)
{
	uint32_t max = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->id[i] > max && t->id[i] < FREE_IDS_MAX)
			max = t->id[i];
	nt->free_ids = calloc(max / 64 + 1, sizeof(*nt->free_ids));
	if (!nt->free_ids)
		return;
	nt->n_free_ids = max + 1;
	for (i = 0; i < t->n; i++) {
		uint32_t id = t->id[i];

		if (id && id <= max && !ts_id_map_find(&nt->reason, id))
			nt->free_ids[id / 64] |= UINT64_C(1) << (id % 64);
	}
}

int cap_table_build(const struct ts_tree *t, const struct priority_conf *c)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t i, n_texts = 0;
	long *by = NULL, *text_of = NULL;
	const struct ts_fscap **own = NULL;
	struct cap_table nt = { 0 };

	table_free(&staged);
	if (!c->targets || !ts_targets_tree_fscap_count(c->targets) || !t->n)
		return 0;
	by = malloc(t->n * sizeof(*by));
	text_of = malloc(t->n * sizeof(*text_of));
	own = malloc(t->n * sizeof(*own));
	if (!by || !text_of || !own ||
	    ts_id_map_reserve(&nt.reason, t->n, &err))
		goto nomem;
	own_caps(c->targets, t, own);
	(void)ts_caps_evaluate_own(t, own, by);
	for (i = 0; i < t->n; i++)
		text_of[i] = by[i] == (long)i ? (long)n_texts++ : -1;
	nt.texts = malloc((n_texts ? n_texts : 1) * sizeof(*nt.texts));
	if (!nt.texts)
		goto nomem;
	for (i = 0; i < t->n; i++) {
		if (text_of[i] >= 0)
			ts_caps_describe(c->targets, t, i, nt.texts[text_of[i]],
					 REASON_MAX);
		if (t->id[i])
			(void)ts_id_map_insert(
				&nt.reason, t->id[i],
				by[i] == TS_NO_NODE
					? 0
					: (uint32_t)text_of[by[i]] + 1);
	}
	free_ids_build(&nt, t);
	nt.n_capped = n_texts;
	log_flag(PRIO, "%s: fscap: %zu of %zu associations over their cap",
		 plugin_type, n_texts, t->n);
	free(by);
	free(text_of);
	free(own);
	staged = nt;
	return 0;
nomem:
	error("%s: fscap: no memory for %zu associations; last caps kept",
	      plugin_type, t->n);
	free(by);
	free(text_of);
	free(own);
	table_free(&nt);
	return -1;
}

void cap_table_publish(void)
{
	struct cap_table old = live;

	live = staged;
	staged = old; /* freed at the next build */
}

void cap_table_drop(void)
{
	table_free(&live);
}

/*
 * Association a is in the table under every cap (no lookup, no walk).
 * False for one the table does not know: reason_of() decides then.
 */
static inline bool assoc_free(const slurmdb_assoc_rec_t *a)
{
	return a && a->id < live.n_free_ids &&
	       (live.free_ids[a->id / 64] >> (a->id % 64) & 1);
}

/*
 * The reason the jobs of association a may not start, or NULL.  An
 * association added since the cycle is looked up by its nearest
 * ancestor in the table.  Assoc read lock held; allocates nothing.
 */
static const char *reason_of(const slurmdb_assoc_rec_t *a)
{
	if (!live.reason.size || assoc_free(a))
		return NULL;
	for (; a; a = a->usage ? a->usage->parent_assoc_ptr : NULL) {
		long v = ts_id_map_find(&live.reason, a->id);

		if (v >= 0)
			return v ? live.texts[v - 1] : NULL;
	}
	return NULL;
}

/*
 * The reason one job record may not start: its association's (the
 * tree's caps), else one of its credentials' (cred_table.h), written
 * into buf[REASON_MAX].  Assoc read lock held.
 */
static const char *record_reason(const job_record_t *job, char *buf)
{
	const char *reason = reason_of(job->assoc_ptr);

	return reason ? reason : cred_table_cap_reason(job, buf, REASON_MAX);
}

struct het_reason {
	const char *reason;
	char *buf;
};

/* list_for_each_ro() callback: the first component's cap reason. */
static int component_reason(void *x, void *arg)
{
	struct het_reason *hr = arg;

	hr->reason = record_reason(x, hr->buf);
	return hr->reason ? -1 : 0;
}

/*
 * The reason job may not start (buf[REASON_MAX] for a credential's):
 * its own (record_reason()), or for a component of a het job the first
 * capped component's.  Slurm starts a het job's
 * components together, so one capped component keeps all waiting; held
 * alone, the others would keep their priority and the main scheduler,
 * trying them first, would leave lower jobs of the partition pending
 * (reason Priority).  Job lock held (het_job_list); the components are
 * linked only after submission, so the first cycle or set pass after it
 * holds them.
 */
static const char *job_reason(const job_record_t *job, char *buf)
{
	struct het_reason hr = { record_reason(job, buf), buf };
	const job_record_t *leader = job;

	if (hr.reason || !job->het_job_id)
		return hr.reason;
	if (job->het_job_id != job->job_id)
		leader = &find_job_record ? find_job_record(job->het_job_id)
					  : NULL;
	if (leader && leader->het_job_list)
		(void)list_for_each_ro(leader->het_job_list, component_reason,
				       &hr);
	return hr.reason;
}

static struct ts_job_key job_key(const job_record_t *job)
{
	struct ts_job_key k = {
		job->array_job_id ? job->array_job_id : job->job_id,
		job->details ? (int64_t)job->details->submit_time : 0,
	};

	return k;
}

/* A hold this plugin wrote, found in a job record (after a restart). */
static bool cap_held_record(const job_record_t *job)
{
	return job->priority == 0 && !job->direct_set_prio &&
	       job->state_reason == WAIT_HELD && job->state_desc &&
	       !strncmp(job->state_desc, TS_CAPS_REASON_PREFIX,
			strlen(TS_CAPS_REASON_PREFIX));
}

/* Hold job with reason, or refresh a hold whose text Slurm dropped. */
static void hold(job_record_t *job, const char *reason, bool was_held)
{
	if (job->priority == 0 && job->state_reason == WAIT_HELD &&
	    job->state_desc && !strcmp(job->state_desc, reason))
		return;
	job->priority = 0;
	job->state_reason = WAIT_HELD;
	xfree(job->state_desc);
	job->state_desc = xstrdup(reason);
	if (!was_held)
		info("%s: %pJ held: %s", plugin_type, job, reason);
	last_job_update = time(NULL);
}

static bool held_key_add(struct ts_job_set *s, struct ts_job_key k)
{
	struct ts_error err = TS_ERROR_INIT;

	if (!ts_job_set_add(s, k, &err))
		return true;
	error("%s: fscap: %s", plugin_type, err.msg);
	return false;
}

/*
 * cap_hold_at_set() while an fscap is in force; a function apart, so
 * that the usual call (none in force) costs no more than its test.
 */
static __attribute__((noinline)) bool hold_at_set(job_record_t *job)
{
	char buf[REASON_MAX];
	struct ts_job_key k;
	const char *reason;
	bool now_held = false;

	/* Not held, and nothing to hold: no lock, no set lookup. */
	if ((job->priority || job->direct_set_prio ||
	     job->state_reason != WAIT_HELD) &&
	    (!IS_JOB_PENDING(job) || (job->direct_set_prio && job->priority) ||
	     !job_reason(job, buf)))
		return false;
	k = job_key(job);
	slurm_mutex_lock(&cap_mutex);
	if (job->priority == 0 && !job->direct_set_prio &&
	    job->state_reason == WAIT_HELD && ts_job_set_has(&held, k)) {
		/* Only an operator's scontrol release gets here. */
		(void)ts_job_set_remove(&held, k);
		if (held_key_add(&exempt, k))
			info("%s: %pJ released by an operator: exempt from fscap until it starts",
			     plugin_type, job);
	} else if (IS_JOB_PENDING(job) &&
		   !(job->direct_set_prio && job->priority > 0) &&
		   !ts_job_set_has(&exempt, k) &&
		   (reason = job_reason(job, buf)) && held_key_add(&held, k)) {
		hold(job, reason, false);
		now_held = true;
	}
	slurm_mutex_unlock(&cap_mutex);
	return now_held;
}

bool cap_hold_at_set(job_record_t *job)
{
	/*
	 * No fscap in force (the caller holds the association lock that
	 * guards live): nothing to hold, and a job held before is released
	 * by the next pass, so an operator's release needs no exemption.
	 * Every job's priority is set here: no lock, no lookup.
	 */
	bool creds = cred_table_capped();

	if (!live.reason.size && !creds)
		return false;
	/*
	 * Most jobs, with caps in force: not held (a priority), and of an
	 * association under every cap, no credential capped (a het job's
	 * components are looked at together, in hold_at_set()).
	 */
	if (job->priority && !job->het_job_id && !creds &&
	    assoc_free(job->assoc_ptr))
		return false;
	return hold_at_set(job);
}

/* One cap pass's state, carried through list_for_each_ro(). */
struct cap_pass {
	const struct priority_conf *c;
	struct ts_prio_config p;
	time_t now;
	bool creds; /* a credential is capped (cred_table.h) */
	struct ts_job_set held, exempt; /* rebuilt from the jobs */
	size_t n_held, n_released;
};

/* Give job its priority back; why: the log's reason. */
static void release(struct cap_pass *cp, job_record_t *job, const char *why)
{
	struct fs_memo memo = { 0 };
	uint32_t prio;

	job->state_reason = WAIT_NO_REASON;
	xfree(job->state_desc);
	prio = job_prio_compute(cp->c, &cp->p, job, cp->now, &memo);
	job->priority = prio ? prio : 1;
	last_job_update = cp->now;
	cp->n_released++;
	info("%s: %pJ released: %s", plugin_type, job, why);
}

/*
 * One job of the pass (list_for_each_ro() callback): only pending jobs;
 * an exempt one stays exempt (and loses a hold of ours it still carries:
 * an array's other records after an operator released one task); one of
 * ours (held set, or our text in its
 * record) is refreshed or released; any other pending job with a
 * priority of its own is held when its association is capped.
 */
static int cap_pass_job(void *x, void *arg)
{
	struct cap_pass *cp = arg;
	job_record_t *job = x;
	char buf[REASON_MAX];
	struct ts_job_key k;
	const char *reason;
	bool mine;

	if (!IS_JOB_PENDING(job) || IS_JOB_COMPLETING(job))
		return 0;
	/* Most jobs: a priority (no hold of ours), under every cap. */
	if (job->priority && !exempt.n && !job->het_job_id && !cp->creds &&
	    assoc_free(job->assoc_ptr))
		return 0;
	k = job_key(job);
	if (!k.id)
		return 0;
	if (exempt.n && ts_job_set_has(&exempt, k)) {
		(void)held_key_add(&cp->exempt, k);
		/*
		 * An array shares one key: an operator released one task,
		 * and the array's pending record (or another task split out
		 * of it) still carries our hold.  Exempt too: released.
		 */
		if (cap_held_record(job))
			release(cp, job,
				"exempt from fscap: an operator released a task of its array");
		return 0;
	}
	reason = job_reason(job, buf);
	/* Most jobs: a priority (so no hold of ours) and no cap. */
	if (!reason && job->priority)
		return 0;
	mine = ts_job_set_has(&held, k) || cap_held_record(job);
	if (mine && job->priority == 0 && !job->direct_set_prio &&
	    job->state_reason != WAIT_HELD_USER) {
		if (!reason) {
			release(cp, job, "no longer over a fair-share cap");
		} else if (held_key_add(&cp->held, k)) {
			hold(job, reason, true);
			cp->n_held++;
		}
		return 0;
	}
	/* Someone else's hold, or an operator-set priority: theirs. */
	if (job->priority == 0 || job->direct_set_prio || !reason)
		return 0;
	if (held_key_add(&cp->held, k)) {
		hold(job, reason, false);
		cp->n_held++;
	}
	return 0;
}

void cap_hold_pass(const struct priority_conf *c)
{
	slurmctld_lock_t job_write = { .job = WRITE_LOCK,
				       .node = READ_LOCK,
				       .part = READ_LOCK };
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };
	struct cap_pass cp = { .c = c, .p = conf_prio_now(c) };
	struct ts_job_set old_held, old_exempt;
	size_t n_exempt;

	/* Nothing capped, no job held or exempt, none to adopt. */
	if (!live.n_capped && !cred_table_capped() && !held.n && !exempt.n &&
	    adopted)
		return;
	if (!job_list)
		return;
	lock_slurmctld(job_write);
	assoc_mgr_lock(&read);
	cp.now = time(NULL);
	cp.creds = cred_table_capped();
	(void)list_for_each_ro(job_list, cap_pass_job, &cp);
	assoc_mgr_unlock(&read);
	n_exempt = cp.exempt.n;
	slurm_mutex_lock(&cap_mutex);
	old_held = held;
	old_exempt = exempt;
	held = cp.held;
	exempt = cp.exempt;
	adopted = true;
	slurm_mutex_unlock(&cap_mutex);
	unlock_slurmctld(job_write);
	ts_job_set_free(&old_held);
	ts_job_set_free(&old_exempt);
	if (cp.n_released && &queue_job_scheduler)
		queue_job_scheduler();
	log_flag(PRIO, "%s: fscap: %zu jobs held, %zu released, %zu exempt",
		 plugin_type, cp.n_held, cp.n_released, n_exempt);
}

int cap_hold_watch_interval(void)
{
	const char *tok = xstrstr(slurm_conf.authinfo, "cred_expire=");
	int expire = tok ? atoi(tok + strlen("cred_expire=")) : 0;

	if (!live.n_capped && !cred_table_capped())
		return 0;
	if (expire < 5) /* Slurm's rule: unset or invalid is 120 s */
		expire = 120;
	return expire / 2;
}

int cap_hold_keys(struct ts_usage_state *s, struct ts_error *err)
{
	int rc;

	slurm_mutex_lock(&cap_mutex);
	rc = ts_usage_state_keys(&s->held, &held, err);
	if (!rc)
		rc = ts_usage_state_keys(&s->exempt, &exempt, err);
	slurm_mutex_unlock(&cap_mutex);
	return rc;
}

static void restore_keys(struct ts_job_set *set, const struct ts_job_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		(void)held_key_add(set, k->key[i]);
}

void cap_hold_restore(const struct ts_usage_state *u, const char *file,
		      const char *suffix)
{
	if (!u->held.n && !u->exempt.n)
		return;
	slurm_mutex_lock(&cap_mutex);
	restore_keys(&held, &u->held);
	restore_keys(&exempt, &u->exempt);
	slurm_mutex_unlock(&cap_mutex);
	/* clang-format off */
	info("%s: fscap: %zu cap-held and %zu operator-released jobs restored from %s%s; the first cycle keeps those still pending",
	     plugin_type, u->held.n, u->exempt.n, file, suffix);
	/* clang-format on */
}

void cap_hold_counts(size_t *n_held, size_t *n_exempt)
{
	slurm_mutex_lock(&cap_mutex);
	*n_held = held.n;
	*n_exempt = exempt.n;
	slurm_mutex_unlock(&cap_mutex);
}

void cap_hold_fini(void)
{
	slurm_mutex_lock(&cap_mutex);
	ts_job_set_free(&held);
	ts_job_set_free(&exempt);
	adopted = false;
	slurm_mutex_unlock(&cap_mutex);
	table_free(&live);
	table_free(&staged);
	memo_free(&memo);
}
