/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log_file.c - seed 001-style log lines, one write(2) each (log_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log_file.h"

void np_log_init(struct np_log *l, int by_hand)
{
	char host[64] = "localhost";

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	l->fd = -1;
	l->echo = 0;
	l->by_hand = by_hand;
	snprintf(l->who, sizeof(l->who), "node_power[%ld]@%s", (long)getpid(),
		 host);
}

int np_log_open(struct np_log *l, const char *path, struct ts_error *err)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);

	if (fd < 0)
		return ts_error_set(err, TS_EIO, -1, "log_file %s: %s", path,
				    strerror(errno));
	np_log_close(l);
	l->fd = fd;
	return TS_OK;
}

void np_log_close(struct np_log *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

static const char *type_of(enum ts_log_level level)
{
	switch (level) {
	case TS_LOG_ERROR:
		return "0001";
	case TS_LOG_INFO:
		return "0008";
	case TS_LOG_DEBUG:
		break;
	}
	return "0080";
}

/* One line, whole however long (one write, so never interleaved). */
static void write_line(struct np_log *l, enum ts_log_level level,
		       const char *msg)
{
	char stamp[32], *line = NULL;
	struct tm tm;
	time_t now = time(NULL);
	int n;

	if (!localtime_r(&now, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%m/%d/%Y %H:%M:%S", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	n = asprintf(&line, "%s;%s;%s;Node;%s\n", stamp, type_of(level), l->who,
		     msg);
	if (l->fd >= 0 && (n < 0 || write(l->fd, line, (size_t)n) < 0))
		l->echo = 1; /* nowhere else to say it */
	if (n >= 0)
		free(line);
	if (l->fd < 0 || l->echo || (l->by_hand && level == TS_LOG_ERROR))
		fprintf(stderr, "node_power: %s\n", msg);
}

void np_log(struct np_log *l, enum ts_log_level level, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	write_line(l, level, n < 0 ? fmt : msg);
	if (n >= 0)
		free(msg);
}

static void from_library(void *arg, enum ts_log_level level, const char *msg)
{
	write_line(arg, level, msg);
}

struct ts_logger np_log_logger(struct np_log *l)
{
	struct ts_logger lg = { from_library, l };

	return lg;
}
