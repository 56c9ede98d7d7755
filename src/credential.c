/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential.c - the names of Maui's credential types (see credential.h).
 */
#include "credential.h"

static const char *const cred_names[TS_CRED_N] = {
	[TS_CRED_USER] = "user",       [TS_CRED_GROUP] = "group",
	[TS_CRED_ACCOUNT] = "account", [TS_CRED_QOS] = "qos",
	[TS_CRED_CLASS] = "class",
};

const char *ts_cred_name(enum ts_cred c)
{
	return (unsigned)c < TS_CRED_N ? cred_names[c] : "?";
}
