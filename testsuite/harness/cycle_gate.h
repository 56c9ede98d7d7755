/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cycle_gate.h - count the decay thread's cycles and hold it between them.
 *
 * A cycle ends when the plugin, holding slurmctld's state-file lock
 * (lock_state_files()), has rewritten StateSaveLocation/
 * priority_last_decay_ran: multifactor does that as the last step of every
 * cycle, and treeshare must do the same for a restart to be seamless.
 * unlock_state_files() then reports the end here; the gate keeps the
 * calling thread inside unlock_state_files() until the harness allows the
 * next cycle, so the harness reads a quiet controller and nothing runs
 * ahead of the fake clock.
 */
#ifndef TH_CYCLE_GATE_H
#define TH_CYCLE_GATE_H

#include <stdbool.h>

/* th_gate_cycle_ended() - called by unlock_state_files(); may block. */
void th_gate_cycle_ended(void);

/*
 * th_gate_wait() - wait until cycle n has ended, at most timeout_s real
 * seconds.  RET true if it has, false on timeout.  *ns, if not NULL,
 * gets the real time in nanoseconds from the last th_gate_allow() (or
 * from th_gate_arm()) to the end of cycle n.
 */
bool th_gate_wait(unsigned n, unsigned timeout_s, long long *ns);

/*
 * th_gate_start_at() - count cycles from done (a run resumed after a
 * crash in cycle done): the thread's first cycle is done + 1.  Before
 * th_gate_arm().
 */
void th_gate_start_at(unsigned done);

/* th_gate_arm() - start timing cycle 1 (call just before init()). */
void th_gate_arm(void);

/* th_gate_allow() - let the thread run cycle n (n = ended + 1). */
void th_gate_allow(unsigned n);

/* th_gate_open() - stop holding the thread (before the plugin's fini()). */
void th_gate_open(void);

/*
 * th_gate_arm_stop(), th_gate_disarm_stop() - around a restart's
 * priority_g_fini(): the plugin's pthread_join() of its decay thread (the
 * harness exports pthread_join() and passes it on) releases the thread
 * held at the end of the last cycle, without letting another cycle run,
 * so the cycle count stays exact across the restart.
 */
void th_gate_arm_stop(void);
void th_gate_disarm_stop(void);

/* th_gate_cycles() - number of cycles ended so far. */
unsigned th_gate_cycles(void);

#endif
