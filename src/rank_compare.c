/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rank_compare.c - swapped pairs and Kendall's tau-b (rank_compare.h). */
#include <math.h>
#include <stdlib.h>

#include "rank_compare.h"

struct keys {
	const double *a, *b;
};

static int by_a_then_b(const void *x, const void *y, void *arg)
{
	const struct keys *k = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (k->a[i] != k->a[j])
		return k->a[i] < k->a[j] ? -1 : 1;
	if (k->b[i] != k->b[j])
		return k->b[i] < k->b[j] ? -1 : 1;
	return 0;
}

/* Pairs within runs of equal keys along idx[0 .. n), by key (a or b). */
static uint64_t tied_pairs(const size_t *idx, size_t n, const double *key,
			   const double *also)
{
	uint64_t tied = 0, run = 1;
	size_t i;

	for (i = 1; i <= n; i++) {
		if (i < n && key[idx[i]] == key[idx[i - 1]] &&
		    (!also || also[idx[i]] == also[idx[i - 1]])) {
			run++;
			continue;
		}
		tied += run * (run - 1) / 2;
		run = 1;
	}
	return n ? tied : 0;
}

/*
 * Merge sort of idx[0 .. n) by b, stable; RET the exchanges: pairs whose
 * b is strictly out of order, i.e. the swapped pairs once idx is in
 * (a, b) order.
 */
static uint64_t sort_by_b(size_t *idx, size_t *tmp, size_t n, const double *b)
{
	uint64_t swaps = 0;
	size_t width, lo;

	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = mid + width < n ? mid + width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				if (b[idx[j]] < b[idx[i]]) {
					swaps += mid - i;
					tmp[k++] = idx[j++];
				} else {
					tmp[k++] = idx[i++];
				}
			}
			while (i < mid)
				tmp[k++] = idx[i++];
			while (j < hi)
				tmp[k++] = idx[j++];
		}
		for (lo = 0; lo < n; lo++)
			idx[lo] = tmp[lo];
	}
	return swaps;
}

void ts_rank_compare(const double *a, const double *b, size_t n, size_t *work,
		     struct ts_rank_pairs *out)
{
	struct keys k = { a, b };
	size_t *idx = work, *tmp = work + n, i;
	uint64_t untied_a, untied_b;

	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), by_a_then_b, &k);
	out->pairs = n ? (uint64_t)n * (n - 1) / 2 : 0;
	out->tied_a = tied_pairs(idx, n, a, NULL);
	out->tied_both = tied_pairs(idx, n, a, b);
	out->swapped = sort_by_b(idx, tmp, n, b);
	out->tied_b = tied_pairs(idx, n, b, NULL);
	out->concordant = out->pairs - out->tied_a - out->tied_b +
			  out->tied_both - out->swapped;
	untied_a = out->pairs - out->tied_a;
	untied_b = out->pairs - out->tied_b;
	out->tau_b =
		untied_a && untied_b
			? ((double)out->concordant - (double)out->swapped) /
				  sqrt((double)untied_a * (double)untied_b)
			: NAN;
}
