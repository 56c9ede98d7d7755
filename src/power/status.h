/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * status.h - `node_power status` lines.  Seed 001 (PP-824): pbsnodes shows
 * last_state_change_time and last_used_time "in MON DD YY HH:MM:SS
 * format", e.g. "Mar 29 16 02:05:59", in local time.
 */
#ifndef TS_POWER_STATUS_H
#define TS_POWER_STATUS_H

#include <stddef.h>
#include <time.h>

#include "power/state.h"

/* Room for any line ts_power_status_line() writes, name excluded. */
#define TS_POWER_STATUS_EXTRA 192

/*
 * ts_power_status_time() - t as "MON DD YY HH:MM:SS" in the local time
 * zone (TZ), or "never" for 0.  buf needs 20 bytes.
 */
void ts_power_status_time(time_t t, char *buf, size_t len);

/*
 * ts_power_status_line() - one node:
 *   n1 power=off sleep=0 op=none last_state_change_time=Mar 29 16 02:05:59
 *      last_used_time=Mar 29 16 01:00:00   (one line)
 * an operation in progress shows as "op=off(pid 1234 since Mar ...)".
 * RET what snprintf() returns.
 */
int ts_power_status_line(const struct ts_power_node *nd, char *buf, size_t len);

#endif /* TS_POWER_STATUS_H */
