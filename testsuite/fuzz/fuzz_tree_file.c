/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the tree-file and saved-sshare readers
 * (src/tree_file.c), then the fair-share algorithms sshare-ext runs on
 * what they read.  Any input must give either an error that names a
 * line and leaves no tree, or a finished tree whose parents come first,
 * whose usage is finite and non-negative (a tree file's accounts holding
 * at least their children's), no deeper than the limit, on which every
 * algorithm returns factors in [0,1].
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fairshare.h"
#include "tree_file.h"

static void check_tree(const struct ts_tree *t, enum ts_tree_format fmt)
{
	long double *kids;
	size_t i;

	if (!t->finished || t->n < 1 || strcmp(ts_tree_name(t, 0), "root") ||
	    t->parent[0] != TS_NO_NODE || t->is_user[0])
		abort();
	kids = calloc(t->n, sizeof(*kids));
	if (!kids)
		return;
	for (i = 1; i < t->n; i++) {
		long p = t->parent[i];

		if (p < 0 || (size_t)p >= i || t->is_user[p])
			abort();
		if (!isfinite(t->usage[i]) || t->usage[i] < 0)
			abort();
		if (t->depth[i] > TS_TREE_FILE_MAX_DEPTH + 1)
			abort();
		kids[p] += t->usage[i];
	}
	for (i = 0; fmt == TS_TREE_FORMAT_TREE && i < t->n; i++)
		if (t->usage[i] < kids[i] * (1 - 1e-9L))
			abort();
	free(kids);
}

static void check_algorithms(const struct ts_tree *t)
{
	static const enum ts_fs_algo algos[] = { TS_FS_CLASSIC,
						 TS_FS_DEPTH_OBLIVIOUS,
						 TS_FS_FAIR_TREE, TS_FS_PBS };
	struct ts_fs fs = { 0 };
	struct ts_error err = TS_ERROR_INIT;
	size_t a, i;

	if (ts_fs_alloc(&fs, t->n, &err))
		return;
	for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		struct ts_fs_config cfg = { algos[a], 1.0, 0 };

		if (ts_fs_compute(t, &cfg, &fs, &err))
			abort();
		for (i = 0; i < t->n; i++) {
			if (!(fs.fs_factor[i] >= 0 && fs.fs_factor[i] <= 1) ||
			    !(fs.pbs_factor[i] >= 0 && fs.pbs_factor[i] <= 1) ||
			    !(fs.pbs_perc[i] >= 0 && fs.pbs_perc[i] <= 1) ||
			    !(fs.pbs_tree_usage[i] >= 0 &&
			      fs.pbs_tree_usage[i] <= 1))
				abort();
		}
	}
	ts_fs_free(&fs);
}

static void one(const uint8_t *data, size_t size, enum ts_tree_format fmt,
		int compute)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_tree_file_info info;
	struct ts_tree t;
	int rc;

	if (ts_tree_init(&t, 0, &err))
		return;
	rc = ts_tree_file_parse((const char *)data, size, fmt, &t, &info, &err);
	if (rc != TS_OK) {
		/* Every error names its line and leaves no tree. */
		if (t.n || (rc != TS_ENOMEM &&
			    (err.index < 1 || strncmp(err.msg, "line ", 5))))
			abort();
	} else {
		if (fmt != TS_TREE_FORMAT_AUTO && info.format != fmt)
			abort();
		check_tree(&t, info.format);
		if (compute)
			check_algorithms(&t);
	}
	ts_tree_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, TS_TREE_FORMAT_AUTO, 1);
	one(data, size, TS_TREE_FORMAT_TREE, 0);
	one(data, size, TS_TREE_FORMAT_SSHARE, 0);
	return 0;
}
