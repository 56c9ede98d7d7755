/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkpoint.c - the plugin's state committed as one unit (checkpoint.h).
 *
 * Design: crash consistency (the guarantee is in priority_treeshare(5),
 * STATE FILES).
 *
 * What a restart needs is a state from which the next cycle neither
 * double-charges nor drops anything: the usage of every association and
 * QOS as of one instant S, and L, the "last decay" up to which every
 * running job had been charged by then (every job end before S being in
 * that usage).  slurmctld saves usage (assoc_usage, qos_usage) only every
 * 300 s and at shutdown, while the decay time moves every cycle: pairing
 * slurmctld's usage with the plugin's L is what lost up to 5 minutes of
 * charges after a kill -9 (priority/multifactor still does).  So the
 * plugin saves its own pair, with the usage windows, in one file:
 *
 *   1. snapshot: after a cycle (L = its start), under assoc_mgr's read
 *      locks, copy every association's and QOS's usage and the windows
 *      and read S = now.  A job end charges under the write lock, so
 *      none can fall between the copy and S.
 *   2. commit: encode, write treeshare_state.new, fsync, keep the
 *      current copy as .prev (only a complete one), rename .new over
 *      treeshare_state, fsync the directory.  The rename is the commit:
 *      before it the previous unit is in force, after it this one.
 *   3. priority_last_decay_ran, multifactor's format for a switch of
 *      PriorityType, after the commit and only if it succeeded.
 *
 * At start the unit's usage replaces what slurmctld restored and its L
 * becomes the last decay, so the controller resumes from S exactly; the
 * first cycle charges running jobs from L.  A crash anywhere in 1 to 3
 * leaves the previous or the new unit, each consistent in itself: no
 * running job's charge is lost or doubled, and what is lost is at most
 * the job ends charged after the last commit's S (one cycle).
 *
 * Why a snapshot and not a journal of per-cycle charges: replaying a
 * journal needs to know which charges slurmctld's own assoc_usage already
 * holds (it is saved on its own clock), which the plugin cannot tell;
 * replacing usage wholesale needs no such knowledge, and its proof is the
 * paragraph above.  The price is one write of the whole usage a cycle
 * (4 + 12 x (2 + TRES) bytes per association: 124 with Slurm's 8 default
 * TRES; 100,000 associations: 12 MB every PriorityCalcPeriod).
 *
 * Another priority plugin may have run since the last commit (a switch
 * to multifactor and back): it writes priority_last_decay_ran in its 16
 * bytes without treeshare's trailer.  When that file is newer than the
 * unit, slurmctld's usage and that time are the consistent pair and the
 * unit's usage is stale: it is not restored.
 */
#include "slurmctld_api.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/decay_record.h"
#include "src/state_bytes.h"
#include "src/usage_state.h"
#include "src/utc_time.h"
#include "src/whole_file.h"
#include "src/window_store.h"

#include "cap_hold.h"
#include "consumed_usage.h"
#include "error_once.h"
#include "checkpoint.h"
#include "priority_conf.h"
#include "usage.h"
#include "usage_windows.h"

/* checkpoint_mutex guards everything below it; never held across I/O
 * or a Slurm lock. */
static pthread_mutex_t checkpoint_mutex = PTHREAD_MUTEX_INITIALIZER;
static char *state_dir;	       /* StateSaveLocation; NULL: disarmed */
static bool migrate_windows;   /* rename treeshare_windows after a commit */
static char *last_error;       /* the commit error logged last */
static time_t last_saved;      /* S of the last successful commit */
static time_t record_ran = -1; /* priority_last_decay_ran as last written */
static time_t record_reset = -1;

/*
 * snap_mutex guards the commit's buffers, kept from one commit to the
 * next so that a cycle's commit allocates nothing once sizes settle: the
 * snapshot, the order its sort found (the association list keeps its
 * order from cycle to cycle) and the file image.  Held for a whole
 * commit (one at a time), taken before any Slurm lock.
 */
static pthread_mutex_t snap_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct ts_usage_state snap;
static struct ts_usage_sort_memo snap_order;
static struct ts_state_image snap_image;

/* slurmctld's state-file lock; no-ops outside slurmctld. */
static void state_files_lock(void)
{
	if (&lock_state_files)
		lock_state_files();
}

static void state_files_unlock(void)
{
	if (&unlock_state_files)
		unlock_state_files();
}

