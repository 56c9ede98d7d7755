// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maui_fs_dir.c - a Maui statistics directory's FS.<EPOCH> files
 * (maui_fs_dir.h).
 */
#include "maui_fs_dir.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "whole_file.h"

#define FS_FILE_BYTES (64u << 20) /* one window of a large site's users */

/* The directory itself: root's or SlurmUser's, writable by no one else. */
static int check_dir(const char *dir, const struct ts_trust *trust,
		     struct ts_error *err)
{
	struct passwd pw, *found = NULL;
	char buf[4096];
	struct stat st;

	if (stat(dir, &st))
		return ts_error_set(err, errno == ENOENT ? TS_ENOENT : TS_EIO,
				    -1, "fs_import: %s: %s", dir,
				    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ts_error_set(err, TS_EIO, -1,
				    "fs_import: %s: not a directory", dir);
	if (!trust)
		return TS_OK;
	(void)getpwuid_r(st.st_uid, &pw, buf, sizeof(buf), &found);
	return ts_trust_check("fs_import", dir, (unsigned)st.st_uid,
			      found ? found->pw_name : "?",
			      (unsigned)st.st_mode, TS_TRUST_DIR, trust, err);
}

static int newest_first(const void *a, const void *b)
{
	const struct ts_maui_fs_window *x = a, *y = b;

	return (x->epoch < y->epoch) - (x->epoch > y->epoch);
}

/* One file into w: read (trusted), parsed; w->path is set first. */
static int read_one(const char *path, const struct ts_trust *trust,
		    struct ts_maui_fs_window *w, struct ts_error *err)
{
	struct ts_error why = TS_ERROR_INIT;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (trust)
		rc = ts_trust_read("fs_import", path, trust, FS_FILE_BYTES,
				   &text, &len, &why);
	else
		rc = ts_whole_file_read(path, FS_FILE_BYTES, &text, &len, &why);
	if (rc && trust) /* its message names fs_import and path */
		return ts_error_set(err, rc, -1, "%s", why.msg);
	if (rc)
		return ts_error_set(err, rc, -1, "fs_import: %s: %s", path,
				    why.msg);
	rc = ts_maui_fs_parse(text, len, &w->file, &why);
	free(text);
	if (rc)
		return ts_error_set(err, rc, why.index, "fs_import: %s: %s",
				    path, why.msg);
	return TS_OK;
}

int ts_maui_fs_dir_read(const char *dir, const struct ts_trust *trust,
			struct ts_maui_fs_dir *out, struct ts_error *err)
{
	struct ts_error skip = TS_ERROR_INIT;
	struct dirent *de;
	DIR *d;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = check_dir(dir, trust, err);
	if (rc)
		return rc;
	d = opendir(dir);
	if (!d)
		return ts_error_set(err, TS_EIO, -1, "fs_import: %s: %s", dir,
				    strerror(errno));
	out->win = calloc(TS_MAUI_FS_DIR_FILES_MAX, sizeof(*out->win));
	if (!out->win)
		rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	while (!rc && (de = readdir(d))) {
		struct ts_maui_fs_window *w;
		int64_t epoch;
		char *path;

		if (strncmp(de->d_name, "FS.", 3) ||
		    ts_maui_fs_epoch(de->d_name, &epoch, &skip))
			continue;
		if (out->n == TS_MAUI_FS_DIR_FILES_MAX) {
			rc = ts_error_set(
				err, TS_ERANGE, -1,
				"fs_import: %s: more than %d FS files", dir,
				TS_MAUI_FS_DIR_FILES_MAX);
			break;
		}
		path = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!path) {
			rc = ts_error_set(err, TS_ENOMEM, -1, "out of memory");
			break;
		}
		sprintf(path, "%s/%s", dir, de->d_name);
		w = &out->win[out->n++];
		w->path = path;
		w->epoch = epoch;
		rc = read_one(path, trust, w, err);
	}
	closedir(d);
	if (!rc && !out->n)
		rc = ts_error_set(err, TS_ENOENT, -1,
				  "fs_import: %s: no FS.<EPOCH> file in it",
				  dir);
	if (rc) {
		ts_maui_fs_dir_free(out);
		return rc;
	}
	qsort(out->win, out->n, sizeof(*out->win), newest_first);
	return TS_OK;
}

void ts_maui_fs_dir_free(struct ts_maui_fs_dir *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free((char *)d->win[i].path);
		ts_maui_fs_free(&d->win[i].file);
	}
	free(d->win);
	memset(d, 0, sizeof(*d));
}
