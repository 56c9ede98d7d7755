/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * whole_file.c - a small regular file read into memory in one call
 * (whole_file.h).
 *
 * The size is taken from fstat() before anything is allocated, so a
 * hostile or runaway file costs at most max bytes, and one allocation
 * holds it.  Edge cases: EINTR is retried; a file that shrinks while read
 * gives what was there (the caller's length and CRC checks say whether
 * that is enough); a file that grows gives its first st_size bytes; a
 * directory, FIFO or device is refused before any read, and a FIFO with
 * no writer is refused too instead of blocking the open (slurmctld reads
 * fs_targets=PATH with this).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "whole_file.h"

int ts_whole_file_read(const char *path, size_t max, char **buf, size_t *len,
		       struct ts_error *err)
{
	int fd, rc;

	*buf = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO with no writer would wait for one. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return ts_error_set(err, errno == ENOENT ? TS_ENOENT : TS_EIO,
				    -1, "%s", strerror(errno));
	rc = ts_whole_file_read_fd(fd, max, buf, len, err);
	close(fd);
	return rc;
}

int ts_whole_file_read_fd(int fd, size_t max, char **buf, size_t *len,
			  struct ts_error *err)
{
	struct stat st;
	size_t size, got = 0;
	int rc = TS_OK;

	*buf = NULL;
	*len = 0;
	if (fstat(fd, &st))
		rc = ts_error_set(err, TS_EIO, -1, "%s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = ts_error_set(err, TS_EIO, -1, "not a regular file");
	else if ((unsigned long long)st.st_size > max)
		rc = ts_error_set(err, TS_EIO, -1, "larger than %zu bytes",
				  max);
	if (rc)
		return rc;
	size = (size_t)st.st_size;
	*buf = malloc(size + 1);
	if (!*buf)
		return ts_error_set(err, TS_ENOMEM, -1, "%s", strerror(ENOMEM));
	while (got < size) {
		ssize_t r = read(fd, *buf + got, size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = ts_error_set(err, TS_EIO, -1, "%s",
					  strerror(errno));
			free(*buf);
			*buf = NULL;
			return rc;
		}
		if (r == 0)
			break; /* shrank while read: the caller's checks say */
		got += (size_t)r;
	}
	(*buf)[got] = '\0';
	*len = got;
	return TS_OK;
}
