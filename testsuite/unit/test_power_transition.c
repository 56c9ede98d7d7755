/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_power runs sharing one state file, on a simulated clock, with a
 * recording backend: the max_concurrent_nodes limit under 8 concurrent
 * runs (threads, each its own flock), min_node_down_delay, refusals,
 * ramps level by level, and recovery from dead runs' claims (seed 001,
 * PBS PP-824).
 */
#include <check.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "power/state_file.h"
#include "power/transition.h"

#define T0	  1459217159 /* seed 001's 03/29/2016 02:05:59 UTC */
#define MAX_NODES 64
#define MAX_CALLS 256
#define MAX_LINES 512

/* Simulated clock and owner liveness (struct ts_power_env). */
struct sim {
	pthread_mutex_t mu;
	long long now_ms;
	long dead_owner;  /* this owner's claims are a dead pid's */
	unsigned real_us; /* real time one sleep costs */
};

static time_t sim_now(void *ctx)
{
	struct sim *s = ctx;
	time_t t;

	pthread_mutex_lock(&s->mu);
	t = (time_t)(s->now_ms / 1000);
	pthread_mutex_unlock(&s->mu);
	return t;
}

static void sim_sleep(void *ctx, unsigned long ms)
{
	struct sim *s = ctx;

	pthread_mutex_lock(&s->mu);
	s->now_ms += (long long)ms;
	pthread_mutex_unlock(&s->mu);
	if (s->real_us)
		usleep(s->real_us);
}

static int sim_alive(void *ctx, long owner)
{
	return owner != ((struct sim *)ctx)->dead_owner;
}

/*
 * Recording backend.  "moving" is a node between the start of its first
 * command and the end of its last one (ramps: until it reaches the
 * deepest level or 0); max_moving is the most moving at once.
 */
struct fake {
	pthread_mutex_t mu;
	struct sim *sim;
	unsigned work_us;      /* real time one command takes */
	const char *fail_node; /* commands fail for this node */
	int moving[MAX_NODES + 1], n_moving, max_moving;
	long level[MAX_NODES + 1];
	long deepest;
	char call[MAX_CALLS][128];
	time_t call_time[MAX_CALLS];
	int n_calls;
};

static int node_no(const char *name)
{
	long n = strtol(name + strcspn(name, "0123456789"), NULL, 10);

	ck_assert_int_le(n, MAX_NODES);
	return (int)n;
}

static void record(struct fake *f, const char *what, const char *const *nodes,
		   size_t n)
{
	char *c = f->call[f->n_calls];
	size_t i;

	ck_assert_int_lt(f->n_calls, MAX_CALLS);
	snprintf(c, 128, "%s", what);
	for (i = 0; i < n; i++) {
		strncat(c, i ? "," : " ", 127 - strlen(c));
		strncat(c, nodes[i], 127 - strlen(c));
	}
	f->call_time[f->n_calls++] = sim_now(f->sim);
}

/* One command: nodes start moving; power ops stop moving when done. */
static int command(struct fake *f, const char *what, const char *const *nodes,
		   size_t n, long limit, int *ok, struct ts_error *err)
{
	int rc = TS_OK;
	size_t i;

	pthread_mutex_lock(&f->mu);
	record(f, what, nodes, n);
	for (i = 0; i < n; i++) {
		int k = node_no(nodes[i]);

		f->n_moving += !f->moving[k];
		f->moving[k] = 1;
	}
	if (f->n_moving > f->max_moving)
		f->max_moving = f->n_moving;
	pthread_mutex_unlock(&f->mu);
	if (f->work_us)
		usleep(f->work_us);
	pthread_mutex_lock(&f->mu);
	for (i = 0; i < n; i++) {
		int k = node_no(nodes[i]);
		int failed = f->fail_node && !strcmp(nodes[i], f->fail_node);

		ok[i] = !failed;
		if (failed)
			rc = ts_error_set(err, TS_ETIMEDOUT, -1,
					  "%s: no answer", nodes[i]);
		if (limit >= 0 && !failed)
			f->level[k] = limit;
		if (limit < 0 || failed || limit == 0 || limit == f->deepest) {
			f->n_moving -= f->moving[k];
			f->moving[k] = 0;
		}
	}
	pthread_mutex_unlock(&f->mu);
	return rc;
}