static const char *utc(time_t t, char *buf, size_t len)
{
	return ts_utc_time((int64_t)t, buf, len);
}

/* ------------------------------------------------------------ snapshot */

/*
 * One record's values as Slurm has them: raw, wall, then the TRES
 * (usage_state.h).  Copied unchecked: the encoder refuses a value that
 * is NaN, infinite or negative, and only then does the commit look for
 * them (ts_usage_state_sanitize()).
 */
static void put_usage(long double *val, const long double *raw, double wall,
		      const long double *tres, uint32_t n_tres)
{
	memcpy(&val[0], raw, sizeof(*val));
	val[1] = wall;
	if (tres)
		memcpy(&val[2], tres, n_tres * sizeof(*val));
	else
		memset(&val[2], 0, n_tres * sizeof(*val));
}

/* Slurm's association and QOS usage are two types with these fields. */
#define PUT_USAGE(val, u, n_tres)                                              \
	put_usage(val, &(u)->usage_raw, (u)->grp_used_wall,                    \
		  (u)->usage_tres_raw, n_tres)

static bool separate_leaf(const slurmdb_assoc_rec_t *a)
{
	return a->leaf_usage && a->leaf_usage != a->usage;
}

/* One walk's place in the snapshot. */
struct walk {
	struct ts_usage_state *s;
	size_t v, i;
	bool nomem; /* a leaf usage found no room */
};

/* list_for_each_ro() callback: one association's usage; -1 stops. */
static int put_assoc(void *x, void *arg)
{
	slurmdb_assoc_rec_t *a = x;
	struct walk *w = arg;
	struct ts_usage_state *s = w->s;

	if (w->i >= s->assoc.n)
		return -1;
	s->assoc.id[w->i] = a->id;
	PUT_USAGE(&s->assoc.val[w->i++ * w->v], a->usage, s->n_tres);
	/* Few accounts have one: found here, not counted in a walk before. */
	if (separate_leaf(a)) {
		long l = ts_usage_state_add_leaf(s);

		if (l < 0) {
			w->nomem = true;
			return -1;
		}
		s->leaf.id[l] = a->id;
		PUT_USAGE(&s->leaf.val[l * w->v], a->leaf_usage, s->n_tres);
	}
	return 0;
}

/* list_for_each_ro() callback: one QOS's usage; -1 stops. */
static int put_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *q = x;
	struct walk *w = arg;
	struct ts_usage_state *s = w->s;

	if (w->i >= s->qos.n)
		return -1;
	s->qos.id[w->i] = q->id;
	PUT_USAGE(&s->qos.val[w->i++ * w->v], q->usage, s->n_tres);
	return 0;
}

/*
 * Step 1 of the design: every association's and QOS's usage and the
 * windows, as of one instant, into s (kept from the last commit: its
 * arrays are reused, each walk taking the list's lock once).  RET 0, or
 * -1 with err set.
 */
static int snapshot(struct ts_usage_state *s, time_t ran, time_t reset,
		    struct ts_error *err)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK,
				   .qos = READ_LOCK,
				   .tres = READ_LOCK };
	struct walk w = { .s = s };
	const struct priority_conf *c = conf_get();
	size_t n_assoc, n_qos;
	uint32_t t, n_tres;
	bool in_use;
	int rc;

	free(s->windows);
	s->windows = NULL;
	s->windows_len = 0;
	free(s->cred);
	s->cred = NULL;
	s->cred_len = 0;
	assoc_mgr_lock(&locks);
	n_tres = g_tres_count;
	n_assoc = assoc_mgr_assoc_list ? list_count(assoc_mgr_assoc_list) : 0;
	n_qos = assoc_mgr_qos_list ? list_count(assoc_mgr_qos_list) : 0;
	rc = ts_usage_state_reserve(s, n_tres, n_assoc, 0, n_qos, err);
	if (rc) {
		assoc_mgr_unlock(&locks);
		return -1;
	}
	w.v = ts_usage_state_values(s);
	for (t = 0; t < n_tres; t++)
		s->tres_id[t] = assoc_mgr_tres_array[t]->id;
	if (n_assoc)
		(void)list_for_each_ro(assoc_mgr_assoc_list, put_assoc, &w);
	if (w.nomem) {
		assoc_mgr_unlock(&locks);
		ts_error_set(
			err, TS_ENOMEM, -1,
			"cannot allocate the leaf usages of %zu associations",
			n_assoc);
		return -1;
	}
	w.i = 0;
	if (n_qos)
		(void)list_for_each_ro(assoc_mgr_qos_list, put_qos, &w);
	s->saved_at = (int64_t)time(NULL);
	s->last_ran = (int64_t)ran;
	s->last_reset = (int64_t)reset;
	s->consumed_since = c && c->settings.consumed
				    ? (int64_t)c->consumed_since
				    : 0; /* usage_metric=dedicated */
	rc = usage_windows_image(s->saved_at, &s->windows, &s->windows_len,
				 &in_use);
	if (!rc)
		rc = usage_windows_cred_image(s->saved_at, &s->cred,
					      &s->cred_len);
	assoc_mgr_unlock(&locks);
	s->windows_active = in_use;
	if (!rc && cap_hold_keys(s, err))
		return -1;
	if (rc) {
		ts_error_set(
			err, TS_ENOMEM, -1,
			"usage windows or usage per credential not encoded");
		return -1;
	}
	return ts_usage_state_sort_again(s, &snap_order, err) ? -1 : 0;
}

