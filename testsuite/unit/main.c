/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runner for the Check unit tests.  Usage: unit_tests [TAP_FILE [SUITE]]
 * Writes TAP to TAP_FILE (for make check) and Check's usual report to
 * stdout.  SUITE runs one suite only.  Exit status 0 when all pass.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TS_SUITE(name) Suite *suite_##name(void);
#include "suites.h"
#undef TS_SUITE

struct entry {
	const char *name;
	Suite *(*make)(void);
};

static const struct entry suites[] = {
#define TS_SUITE(name) { #name, suite_##name },
#include "suites.h"
#undef TS_SUITE
};

int main(int argc, char **argv)
{
	const char *tap = argc > 1 ? argv[1] : NULL;
	const char *only = argc > 2 ? argv[2] : NULL;
	SRunner *sr = NULL;
	size_t i;
	int failed;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		if (only && strcmp(only, suites[i].name))
			continue;
		if (!sr)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (!sr) {
		fprintf(stderr, "unit_tests: no suite named %s\n",
			only ? only : "(any)");
		return 2;
	}
	if (tap)
		srunner_set_tap(sr, tap);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
