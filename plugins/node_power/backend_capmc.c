/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend_capmc.c - capmc through execve, replies parsed with json-c
 * (backend_capmc.h).  Log lines follow seed 001:
 *   node_power_off;launch: /opt/cray/capmc/default/bin/capmc node_off --nids 24-25
 *   node_power_off;launch: finished
 * Edge cases: a node without a nid fails alone, the others go on; a nid
 * that node_status never lists in the wanted state fails at
 * confirm_timeout; nids are deduplicated by ts_nid_ranges().
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend_capmc.h"
#include "command.h"
#include "power/nid.h"
#include "power/planner.h"

/*
 * Run "capmc VERB --nids LIST [--limit N]" with retries; on success *reply
 * holds the parsed JSON (caller puts it).  quiet: no launch lines (status
 * polls).  RET TS_OK or an error with *err set (and logged).
 */
static int capmc(struct np_capmc *c, const char *event, const char *verb,
		 const char *nids, long limit, int quiet, json_object **reply,
		 struct ts_error *err)
{
	const struct ts_power_config *cfg = c->cfg;
	char limit_s[24], why[TS_ERROR_MSG_MAX];
	const char *argv[8] = { cfg->capmc_path, verb, "--nids", nids };
	char *line;
	long attempt;
	int rc = TS_OK;

	*reply = NULL;
	if (limit >= 0) {
		snprintf(limit_s, sizeof(limit_s), "%ld", limit);
		argv[4] = "--limit";
		argv[5] = limit_s;
	}
	line = np_command_line(argv);
	for (attempt = 0; attempt <= cfg->command_retries; attempt++) {
		struct np_command_result res;
		json_object *j = NULL, *e = NULL, *m = NULL;
		int retry = 1;

		if (attempt)
			sleep(1);
		if (!quiet)
			np_log(c->log, TS_LOG_INFO, "%s;launch: %s", event,
			       line ? line : verb);
		rc = np_command_run(argv, cfg->command_timeout, &res, err);
		if (rc != TS_OK) {
			np_command_result_free(&res);
			break; /* cannot start it: retrying won't help */
		}
		if (!res.exited || res.status) {
			np_command_failure(&res, cfg->command_timeout, why,
					   sizeof(why));
		} else if (!(j = json_tokener_parse(res.out)) ||
			   !json_object_object_get_ex(j, "e", &e) ||
			   !json_object_is_type(e, json_type_int)) {
			snprintf(why, sizeof(why),
				 "reply is not capmc JSON with \"e\": %.200s",
				 res.out);
		} else if (json_object_get_int(e) != 0) {
			json_object_object_get_ex(j, "err_msg", &m);
			snprintf(why, sizeof(why), "e=%d err_msg=\"%s\"",
				 json_object_get_int(e),
				 m ? json_object_get_string(m) : "");
			retry = json_object_get_int(e) != 22;
		} else {
			np_command_result_free(&res);
			if (!quiet)
				np_log(c->log, TS_LOG_INFO,
				       "%s;launch: finished", event);
			*reply = j;
			free(line);
			return TS_OK;
		}
		json_object_put(j);
		np_command_result_free(&res);
		np_log(c->log, TS_LOG_ERROR,
		       "%s;error: %s: %s (attempt %ld of %ld)", event,
		       line ? line : verb, why, attempt + 1,
		       cfg->command_retries + 1);
		rc = ts_error_set(err, TS_EIO, -1, "capmc %s: %s", verb, why);
		if (!retry)
			break;
	}
	free(line);
	return rc;
}

/* nid of each node; ok[i] = 0 (and logged) for nodes without one. */
static int nids_of(struct np_capmc *c, const char *event,
		   const char *const *nodes, size_t n, long *nid, int *ok,
		   struct ts_error *err)
{
	size_t i;
	int rc = TS_OK;

