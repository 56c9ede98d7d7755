/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_windows.h - Maui usage windows (usage_window=, usage_depth=,
 * usage_decay=; src/windows.h) in slurmctld: what replaces half-life
 * decay of fair-share usage when usage_window= is set.
 *
 *   start     from the windows saved in StateSaveLocation/treeshare_state
 *             (checkpoint.h hands their image over, or a migrated
 *             treeshare_windows), reconfigured to the configured
 *             length, depth and decay (one log line); with none, empty
 *             windows get every association's current usage_raw as usage
 *             of the current window (a first start, or a switch from
 *             half-life).
 *   charge    a job's usage of [from, to] goes, undecayed, to its
 *             association, every ancestor and the total, split at each
 *             window boundary in proportion to the time on either side.
 *   cycle     roll to the cycle's time (a log line when windows were
 *             skipped), then the tree's usage is each association's
 *             decay-weighted sum, the root's the weighted total, so every
 *             algorithm's usage_norm is seed 003's ratio.
 *   save      none here: checkpoint.c encodes the windows
 *             (usage_windows_image()) with the rest of the plugin's
 *             state into one file, once a cycle and at fini.  Windows
 *             stopped by a reconfigure are kept as an image and saved
 *             with every commit until usage_window= is set again.
 *   credentials  with per-credential fair share configured
 *             (priority_conf.h's cred_usage), Maui's usage per user,
 *             group, account, QOS and class (src/credential_usage.h)
 *             is charged in the same pieces and rolled with the
 *             windows; saved in the same commit, kept as an image
 *             while not in use.  Without saved usage it starts empty.
 *
 * windows_mutex (usage_windows.c) guards the windows; it is taken last,
 * inside any Slurm lock, and never held across one or across file I/O.
 */
#ifndef PT_USAGE_WINDOWS_H
#define PT_USAGE_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "src/cred_shares.h"
#include "src/credential_usage.h"
#include "src/tree.h"

#include "priority_conf.h"

/* Where usage windows were kept before issue 13 (read once, migrated). */
#define USAGE_WINDOWS_FILE "treeshare_windows"

/*
 * usage_windows_keep_image() - saved windows not (yet) in use: what the
 * next usage_windows_start() starts from and what is saved meanwhile.
 * Takes ownership of image (malloc'ed); NULL drops the kept image.
 */
void usage_windows_keep_image(unsigned char *image, size_t len);

/* usage_windows_keep_cred_image() - the same for usage per credential. */
void usage_windows_keep_cred_image(unsigned char *image, size_t len);

/*
 * usage_windows_start() - windows for c (usage_window= set) at now, from
 * the kept image, else from every association's usage_raw (takes
 * assoc_mgr's association read lock).  outcome ends the error line
 * ("slurmctld cannot start").  RET 0, or -1 after logging why.
 */
int usage_windows_start(const struct priority_conf *c, time_t now,
			const char *outcome);

/*
 * usage_windows_stop() - free the windows in use; keep: encode them first
 * as the kept image (usage_window= removed at reconfigure).  No file I/O.
 */
void usage_windows_stop(bool keep, time_t now);

/* usage_windows_fini() - free the windows and the kept image. */
void usage_windows_fini(void);

/* usage_windows_active() - the windows are in use. */
bool usage_windows_active(void);

/* usage_windows_kept() - saved windows are kept, not in use. */
bool usage_windows_kept(void);

/*
 * usage_windows_reconfigure() - c's length, depth and decay at now (one
 * log line saying what changed).  Starts the windows when usage_window=
 * was just set, stops them (kept) when it was removed.
 */
void usage_windows_reconfigure(const struct priority_conf *c, time_t now);

/*
 * usage_windows_image() - what to save: the windows in use encoded at
 * now (*in_use true), else a copy of the kept image, else nothing (*buf
 * NULL).  OUT *buf (malloc'ed; free() it), *len.  The caller may hold
 * assoc_mgr's locks (windows_mutex is taken last), so that the image is
 * of the same instant as the usage read under them.
 * RET 0, or -1 (logged) when out of memory.
 */
int usage_windows_image(time_t now, unsigned char **buf, size_t *len,
			bool *in_use);

/*
 * usage_windows_cred_image() - usage_windows_image() for the usage per
 * credential: in use, else kept, else nothing.  RET 0 or -1 (logged).
 */
int usage_windows_cred_image(time_t now, unsigned char **buf, size_t *len);

/*
 * usage_windows_cred_shares() - s taken from the usage per credential in
 * use (none: no usage rows) and tg (ts_cred_shares_take()).  id_of is
 * called with windows_mutex held: it must only look names up in memory.
 * RET 0, or -1 (logged; s as it was).
 */
int usage_windows_cred_shares(struct ts_cred_shares *s,
			      const struct ts_targets *tg, ts_cred_id_of id_of,
			      void *arg);

/* Fills in a job's credentials (credential_ids.h), for a charge. */
typedef void (*usage_cred_of)(const void *job, struct ts_cred_ids *ids);

/*
 * usage_windows_charge() - add amount (>= 0) used evenly over [from, to]
 * to each of ids[0 .. n) and to the total, and when usage per credential
 * is kept, to the credentials cred_of(job) gives (cred_of NULL: none;
 * called only then, so a charge without costs nothing more).  No
 * allocation unless an id is new.  Caller may hold any Slurm lock.
 * RET false when the windows are not in use (stopped by a reconfigure
 * meanwhile): nothing charged.
 */
bool usage_windows_charge(const uint32_t *ids, size_t n, usage_cred_of cred_of,
			  const void *job, long double amount, time_t from,
			  time_t to);

/* usage_windows_roll() - roll window 0 to now; logs skipped windows. */
void usage_windows_roll(time_t now);

/*
 * Maui's usage per credential without usage windows (c->cred_usage and
 * no usage_window=): one value per credential that decays by
 * PriorityDecayHalfLife, as usage_raw (src/credential_usage.h).
 *   usage_windows_cred_start()   at a start (from the saved image,
 *                                converted if it was kept in windows)
 *   usage_windows_cred_charge()  a job's decayed charge, as usage_raw's
 *   usage_windows_cred_decay()   each cycle's decay factor
 * The last two do nothing while the usage is kept in windows.  Locks as
 * usage_windows_charge().
 */
void usage_windows_cred_start(const struct priority_conf *c, time_t now);
void usage_windows_cred_charge(usage_cred_of cred_of, const void *job,
			       long double amount, time_t t);
void usage_windows_cred_decay(double factor);

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

#endif /* PT_USAGE_WINDOWS_H */
