/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_replay.c - the replay (issue 30): sacct output and slurm.conf
 * keys read as Slurm writes and reads them, bad input named by line and
 * counted, and the cycles' figures worked by hand on seed 000's tree
 * (group1 40 = bob 50 + cathy 50, group2 60 = suzy 60 + scott 40).
 */
#include <check.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "sacct_jobs.h"
#include "slurm_prio_conf.h"
#include "tree_file.h"
#include "usage_charge.h"

static const char seed000[] = "root 0\n"
			      "account group1 root 40\n"
			      "user bob group1 50\n"
			      "user cathy group1 50\n"
			      "account group2 root 60\n"
			      "user suzy group2 60\n"
			      "user scott group2 40\n";

enum { ROOT, GROUP1, BOB, CATHY, GROUP2, SUZY, SCOTT, NODES };

static void load_seed000(struct ts_tree *t)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_tree_init(t, 0, &err), TS_OK);
	ck_assert_msg(ts_tree_file_parse(seed000, strlen(seed000),
					 TS_TREE_FORMAT_TREE, t, NULL,
					 &err) == TS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(t->n, NODES);
}

/* Every sample's usage and figures, kept for the test to look at. */
#define MAX_CYCLES 64
struct series {
	size_t n;
	int64_t time[MAX_CYCLES];
	long double usage[MAX_CYCLES][NODES];
	long double efctv[MAX_CYCLES][NODES];
	double fs[MAX_CYCLES][NODES];
	uint32_t rank[MAX_CYCLES][NODES];
};

static int keep(void *arg, const struct ts_replay_sample *s)
{
	struct series *z = arg;
	size_t i;

	ck_assert_uint_eq(s->cycle, z->n + 1);
	if (z->n == MAX_CYCLES)
		return TS_ERANGE;
	z->time[z->n] = s->time;
	for (i = 0; i < NODES; i++) {
		z->usage[z->n][i] = s->tree->usage[i];
		z->efctv[z->n][i] = s->fs->usage_efctv[i];
		z->fs[z->n][i] = s->fs->fs_factor[i];
		z->rank[z->n][i] = s->fs->rank[i];
	}
	z->n++;
	return 0;
}

static struct ts_replay_conf conf(enum ts_fs_algo algo, uint32_t hl,
				  int64_t start, int64_t end)
{
	struct ts_replay_conf c = {
		.fs = { .algo = algo, .damp = 1, .ft_flags = TS_FT_AS_RUN },
		.period = 300,
		.decay = ts_decay_per_second(hl),
		.start = start,
		.end = end,
		.charge_at_end = true,
	};
	return c;
}

static void run(const struct ts_tree *t, const struct ts_sacct_job *j, size_t n,
		const struct ts_replay_conf *c, struct series *z)
{
	struct ts_error err = TS_ERROR_INIT;

	memset(z, 0, sizeof(*z));
	ck_assert_msg(ts_replay_run(t, j, n, c, keep, z, NULL, &err) == TS_OK,
		      "%s", err.msg);
}

#define T0 1800000000L /* a multiple of 300 */

START_TEST(replay_one_job_of_4_cpus_for_two_periods)
{
	/* bob, 4 CPUs, from T0 on, still running; half-life one hour. */
	struct ts_sacct_job j = { .start = T0, .billing = 4, .node = BOB };
	struct ts_replay_conf c = conf(TS_FS_CLASSIC, 3600, T0, T0 + 600);
	double d = 1 - 0.693 / 3600, one = 4 * 300 * pow(d, 300);
	struct ts_tree t;
	struct series z;
	int i;

	load_seed000(&t);
	run(&t, &j, 1, &c, &z);
	ck_assert_uint_eq(z.n, 2);
	ck_assert_int_eq(z.time[0], T0 + 300);
	ck_assert_int_eq(z.time[1], T0 + 600);
	/* cycle 1: 1200 CPU-seconds charged as d^300 of them */
	for (i = 0; i < NODES; i++) {
		long double want =
			(i == ROOT || i == GROUP1 || i == BOB) ? one : 0;

		ck_assert_double_eq_tol((double)z.usage[0][i], (double)want,
					1e-9);
	}
	/* cycle 2: the first decayed one period, the second added */
	ck_assert_double_eq_tol((double)z.usage[1][BOB],
				one * pow(d, 300) + one, 1e-9);
	ck_assert_double_eq_tol((double)z.usage[1][ROOT],
				(double)z.usage[1][BOB], 1e-9);
	ck_assert_double_eq((double)z.usage[1][CATHY], 0);
	ts_tree_free(&t);
}
END_TEST

