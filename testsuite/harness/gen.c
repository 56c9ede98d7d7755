/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gen.c - seeded random parity cases (see gen.h).
 *
 * Every case covers the three algorithms' inputs the issue lists: damping
 * 1 and 3 (and others), Fairshare=parent, zero shares, zero usage (single
 * users, whole trees), deep chains, wide accounts, ties, a user under
 * several accounts, every PriorityFlags bit, PriorityFavorSmall,
 * TRESBillingWeights with and without MAX_TRES, nice, site factors,
 * partition factors and tiers, multi-partition jobs, QOS priorities and
 * UsageFactor, held, not yet eligible, running, suspended and finished
 * jobs, usage reset periods and limits enforcement.
 *
 * DEPTH_OBLIVIOUS cases have no job that adds usage between cycles
 * (nothing running or suspended): multifactor computes an account from
 * siblings' usage of the previous cycle, so with usage changing it never
 * shows a steady state to compare with; cycle 1 is skipped (compare.h).
 * Nor do they set INCR_ONLY, which would carry cycle 1's priorities,
 * computed from uncomputed siblings, into every later cycle.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "rng.h"

#define MAX_NODES 400
#define NAME_LEN  24

struct node {
	char name[NAME_LEN];
	int parent; /* -1 for root */
	bool user;
	char shares[12];		/* "40", "0" or "parent" */
	bool give_usage;		/* print the account's usage */
	unsigned long long usage_milli; /* raw usage in thousandths */
};

struct tree {
	struct node node[MAX_NODES];
	int n;
	int max_depth;
};

struct gen {
	struct th_rng rng;
	enum th_algo algo;
	FILE *out;
	struct tree tree;
	bool gpu;   /* a gres/gpu TRES exists */
	int n_qos;  /* extra QOS q1..qN */
	int n_part; /* partitions p1..pN */
};

static const char *const algo_names[] = {
	[TH_CLASSIC] = "classic",
	[TH_DEPTH_OBLIVIOUS] = "depth_oblivious",
	[TH_FAIR_TREE] = "fair_tree",
};

int th_algo_parse(const char *name, enum th_algo *algo)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (!strcmp(name, algo_names[i])) {
			*algo = (enum th_algo)i;
			return 0;
		}
	}
	return -1;
}

const char *th_algo_name(enum th_algo algo)
{
	return algo_names[algo];
}

static uint64_t range(struct gen *g, uint64_t lo, uint64_t hi)
{
	return th_rng_range(&g->rng, lo, hi);
}

static bool chance(struct gen *g, unsigned percent)
{
	return th_rng_chance(&g->rng, percent);
}

static uint64_t pick(struct gen *g, const uint64_t *v, size_t n)
{
	return v[th_rng_next(&g->rng) % n];
}

/* Thousandths spread over six decades, 0 with probability zero_pct. */
static unsigned long long usage_milli(struct gen *g, unsigned zero_pct)
{
	static const uint64_t scale[] = { 1,	 10,	 100,	 1000,
					  10000, 100000, 1000000 };

	if (chance(g, zero_pct))
		return 0;
	return range(g, 1, 1000) * pick(g, scale, 7);
}

static void shares_text(struct gen *g, char *buf, bool allow_parent)
{
	if (allow_parent && chance(g, 8))
		strcpy(buf, "parent");
	else if (chance(g, 10))
		strcpy(buf, "0");
	else if (chance(g, 25))
		strcpy(buf, "1");
	else
		snprintf(buf, 12, "%u", (unsigned)range(g, 1, 100));
}

static int add_node(struct gen *g, int parent, bool user, const char *name)
{
	struct tree *t = &g->tree;
	struct node *n;

	if (t->n == MAX_NODES)
		return -1;
	n = &t->node[t->n];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, NAME_LEN, "%s", name);
	n->parent = parent;
	n->user = user;
	return t->n++;
}

static bool user_under(struct gen *g, int acct, const char *name)
{
	int i;

	for (i = 0; i < g->tree.n; i++)
		if (g->tree.node[i].user && g->tree.node[i].parent == acct &&
		    !strcmp(g->tree.node[i].name, name))
			return true;
	return false;
}

/* A user, sometimes one already under another account. */
static void add_user(struct gen *g, int acct)
{
	char name[NAME_LEN];
	int i, id;

	snprintf(name, sizeof(name), "u%d", g->tree.n);
	if (chance(g, 12)) {
		for (i = 0; i < g->tree.n; i++) {
			struct node *o =
				&g->tree.node[(i + g->tree.n / 2) % g->tree.n];

			if (o->user && !user_under(g, acct, o->name)) {
				snprintf(name, sizeof(name), "%s", o->name);
				break;
			}
		}
	}
	id = add_node(g, acct, true, name);
	if (id < 0)
		return;
	shares_text(g, g->tree.node[id].shares, true);
	g->tree.node[id].usage_milli = usage_milli(g, 20);
}

