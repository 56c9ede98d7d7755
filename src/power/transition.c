/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * transition.c - one request under the shared concurrency limit
 * (transition.h); seed 001's max_concurrent_nodes and
 * min_node_down_delay.
 *
 * Invariant: a node is counted against max_concurrent_nodes from the
 * moment its claim is saved (before any backend command starts) until
 * its result is saved (after the backend confirmed or gave up), so the
 * number of nodes any backend is acting on never exceeds the limit,
 * however many runs share the state file.
 * Edge cases: a state file found corrupt is moved aside (logged) and the
 * run continues from an empty state; a node whose ramp is already at its
 * end is done without a claim or a command.
 */
#include <stdlib.h>
#include <string.h>

#include "power/hostlist.h"
#include "power/state_file.h"
#include "power/transition.h"

/* Everything one run needs, passed around instead of ten arguments. */
struct run {
	const struct ts_power_config *cfg;
	const struct ts_power_backend *be;
	const struct ts_power_env *env;
	const struct ts_logger *lg;
	const struct ts_power_request *rq;
	enum ts_power_verdict *verdict;
	struct ts_error *err;
	const char *event;
	time_t stale_after;

	struct ts_power_store store;
	struct ts_power_state st;
	time_t now; /* read when the lock was taken */

	unsigned long *ticket;	  /* per request node */
	long *cur;		  /* ramps: current level per node */
	unsigned char *said_wait; /* "waiting" logged once per node */
};

/* Take the lock, load, repair; a corrupt file is moved aside. */
static int lock_state(struct run *r)
{
	struct ts_error e = TS_ERROR_INIT;
	int rc = ts_power_state_file_lock(&r->store, r->rq->state_path, &r->st,
					  &e);

	if (rc == TS_ECORRUPT) {
		ts_log(r->lg, TS_LOG_ERROR,
		       "node_power;state file %s is corrupt (%s); moved to %s.corrupt, starting from an empty state",
		       r->rq->state_path, e.msg, r->rq->state_path);
		ts_error_clear(&e);
		rc = ts_power_state_file_quarantine(&r->store, &e);
		if (rc != TS_OK)
			ts_power_state_file_unlock(&r->store);
	}
	if (rc != TS_OK)
		return ts_error_set(r->err, rc, -1, "%s", e.msg);
	r->now = r->env->now(r->env->ctx);
	ts_power_planner_repair(&r->st, r->env, r->now, r->stale_after, r->lg);
	return TS_OK;
}

static int save_unlock(struct run *r)
{
	struct ts_error e = TS_ERROR_INIT;
	int rc = ts_power_state_file_save(&r->store, &r->st, &e);

	ts_power_state_file_unlock(&r->store);
	if (rc != TS_OK)
		return ts_error_set(r->err, rc, -1, "%s", e.msg);
	return TS_OK;
}

/* Node i's record; added if the state was lost meanwhile. */
static struct ts_power_node *node_record(struct run *r, size_t i)
{
	long k = ts_power_state_get(&r->st, r->rq->nodes[i], r->err);

	return k < 0 ? NULL : &r->st.node[k];
}

static void log_refusals(struct run *r)
{
	size_t i;

	for (i = 0; i < r->rq->n; i++) {
		const char *why;

		switch (r->verdict[i]) {
		case TS_POWER_REFUSED_DISABLED:
			why = r->rq->op == TS_POWER_OP_OFF
				      ? "power_on_off_enable is False"
				      : "power_ramp_rate_enable is False";
			break;
		case TS_POWER_REFUSED_INELIGIBLE:
			why = "not in poweroff_eligible";
			break;
		case TS_POWER_REFUSED_BUSY:
			why = "slurmctld reports it allocated or mixed";
			break;
		case TS_POWER_REFUSED_UNSUPPORTED:
			why = "the backend has no sleep states";
			break;
		default:
			continue;
		}
		ts_log(r->lg, TS_LOG_ERROR, "%s;refused: %s: %s", r->event,
		       r->rq->nodes[i], why);
	}
}

/* Step 2: stamp every pending node with a new ticket. */
static int take_tickets(struct run *r)
{
	size_t i;
	int rc = lock_state(r);

	if (rc != TS_OK)
		return rc;
	for (i = 0; i < r->rq->n; i++) {
		struct ts_power_node *nd;

		if (r->verdict[i] != TS_POWER_PENDING)
			continue;
		nd = node_record(r, i);
		if (!nd) {
			ts_power_state_file_unlock(&r->store);
			return r->err ? r->err->code : TS_ENOMEM;
		}
		nd->want = r->rq->op;
		nd->ticket = r->st.next_ticket++;
		r->ticket[i] = nd->ticket;
	}
	return save_unlock(r);
}

