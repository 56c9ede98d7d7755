/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.h - what node_power remembers per node between invocations.
 *
 * slurmctld may run several SuspendProgram/ResumeProgram instances at
 * once, and `node_power cycle` runs from a timer besides them; they share
 * one state file (state_file.h) holding, per node:
 *   power      on, off or unknown, as last confirmed by the backend
 *   sleep      the sleep-state limit last set (0 = awake), capmc's --limit
 *   op/owner   the operation in progress and who holds it (a pid): a
 *              "claim", counted against max_concurrent_nodes
 *   since      when the claim was taken
 *   changed    last_state_change_time (seed 001): power or sleep changed
 *   used       last_used_time (seed 001): end of the node's last job
 *   off_at     when node_power powered it off (min_node_down_delay)
 *   want       latest operation requested for the node, and its ticket:
 *              a waiting invocation whose ticket is no longer the latest
 *              drops the node (a resume overtakes a queued suspend)
 *
 * Text format, version 1 (appended to only; a new field bumps the
 * version; readers refuse versions they do not know):
 *   node_power-state 1 next_ticket=17
 *   n1 power=on sleep=0 op=none owner=0 since=0 changed=1700000000 \
 *      used=1699990000 off_at=0 want=none ticket=0
 * One node per line, fields in any order, missing fields 0/none.
 */
#ifndef TS_POWER_STATE_H
#define TS_POWER_STATE_H

#include <stddef.h>
#include <time.h>

#include "error.h"

#define TS_POWER_STATE_VERSION 1

enum ts_power_level {
	TS_POWER_UNKNOWN,
	TS_POWER_ON,
	TS_POWER_OFF,
};

enum ts_power_op {
	TS_POWER_OP_NONE,
	TS_POWER_OP_ON,	       /* power on (Slurm resume) */
	TS_POWER_OP_OFF,       /* power off (Slurm suspend) */
	TS_POWER_OP_RAMP_UP,   /* sleep-state limit down to 0 */
	TS_POWER_OP_RAMP_DOWN, /* sleep-state limit up to the deepest */
};

struct ts_power_node {
	char *name;
	enum ts_power_level power;
	long sleep;
	enum ts_power_op op;
	long owner;
	time_t since;
	time_t changed;
	time_t used;
	time_t off_at;
	enum ts_power_op want;
	unsigned long ticket;
};

struct ts_power_state {
	unsigned long next_ticket;
	size_t n, cap;
	struct ts_power_node *node;
};

/* kernel style; clang-format would break the braces over 4 lines */
/* clang-format off */
#define TS_POWER_STATE_INIT { 1, 0, 0, NULL }
/* clang-format on */

void ts_power_state_free(struct ts_power_state *st);

/* ts_power_state_find() - index of name, or -1. */
long ts_power_state_find(const struct ts_power_state *st, const char *name);

/*
 * ts_power_state_get() - index of name, added (power unknown, all times 0)
 * if missing.  RET index, or -1 with *err set (TS_ENOMEM).
 */
long ts_power_state_get(struct ts_power_state *st, const char *name,
			struct ts_error *err);

/* ts_power_state_claims() - nodes with an operation in progress. */
size_t ts_power_state_claims(const struct ts_power_state *st);

/*
 * ts_power_state_parse() - replace st's content by the text buf[0..len).
 * An empty buffer is an empty state.  RET TS_OK, or TS_ECORRUPT with
 * err->index the 1-based line; st is then empty.
 */
int ts_power_state_parse(struct ts_power_state *st, const char *buf, size_t len,
			 struct ts_error *err);

/*
 * ts_power_state_format() - st as text (the format above).
 * RET a malloc()ed string, or NULL with *err set.
 */
char *ts_power_state_format(const struct ts_power_state *st,
			    struct ts_error *err);

/* Names used in the file and in log lines: "on", "ramp_down", ... */
const char *ts_power_state_level_name(enum ts_power_level p);
const char *ts_power_state_op_name(enum ts_power_op op);

#endif /* TS_POWER_STATE_H */