START_TEST(replay_usage_decays_by_half_life_between_samples)
{
	/* bob's job ends at T0 + 300; then nothing runs. */
	struct ts_sacct_job j = {
		.start = T0, .end = T0 + 300, .billing = 4, .node = BOB
	};
	struct ts_replay_conf c = conf(TS_FS_CLASSIC, 3600, T0, T0 + 3000);
	double f = pow(1 - 0.693 / 3600, 300);
	struct ts_tree t;
	struct series z;
	size_t k;

	load_seed000(&t);
	run(&t, &j, 1, &c, &z);
	ck_assert_uint_eq(z.n, 10);
	/* charged at its end, then decayed with everything at the cycle */
	ck_assert_double_eq_tol((double)z.usage[0][BOB], 1200 * f * f, 1e-9);
	for (k = 1; k < z.n; k++) {
		double ratio = (double)(z.usage[k][BOB] / z.usage[k - 1][BOB]);

		ck_assert_double_eq_tol(ratio, f, 1e-12);
		/* d = 1 - 0.693/hl: 2^(-period/halflife) to 1e-4 */
		ck_assert_double_eq_tol(ratio, pow(2, -300.0 / 3600), 1e-4);
	}
	ts_tree_free(&t);
}
END_TEST

/*
 * Slurm charges a job's end only under AccountingStorageEnforce with
 * limits: otherwise the slice after the last cycle a job ran through is
 * never charged, and a job entirely between two cycles not at all.
 */
START_TEST(replay_end_charged_only_with_limits)
{
	struct ts_sacct_job j[] = {
		{ .start = T0, .end = T0 + 450, .billing = 4, .node = BOB },
		{ .start = T0 + 10,
		  .end = T0 + 250,
		  .billing = 2,
		  .node = SCOTT },
	};
	struct ts_replay_conf c = conf(TS_FS_CLASSIC, 3600, T0, T0 + 600);
	double d = 1 - 0.693 / 3600, f = pow(d, 300);
	struct ts_tree t;
	struct series z;

	load_seed000(&t);
	c.charge_at_end = false;
	run(&t, j, 2, &c, &z);
	ck_assert_uint_eq(z.n, 2);
	/* bob: 300 s at cycle 1, decayed at cycle 2, his last 150 s lost */
	ck_assert_double_eq_tol((double)z.usage[0][BOB], 1200 * f, 1e-9);
	ck_assert_double_eq_tol((double)z.usage[1][BOB], 1200 * f * f, 1e-9);
	ck_assert_double_eq((double)z.usage[1][SCOTT], 0);
	/* with limits: scott's 240 s and bob's 150 s at their ends */
	c.charge_at_end = true;
	run(&t, j, 2, &c, &z);
	ck_assert_double_eq_tol((double)z.usage[0][SCOTT],
				480 * pow(d, 240) * f, 1e-9);
	ck_assert_double_eq_tol((double)z.usage[1][BOB],
				(1200 * f + 600 * pow(d, 150)) * f, 1e-9);
	ts_tree_free(&t);
}
END_TEST

/*
 * The plugin's own cycle times (its log): each cycle decays over its own
 * interval and charges the running job for it; samples at those times.
 */