/*
 * Decide about pending node i under the lock.  RET 1 if claimed; 0 if it
 * must wait (*wake lowered to when waiting may end), or its verdict was
 * set.
 */
static int try_claim(struct run *r, size_t i, size_t *in_flight, time_t *wake)
{
	const struct ts_power_request *rq = r->rq;
	struct ts_power_node *nd = node_record(r, i);
	time_t d;

	if (!nd)
		return -1;
	if (nd->ticket > r->ticket[i]) {
		r->verdict[i] = TS_POWER_SUPERSEDED;
		ts_log(r->lg, TS_LOG_INFO,
		       "%s;%s: dropped, a later %s request supersedes this one",
		       r->event, rq->nodes[i],
		       ts_power_state_op_name(nd->want));
		return 0;
	}
	if (nd->ticket < r->ticket[i]) { /* state was lost: re-stamp */
		nd->want = rq->op;
		nd->ticket = r->ticket[i];
	}
	if (nd->op != TS_POWER_OP_NONE)
		return 0; /* another run is busy with it */
	if (rq->op == TS_POWER_OP_RAMP_UP || rq->op == TS_POWER_OP_RAMP_DOWN) {
		if (ts_power_planner_next_limit(r->cfg, rq->op, nd->sleep) <
		    0) {
			r->verdict[i] = TS_POWER_DONE;
			if (rq->op == TS_POWER_OP_RAMP_UP)
				nd->used = r->now;
			return 0;
		}
	}
	if (rq->op == TS_POWER_OP_ON) {
		d = ts_power_planner_delay_end(r->cfg, nd);
		if (d > r->now && d > rq->deadline) {
			r->verdict[i] = TS_POWER_DELAYED;
			ts_log(r->lg, TS_LOG_ERROR,
			       "%s;%s: powered off at %lld, min_node_down_delay %ld s ends in %lld s, after the wait limit: not powering on",
			       r->event, rq->nodes[i], (long long)nd->off_at,
			       r->cfg->min_node_down_delay,
			       (long long)(d - r->now));
			return 0;
		}
		if (d > r->now) {
			if (!r->said_wait[i])
				ts_log(r->lg, TS_LOG_INFO,
				       "%s;%s: waiting %lld s for min_node_down_delay (%ld s)",
				       r->event, rq->nodes[i],
				       (long long)(d - r->now),
				       r->cfg->min_node_down_delay);
			r->said_wait[i] = 1;
			if (d < *wake)
				*wake = d;
			return 0;
		}
	}
	if (*in_flight >= (size_t)r->cfg->max_concurrent_nodes) {
		if (!r->said_wait[i])
			ts_log(r->lg, TS_LOG_INFO,
			       "%s;%s: waiting, max_concurrent_nodes (%ld) nodes are in transition",
			       r->event, rq->nodes[i],
			       r->cfg->max_concurrent_nodes);
		r->said_wait[i] = 1;
		return 0;
	}
	nd->op = rq->op;
	nd->owner = rq->owner;
	nd->since = r->now;
	r->cur[i] = nd->sleep;
	(*in_flight)++;
	return 1;
}

/* Record the batch's end under the lock; set verdicts. */
static int finish_batch(struct run *r, const size_t *batch, size_t m,
			const int *ok)
{
	size_t j;
	int rc = lock_state(r);

	if (rc != TS_OK)
		return rc;
	for (j = 0; j < m; j++) {
		size_t i = batch[j];
		struct ts_power_node *nd = node_record(r, i);

		if (!nd)
			break;
		r->verdict[i] = ok[j] ? TS_POWER_DONE : TS_POWER_FAILED;
		if (nd->owner == r->rq->owner) {
			nd->op = TS_POWER_OP_NONE;
			nd->owner = 0;
			nd->since = 0;
		}
		switch (r->rq->op) {
		case TS_POWER_OP_ON:
		case TS_POWER_OP_OFF:
			if (!ok[j]) {
				nd->power = TS_POWER_UNKNOWN;
				break;
			}
			nd->power = r->rq->op == TS_POWER_OP_ON ? TS_POWER_ON
								: TS_POWER_OFF;
			nd->off_at = r->rq->op == TS_POWER_OP_OFF ? r->now : 0;
			nd->changed = r->now;
			break;
		case TS_POWER_OP_RAMP_UP:
			if (ok[j])
				nd->used = r->now;
			break;
		default:
			break;
		}
	}
	return save_unlock(r);
}

