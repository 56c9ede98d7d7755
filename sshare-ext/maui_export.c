// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maui_export.c - sshare-ext --export-maui=DIR: the usage per credential
 * of a treeshare_state file as Maui's FS.<EPOCH> window files
 * (src/maui_fs_history.h), so that the windows can go back to Maui or
 * Moab, or to another treeshare's fs_import=.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cred_names.h"
#include "credential_usage.h"
#include "maui_fs_history.h"
#include "views.h"

struct namer {
	const struct cred_names *names;
	char buf[256];
};

/* ts_maui_fs_name_of: the names diagnose -f shows. */
static const char *export_name(enum ts_cred c, uint32_t id, void *arg)
{
	struct namer *n = arg;

	return cred_names_text(n->names, c, id, n->buf, sizeof(n->buf));
}

/* "DIR/FS.<epoch>" into buf. */
static void fs_path(const char *dir, int64_t epoch, char *buf, size_t len)
{
	snprintf(buf, len, "%s/FS.%" PRId64, dir, epoch);
}

/* No window's file may be there yet: nothing is overwritten. */
static int check_free(const struct ts_cred_usage *cu, const char *dir,
		      char *msg, size_t len)
{
	const struct ts_windows *w = &cu->w[0];
	char path[4200];
	struct stat st;
	uint32_t k;

	errno = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(msg, len, "--export-maui=%s: %s", dir,
			 errno ? strerror(errno) : "not a directory");
		return -1;
	}
	for (k = 0; k < w->depth; k++) {
		fs_path(dir, w->bound[k + 1], path, sizeof(path));
		if (w->total[k] > 0 && !lstat(path, &st)) {
			snprintf(
				msg, len,
				"--export-maui: %s is there already; nothing written (export into an empty directory)",
				path);
			return -1;
		}
	}
	return 0;
}

int maui_export(FILE *out, const char *state, const char *dir,
		const struct cred_names *names, char *msg, size_t len)
{
	struct ts_atomic_file how = { .tmp_suffix = ".new" };
	struct ts_error err = TS_ERROR_INIT;
	struct namer n = { .names = names };
	struct ts_cred_usage cu;
	char first[512], path[4200];
	uint32_t k, files = 0;
	int rc = 0;

	if (diagnose_usage_load(state, &cu, first, sizeof(first), msg, len))
		return -1;
	if (ts_cred_usage_half_life(&cu)) {
		/* clang-format off */
		snprintf(msg, len,
			 "--export-maui: %s keeps the usage per credential by half-life (no usage_window=): Maui's files hold windows",
			 state);
		/* clang-format on */
		ts_cred_usage_free(&cu);
		return -1;
	}
	if (check_free(&cu, dir, msg, len)) {
		ts_cred_usage_free(&cu);
		return -1;
	}
	fprintf(out, "%s\n", first);
	for (k = 0; k < cu.w[0].depth && !rc; k++) {
		struct ts_maui_fs_file f;
		int64_t epoch;
		char *text;
		size_t n_text;

		if (!(cu.w[0].total[k] > 0))
			continue;
		rc = ts_maui_fs_export(&cu, k, export_name, &n, &f, &epoch,
				       &err);
		if (!rc) {
			rc = ts_maui_fs_format(&f, epoch, &text, &n_text, &err);
			ts_maui_fs_free(&f);
		}
		if (rc)
			break;
		fs_path(dir, epoch, path, sizeof(path));
		rc = ts_atomic_file_write(path, text, n_text, &how, &err);
		free(text);
		if (!rc) {
			fprintf(out, "%s: window %" PRIu32 ", %zu bytes\n",
				path, k, n_text);
			files++;
		}
	}
	ts_cred_usage_free(&cu);
	if (rc) {
		snprintf(msg, len, "--export-maui: %s", err.msg);
		return -1;
	}
	fprintf(out, "%" PRIu32 " window files written\n", files);
	return 0;
}