/*
 * The snapshot as a file image.  A value Slurm holds as NaN, infinite or
 * negative makes the encoder refuse it: then such values are saved as 0,
 * and said.
 */
static int encode(struct ts_usage_state *s, struct ts_state_image *img,
		  struct ts_error *err)
{
	size_t bad;
	int rc = ts_usage_state_encode_into(s, img, err);

	if (rc != TS_EINVAL)
		return rc;
	bad = ts_usage_state_sanitize(s);
	if (!bad)
		return rc;
	/* clang-format off */
	error("%s: %zu usage values were NaN, infinite or negative in slurmctld's records; saved as 0",
	      plugin_type, bad);
	/* clang-format on */
	ts_error_clear(err);
	return ts_usage_state_encode_into(s, img, err);
}

/* -------------------------------------------------------------- commit */

/*
 * A commit's outcome, logged once until it changes.  committed: the
 * unit was renamed into place, and only multifactor's file failed.
 */
static void report(int rc, bool committed, const char *msg)
{
	char when[32];
	time_t saved;
	bool again;

	slurm_mutex_lock(&checkpoint_mutex);
	saved = last_saved;
	if (rc) {
		again = last_error && !strcmp(last_error, msg);
		if (!again) {
			xfree(last_error);
			last_error = xstrdup(msg);
		}
	} else {
		again = !last_error;
		xfree(last_error);
	}
	slurm_mutex_unlock(&checkpoint_mutex);
	if (again)
		return;
	if (!rc) {
		info("%s: state saved again", plugin_type);
		return;
	}
	/* clang-format off */
	if (committed)
		error("%s: state committed to %s, but priority_last_decay_ran not updated: %s; treeshare_state holds the decay time treeshare needs; the file is tried again at the next commit",
		      plugin_type, TS_USAGE_STATE_FILE, msg);
	else if (saved)
		error("%s: state not saved: %s; the files keep the state committed at %s",
		      plugin_type, msg, utc(saved, when, sizeof(when)));
	else
		error("%s: state not saved: %s; the files are as they were",
		      plugin_type, msg);
	/* clang-format on */
}

/*
 * After the first commit the windows file of before issue 13 is never
 * read again, so that a later loss of treeshare_state cannot revive it.
 */
static void retire_windows_file(const char *dir)
{
	static const char *const names[] = { USAGE_WINDOWS_FILE,
					     USAGE_WINDOWS_FILE ".prev" };
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		char *from = xstrdup_printf("%s/%s", dir, names[k]);
		char *to = xstrdup_printf("%s.migrated", from);

		if (!rename(from, to))
			info("%s: %s is in %s now; the old file is kept as %s",
			     plugin_type, from, TS_USAGE_STATE_FILE, to);
		else if (errno != ENOENT)
			error("%s: cannot rename %s to %s: %m", plugin_type,
			      from, to);
		xfree(from);
		xfree(to);
	}
}

