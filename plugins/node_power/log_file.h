/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log_file.h - node_power's own log.  slurmctld discards the output of
 * SuspendProgram/ResumeProgram (it even closes their stdout), so every
 * line goes to the log_file of the configuration, in the form of seed
 * 001's server log lines:
 *
 *   03/29/2016 02:05:59;0008;node_power[4242]@sdb;Node;node_power_off;launch: /opt/cray/capmc/default/bin/capmc node_off --nids 24-25
 *   DATE (local);TYPE;WHO;Node;EVENT;MESSAGE
 *
 * TYPE is 0001 for errors, 0008 for information (seed 001's LOG_INFO
 * lines carry 0008), 0080 for debug detail.  Each line is one write(2) on
 * an O_APPEND descriptor, so concurrent node_power processes never
 * interleave within a line.
 *
 * Run by hand (or from a script: any start with a standard error open),
 * every error line also goes to stderr.  slurmctld starts its programs
 * with descriptors 0-2 closed, so there only the log has them.
 */
#ifndef NP_LOG_FILE_H
#define NP_LOG_FILE_H

#include "error.h"
#include "log.h"

struct np_log {
	int fd;	      /* -1: log to stderr only */
	int echo;     /* also write the message to stderr */
	int by_hand;  /* stderr was open at start: errors go there too */
	char who[96]; /* node_power[pid]@host */
};

/*
 * np_log_init() - before a log file is open: lines go to stderr.
 * by_hand: stderr was open when the program started.
 */
void np_log_init(struct np_log *l, int by_hand);

/* np_log_open() - append to path (created mode 0640). */
int np_log_open(struct np_log *l, const char *path, struct ts_error *err);

void np_log_close(struct np_log *l);

/* np_log() - one line; fmt gives "EVENT;MESSAGE". */
void np_log(struct np_log *l, enum ts_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* np_log_logger() - a ts_logger writing to l, for libtreeshare. */
struct ts_logger np_log_logger(struct np_log *l);

#endif /* NP_LOG_FILE_H */
