/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_compare.c - several configurations replayed side by side
 * (replay_compare.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "priority.h"
#include "replay_compare.h"

struct cmp {
	const struct ts_tree *t;
	const struct ts_sacct_job *job;
	size_t n, k;
	const struct ts_replay_conf *confs;
	struct ts_replay **run;
	struct ts_replay_sample *s; /* k: each replay's last sample */
	size_t *by_eligible, n_eligible, next;
	size_t *pending, n_pending;
	double *prio;
	size_t *work;
	size_t cap; /* jobs prio[] and work[] hold room for */
	struct ts_rank_pairs *rank;
};

static int cmp_eligible(const void *a, const void *b, void *arg)
{
	const struct ts_sacct_job *j = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (j[x].eligible != j[y].eligible)
		return j[x].eligible < j[y].eligible ? -1 : 1;
	return (x > y) - (x < y);
}

static void free_cmp(struct cmp *c)
{
	size_t i;

	if (c->run)
		for (i = 0; i < c->k; i++)
			ts_replay_close(c->run[i], NULL);
	free(c->run);
	free(c->s);
	free(c->by_eligible);
	free(c->pending);
	free(c->prio);
	free(c->work);
	free(c->rank);
}

/* "configuration N: " before a replay's error message. */
static void name_conf(struct ts_error *err, size_t i)
{
	struct ts_error named = TS_ERROR_INIT;

	if (!err)
		return;
	ts_error_set(&named, err->code, err->index, "configuration %zu: %s",
		     i + 1, err->msg);
	*err = named;
}

static int check_confs(const struct ts_replay_conf *confs, size_t k,
		       uint32_t every, struct ts_error *err)
{
	size_t i;

	if (!k)
		return ts_error_set(err, TS_EINVAL, -1, "no configuration");
	for (i = 0; i < k; i++) {
		if (confs[i].cycles != confs[0].cycles ||
		    confs[i].n_cycles != confs[0].n_cycles)
			return ts_error_set(
				err, TS_EINVAL, -1,
				"configuration %zu: not the first one's cycle times",
				i + 1);
		if (confs[i].cycles)
			continue; /* a sample at each cycle */
		if (!confs[i].period || !every || every % confs[i].period)
			return ts_error_set(
				err, TS_EINVAL, -1,
				"configuration %zu: the sample length %u s is not a whole number of its PriorityCalcPeriod %u s",
				i + 1, every, confs[i].period);
		if (confs[i].start != confs[0].start ||
		    confs[i].end != confs[0].end)
			return ts_error_set(
				err, TS_EINVAL, -1,
				"configuration %zu: not the first one's span",
				i + 1);
	}
	return TS_OK;
}

/*
 * The replays opened, and the jobs with an Eligible time sorted by it
 * (the others counted in cs).
 */
static int open_cmp(struct cmp *c, struct ts_compare_stats *cs,
		    struct ts_error *err)
{
	size_t i;
	int rc;

	c->run = calloc(c->k, sizeof(*c->run));
	c->s = calloc(c->k, sizeof(*c->s));
	c->rank = calloc(c->k, sizeof(*c->rank));
	c->by_eligible = malloc((c->n ? c->n : 1) * sizeof(size_t));
	c->pending = malloc((c->n ? c->n : 1) * sizeof(size_t));
	if (!c->run || !c->s || !c->rank || !c->by_eligible || !c->pending)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	for (i = 0; i < c->k; i++) {
		rc = ts_replay_open(&c->run[i], c->t, c->job, c->n,
				    &c->confs[i], err);
		if (rc) {
			name_conf(err, i);
			return rc;
		}
	}
	for (i = 0; i < c->n; i++) {
		if (c->job[i].eligible)
			c->by_eligible[c->n_eligible++] = i;
		else
			cs->no_eligible++;
	}
	qsort_r(c->by_eligible, c->n_eligible, sizeof(size_t), cmp_eligible,
		(void *)c->job);
	return TS_OK;
}

/*
 * Still pending at now: not started yet, or never started and not ended
 * (cancelled) by now.
 */
static bool still_pending(const struct ts_sacct_job *j, int64_t now)
{
	if (j->start)
		return j->start > now;
	return !j->end || j->end > now;
}

/* The jobs pending at now: Eligible <= now, still_pending(). */
static void sweep_pending(struct cmp *c, int64_t now)
{
	size_t i, kept = 0;

	for (; c->next < c->n_eligible &&
	       c->job[c->by_eligible[c->next]].eligible <= now;
	     c->next++)
		c->pending[c->n_pending++] = c->by_eligible[c->next];
	for (i = 0; i < c->n_pending; i++)
		if (still_pending(&c->job[c->pending[i]], now))
			c->pending[kept++] = c->pending[i];
	c->n_pending = kept;
}

/* Room in prio[] and work[] for the pending jobs of this sample. */
static int grow_pending(struct cmp *c, struct ts_error *err)
{
	size_t cap = c->cap;
	double *p;
	size_t *w;

	if (c->n_pending <= cap)
		return TS_OK;
	while (cap < c->n_pending)
		cap = cap ? cap * 2 : 256;
	p = realloc(c->prio, cap * c->k * sizeof(*p));
	if (!p)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	c->prio = p;
	w = realloc(c->work, 2 * cap * sizeof(*w));
	if (!w)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	c->work = w;
	c->cap = cap;
	return TS_OK;
}

/* A pending job's priority under conf, from the sample's figures. */
static double pending_priority(const struct ts_replay_conf *conf,
			       const struct ts_replay_sample *s,
			       const struct ts_sacct_job *j, int64_t now)
{
	struct ts_prio_config pc = { .w_age = conf->w_age,
				     .w_fs = conf->w_fs,
				     .max_age = conf->max_age };
	size_t node = ts_fs_job_node(s->tree, conf->fs.algo, (size_t)j->node);
	struct ts_prio_job pj = { .accrue_time = (time_t)j->eligible,
				  .has_assoc = 1,
				  .fs = s->fs->fs_factor[node],
				  .site = TS_PRIO_NICE_OFFSET,
				  .nice = TS_PRIO_NICE_OFFSET };
	struct ts_prio_factors f = { 0 };
	double tres = ts_prio_weighted(&pc, &pj, (time_t)now, &f);

	return (double)ts_prio_total(&f, tres, NULL);
}

/* Advance every replay to now; RET 1 when all have a cycle there. */
static int step_to(struct cmp *c, int64_t now, int *rc, struct ts_error *err)
{
	size_t i;

	for (i = 0; i < c->k; i++)
		while (c->s[i].time < now) {
			if (ts_replay_done(c->run[i]))
				return 0;
			*rc = ts_replay_next(c->run[i], &c->s[i], err);
			if (*rc) {
				name_conf(err, i);
				return 0;
			}
		}
	return 1;
}

int ts_replay_compare(const struct ts_tree *t, const struct ts_sacct_job *jobs,
		      size_t n, const struct ts_replay_conf *confs, size_t k,
		      uint32_t every, ts_compare_fn fn, void *arg,
		      struct ts_replay_stats *stats,
		      struct ts_compare_stats *cs, struct ts_error *err)
{
	struct cmp c = { .t = t, .job = jobs, .n = n, .k = k, .confs = confs };
	struct ts_compare_stats st = { 0 };
	int64_t now;
	size_t i, j;
	int rc = check_confs(confs, k, every, err);

	if (!rc)
		rc = open_cmp(&c, &st, err);
	while (!rc) {
		struct ts_compare_sample s = { .k = k };

		if (confs[0].cycles && st.samples + 1 >= confs[0].n_cycles)
			break;
		now = confs[0].cycles
			      ? confs[0].cycles[st.samples + 1]
			      : confs[0].start +
					(int64_t)(st.samples + 1) * every;
		s.time = now;
		if (!step_to(&c, now, &rc, err))
			break;
		sweep_pending(&c, now);
		if ((rc = grow_pending(&c, err)))
			break;
		for (i = 0; i < k; i++)
			for (j = 0; j < c.n_pending; j++)
				c.prio[i * c.n_pending + j] = pending_priority(
					&confs[i], &c.s[i], &jobs[c.pending[j]],
					now);
		for (i = 1; i < k; i++)
			ts_rank_compare(c.prio, c.prio + i * c.n_pending,
					c.n_pending, c.work, &c.rank[i]);
		s.index = ++st.samples;
		s.run = c.s;
		s.n_pending = c.n_pending;
		s.pending = c.pending;
		s.prio = c.prio;
		s.rank = c.rank;
		if (fn)
			rc = fn(arg, &s);
	}
	for (i = 0; stats && c.run && i < k; i++) {
		ts_replay_close(c.run[i], &stats[i]);
		c.run[i] = NULL;
	}
	if (cs)
		*cs = st;
	free_cmp(&c);
	return rc;
}
