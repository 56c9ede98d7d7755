/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay.c - an accounting history through the plugin's cycle (replay.h). */
#include <stdlib.h>
#include <string.h>

#include "consumed.h"
#include "replay.h"
#include "usage_charge.h"

/* ----------------------------------------------------- association index */

static int by_account_user(const void *a, const void *b, void *arg)
{
	const struct ts_tree *t = arg;
	long x = *(const long *)a, y = *(const long *)b;
	int r = strcmp(ts_tree_name(t, (size_t)t->parent[x]),
		       ts_tree_name(t, (size_t)t->parent[y]));

	if (!r)
		r = strcmp(ts_tree_name(t, (size_t)x),
			   ts_tree_name(t, (size_t)y));
	return r ? r : (x > y) - (x < y);
}

int ts_assoc_index_build(struct ts_assoc_index *ix, const struct ts_tree *t,
			 struct ts_error *err)
{
	size_t i;

	memset(ix, 0, sizeof(*ix));
	ix->t = t;
	ix->node = malloc((t->n ? t->n : 1) * sizeof(*ix->node));
	if (!ix->node)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	for (i = 1; i < t->n; i++)
		if (t->is_user[i])
			ix->node[ix->n++] = (long)i;
	qsort_r(ix->node, ix->n, sizeof(*ix->node), by_account_user, (void *)t);
	return TS_OK;
}

