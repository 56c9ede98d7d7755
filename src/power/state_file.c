/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state_file.c - flock()ed, atomically replaced state file (state_file.h).
 * Edge cases: EINTR while waiting for the lock is retried; a short write
 * or a failed fsync leaves PATH untouched and removes PATH.new.<pid>.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "power/state_file.h"

static char *suffixed(const char *path, const char *suffix)
{
	size_t n = strlen(path) + strlen(suffix) + 1;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s", path, suffix);
	return s;
}

/*
 * Read all of path into a malloc()ed, NUL-terminated buffer; *buf NULL and
 * *len 0 if path is missing.
 */
static int read_all(const char *path, char **buf, size_t *len,
		    struct ts_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *b;

	*buf = NULL;
	*len = 0;
	if (fd < 0) {
		if (errno == ENOENT)
			return TS_OK;
		return ts_error_set(err, TS_EIO, -1, "state file %s: %s", path,
				    strerror(errno));
	}
	b = malloc(cap);
	for (;;) {
		ssize_t r;

		if (!b) {
			close(fd);
			return ts_error_set(err, TS_ENOMEM, -1,
					    "out of memory");
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			close(fd);
			return ts_error_set(err, TS_EIO, -1,
					    "state file %s: %s", path,
					    strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n + 1 >= cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb)
				free(b);
			b = nb;
			cap *= 2;
		}
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return TS_OK;
}

int ts_power_store_lock(struct ts_power_store *s, const char *path,
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
	lock_path = suffixed(path, ".lock");
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
		ts_power_store_unlock(s);
		return rc;
	}
	free(lock_path);
	rc = read_all(path, &buf, &len, err);
	if (rc != TS_OK) {
		ts_power_store_unlock(s);
		return rc;
	}
	rc = ts_power_state_parse(st, buf ? buf : "", len, err);
	free(s->read_text);
	s->read_text = rc == TS_OK ? buf : NULL;
	if (rc != TS_OK)
		free(buf);
	if (rc != TS_OK && rc != TS_ECORRUPT)
		ts_power_store_unlock(s);
	return rc;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int ts_power_store_save(struct ts_power_store *s,
			const struct ts_power_state *st, struct ts_error *err)
{
	char suffix[32], *tmp, *text;
	int fd, rc = TS_OK;

	if (s->lock_fd < 0)
		return ts_error_set(err, TS_EINVAL, -1,
				    "state file: save without the lock");
	snprintf(suffix, sizeof(suffix), ".new.%ld", (long)getpid());
	tmp = suffixed(s->path, suffix);
	text = ts_power_state_format(st, err);
	if (!tmp || !text) {
		free(tmp);
		free(text);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	if (s->read_text && !strcmp(s->read_text, text))
		goto out; /* unchanged */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = ts_error_set(err, TS_EIO, -1, "state file %s: %s", tmp,
				  strerror(errno));
		goto out;
	}
	if (write_all(fd, text, strlen(text)) || fsync(fd)) {
		rc = ts_error_set(err, TS_EIO, -1, "state file %s: %s", tmp,
				  strerror(errno));
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	if (rename(tmp, s->path)) {
		rc = ts_error_set(err, TS_EIO, -1, "state file %s: rename: %s",
				  s->path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	sync_dir(s->path);
	free(s->read_text);
	s->read_text = text;
	text = NULL;
out:
	free(tmp);
	free(text);
	return rc;
}

int ts_power_store_quarantine(struct ts_power_store *s, struct ts_error *err)
{
	char *dst = suffixed(s->path, ".corrupt");
	int rc = TS_OK;

	if (!dst)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	if (rename(s->path, dst))
		rc = ts_error_set(err, TS_EIO, -1, "state file %s: rename: %s",
				  s->path, strerror(errno));
	free(dst);
	return rc;
}

void ts_power_store_unlock(struct ts_power_store *s)
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
