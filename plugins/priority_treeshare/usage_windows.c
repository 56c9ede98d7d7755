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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/credential_store.h"
#include "src/usage_state.h"
#include "src/utc_time.h"
#include "src/window_store.h"
#include "src/windows.h"

#include "error_once.h"
#include "maui_import.h"
#include "usage_windows.h"

/*
 * windows_mutex guards everything below it.  Taken last: callers may
 * hold the job lock and assoc_mgr's locks (charges); nothing here takes
 * a Slurm lock while holding it.
 */
static pthread_mutex_t windows_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct ts_windows windows;
static bool active; /* windows holds the usage in force */
/* Saved windows not in use (a treeshare_state image): what a restart or
 * a reconfigure that sets usage_window= again starts from. */
static unsigned char *kept;
static size_t kept_len;
/*
 * Maui's usage per credential (issue 27): charged in the same pieces as
 * the windows, at the same times, so both roll alike; kept as an image
 * while not in use, as the windows are.
 */
static struct ts_cred_usage cred;
static bool cred_active;
/*
 * cred_active and kept by half-life: read without windows_mutex by the
 * per-job charge, so that a cluster without it takes no lock there.
 */
static bool cred_half_life;
static unsigned char *kept_cred;
static size_t kept_cred_len;

/* Set cred_half_life after a change of cred.  Caller holds windows_mutex. */
static void note_cred_kind(void)
{
	__atomic_store_n(&cred_half_life,
			 cred_active && ts_cred_usage_half_life(&cred),
			 __ATOMIC_RELAXED);
}

bool usage_windows_active(void)
{
	bool a;

	slurm_mutex_lock(&windows_mutex);
	a = active;
	slurm_mutex_unlock(&windows_mutex);
	return a;
}