long ts_assoc_index_find(const struct ts_assoc_index *ix, const char *user,
			 const char *account)
{
	const struct ts_tree *t = ix->t;
	size_t lo = 0, hi = ix->n;

	/* The first entry not below (account, user). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		long k = ix->node[mid];
		int r = strcmp(ts_tree_name(t, (size_t)t->parent[k]), account);

		if (!r)
			r = strcmp(ts_tree_name(t, (size_t)k), user);
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ix->n) {
		long k = ix->node[lo];

		if (!strcmp(ts_tree_name(t, (size_t)t->parent[k]), account) &&
		    !strcmp(ts_tree_name(t, (size_t)k), user))
			return k;
	}
	return TS_NO_NODE;
}

void ts_assoc_index_free(struct ts_assoc_index *ix)
{
	free(ix->node);
	memset(ix, 0, sizeof(*ix));
}

/* ------------------------------------------------------------- the run */

struct ts_replay {
	const struct ts_tree *src;
	struct ts_tree view; /* src with usage[] ours, or own */
	struct ts_tree own;  /* a copy whose shares change (changes) */
	size_t next_change;
	const struct ts_sacct_job *job;
	size_t n;
	const struct ts_replay_conf *c;
	struct ts_fs fs;
	size_t *by_start, *by_end, *act;
	size_t n_started; /* by_start and by_end hold the jobs that ran */
	size_t n_act, next, next_end;
	int64_t ran, last, last_reset, next_reset;
	struct ts_replay_stats st;
};

static int cmp_start(const void *a, const void *b, void *arg)
{
	const struct ts_sacct_job *j = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (j[x].start != j[y].start)
		return j[x].start < j[y].start ? -1 : 1;
	return (x > y) - (x < y);
}

static int cmp_end(const void *a, const void *b, void *arg)
{
	const struct ts_sacct_job *j = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (j[x].end != j[y].end)
		return j[x].end < j[y].end ? -1 : 1;
	return (x > y) - (x < y);
}

/* used to the job's association and every ancestor. */
static void charge_chain(struct ts_replay *r, long node, double used)
{
	for (; node >= 0; node = r->src->parent[node])
		r->view.usage[node] += (long double)used;
}

/* A job's dedicated usage of [ran, to], as usage_charge_job(). */
static void replay_charge(struct ts_replay *r, const struct ts_sacct_job *j,
			  int64_t ran, int64_t to, bool at_end)
{
	time_t from;
	double run = ts_charge_run((time_t)j->start, (time_t)j->end, at_end,
				   (time_t)ran, (time_t)to, &from);

	charge_chain(r, j->node, ts_charge_wall(run, r->c->decay) * j->billing);
}

static int compute(struct ts_replay *r, struct ts_error *err)
{
	return ts_fs_compute_pbs(&r->view, &r->c->fs,
				 r->c->fs.algo == TS_FS_PBS, &r->fs, err);
}

/* The run's inputs as ts_replay_open() documents them, or TS_EINVAL. */
static int check(const struct ts_tree *t, const struct ts_sacct_job *jobs,
		 size_t n, const struct ts_replay_conf *c, struct ts_error *err)
{
	size_t i;

	if (!t->finished || !t->n)
		return ts_error_set(err, TS_EINVAL, -1, "tree not finished");
	if (!c->period)
		return ts_error_set(err, TS_EINVAL, -1,
				    "PriorityCalcPeriod must be above 0");
	if (c->end < c->start)
		return ts_error_set(err, TS_EINVAL, -1,
				    "the replay ends before it starts");
	if (!(c->decay > 0 && c->decay <= 1))
		return ts_error_set(err, TS_EINVAL, -1,
				    "decay per second not in (0, 1]");
	if (c->cycles && (c->n_cycles < 2 || c->cycles[0] != c->start ||
			  c->cycles[c->n_cycles - 1] != c->end))
		return ts_error_set(
			err, TS_EINVAL, -1,
			"cycle times: at least 2, the first at start, the last at end");
	for (i = 1; c->cycles && i < c->n_cycles; i++)
		if (c->cycles[i] <= c->cycles[i - 1])
			return ts_error_set(
				err, TS_EINVAL, (long)i + 1,
				"cycle time %zu (%lld) is not after the one before",
				i + 1, (long long)c->cycles[i]);
	for (i = 0; i < c->n_changes; i++)
		if (c->changes[i].node < 0 ||
		    (size_t)c->changes[i].node >= t->n ||
		    (i && c->changes[i].time < c->changes[i - 1].time))
			return ts_error_set(
				err, TS_EINVAL, c->changes[i].line,
				"line %ld: a share change out of the tree or of time order",
				c->changes[i].line);
	for (i = 0; i < n; i++)
		if (jobs[i].node < 0 || (size_t)jobs[i].node >= t->n)
			return ts_error_set(
				err, TS_EINVAL, jobs[i].line,
				"line %ld: node %ld not in the tree",
				jobs[i].line, jobs[i].node);
	return TS_OK;
}

void ts_replay_close(struct ts_replay *r, struct ts_replay_stats *stats)
{
	if (!r)
		return;
	if (stats)
		*stats = r->st;
	if (r->own.n)
		ts_tree_free(&r->own);
	else
		free(r->view.usage);
	free(r->by_start);
	free(r->by_end);
	free(r->act);
	ts_fs_free(&r->fs);
	free(r);
}

/* 1 and 4 of one cycle: end charges, then (after the decay) running. */
static void end_charges(struct ts_replay *r, int64_t ran, int64_t t)
{
	size_t i, k = 0;

	for (i = 0; i < r->n_act; i++) {
		const struct ts_sacct_job *j = &r->job[r->act[i]];

		if (j->end && j->end <= t) {
			if (!r->c->consumed && r->c->charge_at_end)
				replay_charge(r, j, ran, j->end, true);
			continue;
		}
		r->act[k++] = r->act[i];
	}
	r->n_act = k;
}

static void decay_all(struct ts_replay *r, int64_t secs)
{
	double f = ts_decay_over(r->c->decay, (double)secs);
	size_t i;

	if (f == 1)
		return;
	for (i = 0; i < r->view.n; i++)
		r->view.usage[i] *= f;
}

/*
 * The plugin's maybe_reset(): is PriorityUsageResetPeriod's reset due at
 * the cycle at now (done cycles before it)?  NOW resets at the first.
 */
static bool reset_due(enum ts_reset_period period, size_t done,
		      int64_t *last_reset, int64_t *next, int64_t now)
{
	if (period == TS_RESET_NOW)
		return !done;
	if (period == TS_RESET_NONE)
		return false;
	if (!*next)
		*next = (int64_t)ts_next_reset(period, (time_t)*last_reset,
					       (time_t)now);
	if (!*next || now < *next)
		return false;
	*last_reset = *next;
	*next = (int64_t)ts_next_reset(period, (time_t)*last_reset,
				       (time_t)now);
	return true;
}

/*
 * *own: t's nodes with no usage, for a replay whose shares change
 * (its usage array is the replay's).
 */
static int copy_tree(struct ts_tree *own, const struct ts_tree *t,
		     struct ts_error *err)
{
	size_t i;

	if (ts_tree_init(own, t->n, err))
		return -1;
	for (i = 0; i < t->n; i++)
		if (ts_tree_add(own, t->parent[i], ts_tree_name(t, i),
				t->is_user[i], t->shares[i], 0, t->id[i],
				err) < 0)
			return -1;
	return ts_tree_finish(own, err) ? -1 : 0;
}

/*
 * The share changes made before now (sacctmgr's transactions): slurmctld
 * has them when this cycle computes.  One made in the cycle's own second
 * is taken to come after it: the cycle computes within milliseconds of
 * its start, a change in that second most likely later.
 */
static int apply_changes(struct ts_replay *r, int64_t now, struct ts_error *err)
{
	const struct ts_replay_conf *c = r->c;
	size_t from = r->next_change;

	while (r->next_change < c->n_changes &&
	       c->changes[r->next_change].time < now) {
		const struct ts_share_change *ch =
			&c->changes[r->next_change++];

		r->own.shares[ch->node] = ch->shares;
	}
	if (r->next_change == from)
		return TS_OK;
	r->st.share_changes += r->next_change - from;
	if (ts_tree_finish(&r->own, err))
		return err ? err->code : TS_EINVAL;
	r->view = r->own;
	return TS_OK;
}

int ts_replay_open(struct ts_replay **out, const struct ts_tree *t,
		   const struct ts_sacct_job *jobs, size_t n,
		   const struct ts_replay_conf *c, struct ts_error *err)
{
	struct ts_replay *r;
	size_t i, m = n ? n : 1;
	int rc;

	*out = NULL;
	rc = check(t, jobs, n, c, err);
	if (rc)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	r->src = t;
	r->job = jobs;
	r->n = n;
	r->c = c;
	r->ran = c->cycles ? c->cycles[0] : c->start;
	r->last_reset = r->ran;
	r->last = c->start +
		  (int64_t)((c->end - c->start + c->period - 1) / c->period) *
			  c->period;
	if (r->last == c->start)
		r->last += c->period;
	if (c->cycles)
		r->last = c->cycles[c->n_cycles - 1];
	if (c->n_changes) {
		if (copy_tree(&r->own, t, err)) {
			ts_replay_close(r, NULL);
			return err ? err->code : TS_ENOMEM;
		}
		r->view = r->own;
	} else {
		r->view = *t;
		r->view.usage = calloc(t->n, sizeof(*r->view.usage));
	}
	r->by_start = malloc(m * sizeof(size_t));
	r->act = malloc(m * sizeof(size_t));
	r->by_end = c->consumed ? malloc(m * sizeof(size_t)) : NULL;
	if (!r->view.usage || !r->by_start || !r->act ||
	    (c->consumed && !r->by_end) || ts_fs_alloc(&r->fs, t->n, err)) {
		ts_replay_close(r, NULL);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if (!jobs[i].start) /* never ran: in pending orders only */
			continue;
		r->by_start[r->n_started] = i;
		if (r->by_end)
			r->by_end[r->n_started] = i;
		r->n_started++;
		if (jobs[i].end && jobs[i].end <= c->start)
			r->st.before_start++;
		else if (jobs[i].start >= r->last)
			r->st.after_end++;
		else
			r->st.charged++;
	}
	qsort_r(r->by_start, r->n_started, sizeof(size_t), cmp_start,
		(void *)jobs);
	if (r->by_end)
		qsort_r(r->by_end, r->n_started, sizeof(size_t), cmp_end,
			(void *)jobs);
	*out = r;
	return TS_OK;
}

/* 5: the consumed usage of the jobs ended in the cycle's lagged span. */
static void consumed_charges(struct ts_replay *r, int64_t now)
{
	const struct ts_sacct_job *jobs = r->job;
	struct ts_consumed_span span;

	if (!ts_consumed_span((time_t)r->ran, (time_t)now, TS_CONSUMED_LAG,
			      &span))
		return;
	for (; r->next_end < r->n_started; r->next_end++) {
		const struct ts_sacct_job *j = &jobs[r->by_end[r->next_end]];

		if (!j->end || j->end <= span.after)
			continue;
		if (!ts_consumed_in_span(&span, (time_t)j->end))
			break;
		if (j->cpu_secs < 0) {
			r->st.no_cpu++;
			continue;
		}
		charge_chain(r, j->node,
			     ts_consumed_charge(j->cpu_secs, -1, r->c->decay,
						(double)(now - j->end)));
	}
}

int ts_replay_next(struct ts_replay *r, struct ts_replay_sample *s,
		   struct ts_error *err)
{
	const struct ts_replay_conf *c = r->c;
	const struct ts_sacct_job *jobs = r->job;
	int64_t now =
		c->cycles ? c->cycles[r->st.cycles + 1] : r->ran + c->period;
	size_t i;
	int rc;

	if (r->ran >= r->last)
		return ts_error_set(err, TS_EINVAL, -1, "the replay is done");
	/* the jobs started by now and not ended by start */
	for (; r->next < r->n_started && jobs[r->by_start[r->next]].start < now;
	     r->next++) {
		const struct ts_sacct_job *j = &jobs[r->by_start[r->next]];

		if (!j->end || j->end > c->start)
			r->act[r->n_act++] = r->by_start[r->next];
	}
	end_charges(r, r->ran, now);
	if (c->n_changes && (rc = apply_changes(r, now, err)))
		return rc;
	if (reset_due(c->reset, r->st.cycles, &r->last_reset, &r->next_reset,
		      now)) {
		memset(r->view.usage, 0, r->view.n * sizeof(*r->view.usage));
		r->st.resets++;
	}
	if (c->fs.algo == TS_FS_CLASSIC ||
	    c->fs.algo == TS_FS_DEPTH_OBLIVIOUS) {
		rc = compute(r, err);
		if (rc)
			return rc;
	}
	decay_all(r, now - r->ran);
	if (!c->consumed)
		for (i = 0; i < r->n_act; i++)
			replay_charge(r, &jobs[r->act[i]], r->ran, now, false);
	if (c->consumed)
		consumed_charges(r, now);
	if (c->fs.algo == TS_FS_FAIR_TREE || c->fs.algo == TS_FS_PBS) {
		rc = compute(r, err);
		if (rc)
			return rc;
	}
	r->st.cycles++;
	r->ran = now;
	s->time = now;
	s->cycle = r->st.cycles;
	s->tree = &r->view;
	s->fs = &r->fs;
	return TS_OK;
}

bool ts_replay_done(const struct ts_replay *r)
{
	return r->ran >= r->last;
}

int ts_replay_run(const struct ts_tree *t, const struct ts_sacct_job *jobs,
		  size_t n, const struct ts_replay_conf *c, ts_replay_fn fn,
		  void *arg, struct ts_replay_stats *stats,
		  struct ts_error *err)
{
	struct ts_replay *r;
	struct ts_replay_sample s;
	int rc = ts_replay_open(&r, t, jobs, n, c, err);

	if (rc)
		return rc;
	while (!ts_replay_done(r)) {
		rc = ts_replay_next(r, &s, err);
		if (rc || (fn && (rc = fn(arg, &s))))
			break;
	}
	ts_replay_close(r, stats);
	return rc;
}
