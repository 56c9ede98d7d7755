/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cred_names.h - online names for the ids the usage per credential is
 * kept under (issue 27), for sshare-ext --diagnose-f without --state:
 * accounts (their association ids) and QOS from slurmdbd
 * (slurmdb_associations_get() of the configured cluster,
 * slurmdb_qos_get()), partitions from slurmctld (slurm_load_partitions(),
 * each name's ts_cred_class_id()).  Users and groups are the system's
 * (getpwuid, getgrgid), as offline.  What cannot be had (slurmdbd down,
 * an id deleted since) stays a number.
 */
#ifndef SSHARE_EXT_CRED_NAMES_H
#define SSHARE_EXT_CRED_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "credential_usage.h"

struct cred_names;

/*
 * cred_names_load() - the names of cluster's accounts (NULL: every
 * cluster's), QOS and partitions (libslurm set up: shares_rpc_setup()).
 * RET the names, or NULL when out of memory; a source that does not
 * answer leaves its types unnamed and says so in note (else "").
 */
struct cred_names *cred_names_load(const char *cluster, char *note, size_t len);

/*
 * cred_names_get() - the name of id of type c (accounts, QOS and
 * classes), or NULL.  n NULL: none known.
 */
const char *cred_names_get(const struct cred_names *n, enum ts_cred c,
			   uint32_t id);

/*
 * cred_names_id() - the id of name of type c (accounts and QOS), or
 * TS_CRED_ID_NONE.  A linear search: a few per targets file or job.
 */
uint32_t cred_names_id(const struct cred_names *n, enum ts_cred c,
		       const char *name);

/*
 * cred_names_text() - a credential as a view or a file names it: its
 * name (n's, else the system's for users and groups), "[NONE]" for
 * TS_CRED_ID_NONE, "#%08x" for a partition not named (its name's hash),
 * else the id.  RET buf.
 */
const char *cred_names_text(const struct cred_names *n, enum ts_cred c,
			    uint32_t id, char *buf, size_t len);

/* cred_names_free() - release n (NULL is fine). */
void cred_names_free(struct cred_names *n);

#endif /* SSHARE_EXT_CRED_NAMES_H */