/* Account names in random letters, so assoc_mgr's sort reorders them. */
static int add_account(struct gen *g, int parent)
{
	char name[NAME_LEN];
	int id;

	snprintf(name, sizeof(name), "%c%c%d", (char)('a' + range(g, 0, 25)),
		 (char)('a' + range(g, 0, 25)), g->tree.n);
	id = add_node(g, parent, false, name);
	if (id < 0)
		return -1;
	shares_text(g, g->tree.node[id].shares, true);
	g->tree.node[id].give_usage = chance(g, 15);
	return id;
}

static void grow_random(struct gen *g, int acct, int depth)
{
	int users = (int)range(g, 0, 4), subs = 0, i;

	if (depth < g->tree.max_depth)
		subs = (int)range(g, depth ? 0 : 1, 3);
	for (i = 0; i < users; i++)
		add_user(g, acct);
	for (i = 0; i < subs; i++) {
		int a = add_account(g, acct);

		if (a >= 0)
			grow_random(g, a, depth + 1);
	}
}

/* A chain of accounts, a user or two at several depths. */
static void grow_deep(struct gen *g)
{
	int depth = (int)range(g, 6, 12), acct = 0, d;

	for (d = 0; d < depth; d++) {
		acct = add_account(g, acct);
		if (chance(g, 50) || d == depth - 1)
			add_user(g, acct);
		if (chance(g, 30))
			add_user(g, acct);
	}
	grow_random(g, add_account(g, 0), 1);
}

/* One or two accounts with many users. */
static void grow_wide(struct gen *g)
{
	int accts = (int)range(g, 1, 2), a, i, users;

	for (a = 0; a < accts; a++) {
		int acct = add_account(g, 0);

		users = (int)range(g, 20, 60);
		for (i = 0; i < users; i++)
			add_user(g, acct);
	}
	if (chance(g, 50))
		add_user(g, 0);
}

/* Siblings with equal shares and usage: Fair Tree's tie rules. */
static void grow_ties(struct gen *g)
{
	unsigned long long u = usage_milli(g, 10);
	int accts = (int)range(g, 2, 4), a, i;

	for (a = 0; a < accts; a++) {
		int acct = add_account(g, 0), users = (int)range(g, 1, 4);

		strcpy(g->tree.node[acct].shares, "10");
		for (i = 0; i < users; i++) {
			add_user(g, acct);
			strcpy(g->tree.node[g->tree.n - 1].shares, "5");
			g->tree.node[g->tree.n - 1].usage_milli =
				chance(g, 70) ? u : usage_milli(g, 10);
		}
	}
}

static void build_tree(struct gen *g)
{
	struct tree *t = &g->tree;
	unsigned long long *sum;
	int i, shape = (int)range(g, 0, 9);

	t->n = 0;
	t->max_depth = (int)range(g, 1, 5);
	add_node(g, -1, false, "root");
	if (shape <= 4)
		grow_random(g, 0, 0);
	else if (shape <= 6)
		grow_deep(g);
	else if (shape <= 8)
		grow_wide(g);
	else
		grow_ties(g);
	for (i = 1; i < t->n && !t->node[i].user; i++)
		;
	if (i == t->n) /* jobs need a user */
		add_user(g, t->n > 1 ? t->n - 1 : add_account(g, 0));
	if (chance(g, 8)) /* a tree without any usage */
		for (i = 0; i < t->n; i++)
			t->node[i].usage_milli = 0;

	/* accounts: children's sum, plus own usage when it is printed */
	sum = calloc(MAX_NODES, sizeof(*sum));
	if (!sum)
		exit(2);
	for (i = t->n - 1; i > 0; i--) {
		struct node *n = &t->node[i];

		if (!n->user) {
			n->usage_milli = sum[i];
			if (n->give_usage)
				n->usage_milli += usage_milli(g, 50);
		}
		sum[n->parent] += n->usage_milli;
	}
	t->node[0].usage_milli = sum[0];
	t->node[0].give_usage = chance(g, 10);
	if (t->node[0].give_usage)
		t->node[0].usage_milli += usage_milli(g, 30);
	free(sum);
}

static void print_usage(FILE *out, unsigned long long milli)
{
	fprintf(out, " %llu.%03llu", milli / 1000, milli % 1000);
}

