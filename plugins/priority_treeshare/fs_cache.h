/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs_cache.h - the fair-share factor each user association's jobs get,
 * by association id, so that computing a job's priority does not touch
 * association records: Fair Tree's fs_factor, or 2^(-usage_efctv /
 * shares_norm / damp) of the association (its fs parent for
 * Fairshare=parent).
 *
 * Filled at each cycle's write back; a classic user's factor is added at
 * its first pending job (Slurm computes classic users' usage then).  The
 * entries are stamped with the algorithm and dampening they were computed
 * for; a lookup with others misses, so a reconfigure never serves a stale
 * factor.  Between cycles a factor follows the association records except
 * for one case: shares changed by sacctmgr reach it at the next cycle.
 *
 * With formula= (issue 5) each entry also holds the association's PBS
 * values (fairshare_perc, fairshare_tree_usage, fairshare_factor),
 * computed every cycle whatever the algorithm.  They sit in an array parallel
 * to the factors, so a lookup of a factor alone touches no more memory
 * than before.
 *
 * Guarded by assoc_mgr's association lock: fs_cache_get() and
 * fs_cache_get_pbs() need { .assoc = READ_LOCK }, everything else
 * { .assoc = WRITE_LOCK }.
 */
#ifndef PT_FS_CACHE_H
#define PT_FS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/fairshare.h"

/*
 * fs_cache_reset() - forget every entry and stamp the cache for algo and
 * damp, with room for users entries.  RET 0, or -1 (logged; the cache is
 * then empty and every lookup misses).
 */
int fs_cache_reset(size_t users, enum ts_fs_algo algo, double damp);

/* PBS PP-718's three values of one association. */
struct fs_pbs {
	double perc;	   /* fairshare_perc */
	double tree_usage; /* fairshare_tree_usage */
	double factor;	   /* fairshare_factor */
};

/* fs_cache_put() - the factor of association id (added or replaced). */
void fs_cache_put(uint32_t id, double factor);

/*
 * fs_cache_put_pbs() - the PBS values of association id (added or
 * replaced); an entry added this way has no factor until fs_cache_put().
 */
void fs_cache_put_pbs(uint32_t id, const struct fs_pbs *pbs);

/* fs_cache_get() - true and *factor when id has one for algo and damp. */
bool fs_cache_get(uint32_t id, enum ts_fs_algo algo, double damp,
		  double *factor);

/*
 * fs_cache_get_pbs() - true and *pbs when id's PBS values were stored
 * since the last reset; else false and *pbs all 0 (an association added
 * since the last cycle).
 */
bool fs_cache_get_pbs(uint32_t id, struct fs_pbs *pbs);

/* fs_cache_prefetch() - start loading id's slot (a hint, no effect);
 * needs the association lock like fs_cache_get(). */
void fs_cache_prefetch(uint32_t id);

/* fs_cache_free() - release the memory (plugin fini). */
void fs_cache_free(void);

#endif /* PT_FS_CACHE_H */