	for (i = 0; i < n; i++) {
		nid[i] = ts_power_config_nid(c->cfg, nodes[i]);
		ok[i] = nid[i] >= 0;
		if (!ok[i]) {
			np_log(c->log, TS_LOG_ERROR,
			       "%s;error: %s has no nid (nid_map)", event,
			       nodes[i]);
			rc = ts_error_set(err, TS_EINVAL, -1,
					  "%s has no nid (nid_map)", nodes[i]);
		}
	}
	return rc;
}

/* 1 if some ok[i] is set: a node left to act on. */
static int any(const int *ok, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ok[i])
			return 1;
	return 0;
}

/* capmc's list of the nids (ok ones only); malloc()ed. */
static char *nid_list(const long *nid, const int *ok, size_t n)
{
	long *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i, m = 0;
	char *s;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		if (ok[i])
			v[m++] = nid[i];
	s = ts_nid_ranges(v, m, NULL);
	free(v);
	return s;
}

/* 1 if nid is listed under key in a node_status reply. */
static int listed(json_object *reply, const char *key, long nid)
{
	json_object *arr;
	size_t i, n;

	if (!json_object_object_get_ex(reply, key, &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++)
		if (json_object_get_int64(json_object_array_get_idx(arr, i)) ==
		    nid)
			return 1;
	return 0;
}

static int is_state(json_object *reply, int on, long nid)
{
	return on ? listed(reply, "on", nid) || listed(reply, "ready", nid)
		  : listed(reply, "off", nid);
}

/*
 * Poll node_status until each pending (ok) node is on (off); ok[i] drops
 * to 0 for nodes not confirmed by confirm_timeout.
 */
static int confirm(struct np_capmc *c, const char *event, const long *nid,
		   int *ok, size_t n, int on, struct ts_error *err)
{
	time_t end = time(NULL) + c->cfg->confirm_timeout;
	int *done = calloc(n ? n : 1, sizeof(*done));
	size_t i, left;
	int rc = TS_OK;

	if (!done)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	for (;;) {
		json_object *reply;
		int *want = calloc(n ? n : 1, sizeof(*want));
		char *list;

		left = 0;
		for (i = 0; i < n; i++) {
			want[i] = ok[i] && !done[i];
			left += want[i];
		}
		if (!left || time(NULL) >= end) {
			free(want);
			break;
		}
		sleep((unsigned)c->cfg->poll_interval);
		list = nid_list(nid, want, n);
		free(want);
		rc = capmc(c, event, "node_status", list ? list : "", -1, 1,
			   &reply, err);
		free(list);
		if (rc != TS_OK)
			break; /* logged; pending nodes fail below */
		for (i = 0; i < n; i++)
			if (ok[i] && !done[i] && is_state(reply, on, nid[i]))
				done[i] = 1;
		json_object_put(reply);
	}
	for (i = 0; i < n; i++) {
		if (!ok[i] || done[i])
			continue;
		ok[i] = 0;
		if (rc == TS_OK)
			rc = ts_error_set(
				err, TS_ETIMEDOUT, -1,
				"nid %ld not %s after confirm_timeout %ld s",
				nid[i], on ? "on" : "off",
				c->cfg->confirm_timeout);
		np_log(c->log, TS_LOG_ERROR,
		       "%s;error: nid %ld not confirmed %s by node_status within %ld s",
		       event, nid[i], on ? "on" : "off",
		       c->cfg->confirm_timeout);
	}
	free(done);
	return rc;
}

/*
 * Power nodes on (on 1) or off through capmc: node_on or node_off, and
 * node_reinit for a node found on already when powering on; then wait
 * for node_status to confirm.  OUT ok[i] 0 for a node that failed.
 * RET TS_OK, TS_ENOMEM, TS_EIO, TS_ETIMEDOUT or capmc's error.
 */
static int capmc_set_power(struct np_capmc *c, const char *const *nodes,
			   size_t n, int *ok, int on, struct ts_error *err)
{
	const char *event = on ? "node_power_on" : "node_power_off";
	long *nid = calloc(n ? n : 1, sizeof(*nid));
	int *is_on = calloc(n ? n : 1, sizeof(*is_on));
	int *act = calloc(n ? n : 1, sizeof(*act));
	json_object *reply = NULL;
	char *list = NULL;
	size_t i;
	int rc;

	if (!nid || !is_on || !act) {
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
		goto out;
	}
	rc = nids_of(c, event, nodes, n, nid, ok, err);
	if (!any(ok, n))
		goto out;
	if (on) {
		/*
		 * A node already on (a power off that failed unseen by Slurm)
		 * is re-initialised: slurmctld waits for a fresh boot.
		 */
		list = nid_list(nid, ok, n);
		if (capmc(c, event, "node_status", list, -1, 1, &reply, err)) {
			for (i = 0; i < n; i++)
				ok[i] = 0;
			rc = TS_EIO;
			goto out;
		}
		for (i = 0; i < n; i++)
			is_on[i] = ok[i] && is_state(reply, 1, nid[i]);
		json_object_put(reply);
		reply = NULL;
		for (i = 0; i < n; i++)
			if (is_on[i])
				np_log(c->log, TS_LOG_INFO,
				       "%s;%s (nid %ld) is on already: node_reinit",
				       event, nodes[i], nid[i]);
	}
	for (i = 0; i < 2; i++) {
		const char *verb = i	? "node_reinit"
				   : on ? "node_on"
					: "node_off";
		size_t j, m = 0;
		int r;

		for (j = 0; j < n; j++) {
			act[j] = ok[j] && (i ? is_on[j] : !is_on[j]);
			m += act[j];
		}
		if (!m)
			continue;
		free(list);
		list = nid_list(nid, act, n);
		r = capmc(c, event, verb, list, -1, 0, &reply, err);
		json_object_put(reply);
		reply = NULL;
		if (r != TS_OK) {
			for (j = 0; j < n; j++)
				if (act[j])
					ok[j] = 0;
			rc = r;
		}
	}
	if (confirm(c, event, nid, ok, n, on, err) != TS_OK)
		rc = TS_ETIMEDOUT;
out:
	free(list);
	free(nid);
	free(is_on);
	free(act);
	return rc;
}

static int capmc_on(void *ctx, const char *const *nodes, size_t n, int *ok,
		    struct ts_error *err)
{
	return capmc_set_power(ctx, nodes, n, ok, 1, err);
}

static int capmc_off(void *ctx, const char *const *nodes, size_t n, int *ok,
		     struct ts_error *err)
{
	return capmc_set_power(ctx, nodes, n, ok, 0, err);
}

static int capmc_limit(void *ctx, const char *const *nodes, size_t n,
		       long limit, int ramp_op, int *ok, struct ts_error *err)
{
	struct np_capmc *c = ctx;
	const char *event =
		ts_power_planner_op_event((enum ts_power_op)ramp_op);
	long *nid = calloc(n ? n : 1, sizeof(*nid));
	json_object *reply = NULL;
	char *list;
	size_t i;
	int rc;

	if (!nid)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	rc = nids_of(c, event, nodes, n, nid, ok, err);
	list = nid_list(nid, ok, n);
	if (any(ok, n) &&
	    capmc(c, event, "set_sleep_state_limit", list ? list : "", limit, 0,
		  &reply, err) != TS_OK) {
		for (i = 0; i < n; i++)
			ok[i] = 0;
		rc = TS_EIO;
	}
	json_object_put(reply);
	free(list);
	free(nid);
	return rc;
}

struct ts_power_backend np_capmc_backend(struct np_capmc *ctx)
{
	struct ts_power_backend be = { TS_POWER_BACKEND_VERSION,
				       "capmc",
				       capmc_on,
				       capmc_off,
				       capmc_limit,
				       ctx };

	return be;
}
