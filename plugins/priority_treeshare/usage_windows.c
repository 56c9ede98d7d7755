/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage_windows.c - Maui usage windows in slurmctld (see usage_windows.h).
 * The arithmetic (windows, rolls, weighted sums, the file format) is
 * src/windows.c's and src/window_store.c's; this file decides when.
 */
#include "slurmctld_api.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/utc_time.h"
#include "src/window_store.h"
#include "src/windows.h"

#include "usage_windows.h"

/*
 * windows_mutex guards everything below it.  Taken last: callers may
 * hold the job lock and assoc_mgr's locks (charges); nothing here takes
 * a Slurm lock while holding it.
 */
static pthread_mutex_t windows_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct ts_windows windows;
static bool active;		  /* windows holds the usage in force */
static char *path;		  /* StateSaveLocation/treeshare_windows */
static char last_save_error[256]; /* logged once until it changes */

/* A refusal to start, logged once (conf_error_once()). */
static void refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void refuse(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	conf_error_once(line);
}

bool usage_windows_active(void)
{
	bool a;

	slurm_mutex_lock(&windows_mutex);
	a = active;
	slurm_mutex_unlock(&windows_mutex);
	return a;
}

static char *file_path(const char *state_dir)
{
	return xstrdup_printf("%s/%s", state_dir ? state_dir : ".",
			      USAGE_WINDOWS_FILE);
}

/* An association's usage_raw, read for a first start. */
struct carried {
	uint32_t id;
	long double usage;
};

/*
 * No saved windows (a first start, or a switch from half-life): every
 * association's current usage_raw, Slurm's half-life usage (0 on a new
 * cluster), is read under the association read lock, without
 * windows_mutex (job ends take the two the other way round).
 * RET the array (xfree it), *n its length, *root_id the root's id.
 */
static struct carried *read_usage(size_t *n, uint32_t *root_id)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK };
	struct carried *c = NULL;
	slurmdb_assoc_rec_t *a;
	list_itr_t *itr;
	size_t k = 0;

	*n = 0;
	*root_id = 0;
	assoc_mgr_lock(&read);
	if (assoc_mgr_assoc_list) {
		c = xcalloc(list_count(assoc_mgr_assoc_list) + 1, sizeof(*c));
		itr = list_iterator_create(assoc_mgr_assoc_list);
		while ((a = list_next(itr))) {
			long double u = a->usage ? a->usage->usage_raw : 0;

			c[k].id = a->id;
			/* x - x is 0 only for a finite x */
			c[k].usage = (u > 0 && u - u == 0) ? u : 0;
			k++;
		}
		list_iterator_destroy(itr);
	}
	if (assoc_mgr_root_assoc)
		*root_id = assoc_mgr_root_assoc->id;
	assoc_mgr_unlock(&read);
	*n = k;
	return c;
}

/* Put the usage read by read_usage() in window 0 of w. */
static int carry_over(struct ts_windows *w, const struct carried *c, size_t n,
		      uint32_t root_id, int64_t now)
{
	struct ts_error err = TS_ERROR_INIT;
	long double root = 0;
	size_t k;
	int rc = 0;

	for (k = 0; k < n && !rc; k++) {
		if (ts_windows_add_assoc(w, c[k].id, &err) < 0)
			rc = -1;
		else if (c[k].usage > 0)
			rc = ts_windows_add(w, c[k].id, c[k].usage, now, &err);
		if (c[k].id == root_id)
			root = c[k].usage;
	}
	if (!rc && root > 0)
		rc = ts_windows_add_total(w, root, now, &err);
	if (rc) {
		error("%s: usage windows: %s", plugin_type, err.msg);
		return -1;
	}
	/* clang-format off */
	info("%s: %s: no saved usage windows; the current usage (root %.0Lf) is the current window's",
	     plugin_type, path, root);
	/* clang-format on */
	return 0;
}

/* Keep an unusable file for inspection: PATH -> PATH.bad. */
static void set_aside(const char *file)
{
	char *bad = xstrdup_printf("%s.bad", file);

	if (rename(file, bad) && errno != ENOENT)
		error("%s: cannot rename %s to %s: %m", plugin_type, file, bad);
	else
		error("%s: %s kept as %s", plugin_type, file, bad);
	xfree(bad);
}

/* w to the configured parameters; log what changed. */
static int adopt(struct ts_windows *w, const struct priority_conf *c,
		 int64_t now)
{
	struct ts_windows_change chg;
	struct ts_error err = TS_ERROR_INIT;
	char line[512];

	if (ts_windows_reconfigure(w, c->settings.usage_window,
				   c->settings.usage_depth,
				   c->settings.usage_decay, now, &chg, &err)) {
		error("%s: usage windows: %s", plugin_type, err.msg);
		return -1;
	}
	/* clang-format off */
	if (chg.rolled > 1)
		info("%s: usage windows: %" PRId64 " windows rolled (%" PRId64 " of them empty: slurmctld was down)",
		     plugin_type, chg.rolled, chg.rolled - 1);
	/* clang-format on */
	if (ts_windows_describe_change(&chg, line, sizeof(line)))
		info("%s: %s", plugin_type, line);
	return 0;
}

