/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_table.c - Maui's fair share per credential in slurmctld (see
 * cred_table.h).  The table and the arithmetic are src/'s; this file
 * finds the ids and the locks.
 */
#include "cred_table.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "src/cred_shares.h"
#include "src/targets.h"

#include "credential_ids.h"
#include "usage_windows.h"

/* A name of the targets file and the id it resolved to. */
struct name_id {
	enum ts_cred type;
	const char *name; /* points into the targets it came from */
	uint32_t id;
};

/*
 * The names last resolved (the cycle thread's alone), for the targets
 * they point into, sorted by type then name.
 */
static struct name_id *names;
static size_t n_names, names_cap;
static const struct ts_targets *names_of;

/* Guarded by assoc_mgr's association lock (cred_table.h). */
static struct ts_cred_shares table = TS_CRED_SHARES_INIT;

/*
 * The partitions' class ids as of the last update, so that a job's class
 * is not a hash of its partition's name each time; valid while
 * slurmctld's last_part_update is stamp (a record freed since could have
 * a new one at its address).  Guarded like the table.
 */
struct part_class {
	const part_record_t *part;
	uint32_t id;
	const struct ts_cred_terms *terms; /* the table's for id */
};
static struct part_class *parts;
static size_t n_parts;
/*
 * The clock the partitions are valid under and its value then: while
 * none are kept, a clock that never shows the stamp.
 */
static const time_t parts_never;
static const time_t *parts_clock = &parts_never;
static time_t parts_stamp = -1;
/* the conf generation the table was last weighed for; 0: none */
static unsigned weighed_generation;

/*
 * A factor made for an association's jobs with one class term (that of
 * their partition: every partition without a class target has the same),
 * group and QOS: its next such job has the same until the next update,
 * and most jobs of an association share them.
 */
struct factor_memo {
	const struct ts_cred_terms *class;
	uint64_t gid_qos; /* memo_key() */
	double factor;
};

/*
 * Per user association, by its id (below n_assocs), kept at each update
 * (epoch is memo_epoch then; an older entry counts for nothing, so that
 * no update clears the array): the table's terms of its user (for its
 * uid) and of its account, and its jobs' last MEMO_WAYS factors (so
 * that jobs in two classes and two QOS find each).  The factors are
 * written only by a caller that holds slurmctld's job write lock and
 * read under its read lock at least, so that no reader sees one half
 * written; the rest is guarded like the table.
 */
#define MEMO_WAYS 4
struct assoc_kept {
	uint32_t uid;
	uint32_t epoch;
	const struct ts_cred_terms *user;
	const struct ts_cred_terms *account;
	struct factor_memo way[MEMO_WAYS];
	unsigned used; /* ways holding a factor */
	unsigned next; /* the way the next factor replaces */
};
static struct assoc_kept *assocs;
static size_t n_assocs, assocs_cap;
static uint32_t memo_epoch;

/* table.n_capped as published, for lock-free fast paths */
static size_t n_capped;

static int name_cmp(const void *a, const void *b)
{
	const struct name_id *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return strcmp(x->name, y->name);
}

static struct name_id *name_find(enum ts_cred type, const char *name)
{
	struct name_id key = { .type = type, .name = name };

	if (!n_names)
		return NULL;
	return bsearch(&key, names, n_names, sizeof(*names), name_cmp);
}

struct collect {
	enum ts_cred type;
	bool failed;
};

static void collect_name(const char *name, void *arg)
{
	struct collect *co = arg;
	struct name_id *grown;

	if (co->failed)
		return;
	if (n_names == names_cap) {
		size_t cap = names_cap ? 2 * names_cap : 16;

		grown = realloc(names, cap * sizeof(*names));
		if (!grown) {
			co->failed = true;
			return;
		}
		names = grown;
		names_cap = cap;
	}
	names[n_names++] = (struct name_id){ .type = co->type,
					     .name = name,
					     .id = TS_CRED_ID_NONE };
}

/* ts_targets_cred_fn: the name of an entry with a target. */
static void collect_target(const char *name, const struct ts_target *target,
			   void *arg)
{
	(void)target;
	collect_name(name, arg);
}

/* ts_targets_fscap_fn: the name of an entry with a feasibility cap. */
static void collect_fscap(const char *name, const struct ts_fscap *fscap,
			  void *arg)
{
	(void)fscap;
	collect_name(name, arg);
}

/* The names sorted, each once (an entry may have a target and a cap). */
static void sort_names(void)
{
	size_t i, kept = 0;

	qsort(names, n_names, sizeof(*names), name_cmp);
	for (i = 0; i < n_names; i++)
		if (!kept || name_cmp(&names[kept - 1], &names[i]))
			names[kept++] = names[i];
	n_names = kept;
}

