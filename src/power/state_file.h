/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.h - the shared state file: one writer at a time, never torn.
 *
 * Every node_power instance (slurmctld may start several at once, plus the
 * cycle timer) reads and writes the same state file:
 *   PATH        the state text (state.h), replaced whole by rename(2):
 *               written to PATH.new.<pid>, fsync()ed, renamed over PATH,
 *               then the directory is fsync()ed (atomic_file.h); a crash
 *               leaves either the old or the new file, never a mix.
 *   PATH.lock   an empty file that is never renamed; flock(LOCK_EX) on it
 *               serialises read-modify-write cycles.  A lock on PATH itself
 *               would be lost at the first rename.
 * The lock is held only to read, decide and write, never while a backend
 * command runs, so a hung BMC cannot stall other instances.
 */
#ifndef TS_POWER_STATE_FILE_H
#define TS_POWER_STATE_FILE_H

#include "error.h"
#include "power/state.h"

/* A larger PATH is refused (TS_EIO), not read: ~2 million nodes' lines. */
#define TS_POWER_STORE_MAX_BYTES (256L << 20)

struct ts_power_store {
	char *path;
	int lock_fd;	 /* -1 when not locked */
	char *read_text; /* PATH as read: a save of the same text is
				 * skipped (no write, no fsync) */
};

/* kernel style; clang-format would break the braces over 4 lines */
/* clang-format off */
#define TS_POWER_STORE_INIT { NULL, -1, NULL }
/* clang-format on */

/*
 * ts_power_state_file_lock() - take the lock (waiting for it) and read PATH
 * into st; a missing PATH is an empty state.  The directory must exist.
 * RET TS_OK; TS_ECORRUPT when PATH does not parse (lock held, st empty:
 * the caller may log, ts_power_state_file_quarantine() and go on); TS_EIO or
 * TS_ENOMEM with the lock released.
 */
int ts_power_state_file_lock(struct ts_power_store *s, const char *path,
			     struct ts_power_state *st, struct ts_error *err);

/*
 * ts_power_state_file_save() - replace PATH by st, atomically (lock held).
 * Nothing is written when st's text equals what was read.
 */
int ts_power_state_file_save(struct ts_power_store *s,
			     const struct ts_power_state *st,
			     struct ts_error *err);

/*
 * ts_power_state_file_quarantine() - rename a corrupt PATH to PATH.corrupt so
 * it can be inspected, keeping the lock.  RET TS_OK or TS_EIO.
 */
int ts_power_state_file_quarantine(struct ts_power_store *s,
				   struct ts_error *err);

/* ts_power_state_file_unlock() - release the lock; s may be locked again. */
void ts_power_state_file_unlock(struct ts_power_store *s);

#endif /* TS_POWER_STATE_FILE_H */