int checkpoint_commit(time_t last_ran, time_t last_reset)
{
	const struct ts_decay_record rec = { .last_ran = last_ran,
					     .last_reset = last_reset };
	struct ts_error err = TS_ERROR_INIT;
	char *dir, *unit, *decay;
	size_t len = 0;
	bool migrate, same_record, committed;
	int rc;

	slurm_mutex_lock(&checkpoint_mutex);
	dir = xstrdup(state_dir);
	migrate = migrate_windows;
	same_record = record_ran == last_ran && record_reset == last_reset;
	slurm_mutex_unlock(&checkpoint_mutex);
	if (!dir)
		return 0;
	unit = xstrdup_printf("%s/%s", dir, TS_USAGE_STATE_FILE);
	decay = xstrdup_printf("%s/priority_last_decay_ran", dir);

	/* 1. snapshot; the image stays in snap_image until written */
	slurm_mutex_lock(&snap_mutex);
	rc = snapshot(&snap, last_ran, last_reset, &err);
	if (!rc)
		rc = encode(&snap, &snap_image, &err);
	len = snap_image.len;

	/*
	 * 2. commit, 3. multifactor's file only after it, and only when
	 * its times changed (fini's commit saves the usage of job ends
	 * since the last cycle; the decay time is the same).
	 */
	state_files_lock();
	if (!rc)
		rc = ts_usage_state_save_image(unit, snap_image.buf, len, &err);
	committed = !rc;
	if (!rc && !same_record)
		rc = ts_decay_record_save(decay, &rec, &err);
	if (!rc && migrate)
		retire_windows_file(dir);
	state_files_unlock();
	slurm_mutex_unlock(&snap_mutex);

	if (committed) {
		log_flag(PRIO, "%s: state committed: last decay %ld, %zu bytes",
			 plugin_type, (long)last_ran, len);
		slurm_mutex_lock(&checkpoint_mutex);
		last_saved = time(NULL);
		if (!rc) {
			migrate_windows = false;
			record_ran = last_ran;
			record_reset = last_reset;
		}
		slurm_mutex_unlock(&checkpoint_mutex);
	}
	report(rc, committed && rc, err.msg);
	xfree(unit);
	xfree(decay);
	xfree(dir);
	return rc ? -1 : 0;
}

bool checkpoint_armed(void)
{
	bool armed;

	slurm_mutex_lock(&checkpoint_mutex);
	armed = state_dir != NULL;
	slurm_mutex_unlock(&checkpoint_mutex);
	return armed;
}

void checkpoint_fini(void)
{
	slurm_mutex_lock(&snap_mutex);
	ts_usage_state_free(&snap);
	ts_usage_sort_memo_free(&snap_order);
	free(snap_image.buf);
	memset(&snap_image, 0, sizeof(snap_image));
	slurm_mutex_unlock(&snap_mutex);
	slurm_mutex_lock(&checkpoint_mutex);
	xfree(state_dir);
	xfree(last_error);
	migrate_windows = false;
	last_saved = 0;
	record_ran = -1;
	record_reset = -1;
	slurm_mutex_unlock(&checkpoint_mutex);
}

/* ------------------------------------------------------------- recover */

/* A refusal to start, logged once (error_once()). */
static void refuse(const char *what, const char *why, const char *remedy)
{
	char *line = xstrdup_printf(
		"%s unusable: %s; slurmctld cannot start: the files are left as they are (%s)",
		what, why, remedy);

	error_once(line);
	xfree(line);
}

/* Keep an unusable file for inspection: PATH -> PATH.bad. */
static void set_aside(const char *dir, const char *name)
{
	char *file = xstrdup_printf("%s/%s", dir, name);
	char *bad = xstrdup_printf("%s.bad", file);

	if (!rename(file, bad))
		error("%s: %s kept as %s", plugin_type, file, bad);
	else if (errno != ENOENT)
		error("%s: cannot rename %s to %s: %m", plugin_type, file, bad);
	xfree(file);
	xfree(bad);
}

/* saved TRES k -> index into usage_tres_raw[], or -1 if gone. */
static void map_tres(const struct ts_usage_state *u, int *map)
{
	uint32_t k;
	int i;

	for (k = 0; k < u->n_tres; k++) {
		map[k] = -1;
		for (i = 0; i < (int)g_tres_count; i++)
			if (assoc_mgr_tres_array[i] &&
			    assoc_mgr_tres_array[i]->id == u->tres_id[k])
				map[k] = i;
	}
}