/*
 * The saved windows at file into *w, or TS_ENOENT for "start afresh".
 * RET TS_OK, TS_ENOENT, or -1 after logging (slurmctld cannot start).
 */
static int load(const char *file, struct ts_windows *w, const char *outcome)
{
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	char when[32], *prev;
	int rc;

	rc = ts_window_store_load(file, w, &st, &err);
	if (rc == TS_OK) {
		if (st.used_prev)
			/* clang-format off */
			error("%s: %s; using %s.prev, saved at %s: usage charged after that is lost",
			      plugin_type, st.problem, file,
			      ts_utc_time(st.saved_at, when, sizeof(when)));
		/* clang-format on */
		log_flag(PRIO, "%s: %s: %zu associations, saved at %s",
			 plugin_type, file, w->n,
			 ts_utc_time(st.saved_at, when, sizeof(when)));
		return TS_OK;
	}
	if (rc == TS_ENOENT)
		return TS_ENOENT;
	if (!ignore_state_errors) {
		/* clang-format off */
		refuse("usage windows unusable: %s; %s: the files are left as they are (slurmctld -i keeps them as .bad and starts with empty windows)",
		       err.msg, outcome);
		/* clang-format on */
		return -1;
	}
	error("%s: usage windows unusable: %s; starting anyway (-i)",
	      plugin_type, err.msg);
	set_aside(file);
	prev = xstrdup_printf("%s.prev", file);
	set_aside(prev);
	xfree(prev);
	return TS_ENOENT;
}

int usage_windows_start(const struct priority_conf *c, const char *state_dir,
			time_t now, const char *outcome)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_windows w;
	struct carried *usage = NULL;
	size_t n = 0;
	uint32_t root_id = 0;
	bool refused;
	char *file;
	int rc;

	if (usage_windows_active())
		return 0;
	file = file_path(state_dir);
	/* File I/O and Slurm's locks before windows_mutex, never inside. */
	rc = load(file, &w, outcome);
	refused = rc == -1; /* load() said why */
	if (rc == TS_OK) {
		rc = adopt(&w, c, now);
	} else if (rc == TS_ENOENT) {
		rc = ts_windows_init(&w, c->settings.usage_window,
				     c->settings.usage_depth,
				     c->settings.usage_decay, now, 0, &err);
		if (rc)
			error("%s: usage windows: %s", plugin_type, err.msg);
		else
			usage = read_usage(&n, &root_id);
	}

	slurm_mutex_lock(&windows_mutex);
	xfree(path);
	path = file;
	if (!rc && usage)
		rc = carry_over(&w, usage, n, root_id, now);
	if (rc) {
		ts_windows_free(&w);
		xfree(path);
	} else {
		windows = w;
		active = true;
		last_save_error[0] = '\0';
	}
	slurm_mutex_unlock(&windows_mutex);
	xfree(usage);
	if (rc) {
		if (!refused)
			refuse("usage windows cannot be set up; %s", outcome);
		return -1;
	}
	return 0;
}

/* Encode under the lock, write after.  RET 0 or -1 (logged once). */
static int save(time_t now)
{
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *buf = NULL;
	char *file = NULL;
	size_t len = 0;
	int rc;

	slurm_mutex_lock(&windows_mutex);
	if (!active) {
		slurm_mutex_unlock(&windows_mutex);
		return 0;
	}
	rc = ts_window_store_encode(&windows, (int64_t)now, &buf, &len, &err);
	file = xstrdup(path);
	slurm_mutex_unlock(&windows_mutex);

	if (!rc)
		rc = ts_window_store_save_image(file, buf, len, &err);
	free(buf);
	xfree(file);
	slurm_mutex_lock(&windows_mutex);
	if (rc && strcmp(last_save_error, err.msg)) {
		snprintf(last_save_error, sizeof(last_save_error), "%s",
			 err.msg);
		error("%s: usage windows not saved: %s", plugin_type, err.msg);
	} else if (!rc && last_save_error[0]) {
		info("%s: usage windows saved again", plugin_type);
		last_save_error[0] = '\0';
	}
	slurm_mutex_unlock(&windows_mutex);
	return rc ? -1 : 0;
}

int usage_windows_save(time_t now)
{
	return save(now);
}

void usage_windows_stop(bool keep, time_t now)
{
	if (keep)
		(void)save(now);
	slurm_mutex_lock(&windows_mutex);
	if (active)
		ts_windows_free(&windows);
	active = false;
	xfree(path);
	slurm_mutex_unlock(&windows_mutex);
}

