/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng.h - the harness's seeded random numbers (splitmix64).
 *
 * Small, fast, and the same sequence on every machine, so a generated case
 * or bench cluster is rebuilt exactly from its seed.  Not for anything
 * but test inputs.
 */
#ifndef TH_RNG_H
#define TH_RNG_H

#include <stdbool.h>
#include <stdint.h>

struct th_rng {
	uint64_t state;
};

static inline uint64_t th_rng_next(struct th_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (modulo bias is irrelevant for test inputs). */
static inline uint64_t th_rng_range(struct th_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + th_rng_next(r) % (hi - lo + 1);
}

/* True with probability percent / 100. */
static inline bool th_rng_chance(struct th_rng *r, unsigned percent)
{
	return th_rng_next(r) % 100 < percent;
}

#endif