/* The reverse of put_usage(), TRES mapped to today's positions. */
static void restore_values(long double *raw, double *wall, long double *tres,
			   const long double *val, const int *map,
			   uint32_t n_tres)
{
	uint32_t k;

	*raw = val[0];
	*wall = (double)val[1];
	for (k = 0; k < n_tres; k++)
		if (map[k] >= 0 && tres)
			tres[map[k]] = val[2 + k];
}

/*
 * The unit's usage in place of slurmctld's.  Associations and QOS the
 * unit does not know (added since) keep slurmctld's; saved ones no longer
 * there (deleted since) are dropped.  file and suffix (".prev" or "")
 * name the copy read, for the log.
 */
static void restore_usage(const struct ts_usage_state *u, const char *file,
			  const char *suffix)
{
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK,
				   .qos = WRITE_LOCK,
				   .tres = READ_LOCK };
	size_t v = ts_usage_state_values(u), done = 0, fresh = 0, qdone = 0;
	int map[u->n_tres ? u->n_tres : 1];
	long double ctld_root = 0, root = 0;
	struct usage_rebuilt rb;
	int rb_rc;
	slurmdb_assoc_rec_t *a;
	slurmdb_qos_rec_t *q;
	list_itr_t *itr;
	char s[32], l[32];
	long k;

	assoc_mgr_lock(&locks);
	map_tres(u, map);
	if (assoc_mgr_root_assoc)
		ctld_root = assoc_mgr_root_assoc->usage->usage_raw;
	if (assoc_mgr_assoc_list) {
		itr = list_iterator_create(assoc_mgr_assoc_list);
		while ((a = list_next(itr))) {
			k = ts_usage_state_find(&u->assoc, a->id);
			if (k < 0) {
				fresh++;
				continue;
			}
			restore_values(&a->usage->usage_raw,
				       &a->usage->grp_used_wall,
				       a->usage->usage_tres_raw,
				       &u->assoc.val[k * v], map, u->n_tres);
			done++;
			k = ts_usage_state_find(&u->leaf, a->id);
			if (k < 0 || a->user)
				continue;
			if (!separate_leaf(a))
				a->leaf_usage = slurmdb_create_assoc_usage(
					g_tres_count);
			restore_values(&a->leaf_usage->usage_raw,
				       &a->leaf_usage->grp_used_wall,
				       a->leaf_usage->usage_tres_raw,
				       &u->leaf.val[k * v], map, u->n_tres);
		}
		list_iterator_destroy(itr);
	}
	if (assoc_mgr_qos_list) {
		itr = list_iterator_create(assoc_mgr_qos_list);
		while ((q = list_next(itr))) {
			k = ts_usage_state_find(&u->qos, q->id);
			if (k < 0)
				continue;
			restore_values(&q->usage->usage_raw,
				       &q->usage->grp_used_wall,
				       q->usage->usage_tres_raw,
				       &u->qos.val[k * v], map, u->n_tres);
			qdone++;
		}
		list_iterator_destroy(itr);
	}
	/* the accounts' totals: what their children hold wins */
	rb_rc = usage_rebuild_accounts(&rb);
	if (assoc_mgr_root_assoc)
		root = assoc_mgr_root_assoc->usage->usage_raw;
	assoc_mgr_unlock(&locks);

	/* clang-format off */
	info("%s: usage of %zu associations and %zu QOS restored from %s%s, saved at %s, last decay %s: root RawUsage %.0Lf (slurmctld's assoc_usage had %.0Lf)",
	     plugin_type, done, qdone, file, suffix,
	     utc((time_t)u->saved_at, s, sizeof(s)),
	     utc((time_t)u->last_ran, l, sizeof(l)), root, ctld_root);
	if (!rb_rc && rb.accounts)
		info("%s: %zu accounts in %s%s did not hold what their children hold: set to the sum of their children's usage and their own (root RawUsage %.0Lf -> %.0Lf)",
		     plugin_type, rb.accounts, file, suffix, rb.root_was,
		     rb.root_now);
	if (fresh || done < u->assoc.n)
		info("%s: %zu associations added since keep slurmctld's usage; %zu saved ones no longer exist",
		     plugin_type, fresh, u->assoc.n - done);
	/* clang-format on */
}