static void print_tree(struct gen *g)
{
	struct tree *t = &g->tree;
	int i;

	if (t->node[0].give_usage) {
		fprintf(g->out, "root");
		print_usage(g->out, t->node[0].usage_milli);
		fputc('\n', g->out);
	}
	for (i = 1; i < t->n; i++) {
		struct node *n = &t->node[i];

		fprintf(g->out, "%s %s %s %s", n->user ? "user" : "account",
			n->name, t->node[n->parent].name, n->shares);
		if (n->user || n->give_usage)
			print_usage(g->out, n->usage_milli);
		if (!n->user && chance(g, 10))
			fprintf(g->out, " priority=%u",
				(unsigned)range(g, 0, 1000));
		fputc('\n', g->out);
	}
}

static void print_flags(struct gen *g)
{
	static const char *const extra[] = {
		"ACCRUE_ALWAYS", "CALCULATE_RUNNING", "INCR_ONLY",
		"MAX_TRES",	 "NO_NORMAL_ASSOC",   "NO_NORMAL_PART",
		"NO_NORMAL_QOS", "NO_NORMAL_TRES",    "SMALL_RELATIVE_TO_TIME",
		"NO_NORMAL_ALL",
	};
	char flags[512] = "";
	size_t i;

	if (g->algo == TH_CLASSIC)
		strcat(flags, ",NO_FAIR_TREE");
	else if (g->algo == TH_DEPTH_OBLIVIOUS)
		strcat(flags, ",DEPTH_OBLIVIOUS");
	else if (chance(g, 20))
		strcat(flags, ",FAIR_TREE");
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		bool incr_only = !strcmp(extra[i], "INCR_ONLY");

		if (chance(g, i == 9 ? 8 : 22) &&
		    !(incr_only && g->algo == TH_DEPTH_OBLIVIOUS)) {
			strcat(flags, ",");
			strcat(flags, extra[i]);
		}
	}
	if (flags[0])
		fprintf(g->out, "conf PriorityFlags=%s\n", flags + 1);
}

static unsigned weight(struct gen *g)
{
	static const uint64_t scale[] = { 1, 10, 100, 1000, 10000 };

	if (chance(g, 20))
		return 0;
	return (unsigned)(range(g, 1, 100) * pick(g, scale, 5));
}

static void print_config(struct gen *g)
{
	static const char *const half_life[] = { "7-0", "7-0", "1:00:00",
						 "14-0", "0" };
	static const char *const reset[] = { "NOW",	"DAILY",     "WEEKLY",
					     "MONTHLY", "QUARTERLY", "YEARLY" };
	static const char *const max_age[] = { "1-0", "7-0", "0:30:00",
					       "14-0" };
	static const uint64_t damp[] = { 1, 1, 1, 1, 3, 3, 3, 3, 2, 10 };
	int hl = (int)range(g, 0, g->algo == TH_DEPTH_OBLIVIOUS ? 3 : 4);

	print_flags(g);
	fprintf(g->out, "conf FairShareDampeningFactor=%u\n",
		(unsigned)pick(g, damp, 10));
	fprintf(g->out, "conf PriorityDecayHalfLife=%s\n", half_life[hl]);
	if (half_life[hl][0] == '0' ||
	    (g->algo != TH_DEPTH_OBLIVIOUS && chance(g, 30)))
		fprintf(g->out, "conf PriorityUsageResetPeriod=%s\n",
			reset[range(g, 0, 5)]);
	fprintf(g->out, "conf PriorityCalcPeriod=%u\n",
		(unsigned)range(g, 1, 10));
	fprintf(g->out, "conf PriorityMaxAge=%s\n", max_age[range(g, 0, 3)]);
	if (chance(g, 30))
		fprintf(g->out, "conf PriorityFavorSmall=YES\n");
	fprintf(g->out, "conf PriorityWeightAge=%u\n", weight(g));
	fprintf(g->out, "conf PriorityWeightAssoc=%u\n", weight(g));
	fprintf(g->out, "conf PriorityWeightFairshare=%u\n",
		chance(g, 95) ? weight(g) + 1 : 0);
	fprintf(g->out, "conf PriorityWeightJobSize=%u\n", weight(g));
	fprintf(g->out, "conf PriorityWeightPartition=%u\n", weight(g));
	fprintf(g->out, "conf PriorityWeightQOS=%u\n", weight(g));
	if (chance(g, 35))
		fprintf(g->out, "conf PriorityWeightTRES=CPU=%u,Mem=%u%s\n",
			weight(g), weight(g), g->gpu ? ",GRES/gpu=3000" : "");
	if (chance(g, 30))
		fprintf(g->out, "conf AccountingStorageEnforce=%s\n",
			chance(g, 50) ? "limits" : "associations,limits");
	if (g->algo != TH_DEPTH_OBLIVIOUS && chance(g, 30))
		fprintf(g->out, "last_reset now-%u\n",
			(unsigned)range(g, 3600, 40 * 86400));
	if (chance(g, 5))
		fprintf(g->out, "last_decay_ran none\n");
	else if (chance(g, 5))
		fprintf(g->out, "last_decay_ran now-%u\n",
			(unsigned)range(g, 60, 86400));
}

