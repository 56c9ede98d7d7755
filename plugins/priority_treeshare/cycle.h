/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle.h - the decay thread: every PriorityCalcPeriod it resets usage
 * when PriorityUsageResetPeriod says so, decays usage, charges running
 * jobs, computes fair share and recomputes pending jobs' priorities, in
 * priority/multifactor's order (so the numbers match), then commits the
 * plugin's state (checkpoint.h).
 *
 * Locks, always in slurmctld's order (locks.h): lock_slurmctld() before
 * assoc_mgr_lock(), released in reverse; never held while the tree is
 * computed:
 *   copy in      { .assoc = READ_LOCK }
 *   compute      none
 *   write back   { .assoc = WRITE_LOCK }
 *   decay        { .assoc = WRITE_LOCK, .qos = WRITE_LOCK }
 *   job passes   { .job = WRITE_LOCK, .node = READ_LOCK, .part = READ_LOCK }
 *                then assoc_mgr's usage locks (charging) or
 *                { .assoc = READ_LOCK, .qos = READ_LOCK } (priorities),
 *                released and taken again every CYCLE_CHUNK jobs so that
 *                association readers (sshare) are not held off for long.
 * cycle_mutex (cycle.c) guards the thread's times and flags and is taken
 * last, never across a Slurm lock.
 */
#ifndef PT_CYCLE_H
#define PT_CYCLE_H

#include <stdbool.h>
#include <time.h>

#include "priority_conf.h"

/*
 * cycle_prepare() - the clock a job end and the thread start from:
 * last_ran and last_reset come from checkpoint_recover() (0 on a first
 * start or without fair share).
 * Before cycle_start(), and before any job can end (24.11 reads jobs,
 * and may end some, between init() and priority_p_thread_start()).
 */
void cycle_prepare(time_t last_ran, time_t last_reset);

/*
 * cycle_start() - start the decay thread after cycle_prepare().
 * RET 0 or -1 (logged, or not prepared, or already running).
 */
int cycle_start(void);

/* cycle_stop() - stop and join the thread (idempotent). */
void cycle_stop(void);

/*
 * cycle_times() - when running jobs were last charged up to and usage
 * last reset: what a commit records (the final one at fini).
 */
void cycle_times(time_t *last_ran, time_t *last_reset);

/*
 * cycle_fini() - after cycle_stop() and the last commit: the times and
 * decay factor as a fresh load has them (the .so stays mapped, and a
 * start without slurmdbd prepares no cycle).
 */
void cycle_fini(void);

/*
 * cycle_usage_clock() - what a job end needs to charge the tail of its
 * usage: when the last cycle charged running jobs up to (0 if none yet)
 * and the per-second decay factor in force.
 */
void cycle_usage_clock(time_t *last_ran, double *decay);

/*
 * cycle_windows() - usage_window= is in force: set in c and the windows
 * running (usage_windows.h).
 */
bool cycle_windows(const struct priority_conf *c);

/*
 * cycle_initial_priorities() - without slurmdbd there is no decay
 * thread; give every job its factors once so that sprio has something to
 * show (as priority/multifactor does).  Takes the job write lock.
 */
void cycle_initial_priorities(const struct priority_conf *c);

#endif /* PT_CYCLE_H */
