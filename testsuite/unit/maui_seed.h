/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maui_seed.h - seed 003's Maui fair-share data, shared by the tests of
 * the file (test_maui_fs_file.c), the usage per credential
 * (test_credential_usage.c) and the import (test_maui_fs_history.c).
 * Header-only: each test file has its own copy.
 */
#ifndef TS_TEST_MAUI_SEED_H
#define TS_TEST_MAUI_SEED_H

#include "credential_usage.h"

/* seed 003's sample data file, as the design prints it */
static inline const char *maui_seed_file(void)
{
	return "# Fairshare Data File (Duration: 172800 Seconds) Starting: Fri Aug 18 18:00:00\n"
	       "\n"
	       "User USERA 150000.000\n"
	       "User USERB 150000.000\n"
	       "User USERC 200000.000\n"
	       "User USERD 100000.000\n"
	       "Group GROUPA 350000.000\n"
	       "Group GROUPB 250000.000\n"
	       "Account ACCTA 300000.000\n"
	       "Account ACCTB 200000.000\n"
	       "Account ACCTC 100000.000\n"
	       "QOS 0 50000.000\n"
	       "QOS 1 450000.000\n"
	       "QOS 2 100000.000\n"
	       "TOTAL 600000.00\n";
}

/* The usage of every credential of type c in window k, NONE included. */
static inline long double maui_category_sum(const struct ts_cred_usage *cu,
					    int c, uint32_t k)
{
	const struct ts_windows *w = &cu->w[c];
	long double sum = 0;
	size_t s;

	for (s = 0; s < w->n; s++)
		sum += ts_windows_get(w, w->id[s], k);
	return sum;
}

#endif /* TS_TEST_MAUI_SEED_H */
