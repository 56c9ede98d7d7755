/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * duration.h - a length of time written the way Maui or Slurm admins
 * write it, as whole seconds.
 *
 * Accepted (no blanks inside):
 *   N          seconds (Maui's rule; note Slurm's bare number is minutes)
 *   Ns Nm Nh Nd   seconds, minutes, hours, days (suffix case-insensitive)
 *   MM:SS  HH:MM:SS  DD:HH:MM:SS         Maui's [[DD:]HH:]MM:SS
 *   D-HH  D-HH:MM  D-HH:MM:SS            Slurm's days-hours[:min[:sec]]
 * N, DD, D and the first field of a colon form are unbounded digits (up
 * to the caller's maximum); a field after another must be below 60
 * (minutes, seconds) or 24 (hours).
 */
#ifndef TS_DURATION_H
#define TS_DURATION_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/*
 * ts_duration_parse() - seconds in text.  Values above max are rejected
 * (TS_ERANGE), so no arithmetic here can overflow.
 * RET TS_OK (*secs set) or TS_EINVAL/TS_ERANGE with err->msg saying what
 * was expected and err->index the 1-based column within text.
 */
int ts_duration_parse(const char *text, uint64_t max, uint64_t *secs,
		      struct ts_error *err);

/*
 * ts_duration_format() - secs as Slurm prints a time limit: "HH:MM:SS",
 * or "D-HH:MM:SS" from one day on.  ts_duration_parse() reads it back.
 * RET the length snprintf() would give.
 */
int ts_duration_format(uint64_t secs, char *buf, size_t size);

#endif /* TS_DURATION_H */
