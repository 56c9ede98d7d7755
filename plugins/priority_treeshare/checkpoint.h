/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkpoint.h - the plugin's persistent state, committed as one unit
 * once a cycle: StateSaveLocation/treeshare_state (src/usage_state.h)
 * holds the last decay and reset times, every association's and QOS's
 * usage and the usage windows of one instant; priority_last_decay_ran
 * (src/decay_record.h) follows it in priority/multifactor's format so a
 * site can switch PriorityType.  The design and its guarantee are in
 * checkpoint.c and priority_treeshare(5), STATE FILES.
 *
 * Locks: checkpoint_commit() takes assoc_mgr's read locks for the
 * snapshot (the windows' lock inside them), then slurmctld's state-file
 * lock (lock_state_files()) for the writes, never both at once;
 * checkpoint_recover() takes assoc_mgr's write locks to put usage back.
 */
#ifndef PT_CHECKPOINT_H
#define PT_CHECKPOINT_H

#include <stdbool.h>
#include <time.h>

/*
 * checkpoint_recover() - at start, before the first cycle: read the
 * committed state (treeshare_state, else its .prev) and the decay record
 * (priority_last_decay_ran, else its .old), decide what the controller
 * resumes from, put the saved usage back into assoc_mgr's records when
 * that is it, hand the saved windows to usage_windows_keep_image(), and
 * give the last decay and reset times (0: none).  Logs every defect with
 * the file, the defect and what it loses.
 * RET 0, or -1 after logging why (both copies of a file unusable and no
 * slurmctld -i): slurmctld must not start.
 */
int checkpoint_recover(const char *state_dir, time_t now, time_t *last_ran,
		       time_t *last_reset);

/*
 * checkpoint_commit() - snapshot the usage and windows of now and commit
 * them with last_ran and last_reset: treeshare_state, then
 * priority_last_decay_ran.  The decay thread after each cycle, and fini.
 * A failure (full disk, EIO) of treeshare_state leaves both files as they
 * were; one of priority_last_decay_ran alone comes after the commit and
 * is logged as such.  Each is logged naming the file, once until the
 * error changes.  RET 0 or -1 (either file failed).  Never inlined (LTO
 * would): make bench counts the commit by this function's name.
 */
__attribute__((noinline)) int checkpoint_commit(time_t last_ran,
						time_t last_reset);

/* checkpoint_armed() - checkpoint_recover() succeeded: commits are due. */
bool checkpoint_armed(void);

/* checkpoint_fini() - forget the state directory; no more commits. */
void checkpoint_fini(void);

#endif /* PT_CHECKPOINT_H */