void usage_windows_reconfigure(const struct priority_conf *c,
			       const char *state_dir, time_t now)
{
	bool on = usage_windows_active();

	if (!c->windows) {
		if (on) {
			/* clang-format off */
			info("%s: usage_window removed: usage decays by PriorityDecayHalfLife again, from RawUsage as it is; saved windows kept in %s/%s",
			     plugin_type, state_dir, USAGE_WINDOWS_FILE);
			/* clang-format on */
			usage_windows_stop(true, now);
		}
		return;
	}
	if (!on) {
		/* clang-format off */
		(void)usage_windows_start(c, state_dir, now,
			"usage windows not started: RawUsage keeps decaying by PriorityDecayHalfLife");
		/* clang-format on */
		return;
	}
	slurm_mutex_lock(&windows_mutex);
	(void)adopt(&windows, c, now);
	slurm_mutex_unlock(&windows_mutex);
}

/* Add amount at time t to every id and the total.  Caller locks. */
static void add_piece(const uint32_t *ids, size_t n, long double amount,
		      int64_t t)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t k;

	for (k = 0; k < n; k++) {
		int rc = ts_windows_add_at(&windows, ids[k], amount, t, &err);

		if (rc == TS_ENOENT) {
			/* An association newer than the last cycle. */
			ts_error_clear(&err);
			if (ts_windows_add_assoc(&windows, ids[k], &err) >= 0)
				rc = ts_windows_add_at(&windows, ids[k], amount,
						       t, &err);
		}
		if (rc) {
			error("%s: usage windows: association %u: %s",
			      plugin_type, ids[k], err.msg);
			ts_error_clear(&err);
		}
	}
	if (ts_windows_add_total_at(&windows, amount, t, &err))
		error("%s: usage windows: total: %s", plugin_type, err.msg);
}

/*
 * The end of the kept window holding t (t before window 0's end); the
 * start of the oldest when t is older than all of them.  Caller locks.
 */
static int64_t window_end(int64_t t)
{
	uint32_t k;

	for (k = 0; k < windows.depth; k++)
		if (t >= windows.bound[k + 1])
			return windows.bound[k];
	return windows.bound[windows.depth];
}

bool usage_windows_charge(const uint32_t *ids, size_t n, long double amount,
			  time_t from, time_t to)
{
	int64_t t = from, end = to, span = (int64_t)to - (int64_t)from;
	long double left = amount;

	slurm_mutex_lock(&windows_mutex);
	if (!active) {
		slurm_mutex_unlock(&windows_mutex);
		return false;
	}
	if (!(amount > 0)) {
		slurm_mutex_unlock(&windows_mutex);
		return true;
	}
	if (span <= 0) {
		add_piece(ids, n, amount, end);
		slurm_mutex_unlock(&windows_mutex);
		return true;
	}
	/*
	 * Each part of [t, end) goes to the window holding it (charged at
	 * its last second): up to the end of the window holding t, then on
	 * from there, rolling when t passes window 0.
	 */
	while (t < end) {
		int64_t b;

		if (t >= windows.bound[0])
			(void)ts_windows_roll(&windows, t);
		b = window_end(t);
		if (end <= b) {
			add_piece(ids, n, left, end - 1);
			break;
		}
		add_piece(ids, n, amount * (long double)(b - t) / span, b - 1);
		left -= amount * (long double)(b - t) / span;
		if (left < 0)
			left = 0;
		t = b;
	}
	slurm_mutex_unlock(&windows_mutex);
	return true;
}

void usage_windows_roll(time_t now)
{
	int64_t rolled;

	slurm_mutex_lock(&windows_mutex);
	rolled = active ? ts_windows_roll(&windows, (int64_t)now) : 0;
	slurm_mutex_unlock(&windows_mutex);
	/* clang-format off */
	if (rolled > 1)
		info("%s: usage windows: %" PRId64 " windows rolled at once (%" PRId64 " of them empty)",
		     plugin_type, rolled, rolled - 1);
	else if (rolled == 1)
		log_flag(PRIO, "%s: usage windows rolled at %ld", plugin_type,
			 (long)now);
	/* clang-format on */
}

bool usage_windows_fill_tree(struct ts_tree *t,
			     long (*node_of)(const void *arg, uint32_t id),
			     const void *arg)
{
	struct ts_error err = TS_ERROR_INIT;
	size_t i, dropped = 0;

	slurm_mutex_lock(&windows_mutex);
	if (!active) {
		slurm_mutex_unlock(&windows_mutex);
		return false;
	}
	for (i = 0; i < t->n; i++) {
		if (ts_windows_add_assoc(&windows, t->id[i], &err) < 0) {
			error("%s: usage windows: %s", plugin_type, err.msg);
			ts_error_clear(&err);
		}
	}
	/* More rows than nodes: associations deleted since; forget them. */
	for (i = 0; windows.n > t->n && i < windows.n;) {
		if (node_of(arg, windows.id[i]) < 0 &&
		    ts_windows_remove_assoc(&windows, windows.id[i]))
			dropped++; /* the last row moved into slot i */
		else
			i++;
	}
	if (dropped)
		log_flag(
			PRIO,
			"%s: usage windows of %zu deleted associations dropped",
			plugin_type, dropped);
	ts_windows_fill_tree(&windows, t);
	slurm_mutex_unlock(&windows_mutex);
	return true;
}
