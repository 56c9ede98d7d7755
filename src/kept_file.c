/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kept_file.c - read a state file or its previous copy (kept_file.h).
 *
 * Both reads go through ts_whole_file_read(), which refuses anything but
 * a regular file and anything larger than max_bytes before allocating,
 * so a hostile file costs at most max_bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "kept_file.h"
#include "utc_time.h"
#include "whole_file.h"

int ts_kept_time_check(const char *what, int64_t t, int64_t now,
		       struct ts_error *err)
{
	char a[32], b[32];

	if (t < 0)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "%s %" PRId64 " is negative", what, t);
	/* clang-format off */
	if (t > now && t - now > TS_STATE_CLOCK_SKEW)
		return ts_error_set(err, TS_ECORRUPT, -1,
				    "%s %s is %" PRId64 " s after now (%s), more than the %d s of clock skew allowed",
				    what, ts_utc_time(t, a, sizeof(a)), t - now,
				    ts_utc_time(now, b, sizeof(b)),
				    TS_STATE_CLOCK_SKEW);
	/* clang-format on */
	return TS_OK;
}

/* One copy: TS_OK, TS_ENOENT, or its defect in *why. */
static int load_copy(const char *path, const struct ts_kept_file *how,
		     void *out, struct ts_error *why)
{
	char *buf;
	size_t len;
	int rc;

	rc = ts_whole_file_read(path, how->max_bytes, &buf, &len, why);
	if (rc)
		return rc;
	rc = how->decode(buf, len, out, how->arg, why);
	free(buf);
	return rc;
}

int ts_kept_file_load(const char *path, const struct ts_kept_file *how,
		      void *out, struct ts_kept_status *st,
		      struct ts_error *err)
{
	struct ts_error e1 = TS_ERROR_INIT, e2 = TS_ERROR_INIT;
	struct ts_kept_status local;
	char *prev;
	int rc1, rc2, rc;

	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	rc1 = load_copy(path, how, out, &e1);
	st->path_code = rc1;
	if (rc1 == TS_OK)
		return TS_OK;
	if (rc1 == TS_ENOMEM)
		return ts_error_set(err, rc1, -1, "%s: %s", path, e1.msg);
	if (snprintf(st->problem, sizeof(st->problem), "%s: %s", path,
		     rc1 == TS_ENOENT ? "missing" : e1.msg) >=
	    (int)sizeof(st->problem))
		memcpy(st->problem + sizeof(st->problem) - 4, "...", 4);

	prev = ts_atomic_file_sibling(path, how->prev_suffix);
	if (!prev)
		return ts_error_set(err, TS_ENOMEM, -1, "%s", st->problem);
	rc2 = load_copy(prev, how, out, &e2);
	if (rc2 == TS_OK) {
		st->used_prev = 1;
		free(prev);
		return TS_OK;
	}
	if (rc1 == TS_ENOENT && rc2 == TS_ENOENT) {
		st->problem[0] = '\0';
		rc = ts_error_set(err, TS_ENOENT, -1, "%s: %s; %s: %s", path,
				  e1.msg, prev, e2.msg);
	} else {
		rc = rc1 != TS_ENOENT ? rc1 : rc2;
		rc = ts_error_set(err, rc, -1, "%s: %s; %s: %s", path,
				  rc1 == TS_ENOENT ? "missing" : e1.msg, prev,
				  rc2 == TS_ENOENT ? "missing" : e2.msg);
	}
	free(prev);
	return rc;
}

static void identify(const struct stat *sb, struct ts_kept_written *w)
{
	w->valid = 1;
	w->dev = (uint64_t)sb->st_dev;
	w->ino = (uint64_t)sb->st_ino;
	w->size = (uint64_t)sb->st_size;
	w->mtime_ns =
		(int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
	w->ctime_ns =
		(int64_t)sb->st_ctim.tv_sec * 1000000000 + sb->st_ctim.tv_nsec;
}

/* Is path still the copy the last save wrote, untouched since? */
static int still_written(const char *path, const struct ts_kept_written *w)
{
	struct ts_kept_written now;
	struct stat sb;

	if (!w || !w->valid || stat(path, &sb) || !S_ISREG(sb.st_mode))
		return 0;
	identify(&sb, &now);
	return now.dev == w->dev && now.ino == w->ino && now.size == w->size &&
	       now.mtime_ns == w->mtime_ns && now.ctime_ns == w->ctime_ns;
}

/*
 * atomic_file's worth_keeping(): the current copy passes complete(), or
 * is still the one the last save wrote (complete by construction).
 */
static int keep_if_complete(const char *path, const void *arg)
{
	const struct ts_kept_file *how = arg;
	struct ts_error ignored = TS_ERROR_INIT;
	char *buf;
	size_t len;
	int good;

	if (still_written(path, how->written))
		return 1;
	if (ts_whole_file_read(path, how->max_bytes, &buf, &len, &ignored))
		return 0;
	good = how->complete(buf, len);
	free(buf);
	return good;
}

int ts_kept_file_save(const char *path, const void *image, size_t len,
		      const struct ts_kept_file *how, struct ts_error *err)
{
	const struct ts_atomic_file a = {
		.tmp_suffix = ".new",
		.prev_suffix = how->prev_suffix,
		.worth_keeping = keep_if_complete,
		.arg = how,
	};
	struct stat sb;
	int rc;

	rc = ts_atomic_file_write(path, image, len, &a, err);
	if (how->written) {
		how->written->valid = 0;
		if (!rc && !stat(path, &sb))
			identify(&sb, how->written);
	}
	return rc;
}
