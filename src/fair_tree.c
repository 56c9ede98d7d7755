/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fair_tree.c - Slurm 22.05's Fair Tree (seed 004), as its fair_tree.c
 * and assoc_mgr.c run it.
 *
 * Per node i with fs parent p (long double, as Slurm's):
 *   S = NormShares  = shares[i] / level_shares[i] (of p's when i is
 *                     "parent"; 0 when level_shares is 0)
 *   U = EffectvUsage = usage[i] / usage[p], 0 when usage[p] is 0
 *   Level FS  = S / U: +inf when U is 0, 0 when S is 0; +inf for a
 *               "parent" user, NO_VAL for a "parent" account (sorted,
 *               never used) and for the root
 *   FairShare = rank / number of users, users only (accounts 0)
 *
 * Ranking: rank = rnt = number of users; from the root, each account's
 * kids are sorted by Level FS, highest first, users before accounts on
 * equal Level FS, otherwise in kid order (glibc 2.36's qsort is a stable
 * merge sort); then visited in that order:
 *   tied  = Level FS equal to the previous sibling's (the first sibling
 *           compares with NO_VAL) or, for the first sibling, the account
 *           being descended was itself tied;
 *   user:    rank = rnt unless tied; FairShare = rank / users; rnt--
 *   account: descend into its kids, passing tied.
 * So tied users share a rank, and an account tied with the sibling just
 * ranked starts tied: its first user gets that sibling's rank.
 *
 * The seed also says tied sibling accounts have their kids merged before
 * sorting.  Slurm 22.05's _count_tied_accounts() stops at the first
 * following account, and users never sort after a tied account, so it
 * never merges; TS_FT_MERGE_TIED does merge, for what-if views.
 *
 * Edge cases: zero usage under an account makes its kids' Level FS +inf
 * (all tied); zero shares gives Level FS 0; the root's NormShares is
 * shares[0] / NO_VAL, its level_shares never being set in Slurm.
 *
 * Cost: one stable merge sort per account's kids, O(n log n) in all, an
 * explicit stack instead of recursion (a deep chain cannot overflow),
 * scratch from struct ts_fs, allocated by the first run and kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "normalise.h"

/* Short runs are insertion-sorted before merging. */
#define SORT_RUN 16

static double ft_shares_norm(const struct ts_tree *t, size_t i)
{
	size_t src = i;
	uint32_t level;

	if (i && t->shares[i] == TS_SHARES_PARENT)
		src = (size_t)t->fs_parent[i];
	if (t->shares[src] == TS_SHARES_PARENT)
		return 0.0;
	/* the root's level_shares, never set in Slurm, is NO_VAL */
	level = src ? t->level_shares[src] : TS_NO_VAL;
	if (!level)
		return 0.0;
	return (double)t->shares[src] / (double)level;
}

static void ft_level_fs(const struct ts_tree *t, struct ts_fs *fs)
{
	size_t i;

	fs->shares_norm[0] = ft_shares_norm(t, 0);
	fs->usage_efctv[0] = 1.0L; /* set by Slurm's init(), kept */
	fs->level_fs[0] = TS_USAGE_NO_VAL;
	for (i = 1; i < t->n; i++) {
		long double usage_p = t->usage[t->fs_parent[i]];
		long double s, u;

		fs->shares_norm[i] = ft_shares_norm(t, i);
		u = usage_p ? t->usage[i] / usage_p : 0.0L;
		fs->usage_efctv[i] = u;
		s = fs->shares_norm[i];
		if (t->shares[i] == TS_SHARES_PARENT)
			fs->level_fs[i] =
				t->is_user[i] ? INFINITY : TS_USAGE_NO_VAL;
		else if (s == 0.0L)
			fs->level_fs[i] = 0.0L;
		else
			fs->level_fs[i] = s / u; /* U == 0: +inf, by design */
	}
}

/*
 * Stable bottom-up merge sort of v[0 .. len) with tmp of the same size:
 * equal keys keep their order, as glibc's qsort leaves them.
 */
static void ft_sort(const struct ts_tree *t, const struct ts_fs *fs, long *v,
		    long *tmp, size_t len)
{
	long *src = v, *dst = tmp, *swap;
	size_t lo, width;

	for (lo = 0; lo < len; lo += SORT_RUN) {
		size_t hi = lo + SORT_RUN < len ? lo + SORT_RUN : len;
		size_t j;

		for (j = lo + 1; j < hi; j++) {
			long key = v[j];
			size_t k = j;

			while (k > lo && ts_ft_before(t, fs, key, v[k - 1])) {
				v[k] = v[k - 1];
				k--;
			}
			v[k] = key;
		}
	}
	for (width = SORT_RUN; width < len; width *= 2) {
		for (lo = 0; lo < len; lo += 2 * width) {
			size_t mid = lo + width < len ? lo + width : len;
			size_t hi = mid + width < len ? mid + width : len;
			size_t a = lo, b = mid, o = lo;

			while (a < mid && b < hi)
				dst[o++] = ts_ft_before(t, fs, src[b], src[a])
						   ? src[b++]
						   : src[a++];
			while (a < mid)
				dst[o++] = src[a++];
			while (b < hi)
				dst[o++] = src[b++];
		}
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != v)
		memcpy(v, src, len * sizeof(*v));
}

