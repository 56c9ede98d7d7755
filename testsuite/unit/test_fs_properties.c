/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Properties every fair-share algorithm keeps, on seeded random trees
 * (fs_trees.h's random_tree(); a failing check prints its seed):
 * Fair Tree's guarantee, factors in [0,1] and never NaN, and factors that
 * never rise when an entity's own usage rises.
 */
#include <check.h>
#include <math.h>

#include "fs_trees.h"

#ifndef N_SEEDS
#define N_SEEDS 24
#endif
#define TREE_NODES 240

static const enum ts_fs_algo algos[] = { TS_FS_CLASSIC, TS_FS_DEPTH_OBLIVIOUS,
					 TS_FS_FAIR_TREE, TS_FS_PBS };
static const char *const algo_names[] = { "classic", "depth_oblivious",
					  "fair_tree", "pbs" };

static uint64_t seed_of(int k)
{
	return 0x7265650000ULL + (uint64_t)k;
}

/*
 * Seed 004: "if accounts A and B are siblings and A has a higher
 * fairshare factor than B, all children of A will have higher fairshare
 * factors than all children of B", at every level.  Each account's
 * lowest and highest user rank are gathered up the fs tree, then every
 * pair of fs-sibling accounts is compared.
 */
START_TEST(ft_guarantee_holds_on_random_trees)
{
	int k;

	for (k = 0; k < N_SEEDS; k++) {
		struct ts_tree t;
		struct ts_fs fs = { 0 };
		uint32_t lo[TREE_NODES + 1], hi[TREE_NODES + 1];
		uint64_t seed = seed_of(k);
		size_t i, a, b, pairs = 0;

		random_tree(&t, seed, TREE_NODES, 1);
		ck_assert_uint_le(t.n, TREE_NODES + 1);
		compute(&t, TS_FS_FAIR_TREE, 1, &fs);
		for (i = 0; i < t.n; i++) {
			lo[i] = t.is_user[i] ? fs.rank[i] : UINT32_MAX;
			hi[i] = t.is_user[i] ? fs.rank[i] : 0;
		}
		for (i = t.n - 1; i > 0; i--) {
			long p = t.fs_parent[i];

			lo[p] = lo[i] < lo[p] ? lo[i] : lo[p];
			hi[p] = hi[i] > hi[p] ? hi[i] : hi[p];
		}
		for (i = 0; i < t.n; i++) {
			const long *kids = t.kids + t.kid_first[i];

			for (a = 0; a < t.kid_count[i]; a++)
				for (b = 0; b < t.kid_count[i]; b++) {
					long x = kids[a], y = kids[b];

					if (t.is_user[x] || t.is_user[y] ||
					    !(fs.level_fs[x] >
					      fs.level_fs[y]) ||
					    !t.kid_count[x] || !t.kid_count[y])
						continue;
					pairs++;
					ck_assert_msg(
						lo[x] > hi[y],
						"seed %#llx: account %ld "
						"(LF %Lg) lowest rank %u, "
						"account %ld (LF %Lg) "
						"highest %u",
						(unsigned long long)seed, x,
						fs.level_fs[x], lo[x], y,
						fs.level_fs[y], hi[y]);
				}
		}
		ck_assert_msg(pairs > 0, "seed %#llx: no account pair",
			      (unsigned long long)seed);
		ts_fs_free(&fs);
		ts_tree_free(&t);
	}
}
END_TEST

static int in_unit(double v)
{
	return v >= 0.0 && v <= 1.0;
}

START_TEST(factors_stay_in_unit_interval_and_never_nan_on_random_trees)
{
	int k, a;

	for (k = 0; k < N_SEEDS; k++) {
		struct ts_tree t;
		uint64_t seed = seed_of(100 + k);

		random_tree(&t, seed, TREE_NODES, 1);
		for (a = 0; a < 4; a++) {
			struct ts_fs fs = { 0 };
			size_t i;

			compute(&t, algos[a], 1 + k % 3, &fs);
			for (i = 0; i < t.n; i++) {
				int ok = in_unit(fs.fs_factor[i]) &&
					 in_unit(fs.shares_norm[i]) &&
					 in_unit(fs.pbs_perc[i]) &&
					 in_unit(fs.pbs_tree_usage[i]) &&
					 in_unit(fs.pbs_factor[i]) &&
					 !isnan(fs.usage_efctv[i]) &&
					 fs.usage_efctv[i] >= 0 &&
					 !isnan(fs.level_fs[i]) &&
					 fs.level_fs[i] >= 0 &&
					 (i == 0 ||
					  in_unit((double)fs.usage_norm[i]));

				ck_assert_msg(
					ok,
					"seed %#llx %s node %zu: fs %g "
					"sn %g pbs %g/%g/%g ue %Lg lf %Lg",
					(unsigned long long)seed, algo_names[a],
					i, fs.fs_factor[i], fs.shares_norm[i],
					fs.pbs_perc[i], fs.pbs_tree_usage[i],
					fs.pbs_factor[i], fs.usage_efctv[i],
					fs.level_fs[i]);
			}
			ts_fs_free(&fs);
		}
		ts_tree_free(&t);
	}
}
END_TEST

/* The factor a job of user association i gets (fairshare.h). */
static double job_factor(const struct ts_tree *t, const struct ts_fs *fs,
			 enum ts_fs_algo algo, long i)
{
	if (algo == TS_FS_PBS)
		return fs->pbs_factor[i];
	if (algo != TS_FS_FAIR_TREE && t->shares[i] == TS_SHARES_PARENT)
		return fs->fs_factor[t->fs_parent[i]];
	return fs->fs_factor[i];
}

/*
 * A job's usage is charged to its association and every ancestor up to
 * the root (Slurm's _apply_new_usage()); the user's factor must not rise.
 */
START_TEST(factor_never_rises_when_own_usage_rises_on_random_trees)
{
	int k, a, r;

	for (k = 0; k < N_SEEDS; k++) {
		struct ts_tree t;
		uint64_t seed = seed_of(200 + k), st = seed;

		random_tree(&t, seed, TREE_NODES, 1);
		for (r = 0; r < 8; r++) {
			long u = (long)rng_below(&st, (uint32_t)t.n), j;
			long double add = 1 + rng_below(&st, 2000);

			while (!t.is_user[u])
				u = (u + 1) % (long)t.n;
			for (a = 0; a < 4; a++) {
				struct ts_fs before = { 0 }, after = { 0 };
				double f0, f1;

				compute(&t, algos[a], 1, &before);
				for (j = u; j >= 0; j = t.parent[j])
					t.usage[j] += add;
				compute(&t, algos[a], 1, &after);
				for (j = u; j >= 0; j = t.parent[j])
					t.usage[j] -= add;
				f0 = job_factor(&t, &before, algos[a], u);
				f1 = job_factor(&t, &after, algos[a], u);
				ck_assert_msg(f1 <= f0 * (1 + 1e-12),
					      "seed %#llx %s user %ld +%Lg: "
					      "factor %.17g rose to %.17g",
					      (unsigned long long)seed,
					      algo_names[a], u, add, f0, f1);
				ts_fs_free(&before);
				ts_fs_free(&after);
			}
		}
		ts_tree_free(&t);
	}
}
END_TEST

Suite *suite_fs_properties(void)
{
	Suite *s = suite_create("fs_properties");
	TCase *tc = tcase_create("random_trees");

	tcase_add_test(tc, ft_guarantee_holds_on_random_trees);
	tcase_add_test(
		tc,
		factors_stay_in_unit_interval_and_never_nan_on_random_trees);
	tcase_add_test(tc,
		       factor_never_rises_when_own_usage_rises_on_random_trees);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