bool usage_windows_kept(void)
{
	bool k;

	slurm_mutex_lock(&windows_mutex);
	k = !active && kept;
	slurm_mutex_unlock(&windows_mutex);
	return k;
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
	info("%s: no saved usage windows; the current usage (root %.0Lf) is the current window's",
	     plugin_type, root);
	/* clang-format on */
	return 0;
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

void usage_windows_keep_image(unsigned char *image, size_t len)
{
	slurm_mutex_lock(&windows_mutex);
	free(kept);
	kept = image;
	kept_len = image ? len : 0;
	slurm_mutex_unlock(&windows_mutex);
}

void usage_windows_keep_cred_image(unsigned char *image, size_t len)
{
	slurm_mutex_lock(&windows_mutex);
	free(kept_cred);
	kept_cred = image;
	kept_cred_len = image ? len : 0;
	slurm_mutex_unlock(&windows_mutex);
}

/*
 * cu into the kind c asks for: c's windows (their length, depth and
 * decay), or half-life usage without usage_window=.  Converted when it
 * is of the other kind (ts_cred_usage_convert()).  RET TS_OK or an error
 * (cu unchanged).
 */
static int cred_conform(struct ts_cred_usage *cu, const struct priority_conf *c,
			int64_t now, struct ts_error *err)
{
	const struct ts_settings *s = &c->settings;

	if (!c->windows)
		return ts_cred_usage_half_life(cu)
			       ? TS_OK
			       : ts_cred_usage_convert(
					 cu, TS_CRED_HALF_LIFE_INTERVAL, 1, 1.0,
					 now, err);
	if (ts_cred_usage_half_life(cu))
		return ts_cred_usage_convert(cu, s->usage_window,
					     s->usage_depth, s->usage_decay,
					     now, err);
	return ts_cred_usage_reconfigure(cu, s->usage_window, s->usage_depth,
					 s->usage_decay, now, err);
}

/* How the usage per credential is kept, for the log. */
static const char *cred_kind(const struct priority_conf *c)
{
	return c->windows ? "kept in the usage windows"
			  : "decaying by PriorityDecayHalfLife";
}

/*
 * Usage per credential at now as c asks (cred_conform()): from the kept
 * image, else imported (fs_import=, read by import_history()), else
 * empty.  A failure is logged and keeps the image.  Takes imported (NULL:
 * none).  Caller holds windows_mutex.
 */
static void cred_start(const struct priority_conf *c, int64_t now,
		       struct ts_cred_usage *imported)
{
	struct ts_error err = TS_ERROR_INIT;
	const char *from = "from now on";
	int rc = 0;

	if (imported && (cred_active || kept_cred)) { /* what is kept wins */
		ts_cred_usage_free(imported);
		xfree(imported);
	}
	if (cred_active)
		return;
	if (kept_cred) {
		from = "from the saved one";
		rc = ts_credential_store_decode(kept_cred, kept_cred_len, &cred,
						&err);
		if (!rc && (rc = cred_conform(&cred, c, now, &err)))
			ts_cred_usage_free(&cred);
	} else if (imported) {
		from = "from fs_import";
		cred = *imported;
		xfree(imported);
	} else if (c->windows) {
		rc = ts_cred_usage_init(&cred, c->settings.usage_window,
					c->settings.usage_depth,
					c->settings.usage_decay, now, &err);
	} else {
		rc = ts_cred_usage_init_half_life(&cred, now, &err);
	}
	if (rc) {
		/* clang-format off */
		error("%s: usage per credential not kept: %s; the saved one stays in %s",
		      plugin_type, err.msg, TS_USAGE_STATE_FILE);
		/* clang-format on */
		return;
	}
	/* clang-format off */
	info("%s: usage per credential (user, group, account, qos, class) %s, %s",
	     plugin_type, cred_kind(c), from);
	/* clang-format on */
	free(kept_cred);
	kept_cred = NULL;
	kept_cred_len = 0;
	cred_active = true;
	note_cred_kind();
}

static void cred_adopt(const struct priority_conf *c, int64_t now,
		       struct ts_cred_usage *imported);

/*
 * fs_import=: the history to start the usage per credential from, read
 * only when it is about to start with nothing saved.  Takes Slurm's
 * locks: call without windows_mutex.  RET 0 (*imported set or NULL), or
 * -1 with *msg (xfree it).
 */
static int import_history(const struct priority_conf *c, int64_t now,
			  struct ts_cred_usage **imported, char **msg)
{
	bool fresh, saved;

	*imported = NULL;
	if (!c->cred_usage || !c->settings.fs_import)
		return 0;
	slurm_mutex_lock(&windows_mutex);
	saved = !cred_active && kept_cred;
	fresh = !cred_active && !kept_cred;
	slurm_mutex_unlock(&windows_mutex);
	if (saved)
		/* clang-format off */
		info("%s: fs_import %s not read: usage per credential is saved in %s, and an import only starts it",
		     plugin_type, c->settings.fs_import, TS_USAGE_STATE_FILE);
	/* clang-format on */
	if (!fresh)
		return 0;
	*imported = xmalloc(sizeof(**imported));
	if (maui_import_load(c, now, *imported, msg)) {
		xfree(*imported);
		return -1;
	}
	return 0;
}

/* Stop it; keep: as the kept image first.  Caller holds windows_mutex. */
static void cred_stop(bool keep, int64_t now)
{
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *image = NULL;
	size_t len = 0;

	if (!cred_active)
		return;
	if (keep && ts_credential_store_encode(&cred, now, &image, &len, &err))
		error("%s: usage per credential not kept: %s", plugin_type,
		      err.msg);
	ts_cred_usage_free(&cred);
	cred_active = false;
	note_cred_kind();
	if (image) {
		free(kept_cred);
		kept_cred = image;
		kept_cred_len = len;
	}
}

/* The kept image, taken out of kept (free() it).  NULL if none. */
static unsigned char *take_kept(size_t *len)
{
	unsigned char *image;

	slurm_mutex_lock(&windows_mutex);
	image = kept;
	*len = kept_len;
	kept = NULL;
	kept_len = 0;
	slurm_mutex_unlock(&windows_mutex);
	return image;
}

int usage_windows_start(const struct priority_conf *c, time_t now,
			const char *outcome)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_cred_usage *imported = NULL;
	struct ts_windows w;
	struct carried *usage = NULL;
	unsigned char *image;
	char *why = NULL;
	size_t n = 0, len;
	uint32_t root_id = 0;
	int64_t saved = 0;
	char when[32];
	int rc;

	if (usage_windows_active())
		return 0;
	if (import_history(c, now, &imported, &why)) {
		char *line = xstrdup_printf("%s; %s", why, outcome);

		error_once(line);
		xfree(line);
		xfree(why);
		return -1;
	}
	image = take_kept(&len);
	/* Slurm's locks before windows_mutex, never inside. */
	if (image) {
		rc = ts_window_store_decode(image, len, &w, &saved, &err);
		if (!rc) {
			/* clang-format off */
			log_flag(PRIO, "%s: usage windows of %zu associations, saved at %s",
				 plugin_type, w.n,
				 ts_utc_time(saved, when, sizeof(when)));
			/* clang-format on */
			rc = adopt(&w, c, now);
		} else {
			error("%s: usage windows: %s", plugin_type, err.msg);
		}
	} else {
		rc = ts_windows_init(&w, c->settings.usage_window,
				     c->settings.usage_depth,
				     c->settings.usage_decay, now, 0, &err);
		if (rc)
			error("%s: usage windows: %s", plugin_type, err.msg);
		else
			usage = read_usage(&n, &root_id);
	}

	slurm_mutex_lock(&windows_mutex);
	if (!rc && usage)
		rc = carry_over(&w, usage, n, root_id, now);
	if (rc) {
		ts_windows_free(&w);
		/* Not lost: saved again at the next commit. */
		if (image && !kept) {
			kept = image;
			kept_len = len;
			image = NULL;
		}
	} else {
		windows = w;
		active = true;
		cred_adopt(c, now, imported); /* takes imported */
		imported = NULL;
	}
	slurm_mutex_unlock(&windows_mutex);
	if (imported)
		ts_cred_usage_free(imported);
	xfree(imported);
	free(image);
	xfree(usage);
	if (rc) {
		char *line = xstrdup_printf(
			"usage windows cannot be set up; %s", outcome);

		error_once(line);
		xfree(line);
		return -1;
	}
	return 0;
}

