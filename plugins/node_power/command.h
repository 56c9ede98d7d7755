/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * command.h - run an external program (capmc, ipmitool) the safe way:
 * fork + execve of an absolute path with an argument vector (never a
 * shell), a fixed environment (LC_ALL=C only: slurmctld gives us no PATH,
 * USER or HOME and we want none), stdin from /dev/null, stdout and stderr
 * captured, all signals unblocked and at their defaults in the child, and
 * a timeout after which the child's process group gets SIGTERM, then
 * SIGKILL one second later.
 */
#ifndef NP_COMMAND_H
#define NP_COMMAND_H

#include <stddef.h>

#include "error.h"

/* Output kept per stream; the rest is dropped (counted in *_dropped). */
#define NP_COMMAND_MAX_OUTPUT (256 * 1024)

struct np_command_result {
	int exited;	/* exited normally: status is valid */
	int status;	/* exit status */
	int signal;	/* killed by this signal, else 0 */
	int timed_out;	/* we killed it at the timeout */
	double seconds; /* wall time */
	char *out;	/* stdout, NUL-terminated, never NULL */
	char *err;	/* stderr, NUL-terminated, never NULL */
};

/*
 * np_command_run() - run argv (argv[0] an absolute path) for at most
 * timeout_s seconds.  RET TS_OK when the program ran (whatever its exit
 * status: see *res), TS_EIO when it could not be started (*err says why).
 * Release *res with np_command_result_free() in both cases.
 */
int np_command_run(const char *const *argv, long timeout_s,
		   struct np_command_result *res, struct ts_error *err);

void np_command_result_free(struct np_command_result *res);

/*
 * np_command_reset_signals() - every signal at its default disposition,
 * none blocked.  slurmctld's power programs inherit SIGTERM (and more)
 * blocked and possibly SIGCHLD ignored, which would break waitpid() and
 * make any daemon they start immune to SIGTERM (RECIPE 5.2).
 */
void np_command_reset_signals(void);

/*
 * np_command_line() - argv joined by blanks, for log lines ("launch:
 * /opt/cray/capmc/default/bin/capmc node_off --nids 24-25").
 * RET a malloc()ed string or NULL.
 */
char *np_command_line(const char *const *argv);

/*
 * np_command_failure() - one line saying how a run failed: "timed out
 * after 10 s", "exit 1: Unable to establish IPMI v2 / RMCP+ session" (the
 * last non-empty stderr line, else stdout's).  buf gets at most len bytes.
 */
void np_command_failure(const struct np_command_result *res, long timeout_s,
			char *buf, size_t len);

/*
 * np_monotonic_seconds() - CLOCK_MONOTONIC in seconds, node_power's one
 * clock for timeouts and waits (command runs, IPMI confirmation): the
 * wall clock may step.
 */
double np_monotonic_seconds(void);

#endif /* NP_COMMAND_H */
