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
 * Guarded by assoc_mgr's association lock: fs_cache_get() needs
 * { .assoc = READ_LOCK }, everything else { .assoc = WRITE_LOCK }.
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

/* fs_cache_put() - the factor of association id (added or replaced). */
void fs_cache_put(uint32_t id, double factor);

/* fs_cache_get() - true and *factor when id has one for algo and damp. */
bool fs_cache_get(uint32_t id, enum ts_fs_algo algo, double damp,
		  double *factor);

/* fs_cache_prefetch() - start loading id's slot (a hint, no effect);
 * needs the association lock like fs_cache_get(). */
void fs_cache_prefetch(uint32_t id);

/* fs_cache_free() - release the memory (plugin fini). */
void fs_cache_free(void);

#endif /* PT_FS_CACHE_H */
