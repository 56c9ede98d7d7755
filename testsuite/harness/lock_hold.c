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
#include <stdbool.h>
#include <string.h>
#include <time.h>

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

/* th_hold_pause()'s state, under pause_mutex; assoc_mgr_lock() also
 * reads pause_armed without it, atomically. */
static pthread_mutex_t pause_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pause_cond = PTHREAD_COND_INITIALIZER;
static pthread_t pause_thread;
static bool pause_armed, pausing;

void th_hold_pause(pthread_t t)
{
	pthread_mutex_lock(&pause_mutex);
	pause_thread = t;
	__atomic_store_n(&pause_armed, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pause_mutex);
}

bool th_hold_wait_paused(unsigned secs)
{
	/* Polled: the harness fakes CLOCK_REALTIME, a timed wait's clock. */
	const struct timespec tick = { .tv_nsec = 1000000 };
	unsigned ticks = secs * 1000;
	bool paused;

	for (;;) {
		pthread_mutex_lock(&pause_mutex);
		paused = pausing;
		pthread_mutex_unlock(&pause_mutex);
		if (paused || !ticks--)
			return paused;
		nanosleep(&tick, NULL);
	}
}

void th_hold_resume(void)
{
	pthread_mutex_lock(&pause_mutex);
	__atomic_store_n(&pause_armed, false, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&pause_cond);
	pthread_mutex_unlock(&pause_mutex);
}

/* The paused thread, at its next assoc_mgr_lock(). */
static void maybe_pause(void)
{
	pthread_mutex_lock(&pause_mutex);
	if (__atomic_load_n(&pause_armed, __ATOMIC_ACQUIRE) &&
	    pthread_equal(pause_thread, pthread_self())) {
		pausing = true;
		pthread_cond_broadcast(&pause_cond);
		while (__atomic_load_n(&pause_armed, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&pause_cond, &pause_mutex);
		pausing = false;
	}
	pthread_mutex_unlock(&pause_mutex);
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
	if (__atomic_load_n(&pause_armed, __ATOMIC_ACQUIRE))
		maybe_pause();
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