/* The windows file of before issue 13, read once: its image is kept. */
static int migrate_windows_file(const char *dir)
{
	struct ts_window_store_status st;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_windows w;
	unsigned char *image = NULL;
	size_t len = 0;
	char *file = xstrdup_printf("%s/%s", dir, USAGE_WINDOWS_FILE);
	char when[32];
	int rc;

	state_files_lock();
	rc = ts_window_store_load(file, &w, &st, &err);
	state_files_unlock();
	if (rc == TS_ENOENT) {
		xfree(file);
		return 0;
	}
	if (rc == TS_OK) {
		rc = ts_window_store_encode(&w, st.saved_at, &image, &len,
					    &err);
		ts_windows_free(&w);
	}
	if (rc == TS_OK) {
		/* clang-format off */
		if (st.used_prev)
			error("%s: %s; using %s.prev, saved at %s: usage charged after that is lost",
			      plugin_type, st.problem, file,
			      utc((time_t)st.saved_at, when, sizeof(when)));
		info("%s: %s read once (windows saved at %s); from now on they are saved in %s",
		     plugin_type, file, utc((time_t)st.saved_at, when, sizeof(when)),
		     TS_USAGE_STATE_FILE);
		/* clang-format on */
		usage_windows_keep_image(image, len);
		slurm_mutex_lock(&checkpoint_mutex);
		migrate_windows = true;
		slurm_mutex_unlock(&checkpoint_mutex);
		xfree(file);
		return 0;
	}
	xfree(file);
	if (!ignore_state_errors) {
		refuse("usage windows", err.msg,
		       "slurmctld -i keeps them as .bad and starts with empty windows");
		return -1;
	}
	error("%s: usage windows unusable: %s; starting anyway (-i)",
	      plugin_type, err.msg);
	set_aside(dir, USAGE_WINDOWS_FILE);
	set_aside(dir, USAGE_WINDOWS_FILE ".prev");
	return 0;
}

/* The decay record's defects while the unit is in force: logged only. */
static void note_decay_record(int rc, const struct ts_kept_status *st,
			      const char *msg)
{
	/* clang-format off */
	if (rc != TS_OK && rc != TS_ENOENT)
		error("%s: %s; nothing lost: %s holds the decay time",
		      plugin_type, msg, TS_USAGE_STATE_FILE);
	else if (rc == TS_OK && st->used_prev)
		error("%s: %s; nothing lost: %s holds the decay time",
		      plugin_type, st->problem, TS_USAGE_STATE_FILE);
	/* clang-format on */
}

/* The files read at start, and what each said. */
struct found {
	const char *unit_path;
	struct ts_usage_state u;
	struct ts_kept_status ust;
	struct ts_error uerr;
	int urc;
	const char *decay_path;
	struct ts_decay_record d;
	struct ts_kept_status dst;
	struct ts_error derr;
	int drc;
};

/* A copy of a saved image (if any) to keep(); lost saying so on ENOMEM. */
static void keep_copy(const unsigned char *saved, size_t len,
		      void (*keep)(unsigned char *image, size_t len),
		      const char *lost)
{
	unsigned char *image;

	if (!len)
		return;
	image = malloc(len);
	if (image)
		memcpy(image, saved, len);
	else
		error("%s: %s", plugin_type, lost);
	keep(image, len);
}