static int resolve_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *qos = x;
	struct name_id *n;

	(void)arg;
	if (qos->name && (n = name_find(TS_CRED_QOS, qos->name)))
		n->id = qos->id;
	return 0;
}

/* An account's own association (no user): the id its usage is kept by. */
static int resolve_account(void *x, void *arg)
{
	slurmdb_assoc_rec_t *a = x;
	struct name_id *n;

	(void)arg;
	if (!a->user && a->acct && (n = name_find(TS_CRED_ACCOUNT, a->acct)))
		n->id = a->id;
	return 0;
}

/*
 * The ids of every name c's targets file gives a credential target.
 * Takes assoc_mgr's read locks; the caller holds none.
 */
static void resolve_names(const struct priority_conf *c)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };
	struct collect co = { .failed = false };
	size_t i;

	n_names = 0;
	names_of = NULL;
	if (!c->cred_usage || !c->targets)
		return;
	for (co.type = 0; co.type < TS_CRED_N; co.type++) {
		(void)ts_targets_cred_each(c->targets, co.type, collect_target,
					   &co);
		(void)ts_targets_cred_each_fscap(c->targets, co.type,
						 collect_fscap, &co);
	}
	if (co.failed) {
		error("%s: fair share per credential: out of memory resolving %zu names",
		      plugin_type, n_names);
		n_names = 0;
		return;
	}
	sort_names();
	for (i = 0; i < n_names; i++)
		names[i].id = ts_cred_system_id(names[i].type, names[i].name);
	assoc_mgr_lock(&read);
	if (assoc_mgr_assoc_list)
		(void)list_for_each_ro(assoc_mgr_assoc_list, resolve_account,
				       NULL);
	if (assoc_mgr_qos_list)
		(void)list_for_each_ro(assoc_mgr_qos_list, resolve_qos, NULL);
	assoc_mgr_unlock(&read);
	names_of = c->targets;
}

/* ts_cred_id_of for the table: the names resolved above. */
static uint32_t resolved_id(enum ts_cred type, const char *name, void *arg)
{
	const struct name_id *n;

	(void)arg;
	n = name_find(type, name);
	return n ? n->id : TS_CRED_ID_NONE;
}

/* The table from the usage now.  Caller holds the association write lock. */
static void take_table(const struct priority_conf *c)
{
	const struct ts_targets *tg = c->targets;

	if (!c->cred_usage) {
		ts_cred_shares_free(&table);
		weighed_generation = 0;
		__atomic_store_n(&n_capped, 0, __ATOMIC_RELAXED);
		return;
	}
	table.entries_only = true; /* no job reads the other rows */
	if (usage_windows_cred_shares(
		    &table, tg, names_of == tg ? resolved_id : NULL, NULL))
		return;
	ts_cred_shares_weigh(&table, c->cred_weight, c->fs_policy);
	weighed_generation = c->generation;
	__atomic_store_n(&n_capped, table.n_capped, __ATOMIC_RELAXED);
	/* clang-format off */
	log_flag(PRIO,
		 "%s: fair share per credential: %zu users, %zu groups, %zu accounts, %zu qos, %zu classes with a target or fscap; %zu target names not found; %zu over their fscap",
		 plugin_type, table.n[TS_CRED_USER], table.n[TS_CRED_GROUP],
		 table.n[TS_CRED_ACCOUNT], table.n[TS_CRED_QOS],
		 table.n[TS_CRED_CLASS], table.unresolved, table.n_capped);
	/* clang-format on */
}

/* A growing array of partitions' class ids (list_for_each_ro()). */
struct part_walk {
	struct part_class *v;
	size_t n, cap;
	bool failed;
};

static int note_part(void *x, void *arg)
{
	const part_record_t *part = x;
	struct part_walk *w = arg;
	struct part_class *grown;

	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		if (!(grown = realloc(w->v, w->cap * sizeof(*grown)))) {
			w->failed = true;
			return -1;
		}
		w->v = grown;
	}
	w->v[w->n].part = part;
	w->v[w->n++].id = ts_cred_class_id(part->name);
	return 0;
}

/* Every partition's class id, under the partition read lock. */
static bool walk_parts(struct part_walk *w, time_t *stamp)
{
	slurmctld_lock_t part_read = { .part = READ_LOCK };

	if (!&part_list || !&last_part_update || !ctld_present())
		return false;
	lock_slurmctld(part_read);
	*stamp = last_part_update;
	if (part_list)
		(void)list_for_each_ro(part_list, note_part, w);
	unlock_slurmctld(part_read);
	return !w->failed;
}

/*
 * Association ids kept: below 4 an association + ASSOC_IDS_SLACK, so that
 * a sparse id space keeps the array small; a job of a higher id takes
 * the slower path.
 */
