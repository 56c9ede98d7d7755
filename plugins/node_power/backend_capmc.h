/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_capmc.h - struct ts_power_backend for Cray's capmc command line
 * tool, with seed 001's command lines:
 *   capmc node_on --nids 24-25        capmc node_off --nids 24-25
 *   capmc node_reinit --nids 24       (power_on of a node already on)
 *   capmc set_sleep_state_limit --nids 24-25 --limit 4
 *   capmc node_status --nids 24-25    (confirmation, every poll_interval)
 * Every reply is JSON: {"e": 0, "err_msg": "", ...}; e != 0 is an error
 * logged with its err_msg.  node_status lists nids under their state:
 * {"e":0,"err_msg":"","on":[24],"off":[25],...}.  A command that fails,
 * hangs past command_timeout (killed) or answers e != 0 is retried up to
 * command_retries times, except e=22 (invalid argument), which no retry
 * can fix.
 */
#ifndef NP_BACKEND_CAPMC_H
#define NP_BACKEND_CAPMC_H

#include "log_file.h"
#include "power/backend.h"
#include "power/config.h"

struct np_capmc {
	const struct ts_power_config *cfg;
	struct np_log *log;
};

/* np_capmc_backend() - the method table; ctx must outlive its use. */
struct ts_power_backend np_capmc_backend(struct np_capmc *ctx);

#endif /* NP_BACKEND_CAPMC_H */
