/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential.c - the names of Maui's credential types (see credential.h).
 */
#include "credential.h"

#include <string.h>

static const char *const cred_names[TS_CRED_N] = {
	[TS_CRED_USER] = "user",       [TS_CRED_GROUP] = "group",
	[TS_CRED_ACCOUNT] = "account", [TS_CRED_QOS] = "qos",
	[TS_CRED_CLASS] = "class",
};

const char *ts_cred_name(enum ts_cred c)
{
	return (unsigned)c < TS_CRED_N ? cred_names[c] : "?";
}

int ts_cred_from_name(const char *name, size_t len, enum ts_cred *c)
{
	int k;

	for (k = 0; k < TS_CRED_N; k++) {
		if (strlen(cred_names[k]) == len &&
		    !memcmp(cred_names[k], name, len)) {
			*c = (enum ts_cred)k;
			return 0;
		}
	}
	return -1;
}
