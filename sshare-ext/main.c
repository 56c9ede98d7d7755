/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sshare-ext - sshare with extended columns, pbsfs -g's path view, a
 * tree view, JSON, and an offline what-if mode (sshare-ext(1)).
 *
 * main() only wires the parts: options (cli.c), the rows and tree from
 * the controller (shares_rpc.c; with -M, each cluster's, clusters.c) or
 * a file (share_file.c), the columns (fields.c) and one view (views.h).  Errors are one line on stderr,
 * "sshare-ext: error: ...", and exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_cells.h"
#include "cli.h"
#include "explain_rpc.h"
#include "cred_names.h"
#include "clusters.h"
#include "fields.h"
#include "share_file.h"
#include "share_set.h"
#include "shares_rpc.h"
#include "views.h"

static int report_error(const char *msg)
{
	fprintf(stderr, "sshare-ext: error: %s\n", msg);
	return EXIT_FAILURE;
}

/*
 * An error message that filled its buffer was cut: say so with "...".
 * The buffers hold a path (4096) and a ts_error message (1024) with room
 * to spare, so this is for the unforeseen.
 */
static void mark_cut(char *msg, size_t len)
{
	if (len > 4 && strlen(msg) == len - 1)
		memcpy(msg + len - 4, "...", 4);
}

static int parse_fields(const char *spec, struct field_list *list)
{
	char bad[256], msg[300];

	if (!fields_parse(spec, list, bad, sizeof(bad)))
		return 0;
	mark_cut(bad, sizeof(bad));
	snprintf(msg, sizeof(msg), "Invalid field requested: \"%s\"", bad);
	report_error(msg);
	return -1;
}

/*
 * sshare's default columns; with --targets the cap columns after them.
 * sshare adds LevelFS under Fair Tree only: the algorithm decides, not
 * the FairShare rule (25.11's sshare prints the stored FairShare under
 * every algorithm, without LevelFS outside Fair Tree).
 */
static const char *default_fields(const struct cli *c,
				  const struct share_set *s, char *buf,
				  size_t len)
{
	const char *d = fields_default(s->algo == TS_FS_FAIR_TREE, c->long_flag,
				       c->partitions);

	if (!c->targets)
		return d;
	snprintf(buf, len, "%s,FSCap,CapUsage,CappedBy", d);
	return buf;
}

/*
 * --diagnose-f: the usage per credential of a treeshare_state file:
 * --state's, else online the controller's (StateSaveLocation), with its
 * fs_targets= and fs_policy= unless --targets and --fs-policy are given,
 * and the cluster's names of accounts, QOS and partitions.
 */
static int run_diagnose(const struct cli *c)
{
	struct diagnose_conf d = { 0 };
	enum ts_fs_policy policy = c->fs_policy;
	struct ts_error err = TS_ERROR_INIT;
	struct cred_names *names = NULL;
	struct ts_targets *tg = NULL;
	const char *targets = c->targets, *state = c->state;
	char msg[8192], note[256] = "";
	int rc;

	/* an export names accounts as slurmdbd does, even from --state */
	if (c->view == VIEW_EXPORT_MAUI && c->state) {
		if (shares_rpc_setup(c->verbose, msg, sizeof(msg)))
			fprintf(stderr,
				"sshare-ext: %s; accounts and QOS stay numbers\n",
				msg);
		else
			names = cred_names_load(NULL, note, sizeof(note));
		if (*note)
			fprintf(stderr, "sshare-ext: %s\n", note);
	}
	/* --diagnose-p: the jobs and the weights are the controller's */
	if (!c->state || c->view == VIEW_DIAGNOSE_P) {
		if (shares_rpc_setup(c->verbose, msg, sizeof(msg)) ||
		    shares_rpc_diagnose_conf(&d, msg, sizeof(msg)))
			return report_error(msg);
		if (!state)
			state = d.state;
		if (!targets)
			targets = d.targets;
		if (!c->fs_policy_set && d.ratio)
			policy = TS_FS_POLICY_RATIO;
		names = cred_names_load(d.cluster, note, sizeof(note));
		if (*note)
			fprintf(stderr, "sshare-ext: %s\n", note);
	}
	rc = targets ? ts_targets_load(targets, NULL, &tg, &err) : 0;
	if (rc)
		snprintf(msg, sizeof(msg), "%s", err.msg);
	else if (c->view == VIEW_DIAGNOSE_P)
		rc = job_fs_view(stdout, state, tg, policy, names, d.fs_weight,
				 d.cred_weight, 0, msg, sizeof(msg));
	else if (c->view == VIEW_EXPORT_MAUI)
		rc = maui_export(stdout, state, c->export_dir, names, msg,
				 sizeof(msg));
	else
		rc = diagnose_view(stdout, state, tg, policy, names, msg,
				   sizeof(msg));
	ts_targets_free(tg);
	cred_names_free(names);
	shares_rpc_diagnose_conf_free(&d);
	return rc ? report_error(msg) : EXIT_SUCCESS;
}

/*
 * Load the rows (offline file or the controller) and print the chosen
 * view.  RET the exit status.
 */
static int load_and_print(const struct cli *c, struct share_set *s)
{
	struct field_list list = { .n = 0 };
	char msg[8192];
	int need_tree, rc;

	if (c->view == VIEW_DIAGNOSE_F || c->view == VIEW_DIAGNOSE_P ||
	    c->view == VIEW_EXPORT_MAUI)
		return run_diagnose(c);
	if (c->format && parse_fields(c->format, &list))
		return EXIT_FAILURE;
	need_tree = c->view != VIEW_TABLE || c->targets ||
		    (c->format ? fields_any_extended(&list) : c->long_flag);
	if (c->input)
		rc = share_file_load(s, c, need_tree, msg, sizeof(msg));
	else
		rc = shares_rpc_load(s, c, need_tree, msg, sizeof(msg));
	if (rc < 0) {
		mark_cut(msg, sizeof(msg));
		return report_error(msg);
	}
	if (rc > 0)
		return EXIT_SUCCESS; /* the controller had nothing to say */
	if (c->targets && cap_cells_load(s, c->targets, msg, sizeof(msg)))
		return report_error(msg);

	switch (c->view) {
	case VIEW_PATH:
		if (path_view(stdout, s, c->entity, msg, sizeof(msg)))
			return report_error(msg);
		break;
	case VIEW_JSON:
		json_view(stdout, s);
		break;
	case VIEW_TREE:
		bar_view(stdout, s);
		break;
	case VIEW_DIAGNOSE_F: /* printed by run_diagnose(), not here */
	case VIEW_DIAGNOSE_P:
	case VIEW_EXPORT_MAUI:
		break;
	case VIEW_TABLE:
		if (!c->format &&
		    parse_fields(default_fields(c, s, msg, sizeof(msg)), &list))
			return EXIT_FAILURE;
		table_view(stdout, s, &list, c->mode, !c->no_header);
		break;
	}
	return EXIT_SUCCESS;
}

/* -M: one section per cluster, "CLUSTER: name" first, as sshare's. */
static int run_clusters(const struct cli *c)
{
	struct cluster_list *l;
	char msg[512];
	size_t i;
	int rc = EXIT_SUCCESS;

	if (clusters_get(c->clusters, c->verbose, &l, msg, sizeof(msg)))
		return report_error(msg);
	for (i = 0; i < clusters_count(l); i++) {
		struct share_set s;

		if (i)
			putchar('\n');
		printf("CLUSTER: %s\n", clusters_use(l, i));
		share_set_init(&s);
		if (load_and_print(c, &s) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
		share_set_free(&s);
	}
	clusters_free(l);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli c;
	struct share_set s;
	int rc;

	switch (cli_parse(argc, argv, &c)) {
	case CLI_EXIT_OK:
		cli_free(&c);
		return EXIT_SUCCESS;
	case CLI_EXIT_ERROR:
		cli_free(&c);
		return EXIT_FAILURE;
	case CLI_RUN:
		break;
	}
	if (c.n_explain) {
		rc = explain_view(stdout, &c);
	} else if (c.clusters) {
		rc = run_clusters(&c);
	} else {
		share_set_init(&s);
		rc = load_and_print(&c, &s);
		share_set_free(&s);
	}
	cli_free(&c);
	if (fflush(stdout) || ferror(stdout))
		rc = report_error("cannot write the output");
	return rc;
}
