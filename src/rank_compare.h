/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rank_compare.h - two orders of the same items compared: how many pairs
 * they order the opposite way, and Kendall's tau-b (ts-replay(1),
 * --compare: pending jobs ordered by their priority under two
 * configurations).
 *
 * For items i, j of n, with keys a[] (the first order) and b[]:
 *   swapped (discordant): (a[i] - a[j]) * (b[i] - b[j]) < 0
 *   concordant: the same product > 0
 *   tied in a: a[i] == a[j] (whatever b); tied in b likewise
 *   tau-b = (concordant - swapped) / sqrt((P - tied_a) * (P - tied_b)),
 *   P = n (n - 1) / 2; undefined (NaN) when every pair is tied in a or
 *   in b, n < 2 included.
 * Counted in O(n log n) (Knight, 1966): sort by (a, b), count the ties,
 * then merge-sort by b counting the exchanges, which are the swapped
 * pairs.
 */
#ifndef TS_RANK_COMPARE_H
#define TS_RANK_COMPARE_H

#include <stddef.h>
#include <stdint.h>

struct ts_rank_pairs {
	uint64_t pairs;	     /* n (n - 1) / 2 */
	uint64_t swapped;    /* ordered one way by a, the other by b */
	uint64_t concordant; /* ordered the same way by both */
	uint64_t tied_a;     /* a[i] == a[j] */
	uint64_t tied_b;     /* b[i] == b[j] */
	uint64_t tied_both;  /* both */
	double tau_b;	     /* NaN when undefined */
};

/*
 * ts_rank_compare() - compare a[0 .. n) with b[0 .. n) (finite keys)
 * into *out.  work has room for 2 n entries.
 */
void ts_rank_compare(const double *a, const double *b, size_t n, size_t *work,
		     struct ts_rank_pairs *out);

#endif /* TS_RANK_COMPARE_H */
