/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend.h - the two narrow interfaces between the power logic and the
 * world (after SQLite's sqlite3_io_methods / sqlite3_vfs):
 *
 *   struct ts_power_backend  what can be done to nodes: capmc, IPMI, or a
 *                            test double.  The ramp logic sees only this.
 *   struct ts_power_env      the clock, sleeping and "is this claim owner
 *                            still alive": a unit test passes a simulated
 *                            clock and dead owners at will.
 *
 * Both are versioned: members are only ever appended, and version says how
 * many exist (TS_POWER_BACKEND_VERSION, TS_POWER_ENV_VERSION).
 *
 * Every backend method works on n nodes at once (one capmc call may carry
 * them all), returns only when each node is confirmed in the requested
 * state or has failed, sets ok[i] to 1 or 0 for each, and returns TS_OK
 * when all are ok, else the first failure's code with *err naming it.
 * Nodes with ok[i] == 0 are left in an unknown state: the caller records
 * them as such.  Methods log their own command lines; they never sleep
 * through the env's clock (their waits are real ones, bounded by the
 * config's command_timeout and confirm_timeout).
 */
#ifndef TS_POWER_BACKEND_H
#define TS_POWER_BACKEND_H

#include <stddef.h>
#include <time.h>

#include "error.h"

#define TS_POWER_BACKEND_VERSION 1

struct ts_power_backend {
	int version;
	const char *name; /* "capmc", "ipmi" */

	/*
	 * power_on() - power nodes on.  A node already on is power-cycled:
	 * slurmctld waits for a fresh boot, which a no-op "on" never gives
	 * (a failed suspend leaves the node on while Slurm shows it off).
	 */
	int (*power_on)(void *ctx, const char *const *nodes, size_t n, int *ok,
			struct ts_error *err);

	/* power_off() - power nodes off (soft first if so configured). */
	int (*power_off)(void *ctx, const char *const *nodes, size_t n, int *ok,
			 struct ts_error *err);

	/*
	 * set_sleep_limit() - set the nodes' sleep-state limit (capmc
	 * set_sleep_state_limit --limit), one step of the ramp op
	 * (TS_POWER_OP_RAMP_UP or _DOWN, for the log).  NULL when the
	 * backend has no sleep states (IPMI): ramps are then refused.
	 */
	int (*set_sleep_limit)(void *ctx, const char *const *nodes, size_t n,
			       long limit, int ramp_op, int *ok,
			       struct ts_error *err);

	void *ctx;
};

#define TS_POWER_ENV_VERSION 1

struct ts_power_env {
	int version;
	/* now() - seconds since the epoch. */
	time_t (*now)(void *ctx);
	/* sleep_ms() - let ms milliseconds pass (on the env's clock). */
	void (*sleep_ms)(void *ctx, unsigned long ms);
	/* owner_alive() - 0 when the claim owner (a pid) no longer exists. */
	int (*owner_alive)(void *ctx, long owner);
	void *ctx;
};

#endif /* TS_POWER_BACKEND_H */
