/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_cache.c - job fair-share factors by association id (see fs_cache.h):
 * open addressing, linear probing, at most half full, so a lookup is one
 * or two adjacent slots of a table that fits in cache where the
 * association records do not.
 */
#include "slurmctld_api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fs_cache.h"

#include "src/id_hash.h"

struct slot {
	uint32_t id;   /* 0: empty (Slurm association ids start at 1) */
	double factor; /* NaN: not computed yet (PBS values only) */
};

/* All guarded by the association lock (see fs_cache.h). */
static struct slot *slots;
static struct fs_pbs *pbs_values; /* parallel to slots */
static size_t cap;		  /* a power of two, or 0 */
static size_t used;
static enum ts_fs_algo stamp_algo;
static double stamp_damp;

static size_t home(uint32_t id)
{
	return ts_id_slot(id, cap);
}

int fs_cache_reset(size_t users, enum ts_fs_algo algo, double damp)
{
	size_t want = 64;
	bool grown = false;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	while (want < 2 * users)
		want *= 2;
	if (want > cap) {
		struct slot *s = realloc(slots, want * sizeof(*s));
		struct fs_pbs *p;

		if (s)
			slots = s;
		p = realloc(pbs_values, want * sizeof(*p));
		if (p)
			pbs_values = p;
		if (!s || !p) {
			error("%s: no memory to cache %zu fair-share factors",
			      plugin_type, users);
			used = 0;
			if (slots)
				memset(slots, 0, cap * sizeof(*slots));
			return -1;
		}
		cap = want;
		grown = true;
	}
	/* Empty, it is all zeros (with Maui's factors, every cycle's). */
	if (grown || used)
		memset(slots, 0, cap * sizeof(*slots));
	used = 0;
	stamp_algo = algo;
	stamp_damp = damp;
	return 0;
}

/* The slot of id, added (factor NaN, PBS values 0) if new; -1 if full. */
static long slot_of(uint32_t id)
{
	static const struct fs_pbs none;
	size_t i;

	for (i = home(id); slots[i].id; i = (i + 1) & (cap - 1))
		if (slots[i].id == id)
			return (long)i;
	/* Keep it at most half full: lookups stay short, probes end. */
	if (2 * (used + 1) > cap)
		return -1;
	slots[i].id = id;
	slots[i].factor = NAN;
	pbs_values[i] = none;
	used++;
	return (long)i;
}

void fs_cache_put(uint32_t id, double factor)
{
	long i;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	if (!cap || !id || (i = slot_of(id)) < 0)
		return;
	slots[i].factor = factor;
}

void fs_cache_put_pbs(uint32_t id, const struct fs_pbs *pbs)
{
	long i;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	if (!cap || !id || (i = slot_of(id)) < 0)
		return;
	pbs_values[i] = *pbs;
}

/* The slot of id, or -1; no change.  Inline: once per job and cycle. */
static inline __attribute__((always_inline)) long find(uint32_t id)
{
	size_t i;

	if (!cap || !id)
		return -1;
	for (i = home(id); slots[i].id; i = (i + 1) & (cap - 1))
		if (slots[i].id == id)
			return (long)i;
	return -1;
}

bool fs_cache_get(uint32_t id, enum ts_fs_algo algo, double damp,
		  double *factor)
{
	long i;

	if (algo != stamp_algo || damp != stamp_damp || (i = find(id)) < 0 ||
	    isnan(slots[i].factor))
		return false;
	*factor = slots[i].factor;
	return true;
}

bool fs_cache_get_pbs(uint32_t id, struct fs_pbs *pbs)
{
	static const struct fs_pbs none;
	long i = find(id);

	*pbs = i < 0 ? none : pbs_values[i];
	return i >= 0;
}

void fs_cache_prefetch(uint32_t id)
{
	if (cap)
		__builtin_prefetch(&slots[home(id)]);
}

void fs_cache_free(void)
{
	free(slots);
	free(pbs_values);
	slots = NULL;
	pbs_values = NULL;
	cap = used = 0;
}
