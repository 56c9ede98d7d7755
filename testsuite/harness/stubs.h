/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stubs.h - what the harness tells its slurmctld stand-ins.
 *
 * stubs.c defines the slurmctld symbols a priority plugin links against
 * (the list and their meaning: ts-harness(1), STUBBED SLURMCTLD SYMBOLS).
 * The variables themselves (job_list, cluster_cpus, ...) are declared by
 * Slurm's headers; these functions set up the rest.
 */
#ifndef TH_STUBS_H
#define TH_STUBS_H

/*
 * th_stubs_watch_decay_file() - name the file whose rewrite under
 * lock_state_files() ends a cycle (StateSaveLocation/
 * priority_last_decay_ran).  path is copied.
 */
void th_stubs_watch_decay_file(const char *path);

/* th_stubs_free() - release what the stubs allocated. */
void th_stubs_free(void);

#endif
