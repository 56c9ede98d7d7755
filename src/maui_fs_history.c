// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maui_fs_history.c - a Maui fair-share history into the usage per
 * credential and a window back out (maui_fs_history.h).
 */
#include "maui_fs_history.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utc_time.h"

/* The kept window of w holding t; depth when t is older than all. */
static uint32_t window_holding(const struct ts_windows *w, int64_t t)
{
	uint32_t k;

	for (k = 0; k < w->depth; k++)
		if (t >= w->bound[k + 1])
			return k;
	return w->depth;
}

/*
 * Check every file's length, start and window; where[i] is file i's
 * window (depth: rolled out).
 */
static int place_files(const struct ts_windows *w,
		       const struct ts_maui_fs_window *win, size_t n,
		       int64_t now, uint32_t *where,
		       struct ts_maui_fs_import_report *rep,
		       struct ts_error *err)
{
	size_t *holder, i;
	char when[32];
	int rc = TS_OK;

	holder = calloc(w->depth, sizeof(*holder));
	if (!holder)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	for (i = 0; i < n && !rc; i++) {
		const struct ts_maui_fs_window *f = &win[i];
		uint32_t k;

		if (f->file.duration && f->file.duration != w->interval) {
			/* clang-format off */
			rc = ts_error_set(err, TS_EINVAL, (long)i,
					  "%s line 1: a window of %u s, but usage_window is %u s: import windows of the same length",
					  f->path, (unsigned)f->file.duration,
					  (unsigned)w->interval);
			/* clang-format on */
			break;
		}
		if (f->epoch < 0 || f->epoch > now) {
			rc = ts_error_set(
				err, TS_EINVAL, (long)i,
				"%s: starts at %s, after now", f->path,
				ts_utc_time(f->epoch, when, sizeof(when)));
			break;
		}
		k = where[i] = window_holding(w, f->epoch);
		if (k == w->depth) {
			rep->rolled_out++;
			continue;
		}
		if (holder[k]) {
			/* clang-format off */
			rc = ts_error_set(err, TS_EINVAL, (long)i,
					  "%s: in the same window as %s (window %u starting %s): the files are less than usage_window apart",
					  f->path, win[holder[k] - 1].path,
					  (unsigned)k,
					  ts_utc_time(w->bound[k + 1], when,
						      sizeof(when)));
			/* clang-format on */
			break;
		}
		holder[k] = i + 1;
		if (f->epoch - w->bound[k + 1] > rep->shift)
			rep->shift = f->epoch - w->bound[k + 1];
	}
	free(holder);
	return rc;
}

/* Every name of every placed file known, else TS_ENOENT naming it. */
static int check_names(const struct ts_maui_fs_window *win, size_t n,
		       const uint32_t *where, uint32_t depth,
		       ts_maui_fs_id_of id_of, void *arg, uint32_t **ids,
		       struct ts_error *err)
{
	char q[TS_QUOTE_SIZE];
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct ts_maui_fs_file *f = &win[i].file;

		ids[i] = NULL;
		if (where[i] == depth || !f->n)
			continue;
		ids[i] = malloc(f->n * sizeof(*ids[i]));
		if (!ids[i])
			return ts_error_set(err, TS_ENOMEM, -1,
					    "out of memory");
		for (j = 0; j < f->n; j++) {
			const struct ts_maui_fs_entry *e = &f->entry[j];

			ids[i][j] = id_of(e->type, e->name, arg);
			if (ids[i][j] == TS_CRED_ID_NONE)
				return ts_error_set(
					err, TS_ENOENT, (long)i,
					"%s line %ld: %s '%s': not known here; remove the line to import the rest",
					win[i].path, e->line,
					ts_cred_name(e->type),
					ts_quote(q, sizeof(q), e->name,
						 strlen(e->name)));
		}
	}
	return TS_OK;
}

/* One file into cu at its start: members, the rest, each type's total. */
static int charge_file(struct ts_cred_usage *cu,
		       const struct ts_maui_fs_window *win, const uint32_t *ids,
		       struct ts_error *err)
{
	const struct ts_maui_fs_file *f = &win->file;
	long double covered[TS_CRED_N] = { 0 };
	size_t j;
	int c;

