/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clusters.c - -M/--cluster through Debian's libslurm (clusters.h): the
 * cluster records come from slurmdbd with slurmdb_get_info_cluster(), as
 * sshare's do, and selecting one sets libslurm's working_cluster_rec,
 * which slurm_load_ctl_conf() and shares_rpc.c's shares request follow.
 * The list types' names differ by release (plugins/slurm_compat.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <slurm/slurm.h>
#include <slurm/slurmdb.h>

#include "plugins/slurm_compat.h"

#include "clusters.h"
#include "shares_rpc.h"

struct cluster_list {
	list_t *recs; /* slurmdb_cluster_rec_t, slurmdbd's order */
	slurmdb_cluster_rec_t **v;
	size_t n;
};

/* Each name of names that no record has: one line on stderr. */
static void report_unknown(const char *names, list_t *recs)
{
	char *copy = strdup(names), *name, *save = NULL, *p;

	if (!copy)
		return;
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		list_itr_t *it = slurm_list_iterator_create(recs);
		slurmdb_cluster_rec_t *r;
		int found = 0;

		for (p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		while (!found && (r = slurm_list_next(it)))
			found = r->name && !strcasecmp(r->name, name);
		slurm_list_iterator_destroy(it);
		if (!found)
			/* clang-format off */
			fprintf(stderr,
				"sshare-ext: error: no cluster '%s' in slurmdbd, or its slurmctld never registered (sacctmgr list clusters)\n",
				name);
		/* clang-format on */
	}
	free(copy);
}

int clusters_get(const char *names, int verbose, struct cluster_list **out,
		 char *msg, size_t len)
{
	struct cluster_list *l;
	slurmdb_cluster_rec_t *r;
	list_itr_t *it;
	char *arg;
	size_t i = 0;

	*out = NULL;
	if (shares_rpc_setup(verbose, msg, len))
		return -1;
	if (!(l = calloc(1, sizeof(*l))) || !(arg = strdup(names))) {
		free(l);
		snprintf(msg, len, "out of memory");
		return -1;
	}
	l->recs = slurmdb_get_info_cluster(arg);
	free(arg);
	if (!l->recs) {
		/* clang-format off */
		snprintf(msg, len,
			 "-M %s: no such cluster can be reached now (slurmdbd unreachable, an unknown name, or no slurmctld registered; sacctmgr list clusters)",
			 names);
		/* clang-format on */
		free(l);
		return -1;
	}
	if (strcasecmp(names, "all"))
		report_unknown(names, l->recs);
	l->n = (size_t)slurm_list_count(l->recs);
	if (!(l->v = calloc(l->n ? l->n : 1, sizeof(*l->v)))) {
		clusters_free(l);
		snprintf(msg, len, "out of memory");
		return -1;
	}
	it = slurm_list_iterator_create(l->recs);
	while ((r = slurm_list_next(it)) && i < l->n)
		l->v[i++] = r;
	slurm_list_iterator_destroy(it);
	*out = l;
	return 0;
}

size_t clusters_count(const struct cluster_list *l)
{
	return l->n;
}

const char *clusters_use(struct cluster_list *l, size_t i)
{
	working_cluster_rec = l->v[i];
	return l->v[i]->name;
}

void clusters_free(struct cluster_list *l)
{
	if (!l)
		return;
	working_cluster_rec = NULL;
	if (l->recs)
		slurm_list_destroy(l->recs);
	free(l->v);
	free(l);
}
