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

#endif /* TS_CREDENTIAL_H */
