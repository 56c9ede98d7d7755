/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_ipmi.c - chassis power through ipmitool, read back after each
 * operation (backend_ipmi.h).  Facts from the lab (RECIPE 5.8): ipmi_sim
 * 2.0.33 lacks "Get Channel Cipher Suites", so without -C ipmitool 1.8.19
 * probes for ~10 s per call; -C 3 answers in ~0.05 s.
 * Edge cases: a node without a bmc entry fails alone; status output other
 * than "Chassis Power is on|off" is a failure, not a guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_ipmi.h"
#include "command.h"

enum chassis { CH_FAILED = -1, CH_OFF = 0, CH_ON = 1 };

/* What one node is waiting for. */
struct pending {
	const struct ts_power_bmc *bmc;
	int want_on;
	int done, failed;
	int soft;	/* a soft off is pending, not yet hardened */
	double started; /* monotonic time of the last action */
};

/*
 * One ipmitool call.  For "status" RET CH_ON/CH_OFF; for actions CH_ON on
 * success.  CH_FAILED when ipmitool failed (logged, *err set).
 */
static int ipmitool(struct np_ipmi *c, const char *event, const char *node,
		    const struct ts_power_bmc *b, const char *action,
		    struct ts_error *err)
{
	const struct ts_power_config *cfg = c->cfg;
	char suite[16], retries[16], port[16], why[TS_ERROR_MSG_MAX];
	const char *argv[] = { cfg->ipmitool_path,
			       "-I",
			       "lanplus",
			       "-C",
			       suite,
			       "-N",
			       "1",
			       "-R",
			       retries,
			       "-H",
			       b->address,
			       "-p",
			       port,
			       "-U",
			       b->user,
			       "-f",
			       b->password_file,
			       "chassis",
			       "power",
			       action,
			       NULL };
	int status = !strcmp(action, "status"), rc = CH_FAILED;
	struct np_command_result res;
	char *line;

	snprintf(suite, sizeof(suite), "%ld", cfg->ipmi_cipher_suite);
	snprintf(retries, sizeof(retries), "%ld", cfg->command_retries);
	snprintf(port, sizeof(port), "%ld", b->port);
	line = np_command_line(argv);
	if (!status)
		np_log(c->log, TS_LOG_INFO, "%s;launch: %s", event,
		       line ? line : action);
	if (np_command_run(argv, cfg->command_timeout, &res, err) != TS_OK) {
		snprintf(why, sizeof(why), "%s", err ? err->msg : "");
	} else if (!res.exited || res.status) {
		np_command_failure(&res, cfg->command_timeout, why,
				   sizeof(why));
	} else if (!status) {
		rc = CH_ON;
	} else if (strstr(res.out, "Chassis Power is on")) {
		rc = CH_ON;
	} else if (strstr(res.out, "Chassis Power is off")) {
		rc = CH_OFF;
	} else {
		snprintf(why, sizeof(why), "unexpected status output: %.200s",
			 res.out);
	}
	if (rc == CH_FAILED) {
		np_log(c->log, TS_LOG_ERROR, "%s;error: %s: %s: %s (%.1f s)",
		       event, node, line ? line : action, why, res.seconds);
		ts_error_set(err, TS_EIO, -1, "%s: BMC %s:%ld: %s", node,
			     b->address, b->port, why);
	} else if (!status) {
		np_log(c->log, TS_LOG_INFO, "%s;launch: finished", event);
	}
	np_command_result_free(&res);
	free(line);
	return rc;
}

/* Steps 1 and 2 for one node: read its chassis power, act if needed. */
static void start_power_action(struct np_ipmi *c, const char *event,
			       const char *node, struct pending *p,
			       struct ts_error *err)
{
	const struct ts_power_config *cfg = c->cfg;
	const char *action;
	int now;

	p->bmc = ts_power_config_bmc(cfg, node);
	if (!p->bmc) {
		np_log(c->log, TS_LOG_ERROR, "%s;error: %s has no bmc entry",
		       event, node);
		ts_error_set(err, TS_EINVAL, -1, "%s has no bmc entry", node);
		p->failed = 1;
		return;
	}
	now = ipmitool(c, event, node, p->bmc, "status", err);
	if (now == CH_FAILED) {
		p->failed = 1;
		return;
	}
	if (!p->want_on && now == CH_OFF) {
		np_log(c->log, TS_LOG_INFO,
		       "%s;%s: chassis power is off already", event, node);
		p->done = 1;
		return;
	}
	if (p->want_on && now == CH_ON) {
		/* A failed suspend is invisible to Slurm (RECIPE): the node
		 * must boot again to register. */
		np_log(c->log, TS_LOG_INFO,
		       "%s;%s: chassis power is on already: power cycle, so that it boots afresh",
		       event, node);
		action = "cycle";
	} else if (p->want_on) {
		action = "on";
	} else if (cfg->power_off_method == TS_POWER_OFF_SOFT) {
		action = "soft";
		p->soft = 1;
	} else {
		action = "off";
	}
	if (ipmitool(c, event, node, p->bmc, action, err) == CH_FAILED)
		p->failed = 1;
	p->started = np_monotonic_seconds();
}

