/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.h - when usage was last decayed and last reset, kept across
 * slurmctld restarts in StateSaveLocation/priority_last_decay_ran.
 *
 * The file is priority/multifactor's, in its format: two 64-bit signed
 * big-endian integers (Slurm's pack_time()), the last decay time then the
 * last reset time, epoch seconds.  Sharing it means a site may switch
 * PriorityType either way and restart without double-counting or losing
 * the usage of the interval since the last cycle.  It is written to
 * ".new", the previous copy kept as ".old", and renamed into place, so a
 * crash leaves either the old or the new copy, never a torn one.
 */
#ifndef PT_STATE_FILE_H
#define PT_STATE_FILE_H

#include <time.h>

#define STATE_FILE_NAME "priority_last_decay_ran"

/*
 * state_file_read() - read dir's file into *last_ran and *last_reset;
 * both 0 when there is none (first start).  A short file falls back to
 * the ".old" copy.
 * RET 0, or -1 after logging when neither copy can be read: the caller
 * must not guess (a guess double-counts or loses usage).
 */
int state_file_read(const char *dir, time_t *last_ran, time_t *last_reset);

/*
 * state_file_write() - replace dir's file with last_ran and last_reset,
 * holding slurmctld's state-file lock.
 * RET 0, or -1 after logging; the previous file is then untouched.
 */
int state_file_write(const char *dir, time_t last_ran, time_t last_reset);

/*
 * state_files_lock(), state_files_unlock() - slurmctld's state-file lock
 * (lock_state_files()), for a caller that writes other files with the
 * decay time in one pair (state_file_write_locked()); no-ops outside
 * slurmctld.
 */
void state_files_lock(void);
void state_files_unlock(void);

/* state_file_write_locked() - state_file_write() inside the lock. */
int state_file_write_locked(const char *dir, time_t last_ran,
			    time_t last_reset);

#endif /* PT_STATE_FILE_H */