/* A copy of a kept image (what: its name for the error).  Caller locks. */
static int copy_kept(const unsigned char *image, size_t image_len,
		     const char *what, unsigned char **buf, size_t *len,
		     struct ts_error *err)
{
	*buf = malloc(image_len);
	if (!*buf)
		return ts_error_set(err, TS_ENOMEM, -1,
				    "cannot copy %zu bytes of saved %s",
				    image_len, what);
	memcpy(*buf, image, image_len);
	*len = image_len;
	return TS_OK;
}

int usage_windows_image(time_t now, unsigned char **buf, size_t *len,
			bool *in_use)
{
	struct ts_error err = TS_ERROR_INIT;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	slurm_mutex_lock(&windows_mutex);
	*in_use = active;
	if (active) {
		rc = ts_window_store_encode(&windows, (int64_t)now, buf, len,
					    &err);
	} else if (kept) {
		rc = copy_kept(kept, kept_len, "windows", buf, len, &err);
	}
	slurm_mutex_unlock(&windows_mutex);
	if (rc)
		error("%s: usage windows not saved: %s", plugin_type, err.msg);
	return rc ? -1 : 0;
}

int usage_windows_cred_image(time_t now, unsigned char **buf, size_t *len)
{
	struct ts_error err = TS_ERROR_INIT;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	slurm_mutex_lock(&windows_mutex);
	if (cred_active) {
		rc = ts_credential_store_encode(&cred, (int64_t)now, buf, len,
						&err);
	} else if (kept_cred) {
		rc = copy_kept(kept_cred, kept_cred_len, "usage per credential",
			       buf, len, &err);
	}
	slurm_mutex_unlock(&windows_mutex);
	if (rc)
		error("%s: usage per credential not saved: %s", plugin_type,
		      err.msg);
	return rc ? -1 : 0;
}

