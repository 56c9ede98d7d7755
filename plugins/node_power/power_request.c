/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * power_request.c - SuspendProgram, ResumeProgram and ResumeFailProgram:
 * slurmctld's requests turned into runs of ts_power_transition().
 * slurmctld passes one hostlist expression ("n[1-3]") and, to
 * ResumeProgram, SLURM_RESUME_FILE naming a memfd with
 * {"all_nodes":"n[1-3]","jobs":[{"job_id":9,"nodes":"n[1-3]"}]} (22.05);
 * we log that JSON.  The exit status is only logged by slurmctld; its
 * state machine runs on SuspendTimeout/ResumeTimeout and slurmd
 * registration alone.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "node_power.h"
#include "power/hostlist.h"
#include "power/state_file.h"
#include "power/transition.h"
#include "slurm_query.h"

static time_t real_now(void *ctx)
{
	(void)ctx;
	return time(NULL);
}

static void real_sleep(void *ctx, unsigned long ms)
{
	struct timespec ts = { (time_t)(ms / 1000),
			       (long)(ms % 1000) * 1000000L };

	(void)ctx;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * A claim's owner is alive while /proc/PID exists and is not a zombie
 * (in the lab, PID 1 reaps orphans only every few seconds: RECIPE 5.13).
 */
static int real_alive(void *ctx, long owner)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	(void)ctx;
	if (owner <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", owner);
	f = fopen(path, "re");
	if (!f)
		return kill((pid_t)owner, 0) == 0 || errno == EPERM ? 1 : 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* "pid (comm) S ..." */
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

struct ts_power_env np_real_env(void)
{
	struct ts_power_env env = { TS_POWER_ENV_VERSION, real_now, real_sleep,
				    real_alive, NULL };

	return env;
}

void np_ctx_backend(struct np_ctx *ctx)
{
	ctx->capmc.cfg = &ctx->cfg;
	ctx->capmc.log = &ctx->log;
	ctx->ipmi.cfg = &ctx->cfg;
	ctx->ipmi.log = &ctx->log;
	if (ctx->cfg.backend == TS_POWER_BACKEND_CAPMC)
		ctx->backend = np_capmc_backend(&ctx->capmc);
	else
		ctx->backend = np_ipmi_backend(&ctx->ipmi);
}

/* Log "EVENT;result: done: n[1-2]; refused (...): n3"; RET exit code. */
static int summarise(struct np_ctx *ctx, enum ts_power_op op,
		     const char *const *nodes, size_t n,
		     const enum ts_power_verdict *v)
{
	char *line = NULL;
	size_t line_len = 0;
	FILE *out = open_memstream(&line, &line_len); /* whole, any length */
	int code = NP_EXIT_OK, k, first = 1;

	for (k = TS_POWER_PENDING; k <= TS_POWER_SUPERSEDED; k++) {
		struct ts_hostlist hl = TS_HOSTLIST_INIT;
		char *list;
		size_t i;

		for (i = 0; i < n; i++)
			if ((int)v[i] == k)
				ts_hostlist_add(&hl, nodes[i], NULL);
		if (!hl.n)
			continue;
		list = ts_hostlist_ranged(&hl, NULL);
		if (out)
			fprintf(out, "%s%s: %s", first ? "" : "; ",
				ts_power_planner_verdict_name(
					(enum ts_power_verdict)k),
				list ? list : "?");
		first = 0;
		free(list);
		ts_hostlist_free(&hl);
		if (k == TS_POWER_FAILED || k == TS_POWER_PENDING)
			code = NP_EXIT_FAILED;
		else if (k != TS_POWER_DONE && k != TS_POWER_SUPERSEDED &&
			 code == NP_EXIT_OK)
			code = NP_EXIT_REFUSED;
	}
	if (out)
		fclose(out);
	np_log(&ctx->log, code == NP_EXIT_FAILED ? TS_LOG_ERROR : TS_LOG_INFO,
	       "%s;result: %s (exit %d)", ts_power_planner_op_event(op),
	       line ? line : "(out of memory)", code);
	free(line);
	return code;
}

int np_run(struct np_ctx *ctx, enum ts_power_op op, const char *const *nodes,
	   size_t n, const int *busy)
{
	enum ts_power_verdict *v = calloc(n ? n : 1, sizeof(*v));
	struct ts_power_request rq;
	struct ts_error err = TS_ERROR_INIT;
	int rc, code;

	if (!v)
		return NP_EXIT_FAILED;
	rq.op = op;
	rq.nodes = nodes;
	rq.n = n;
	rq.busy = busy;
	rq.owner = (long)getpid();
	rq.deadline = time(NULL) + (time_t)ctx->cfg.max_wait;
	rq.state_path = ctx->cfg.state_file;
	rc = ts_power_transition(&ctx->cfg, &ctx->backend, &ctx->env,
				 &ctx->logger, &rq, v, &err);
	if (rc != TS_OK)
		np_log(&ctx->log, TS_LOG_ERROR, "%s;error: %s",
		       ts_power_planner_op_event(op), err.msg);
	code = summarise(ctx, op, nodes, n, v);
	free(v);
	return rc != TS_OK ? NP_EXIT_FAILED : code;
}

/* Expand expr into a sorted, repeat-free list; logged on error. */
static int expand(struct np_ctx *ctx, const char *event, const char *expr,
		  struct ts_hostlist *hl)
{
	struct ts_error err = TS_ERROR_INIT;

	if (ts_hostlist_expand(hl, expr, &err) != TS_OK) {
		np_log(&ctx->log, TS_LOG_ERROR,
		       "%s;error: host list \"%s\": %s", event, expr, err.msg);
		return -1;
	}
	ts_hostlist_uniq(hl);
	return 0;
}

/* The resume file's JSON, for the log; "" if none. */
static void read_resume_file(char *buf, size_t len)
{
	const char *path = getenv("SLURM_RESUME_FILE");
	FILE *f;
	size_t n, i;

	buf[0] = '\0';
	if (!path || !(f = fopen(path, "re")))
		return;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	if (n == len - 1 && fgetc(f) != EOF && n >= 3)
		memcpy(buf + n - 3, "...", 3); /* the log line says it is cut */
	fclose(f);
	for (i = 0; i < n; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = ' ';
}

/* The worse of two exit codes: failed, then refused, then ok. */
static int worse(int a, int b)
{
	if (a == NP_EXIT_FAILED || b == NP_EXIT_FAILED)
		return NP_EXIT_FAILED;
	return a != NP_EXIT_OK ? a : b;
}

/*
 * SuspendProgram: power off what may be powered off; ramp the sleep
 * states of the rest down instead, where ramping is enabled (seed 001:
 * "power off/on only for eligible nodes when power_on_off_enable is set,
 * else sleep-state ramping only").
 */
static int suspend_nodes(struct np_ctx *ctx, const struct ts_hostlist *hl,
			 const int *busy)
{
	const char **sub[2];
	int *sub_busy[2], code = NP_EXIT_OK, has_sleep;
	size_t n[2] = { 0, 0 }, i, k;

	has_sleep = ctx->backend.set_sleep_limit != NULL;
	for (k = 0; k < 2; k++) {
		sub[k] = calloc(hl->n, sizeof(*sub[k]));
		sub_busy[k] = calloc(hl->n, sizeof(*sub_busy[k]));
	}
	if (!sub[0] || !sub[1] || !sub_busy[0] || !sub_busy[1]) {
		code = NP_EXIT_FAILED;
		goto out;
	}
	for (i = 0; i < hl->n; i++) {
		k = ts_power_planner_suspend_op(&ctx->cfg, hl->name[i],
						has_sleep) ==
		    TS_POWER_OP_RAMP_DOWN;
		if (k)
			np_log(&ctx->log, TS_LOG_INFO,
			       "node_power_off;%s: not powered off (%s): ramping its sleep state down instead",
			       hl->name[i],
			       ctx->cfg.power_on_off_enable
				       ? "not in poweroff_eligible"
				       : "power_on_off_enable is False");
		sub_busy[k][n[k]] = busy ? busy[i] : 0;
		sub[k][n[k]++] = hl->name[i];
	}
	if (n[0])
		code = np_run(ctx, TS_POWER_OP_OFF, sub[0], n[0], sub_busy[0]);
	if (n[1])
		code = worse(code, np_run(ctx, TS_POWER_OP_RAMP_DOWN, sub[1],
					  n[1], sub_busy[1]));
out:
	for (k = 0; k < 2; k++) {
		free(sub[k]);
		free(sub_busy[k]);
	}
	return code;
}

/*
 * ResumeProgram: nodes left ramped down (sleep limit above 0) are first
 * ramped back up to 0; then every node is powered on, which re-boots a
 * node that is on already, so that its slurmd registers afresh.
 */
static int resume_nodes(struct np_ctx *ctx, const struct ts_hostlist *hl)
{
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	const char **up = calloc(hl->n ? hl->n : 1, sizeof(*up));
	size_t i, n = 0;
	int code = NP_EXIT_OK;

	if (!up)
		return NP_EXIT_FAILED;
	if (ctx->backend.set_sleep_limit &&
	    ts_power_state_file_lock(&s, ctx->cfg.state_file, &st, &err) ==
		    TS_OK) {
		for (i = 0; i < hl->n; i++) {
			long k = ts_power_state_find(&st, hl->name[i]);

			if (k >= 0 && st.node[k].sleep > 0)
				up[n++] = hl->name[i];
		}
	}
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	if (n)
		code = np_run(ctx, TS_POWER_OP_RAMP_UP, up, n, NULL);
	free(up);
	return worse(code, np_run(ctx, TS_POWER_OP_ON,
				  (const char *const *)hl->name, hl->n, NULL));
}

int np_request(struct np_ctx *ctx, enum ts_power_op op, const char *expr)
{
	const char *event = ts_power_planner_op_event(op);
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	int *busy = NULL, *unknown = NULL, code;
	char resume[1024];
	size_t i;

	if (expand(ctx, event, expr, &hl) || !hl.n) {
		if (!hl.n)
			np_log(&ctx->log, TS_LOG_ERROR,
			       "%s;error: no node named in \"%s\"", event,
			       expr);
		ts_hostlist_free(&hl);
		return NP_EXIT_USAGE;
	}
	if (op == TS_POWER_OP_ON) {
		read_resume_file(resume, sizeof(resume));
		np_log(&ctx->log, TS_LOG_INFO,
		       "%s;request: resume %s (%zu node%s)%s%s", event, expr,
		       hl.n, hl.n == 1 ? "" : "s",
		       resume[0] ? "; SLURM_RESUME_FILE: " : "", resume);
	} else {
		const char *what = op == TS_POWER_OP_OFF       ? "suspend"
				   : op == TS_POWER_OP_RAMP_UP ? "ramp-up"
							       : "ramp-down";

		np_log(&ctx->log, TS_LOG_INFO, "%s;request: %s %s (%zu node%s)",
		       event, what, expr, hl.n, hl.n == 1 ? "" : "s");
	}
	if ((op == TS_POWER_OP_OFF || op == TS_POWER_OP_RAMP_DOWN) &&
	    ctx->cfg.slurm_check) {
		struct ts_error err = TS_ERROR_INIT;

		busy = calloc(hl.n, sizeof(*busy));
		unknown = calloc(hl.n, sizeof(*unknown));
		if (!busy || !unknown ||
		    np_slurm_busy((const char *const *)hl.name, hl.n, busy,
				  unknown, &err) != TS_OK) {
			np_log(&ctx->log, TS_LOG_ERROR,
			       "%s;refused: %s: cannot ask slurmctld whether they are allocated (%s)",
			       event, expr, err.msg[0] ? err.msg : "no memory");
			free(busy);
			free(unknown);
			ts_hostlist_free(&hl);
			return NP_EXIT_FAILED;
		}
		for (i = 0; i < hl.n; i++)
			if (unknown[i])
				np_log(&ctx->log, TS_LOG_ERROR,
				       "%s;%s: slurmctld does not know this node",
				       event, hl.name[i]);
	}
	if (op == TS_POWER_OP_OFF)
		code = suspend_nodes(ctx, &hl, busy);
	else if (op == TS_POWER_OP_ON)
		code = resume_nodes(ctx, &hl);
	else
		code = np_run(ctx, op, (const char *const *)hl.name, hl.n,
			      busy);
	free(busy);
	free(unknown);
	ts_hostlist_free(&hl);
	return code;
}

int np_resume_fail(struct np_ctx *ctx, const char *expr)
{
	struct ts_hostlist hl = TS_HOSTLIST_INIT;
	struct ts_power_store s = TS_POWER_STORE_INIT;
	struct ts_power_state st = TS_POWER_STATE_INIT;
	struct ts_error err = TS_ERROR_INIT;
	size_t i;
	int rc;

	if (expand(ctx, "node_power_on", expr, &hl)) {
		ts_hostlist_free(&hl);
		return NP_EXIT_USAGE;
	}
	np_log(&ctx->log, TS_LOG_ERROR,
	       "node_power_on;resume failed: slurmctld gave up on %s at ResumeTimeout; power state now unknown",
	       expr);
	rc = ts_power_state_file_lock(&s, ctx->cfg.state_file, &st, &err);
	if (rc == TS_ECORRUPT) {
		ts_power_state_file_quarantine(&s, &err);
		rc = TS_OK;
	}
	for (i = 0; rc == TS_OK && i < hl.n; i++) {
		long k = ts_power_state_get(&st, hl.name[i], &err);

		if (k < 0) {
			rc = TS_ENOMEM;
			break;
		}
		st.node[k].power = TS_POWER_UNKNOWN;
	}
	if (rc == TS_OK)
		rc = ts_power_state_file_save(&s, &st, &err);
	ts_power_state_file_unlock(&s);
	ts_power_state_free(&st);
	ts_hostlist_free(&hl);
	if (rc != TS_OK) {
		np_log(&ctx->log, TS_LOG_ERROR, "node_power_on;error: %s",
		       err.msg);
		return NP_EXIT_FAILED;
	}
	return NP_EXIT_OK;
}