#define ASSOC_IDS_SLACK 4096

/* Room for entries below id + 1 (at most limit): false if no memory. */
static bool assocs_room(uint32_t id, size_t limit)
{
	size_t n = assocs_cap ? 2 * assocs_cap : 1024;
	struct assoc_kept *grown;

	if (n < (size_t)id + 1)
		n = (size_t)id + 1;
	if (n > limit)
		n = limit;
	if (!(grown = realloc(assocs, n * sizeof(*grown))))
		return false;
	/* epoch 0 is never memo_epoch: the new entries count for nothing */
	memset(grown + assocs_cap, 0, (n - assocs_cap) * sizeof(*grown));
	assocs = grown;
	assocs_cap = n;
	return true;
}

/* A user association's entry (list_for_each_ro(); arg: the id limit). */
static int keep_assoc_terms(void *x, void *arg)
{
	const slurmdb_assoc_rec_t *a = x;
	const size_t *limit = arg;
	struct assoc_kept *e;

	if (!a->user || a->id >= *limit)
		return 0;
	if (a->id >= assocs_cap && !assocs_room(a->id, *limit))
		return 0; /* its jobs take the slower path */
	e = &assocs[a->id];
	e->uid = a->uid;
	e->epoch = memo_epoch;
	e->user = ts_cred_shares_terms(&table, TS_CRED_USER, a->uid);
	e->account = ts_cred_shares_terms(&table, TS_CRED_ACCOUNT,
					  cred_account_id(a));
	e->used = e->next = 0;
	if (a->id >= n_assocs)
		n_assocs = (size_t)a->id + 1;
	return 0;
}

/*
 * The table's terms of every user association and partition, as
 * cred_table_job_factor() takes them, in one walk of the associations.
 * An entry not written by this update has an older epoch.  Caller
 * holds the association write lock, after take_table().
 */
static void keep_terms(void)
{
	size_t i, limit;

	for (i = 0; i < n_parts; i++)
		parts[i].terms = ts_cred_shares_terms(&table, TS_CRED_CLASS,
						      parts[i].id);
	n_assocs = 0;
	if (!++memo_epoch) { /* wrapped: every entry's epoch is older */
		memo_epoch = 1;
		if (assocs)
			memset(assocs, 0, assocs_cap * sizeof(*assocs));
	}
	if (!table.weighed_types || !assoc_mgr_assoc_list)
		return;
	limit = 4 * (size_t)list_count(assoc_mgr_assoc_list) + ASSOC_IDS_SLACK;
	(void)list_for_each_ro(assoc_mgr_assoc_list, keep_assoc_terms, &limit);
}

void cred_table_update(const struct priority_conf *c)
{
	assoc_mgr_lock_t write = { .assoc = WRITE_LOCK };
	struct part_walk w = { 0 };
	time_t stamp = 0;
	bool walked = c->cred_usage && walk_parts(&w, &stamp);

	resolve_names(c);
	assoc_mgr_lock(&write);
	take_table(c);
	free(parts);
	parts = walked ? w.v : NULL;
	n_parts = walked ? w.n : 0;
	parts_clock = walked ? &last_part_update : &parts_never;
	parts_stamp = walked ? stamp : -1;
	keep_terms();
	assoc_mgr_unlock(&write);
	if (!walked)
		free(w.v);
}

/* The partition records are those of the last update (none freed). */
static bool parts_current(void)
{
	return *parts_clock == parts_stamp;
}

/* part's entry as of the last update, or NULL (its record may be new). */
static const struct part_class *part_kept(const part_record_t *part)
{
	size_t i;

	if (parts_current())
		for (i = 0; i < n_parts; i++)
			if (parts[i].part == part)
				return &parts[i];
	return NULL;
}

/* The class id of part: from the last update's, else its name's hash. */
static uint32_t class_of(const part_record_t *part)
{
	const struct part_class *pc = part_kept(part);

	return pc ? pc->id : ts_cred_class_id(part->name);
}

/* job's credential ids in part (NULL: as credential_ids.h) into *ids. */
static void job_ids(const job_record_t *job, const part_record_t *part,
		    struct ts_cred_ids *ids)
{
	if (!part)
		part = job->part_ptr;
	if (part)
		cred_ids_of_job_class(job, class_of(part), ids);
	else
		cred_ids_of_job(job, ids);
}

void cred_table_job_ids(const void *job, struct ts_cred_ids *ids)
{
	job_ids(job, NULL, ids);
}

void cred_table_job(const struct priority_conf *c, const job_record_t *job,
		    const part_record_t *part, struct ts_cred_fs *out)
{
	struct ts_cred_ids ids;

	job_ids(job, part, &ids);
	ts_cred_shares_job(&table, ids.id, c->cred_weight, c->fs_weight,
			   c->fs_policy, out);
}

