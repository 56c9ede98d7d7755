/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * command.c - fork/execve with captured output and a hard timeout
 * (command.h).  The child becomes its own process group leader so the
 * timeout reaches anything it started.  Polling uses CLOCK_MONOTONIC, so
 * a clock step cannot shorten or stretch a timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"

double np_monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void np_command_reset_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	int s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (s = 1; s < NSIG; s++)
		sigaction(s, &sa, NULL); /* EINVAL for KILL/STOP: fine */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child(const char *const *argv, int out_fd, int err_fd)
{
	static char *const envp[] = { "LC_ALL=C", NULL };
	int null_fd = open("/dev/null", O_RDONLY);
	long fd, max_fd = sysconf(_SC_OPEN_MAX);

	setpgid(0, 0);
	np_command_reset_signals();
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0)
		_exit(126);
	if (max_fd < 0 || max_fd > 65536)
		max_fd = 65536;
	for (fd = 3; fd < max_fd; fd++)
		close((int)fd);
	execve(argv[0], (char *const *)argv, envp);
	dprintf(2, "execve %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

struct sink {
	int fd;
	char *buf;
	size_t len;
};

/* Read what is there; RET 0 at EOF (fd closed), 1 otherwise. */
static int drain(struct sink *s)
{
	char tmp[4096];
	ssize_t r = read(s->fd, tmp, sizeof(tmp));

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (r <= 0) {
		close(s->fd);
		s->fd = -1;
		return 0;
	}
	if (s->len < NP_COMMAND_MAX_OUTPUT) {
		size_t n = (size_t)r;
		char *b;

		if (n > NP_COMMAND_MAX_OUTPUT - s->len)
			n = NP_COMMAND_MAX_OUTPUT - s->len;
		b = realloc(s->buf, s->len + n + 1);
		if (b) {
			memcpy(b + s->len, tmp, n);
			s->len += n;
			b[s->len] = '\0';
			s->buf = b;
		}
	}
	return 1;
}

/* Wait up to wait_ms for output on the open sinks and read what came. */
static void collect(struct sink *sinks, int wait_ms)
{
	struct pollfd pfd[2];
	int n = 0, i, j;

	for (i = 0; i < 2; i++) {
		if (sinks[i].fd < 0)
			continue;
		pfd[n].fd = sinks[i].fd;
		pfd[n].events = POLLIN;
		n++;
	}
	if (n)
		poll(pfd, (nfds_t)n, wait_ms);
	else
		usleep((useconds_t)wait_ms * 1000);
	for (i = 0; i < 2; i++)
		for (j = 0; j < n; j++)
			if (sinks[i].fd == pfd[j].fd &&
			    (pfd[j].revents & (POLLIN | POLLHUP | POLLERR)))
				drain(&sinks[i]);
}

/* Fork the child with its stdout and stderr on sinks[0] and sinks[1]. */
static int fork_child(const char *const *argv, struct sink *sinks, pid_t *pid,
		      struct ts_error *err)
{
	int out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 }, e;

	if (pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) {
		e = errno;
		if (out_pipe[0] >= 0) {
			close(out_pipe[0]);
			close(out_pipe[1]);
		}
		return ts_error_set(err, TS_EIO, -1, "pipe: %s", strerror(e));
	}
	*pid = fork();
	if (*pid < 0) {
		e = errno;
		close(out_pipe[0]);
		close(out_pipe[1]);
		close(err_pipe[0]);
		close(err_pipe[1]);
		return ts_error_set(err, TS_EIO, -1, "fork: %s", strerror(e));
	}
	if (*pid == 0)
		child(argv, out_pipe[1], err_pipe[1]);
	setpgid(*pid, *pid); /* also here: no race with our kill() */
	close(out_pipe[1]);
	close(err_pipe[1]);
	sinks[0].fd = out_pipe[0];
	sinks[1].fd = err_pipe[0];
	return TS_OK;
}

/* The exit status and the output collected, into res. */
static void finish(struct np_command_result *res, int status,
		   struct sink *sinks)
{
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	}
	if (sinks[0].buf) {
		free(res->out);
		res->out = sinks[0].buf;
	}
	if (sinks[1].buf) {
		free(res->err);
		res->err = sinks[1].buf;
	}
}

int np_command_run(const char *const *argv, long timeout_s,
		   struct np_command_result *res, struct ts_error *err)
{
	struct sink sinks[2] = { { -1, NULL, 0 }, { -1, NULL, 0 } };
	double start_at = np_monotonic_seconds(),
	       kill_at = start_at + (double)timeout_s;
	int status = 0, reaped = 0, term_sent = 0, i;
	pid_t pid = -1;

	memset(res, 0, sizeof(*res));
	res->out = strdup("");
	res->err = strdup("");
	if (!res->out || !res->err)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	if (argv[0][0] != '/')
		return ts_error_set(err, TS_EINVAL, -1,
				    "%s: not an absolute path", argv[0]);
	if (fork_child(argv, sinks, &pid, err))
		return TS_EIO;
	while (!reaped || sinks[0].fd >= 0 || sinks[1].fd >= 0) {
		double now = np_monotonic_seconds();
		int wait_ms;

		if (!reaped && now >= kill_at) {
			/* SIGTERM first; SIGKILL a second later */
			kill(-pid, term_sent ? SIGKILL : SIGTERM);
			kill(pid, term_sent ? SIGKILL : SIGTERM);
			res->timed_out = 1;
			kill_at = now + 1.0;
			term_sent = 1;
		}
		if (reaped && now >= kill_at + 2.0)
			break; /* a grandchild holds the pipes open */
		wait_ms = (int)((kill_at - now) * 1000) + 1;
		if (wait_ms > 50 || wait_ms < 1)
			wait_ms = 50;
		collect(sinks, wait_ms);
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			kill_at = np_monotonic_seconds(); /* pipes: 2 s grace */
		}
	}
	for (i = 0; i < 2; i++)
		if (sinks[i].fd >= 0)
			close(sinks[i].fd);
	res->seconds = np_monotonic_seconds() - start_at;
	finish(res, status, sinks);
	return TS_OK;
}

void np_command_result_free(struct np_command_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

char *np_command_line(const char *const *argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Last non-empty line of text, trimmed, into buf. */
static void last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text), *start;

	while (end > text &&
	       (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

void np_command_failure(const struct np_command_result *res, long timeout_s,
			char *buf, size_t len)
{
	char line[256];

	last_line(res->err, line, sizeof(line));
	if (!line[0])
		last_line(res->out, line, sizeof(line));
	if (res->timed_out)
		snprintf(buf, len, "timed out after %ld s, killed%s%s",
			 timeout_s, line[0] ? ": " : "", line);
	else if (res->signal)
		snprintf(buf, len, "killed by signal %d%s%s", res->signal,
			 line[0] ? ": " : "", line);
	else
		snprintf(buf, len, "exit %d%s%s", res->status,
			 line[0] ? ": " : "", line);
}
