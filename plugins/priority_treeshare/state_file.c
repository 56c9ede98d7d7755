/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.c - the last decay and reset times (see state_file.h).
 */
#include "slurmctld_api.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/atomic_file.h"
#include "state_file.h"

#define RECORD_SIZE 16 /* two big-endian int64 */

static void put_be64(unsigned char *p, int64_t v)
{
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(u & 0xff);
		u >>= 8;
	}
}

static int64_t get_be64(const unsigned char *p)
{
	uint64_t u = 0;
	int i;

	for (i = 0; i < 8; i++)
		u = (u << 8) | p[i];
	return (int64_t)u;
}

/* The state file functions serialise with slurmctld's other writers. */
void state_files_lock(void)
{
	if (&lock_state_files)
		lock_state_files();
}

void state_files_unlock(void)
{
	if (&unlock_state_files)
		unlock_state_files();
}

/* RET bytes read (RECORD_SIZE when whole), 0 if absent, -1 on error. */
static ssize_t read_record(const char *path, unsigned char *rec)
{
	ssize_t got = 0, n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while (got < RECORD_SIZE) {
		n = read(fd, rec + got, RECORD_SIZE - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	return got;
}

int state_file_read(const char *dir, time_t *last_ran, time_t *last_reset)
{
	unsigned char rec[RECORD_SIZE];
	char path[PATH_MAX], old[PATH_MAX + 8];
	ssize_t got;

	*last_ran = 0;
	*last_reset = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, STATE_FILE_NAME);
	snprintf(old, sizeof(old), "%s.old", path);

	state_files_lock();
	got = read_record(path, rec);
	if (got > 0 && got < RECORD_SIZE) {
		error("%s: %s is %zd bytes, not %d; using %s", plugin_type,
		      path, got, RECORD_SIZE, old);
		got = read_record(old, rec);
		if (got == 0)
			got = -1;
	}
	state_files_unlock();

	if (got == 0) {
		info("%s: no %s: first start, no usage interval to recover",
		     plugin_type, path);
		return 0;
	}
	if (got != RECORD_SIZE) {
		/* clang-format off */
		error("%s: cannot read %s (%s); start slurmctld with -i to accept losing the usage since the last cycle",
		      plugin_type, path, got < 0 ? strerror(errno) : "short");
		/* clang-format on */
		return -1;
	}
	*last_ran = (time_t)get_be64(rec);
	*last_reset = (time_t)get_be64(rec + 8);
	log_flag(PRIO, "%s: last decay ran at %ld, last reset at %ld",
		 plugin_type, (long)*last_ran, (long)*last_reset);
	return 0;
}

int state_file_write(const char *dir, time_t last_ran, time_t last_reset)
{
	int rc;

	state_files_lock();
	rc = state_file_write_locked(dir, last_ran, last_reset);
	state_files_unlock();
	return rc;
}

/* A short or unreadable file is not worth keeping as the .old copy. */
static int record_worth_keeping(const char *path)
{
	unsigned char rec[RECORD_SIZE];

	return read_record(path, rec) == RECORD_SIZE;
}

int state_file_write_locked(const char *dir, time_t last_ran, time_t last_reset)
{
	const struct ts_atomic_file how = {
		.tmp_suffix = ".new",
		.prev_suffix = ".old",
		.worth_keeping = record_worth_keeping,
	};
	unsigned char rec[RECORD_SIZE];
	char path[PATH_MAX];
	struct ts_error err;

	if (!dir || !strcmp(dir, "/dev/null")) {
		/* clang-format off */
		error("%s: StateSaveLocation is %s: cannot keep the last decay time",
		      plugin_type, dir ? dir : "unset");
		/* clang-format on */
		return -1;
	}
	put_be64(rec, (int64_t)last_ran);
	put_be64(rec + 8, (int64_t)last_reset);
	snprintf(path, sizeof(path), "%s/%s", dir, STATE_FILE_NAME);
	if (ts_atomic_file_write(path, rec, sizeof(rec), &how, &err)) {
		error("%s: %s", plugin_type, err.msg);
		return -1;
	}
	return 0;
}