/* The unit is usable: resume from it, unless another plugin ran since. */
static void resume(const struct found *f, time_t *ran, time_t *reset)
{
	const struct ts_usage_state *u = &f->u;
	char a[32], b[32];

	/* clang-format off */
	if (f->ust.used_prev)
		error("%s: %s; using %s.prev, saved at %s (last decay %s): usage charged by jobs that ended after that is lost; running jobs are charged again from the last decay",
		      plugin_type, f->ust.problem, f->unit_path,
		      utc((time_t)u->saved_at, a, sizeof(a)),
		      utc((time_t)u->last_ran, b, sizeof(b)));
	/* clang-format on */
	/* job keys, not usage: restored whichever usage is resumed from */
	cap_hold_restore(u, f->unit_path, f->ust.used_prev ? ".prev" : "");
	/* clang-format off */
	note_decay_record(f->drc, &f->dst, f->derr.msg);
	/* clang-format off */
	keep_copy(u->windows, u->windows_len, usage_windows_keep_image,
		  "usage windows: out of memory; they start from RawUsage");
	keep_copy(u->cred, u->cred_len, usage_windows_keep_cred_image,
		  "usage per credential: out of memory; it starts empty");
	/* clang-format on */
	if (f->drc == TS_OK && f->d.origin == TS_DECAY_RECORD_FOREIGN &&
	    f->d.last_ran > u->last_ran) {
		info("%s: %s (last decay %s) is newer than %s (%s): another priority plugin ran since; its decay time and slurmctld's usage are used, not the usage treeshare saved",
		     plugin_type, f->decay_path,
		     utc((time_t)f->d.last_ran, a, sizeof(a)), f->unit_path,
		     utc((time_t)u->last_ran, b, sizeof(b)));
		*ran = (time_t)f->d.last_ran;
		*reset = (time_t)f->d.last_reset;
		return;
	}
	/* the unit's time is used either way; say why the file lags */
	if (f->drc == TS_OK && f->d.last_ran < u->last_ran && f->dst.used_prev)
		log_flag(PRIO,
			 "%s: %s.old is behind %s: it was read because %s",
			 plugin_type, f->decay_path, f->unit_path,
			 f->dst.problem);
	else if (f->drc == TS_OK && f->d.last_ran < u->last_ran)
		log_flag(
			PRIO,
			"%s: %s is behind %s: a stop between the commit and the write of %s, or that write failed (logged then)",
			plugin_type, f->decay_path, f->unit_path,
			f->decay_path);
	/* clang-format on */
	/* name the copy read: .prev when the current one was refused */
	restore_usage(u, f->unit_path, f->ust.used_prev ? ".prev" : "");
	consumed_usage_restore((time_t)u->consumed_since);
	*ran = (time_t)u->last_ran;
	*reset = (time_t)u->last_reset;
}

/*
 * No unit, and priority_last_decay_ran unusable but its .old good.  The
 * .old copy is older than the current one, and slurmctld's assoc_usage
 * (saved at the stop, and having no decay time of its own) may hold
 * charges up to the current one's time: charging running jobs from .old
 * would count that interval twice, and nothing tells whether it does.
 * So refuse, as with both copies bad; with -i, charge from the first
 * cycle on: the interval is lost, never counted twice.  The reset time
 * is .old's: a reset since then at most happens again.
 */
static int start_from_old_record(const struct found *f, time_t *ran,
				 time_t *reset)
{
	char a[32];
	char *why;

	utc((time_t)f->d.last_ran, a, sizeof(a));
	/* clang-format off */
	why = xstrdup_printf("%s; %s.old (last decay %s) is an older copy, and without %s or its .prev nothing tells whether slurmctld's assoc_usage already holds charges after it: charging from it could count usage twice",
			     f->dst.problem, f->decay_path, a, f->unit_path);
	if (!ignore_state_errors) {
		refuse("the last decay time", why,
		       "slurmctld -i starts anyway: running jobs are charged from its first cycle on, and the usage since the last cycle is lost");
		xfree(why);
		return -1;
	}
	error("%s: the last decay time is unusable: %s; starting anyway (-i): running jobs are charged from the first cycle on, the usage since the last cycle is lost",
	      plugin_type, why);
	/* clang-format on */
	xfree(why);
	*ran = 0;
	*reset = (time_t)f->d.last_reset;
	return 0;
}

/* No unit (a first start, an upgrade, or -i): the decay record alone. */
static int start_without_unit(const struct found *f, time_t *ran, time_t *reset)
{
	char a[32], b[32];

	/* clang-format off */
	if (f->drc == TS_ENOENT) {
		info("%s: no %s and no %s: first start, no usage interval to recover",
		     plugin_type, f->unit_path, f->decay_path);
		return 0;
	}
	if (f->drc != TS_OK) {
		if (!ignore_state_errors) {
			refuse("the last decay time", f->derr.msg,
			       "slurmctld -i starts anyway and loses the usage since the last cycle");
			return -1;
		}
		error("%s: the last decay time is unusable: %s; starting anyway (-i): the usage since the last cycle is lost",
		      plugin_type, f->derr.msg);
		return 0;
	}
	if (f->dst.used_prev)
		return start_from_old_record(f, ran, reset);
	info("%s: %s read once in %s format (last decay %s, last reset %s) with slurmctld's usage; from now on %s holds them",
	     plugin_type, f->decay_path,
	     f->d.origin == TS_DECAY_RECORD_FOREIGN ? "priority/multifactor's 16-byte" : "treeshare's",
	     utc((time_t)f->d.last_ran, a, sizeof(a)),
	     utc((time_t)f->d.last_reset, b, sizeof(b)), TS_USAGE_STATE_FILE);
	/* clang-format on */
	*ran = (time_t)f->d.last_ran;
	*reset = (time_t)f->d.last_reset;
	return 0;
}

