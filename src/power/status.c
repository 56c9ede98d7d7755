/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * status.c - `node_power status` lines (status.h), seed 001's
 * "MON DD YY HH:MM:SS" timestamps.  Edge case: time 0 (never recorded)
 * prints "never", not "Jan 01 70".
 */
#include <stdio.h>

#include "power/status.h"

void ts_power_status_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!t || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%b %d %y %H:%M:%S", &tm))
		snprintf(buf, len, "never");
}

int ts_power_status_line(const struct ts_power_node *nd, char *buf, size_t len)
{
	char changed[32], used[32], since[32], op[80];

	ts_power_status_time(nd->changed, changed, sizeof(changed));
	ts_power_status_time(nd->used, used, sizeof(used));
	if (nd->op != TS_POWER_OP_NONE) {
		ts_power_status_time(nd->since, since, sizeof(since));
		snprintf(op, sizeof(op), "%s(pid %ld since %s)",
			 ts_power_state_op_name(nd->op), nd->owner, since);
	} else {
		snprintf(op, sizeof(op), "none");
	}
	return snprintf(
		buf, len,
		"%s power=%s sleep=%ld op=%s last_state_change_time=%s last_used_time=%s",
		nd->name, ts_power_state_level_name(nd->power), nd->sleep, op,
		changed, used);
}
