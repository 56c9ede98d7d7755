/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lock_hold.c - write-lock hold times (lock_hold.h).
 *
 * A write lock has one holder at a time, so the start of the current
 * hold needs no thread-local copy: only its holder writes it.  The sums
 * are guarded by their own mutex, read by the harness between cycles.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "src/common/assoc_mgr.h"

#include "fake_clock.h"
#include "lock_hold.h"

static long long held_since[TH_HOLD_LOCKS];
static pthread_mutex_t stats_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct th_holds stats; /* guarded by stats_mutex */

void th_hold_taken(enum th_hold_lock which)
{
	held_since[which] = th_clock_mono_ns();
}

void th_hold_released(enum th_hold_lock which)
{
	long long ns = th_clock_mono_ns() - held_since[which];

	pthread_mutex_lock(&stats_mutex);
	stats.n[which]++;
	stats.total_ns[which] += ns;
	if (ns > stats.longest_ns[which])
		stats.longest_ns[which] = ns;
	pthread_mutex_unlock(&stats_mutex);
}

void th_hold_take_stats(struct th_holds *out)
{
	pthread_mutex_lock(&stats_mutex);
	*out = stats;
	memset(&stats, 0, sizeof(stats));
	pthread_mutex_unlock(&stats_mutex);
}

typedef void (*assoc_lock_fn)(assoc_mgr_lock_t *locks);

/* libslurmfull's own, the next definitions after the harness's. */
static assoc_lock_fn real_lock, real_unlock;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void find_real(void)
{
	real_lock = (assoc_lock_fn)dlsym(RTLD_NEXT, "assoc_mgr_lock");
	real_unlock = (assoc_lock_fn)dlsym(RTLD_NEXT, "assoc_mgr_unlock");
}

void assoc_mgr_lock(assoc_mgr_lock_t *locks)
{
	pthread_once(&real_once, find_real);
	real_lock(locks);
	if (locks->assoc == WRITE_LOCK)
		th_hold_taken(TH_HOLD_ASSOC);
}

void assoc_mgr_unlock(assoc_mgr_lock_t *locks)
{
	pthread_once(&real_once, find_real);
	if (locks->assoc == WRITE_LOCK)
		th_hold_released(TH_HOLD_ASSOC);
	real_unlock(locks);
}
