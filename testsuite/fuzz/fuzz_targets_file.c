/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the fs_targets file parser (src/targets.c).
 * Any input must give either targets whose every entry is in 0..100 and
 * whose factors are in [0,1], or an error that names a line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"

/* root ─ a ─ b ─ u (user); names the fuzzer can hit with short input. */
static void check_tree(const struct ts_targets *tg)
{
	struct ts_error err = TS_ERROR_INIT;
	long double norm[4] = { 1, 0.5L, 0.25L, 0.125L };
	double fs[4] = { 0.3, 0.3, 0.3, 0.3 };
	long from[4];
	struct ts_tree t;
	size_t i;

	if (ts_tree_init(&t, 4, &err))
		return;
	ts_tree_add(&t, TS_NO_NODE, "root", 0, 1, 0, 1, &err);
	ts_tree_add(&t, 0, "a", 0, 1, 0, 2, &err);
	ts_tree_add(&t, 1, "b", 0, 1, 0, 3, &err);
	ts_tree_add(&t, 2, "u", 1, 1, 0, 4, &err);
	ts_targets_apply(tg, &t, norm, TS_FS_POLICY_RATIO, fs, from);
	for (i = 0; i < 4; i++) {
		if (!(fs[i] >= 0 && fs[i] <= 1))
			abort();
		if (from[i] != TS_NO_NODE && (from[i] < 1 || from[i] > 3))
			abort();
	}
	ts_tree_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ts_error err = TS_ERROR_INIT;
	struct ts_targets *tg = NULL;
	int rc;

	rc = ts_targets_parse((const char *)data, size, &tg, &err);
	if (rc != TS_OK) {
		if (tg)
			abort();
		/* Every parse error names its line. */
		if (rc != TS_ENOMEM &&
		    (err.index < 1 || strncmp(err.msg, "line ", 5)))
			abort();
		return 0;
	}
	if (ts_targets_count(tg) > size / 6 + 1) /* "user a 1" >= 8 */
		abort();
	{
		static const char *const names[] = { "a", "b", "u", "root" };
		size_t i;
		int kind;

		for (i = 0; i < 4; i++)
			for (kind = 0; kind < 2; kind++) {
				const struct ts_target *t = ts_targets_find(
					tg, kind, names[i], NULL);
				double f;

				if (!t)
					continue;
				if (!(t->percent >= 0 && t->percent <= 100))
					abort();
				f = ts_targets_factor(t, 37.5,
						      TS_FS_POLICY_DIFFERENCE);
				if (!(f >= 0 && f <= 1))
					abort();
			}
	}
	check_tree(tg);
	ts_targets_free(tg);
	return 0;
}