static int fake_on(void *ctx, const char *const *nodes, size_t n, int *ok,
		   struct ts_error *err)
{
	return command(ctx, "on", nodes, n, -1, ok, err);
}

static int fake_off(void *ctx, const char *const *nodes, size_t n, int *ok,
		    struct ts_error *err)
{
	return command(ctx, "off", nodes, n, -1, ok, err);
}

static int fake_limit(void *ctx, const char *const *nodes, size_t n, long limit,
		      int ramp_op, int *ok, struct ts_error *err)
{
	char what[32];

	ck_assert(ramp_op == TS_POWER_OP_RAMP_UP ||
		  ramp_op == TS_POWER_OP_RAMP_DOWN);
	snprintf(what, sizeof(what), "limit %ld", limit);
	return command(ctx, what, nodes, n, limit, ok, err);
}

/* Log lines, kept for assertions. */
struct lines {
	pthread_mutex_t mu;
	char *line[MAX_LINES];
	int n;
};

static void keep_line(void *arg, enum ts_log_level level, const char *msg)
{
	struct lines *l = arg;

	(void)level;
	pthread_mutex_lock(&l->mu);
	if (l->n < MAX_LINES)
		l->line[l->n++] = strdup(msg);
	pthread_mutex_unlock(&l->mu);
}

static int has_line(struct lines *l, const char *needle)
{
	int i, found = 0;

	pthread_mutex_lock(&l->mu);
	for (i = 0; i < l->n && !found; i++)
		found = strstr(l->line[i], needle) != NULL;
	pthread_mutex_unlock(&l->mu);
	return found;
}

/* Fixture: one config, clock, backend, log and state directory. */
static struct ts_power_config cfg;
static struct sim sim;
static struct fake fake;
static struct lines lines;
static struct ts_power_env env;
static struct ts_power_backend be;
static struct ts_logger lg;
static char dir[64], state_path[128];

static void setup(void)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_config_init(&cfg, &err), TS_OK);
	cfg.power_on_off_enable = 1;
	cfg.power_ramp_rate_enable = 1;
	cfg.sleep_state_pause = 1;
	memset(&sim, 0, sizeof(sim));
	pthread_mutex_init(&sim.mu, NULL);
	sim.now_ms = (long long)T0 * 1000;
	sim.dead_owner = 13;
	memset(&fake, 0, sizeof(fake));
	pthread_mutex_init(&fake.mu, NULL);
	fake.sim = &sim;
	fake.deepest = 4;
	memset(&lines, 0, sizeof(lines));
	pthread_mutex_init(&lines.mu, NULL);
	env = (struct ts_power_env){ TS_POWER_ENV_VERSION, sim_now, sim_sleep,
				     sim_alive, &sim };
	be = (struct ts_power_backend){ TS_POWER_BACKEND_VERSION,
					"fake",
					fake_on,
					fake_off,
					fake_limit,
					&fake };
	lg = (struct ts_logger){ keep_line, &lines };
	snprintf(dir, sizeof(dir), "/tmp/ts-power-run-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(state_path, sizeof(state_path), "%s/state", dir);
}

