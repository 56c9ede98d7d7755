/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_cache.c - job fair-share factors by association id (see fs_cache.h):
 * open addressing, linear probing, at most half full, so a lookup is one
 * or two adjacent slots of a table that fits in cache where the
 * association records do not.
 */
#include "slurmctld_api.h"

#include <stdlib.h>
#include <string.h>

#include "fs_cache.h"

struct slot {
	uint32_t id; /* 0: empty (Slurm association ids start at 1) */
	double factor;
};

/* All guarded by the association lock (see fs_cache.h). */
static struct slot *slots;
static size_t cap; /* a power of two, or 0 */
static size_t used;
static enum ts_fs_algo stamp_algo;
static double stamp_damp;

static size_t home(uint32_t id)
{
	return (size_t)(id * 2654435761U) & (cap - 1);
}

int fs_cache_reset(size_t users, enum ts_fs_algo algo, double damp)
{
	size_t want = 64;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	while (want < 2 * users)
		want *= 2;
	if (want > cap) {
		struct slot *s = realloc(slots, want * sizeof(*s));

		if (!s) {
			error("%s: no memory to cache %zu fair-share factors",
			      plugin_type, users);
			used = 0;
			if (slots)
				memset(slots, 0, cap * sizeof(*slots));
			return -1;
		}
		slots = s;
		cap = want;
	}
	memset(slots, 0, cap * sizeof(*slots));
	used = 0;
	stamp_algo = algo;
	stamp_damp = damp;
	return 0;
}

void fs_cache_put(uint32_t id, double factor)
{
	size_t i;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	if (!cap || !id)
		return;
	for (i = home(id); slots[i].id; i = (i + 1) & (cap - 1)) {
		if (slots[i].id == id) {
			slots[i].factor = factor;
			return;
		}
	}
	/* Keep it at most half full: lookups stay short, probes end. */
	if (2 * (used + 1) > cap)
		return;
	slots[i].id = id;
	slots[i].factor = factor;
	used++;
}

bool fs_cache_get(uint32_t id, enum ts_fs_algo algo, double damp,
		  double *factor)
{
	size_t i;

	if (!cap || !id || algo != stamp_algo || damp != stamp_damp)
		return false;
	for (i = home(id); slots[i].id; i = (i + 1) & (cap - 1)) {
		if (slots[i].id == id) {
			*factor = slots[i].factor;
			return true;
		}
	}
	return false;
}

void fs_cache_prefetch(uint32_t id)
{
	if (cap)
		__builtin_prefetch(&slots[home(id)]);
}

void fs_cache_free(void)
{
	free(slots);
	slots = NULL;
	cap = used = 0;
}
