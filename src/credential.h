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

#endif /* TS_CREDENTIAL_H */
