/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential.c - the names of Maui's credential types (see credential.h).
 */
#include <stdint.h>
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
