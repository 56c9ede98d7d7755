/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fields.c - the column table and --format lists (fields.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fields.h"

struct field fields[F_COUNT] = {
	[F_ACCOUNT] = { "Account", -20 },
	[F_CLUSTER] = { "Cluster", 10 },
	[F_EFFECTV_USAGE] = { "EffectvUsage", 13 },
	[F_FAIRSHARE] = { "FairShare", 10 },
	[F_GRP_TRES_MINS] = { "GrpTRESMins", 30 },
	[F_GRP_TRES_RAW] = { "GrpTRESRaw", 30 },
	[F_ID] = { "ID", 6 },
	[F_LEVEL_FS] = { "LevelFS", 10 },
	[F_NORM_SHARES] = { "NormShares", 11 },
	[F_NORM_USAGE] = { "NormUsage", 11 },
	[F_PARTITION] = { "Partition", 12 },
	[F_RAW_SHARES] = { "RawShares", 10 },
	[F_RAW_USAGE] = { "RawUsage", 11 },
	[F_TRES_RUN_MINS] = { "TRESRunMins", 30 },
	[F_USER] = { "User", 10 },
	[F_TREE_USAGE] = { "TreeUsage", 10 },
	[F_PERC] = { "Perc", 10 },
	[F_PBS_FACTOR] = { "PBSFactor", 10 },
	[F_RANK] = { "Rank", 6 },
	[F_CLASSIC_FS] = { "ClassicFS", 10 },
	[F_DO_FS] = { "DOFS", 10 },
	[F_FAIR_TREE_FS] = { "FairTreeFS", 10 },
	[F_FS_CAP] = { "FSCap", 10 },
	[F_CAP_USAGE] = { "CapUsage", 10 },
	[F_CAPPED_BY] = { "CappedBy", 20 },
};

#define EXTENDED "TreeUsage,Perc,PBSFactor,Rank,ClassicFS,DOFS,FairTreeFS"

/* Items after sshare's splitting, lower-cased, repeats moved last. */
struct items {
	char *v[FIELDS_MAX];
	int n;
};

static void items_free(struct items *it)
{
	while (it->n > 0)
		free(it->v[--it->n]);
}

static int items_add(struct items *it, const char *s, size_t len)
{
	char *item = strndup(s, len);
	int i;

	if (!item)
		return -1;
	for (i = 0; i < it->n; i++) {
		if (strcasecmp(it->v[i], item))
			continue;
		free(it->v[i]);
		memmove(&it->v[i], &it->v[i + 1],
			(size_t)(it->n - i - 1) * sizeof(it->v[0]));
		it->n--;
		break;
	}
	if (it->n == FIELDS_MAX) {
		free(item);
		return -1;
	}
	for (i = 0; item[i]; i++)
		item[i] = (char)tolower((unsigned char)item[i]);
	it->v[it->n++] = item;
	return 0;
}

/*
 * sshare's list splitting: a leading quote makes the list end at the
 * matching quote; other quotes become '`'; a trailing comma is dropped.
 */
static int split_items(const char *spec, struct items *it)
{
	char *s = strdup(spec), *p;
	size_t start, i = 0;
	char quote = 0;
	int added = 0, rc = 0;

	if (!s)
		return -1;
	if (s[0] == '"' || s[0] == '\'')
		quote = s[i++];
	start = i;
	for (; s[i]; i++) {
		if (quote && s[i] == quote)
			break;
		if (s[i] == '"' || s[i] == '\'') {
			s[i] = '`';
		} else if (s[i] == ',') {
			if (!s[i + 1])
				break;
			if (i != start) {
				rc |= items_add(it, s + start, i - start);
				added = 1;
			}
			start = i + 1;
		}
	}
	p = s + start;
	if (!added || i > start)
		rc |= items_add(it, p, i - start);
	free(s);
	return rc;
}

int fields_parse(const char *spec, struct field_list *list, char *bad,
		 size_t badlen)
{
	struct items it = { .n = 0 };
	int i, f;

	list->n = 0;
	if (split_items(spec, &it)) {
		snprintf(bad, badlen, "%s", "(too many fields)");
		items_free(&it);
		return -1;
	}
	for (i = 0; i < it.n; i++) {
		char *obj = it.v[i], *pct = strchr(obj, '%');
		int len = 0;

		if (pct) {
			*pct = '\0';
			len = atoi(pct + 1);
		}
		for (f = 0; f < F_COUNT; f++)
			if (!strncasecmp(fields[f].name, obj, strlen(obj)))
				break;
		if (f == F_COUNT) {
			snprintf(bad, badlen, "%s", obj);
			items_free(&it);
			return -1;
		}
		if (len)
			fields[f].len = len;
		list->id[list->n++] = (enum field_id)f;
	}
	items_free(&it);
	return 0;
}

const char *fields_default(int fair_tree, int long_flag, int partitions)
{
	if (!long_flag)
		return partitions ? "A,User,P,RawShares,NormShares,RawUsage,"
				    "Eff,Fairshare"
				  : "A,User,RawShares,NormShares,RawUsage,Eff,"
				    "Fairshare";
	if (fair_tree)
		return partitions ? "A,User,P,RawShares,NormShares,RawUsage,"
				    "NormUsage,Eff,Fairshare,LevelFS,"
				    "GrpTRESMins,TRESRunMins," EXTENDED
				  : "A,User,RawShares,NormShares,RawUsage,"
				    "NormUsage,Eff,Fairshare,LevelFS,"
				    "GrpTRESMins,TRESRunMins," EXTENDED;
	return partitions ? "A,User,P,RawShares,NormShares,RawUsage,"
			    "NormUsage,Eff,Fairshare,GrpTRESMins,"
			    "TRESRunMins," EXTENDED
			  : "A,User,RawShares,NormShares,RawUsage,NormUsage,"
			    "Eff,Fairshare,GrpTRESMins,TRESRunMins," EXTENDED;
}

const char *fields_extended_spec(void)
{
	return EXTENDED;
}

int fields_any_extended(const struct field_list *list)
{
	int i;

	for (i = 0; i < list->n; i++)
		if (list->id[i] >= F_FIRST_EXTENDED)
			return 1;
	return 0;
}

void fields_help(void)
{
	int i;

	for (i = 0; i < F_COUNT; i++) {
		if (i & 3)
			printf(" ");
		else if (i)
			printf("\n");
		printf("%-17s", fields[i].name);
	}
	printf("\n");
}
