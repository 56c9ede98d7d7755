/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain_view.c - sshare-ext --explain JOBID[,JOBID] (explain.h,
 * sshare-ext(1) EXPLAIN): for each job and each of its rows in sprio,
 * every factor's weight, normalised value and contribution, summed in
 * slurmctld's order to the integer squeue shows; the fair-share factor
 * along the job's path from the root in the configured algorithm's own
 * quantities; a feasibility cap that holds it; with two jobs, which is
 * ahead, the factor that decides, where their paths part, and when the
 * order can change if no one adds usage.
 *
 * The figures of the path come from src/ on the tree of sshare's
 * request, as the extended columns do.  That tree is whole only when
 * the caller may see every association; under PrivateData=usage a user
 * sees their own rows, and the explanation keeps to those rows' own
 * figures (sshare's), with no rank and no level above them.
 */
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "explain_rpc.h"
#include "explain_model.h"
#include "ft_decide.h"
#include "shares_rpc.h"
#include "views.h"

/* ----------------------------------------------------------- text */

/* A row's factors, one line each, then their sum against squeue's. */
static void text_factors(FILE *f, const struct explain_model *m,
			 const struct xrow *x)
{
	size_t k;

	fprintf(f, "  %-16s %10s %12s %16s  %s\n", "Factor", "Weight",
		"Normalised", "Contribution", "From");
	for (k = 0; k < x->n; k++) {
		const struct xfactor *fa = &x->fac[k];
		char w[32] = "", nv[32] = "";

		if (fa->weighted)
			snprintf(w, sizeof(w), "%g", fa->weight);
		if (!isnan(fa->norm))
			snprintf(nv, sizeof(nv), "%.6f", fa->norm);
		fprintf(f, "  %-16s %10s %12s %16.6f  %s\n", fa->name, w, nv,
			fa->contrib, fa->from);
	}
	if (x->r->direct)
		return;
	fprintf(f, "  %-16s %10s %12s %16.6f  slurmctld's order, truncated: %u",
		"Sum", "", "", x->sum, x->prio);
	if (x->r->held_by >= 0)
		fprintf(f, " %s squeue's %lld\n",
			(long long)x->prio == x->r->held_by ? "=" : "!=",
			x->r->held_by);
	else
		fprintf(f, " (squeue shows %s)\n",
			m->j->n_rows > 1 ? "no per-partition priority here"
					 : "none");
}

static void text_row(FILE *f, const struct explain_model *m,
		     const struct xrow *x)
{
	const struct explain_row *r = x->r;

	fprintf(f, "Partition %s%s%s:", r->partition ? r->partition : "",
		r->qos ? ", QOS " : "", r->qos ? r->qos : "");
	if (r->direct) {
		fprintf(f, " priority %.0f set directly (%s), not by weights",
			r->direct_prio,
			m->conf->formula ? "formula=" : "by an administrator");
		if (r->held_by >= 0)
			fprintf(f, " %s squeue's %lld",
				(long long)r->direct_prio == r->held_by ? "="
									: "!=",
				r->held_by);
		fputc('\n', f);
		if (m->conf->formula)
			fprintf(f, "  formula=%s\n  its variables: %s\n",
				m->conf->formula, *x->vars ? x->vars : "none");
		if (!x->n)
			return;
		fprintf(f,
			"  sprio's factors (not summed: the formula decides):\n");
	} else {
		fprintf(f, " priority %u\n", x->prio);
	}
	text_factors(f, m, x);
}

/* The fair-share path from the root, a level a line, then the formula. */
static void text_path(FILE *f, const struct explain_model *m)
{
	const struct xpath *p = &m->path;
	size_t k;

	fprintf(f, "Fair share (%s), %s in %s, association %u:\n",
		cli_algo_name(m->conf->algo), m->user,
		m->j->account ? m->j->account : "?", m->j->assoc_id);
	if (!p->n) {
		fprintf(f, "  %s\n", m->path_note);
		return;
	}
	fprintf(f, "  %-5s %-14s %10s %12s %14s %14s %12s\n", "Level", "Name",
		"RawShares", p->pbs ? "Perc" : "NormShares", "RawUsage",
		p->pbs ? "TreeUsage" : "EffectvUsage", "LevelFS");
	for (k = 0; k < p->n; k++) {
		const struct xlevel *l = &p->lv[k];
		char sh[24], lfs[32] = "";

		if (l->shares_raw == SHARE_USE_PARENT)
			snprintf(sh, sizeof(sh), "parent");
		else if (k == 0 && p->whole)
			snprintf(sh, sizeof(sh), "-");
		else
			snprintf(sh, sizeof(sh), "%u", l->shares_raw);
		if (m->conf->algo == TS_FS_FAIR_TREE && k)
			snprintf(lfs, sizeof(lfs), "%.6f", l->level_fs);
		fprintf(f, "  %-5zu %-14s %10s %12.6f %14.0f %14.6f %12s\n",
			l->depth, l->name, sh, l->shares, l->usage_raw,
			l->efctv, lfs);
	}
	fprintf(f, "  %s\n", m->fs_formula);
	if (*m->path_note)
		fprintf(f, "  %s\n", m->path_note);
}

/*
 * Maui's credential fair share (fs_weight=): the job's line of
 * --diagnose-p, from the controller's state file (readable by root and
 * SlurmUser only, as the plugin writes it; else the reason).
 */
static void text_maui(FILE *f, const struct explain_model *m)
{
	char msg[1024];

	if (!m->conf->cred_fs)
		return;
	fprintf(f,
		"Maui's credential fair share (fs_weight=), as --diagnose-p:\n");
	fflush(f);
	if (job_fs_view_online(f, m->j->id, msg, sizeof(msg)))
		fprintf(f, "  not shown: %s\n", msg);
}

static void text_job(FILE *f, const struct explain_model *m)
{
	const struct explain_job *j = m->j;
	size_t k;

	fprintf(f, "JobId=%u UserId=%s(%u) Account=%s Partition=%s QOS=%s\n",
		j->id, m->user, j->uid, j->account ? j->account : "",
		j->partition ? j->partition : "", j->qos ? j->qos : "");
	fprintf(f, "  JobState=%s Reason=%s Priority=%u\n",
		j->state ? j->state : "", j->reason ? j->reason : "",
		j->priority);
	if (*m->cap_note)
		fprintf(f, "  %s\n", m->cap_note);
	if (!m->n_rows)
		fprintf(f,
			"  sprio has no factors for it: it is not pending, is held, or has not begun to accrue age\n");
	for (k = 0; k < m->n_rows; k++)
		text_row(f, m, &m->rows[k]);
	text_path(f, m);
	text_maui(f, m);
}

static void text_compare(FILE *f, const struct explain_cmp *c)
{
	fprintf(f, "\n%s\n", c->verdict);
	if (*c->decides)
		fprintf(f, "  %s\n", c->decides);
	if (*c->where)
		fprintf(f, "  %s\n", c->where);
	if (*c->when)
		fprintf(f, "  %s\n", c->when);
}

/* ----------------------------------------------------------- JSON */

static void jnum(FILE *f, double v)
{
	if (isnan(v))
		fputs("null", f);
	else if (isinf(v))
		fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
	else
		fprintf(f, "%.17g", v);
}

/* ', "key": ' and s; null for NULL or "" (a blank figure). */
static void jstr(FILE *f, const char *key, const char *s)
{
	fprintf(f, ", \"%s\": ", key);
	json_string(f, s && *s ? s : NULL);
}

/* ', "key": ' and v; null for NAN (jnum()). */
static void jval(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	jnum(f, v);
}

/* A row as JSON: its priority and every factor. */
static void json_row(FILE *f, const struct xrow *x)
{
	size_t k;

	fputs("{\"partition\": ", f);
	json_string(f, x->r->partition);
	fputs(", \"qos\": ", f);
	json_string(f, x->r->qos);
	fprintf(f, ", \"direct\": %s, \"priority\": %u, \"sum\": ",
		x->r->direct ? "true" : "false",
		x->r->direct ? (uint32_t)x->r->direct_prio : x->prio);
	jnum(f, x->sum);
	fputs(", \"slurmctld_priority\": ", f);
	if (x->r->held_by >= 0)
		fprintf(f, "%lld", x->r->held_by);
	else
		fputs("null", f);
	jstr(f, "formula_variables", x->vars);
	fputs(", \"factors\": [", f);
	for (k = 0; k < x->n; k++) {
		const struct xfactor *fa = &x->fac[k];

		fputs(k ? ", {\"name\": " : "{\"name\": ", f);
		json_string(f, fa->name);
		jval(f, "weight", fa->weighted ? fa->weight : NAN);
		jval(f, "normalised", fa->norm);
		jval(f, "contribution", fa->contrib);
		jstr(f, "from", fa->from);
		fputc('}', f);
	}
	fputs("]}", f);
}

/* The fair-share path as JSON. */
static void json_path(FILE *f, const struct explain_model *m)
{
	const struct xpath *p = &m->path;
	size_t k;

	fputs("{\"algorithm\": ", f);
	json_string(f, cli_algo_name(m->conf->algo));
	fprintf(f, ", \"whole_tree\": %s, \"levels\": [",
		p->whole ? "true" : "false");
	for (k = 0; k < p->n; k++) {
		const struct xlevel *l = &p->lv[k];

		fprintf(f, "%s{\"depth\": %zu, \"name\": ", k ? ", " : "",
			l->depth);
		json_string(f, l->name);
		fprintf(f, ", \"user\": %s, \"raw_shares\": ",
			l->is_user ? "true" : "false");
		if (l->shares_raw == SHARE_USE_PARENT)
			fputs("\"parent\"", f);
		else
			fprintf(f, "%u", l->shares_raw);
		fprintf(f, ", \"%s\": ", p->pbs ? "perc" : "norm_shares");
		jnum(f, l->shares);
		fputs(", \"raw_usage\": ", f);
		jnum(f, l->usage_raw);
		fprintf(f, ", \"%s\": ",
			p->pbs ? "tree_usage" : "effective_usage");
		jnum(f, l->efctv);
		fputs(", \"level_fs\": ", f);
		if (m->conf->algo == TS_FS_FAIR_TREE && k)
			jnum(f, l->level_fs);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("], \"fair_share\": ", f);
	jnum(f, m->fs_value);
	fputs(", \"rank\": ", f);
	if (m->rank)
		fprintf(f, "%u, \"users\": %zu", m->rank, m->users);
	else
		fputs("null, \"users\": null", f);
	fputs(", \"formula\": ", f);
	json_string(f, m->fs_formula);
	fputs(", \"note\": ", f);
	json_string(f, *m->path_note ? m->path_note : NULL);
	fputc('}', f);
}

/* One job as JSON: squeue's fields, its rows, its path. */
static void json_job(FILE *f, const struct explain_model *m)
{
	const struct explain_job *j = m->j;
	size_t k;

	fprintf(f, "{\"job_id\": %u, \"user\": ", j->id);
	json_string(f, m->user);
	fprintf(f, ", \"user_id\": %u, \"account\": ", j->uid);
	json_string(f, j->account);
	fputs(", \"partition\": ", f);
	json_string(f, j->partition);
	fputs(", \"qos\": ", f);
	json_string(f, j->qos);
	fputs(", \"state\": ", f);
	json_string(f, j->state);
	fputs(", \"reason\": ", f);
	json_string(f, j->reason);
	fprintf(f, ", \"priority\": %u", j->priority);
	jstr(f, "cap", m->cap_note);
	jval(f, "cap_release_seconds",
	     m->cap_release >= 0 ? m->cap_release : NAN);
	fputs(", \"rows\": [", f);
	for (k = 0; k < m->n_rows; k++) {
		if (k)
			fputs(", ", f);
		json_row(f, &m->rows[k]);
	}
	fputs("], \"fair_share\": ", f);
	json_path(f, m);
	fputc('}', f);
}

/* Two jobs compared, as JSON; blank figures are null. */
static void json_compare(FILE *f, const struct explain_cmp *c)
{
	fputs(", \"comparison\": {\"partition\": ", f);
	json_string(f, *c->partition ? c->partition : NULL);
	fprintf(f, ", \"ahead\": %u, \"behind\": %u, \"tied\": %s", c->ahead,
		c->behind, c->tied ? "true" : "false");
	jstr(f, "deciding_factor", c->factor);
	jval(f, "deciding_difference", c->difference);
	jstr(f, "common_ancestor", c->ancestor);
	fputs(", \"sides\": [", f);
	json_string(f, *c->side[0] ? c->side[0] : NULL);
	fputs(", ", f);
	json_string(f, *c->side[1] ? c->side[1] : NULL);
	fputs("], \"side_values\": [", f);
	jnum(f, c->side_value[0]);
	fputs(", ", f);
	jnum(f, c->side_value[1]);
	fputc(']', f);
	jval(f, "overtake_seconds", c->overtake >= 0 ? c->overtake : NAN);
	jval(f, "overtake_at",
	     c->overtake >= 0 && c->overtake_at ? (double)c->overtake_at : NAN);
	jstr(f, "verdict", c->verdict);
	jstr(f, "decides", c->decides);
	jstr(f, "where", c->where);
	jstr(f, "when", c->when);
	fputc('}', f);
}

/* ----------------------------------------------------------- driver */

int explain_view(FILE *f, const struct cli *c)
{
	struct explain_conf conf;
	struct explain_job jobs[2];
	struct explain_model m[2];
	struct explain_cmp cmp;
	struct share_set s;
	struct cli all = *c;
	char msg[8192];
	size_t n = 0, k;
	int rc = EXIT_FAILURE;

	memset(m, 0, sizeof(m));
	share_set_init(&s);
	if (shares_rpc_setup(c->verbose, msg, sizeof(msg)) ||
	    explain_conf_load(&conf, msg, sizeof(msg))) {
		fprintf(stderr, "sshare-ext: error: %s\n", msg);
		return EXIT_FAILURE;
	}
	for (n = 0; n < c->n_explain; n++)
		if (explain_job_load(c->explain[n], &jobs[n], msg,
				     sizeof(msg))) {
			fprintf(stderr, "sshare-ext: error: %s\n", msg);
			goto out;
		}
	/* sshare's request for every association the caller may see */
	all.all_users = 1;
	all.n_users = 0;
	all.n_accounts = 0;
	all.users_only = 0;
	if (shares_rpc_load(&s, &all, 1, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "sshare-ext: error: %s\n", msg);
		goto out;
	}
	for (k = 0; k < n; k++)
		if (explain_model_build(&m[k], &conf, &jobs[k], &s, msg,
					sizeof(msg))) {
			fprintf(stderr, "sshare-ext: error: %s\n", msg);
			goto out;
		}
	if (n == 2)
		explain_compare(&cmp, &conf, &s, &m[0], &m[1]);
	if (c->view == VIEW_JSON) {
		fputs("{\"format\": \"sshare-ext-explain/1\", \"jobs\": [", f);
		for (k = 0; k < n; k++) {
			if (k)
				fputs(", ", f);
			json_job(f, &m[k]);
		}
		fputc(']', f);
		if (n == 2)
			json_compare(f, &cmp);
		fputs(", \"assumes\": ", f);
		json_string(f, EXPLAIN_ASSUMES);
		fputs("}\n", f);
	} else {
		for (k = 0; k < n; k++) {
			if (k)
				fputc('\n', f);
			text_job(f, &m[k]);
		}
		if (n == 2)
			text_compare(f, &cmp);
		if (n == 2 || *m[0].cap_note)
			fprintf(f, "  (%s)\n", EXPLAIN_ASSUMES);
	}
	rc = EXIT_SUCCESS;
out:
	for (k = 0; k < 2; k++)
		explain_model_free(&m[k]);
	while (n > 0)
		explain_job_free(&jobs[--n]);
	share_set_free(&s);
	explain_conf_free(&conf);
	return rc;
}
