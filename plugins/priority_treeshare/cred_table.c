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
static time_t parts_stamp;
static bool parts_valid;
/* the conf generation the table was last weighed for; 0: none */
static unsigned weighed_generation;

/*
 * Per user association, by its id (below n_assocs), the table's terms of
 * its user (for its uid) and its account, kept at each update: a job's
 * factor then looks up only its group and QOS.  Guarded like the table.
 */
struct assoc_terms {
	uint32_t uid;
	const struct ts_cred_terms *user; /* NULL: none kept */
	const struct ts_cred_terms *account;
};
static struct assoc_terms *assocs;
static size_t n_assocs, assocs_cap;
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
	if (usage_windows_cred_shares(
		    &table, tg, names_of == tg ? resolved_id : NULL, NULL))
		return;
	ts_cred_shares_weigh(&table, c->cred_weight, c->fs_policy);
	weighed_generation = c->generation;
	__atomic_store_n(&n_capped, table.n_capped, __ATOMIC_RELAXED);
	/* clang-format off */
	log_flag(PRIO,
		 "%s: fair share per credential: %zu users, %zu groups, %zu accounts, %zu qos, %zu classes; %zu target names not found; %zu over their fscap",
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

static int assoc_max_id(void *x, void *arg)
{
	const slurmdb_assoc_rec_t *a = x;
	uint32_t *max = arg;

	if (a->user && a->id > max[0])
		max[0] = a->id;
	max[1]++;
	return 0;
}

static int keep_assoc_terms(void *x, void *arg)
{
	const slurmdb_assoc_rec_t *a = x;

	(void)arg;
	if (!a->user || a->id >= n_assocs)
		return 0;
	assocs[a->id] = (struct assoc_terms){
		.uid = a->uid,
		.user = ts_cred_shares_terms(&table, TS_CRED_USER, a->uid),
		.account = ts_cred_shares_terms(&table, TS_CRED_ACCOUNT,
						cred_account_id(a)),
	};
	return 0;
}

/*
 * The table's terms of every user association and partition, as
 * cred_table_job_factor() takes them.  Caller holds the association
 * write lock, after take_table().
 */
static void keep_terms(void)
{
	uint32_t max[2] = { 0, 0 }; /* the largest user id, associations */
	struct assoc_terms *grown;
	size_t i, n;

	for (i = 0; i < n_parts; i++)
		parts[i].terms = ts_cred_shares_terms(&table, TS_CRED_CLASS,
						      parts[i].id);
	n_assocs = 0;
	if (!table.weighed_types || !assoc_mgr_assoc_list)
		return;
	(void)list_for_each_ro(assoc_mgr_assoc_list, assoc_max_id, max);
	n = (size_t)max[0] + 1;
	if (n > 4 * (size_t)max[1] + ASSOC_IDS_SLACK)
		n = 4 * (size_t)max[1] + ASSOC_IDS_SLACK;
	if (n > assocs_cap) {
		if (!(grown = realloc(assocs, n * sizeof(*grown))))
			return; /* every job takes the slower path */
		assocs = grown;
		assocs_cap = n;
	}
	memset(assocs, 0, n * sizeof(*assocs));
	n_assocs = n;
	(void)list_for_each_ro(assoc_mgr_assoc_list, keep_assoc_terms, NULL);
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
	parts_stamp = stamp;
	parts_valid = walked;
	keep_terms();
	assoc_mgr_unlock(&write);
	if (!walked)
		free(w.v);
}

/* part's entry as of the last update, or NULL (its record may be new). */
static const struct part_class *part_kept(const part_record_t *part)
{
	size_t i;

	if (parts_valid && last_part_update == parts_stamp)
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

void cred_table_job(const struct priority_conf *c, const job_record_t *job,
		    const part_record_t *part, struct ts_cred_fs *out)
{
	struct ts_cred_ids ids;

	job_ids(job, part, &ids);
	ts_cred_shares_job(&table, ids.id, c->cred_weight, c->fs_weight,
			   c->fs_policy, out);
}

/*
 * job's terms in part (NULL: the job's) from those kept at the last
 * update, into t; false when one was not kept (a new association or
 * partition, a job whose uid is not its association's).
 */
static bool job_terms(const job_record_t *job, const part_record_t *part,
		      const struct ts_cred_terms *t[TS_CRED_N])
{
	const slurmdb_assoc_rec_t *a = job->assoc_ptr;
	const struct assoc_terms *at;
	const struct part_class *pc;

	if (!part)
		part = job->part_ptr;
	if (!part || !a || a->id >= n_assocs)
		return false;
	at = &assocs[a->id];
	if (!at->user || at->uid != job->user_id || !(pc = part_kept(part)))
		return false;
	t[TS_CRED_CLASS] = pc->terms;
	t[TS_CRED_USER] = at->user;
	t[TS_CRED_GROUP] =
		ts_cred_shares_terms(&table, TS_CRED_GROUP, job->group_id);
	t[TS_CRED_ACCOUNT] = at->account;
	t[TS_CRED_QOS] =
		ts_cred_shares_terms(&table, TS_CRED_QOS, cred_qos_id(job));
	return true;
}

double cred_table_job_factor(const struct priority_conf *c,
			     const job_record_t *job, const part_record_t *part)
{
	const struct ts_cred_terms *t[TS_CRED_N];
	struct ts_cred_fs out;
	struct ts_cred_ids ids;

	if (weighed_generation == c->generation) {
		if (job_terms(job, part, t))
			return ts_cred_terms_factor(t);
		job_ids(job, part, &ids);
		return ts_cred_shares_factor(&table, ids.id);
	}
	job_ids(job, part, &ids);
	ts_cred_shares_job(&table, ids.id, c->cred_weight, c->fs_weight,
			   c->fs_policy, &out);
	return out.factor;
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
	free(parts);
	parts = NULL;
	n_parts = 0;
	parts_valid = false;
	__atomic_store_n(&n_capped, 0, __ATOMIC_RELAXED);
	free(names);
	names = NULL;
	n_names = names_cap = 0;
	names_of = NULL;
}
