/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_names.c - online names of accounts, QOS and partitions for the
 * usage per credential (see cred_names.h).
 */
#include "config.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

#include "plugins/slurm_compat.h"

#include "cred_names.h"

struct name_entry {
	uint32_t id;
	char *name;
};

/* Per type: entries sorted by id. */
struct cred_names {
	struct name_entry *e[TS_CRED_N];
	size_t n[TS_CRED_N], cap[TS_CRED_N];
};

static int add(struct cred_names *n, enum ts_cred c, uint32_t id,
	       const char *name)
{
	struct name_entry *grown;

	if (!name)
		return 0;
	if (n->n[c] == n->cap[c]) {
		size_t cap = n->cap[c] ? 2 * n->cap[c] : 16;

		if (!(grown = realloc(n->e[c], cap * sizeof(*grown))))
			return -1;
		n->e[c] = grown;
		n->cap[c] = cap;
	}
	if (!(n->e[c][n->n[c]].name = strdup(name)))
		return -1;
	n->e[c][n->n[c]++].id = id;
	return 0;
}

static int name_by_id(const void *a, const void *b)
{
	const struct name_entry *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Accounts: the associations without a user, of this cluster. */
static int load_accounts(struct cred_names *n, void *db, const char *cluster)
{
	slurmdb_assoc_cond_t cond;
	slurmdb_assoc_rec_t *a;
	list_itr_t *it;
	list_t *recs;
	int rc = 0;

	memset(&cond, 0, sizeof(cond));
	if (!(recs = slurmdb_associations_get(db, &cond)))
		return 1;
	it = slurm_list_iterator_create(recs);
	while (!rc && (a = slurm_list_next(it)))
		if (!a->user && a->acct &&
		    (!a->cluster || !cluster || !strcmp(a->cluster, cluster)))
			rc = add(n, TS_CRED_ACCOUNT, a->id, a->acct);
	slurm_list_iterator_destroy(it);
	slurm_list_destroy(recs);
	return rc;
}

static int load_qos(struct cred_names *n, void *db)
{
	slurmdb_qos_cond_t cond;
	slurmdb_qos_rec_t *q;
	list_itr_t *it;
	list_t *recs;
	int rc = 0;

	memset(&cond, 0, sizeof(cond));
	if (!(recs = slurmdb_qos_get(db, &cond)))
		return 1;
	it = slurm_list_iterator_create(recs);
	while (!rc && (q = slurm_list_next(it)))
		rc = add(n, TS_CRED_QOS, q->id, q->name);
	slurm_list_iterator_destroy(it);
	slurm_list_destroy(recs);
	return rc;
}

static int load_partitions(struct cred_names *n)
{
	partition_info_msg_t *msg = NULL;
	uint32_t i;
	int rc = 0;

	if (slurm_load_partitions((time_t)0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return 1;
	for (i = 0; !rc && i < msg->record_count; i++)
		rc = add(n, TS_CRED_CLASS,
			 ts_cred_class_id(msg->partition_array[i].name),
			 msg->partition_array[i].name);
	slurm_free_partition_info_msg(msg);
	return rc;
}

struct cred_names *cred_names_load(const char *cluster, char *note, size_t len)
{
	struct cred_names *n = calloc(1, sizeof(*n));
	void *db;
	int rc = 0, c, miss_db = 0, miss_parts;

	if (len)
		note[0] = '\0';
	if (!n)
		return NULL;
	if ((db = slurmdb_connection_get(NULL))) {
		rc = load_accounts(n, db, cluster);
		if (rc >= 0) {
			miss_db = rc;
			rc = load_qos(n, db);
			miss_db |= rc > 0;
		}
		slurmdb_connection_close(&db);
	} else {
		miss_db = 1;
	}
	if (rc >= 0) {
		miss_parts = load_partitions(n);
		rc = miss_parts < 0 ? -1 : 0;
		if (miss_db || miss_parts)
			snprintf(note, len, "%s%s%s unnamed (not answered)",
				 miss_db ? "accounts and QOS" : "",
				 miss_db && miss_parts ? ", " : "",
				 miss_parts ? "partitions" : "");
	}
	if (rc < 0) {
		cred_names_free(n);
		return NULL;
	}
	for (c = 0; c < TS_CRED_N; c++)
		if (n->n[c])
			qsort(n->e[c], n->n[c], sizeof(*n->e[c]), name_by_id);
	return n;
}

const char *cred_names_get(const struct cred_names *n, enum ts_cred c,
			   uint32_t id)
{
	struct name_entry key = { .id = id }, *e;

	if (!n || (unsigned)c >= TS_CRED_N || !n->n[c])
		return NULL;
	e = bsearch(&key, n->e[c], n->n[c], sizeof(key), name_by_id);
	return e ? e->name : NULL;
}

uint32_t cred_names_id(const struct cred_names *n, enum ts_cred c,
		       const char *name)
{
	size_t i;

	if (!n || !name || (unsigned)c >= TS_CRED_N)
		return TS_CRED_ID_NONE;
	for (i = 0; i < n->n[c]; i++)
		if (!strcmp(n->e[c][i].name, name))
			return n->e[c][i].id;
	return TS_CRED_ID_NONE;
}

void cred_names_free(struct cred_names *n)
{
	size_t i;
	int c;

	if (!n)
		return;
	for (c = 0; c < TS_CRED_N; c++) {
		for (i = 0; i < n->n[c]; i++)
			free(n->e[c][i].name);
		free(n->e[c]);
	}
	free(n);
}

const char *cred_names_text(const struct cred_names *n, enum ts_cred c,
			    uint32_t id, char *buf, size_t len)
{
	const char *known = cred_names_get(n, c, id);
	struct passwd *pw;
	struct group *gr;

	if (id == TS_CRED_ID_NONE) {
		snprintf(buf, len, "[NONE]");
	} else if (known) {
		snprintf(buf, len, "%s", known);
	} else if (c == TS_CRED_USER && (pw = getpwuid((uid_t)id))) {
		snprintf(buf, len, "%s", pw->pw_name);
	} else if (c == TS_CRED_GROUP && (gr = getgrgid((gid_t)id))) {
		snprintf(buf, len, "%s", gr->gr_name);
	} else if (c == TS_CRED_CLASS) {
		snprintf(buf, len, "#%08x", (unsigned)id); /* a name's hash */
	} else {
		snprintf(buf, len, "%u", (unsigned)id);
	}
	return buf;
}
