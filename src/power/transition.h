/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * transition.h - carry out one request (power on/off, ramp up/down of a
 * set of nodes) within max_concurrent_nodes, shared with every other
 * node_power instance through the state file.
 *
 * One run:
 *   1. refuse what planner.h's rules refuse (logged, one line per node);
 *   2. under the lock: repair dead claims, stamp each remaining node with
 *      a new ticket (the latest request for a node wins);
 *   3. repeat until nothing is pending: under the lock, claim as many
 *      pending nodes as free slots allow (a power-on also waits for
 *      min_node_down_delay), unlock, run the backend on the claimed batch
 *      (ramps: one sleep-state level per step, sleep_state_pause between
 *      steps, the level recorded after each step), then record the result
 *      and release the claims under the lock; when nothing could be
 *      claimed, sleep briefly, giving up at the request's deadline.
 * A crash at any point leaves claims that the next run's repair releases.
 */
#ifndef TS_POWER_TRANSITION_H
#define TS_POWER_TRANSITION_H

#include <stddef.h>
#include <time.h>

#include "error.h"
#include "log.h"
#include "power/backend.h"
#include "power/config.h"
#include "power/planner.h"

/* How long a run waits between two looks for a free slot. */
#define TS_POWER_SLOT_POLL_MS 200

struct ts_power_request {
	enum ts_power_op op;
	const char *const *nodes; /* distinct plain names */
	size_t n;
	const int *busy; /* per node: slurmctld says allocated/mixed;
				 * NULL: none is */
	long owner;	 /* this run's pid, recorded in its claims */
	time_t deadline; /* waiting for a slot or the delay ends here */
	const char *state_path;
};

/*
 * ts_power_transition() - run rq (see above).  OUT verdict[0..rq->n-1]:
 * TS_POWER_DONE or why not.  Logs through lg in the seed's
 * "<event>;<text>" form (node_power_off;refused: ...).
 * RET TS_OK when the run itself worked, whatever the verdicts; an error
 * (state file unreadable/unwritable, out of memory) with *err set; nodes
 * not reached then keep TS_POWER_PENDING or TS_POWER_FAILED.
 */
int ts_power_transition(const struct ts_power_config *cfg,
			const struct ts_power_backend *be,
			const struct ts_power_env *env,
			const struct ts_logger *lg,
			const struct ts_power_request *rq,
			enum ts_power_verdict *verdict, struct ts_error *err);

#endif /* TS_POWER_TRANSITION_H */
