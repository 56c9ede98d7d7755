/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_view.c - Maui's "diagnose -f" view (see cred_view.h).
 */
#include <stdlib.h>

#include "cred_view.h"
#include "duration.h"

static int by_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* part of whole in percent; 0 of nothing is 0 */
static double pct(long double part, long double whole)
{
	return whole > 0 ? (double)(100 * part / whole) : 0.0;
}

/* "20.00", "20.00+", "20.00-" or "-------" without a target. */
static void target_text(const struct ts_target *t, char *buf, size_t len)
{
	if (!t) {
		snprintf(buf, len, "-------");
		return;
	}
	snprintf(buf, len, "%.2f%s", t->percent,
		 t->kind == TS_TARGET_FLOOR ? "+"
		 : t->kind == TS_TARGET_CAP ? "-"
					    : "");
}

static void view_header(FILE *out, const struct ts_windows *w,
			enum ts_fs_policy policy)
{
	char len[32];
	uint32_t k;

	ts_duration_format(w->interval, len, sizeof(len));
	if (w->interval == TS_CRED_HALF_LIFE_INTERVAL && w->depth == 1)
		fprintf(out,
			"Usage decays by PriorityDecayHalfLife (no usage_window): one interval\n");
	else
		fprintf(out,
			"Depth: %u intervals   Interval Length: %s   Decay Rate: %.2f\n",
			w->depth, len, w->decay);
	fprintf(out, "FS Policy: %s\n\n",
		policy == TS_FS_POLICY_RATIO ? "ratio" : "difference");
	fprintf(out, "%-14s %7s %8s", "FSInterval", "%", "Target");
	for (k = 0; k < w->depth; k++)
		fprintf(out, " %8u", k);
	fprintf(out, "\n%-14s %7s %8s", "FSWeight", "-------", "-------");
	for (k = 0; k < w->depth; k++)
		fprintf(out, " %8.4f", (double)w->weight[k]);
	fprintf(out, "\n%-14s %7.2f %8s", "TotalUsage", 100.0, "-------");
	for (k = 0; k < w->depth; k++)
		fprintf(out, " %8.0Lf", w->total[k]);
	fputc('\n', out);
}

/* One type's heading and rows; RET -1 when out of memory. */
static int rows(FILE *out, const struct ts_windows *w, enum ts_cred c,
		const struct ts_targets *tg, ts_cred_namer namer, void *arg)
{
	const char *type = ts_cred_name(c);
	uint32_t *ids = NULL, k;
	char name[256], target[32];
	size_t i;

	fputc('\n', out);
	for (i = 0; type[i]; i++)
		fputc(type[i] - 'a' + 'A', out);
	fprintf(out, "\n-------------\n");
	if (!w->n)
		return 0;
	ids = malloc(w->n * sizeof(*ids));
	if (!ids)
		return -1;
	for (i = 0; i < w->n; i++)
		ids[i] = w->id[i];
	qsort(ids, w->n, sizeof(*ids), by_id);
	for (i = 0; i < w->n; i++) {
		const char *n = namer(arg, c, ids[i], name, sizeof(name));

		target_text(tg ? ts_targets_find_cred(tg, c, n) : NULL, target,
			    sizeof(target));
		fprintf(out, "%-14s %7.2f %8s", n,
			100.0 * ts_windows_usage(w, ids[i]), target);
		for (k = 0; k < w->depth; k++)
			fprintf(out, " %8.2f",
				pct(ts_windows_get(w, ids[i], k), w->total[k]));
		fputc('\n', out);
	}
	free(ids);
	return 0;
}

int ts_cred_view_write(FILE *out, const struct ts_cred_usage *cu,
		       const struct ts_targets *tg, enum ts_fs_policy policy,
		       ts_cred_namer namer, void *arg)
{
	int c;

	view_header(out, &cu->w[0], policy);
	for (c = 0; c < TS_CRED_N; c++)
		if (rows(out, &cu->w[c], (enum ts_cred)c, tg, namer, arg))
			return -1;
	return ferror(out) ? -1 : 0;
}
