/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lock_hold.h - how long the plugin holds slurmctld's job write lock and
 * assoc_mgr's association write lock: what RPCs wait for (make bench).
 *
 * lock_slurmctld() and unlock_slurmctld() (stubs.c) report job write
 * holds here; assoc_mgr_lock() and assoc_mgr_unlock() are interposed on
 * libslurmfull's (exported by the harness, forwarded to the real ones)
 * for the association write lock.  Real time, not the fake clock.
 */
#ifndef TH_LOCK_HOLD_H
#define TH_LOCK_HOLD_H

#include <pthread.h>
#include <stdbool.h>

enum th_hold_lock { TH_HOLD_JOB, TH_HOLD_ASSOC, TH_HOLD_LOCKS };

struct th_holds {
	unsigned n[TH_HOLD_LOCKS];	     /* write holds */
	long long total_ns[TH_HOLD_LOCKS];   /* their sum */
	long long longest_ns[TH_HOLD_LOCKS]; /* the longest */
};

/* The write lock was just taken, or is about to be released. */
void th_hold_taken(enum th_hold_lock which);
void th_hold_released(enum th_hold_lock which);

/* th_hold_take_stats() - the holds since the last call, then zeroed. */
void th_hold_take_stats(struct th_holds *out);

/*
 * A call held inside the plugin (ts-harness -F): th_hold_pause() makes
 * thread t's next assoc_mgr_lock() wait, before it takes anything, until
 * th_hold_resume().  th_hold_wait_paused() - RET true once t waits there,
 * false if it does not within secs seconds (real time).
 */
void th_hold_pause(pthread_t t);
bool th_hold_wait_paused(unsigned secs);
void th_hold_resume(void);

#endif