START_TEST(replay_cycles_at_the_logged_times)
{
	static const int64_t at[] = { T0, T0 + 61, T0 + 120, T0 + 181 };
	struct ts_sacct_job j = { .start = T0 - 5, .billing = 2, .node = BOB };
	struct ts_replay_conf c = conf(TS_FS_FAIR_TREE, 600, T0, T0 + 181);
	struct ts_error err = TS_ERROR_INIT;
	int64_t bad[] = { T0, T0 + 60, T0 + 60 };
	double d = ts_decay_per_second(600), u = 0;
	struct ts_tree t;
	struct series z;
	size_t k;

	load_seed000(&t);
	c.period = 60;
	c.cycles = at;
	c.n_cycles = 4;
	run(&t, &j, 1, &c, &z);
	ck_assert_uint_eq(z.n, 3);
	for (k = 1; k < 4; k++) {
		double dt = (double)(at[k] - at[k - 1]);

		u = u * pow(d, dt) + 2 * dt * pow(d, dt);
		ck_assert_int_eq(z.time[k - 1], at[k]);
		ck_assert_double_eq_tol((double)z.usage[k - 1][BOB], u, 1e-9);
	}
	c.cycles = bad;
	c.n_cycles = 3;
	c.end = T0 + 60;
	ck_assert_int_eq(ts_replay_run(&t, &j, 1, &c, keep, &z, NULL, &err),
			 TS_EINVAL);
	ck_assert_int_eq(err.index, 3);
	ts_tree_free(&t);
}
END_TEST

/*
 * A share change applies from the first cycle after its time (one in a
 * cycle's own second waits for the next).  Usage does not depend on
 * shares, so every cycle before it equals a run on the old tree and
 * every cycle from it on a run on a tree that had the new shares all
 * along, bit for bit, under each algorithm.
 */
START_TEST(replay_share_change_from_its_cycle_on)
{
	static const enum ts_fs_algo algos[] = { TS_FS_CLASSIC,
						 TS_FS_DEPTH_OBLIVIOUS,
						 TS_FS_FAIR_TREE, TS_FS_PBS };
	struct ts_sacct_job j[] = {
		{ .start = T0, .billing = 4, .node = BOB },
		{ .start = T0 + 100, .billing = 1, .node = CATHY },
		{ .start = T0, .billing = 3, .node = SCOTT },
	};
	struct ts_share_change ch[] = {
		{ .time = T0 + 450, .node = CATHY, .shares = 5, .line = 2 },
		{ .time = T0 + 450, .node = GROUP2, .shares = 10, .line = 3 },
	};
	/* at T0 + 450: from cycle 2 (T0 + 600) on; at T0 + 600: cycle 3 */
	static const int64_t when[] = { T0 + 450, T0 + 600 };
	struct ts_tree t, changed;
	static struct series z, old, now;
	size_t a, k, i, w;

	load_seed000(&t);
	load_seed000(&changed);
	changed.shares[CATHY] = 5;
	changed.shares[GROUP2] = 10;
	ck_assert_int_eq(ts_tree_finish(&changed, NULL), TS_OK);
	for (a = 0; a < 8; a++) {
		struct ts_replay_conf c =
			conf(algos[a % 4], 3600, T0, T0 + 1500);

		run(&t, j, 3, &c, &old);
		run(&changed, j, 3, &c, &now);
		w = a / 4;
		ch[0].time = ch[1].time = when[w];
		c.changes = ch;
		c.n_changes = 2;
		run(&t, j, 3, &c, &z);
		ck_assert_uint_eq(z.n, 5);
		for (k = 0; k < z.n; k++) {
			const struct series *want = k < 1 + w ? &old : &now;

			for (i = 0; i < NODES; i++) {
				ck_assert(z.usage[k][i] == old.usage[k][i]);
				ck_assert_msg(z.fs[k][i] == want->fs[k][i],
					      "algo %zu cycle %zu node %zu", a,
					      k + 1, i);
			}
		}
		/* and the change did change something */
		ck_assert(now.fs[4][CATHY] != old.fs[4][CATHY]);
	}
	ts_tree_free(&changed);
	ts_tree_free(&t);
}
END_TEST