static void print_qos_and_partitions(struct gen *g, unsigned cpus,
				     unsigned nodes)
{
	static const char *const factor[] = {
		"0", "0.5", "1", "1.5", "2", "10"
	};
	int i;

	if (chance(g, 40))
		fprintf(g->out, "qos normal priority=%u\n",
			(unsigned)range(g, 0, 100));
	g->n_qos = (int)range(g, 0, 3);
	for (i = 1; i <= g->n_qos; i++) {
		fprintf(g->out, "qos q%d priority=%u usage_factor=%s", i,
			(unsigned)range(g, 0, 1000), factor[range(g, 0, 5)]);
		if (chance(g, 30))
			fprintf(g->out, " usage=%u",
				(unsigned)range(g, 0, 1000000));
		if (chance(g, 15))
			fprintf(g->out, " no_decay");
		fputc('\n', g->out);
	}
	g->n_part = (int)range(g, 1, 3);
	for (i = 1; i <= g->n_part; i++) {
		unsigned pc = (unsigned)range(g, 1, cpus);

		fprintf(g->out,
			"partition p%d factor=%u tier=%u max_time=%u "
			"nodes=%u cpus=%u tres=cpu=%u,mem=%u",
			i, (unsigned)range(g, 0, 100), (unsigned)range(g, 0, 3),
			(unsigned)range(g, 10, 10080),
			(unsigned)range(g, 1, nodes), pc, pc,
			(unsigned)range(g, 1000, 4000000));
		if (g->gpu)
			fprintf(g->out, ",gres/gpu=%u",
				(unsigned)range(g, 1, 64));
		if (chance(g, 40))
			fprintf(g->out, " billing=CPU=%u.%u,Mem=0.25G%s",
				(unsigned)range(g, 0, 3),
				(unsigned)range(g, 0, 9),
				g->gpu ? ",GRES/gpu=2.0" : "");
		if (g->n_qos && chance(g, 20))
			fprintf(g->out, " qos=q%u",
				(unsigned)range(g, 1, (uint64_t)g->n_qos));
		fputc('\n', g->out);
	}
}

static const char *job_state(struct gen *g, bool *started)
{
	unsigned r = (unsigned)range(g, 0, 99);

	*started = false;
	if (g->algo == TH_DEPTH_OBLIVIOUS)
		return r < 90 ? "pending" : r < 95 ? "complete" : "cancelled";
	if (r < 65)
		return "pending";
	*started = true;
	if (r < 88)
		return "running";
	if (r < 92)
		return "suspended";
	if (r < 97)
		return "complete";
	return "cancelled";
}

