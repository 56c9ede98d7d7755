/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log.h - the one way libtreeshare says something that is not an error
 * return: a callback the caller supplies.  The plugin routes it to Slurm's
 * error()/info()/log_flag(PRIO, ...); sshare-ext and node_power route it to
 * stderr or their log file.  A NULL logger or a NULL fn drops messages.
 */
#ifndef TS_LOG_H
#define TS_LOG_H

enum ts_log_level {
	TS_LOG_ERROR, /* an administrator must act */
	TS_LOG_INFO,  /* worth a line in the daemon log */
	TS_LOG_DEBUG, /* per-cycle detail (DebugFlags=Priority) */
};

struct ts_logger {
	void (*fn)(void *arg, enum ts_log_level level, const char *msg);
	void *arg;
};

void ts_log(const struct ts_logger *lg, enum ts_log_level level,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* TS_LOG_H */