START_TEST(replay_classic_fairshare_of_the_users)
{
	struct ts_sacct_job j = { .start = T0, .billing = 4, .node = BOB };
	struct ts_replay_conf c = conf(TS_FS_CLASSIC, 3600, T0, T0 + 600);
	struct ts_tree t;
	struct series z;

	load_seed000(&t);
	run(&t, &j, 1, &c, &z);
	/* cycle 1 computes before its charges: nobody has usage yet */
	ck_assert_double_eq(z.fs[0][BOB], 1);
	/*
	 * cycle 2, from cycle 1's usage (all bob's): bob's and group1's
	 * EffectvUsage 1, cathy's 0 + (1 - 0) * 50/100 = 0.5; NormShares
	 * 0.4 * 0.5 = 0.2 each; FairShare = 2^(-EffectvUsage/NormShares).
	 */
	ck_assert_double_eq_tol((double)z.efctv[1][BOB], 1, 1e-12);
	ck_assert_double_eq_tol((double)z.efctv[1][CATHY], 0.5, 1e-12);
	ck_assert_double_eq_tol(z.fs[1][BOB], pow(2, -1 / 0.2), 1e-12);
	ck_assert_double_eq_tol(z.fs[1][CATHY], pow(2, -0.5 / 0.2), 1e-12);
	ck_assert_double_eq_tol(z.fs[1][SUZY], 1, 1e-12);
	ts_tree_free(&t);
}
END_TEST

START_TEST(replay_fair_tree_ranks)
{
	struct ts_sacct_job j[] = {
		{ .start = T0, .billing = 4, .node = BOB },
		{ .start = T0, .billing = 1, .node = SCOTT },
	};
	struct ts_replay_conf c = conf(TS_FS_FAIR_TREE, 3600, T0, T0 + 300);
	struct ts_tree t;
	struct series z;

	load_seed000(&t);
	run(&t, j, 2, &c, &z);
	/*
	 * Fair Tree computes after the charges.  Level FS: group1 0.4/0.8,
	 * group2 0.6/0.2, so group2's users first: suzy (no usage, inf)
	 * then scott; then group1's: cathy (inf), bob.  Ranks 4..1, factor
	 * rank/4.
	 */
	ck_assert_uint_eq(z.rank[0][SUZY], 4);
	ck_assert_uint_eq(z.rank[0][SCOTT], 3);
	ck_assert_uint_eq(z.rank[0][CATHY], 2);
	ck_assert_uint_eq(z.rank[0][BOB], 1);
	ck_assert_double_eq(z.fs[0][BOB], 0.25);
	ck_assert_double_eq(z.fs[0][SUZY], 1);
	ts_tree_free(&t);
}
END_TEST

START_TEST(replay_daily_usage_reset_at_local_midnight)
{
	/* bob's job runs 23:00 to 01:00 UTC; PriorityUsageResetPeriod=DAILY */
	struct ts_sacct_job j = { .start = 1800057600 - 3600,
				  .end = 1800057600 + 3600,
				  .billing = 1,
				  .node = BOB };
	struct ts_replay_conf c =
		conf(TS_FS_CLASSIC, 0, 1800057600 - 3600, 1800057600 + 3600);
	struct ts_error err = TS_ERROR_INIT;
	struct ts_replay_stats st;
	struct ts_tree t;
	struct series z;

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_int_eq(1800057600 % 86400, 0); /* midnight */
	c.reset = TS_RESET_DAILY;
	load_seed000(&t);
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(ts_replay_run(&t, &j, 1, &c, keep, &z, &st, &err),
			 TS_OK);
	ck_assert_uint_eq(z.n, 24);
	ck_assert_uint_eq(st.resets, 1);
	/* no decay: 300 s a cycle adds up until midnight's cycle... */
	ck_assert_double_eq((double)z.usage[10][BOB], 11 * 300);
	ck_assert_double_eq((double)z.usage[11][BOB], 300);
	/* ...which starts from 0 and charges its own period only */
	ck_assert_double_eq((double)z.usage[23][BOB], 13 * 300);
	ts_tree_free(&t);
}
END_TEST

/* A small deterministic generator (no libc rand state shared). */
static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

