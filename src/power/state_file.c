/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.c - flock()ed, atomically replaced state file (state_file.h).
 * Edge cases: EINTR while waiting for the lock is retried; a missing PATH
 * is an empty state; a failed write (atomic_file.c) leaves PATH untouched
 * and removes PATH.new.<pid>.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "atomic_file.h"
#include "power/state_file.h"
#include "whole_file.h"

/*
 * Read all of path into a malloc()ed, NUL-terminated buffer; *buf NULL and
 * *len 0 if path is missing (a first start: an empty state).
 */
static int read_all(const char *path, char **buf, size_t *len,
		    struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	int rc = ts_whole_file_read(path, TS_POWER_STORE_MAX_BYTES, buf, len,
				    &why);

	if (rc == TS_ENOENT)
		return TS_OK;
	if (rc != TS_OK)
		return ts_error_set(err, rc, -1, "state file %s: %s", path,
				    why.msg);
	return TS_OK;
}

int ts_power_state_file_lock(struct ts_power_store *s, const char *path,
			     struct ts_power_state *st, struct ts_error *err)
{
	char *lock_path, *buf;
	size_t len;
	int rc;

	if (s->lock_fd >= 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "state file %s: already locked", path);
	free(s->path);
	s->path = strdup(path);
	lock_path = ts_atomic_file_sibling(path, ".lock");
	if (!s->path || !lock_path) {
		free(lock_path);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	s->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (s->lock_fd < 0) {
		rc = ts_error_set(err, TS_EIO, -1, "lock file %s: %s",
				  lock_path, strerror(errno));
		free(lock_path);
		return rc;
	}
	while (flock(s->lock_fd, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		rc = ts_error_set(err, TS_EIO, -1, "lock file %s: flock: %s",
				  lock_path, strerror(errno));
		free(lock_path);
		ts_power_state_file_unlock(s);
		return rc;
	}
	free(lock_path);
	rc = read_all(path, &buf, &len, err);
	if (rc != TS_OK) {
		ts_power_state_file_unlock(s);
		return rc;
	}
	rc = ts_power_state_parse(st, buf ? buf : "", len, err);
	free(s->read_text);
	s->read_text = rc == TS_OK ? buf : NULL;
	if (rc != TS_OK)
		free(buf);
	if (rc != TS_OK && rc != TS_ECORRUPT)
		ts_power_state_file_unlock(s);
	return rc;
}

int ts_power_state_file_save(struct ts_power_store *s,
			     const struct ts_power_state *st,
			     struct ts_error *err)
{
	char suffix[32], *text;
	struct ts_atomic_file how = { .tmp_suffix = suffix };
	int rc;

	if (s->lock_fd < 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "state file: save without the lock");
	text = ts_power_state_format(st, err);
	if (!text)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	if (s->read_text && !strcmp(s->read_text, text)) {
		free(text); /* unchanged */
		return TS_OK;
	}
	/* Our own temporary name: other instances may be crashing mid-write
	 * (the lock keeps them from writing at the same time). */
	snprintf(suffix, sizeof(suffix), ".new.%ld", (long)getpid());
	rc = ts_atomic_file_write(s->path, text, strlen(text), &how, err);
	if (rc != TS_OK) {
		free(text);
		return rc;
	}
	free(s->read_text);
	s->read_text = text;
	return TS_OK;
}

int ts_power_state_file_quarantine(struct ts_power_store *s,
				   struct ts_error *err)
{
	char *dst = ts_atomic_file_sibling(s->path, ".corrupt");
	int rc = TS_OK;

	if (!dst)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	if (rename(s->path, dst))
		rc = ts_error_set(err, TS_EIO, -1, "state file %s: rename: %s",
				  s->path, strerror(errno));
	free(dst);
	return rc;
}

void ts_power_state_file_unlock(struct ts_power_store *s)
{
	if (s->lock_fd >= 0) {
		flock(s->lock_fd, LOCK_UN);
		close(s->lock_fd);
	}
	s->lock_fd = -1;
	free(s->path);
	s->path = NULL;
	free(s->read_text);
	s->read_text = NULL;
}
