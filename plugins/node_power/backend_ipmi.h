/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_ipmi.h - struct ts_power_backend for BMCs over IPMI 2.0
 * ("lanplus"), through ipmitool:
 *   ipmitool -I lanplus -C SUITE -N 1 -R RETRIES -H ADDR -p PORT -U USER
 *            -f PASSWORD_FILE chassis power on|off|soft|cycle|status
 * The password never appears on a command line (-f).  -N 1 -R n make an
 * unreachable BMC fail within seconds; command_timeout kills ipmitool
 * should it hang anyway.  After every operation the chassis power state
 * is read back ("Chassis Power is on") until it matches or
 * confirm_timeout passes.
 * power_on of a node whose BMC already says "on" power-cycles it (a power
 * off that failed is invisible to Slurm, and slurmctld waits for a fresh
 * boot).  power_off sends "soft" (ACPI shutdown) and, if the node is
 * still on after soft_off_timeout, "off"; power_off_method "hard" sends
 * "off" at once.  Nodes are handled side by side: each step is issued to
 * every node of the batch before waiting.
 * No sleep states: set_sleep_limit is NULL.
 */
#ifndef NP_BACKEND_IPMI_H
#define NP_BACKEND_IPMI_H

#include "log_file.h"
#include "power/backend.h"
#include "power/config.h"

struct np_ipmi {
	const struct ts_power_config *cfg;
	struct np_log *log;
};

struct ts_power_backend np_ipmi_backend(struct np_ipmi *ctx);

#endif /* NP_BACKEND_IPMI_H */