START_TEST(replay_shifted_history_gives_shifted_series)
{
	static const enum ts_fs_algo algos[] = { TS_FS_CLASSIC,
						 TS_FS_DEPTH_OBLIVIOUS,
						 TS_FS_FAIR_TREE, TS_FS_PBS };
	static const long shifts[] = { 1, 299, 86400 * 3 + 17 };
	struct ts_sacct_job a[40], b[40];
	static struct series za, zb;
	uint64_t seed = 30;
	struct ts_tree t;
	size_t i, k, s, g, n = 40;

	load_seed000(&t);
	for (i = 0; i < n; i++) {
		static const long users[] = { BOB, CATHY, SUZY, SCOTT };

		a[i] = (struct ts_sacct_job){ 0 };
		a[i].start = T0 + (int64_t)(lcg(&seed) % 7200);
		a[i].end = lcg(&seed) % 5 ? a[i].start + 1 +
						    (int64_t)(lcg(&seed) % 3600)
					  : 0;
		a[i].billing = 1 + (double)(lcg(&seed) % 16);
		a[i].node = users[lcg(&seed) % 4];
	}
	for (g = 0; g < 4; g++)
		for (s = 0; s < 3; s++) {
			struct ts_replay_conf ca =
				conf(algos[g], 1800, T0 - 600, T0 + 9000);
			struct ts_replay_conf cb = ca;

			cb.start += shifts[s];
			cb.end += shifts[s];
			for (i = 0; i < n; i++) {
				b[i] = a[i];
				b[i].start += shifts[s];
				if (b[i].end)
					b[i].end += shifts[s];
			}
			run(&t, a, n, &ca, &za);
			run(&t, b, n, &cb, &zb);
			ck_assert_uint_eq(za.n, zb.n);
			ck_assert_uint_eq(za.n, 32);
			for (k = 0; k < za.n; k++) {
				ck_assert_int_eq(zb.time[k],
						 za.time[k] + shifts[s]);
				for (i = 0; i < NODES; i++) {
					ck_assert(za.usage[k][i] ==
						  zb.usage[k][i]);
					ck_assert(za.fs[k][i] == zb.fs[k][i]);
					ck_assert(za.rank[k][i] ==
						  zb.rank[k][i]);
				}
			}
			/* and the history did charge something */
			ck_assert(za.usage[za.n - 1][ROOT] > 0);
		}
	ts_tree_free(&t);
}
END_TEST

/* --------------------------------------------------------- bad input */

struct seen {
	long line[16];
	enum ts_sacct_skip why[16];
	char msg[16][256];
	size_t n;
};

static long by_name(void *arg, const char *user, const char *account)
{
	const struct ts_assoc_index *ix = arg;

	return ts_assoc_index_find(ix, user, account);
}

static void note(void *arg, long line, enum ts_sacct_skip why, const char *msg)
{
	struct seen *s = ((void **)arg)[1];

	if (s->n < 16) {
		s->line[s->n] = line;
		s->why[s->n] = why;
		snprintf(s->msg[s->n], sizeof(s->msg[0]), "%s", msg);
		s->n++;
	}
}

static long by_name_pair(void *arg, const char *user, const char *account)
{
	return by_name(((void **)arg)[0], user, account);
}

static int parse_opt(const char *text, bool keep_pending,
		     struct ts_sacct_jobs *jobs, struct ts_sacct_summary *sum,
		     struct seen *seen, struct ts_error *err)
{
	struct ts_tree t;
	struct ts_assoc_index ix;
	void *args[2] = { &ix, seen };
	struct ts_sacct_hooks h = { .resolve = by_name_pair,
				    .report = note,
				    .arg = args,
				    .keep_pending = keep_pending };
	char *copy = strdup(text);
	int rc;

	load_seed000(&t);
	ck_assert_int_eq(ts_assoc_index_build(&ix, &t, err), TS_OK);
	memset(sum, 0, sizeof(*sum));
	memset(seen, 0, sizeof(*seen));
	rc = ts_sacct_parse_in_place(copy, strlen(copy), &h, jobs, sum, err);
	free(copy);
	ts_assoc_index_free(&ix);
	ts_tree_free(&t);
	return rc;
}

static int parse(const char *text, struct ts_sacct_jobs *jobs,
		 struct ts_sacct_summary *sum, struct seen *seen,
		 struct ts_error *err)
{
	return parse_opt(text, false, jobs, sum, seen, err);
}

/*
 * keep_pending (ts-replay --compare): a job that never started is kept,
 * start 0, when it has an Eligible time (pending from then) or else a
 * Submit time, with no billing needed; without either it is skipped.  The replay
 * never charges it.
 */