int usage_windows_cred_shares(struct ts_cred_shares *s,
			      const struct ts_targets *tg, ts_cred_id_of id_of,
			      void *arg)
{
	struct ts_error err = TS_ERROR_INIT;
	int rc;

	slurm_mutex_lock(&windows_mutex);
	rc = ts_cred_shares_take(s, cred_active ? &cred : NULL, tg, id_of, arg,
				 &err);
	slurm_mutex_unlock(&windows_mutex);
	if (rc)
		error("%s: fair share per credential: %s; the last one stays",
		      plugin_type, err.msg);
	return rc ? -1 : 0;
}

void usage_windows_stop(bool keep, time_t now)
{
	struct ts_error err = TS_ERROR_INIT;
	unsigned char *image = NULL;
	size_t len = 0;

	slurm_mutex_lock(&windows_mutex);
	if (active && keep &&
	    ts_window_store_encode(&windows, (int64_t)now, &image, &len,
				   &err)) {
		/* clang-format off */
		error("%s: usage windows not kept: %s; a later usage_window= starts from RawUsage",
		      plugin_type, err.msg);
		/* clang-format on */
	}
	if (active) {
		ts_windows_free(&windows);
		if (image) {
			free(kept);
			kept = image;
			kept_len = len;
		}
	}
	active = false;
	cred_stop(keep, (int64_t)now);
	slurm_mutex_unlock(&windows_mutex);
}

void usage_windows_fini(void)
{
	usage_windows_stop(false, 0);
	usage_windows_keep_image(NULL, 0);
	usage_windows_keep_cred_image(NULL, 0);
}

/*
 * Usage per credential as c says: started, stopped (kept as an image),
 * or conformed to c's windows or half-life.  Takes imported.
 * windows_mutex held.
 */
static void cred_adopt(const struct priority_conf *c, int64_t now,
		       struct ts_cred_usage *imported)
{
	struct ts_error err = TS_ERROR_INIT;
	bool was_half_life;

	if (c->cred_usage && !cred_active) {
		cred_start(c, now, imported);
		return;
	}
	if (imported) /* only a start takes it */
		ts_cred_usage_free(imported);
	xfree(imported);
	if (!c->cred_usage) {
		/* clang-format off */
		if (cred_active)
			info("%s: usage per credential no longer kept; what it holds stays in %s for later",
			     plugin_type, TS_USAGE_STATE_FILE);
		/* clang-format on */
		cred_stop(true, now);
		return;
	}
	was_half_life = ts_cred_usage_half_life(&cred);
	if (cred_conform(&cred, c, now, &err)) {
		/* clang-format off */
		error("%s: usage per credential: %s; it stays as it was",
		      plugin_type, err.msg);
		/* clang-format on */
	} else if (was_half_life == c->windows) {
		/* clang-format off */
		info("%s: usage per credential %s from now on, from its decay-weighted usage",
		     plugin_type, cred_kind(c));
		/* clang-format on */
	}
	note_cred_kind();
}

/*
 * Usage per credential without usage windows (half-life), at a start or
 * a reconfigure.  windows_mutex taken here.
 */
static void cred_adopt_alone(const struct priority_conf *c, time_t now)
{
	slurm_mutex_lock(&windows_mutex);
	cred_adopt(c, (int64_t)now, NULL);
	slurm_mutex_unlock(&windows_mutex);
}

void usage_windows_cred_start(const struct priority_conf *c, time_t now)
{
	cred_adopt_alone(c, now);
}

