/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential.c - the names of Maui's credential types (see credential.h).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "credential.h"
#include "id_hash.h"

static const char *const cred_names[TS_CRED_N] = {
	[TS_CRED_USER] = "user",       [TS_CRED_GROUP] = "group",
	[TS_CRED_ACCOUNT] = "account", [TS_CRED_QOS] = "qos",
	[TS_CRED_CLASS] = "class",
};

const char *ts_cred_name(enum ts_cred c)
{
	return (unsigned)c < TS_CRED_N ? cred_names[c] : "?";
}

uint32_t ts_cred_class_id(const char *partition)
{
	uint64_t h;
	uint32_t id;

	if (!partition || !*partition)
		return UINT32_MAX;
	h = ts_fnv1a(TS_FNV1A_BASIS, partition, strlen(partition));
	id = (uint32_t)(h ^ (h >> 32));
	return id == UINT32_MAX ? UINT32_MAX - 1 : id;
}

/* A name of digits alone, as a number below UINT32_MAX; else UINT32_MAX. */
static uint32_t digits_id(const char *name)
{
	unsigned long v;
	char *end;

	if (*name < '0' || *name > '9')
		return UINT32_MAX;
	errno = 0;
	v = strtoul(name, &end, 10);
	if (errno || *end || v >= UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)v;
}

uint32_t ts_cred_system_id(enum ts_cred c, const char *name)
{
	char buf[16384];

	if (!name || !*name)
		return UINT32_MAX;
	if (c == TS_CRED_USER) {
		struct passwd pw, *found = NULL;

		if (!getpwnam_r(name, &pw, buf, sizeof(buf), &found) && found)
			return (uint32_t)found->pw_uid;
	} else if (c == TS_CRED_GROUP) {
		struct group gr, *found = NULL;

		if (!getgrnam_r(name, &gr, buf, sizeof(buf), &found) && found)
			return (uint32_t)found->gr_gid;
	} else if (c == TS_CRED_CLASS) {
		return ts_cred_class_id(name);
	} else {
		return UINT32_MAX;
	}
	return digits_id(name);
}
