/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_power.h - what node_power's subcommands share.
 *
 * Exit codes (docs/node_power.8):
 *   0  every node reached the requested state (or nothing was to do)
 *   1  a backend command failed or timed out, or the state file failed
 *   2  usage or configuration error (nothing was done)
 *   3  nothing failed, but some nodes were refused (policy, allocated,
 *      min_node_down_delay, no free slot before max_wait)
 */
#ifndef NP_NODE_POWER_H
#define NP_NODE_POWER_H

#include "backend_capmc.h"
#include "backend_ipmi.h"
#include "log_file.h"
#include "power/backend.h"
#include "power/config.h"
#include "power/planner.h"

enum np_exit {
	NP_EXIT_OK = 0,
	NP_EXIT_FAILED = 1,
	NP_EXIT_USAGE = 2,
	NP_EXIT_REFUSED = 3,
};

struct np_ctx {
	const char *config_path;
	struct ts_power_config cfg;
	struct np_log log;
	struct ts_logger logger; /* libtreeshare -> log */
	struct ts_power_env env; /* real clock, real pids */
	struct np_capmc capmc;
	struct np_ipmi ipmi;
	struct ts_power_backend backend;
};

/* np_ctx_backend() - set up ctx->backend for cfg.backend. */
void np_ctx_backend(struct np_ctx *ctx);

/* np_real_env() - time(), nanosleep(), and pids from /proc. */
struct ts_power_env np_real_env(void);

/*
 * np_request() - suspend (op OFF) or resume (op ON) of expr, as slurmctld
 * asks, or an administrator's ramp-up / ramp-down; logs the request, asks
 * slurmctld which nodes are allocated before taking capacity away (unless
 * slurm_check is False), runs it under the shared limit, logs the outcome
 * per node.  RET an exit code.
 */
int np_request(struct np_ctx *ctx, enum ts_power_op op, const char *expr);

/* np_resume_fail() - ResumeFailProgram: log, mark power unknown. */
int np_resume_fail(struct np_ctx *ctx, const char *expr);

/* np_cycle() - the periodic analysis (`node_power cycle`). */
int np_cycle(struct np_ctx *ctx);

/* np_status() - print the state of all nodes, or of expr's. */
int np_status(struct np_ctx *ctx, const char *expr);

/*
 * np_run() - op on the nodes of hl under the shared limit; logs a summary
 * line per verdict.  busy may be NULL.  RET an exit code.
 */
int np_run(struct np_ctx *ctx, enum ts_power_op op, const char *const *nodes,
	   size_t n, const int *busy);

#endif /* NP_NODE_POWER_H */