/*
 * The entry kept for job's association at the last update when it is
 * its user's (the job's uid is its association's), else NULL.
 */
static struct assoc_kept *assoc_kept(const job_record_t *job)
{
	const slurmdb_assoc_rec_t *a = job->assoc_ptr;
	struct assoc_kept *e;

	if (!a || a->id >= n_assocs)
		return NULL;
	e = &assocs[a->id];
	return e->epoch == memo_epoch && e->uid == job->user_id ? e : NULL;
}

/* The group and QOS of job, as one key of its association's factors. */
static uint64_t memo_key(const job_record_t *job)
{
	return (uint64_t)job->group_id << 32 | cred_qos_id(job);
}

/* The factor from job's ids: anything the last update did not keep. */
static __attribute__((noinline)) double
ids_factor(const struct priority_conf *c, const job_record_t *job,
	   const part_record_t *part)
{
	struct ts_cred_fs out;
	struct ts_cred_ids ids;

	job_ids(job, part, &ids);
	if (weighed_generation == c->generation)
		return ts_cred_shares_factor(&table, ids.id);
	ts_cred_shares_job(&table, ids.id, c->cred_weight, c->fs_weight,
			   c->fs_policy, &out);
	return out.factor;
}

/*
 * The factor of job with class terms class from the terms kept for its
 * association e.
 */
static double terms_factor(const job_record_t *job, const struct assoc_kept *e,
			   const struct ts_cred_terms *class)
{
	const struct ts_cred_terms *t[TS_CRED_N];

	t[TS_CRED_USER] = e->user;
	t[TS_CRED_GROUP] =
		ts_cred_shares_terms(&table, TS_CRED_GROUP, job->group_id);
	t[TS_CRED_ACCOUNT] = e->account;
	t[TS_CRED_QOS] =
		ts_cred_shares_terms(&table, TS_CRED_QOS, cred_qos_id(job));
	t[TS_CRED_CLASS] = class;
	return ts_cred_terms_factor(t);
}

/*
 * cred_table_job_factor() when job's association e keeps no factor for
 * class and key: from the terms kept, kept in e when keep.  Not
 * inlined, so that a factor found kept costs no register saves.
 */
static __attribute__((noinline)) double
factor_not_kept(const job_record_t *job, struct assoc_kept *e,
		const struct ts_cred_terms *class, uint64_t key, bool keep)
{
	double f = terms_factor(job, e, class);

	if (keep) {
		e->way[e->next] = (struct factor_memo){ .class = class,
							.gid_qos = key,
							.factor = f };
		e->next = (e->next + 1) % MEMO_WAYS;
		if (e->used < MEMO_WAYS)
			e->used++;
	}
	return f;
}

double cred_table_job_factor(const struct priority_conf *c,
			     const job_record_t *job, const part_record_t *part,
			     bool keep)
{
	const part_record_t *in = part ? part : job->part_ptr;
	const struct factor_memo *w;
	const struct part_class *pc;
	struct assoc_kept *e;
	uint64_t key;

	if (weighed_generation != c->generation || !in ||
	    !(e = assoc_kept(job)) || !(pc = part_kept(in)))
		return ids_factor(c, job, part);
	key = memo_key(job);
	for (w = e->way; w < e->way + e->used; w++)
		if (w->class == pc->terms && w->gid_qos == key)
			return w->factor;
	return factor_not_kept(job, e, pc->terms, key, keep);
}

const char *cred_table_cap_reason(const job_record_t *job, char *buf,
				  size_t len)
{
	const struct ts_cred_share *r;
	struct ts_cred_ids ids;
	enum ts_cred c;

	if (!table.n_capped)
		return NULL;
	cred_ids_of_job(job, &ids);
	if (!(r = ts_cred_shares_capped(&table, ids.id, &c)))
		return NULL;
	(void)ts_cred_shares_describe(r, c, buf, len);
	return buf;
}

void cred_table_uncap(void)
{
	ts_cred_shares_uncap(&table);
	__atomic_store_n(&n_capped, 0, __ATOMIC_RELAXED);
}

bool cred_table_capped(void)
{
	return __atomic_load_n(&n_capped, __ATOMIC_RELAXED) != 0;
}

void cred_table_fini(void)
{
	ts_cred_shares_free(&table);
	weighed_generation = 0;
	free(assocs);
	assocs = NULL;
	n_assocs = assocs_cap = 0;
	memo_epoch = 0;
	free(parts);
	parts = NULL;
	n_parts = 0;
	parts_clock = &parts_never;
	parts_stamp = -1;
	__atomic_store_n(&n_capped, 0, __ATOMIC_RELAXED);
	free(names);
	names = NULL;
	n_names = names_cap = 0;
	names_of = NULL;
}