/* Log a backend failure once for the nodes it hit. */
static void log_failure(struct run *r, const size_t *batch, size_t m,
			const int *ok, const struct ts_error *e)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	char *list;
	size_t j;

	for (j = 0; j < m; j++)
		if (!ok[j])
			ts_hostlist_add(&hl, r->rq->nodes[batch[j]], NULL);
	list = ts_hostlist_ranged(&hl, NULL);
	ts_log(r->lg, TS_LOG_ERROR, "%s;failed: %s: %s", r->event,
	       list ? list : "?", e->msg[0] ? e->msg : ts_strerror(e->code));
	free(list);
	ts_hostlist_free(&hl);
}

static int run_power(struct run *r, const size_t *batch, size_t m,
		     const char **names, int *ok)
{
	struct ts_error e = TS_ERROR_INIT;
	size_t j;
	int rc;

	if (r->rq->op == TS_POWER_OP_ON)
		rc = r->be->power_on(r->be->ctx, names, m, ok, &e);
	else
		rc = r->be->power_off(r->be->ctx, names, m, ok, &e);
	if (rc == TS_OK)
		for (j = 0; j < m; j++)
			ok[j] = 1;
	else
		log_failure(r, batch, m, ok, &e);
	return finish_batch(r, batch, m, ok);
}

/* Record the levels reached by one ramp step under the lock. */
static int record_step(struct run *r, const size_t *batch, size_t m,
		       const int *stepped, long limit)
{
	size_t j;
	int rc = lock_state(r);

	if (rc != TS_OK)
		return rc;
	for (j = 0; j < m; j++) {
		struct ts_power_node *nd;

		if (!stepped[j])
			continue;
		nd = node_record(r, batch[j]);
		if (!nd)
			break;
		nd->sleep = limit;
		nd->changed = r->now;
	}
	return save_unlock(r);
}

/*
 * Ramp a batch of m nodes in lockstep, one sleep-state level per step,
 * recording each step, until no node has a next level.  OUT ok[j] 0 for
 * a node whose step failed (it stops there).  RET TS_OK, TS_ENOMEM or
 * the state store's error.
 */
