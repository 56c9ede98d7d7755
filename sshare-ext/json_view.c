/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_view.c - the displayed rows with every column, as one JSON
 * object (schema in sshare-ext(1), JSON).  A cell sshare prints blank is
 * null; an infinite Level FS is the string "inf"; numbers carry full
 * precision ("%.17g"), the text view rounds them to 6 decimals.
 */
#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "extended.h"
#include "views.h"

void json_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A double as sshare's cell would show it: null when blank. */
static void json_double(FILE *f, double v)
{
	if (v == (double)SHARE_NO_VAL64 || v == (double)SHARE_INFINITE64 ||
	    v == (double)SHARE_NO_VAL || v == (double)SHARE_INFINITE ||
	    isnan(v))
		fputs("null", f);
	else if (isinf(v))
		fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
	else
		fprintf(f, "%.17g", v);
}

static void key(FILE *f, const char *k)
{
	fprintf(f, ", \"%s\": ", k);
}

static void ext(FILE *f, const struct share_set *s, const struct share_row *r,
		const char *k, enum field_id id)
{
	double v;

	key(f, k);
	if (!extended_value(s, r->node, id, &v))
		fputs("null", f);
	else if (id == F_RANK)
		fprintf(f, "%u", (unsigned)v);
	else
		json_double(f, v);
}

/* One row as a JSON object: sshare's columns, then the extended ones. */
static void print_row(FILE *f, const struct share_set *s,
		      const struct share_row *r)
{
	double v;

	fprintf(f, "    {\"id\": %u", r->id);
	key(f, "cluster");
	json_string(f, r->cluster);
	key(f, "account");
	json_string(f, r->is_user ? r->parent : r->name);
	key(f, "user");
	json_string(f, r->is_user ? r->name : NULL);
	key(f, "parent");
	json_string(f, r->parent);
	key(f, "partition");
	json_string(f, r->partition);
	key(f, "depth");
	if (r->node >= 0 && (size_t)r->node < s->tree.n)
		fprintf(f, "%u", s->tree.depth[r->node]);
	else
		fputs("null", f);
	key(f, "raw_shares");
	if (r->shares_raw == SHARE_USE_PARENT)
		fputs("\"parent\"", f);
	else if (r->shares_raw == SHARE_NO_VAL ||
		 r->shares_raw == SHARE_INFINITE)
		fputs("null", f);
	else
		fprintf(f, "%u", r->shares_raw);
	key(f, "norm_shares");
	json_double(f, r->shares_norm);
	key(f, "raw_usage");
	if (r->usage_raw == SHARE_NO_VAL64 || r->usage_raw == SHARE_INFINITE64)
		fputs("null", f);
	else
		fprintf(f, "%llu", (unsigned long long)r->usage_raw);
	key(f, "norm_usage");
	json_double(f, r->usage_norm);
	key(f, "effectv_usage");
	json_double(f, r->usage_efctv);
	key(f, "fairshare");
	if (share_set_fairshare(s, r, &v))
		json_double(f, v);
	else
		fputs("null", f);
	key(f, "level_fs");
	if (r->shares_raw == SHARE_USE_PARENT)
		fputs("null", f);
	else
		json_double(f, r->level_fs);
	key(f, "grp_tres_mins");
	json_string(f, r->grp_tres_mins ? r->grp_tres_mins : "");
	key(f, "grp_tres_raw");
	json_string(f, r->grp_tres_raw ? r->grp_tres_raw : "");
	key(f, "tres_run_mins");
	json_string(f, r->tres_run_mins ? r->tres_run_mins : "");
	ext(f, s, r, "tree_usage", F_TREE_USAGE);
	ext(f, s, r, "perc", F_PERC);
	ext(f, s, r, "pbs_factor", F_PBS_FACTOR);
	ext(f, s, r, "rank", F_RANK);
	ext(f, s, r, "classic_fs", F_CLASSIC_FS);
	ext(f, s, r, "dofs", F_DO_FS);
	ext(f, s, r, "fair_tree_fs", F_FAIR_TREE_FS);
	fputc('}', f);
}

void json_view(FILE *f, const struct share_set *s)
{
	static const char *const rules[] = {
		[FS_RULE_FAIR_TREE] = "fair_tree",
		[FS_RULE_CLASSIC] = "classic",
		[FS_RULE_STORED] = "stored",
	};
	size_t i;

	fputs("{\n  \"format\": \"sshare-ext/1\",\n  \"source\": ", f);
	json_string(f, s->source);
	fprintf(f, ",\n  \"algorithm\": \"%s\",\n", cli_algo_name(s->algo));
	fprintf(f, "  \"fairshare_rule\": \"%s\",\n", rules[s->fs_rule]);
	fprintf(f, "  \"damp\": %.17g,\n", s->damp);
	fprintf(f, "  \"usage_metric\": \"%s\",\n",
		s->consumed ? "consumed" : "dedicated");
	fputs("  \"associations\": [", f);
	for (i = 0; i < s->n; i++) {
		struct share_row tmp;

		fputs(i ? ",\n" : "\n", f);
		print_row(f, s, share_set_row(s, i, &tmp));
	}
	fputs(s->n ? "\n  ]\n}\n" : "]\n}\n", f);
}