	for (j = 0; j < f->n; j++) {
		struct ts_windows *w = &cu->w[f->entry[j].type];

		if (ts_windows_add_assoc(w, ids[j], err) < 0 ||
		    ts_windows_add_at(w, ids[j], f->entry[j].amount, win->epoch,
				      err))
			return err->code;
		covered[f->entry[j].type] += f->entry[j].amount;
	}
	for (c = 0; c < TS_CRED_N; c++) {
		long double rest = (long double)f->total - covered[c];

		if (rest > 0 && (ts_windows_add_assoc(
					 &cu->w[c], TS_CRED_ID_NONE, err) < 0 ||
				 ts_windows_add_at(&cu->w[c], TS_CRED_ID_NONE,
						   rest, win->epoch, err)))
			return err->code;
		if (ts_windows_add_total_at(&cu->w[c], f->total, win->epoch,
					    err))
			return err->code;
	}
	return TS_OK;
}

int ts_maui_fs_import(struct ts_cred_usage *cu,
		      const struct ts_maui_fs_window *win, size_t n,
		      ts_maui_fs_id_of id_of, void *arg, int64_t now,
		      struct ts_maui_fs_import_report *rep,
		      struct ts_error *err)
{
	const struct ts_windows *w = &cu->w[TS_CRED_USER];
	uint32_t *where, **ids;
	size_t i;
	int rc;

	memset(rep, 0, sizeof(*rep));
	where = calloc(n ? n : 1, sizeof(*where));
	ids = calloc(n ? n : 1, sizeof(*ids));
	if (!where || !ids) {
		free(where);
		free(ids);
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	}
	rc = place_files(w, win, n, now, where, rep, err);
	if (!rc)
		rc = check_names(win, n, where, w->depth, id_of, arg, ids, err);
	for (i = 0; i < n && !rc; i++) {
		if (where[i] == w->depth)
			continue;
		rc = charge_file(cu, &win[i], ids[i], err);
		rep->files++;
		rep->entries += win[i].file.n;
		rep->total += win[i].file.total;
	}
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(where);
	return rc;
}

/* Append the line "TYPE name amount" to out. */
static int add_export_line(struct ts_maui_fs_file *out, size_t *cap,
			   enum ts_cred type, const char *name,
			   long double amount, struct ts_error *err)
{
	struct ts_maui_fs_entry *e;

	if (out->n == *cap) {
		size_t grown = *cap ? 2 * *cap : 16;

		e = realloc(out->entry, grown * sizeof(*e));
		if (!e)
			return ts_error_set(err, TS_ENOMEM, -1,
					    "out of memory");
		out->entry = e;
		*cap = grown;
	}
	e = &out->entry[out->n];
	e->name = strdup(name);
	if (!e->name)
		return ts_error_set(err, TS_ENOMEM, -1, "out of memory");
	e->type = type;
	e->amount = (double)amount;
	e->line = 0;
	out->n++;
	return TS_OK;
}

int ts_maui_fs_export(const struct ts_cred_usage *cu, uint32_t k,
		      ts_maui_fs_name_of name_of, void *arg,
		      struct ts_maui_fs_file *out, int64_t *epoch,
		      struct ts_error *err)
{
	size_t cap = 0, s;
	int c, rc = TS_OK;

	memset(out, 0, sizeof(*out));
	if (k >= cu->w[0].depth)
		return ts_error_set(err, TS_ERANGE, -1,
				    "window %" PRIu32 " of %" PRIu32, k,
				    cu->w[0].depth);
	*epoch = cu->w[0].bound[k + 1];
	out->duration = (uint32_t)(cu->w[0].bound[k] - cu->w[0].bound[k + 1]);
	out->total = (double)cu->w[0].total[k];
	for (c = 0; c < TS_CRED_N && !rc; c++) {
		const struct ts_windows *w = &cu->w[c];

		for (s = 0; s < w->n && !rc; s++) {
			long double u = w->usage[s * w->depth + k];
			const char *name = NULL;
			char digits[16];

			if (!(u > 0) || w->id[s] == TS_CRED_ID_NONE)
				continue;
			if (name_of)
				name = name_of((enum ts_cred)c, w->id[s], arg);
			if (!name) {
				snprintf(digits, sizeof(digits), "%" PRIu32,
					 w->id[s]);
				name = digits;
			}
			rc = add_export_line(out, &cap, (enum ts_cred)c, name,
					     u, err);
		}
	}
	if (rc)
		ts_maui_fs_free(out);
	return rc;
}