/*
 * Step 3 for one started node: read its power back; a soft off that
 * outlasted soft_off_timeout is made hard.  RET 1 while still waiting.
 */
static int still_waiting(struct np_ipmi *c, const char *event, const char *node,
			 struct pending *p, struct ts_error *err)
{
	const struct ts_power_config *cfg = c->cfg;
	int now = ipmitool(c, event, node, p->bmc, "status", err);

	if (now == CH_FAILED) {
		p->failed = 1;
		return 0;
	}
	if (now == (p->want_on ? CH_ON : CH_OFF)) {
		p->done = 1;
		np_log(c->log, TS_LOG_INFO,
		       "%s;%s: chassis power is %s (confirmed after %.1f s)",
		       event, node, p->want_on ? "on" : "off",
		       np_monotonic_seconds() - p->started);
		return 0;
	}
	if (p->soft &&
	    np_monotonic_seconds() - p->started >= cfg->soft_off_timeout) {
		np_log(c->log, TS_LOG_INFO,
		       "%s;%s: still on %ld s after soft off: hard off", event,
		       node, cfg->soft_off_timeout);
		p->soft = 0;
		if (ipmitool(c, event, node, p->bmc, "off", err) == CH_FAILED) {
			p->failed = 1;
			return 0;
		}
	}
	return 1;
}

static void timed_out(struct np_ipmi *c, const char *event, const char *node,
		      struct pending *p, struct ts_error *err)
{
	const char *state = p->want_on ? "on" : "off";

	p->failed = 1;
	np_log(c->log, TS_LOG_ERROR,
	       "%s;error: %s: chassis power not %s within %ld s", event, node,
	       state, c->cfg->confirm_timeout);
	ts_error_set(err, TS_ETIMEDOUT, -1,
		     "%s: chassis power not %s within %ld s", node, state,
		     c->cfg->confirm_timeout);
}

/*
 * Power nodes on or off: 1. read each node's chassis power, 2. act where
 * it differs, 3. read back every 0.2 s until each matches, fails, or
 * confirm_timeout (+ soft_off_timeout for a soft off) has passed.
 * OUT ok[i].  RET TS_OK when all are done, else the first error's code.
 */
static int ipmi_set_power(struct np_ipmi *c, const char *const *nodes, size_t n,
			  int *ok, int on, struct ts_error *err)
{
	const struct ts_power_config *cfg = c->cfg;
	const char *event = on ? "node_power_on" : "node_power_off";
	struct pending *p = calloc(n ? n : 1, sizeof(*p));
	double deadline;
	size_t i, left;
	int rc = TS_OK;

	if (!p)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	for (i = 0; i < n; i++) {
		p[i].want_on = on;
		start_power_action(c, event, nodes[i], &p[i], err);
	}
	deadline = np_monotonic_seconds() + (double)cfg->confirm_timeout +
		   (cfg->power_off_method == TS_POWER_OFF_SOFT && !on
			    ? (double)cfg->soft_off_timeout
			    : 0);
	for (;;) {
		left = 0;
		for (i = 0; i < n; i++)
			if (!p[i].done && !p[i].failed)
				left += (size_t)still_waiting(
					c, event, nodes[i], &p[i], err);
		if (!left)
			break;
		if (np_monotonic_seconds() >= deadline) {
			for (i = 0; i < n; i++)
				if (!p[i].done && !p[i].failed)
					timed_out(c, event, nodes[i], &p[i],
						  err);
			break;
		}
		usleep(200000); /* BMCs answer in ~50 ms; don't flood */
	}
	for (i = 0; i < n; i++) {
		ok[i] = p[i].done;
		if (!ok[i] && rc == TS_OK)
			rc = err && err->code ? err->code : TS_EIO;
	}
	free(p);
	return rc;
}

static int ipmi_on(void *ctx, const char *const *nodes, size_t n, int *ok,
		   struct ts_error *err)
{
	return ipmi_set_power(ctx, nodes, n, ok, 1, err);
}

static int ipmi_off(void *ctx, const char *const *nodes, size_t n, int *ok,
		    struct ts_error *err)
{
	return ipmi_set_power(ctx, nodes, n, ok, 0, err);
}

struct ts_power_backend np_ipmi_backend(struct np_ipmi *ctx)
{
	struct ts_power_backend be = {
		TS_POWER_BACKEND_VERSION, "ipmi", ipmi_on, ipmi_off, NULL, ctx
	};

	return be;
}
