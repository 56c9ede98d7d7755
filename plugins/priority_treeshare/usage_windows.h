/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_windows.h - Maui usage windows (usage_window=, usage_depth=,
 * usage_decay=; src/windows.h) in slurmctld: what replaces half-life
 * decay of fair-share usage when usage_window= is set.
 *
 *   start     StateSaveLocation/treeshare_windows is loaded (or its
 *             .prev copy, logged); with no file, empty windows get every
 *             association's current usage_raw as usage of the current
 *             window (a first start, or a switch from half-life); with
 *             both copies unusable slurmctld refuses to start, leaving
 *             the files for inspection (with -i they are kept as .bad
 *             and the start is a first start).  Saved windows of another
 *             length, depth or decay are reconfigured (one log line).
 *   charge    a job's usage of [from, to] goes, undecayed, to its
 *             association, every ancestor and the total, split at each
 *             window boundary in proportion to the time on either side.
 *   cycle     roll to the cycle's time (a log line when windows were
 *             skipped), then the tree's usage is each association's
 *             decay-weighted sum, the root's the weighted total, so every
 *             algorithm's usage_norm is seed 003's ratio.
 *   save      at the end of every cycle inside the cycle's
 *             lock_state_files() pair, and at fini; encoded under the
 *             windows' lock, written after it.
 *
 * windows_mutex (usage_windows.c) guards the windows; it is taken last,
 * inside any Slurm lock, and never held across one or across file I/O.
 */
#ifndef PT_USAGE_WINDOWS_H
#define PT_USAGE_WINDOWS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "src/tree.h"

#include "priority_conf.h"

#define USAGE_WINDOWS_FILE "treeshare_windows"

/*
 * usage_windows_start() - windows for c (usage_window= set) at now, from
 * state_dir's file.  Takes assoc_mgr's association read lock (a first
 * start reads usage_raw).  outcome ends the error lines ("slurmctld
 * cannot start").  RET 0, or -1 after logging why.
 */
int usage_windows_start(const struct priority_conf *c, const char *state_dir,
			time_t now, const char *outcome);

/*
 * usage_windows_stop() - save (when save is true and the windows are in
 * use) and free them; the plugin's fini, or usage_window= removed at
 * reconfigure.  Idempotent.
 */
void usage_windows_stop(bool save, time_t now);

/* usage_windows_active() - the windows are in use. */
bool usage_windows_active(void);

/*
 * usage_windows_reconfigure() - c's length, depth and decay at now (one
 * log line saying what changed).  Starts the windows when usage_window=
 * was just set, stops them (saved) when it was removed.
 */
void usage_windows_reconfigure(const struct priority_conf *c,
			       const char *state_dir, time_t now);

/*
 * usage_windows_charge() - add amount (>= 0) used evenly over [from, to]
 * to each of ids[0 .. n) and to the total.  No allocation unless an id
 * is new.  Caller may hold any Slurm lock.  RET false when the windows
 * are not in use (stopped by a reconfigure meanwhile): nothing charged.
 */
bool usage_windows_charge(const uint32_t *ids, size_t n, long double amount,
			  time_t from, time_t to);

/* usage_windows_roll() - roll window 0 to now; logs skipped windows. */
void usage_windows_roll(time_t now);

/*
 * usage_windows_fill_tree() - give every node of t (finished) a window
 * row (new associations), forget associations no longer in t (node_of()
 * gives an id's node, < 0 if none), and set t->usage[] to the
 * decay-weighted sums, the root's to the total.  RET false (t untouched)
 * when the windows are not in use.
 */
bool usage_windows_fill_tree(struct ts_tree *t,
			     long (*node_of)(const void *arg, uint32_t id),
			     const void *arg);

/*
 * usage_windows_save() - write the windows to the state file at now.
 * Call inside lock_state_files().  RET 0, or -1 (logged).
 */
int usage_windows_save(time_t now);

#endif /* PT_USAGE_WINDOWS_H */