static int run_ramp(struct run *r, const size_t *batch, size_t m,
		    const char **names, int *ok)
{
	int *stepped = calloc(m, sizeof(*stepped));
	int *step_ok = calloc(m, sizeof(*step_ok));
	const char **sub = calloc(m, sizeof(*sub));
	int first = 1, rc = TS_OK;
	size_t j;

	if (!stepped || !step_ok || !sub) {
		rc = ts_error_set(r->err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	for (j = 0; j < m; j++)
		ok[j] = 1;
	for (;;) {
		struct ts_error e = TS_ERROR_INIT;
		long limit = -1;
		size_t k = 0;

		/* Lockstep: the lowest next level down, the highest up. */
		for (j = 0; j < m; j++) {
			long nx = ok[j] ? ts_power_planner_next_limit(
						  r->cfg, r->rq->op,
						  r->cur[batch[j]])
					: -1;

			if (nx < 0)
				continue;
			if (limit < 0 ||
			    (r->rq->op == TS_POWER_OP_RAMP_DOWN ? nx < limit
								: nx > limit))
				limit = nx;
		}
		if (limit < 0)
			break;
		for (j = 0; j < m; j++) {
			stepped[j] =
				ok[j] && ts_power_planner_next_limit(
						 r->cfg, r->rq->op,
						 r->cur[batch[j]]) == limit;
			if (stepped[j])
				sub[k++] = names[j];
		}
		if (!first)
			r->env->sleep_ms(
				r->env->ctx,
				(unsigned long)r->cfg->sleep_state_pause *
					1000UL);
		first = 0;
		if (r->be->set_sleep_limit(r->be->ctx, sub, k, limit,
					   (int)r->rq->op, step_ok,
					   &e) == TS_OK)
			for (j = 0; j < k; j++)
				step_ok[j] = 1;
		/* step_ok is indexed like sub: map back. */
		for (j = 0, k = 0; j < m; j++) {
			if (!stepped[j])
				continue;
			if (step_ok[k++])
				r->cur[batch[j]] = limit;
			else
				ok[j] = stepped[j] = 0;
		}
		if (e.code != TS_OK)
			log_failure(r, batch, m, ok, &e);
		rc = record_step(r, batch, m, stepped, limit);
		if (rc != TS_OK)
			goto out;
	}
	rc = finish_batch(r, batch, m, ok);
out:
	free(stepped);
	free(step_ok);
	free(sub);
	return rc;
}

/* Step 3: claim, act, record, until nothing is pending. */
static int work(struct run *r)
{
	const struct ts_power_request *rq = r->rq;
	size_t *batch = calloc(rq->n, sizeof(*batch));
	const char **names = calloc(rq->n, sizeof(*names));
	int *ok = calloc(rq->n, sizeof(*ok));
	int rc = TS_OK;

	if (!batch || !names || !ok) {
		rc = ts_error_set(r->err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	for (;;) {
		size_t i, m = 0, pending = 0, in_flight;
		time_t wake = rq->deadline;

		rc = lock_state(r);
		if (rc != TS_OK)
			goto out;
		in_flight = ts_power_state_claims(&r->st);
		for (i = 0; i < rq->n; i++) {
			int c;

			if (r->verdict[i] != TS_POWER_PENDING)
				continue;
			c = try_claim(r, i, &in_flight, &wake);
			if (c < 0) {
				ts_power_state_file_unlock(&r->store);
				rc = r->err ? r->err->code : TS_ENOMEM;
				goto out;
			}
			if (c) {
				batch[m] = i;
				names[m++] = rq->nodes[i];
			} else if (r->verdict[i] == TS_POWER_PENDING) {
				pending++;
			}
		}
		rc = save_unlock(r);
		if (rc != TS_OK)
			goto out;
		if (m) {
			memset(ok, 0, rq->n * sizeof(*ok));
			if (rq->op == TS_POWER_OP_ON ||
			    rq->op == TS_POWER_OP_OFF)
				rc = run_power(r, batch, m, names, ok);
			else
				rc = run_ramp(r, batch, m, names, ok);
			if (rc != TS_OK)
				goto out;
			continue;
		}
		if (!pending)
			break;
		if (r->now >= rq->deadline) {
			for (i = 0; i < rq->n; i++) {
				if (r->verdict[i] != TS_POWER_PENDING)
					continue;
				r->verdict[i] = TS_POWER_NO_SLOT;
				ts_log(r->lg, TS_LOG_ERROR,
				       "%s;%s: gave up at the wait limit, max_concurrent_nodes (%ld) nodes still in transition",
				       r->event, rq->nodes[i],
				       r->cfg->max_concurrent_nodes);
			}
			break;
		}
		/* Sleep one poll, or less if a delay ends sooner. */
		{
			unsigned long ms = TS_POWER_SLOT_POLL_MS;

			if (wake > r->now &&
			    (unsigned long)(wake - r->now) * 1000UL < ms)
				ms = (unsigned long)(wake - r->now) * 1000UL;
			r->env->sleep_ms(r->env->ctx, ms);
		}
	}
out:
	free(batch);
	free(names);
	free(ok);
	return rc;
}

int ts_power_transition(const struct ts_power_config *cfg,
			const struct ts_power_backend *be,
			const struct ts_power_env *env,
			const struct ts_logger *lg,
			const struct ts_power_request *rq,
			enum ts_power_verdict *verdict, struct ts_error *err)
{
	struct run r = { 0 };
	const struct ts_power_store store = TS_POWER_STORE_INIT;
	const struct ts_power_state st = TS_POWER_STATE_INIT;
	size_t i, pending = 0;
	int rc = TS_OK;

	r.cfg = cfg;
	r.be = be;
	r.env = env;
	r.lg = lg;
	r.rq = rq;
	r.verdict = verdict;
	r.err = err;
	r.event = ts_power_planner_op_event(rq->op);
	r.stale_after = ts_power_planner_stale_after(cfg);
	r.store = store;
	r.st = st;

	for (i = 0; i < rq->n; i++) {
		verdict[i] = ts_power_planner_refusal(
			cfg, rq->op, rq->nodes[i], rq->busy ? rq->busy[i] : 0,
			be->set_sleep_limit != NULL);
		pending += verdict[i] == TS_POWER_PENDING;
	}
	log_refusals(&r);
	if (!pending)
		return TS_OK;

	r.ticket = calloc(rq->n, sizeof(*r.ticket));
	r.cur = calloc(rq->n, sizeof(*r.cur));
	r.said_wait = calloc(rq->n, sizeof(*r.said_wait));
	if (!r.ticket || !r.cur || !r.said_wait)
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	if (rc == TS_OK)
		rc = take_tickets(&r);
	if (rc == TS_OK)
		rc = work(&r);
	ts_power_state_file_unlock(&r.store);
	ts_power_state_free(&r.st);
	free(r.ticket);
	free(r.cur);
	free(r.said_wait);
	return rc;
}
