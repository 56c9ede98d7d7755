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

static int write_all(int fd, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
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

int state_file_write_locked(const char *dir, time_t last_ran, time_t last_reset)
{
	unsigned char rec[RECORD_SIZE];
	char path[PATH_MAX], tmp[PATH_MAX + 8], old[PATH_MAX + 8];
	int fd, rc = -1;

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
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	snprintf(old, sizeof(old), "%s.old", path);

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		error("%s: cannot create %s: %m", plugin_type, tmp);
		goto out;
	}
	if (write_all(fd, rec, sizeof(rec)) || fsync(fd)) {
		error("%s: cannot write %s: %m", plugin_type, tmp);
		close(fd);
		(void)unlink(tmp);
		goto out;
	}
	close(fd);
	/* Keep the previous copy, then replace atomically. */
	(void)unlink(old);
	if (link(path, old) && errno != ENOENT)
		debug3("%s: cannot link %s to %s: %m", plugin_type, path, old);
	if (rename(tmp, path)) {
		error("%s: cannot rename %s to %s: %m", plugin_type, tmp, path);
		(void)unlink(tmp);
		goto out;
	}
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	rc = 0;
out:
	return rc;
}