/*
 * Copy the kids of accounts from[0 .. count) to fs->ft_order[top ..],
 * sort them, push them as a level.  RET 1 if pushed, 0 if no kids.
 */
static int ft_push(const struct ts_tree *t, struct ts_fs *fs, const long *from,
		   size_t count, int tied, size_t *sp, size_t *top)
{
	long *dst = fs->ft_order + *top;
	struct ts_ft_frame *f;
	size_t len = 0, j;

	for (j = 0; j < count; j++) {
		long a = from[j];

		memcpy(dst + len, t->kids + t->kid_first[a],
		       t->kid_count[a] * sizeof(*dst));
		len += t->kid_count[a];
	}
	if (!len)
		return 0;
	ft_sort(t, fs, dst, fs->ft_merge, len);
	f = &fs->ft_stack[(*sp)++];
	f->start = *top;
	f->len = len;
	f->next = 0;
	f->tied = tied;
	*top += len;
	return 1;
}

/*
 * Rank every user: walk the tree from the root, each account's kids in
 * ft_push()'s order, giving tied users one rank (the rule above); fills
 * fs->rank and fs->fs_factor of users.
 */
static void ft_rank(const struct ts_tree *t, struct ts_fs *fs, int flags)
{
	uint32_t users = (uint32_t)t->n_users;
	uint32_t rank = users, rnt = users;
	size_t sp = 0, top = 0;
	long root = 0;

	ft_push(t, fs, &root, 1, 0, &sp, &top);
	while (sp) {
		struct ts_ft_frame *f = &fs->ft_stack[sp - 1];
		const long *level = fs->ft_order + f->start;
		size_t i = f->next, m = 0;
		long a;
		long double prev;
		int tied;

		if (i == f->len) { /* level done: free its slots */
			top = f->start;
			sp--;
			continue;
		}
		a = level[i];
		prev = i ? fs->level_fs[level[i - 1]] : TS_USAGE_NO_VAL;
		tied = (i == 0 && f->tied) || prev == fs->level_fs[a];
		if (t->is_user[a]) {
			if (!tied)
				rank = rnt;
			fs->rank[a] = rank;
			fs->fs_factor[a] = rank / (double)users;
			rnt--;
			f->next = i + 1;
			continue;
		}
		if (flags & TS_FT_MERGE_TIED)
			while (i + m + 1 < f->len &&
			       !t->is_user[level[i + m + 1]] &&
			       fs->level_fs[level[i + m + 1]] ==
				       fs->level_fs[a])
				m++;
		f->next = i + m + 1;
		ft_push(t, fs, level + i, m + 1, tied, &sp, &top);
	}
}

/*
 * The scratch of ft_rank(): ft_order and ft_merge for every node, and
 * one stack frame per level of the tree (the walk holds one per level of
 * the current path).  Grown, never shrunk, so that a controller's cycles
 * allocate nothing once the tree stops growing.  RET TS_OK or TS_ENOMEM.
 */
static int ft_scratch(const struct ts_tree *t, struct ts_fs *fs,
		      struct ts_error *err)
{
	size_t frames = 2, i;
	void *a, *b;

	for (i = 0; i < t->n; i++)
		if (t->depth[i] + 2 > frames)
			frames = t->depth[i] + 2;
	if (fs->ft_cap < t->n) {
		a = realloc(fs->ft_order, t->n * sizeof(*fs->ft_order));
		if (a)
			fs->ft_order = a;
		b = a ? realloc(fs->ft_merge, t->n * sizeof(*fs->ft_merge))
		      : NULL;
		if (b)
			fs->ft_merge = b;
		if (!a || !b)
			return ts_error_set(
				err, TS_ENOMEM, -1,
				"fair tree: cannot size its scratch for %zu nodes",
				t->n);
		fs->ft_cap = t->n;
	}
	if (fs->ft_stack_cap < frames) {
		a = realloc(fs->ft_stack, frames * sizeof(*fs->ft_stack));
		if (!a)
			return ts_error_set(
				err, TS_ENOMEM, -1,
				"fair tree: cannot size its stack for %zu levels",
				frames);
		fs->ft_stack = a;
		fs->ft_stack_cap = frames;
	}
	return TS_OK;
}

int ts_fair_tree_opt(const struct ts_tree *t, int ft_flags, struct ts_fs *fs,
		     struct ts_error *err)
{
	int rc;
	size_t i;

	if ((rc = ts_normalise_check(t, fs, "fair tree", err)) ||
	    (rc = ft_scratch(t, fs, err)))
		return rc;
	if (ft_flags & ~TS_FT_MERGE_TIED)
		return ts_error_set(err, TS_EINVAL, -1,
				    "fair tree: unknown flags 0x%x",
				    (unsigned)ft_flags);
	ts_normalise_usage(t, fs);
	ft_level_fs(t, fs);
	for (i = 0; i < t->n; i++) {
		fs->fs_factor[i] = 0.0;
		fs->rank[i] = 0;
	}
	ft_rank(t, fs, ft_flags);
	return TS_OK;
}

int ts_fair_tree(const struct ts_tree *t, struct ts_fs *fs,
		 struct ts_error *err)
{
	return ts_fair_tree_opt(t, TS_FT_AS_RUN, fs, err);
}