static void print_job(struct gen *g, unsigned id)
{
	struct tree *t = &g->tree;
	unsigned min_cpus = (unsigned)range(g, 1, 64);
	unsigned nodes = (unsigned)range(g, 1, 4);
	unsigned submit = (unsigned)range(g, 0, 20 * 86400);
	unsigned limit = (unsigned)range(g, 1, 2880);
	bool started;
	const char *state = job_state(g, &started);
	int user, tries, i, first;

	for (tries = 0, user = 0; tries < 1000; tries++) {
		user = (int)range(g, 1, (uint64_t)t->n - 1);
		if (t->node[user].user)
			break;
	}
	fprintf(g->out, "job %u %s:%s state=%s submit=now-%u", id,
		t->node[user].name, t->node[t->node[user].parent].name, state,
		submit);
	if (chance(g, 8)) /* not eligible yet */
		fprintf(g->out, " begin=now+%u", (unsigned)range(g, 1, 86400));
	else if (chance(g, 30))
		fprintf(g->out, " begin=now-%u", (unsigned)range(g, 0, submit));
	if (chance(g, 8))
		fprintf(g->out, " accrue=0");
	if (g->n_qos && chance(g, 50))
		fprintf(g->out, " qos=q%u",
			(unsigned)range(g, 1, (uint64_t)g->n_qos));
	first = (int)range(g, 1, (uint64_t)g->n_part);
	fprintf(g->out, " partition=p%d", first);
	if (g->n_part > 1 && chance(g, 15))
		for (i = 1; i <= g->n_part; i++)
			if (i != first && chance(g, 70))
				fprintf(g->out, ",p%d", i);
	fprintf(g->out, " min_cpus=%u nodes=%u", min_cpus, nodes);
	if (chance(g, 30))
		fprintf(g->out, " max_cpus=%u",
			min_cpus + (unsigned)range(g, 0, 64));
	if (!started && chance(g, 5))
		fprintf(g->out, " time_limit=unset");
	else
		fprintf(g->out, " time_limit=%u", limit);
	fprintf(g->out, " tres_req=cpu=%u,mem=%u,node=%u%s", min_cpus,
		(unsigned)range(g, 100, 256000), nodes,
		g->gpu && chance(g, 30) ? ",gres/gpu=1" : "");
	if (started) {
		unsigned cpus = min_cpus + (unsigned)range(g, 0, 4);

		/* inside its time limit, as slurmctld would have it */
		fprintf(g->out, " start=now-%u cpus=%u",
			(unsigned)range(g, 0, limit * 60 - 1), cpus);
		fprintf(g->out, " tres_alloc=cpu=%u,mem=%u,node=%u,billing=%u",
			cpus, (unsigned)range(g, 100, 256000), nodes, cpus);
		if (chance(g, 5))
			fprintf(g->out, " completing");
		if (chance(g, 10))
			fprintf(g->out, " resize=now-%u",
				(unsigned)range(g, 0, 3600));
	}
	if (chance(g, 3))
		fprintf(g->out, " power_up");
	if (chance(g, 5))
		fprintf(g->out, " priority=0"); /* held */
	else if (chance(g, 4))
		fprintf(g->out, " direct priority=%u",
			(unsigned)range(g, 1, 100000));
	else if (chance(g, 30))
		fprintf(g->out, " priority=%u", (unsigned)range(g, 1, 1000000));
	if (chance(g, 15))
		fprintf(g->out, " nice=%d", (int)range(g, 0, 2000) - 1000);
	if (chance(g, 10))
		fprintf(g->out, " site=%d", (int)range(g, 0, 2000) - 500);
	fputc('\n', g->out);
}

void th_gen_case(enum th_algo algo, uint64_t seed, FILE *out)
{
	struct gen *g = calloc(1, sizeof(*g));
	unsigned cpus, nodes, jobs, i;

	if (!g)
		exit(2);
	g->out = out;
	g->algo = algo;
	g->rng.state = seed * 3 + (uint64_t)algo;
	nodes = (unsigned)range(g, 1, 128);
	cpus = nodes * (unsigned)range(g, 1, 64);
	g->gpu = chance(g, 40);

	fprintf(out, "# ts-harness gen -a %s -s %llu\n", th_algo_name(algo),
		(unsigned long long)seed);
	fprintf(out, "now 1700000000\ncycles 2\n");
	fprintf(out, "cluster cpus=%u nodes=%u\n", cpus, nodes);
	if (g->gpu)
		fprintf(out, "tres gres/gpu count=%u\n",
			(unsigned)range(g, 1, 512));
	print_config(g);
	print_qos_and_partitions(g, cpus, nodes);
	build_tree(g);
	print_tree(g);
	jobs = chance(g, 10) ? 0 : (unsigned)range(g, 1, 30);
	for (i = 1; i <= jobs; i++)
		print_job(g, i);
	free(g);
}

int th_gen_main(int argc, char **argv)
{
	enum th_algo algo = TH_CLASSIC;
	bool have_algo = false, have_seed = false;
	unsigned long long seed = 0;
	char *end;
	int opt;

	while ((opt = getopt(argc, argv, "a:s:")) != -1) {
		switch (opt) {
		case 'a':
			if (th_algo_parse(optarg, &algo)) {
				fprintf(stderr,
					"ts-harness gen: -a %s: not "
					"classic, depth_oblivious or "
					"fair_tree\n",
					optarg);
				return 2;
			}
			have_algo = true;
			break;
		case 's':
			seed = strtoull(optarg, &end, 10);
			if (*end || !*optarg) {
				fprintf(stderr,
					"ts-harness gen: -s %s: not a "
					"number\n",
					optarg);
				return 2;
			}
			have_seed = true;
			break;
		default:
			fprintf(stderr, "usage: ts-harness gen -a ALGO -s "
					"SEED\n");
			return 2;
		}
	}
	if (!have_algo || !have_seed || optind != argc) {
		fprintf(stderr, "usage: ts-harness gen -a ALGO -s SEED\n");
		return 2;
	}
	th_gen_case(algo, seed, stdout);
	return 0;
}