START_TEST(replay_sacct_keeps_jobs_that_never_started)
{
	static const char text[] =
		"JobID|User|Account|Submit|Eligible|Start|End|AllocTRES|State\n"
		"1|bob|group1|2026-11-27T10:00:00|2026-11-27T10:00:00|2026-11-27T10:00:00||billing=4|RUNNING\n"
		"2|suzy|group2|2026-11-27T09:00:00|Unknown|Unknown|Unknown||PENDING\n"
		"3|scott|group2|2026-11-27T09:00:00|2026-11-27T10:00:00|None|2026-11-27T10:07:00||CANCELLED by 0\n"
		"4|cathy|group1|Unknown|Unknown|Unknown|Unknown||PENDING\n";
	struct ts_sacct_jobs jobs = { 0 };
	struct ts_sacct_summary sum;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_replay_conf c;
	struct ts_replay_stats st;
	struct seen seen;
	struct series z;
	struct ts_tree t;

	setenv("TZ", "UTC", 1);
	ck_assert_int_eq(parse_opt(text, true, &jobs, &sum, &seen, &err),
			 TS_OK);
	ck_assert_uint_eq(sum.jobs, 3);
	ck_assert_uint_eq(sum.never_started, 2);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_NOT_STARTED], 1);
	ck_assert_int_eq(jobs.job[1].start, 0);
	ck_assert_int_eq(jobs.job[1].node, SUZY);
	/* never eligible (a DOWN partition): waiting since its Submit */
	ck_assert_int_eq(jobs.job[0].eligible - jobs.job[1].eligible, 3600);
	ck_assert_int_eq(jobs.job[2].end - jobs.job[2].eligible, 420);
	c = conf(TS_FS_FAIR_TREE, 3600, jobs.job[0].start,
		 jobs.job[0].start + 600);
	load_seed000(&t);
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(
		ts_replay_run(&t, jobs.job, jobs.n, &c, keep, &z, &st, &err),
		TS_OK);
	ck_assert_uint_eq(st.charged, 1);
	ck_assert_double_eq((double)z.usage[1][SUZY], 0);
	ck_assert_double_eq((double)z.usage[1][SCOTT], 0);
	ck_assert_double_eq_tol((double)z.usage[1][ROOT],
				(double)z.usage[1][BOB], 1e-9);
	ck_assert((double)z.usage[1][BOB] > 0);
	ts_tree_free(&t);
	ts_sacct_jobs_free(&jobs);
}
END_TEST

START_TEST(replay_sacct_lines_read_skipped_and_counted)
{
	/* fields in another order than sacct's default, extra ones too */
	static const char text[] =
		"State|AllocTRES|End|Start|User|JobID|Account|Partition\n"
		"COMPLETED|billing=8,cpu=4,mem=1G,node=1|2026-11-27T11:00:00|2026-11-27T10:00:00|bob|10|group1|debug\n"
		"COMPLETED|cpu=4,mem=1G,node=1|2026-11-27T11:00:00|2026-11-27T10:00:00||10.batch|group1|\n"
		"COMPLETED|billing=2,cpu=2|2026-11-27T11:00:00|2026-11-27T10:00:00|eve|11|group1|debug\n"
		"COMPLETED|billing=2,cpu=2|2026-11-27T11:00:00|2026-11-27T10:00\n"
		"COMPLETED|billing=2,cpu=2|2026-11-27T09:00:00|2026-11-27T10:00:00|suzy|12|group2|debug\n"
		"PENDING||Unknown|Unknown|suzy|13|group2|debug\n"
		"RUNNING|billing=3,cpu=3|Unknown|2026-11-27T10:30:00|scott|14|group2|debug\n"
		"COMPLETED|billing=2|2026-11-27T25:00:00|2026-11-27T10:00:00|suzy|15|group2|debug\n";
	struct ts_sacct_jobs jobs = { 0 };
	struct ts_sacct_summary sum;
	struct ts_error err = TS_ERROR_INIT;
	struct seen seen;

	setenv("TZ", "UTC", 1);
	ck_assert_int_eq(parse(text, &jobs, &sum, &seen, &err), TS_OK);
	ck_assert_uint_eq(sum.lines, 9);
	ck_assert_uint_eq(sum.jobs, 2);
	ck_assert_uint_eq(jobs.n, 2);
	ck_assert_int_eq(jobs.job[0].line, 2);
	ck_assert_int_eq(jobs.job[0].node, BOB);
	ck_assert_double_eq(jobs.job[0].billing, 8);
	ck_assert_int_eq(jobs.job[0].end - jobs.job[0].start, 3600);
	ck_assert_int_eq(jobs.job[1].line, 8);
	ck_assert_int_eq(jobs.job[1].end, 0);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_STEP], 1);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_NOT_STARTED], 1);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_UNKNOWN_ASSOC], 1);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_FIELDS], 1);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_ORDER], 1);
	ck_assert_uint_eq(sum.skipped[TS_SACCT_BAD_VALUE], 1);
	/* each error once, with its line, in order */
	ck_assert_uint_eq(seen.n, 4);
	ck_assert_int_eq(seen.line[0], 4);
	ck_assert_int_eq(seen.why[0], TS_SACCT_UNKNOWN_ASSOC);
	ck_assert_str_eq(seen.msg[0],
			 "no association of user eve under account group1");
	ck_assert_int_eq(seen.line[1], 5);
	ck_assert_str_eq(seen.msg[1], "4 fields where the header has 8");
	ck_assert_int_eq(seen.line[2], 6);
	ck_assert_int_eq(seen.why[2], TS_SACCT_ORDER);
	ck_assert_int_eq(seen.line[3], 9);
	ck_assert_str_eq(seen.msg[3],
			 "End \"2026-11-27T25:00:00\" is not a time");
	ts_sacct_jobs_free(&jobs);
}
END_TEST