static void teardown(void)
{
	char cmd[128];
	int i;

	for (i = 0; i < lines.n; i++)
		free(lines.line[i]);
	ts_power_config_free(&cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void eligible(const char *expr)
{
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(
		ts_power_config_set(&cfg, "poweroff_eligible", expr, 1, &err),
		TS_OK);
}

/* Write a state file by hand (a previous run's leftovers), printf-like. */
static void put_state(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void put_state(const char *fmt, ...)
{
	FILE *f = fopen(state_path, "w");
	va_list ap;

	ck_assert_ptr_nonnull(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	ck_assert_int_eq(fclose(f), 0);
}

static struct ts_power_state load_state(void)
{
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;

	ck_assert_int_eq(ts_power_state_file_lock(&s, state_path, &st, &err),
			 TS_OK);
	ts_power_state_file_unlock(&s);
	return st;
}

static const struct ts_power_node *node(struct ts_power_state *st,
					const char *name)
{
	long k = ts_power_state_find(st, name);

	ck_assert_int_ge(k, 0);
	return &st->node[k];
}

static int run(enum ts_power_op op, const char *const *nodes, size_t n,
	       const int *busy, long owner, time_t wait,
	       enum ts_power_verdict *v)
{
	struct ts_power_request rq = { op,	  nodes, n,
				       busy,	  owner, sim_now(&sim) + wait,
				       state_path };
	struct ts_error err = TS_ERROR_INIT;
	int rc = ts_power_transition(&cfg, &be, &env, &lg, &rq, v, &err);

	ck_assert_msg(rc == TS_OK, "transition: %s", err.msg);
	return rc;
}

/* 8 runs of 4 nodes each, started together. */
struct runner {
	enum ts_power_op op;
	const char *nodes[4];
	char names[4][16];
	enum ts_power_verdict v[4];
	long owner;
};

static void *run_thread(void *arg)
{
	struct runner *r = arg;

	run(r->op, r->nodes, 4, NULL, r->owner, 100000, r->v);
	return NULL;
}

static void eight_runs(enum ts_power_op op)
{
	struct runner r[8];
	pthread_t th[8];
	int t, i;

	sim.real_us = 1000;
	fake.work_us = 20000;
	for (t = 0; t < 8; t++) {
		r[t].op = op;
		r[t].owner = 100 + t;
		for (i = 0; i < 4; i++) {
			snprintf(r[t].names[i], 16, "n%d", t * 4 + i + 1);
			r[t].nodes[i] = r[t].names[i];
		}
		ck_assert_int_eq(
			pthread_create(&th[t], NULL, run_thread, &r[t]), 0);
	}
	for (t = 0; t < 8; t++)
		pthread_join(th[t], NULL);
	for (t = 0; t < 8; t++)
		for (i = 0; i < 4; i++)
			ck_assert_int_eq(r[t].v[i], TS_POWER_DONE);
}

START_TEST(eight_concurrent_power_offs_never_exceed_max_concurrent_nodes)
{
	struct ts_power_state st;
	size_t i;

	cfg.max_concurrent_nodes = 3;
	eligible("n[1-32]");
	eight_runs(TS_POWER_OP_OFF);
	/* Never above the limit, and the limit was used, not serialised. */
	ck_assert_int_eq(fake.max_moving, 3);
	ck_assert_int_ge(fake.n_calls, 11); /* 32 nodes, <= 3 per call */
	st = load_state();
	ck_assert_uint_eq(st.n, 32);
	ck_assert_uint_eq(ts_power_state_claims(&st), 0);
	for (i = 0; i < st.n; i++) {
		ck_assert_int_eq(st.node[i].power, TS_POWER_OFF);
		ck_assert_int_eq(st.node[i].want, TS_POWER_OP_OFF);
	}
	ts_power_state_free(&st);
}
END_TEST

/* A ramp holds its nodes' slots through every level and pause. */
START_TEST(eight_concurrent_ramp_downs_never_exceed_max_concurrent_nodes)
{
	struct ts_power_state st;
	size_t i;

	cfg.max_concurrent_nodes = 3;
	eight_runs(TS_POWER_OP_RAMP_DOWN);
	ck_assert_int_eq(fake.max_moving, 3);
	st = load_state();
	for (i = 0; i < st.n; i++)
		ck_assert_int_eq(st.node[i].sleep, 4);
	ck_assert_uint_eq(ts_power_state_claims(&st), 0);
	ts_power_state_free(&st);
}
END_TEST

/* Powered off 100 s ago, min_node_down_delay 600: on at T0 + 500. */
START_TEST(power_on_waits_for_min_node_down_delay)
{
	static const char *const n1[] = { "n1" };
	enum ts_power_verdict v[1];

	cfg.min_node_down_delay = 600;
	put_state("node_power-state 1 next_ticket=1\nn1 power=off off_at=%d\n",
		  T0 - 100);
	run(TS_POWER_OP_ON, n1, 1, NULL, 100, 600, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(fake.n_calls, 1);
	ck_assert_str_eq(fake.call[0], "on n1");
	ck_assert_int_eq(fake.call_time[0], T0 + 500);
	ck_assert(has_line(&lines, "node_power_on;n1: waiting 500 s for "
				   "min_node_down_delay (600 s)"));
}
END_TEST

START_TEST(power_on_refused_when_delay_outlasts_wait_limit)
{
	static const char *const n1[] = { "n1" };
	enum ts_power_verdict v[1];

	cfg.min_node_down_delay = 600;
	put_state("node_power-state 1 next_ticket=1\nn1 power=off off_at=%d\n",
		  T0 - 100);
	run(TS_POWER_OP_ON, n1, 1, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DELAYED);
	ck_assert_int_eq(fake.n_calls, 0);
	ck_assert(has_line(&lines, "min_node_down_delay 600 s ends in 500 s, "
				   "after the wait limit"));
}
END_TEST

START_TEST(ineligible_nodes_are_never_powered_off)
{
	static const char *const n[] = { "n1", "n2", "n3", "n4" };
	enum ts_power_verdict v[4];

	eligible("n[1-2]");
	run(TS_POWER_OP_OFF, n, 4, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(v[1], TS_POWER_DONE);
	ck_assert_int_eq(v[2], TS_POWER_REFUSED_INELIGIBLE);
	ck_assert_int_eq(v[3], TS_POWER_REFUSED_INELIGIBLE);
	ck_assert_int_eq(fake.n_calls, 1);
	ck_assert_str_eq(fake.call[0], "off n1,n2");
	ck_assert(has_line(&lines, "node_power_off;refused: n3: not in "
				   "poweroff_eligible"));
}
END_TEST

START_TEST(allocated_or_mixed_nodes_are_never_powered_off)
{
	static const char *const n[] = { "n1", "n2" };
	static const int busy[] = { 0, 1 };
	enum ts_power_verdict v[2];

	eligible("n[1-2]");
	run(TS_POWER_OP_OFF, n, 2, busy, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(v[1], TS_POWER_REFUSED_BUSY);
	ck_assert_int_eq(fake.n_calls, 1);
	ck_assert_str_eq(fake.call[0], "off n1");
	ck_assert(has_line(&lines, "node_power_off;refused: n2: slurmctld "
				   "reports it allocated or mixed"));
}
END_TEST

START_TEST(power_off_refused_while_power_on_off_disabled)
{
	static const char *const n[] = { "n1" };
	enum ts_power_verdict v[1];

	eligible("n1");
	cfg.power_on_off_enable = 0;
	run(TS_POWER_OP_OFF, n, 1, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_REFUSED_DISABLED);
	ck_assert_int_eq(fake.n_calls, 0);
	ck_assert(
		has_line(&lines, "refused: n1: power_on_off_enable is False"));
}
END_TEST

/* A run killed mid-operation left n9 claimed; its slot is freed. */
START_TEST(claim_of_dead_run_is_repaired_and_its_slot_reused)
{
	static const char *const n[] = { "n1" };
	enum ts_power_verdict v[1];
	struct ts_power_state st;

	cfg.max_concurrent_nodes = 1;
	put_state("node_power-state 1 next_ticket=4\n"
		  "n9 power=on op=off owner=13 since=%d want=off ticket=3\n",
		  T0 - 5);
	run(TS_POWER_OP_ON, n, 1, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert(has_line(&lines, "node_power_off;repaired: n9 was left in "
				   "off by dead pid 13"));
	st = load_state();
	ck_assert_int_eq(node(&st, "n9")->op, TS_POWER_OP_NONE);
	ck_assert_int_eq(node(&st, "n9")->power, TS_POWER_UNKNOWN);
	ck_assert_int_eq(node(&st, "n1")->power, TS_POWER_ON);
	ck_assert_int_eq(node(&st, "n1")->changed, T0);
	ts_power_state_free(&st);
}
END_TEST

START_TEST(live_claims_hold_the_limit_until_wait_ends)
{
	static const char *const n[] = { "n1" };
	enum ts_power_verdict v[1];

	cfg.max_concurrent_nodes = 1;
	put_state("node_power-state 1 next_ticket=4\n"
		  "n9 power=on op=off owner=14 since=%d want=off ticket=3\n",
		  T0);
	run(TS_POWER_OP_ON, n, 1, NULL, 100, 2, v);
	ck_assert_int_eq(v[0], TS_POWER_NO_SLOT);
	ck_assert_int_eq(fake.n_calls, 0);
	ck_assert(has_line(&lines, "node_power_on;n1: waiting, "
				   "max_concurrent_nodes (1) nodes are in "
				   "transition"));
	ck_assert(has_line(&lines, "gave up at the wait limit"));
}
END_TEST

/* Seed 001's nids 24-25: --limit 1, 2, 3, 4 down; 3, 2, 1, 0 up. */
START_TEST(ramp_steps_each_level_with_pause_between)
{
	static const char *const n[] = { "nid00024", "nid00025" };
	static const char *const down[] = { "limit 1 nid00024,nid00025",
					    "limit 2 nid00024,nid00025",
					    "limit 3 nid00024,nid00025",
					    "limit 4 nid00024,nid00025" };
	enum ts_power_verdict v[2];
	struct ts_power_state st;
	int i;

	cfg.sleep_state_pause = 3;
	run(TS_POWER_OP_RAMP_DOWN, n, 2, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(v[1], TS_POWER_DONE);
	ck_assert_int_eq(fake.n_calls, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_str_eq(fake.call[i], down[i]);
		ck_assert_int_eq(fake.call_time[i], T0 + 3 * i);
	}
	st = load_state();
	ck_assert_int_eq(node(&st, "nid00024")->sleep, 4);
	ck_assert_int_eq(node(&st, "nid00025")->changed, T0 + 9);
	ts_power_state_free(&st);

	run(TS_POWER_OP_RAMP_UP, n, 2, NULL, 100, 60, v);
	ck_assert_int_eq(fake.n_calls, 8);
	ck_assert_str_eq(fake.call[4], "limit 3 nid00024,nid00025");
	ck_assert_str_eq(fake.call[7], "limit 0 nid00024,nid00025");
	st = load_state();
	ck_assert_int_eq(node(&st, "nid00024")->sleep, 0);
	/* PP-824: last_used_time is reset when a node is ramped up. */
	ck_assert_int_eq(node(&st, "nid00024")->used, T0 + 18);
	ts_power_state_free(&st);

	/* Already awake: done without a command. */
	run(TS_POWER_OP_RAMP_UP, n, 2, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(fake.n_calls, 8);
}
END_TEST

/* A run died after setting --limit 2: the next continues with 3 and 4. */
START_TEST(ramp_of_dead_run_resumes_from_recorded_level)
{
	static const char *const n[] = { "n1" };
	enum ts_power_verdict v[1];

	put_state("node_power-state 1 next_ticket=2\n"
		  "n1 power=on sleep=2 op=ramp_down owner=13 since=%d\n",
		  T0 - 3);
	run(TS_POWER_OP_RAMP_DOWN, n, 1, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(fake.n_calls, 2);
	ck_assert_str_eq(fake.call[0], "limit 3 n1");
	ck_assert_str_eq(fake.call[1], "limit 4 n1");
	ck_assert(has_line(&lines, "power_ramp_down;repaired: n1"));
}
END_TEST

START_TEST(backend_failure_leaves_power_unknown_and_frees_slot)
{
	static const char *const n[] = { "n1", "n2" };
	enum ts_power_verdict v[2];
	struct ts_power_state st;

	eligible("n[1-2]");
	fake.fail_node = "n2";
	run(TS_POWER_OP_OFF, n, 2, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert_int_eq(v[1], TS_POWER_FAILED);
	ck_assert(has_line(&lines, "node_power_off;failed: n2: n2: no answer"));
	st = load_state();
	ck_assert_int_eq(node(&st, "n1")->power, TS_POWER_OFF);
	ck_assert_int_eq(node(&st, "n1")->off_at, T0);
	ck_assert_int_eq(node(&st, "n2")->power, TS_POWER_UNKNOWN);
	ck_assert_uint_eq(ts_power_state_claims(&st), 0);
	ts_power_state_free(&st);
}
END_TEST

/* Thread bodies for the supersede test. */
struct one {
	enum ts_power_op op;
	enum ts_power_verdict v;
};

static void *run_one(void *arg)
{
	static const char *const n1[] = { "n1" };
	struct one *o = arg;

	run(o->op, n1, 1, NULL, o->op == TS_POWER_OP_OFF ? 101 : 102, 100000,
	    &o->v);
	return NULL;
}

static void wait_line(const char *needle)
{
	int i;

	for (i = 0; i < 5000 && !has_line(&lines, needle); i++)
		usleep(1000);
	ck_assert_msg(has_line(&lines, needle), "no log line \"%s\"", needle);
}

/* A resume arriving while a suspend of the same node waits wins. */
START_TEST(later_request_supersedes_a_waiting_one)
{
	struct one off = { TS_POWER_OP_OFF, TS_POWER_PENDING };
	struct one on = { TS_POWER_OP_ON, TS_POWER_PENDING };
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	pthread_t a, b;

	cfg.max_concurrent_nodes = 1;
	sim.real_us = 1000;
	eligible("n1");
	put_state("node_power-state 1 next_ticket=4\n"
		  "n9 power=on op=off owner=14 since=%d want=off ticket=3\n",
		  T0);
	ck_assert_int_eq(pthread_create(&a, NULL, run_one, &off), 0);
	wait_line("node_power_off;n1: waiting");
	ck_assert_int_eq(pthread_create(&b, NULL, run_one, &on), 0);
	wait_line("node_power_on;n1: waiting");
	/* The holder of the only slot finishes. */
	ck_assert_int_eq(ts_power_state_file_lock(&s, state_path, &st, &err),
			 TS_OK);
	st.node[ts_power_state_find(&st, "n9")].op = TS_POWER_OP_NONE;
	ck_assert_int_eq(ts_power_state_file_save(&s, &st, &err), TS_OK);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	ck_assert_int_eq(off.v, TS_POWER_SUPERSEDED);
	ck_assert_int_eq(on.v, TS_POWER_DONE);
	ck_assert_int_eq(fake.n_calls, 1);
	ck_assert_str_eq(fake.call[0], "on n1");
	ck_assert(has_line(&lines, "node_power_off;n1: dropped, a later on "
				   "request supersedes this one"));
}
END_TEST

START_TEST(corrupt_state_file_is_set_aside_and_run_continues)
{
	static const char *const n[] = { "n1" };
	enum ts_power_verdict v[1];
	char moved[160];

	put_state("node_power-state 1 next_ticket=1\nn1 power=\x01\n");
	run(TS_POWER_OP_ON, n, 1, NULL, 100, 60, v);
	ck_assert_int_eq(v[0], TS_POWER_DONE);
	ck_assert(has_line(&lines, "is corrupt (line 2: bad field"));
	snprintf(moved, sizeof(moved), "%s.corrupt", state_path);
	ck_assert_int_eq(access(moved, F_OK), 0);
}
END_TEST

Suite *suite_power_transition(void)
{
	Suite *s = suite_create("power_transition");
	TCase *tc = tcase_create("transition");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(
		tc,
		eight_concurrent_power_offs_never_exceed_max_concurrent_nodes);
	tcase_add_test(
		tc,
		eight_concurrent_ramp_downs_never_exceed_max_concurrent_nodes);
	tcase_add_test(tc, power_on_waits_for_min_node_down_delay);
	tcase_add_test(tc, power_on_refused_when_delay_outlasts_wait_limit);
	tcase_add_test(tc, ineligible_nodes_are_never_powered_off);
	tcase_add_test(tc, allocated_or_mixed_nodes_are_never_powered_off);
	tcase_add_test(tc, power_off_refused_while_power_on_off_disabled);
	tcase_add_test(tc, claim_of_dead_run_is_repaired_and_its_slot_reused);
	tcase_add_test(tc, live_claims_hold_the_limit_until_wait_ends);
	tcase_add_test(tc, ramp_steps_each_level_with_pause_between);
	tcase_add_test(tc, ramp_of_dead_run_resumes_from_recorded_level);
	tcase_add_test(tc, backend_failure_leaves_power_unknown_and_frees_slot);
	tcase_add_test(tc, later_request_supersedes_a_waiting_one);
	tcase_add_test(tc, corrupt_state_file_is_set_aside_and_run_continues);
	suite_add_tcase(s, tc);
	return s;
}
