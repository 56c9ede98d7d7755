/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.h - node_power's policy configuration (seed 001, PBS PP-824).
 *
 * The file is JSON; the node_power adapter parses it with json-c and hands
 * each top-level member here: scalars through ts_power_config_set() as the
 * member's text, the structured keys (nid_map, bmc, sleep_state_levels,
 * poweroff_eligible as an array) through their own setters.  Everything
 * about names, types, ranges and defaults lives here, so it is checked the
 * same way by "node_power check-config" and by every run.
 *
 * Seed 001 writes values as strings ("True", "1000"): a boolean key takes
 * JSON true/false or the strings "True"/"False" (any case); an integer key
 * takes a JSON integer or a string of decimal digits.  docs/node_power.8
 * lists every key with unit, range and default.
 */
#ifndef TS_POWER_CONFIG_H
#define TS_POWER_CONFIG_H

#include <stddef.h>

#include "error.h"
#include "power/hostlist.h"

enum ts_power_backend_kind {
	TS_POWER_BACKEND_CAPMC,
	TS_POWER_BACKEND_IPMI,
};

enum ts_power_off_method {
	TS_POWER_OFF_SOFT, /* ACPI-style shutdown, then hard off */
	TS_POWER_OFF_HARD,
};

/* Most sleep-state levels a ramp may step through. */
#define TS_POWER_MAX_LEVELS 16

/* One node's BMC (IPMI over LAN, "lanplus"). */
struct ts_power_bmc {
	char *node;    /* plain node name */
	char *address; /* host name or IPv4 address */
	long port;     /* UDP port, default 623 */
	char *user;
	char *password_file; /* one line: the password; mode 0600 */
};

/* One node's nid for capmc. */
struct ts_power_nid {
	char *node;
	long nid;
};

struct ts_power_config {
	/* Seed 001's keys and defaults. */
	int power_ramp_rate_enable;  /* False */
	int power_on_off_enable;     /* False */
	long node_idle_limit;	     /* 1800 s */
	long min_node_down_delay;    /* 1800 s */
	long max_jobs_analyze_limit; /* 100 jobs */
	long max_concurrent_nodes;   /* 5 nodes */

	/* node_power's own keys. */
	enum ts_power_backend_kind backend; /* capmc */
	char *capmc_path;	/* /opt/cray/capmc/default/bin/capmc */
	char *ipmitool_path;	/* /usr/bin/ipmitool */
	long ipmi_cipher_suite; /* 3 (ipmitool -C) */
	enum ts_power_off_method power_off_method; /* soft */
	long soft_off_timeout;			   /* 30 s, then a hard off */
	long sleep_state_levels[TS_POWER_MAX_LEVELS]; /* ascending */
	size_t n_levels;			      /* default 4: 1 2 3 4 */
	long sleep_state_pause; /* 5 s between two levels, 1..10 */
	struct ts_hostlist poweroff_eligible; /* none */
	char *log_file;	      /* /var/log/slurm/node_power.log */
	char *state_file;     /* /var/lib/slurm/node_power.state */
	long command_timeout; /* 30 s per external command */
	long command_retries; /* 2 more tries after a failure */
	long confirm_timeout; /* 300 s for on/off to be confirmed */
	long poll_interval;   /* 2 s between two status queries */
	long max_wait;	      /* 60 s waiting for a slot or the delay */
	int slurm_check;      /* True: ask slurmctld before power off */

	struct ts_power_nid *nid; /* nid_map entries */
	size_t n_nid;
	struct ts_power_bmc *bmc; /* bmc entries */
	size_t n_bmc;
};

/* How a top-level key is given. */
enum ts_power_key_kind {
	TS_POWER_KEY_UNKNOWN,
	TS_POWER_KEY_SCALAR,   /* ts_power_config_set() */
	TS_POWER_KEY_HOSTLIST, /* poweroff_eligible: string or array */
	TS_POWER_KEY_LEVELS,   /* sleep_state_levels: array of integers */
	TS_POWER_KEY_NID_MAP,  /* object: hostlist -> first nid */
	TS_POWER_KEY_BMC,      /* object: hostlist -> BMC object */
};

/* ts_power_config_init() - every key at its default.  RET TS_OK/ENOMEM. */
int ts_power_config_init(struct ts_power_config *c, struct ts_error *err);

/* ts_power_config_free() - release what init and the setters allocated. */
void ts_power_config_free(struct ts_power_config *c);

/* ts_power_config_key_kind() - how key must be given, or UNKNOWN. */
enum ts_power_key_kind ts_power_config_key_kind(const char *key);

/*
 * ts_power_config_set() - set a scalar key from its JSON member text.
 * quoted: 1 for a JSON string (text without the quotes), 0 for a JSON
 * literal (true, false, 12, 1.5, null).  For poweroff_eligible the text
 * is a hostlist expression.
 * RET TS_OK, TS_EKEY (unknown key), TS_EINVAL (wrong type) or TS_ERANGE;
 * err->msg names the key and the value.
 */
int ts_power_config_set(struct ts_power_config *c, const char *key,
			const char *text, int quoted, struct ts_error *err);

/*
 * ts_power_config_set_levels() - sleep_state_levels from n integers:
 * 1..n <= TS_POWER_MAX_LEVELS, each 1..99, strictly ascending.
 */
int ts_power_config_set_levels(struct ts_power_config *c, const long *v,
			       size_t n, struct ts_error *err);

/*
 * ts_power_config_add_nid() - nid_map member: the nodes of expr get nids
 * first, first + 1, ... in expression order.  A node mapped twice, or a
 * nid given to two nodes, is refused.
 */
int ts_power_config_add_nid(struct ts_power_config *c, const char *expr,
			    long first, struct ts_error *err);

/*
 * ts_power_config_add_bmc() - bmc member: every node of expr gets this
 * BMC; "%n" in address is replaced by the node name ("%n-ipmi").
 * port 0 means 623.  A node given two BMCs is refused.
 */
int ts_power_config_add_bmc(struct ts_power_config *c, const char *expr,
			    const char *address, long port, const char *user,
			    const char *password_file, struct ts_error *err);

/*
 * ts_power_config_check_secret_mode() - refuse a password file whose
 * permission bits (st_mode & 07777) let group or others read it.
 * RET TS_OK or TS_EINVAL: "bmc n1: password_file /p has mode 0644:
 * readable by group or others (chmod 600 /p)".
 */
int ts_power_config_check_secret_mode(const char *node, const char *path,
				      unsigned mode, struct ts_error *err);

/* ts_power_config_eligible() - 1 if node is in poweroff_eligible. */
int ts_power_config_eligible(const struct ts_power_config *c, const char *node);

/* ts_power_config_nid() - node's nid (nid_map, else its digits), or -1. */
long ts_power_config_nid(const struct ts_power_config *c, const char *node);

/* ts_power_config_bmc() - node's BMC entry, or NULL. */
const struct ts_power_bmc *ts_power_config_bmc(const struct ts_power_config *c,
					       const char *node);

#endif /* TS_POWER_CONFIG_H */