START_TEST(replay_sacct_header_without_a_needed_field)
{
	struct ts_sacct_jobs jobs = { 0 };
	struct ts_sacct_summary sum;
	struct ts_error err = TS_ERROR_INIT;
	struct seen seen;

	ck_assert_int_eq(parse("JobID|User|Account|End|AllocTRES\n1|bob|group1|"
			       "Unknown|billing=1\n",
			       &jobs, &sum, &seen, &err),
			 TS_EINVAL);
	ck_assert_int_eq(err.index, 1);
	ck_assert_msg(strstr(err.msg, "line 1: no field Start"), "%s", err.msg);
	ts_error_clear(&err);
	ck_assert_int_eq(parse("JobID|User|Account|Start|End\n", &jobs, &sum,
			       &seen, &err),
			 TS_EINVAL);
	ck_assert_msg(strstr(err.msg, "neither AllocTRES nor AllocCPUS"), "%s",
		      err.msg);
	ts_error_clear(&err);
	ck_assert_int_eq(parse("", &jobs, &sum, &seen, &err), TS_EINVAL);
	ts_sacct_jobs_free(&jobs);
}
END_TEST

START_TEST(replay_sacct_durations_and_times)
{
	setenv("TZ", "UTC", 1);
	ck_assert_double_eq(ts_sacct_duration("1-02:03:04"), 93784);
	ck_assert_double_eq(ts_sacct_duration("01:02:03"), 3723);
	ck_assert_double_eq(ts_sacct_duration("02:03.500"), 123.5);
	ck_assert(ts_sacct_duration("1:2:3:4") < 0);
	ck_assert(ts_sacct_duration("x") < 0);
	ck_assert_int_eq(ts_sacct_time("1970-01-02T00:00:01"), 86401);
	ck_assert_int_eq(ts_sacct_time("Unknown"), 0);
	ck_assert_int_eq(ts_sacct_time("None"), 0);
	ck_assert_int_eq(ts_sacct_time("2026-02-30T00:00:00"), -1);
	ck_assert_int_eq(ts_sacct_time("2026-11-27 10:00:00"), -1);
}
END_TEST