/*
 * The operator releases (exempt job keys) a refused treeshare_state held,
 * read past its defect from the newest copy whose layout still tells:
 * "2", "no", or "an unknown number of", for the -i line.
 */
static char *lost_releases(const char *unit)
{
	static const char *const suffix[] = { "", ".prev" };
	struct ts_error err = TS_ERROR_INIT;
	uint64_t held, exempt;
	size_t k, len;
	char *file, *buf;
	int known = 0;

	for (k = 0; k < 2 && !known; k++) {
		file = xstrdup_printf("%s%s", unit, suffix[k]);
		if (!ts_whole_file_read(file, TS_USAGE_STATE_MAX_BYTES, &buf,
					&len, &err)) {
			known = ts_usage_state_peek_keys(buf, len, &held,
							 &exempt);
			free(buf);
		}
		ts_error_clear(&err);
		xfree(file);
	}
	if (!known)
		return xstrdup("an unknown number of");
	if (!exempt)
		return xstrdup("no");
	return xstrdup_printf("%" PRIu64, exempt);
}

int checkpoint_recover(const char *dir, time_t now, time_t *ran, time_t *reset)
{
	struct found f = { .uerr = TS_ERROR_INIT, .derr = TS_ERROR_INIT };
	char *unit, *decay;
	int rc = 0;

	*ran = 0;
	*reset = 0;
	if (!dir || !strcmp(dir, "/dev/null")) {
		/* clang-format off */
		error("%s: StateSaveLocation is %s: usage and the decay time are neither restored nor saved",
		      plugin_type, dir ? dir : "unset");
		/* clang-format on */
		return 0;
	}
	unit = xstrdup_printf("%s/%s", dir, TS_USAGE_STATE_FILE);
	decay = xstrdup_printf("%s/priority_last_decay_ran", dir);
	f.unit_path = unit;
	f.decay_path = decay;
	state_files_lock();
	f.urc = ts_usage_state_load(unit, (int64_t)now, &f.u, &f.ust, &f.uerr);
	f.drc = ts_decay_record_load(decay, (int64_t)now, &f.d, &f.dst,
				     &f.derr);
	state_files_unlock();

	if (f.urc == TS_OK) {
		resume(&f, ran, reset);
	} else if (f.urc == TS_ENOENT) {
		rc = migrate_windows_file(dir);
		if (!rc)
			rc = start_without_unit(&f, ran, reset);
	} else if (f.urc == TS_ENOMEM) {
		error("%s: %s", plugin_type, f.uerr.msg);
		rc = -1;
	} else if (!ignore_state_errors) {
		refuse(TS_USAGE_STATE_FILE, f.uerr.msg,
		       "slurmctld -i keeps them as .bad and starts from slurmctld's own usage and priority_last_decay_ran");
		rc = -1;
	} else {
		char *lost = lost_releases(unit);

		/* clang-format off */
		error("%s: %s unusable: %s; starting anyway (-i) from slurmctld's own usage and %s: usage since slurmctld last saved it may be lost, the usage windows start afresh, and %s operator releases from fscap are lost (those jobs are cap-held again while over a cap)",
		      plugin_type, TS_USAGE_STATE_FILE, f.uerr.msg, decay, lost);
		/* clang-format on */
		xfree(lost);
		state_files_lock();
		set_aside(dir, TS_USAGE_STATE_FILE);
		set_aside(dir, TS_USAGE_STATE_FILE ".prev");
		state_files_unlock();
		rc = start_without_unit(&f, ran, reset);
	}
	if (!rc) {
		slurm_mutex_lock(&checkpoint_mutex);
		xfree(state_dir);
		state_dir = xstrdup(dir);
		last_saved = f.urc == TS_OK ? (time_t)f.u.saved_at : 0;
		slurm_mutex_unlock(&checkpoint_mutex);
	} else {
		usage_windows_keep_image(NULL, 0);
		usage_windows_keep_cred_image(NULL, 0);
	}
	ts_usage_state_free(&f.u);
	xfree(unit);
	xfree(decay);
	return rc;
}
