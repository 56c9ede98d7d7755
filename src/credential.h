/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * credential.h - Maui's credential types (seed 003, 6.3.3; issue 27):
 * the user, group, account, QOS and class of a job, each with its own
 * fair-share usage, target and weight.  In Slurm's terms: the job's user
 * (across all of its accounts), its Unix group (the job's gid), its
 * account, its QOS and its partition.
 */
#ifndef TS_CREDENTIAL_H
#define TS_CREDENTIAL_H

#include <stdint.h>

/* Maui's credential types, in diagnose -p's FS(USR:GRP:ACC:QOS:CLS) order. */
enum ts_cred {
	TS_CRED_USER,
	TS_CRED_GROUP,
	TS_CRED_ACCOUNT,
	TS_CRED_QOS,
	TS_CRED_CLASS, /* Maui's class: a Slurm partition */
	TS_CRED_N,
};

/* ts_cred_name() - "user", "group", "account", "qos", "class"; "?" else. */
const char *ts_cred_name(enum ts_cred c);

/*
 * ts_cred_class_id() - the id under which a partition's (Maui class's)
 * usage is kept: Slurm numbers partitions by their place in slurm.conf,
 * which a reconfigure may change, so the id is a hash of the name (the
 * 64-bit FNV-1a folded to 32 bits), the same in every build and after
 * every restart; never UINT32_MAX (TS_CRED_ID_NONE), which NULL or ""
 * gives.  Two names with one id would share their usage; for 100
 * partitions the chance of any such pair is about 1 in 10^6.
 */
uint32_t ts_cred_class_id(const char *partition);

/*
 * ts_cred_system_id() - the id of a user, group or class named in a
 * file (targets, a Maui history): a user's uid and a group's gid from the
 * system's databases (getpwnam_r, getgrnam_r), else a name of digits
 * alone as the id itself; a class by ts_cred_class_id().  UINT32_MAX
 * (TS_CRED_ID_NONE) when not found, and for accounts and QOS, which the
 * caller looks up in Slurm's own tables.  Thread-safe.
 */
uint32_t ts_cred_system_id(enum ts_cred c, const char *name);

#endif /* TS_CREDENTIAL_H */