void usage_windows_cred_charge(usage_cred_of cred_of, const void *job,
			       long double amount, time_t t)
{
	struct ts_cred_ids ids;

	if (!(amount > 0) ||
	    !__atomic_load_n(&cred_half_life, __ATOMIC_RELAXED))
		return;
	slurm_mutex_lock(&windows_mutex);
	if (cred_active && ts_cred_usage_half_life(&cred)) {
		/* Here: TS_ERROR_INIT zeroes 1 KiB, every running job. */
		struct ts_error err = TS_ERROR_INIT;

		cred_of(job, &ids);
		if (ts_cred_usage_charge(&cred, &ids, amount, (int64_t)t, &err))
			error("%s: usage per credential: %s", plugin_type,
			      err.msg);
	}
	slurm_mutex_unlock(&windows_mutex);
}

void usage_windows_cred_decay(double factor)
{
	slurm_mutex_lock(&windows_mutex);
	if (cred_active && ts_cred_usage_half_life(&cred))
		ts_cred_usage_scale(&cred, factor);
	slurm_mutex_unlock(&windows_mutex);
}

void usage_windows_reconfigure(const struct priority_conf *c, time_t now)
{
	struct ts_cred_usage *imported = NULL;
	bool on = usage_windows_active(), cred_off = false;
	char *why = NULL;

	if (!c->windows) {
		if (on) {
			/* clang-format off */
			info("%s: usage_window removed: usage decays by PriorityDecayHalfLife again, from RawUsage as it is; the windows are kept in %s",
			     plugin_type, TS_USAGE_STATE_FILE);
			/* clang-format on */
			usage_windows_stop(true, now);
		}
		cred_adopt_alone(c, now);
		return;
	}
	if (!on) {
		/* clang-format off */
		(void)usage_windows_start(c, now,
			"usage windows not started: RawUsage keeps decaying by PriorityDecayHalfLife");
		/* clang-format on */
		return;
	}
	if (import_history(c, now, &imported, &why)) {
		/* clang-format off */
		error("%s: %s; usage per credential not started", plugin_type,
		      why);
		/* clang-format on */
		xfree(why);
		cred_off = true;
	}
	slurm_mutex_lock(&windows_mutex);
	(void)adopt(&windows, c, now);
	if (!cred_off)
		cred_adopt(c, now, imported); /* takes imported */
	slurm_mutex_unlock(&windows_mutex);
}

/* Add amount at time t to every id and the total.  Caller locks. */
static void add_piece(const uint32_t *ids, size_t n,
		      const struct ts_cred_ids *cred_ids, long double amount,
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
	ts_error_clear(&err);
	if (cred_active && cred_ids &&
	    ts_cred_usage_charge(&cred, cred_ids, amount, t, &err))
		error("%s: usage per credential: %s", plugin_type, err.msg);
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

bool usage_windows_charge(const uint32_t *ids, size_t n, usage_cred_of cred_of,
			  const void *job, long double amount, time_t from,
			  time_t to)
{
	int64_t t = from, end = to, span = (int64_t)to - (int64_t)from;
	long double left = amount;
	struct ts_cred_ids cred_buf;
	const struct ts_cred_ids *cred_ids = NULL;

	slurm_mutex_lock(&windows_mutex);
	if (!active) {
		slurm_mutex_unlock(&windows_mutex);
		return false;
	}
	if (cred_active && cred_of) {
		cred_of(job, &cred_buf);
		cred_ids = &cred_buf;
	}
	if (!(amount > 0)) {
		slurm_mutex_unlock(&windows_mutex);
		return true;
	}
	if (span <= 0) {
		add_piece(ids, n, cred_ids, amount, end);
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
			add_piece(ids, n, cred_ids, left, end - 1);
			break;
		}
		add_piece(ids, n, cred_ids,
			  amount * (long double)(b - t) / span, b - 1);
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
	if (cred_active)
		ts_cred_usage_roll(&cred, (int64_t)now);
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
