/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_cache.c - job fair-share factors by association id (see fs_cache.h):
 * an id_map.h map to an entry, the entries' factors in one array and
 * their PBS values in another, so a lookup reads an 8-byte slot (or two
 * adjacent) and one factor, in tables that fit in cache where the
 * association records do not.
 */
#include "slurmctld_api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fs_cache.h"

#include "src/id_map.h"

/* All guarded by the association lock (see fs_cache.h). */
static struct ts_id_map by_id;	  /* association id -> entry */
static double *factors;		  /* NaN: not computed yet (PBS only) */
static struct fs_pbs *pbs_values; /* both ts_id_map_room(&by_id) long */
static enum ts_fs_algo stamp_algo;
static double stamp_damp;

int fs_cache_reset(size_t users, enum ts_fs_algo algo, double damp)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t want = users < 32 ? 32 : users;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	ts_id_map_clear(&by_id);
	if (want > ts_id_map_room(&by_id)) {
		double *f = NULL;
		struct fs_pbs *p = NULL;

		if (!ts_id_map_reserve(&by_id, want, &err)) {
			size_t room = ts_id_map_room(&by_id);

			f = realloc(factors, room * sizeof(*f));
			if (f)
				factors = f;
			p = realloc(pbs_values, room * sizeof(*p));
			if (p)
				pbs_values = p;
		}
		if (!f || !p) {
			error("%s: no memory to cache %zu fair-share factors",
			      plugin_type, users);
			/* No map: every lookup misses, nothing is added. */
			fs_cache_free();
			return -1;
		}
	}
	stamp_algo = algo;
	stamp_damp = damp;
	return 0;
}

/* The entry of id, added (factor NaN, PBS values 0) if new; -1 if full. */
static long entry_of(uint32_t id)
{
	static const struct fs_pbs none;
	size_t n = by_id.n;
	long e = ts_id_map_insert(&by_id, id, (uint32_t)n);

	if (e >= 0 && by_id.n > n) {
		factors[e] = NAN;
		pbs_values[e] = none;
	}
	return e;
}

void fs_cache_put(uint32_t id, double factor)
{
	long e;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	if (!id || (e = entry_of(id)) < 0)
		return;
	factors[e] = factor;
}

void fs_cache_put_pbs(uint32_t id, const struct fs_pbs *pbs)
{
	long e;

	xassert(verify_assoc_lock(ASSOC_LOCK, WRITE_LOCK));
	if (!id || (e = entry_of(id)) < 0)
		return;
	pbs_values[e] = *pbs;
}

/* The entry of id, or -1; no change.  Inline: once per job and cycle. */
static inline __attribute__((always_inline)) long find(uint32_t id)
{
	return id ? ts_id_map_find(&by_id, id) : -1;
}

bool fs_cache_get(uint32_t id, enum ts_fs_algo algo, double damp,
		  double *factor)
{
	long i;

	/* The lookup first: gcc then branches on the stamps (1 instruction
	 * a job fewer, make check-bench-guard), whatever the table. */
	if ((i = find(id)) < 0 || algo != stamp_algo || damp != stamp_damp ||
	    isnan(factors[i]))
		return false;
	*factor = factors[i];
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
	ts_id_map_prefetch(&by_id, id);
}

void fs_cache_free(void)
{
	ts_id_map_free(&by_id);
	free(factors);
	free(pbs_values);
	factors = NULL;
	pbs_values = NULL;
}
