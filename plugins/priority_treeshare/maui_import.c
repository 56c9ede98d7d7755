// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maui_import.c - fs_import=DIR: a Maui fair-share history as the usage
 * per credential (maui_import.h).
 */
#include "maui_import.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "src/credential.h"
#include "src/file_trust.h"
#include "src/maui_fs_dir.h"
#include "src/maui_fs_history.h"

/* A Slurm table's names (accounts, QOS), sorted for lookups. */
struct named {
	char *name;
	uint32_t id;
};

struct slurm_names {
	struct named *v[TS_CRED_N]; /* only ACCOUNT and QOS used */
	size_t n[TS_CRED_N];
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
		      ((const struct named *)b)->name);
}

static int note_account(void *x, void *arg)
{
	slurmdb_assoc_rec_t *a = x;
	struct slurm_names *sn = arg;
	struct named *e;

	if (a->user || !a->acct)
		return 0;
	e = &sn->v[TS_CRED_ACCOUNT][sn->n[TS_CRED_ACCOUNT]++];
	e->name = xstrdup(a->acct);
	e->id = a->id;
	return 0;
}

static int note_qos(void *x, void *arg)
{
	slurmdb_qos_rec_t *q = x;
	struct slurm_names *sn = arg;
	struct named *e;

	if (!q->name)
		return 0;
	e = &sn->v[TS_CRED_QOS][sn->n[TS_CRED_QOS]++];
	e->name = xstrdup(q->name);
	e->id = q->id;
	return 0;
}

/* Every account's and QOS's name and id, copied under the read locks. */
static void read_slurm_names(struct slurm_names *sn)
{
	assoc_mgr_lock_t read = { .assoc = READ_LOCK, .qos = READ_LOCK };

	memset(sn, 0, sizeof(*sn));
	assoc_mgr_lock(&read);
	if (assoc_mgr_assoc_list) {
		sn->v[TS_CRED_ACCOUNT] =
			xcalloc(list_count(assoc_mgr_assoc_list) + 1,
				sizeof(struct named));
		(void)list_for_each_ro(assoc_mgr_assoc_list, note_account, sn);
	}
	if (assoc_mgr_qos_list) {
		sn->v[TS_CRED_QOS] = xcalloc(list_count(assoc_mgr_qos_list) + 1,
					     sizeof(struct named));
		(void)list_for_each_ro(assoc_mgr_qos_list, note_qos, sn);
	}
	assoc_mgr_unlock(&read);
	qsort(sn->v[TS_CRED_ACCOUNT], sn->n[TS_CRED_ACCOUNT],
	      sizeof(struct named), named_cmp);
	qsort(sn->v[TS_CRED_QOS], sn->n[TS_CRED_QOS], sizeof(struct named),
	      named_cmp);
}

static void free_slurm_names(struct slurm_names *sn)
{
	int c;
	size_t i;

	for (c = 0; c < TS_CRED_N; c++) {
		for (i = 0; i < sn->n[c]; i++)
			xfree(sn->v[c][i].name);
		xfree(sn->v[c]);
	}
}

/* ts_maui_fs_id_of: a history's names as the targets file's resolve. */
static uint32_t history_id(enum ts_cred type, const char *name, void *arg)
{
	struct slurm_names *sn = arg;
	struct named key = { .name = (char *)name }, *found;

	if (type != TS_CRED_ACCOUNT && type != TS_CRED_QOS)
		return ts_cred_system_id(type, name);
	if (!sn->n[type])
		return TS_CRED_ID_NONE;
	found = bsearch(&key, sn->v[type], sn->n[type], sizeof(key), named_cmp);
	return found ? found->id : TS_CRED_ID_NONE;
}

int maui_import_load(const struct priority_conf *c, time_t now,
		     struct ts_cred_usage *cu, char **msg)
{
	const struct ts_settings *s = &c->settings;
	struct ts_error err = TS_ERROR_INIT;
	struct ts_maui_fs_import_report rep;
	struct ts_maui_fs_dir dir;
	struct slurm_names sn;
	struct ts_trust trust = {
		.slurm_uid = (unsigned)slurm_conf.slurm_user_id,
		.slurm_user = slurm_conf.slurm_user_name
				      ? slurm_conf.slurm_user_name
				      : "root",
	};
	int rc;

	if (ts_maui_fs_dir_read(s->fs_import, &trust, &dir, &err)) {
		*msg = xstrdup(err.msg);
		return -1;
	}
	if (ts_cred_usage_init(cu, s->usage_window, s->usage_depth,
			       s->usage_decay, now, &err)) {
		ts_maui_fs_dir_free(&dir);
		*msg = xstrdup_printf("fs_import %s: %s", s->fs_import,
				      err.msg);
		return -1;
	}
	read_slurm_names(&sn);
	rc = ts_maui_fs_import(cu, dir.win, dir.n, history_id, &sn, now, &rep,
			       &err);
	free_slurm_names(&sn);
	ts_maui_fs_dir_free(&dir);
	if (rc) {
		ts_cred_usage_free(cu);
		*msg = xstrdup_printf("fs_import: %s", err.msg);
		return -1;
	}
	/* clang-format off */
	info("%s: fs_import %s: window files: %zu imported, %zu older than usage_depth left out; lines: %zu; TOTAL %.0Lf; each file in the window holding its start, at most %" PRId64 " s after it",
	     plugin_type, s->fs_import, rep.files, rep.rolled_out, rep.entries,
	     rep.total, rep.shift);
	/* clang-format on */
	return 0;
}