START_TEST(replay_slurm_conf_priority_keys)
{
	static const char text[] =
		"# a slurm.conf\n"
		"ClusterName=lab SlurmctldPort=6817\n"
		"PriorityType=priority/treeshare\n"
		"PriorityDecayHalfLife=1:30 PriorityCalcPeriod=1\n"
		"PriorityFlags=CALCULATE_RUNNING,NO_FAIR_TREE # classic\n"
		"PriorityParameters=\"fairshare=pbs, usage_metric=consumed\"\n"
		"FairShareDampeningFactor=2\n";
	struct ts_error err = TS_ERROR_INIT;
	struct ts_slurm_prio p;

	ck_assert_int_eq(ts_slurm_prio_parse(text, strlen(text), &p, &err),
			 TS_OK);
	ck_assert_uint_eq(p.decay_hl, 120); /* 90 s, up to whole minutes */
	ck_assert_uint_eq(p.calc_period, 60);
	ck_assert(!p.fair_tree && !p.depth_oblivious && p.calculate_running);
	ck_assert_str_eq(p.params, "fairshare=pbs, usage_metric=consumed");
	ck_assert_uint_eq(p.damp, 2);
	ck_assert(!p.charge_at_end);
	/* Slurm charges a job's end only when enforcing limits */
	ck_assert_int_eq(
		ts_slurm_prio_parse("AccountingStorageEnforce=associations\n",
				    39, &p, &err),
		TS_OK);
	ck_assert(!p.charge_at_end);
	ck_assert_int_eq(
		ts_slurm_prio_parse("AccountingStorageEnforce=assoc,limits,qos",
				    41, &p, &err),
		TS_OK);
	ck_assert(p.charge_at_end);
	ck_assert_int_eq(ts_slurm_prio_parse("AccountingStorageEnforce=safe",
					     29, &p, &err),
			 TS_OK);
	ck_assert(p.charge_at_end);
	/* Slurm's defaults */
	ck_assert_int_eq(ts_slurm_prio_parse("", 0, &p, &err), TS_OK);
	ck_assert_uint_eq(p.decay_hl, 7 * 86400);
	ck_assert_uint_eq(p.calc_period, 300);
	ck_assert(p.fair_tree);
	ck_assert_int_eq(
		ts_slurm_prio_parse("\n\nPriorityCalcPeriod=0\n", 22, &p, &err),
		TS_EINVAL);
	ck_assert_int_eq(err.index, 3);
	ck_assert_msg(strstr(err.msg, "line 3: PriorityCalcPeriod=0"), "%s",
		      err.msg);
}
END_TEST

/*
 * ts_charge_wall_memo() is ts_charge_wall() to the bit (property): a
 * repeated (run, d) served from the memo, a new run or d recomputed,
 * -0.0 not taken for the memo's +0.0 (they compare equal).
 */
START_TEST(replay_charge_wall_memo_gives_charge_wall_bits)
{
	const double runs[] = { 300, 300, 120, 300, 0.0, -0.0, 0.0, 300 };
	const double d[] = { 1 - 0.693 / 604800, 1 - 0.693 / 3600 };
	struct ts_wall_memo m = { 0 };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
			double want = ts_charge_wall(runs[i], d[k]);
			double got = ts_charge_wall_memo(&m, runs[i], d[k]);

			ck_assert_msg(!memcmp(&want, &got, sizeof(want)),
				      "run %g d %.17g: %a, want %a", runs[i],
				      d[k], got, want);
		}
	/* A memo zeroed is one of run 0 at d 0: 0 * 0^0 = 0. */
	m = (struct ts_wall_memo){ 0 };
	ck_assert(ts_charge_wall_memo(&m, 0.0, 0.0) == ts_charge_wall(0, 0));
}
END_TEST

Suite *suite_replay(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, replay_one_job_of_4_cpus_for_two_periods);
	tcase_add_test(tc, replay_usage_decays_by_half_life_between_samples);
	tcase_add_test(tc, replay_end_charged_only_with_limits);
	tcase_add_test(tc, replay_cycles_at_the_logged_times);
	tcase_add_test(tc, replay_share_change_from_its_cycle_on);
	tcase_add_test(tc, replay_classic_fairshare_of_the_users);
	tcase_add_test(tc, replay_fair_tree_ranks);
	tcase_add_test(tc, replay_daily_usage_reset_at_local_midnight);
	tcase_add_test(tc, replay_shifted_history_gives_shifted_series);
	tcase_add_test(tc, replay_sacct_lines_read_skipped_and_counted);
	tcase_add_test(tc, replay_sacct_header_without_a_needed_field);
	tcase_add_test(tc, replay_sacct_keeps_jobs_that_never_started);
	tcase_add_test(tc, replay_sacct_durations_and_times);
	tcase_add_test(tc, replay_slurm_conf_priority_keys);
	tcase_add_test(tc, replay_charge_wall_memo_gives_charge_wall_bits);
	suite_add_tcase(s, tc);
	return s;
}
