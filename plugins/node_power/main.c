/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - node_power's command line (docs/node_power.8).
 *
 *   node_power [-c FILE] suspend|resume|resume-fail HOSTLIST [FEATURES]
 *   node_power [-c FILE] ramp-up|ramp-down HOSTLIST
 *   node_power [-c FILE] cycle | status [HOSTLIST] | check-config
 *   node_power-suspend HOSTLIST   (SuspendProgram; a link to node_power)
 *   node_power-resume HOSTLIST    (ResumeProgram)
 *   node_power-resume-fail HOSTLIST   (ResumeFailProgram)
 *
 * slurmctld execs its power programs with argv[0] the program's base
 * name, one hostlist argument, an environment of SLURM_CONF (plus
 * SLURM_RESUME_FILE) only, file descriptors 0-2 closed, and the signal
 * mask of the slurmctld thread that forked it (SIGTERM and others
 * blocked).  So before anything else: reopen 0-2 on /dev/null, unblock
 * and default every signal; then read the configuration.
 */
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "command.h"
#include "config_file.h"
#include "node_power.h"

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: node_power [-c CONFIG] suspend|resume|resume-fail "
		"HOSTLIST\n"
		"       node_power [-c CONFIG] ramp-up|ramp-down HOSTLIST\n"
		"       node_power [-c CONFIG] cycle\n"
		"       node_power [-c CONFIG] status [HOSTLIST]\n"
		"       node_power [-c CONFIG] check-config\n"
		"       node_power-suspend|node_power-resume|"
		"node_power-resume-fail HOSTLIST\n"
		"CONFIG defaults to node_power.json beside $SLURM_CONF, else "
		"/etc/slurm/node_power.json.\n");
}

/* Closed 0-2 would make our next open() a "stdout". */
static void open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

/* Subcommand from the program's name, or NULL for "node_power". */
static const char *subcommand_of(const char *argv0)
{
	char *copy = strdup(argv0 ? argv0 : "node_power");
	const char *base = copy ? basename(copy) : "node_power", *sub = NULL;

	if (!strcmp(base, "node_power-suspend"))
		sub = "suspend";
	else if (!strcmp(base, "node_power-resume"))
		sub = "resume";
	else if (!strcmp(base, "node_power-resume-fail"))
		sub = "resume-fail";
	free(copy);
	return sub;
}

static int check_config(struct np_ctx *ctx)
{
	const struct ts_power_config *c = &ctx->cfg;

	printf("node_power: %s: OK: backend %s, max_concurrent_nodes %ld, %zu nodes poweroff_eligible, power_on_off_enable %s, power_ramp_rate_enable %s, log_file %s, state_file %s\n",
	       ctx->config_path,
	       c->backend == TS_POWER_BACKEND_CAPMC ? "capmc" : "ipmi",
	       c->max_concurrent_nodes, c->poweroff_eligible.n,
	       c->power_on_off_enable ? "True" : "False",
	       c->power_ramp_rate_enable ? "True" : "False", c->log_file,
	       c->state_file);
	return NP_EXIT_OK;
}

/* A refused configuration: stderr, syslog, and the log if one is known. */
static void config_refused(struct np_ctx *ctx, const char *msg)
{
	struct ts_error err = TS_ERROR_INIT;
	int by_hand = ctx->log.by_hand;

	fprintf(stderr, "node_power: %s\n", msg);
	syslog(LOG_ERR, "node_power: configuration refused: %s", msg);
	ctx->log.by_hand = 0; /* said on stderr already */
	if (ctx->cfg.log_file &&
	    np_log_open(&ctx->log, ctx->cfg.log_file, &err) == TS_OK)
		np_log(&ctx->log, TS_LOG_ERROR,
		       "node_power;configuration refused: %s", msg);
	ctx->log.by_hand = by_hand;
}

/* Does sub take n arguments?  An unknown sub is named on stderr. */
static int args_ok(const char *sub, int n)
{
	if (!strcmp(sub, "suspend") || !strcmp(sub, "resume-fail") ||
	    !strcmp(sub, "ramp-up") || !strcmp(sub, "ramp-down"))
		return n == 1;
	if (!strcmp(sub, "resume")) /* + FEATURES on a reboot */
		return n == 1 || n == 2;
	if (!strcmp(sub, "status"))
		return n <= 1;
	if (!strcmp(sub, "cycle") || !strcmp(sub, "check-config"))
		return n == 0;
	fprintf(stderr, "node_power: unknown subcommand \"%s\"\n", sub);
	return 0;
}

/* Run a subcommand other than check-config; RET the exit status. */
static int run_subcommand(struct np_ctx *ctx, const char *sub, const char *arg)
{
	if (!strcmp(sub, "suspend"))
		return np_request(ctx, TS_POWER_OP_OFF, arg);
	if (!strcmp(sub, "resume"))
		return np_request(ctx, TS_POWER_OP_ON, arg);
	if (!strcmp(sub, "resume-fail"))
		return np_resume_fail(ctx, arg);
	if (!strcmp(sub, "ramp-up"))
		return np_request(ctx, TS_POWER_OP_RAMP_UP, arg);
	if (!strcmp(sub, "ramp-down"))
		return np_request(ctx, TS_POWER_OP_RAMP_DOWN, arg);
	if (!strcmp(sub, "cycle"))
		return np_cycle(ctx);
	return np_status(ctx, arg);
}

int main(int argc, char **argv)
{
	struct np_ctx ctx;
	struct ts_error err = TS_ERROR_INIT;
	const char *sub = subcommand_of(argv[0]), *arg = NULL;
	char *default_path = NULL;
	/* before open_std_fds(): slurmctld starts us with fd 2 closed */
	int by_hand = fcntl(2, F_GETFD) != -1;
	int i = 1, code;

	open_std_fds();
	np_command_reset_signals();
	memset(&ctx, 0, sizeof(ctx));
	np_log_init(&ctx.log, by_hand);

	if (i + 1 < argc && !strcmp(argv[i], "-c")) {
		ctx.config_path = argv[i + 1];
		i += 2;
	}
	if (i < argc &&
	    (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
		print_usage(stdout);
		return NP_EXIT_OK;
	}
	if (!sub && i < argc)
		sub = argv[i++];
	if (!sub || !args_ok(sub, argc - i)) {
		print_usage(stderr);
		return NP_EXIT_USAGE;
	}
	if (i < argc)
		arg = argv[i];
	if (!ctx.config_path)
		ctx.config_path = default_path = np_config_default_path();
	if (!ctx.config_path) {
		fprintf(stderr, "node_power: out of memory\n");
		return NP_EXIT_FAILED;
	}

	if (np_config_load(ctx.config_path, &ctx.cfg, &err) != TS_OK) {
		config_refused(&ctx, err.msg);
		code = NP_EXIT_USAGE;
	} else if (!strcmp(sub, "check-config")) {
		code = check_config(&ctx);
	} else if (np_log_open(&ctx.log, ctx.cfg.log_file, &err) != TS_OK) {
		/* slurmctld closed our stderr: syslog is all that is left. */
		syslog(LOG_ERR, "node_power: %s", err.msg);
		fprintf(stderr, "node_power: %s\n", err.msg);
		code = NP_EXIT_FAILED;
	} else {
		ctx.logger = np_log_logger(&ctx.log);
		ctx.env = np_real_env();
		np_ctx_backend(&ctx);
		code = run_subcommand(&ctx, sub, arg);
	}
	np_log_close(&ctx.log);
	ts_power_config_free(&ctx.cfg);
	free(default_path);
	return code;
}
