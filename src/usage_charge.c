/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usage_charge.c - decay and charge arithmetic (usage_charge.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "usage_charge.h"

double ts_decay_per_second(uint32_t hl)
{
	if (hl > 0)
		return 1 - (0.693 / (double)hl);
	return 1;
}

double ts_decay_over(double decay, double delta)
{
	double real = pow(decay, delta);

	if (real < DBL_MIN)
		real = DBL_MIN;
	return real;
}

double ts_charge_run(time_t start, time_t end, bool at_end, time_t from,
		     time_t to, time_t *from_out)
{
	double run;

	if (start > from)
		from = start;
	/* A job past its limit has an end_time in the past: only at end. */
	if (end && at_end && to > end)
		to = end;
	run = difftime(to, from);
	if (run < 0)
		run = 0;
	*from_out = from;
	return run;
}

double ts_charge_wall(double run, double decay)
{
	return run * pow(decay, run);
}

double ts_charge_wall_memo(struct ts_wall_memo *m, double run, double decay)
{
	/* Bits, not ==: -0.0 == 0.0, and the sign of a 0 charge is kept. */
	if (memcmp(&m->run, &run, sizeof(run)) ||
	    memcmp(&m->decay, &decay, sizeof(decay))) {
		m->run = run;
		m->decay = decay;
		m->wall = ts_charge_wall(run, decay);
	}
	return m->wall;
}

#define SECS_PER_DAY  (24 * 60 * 60)
#define SECS_PER_WEEK (7 * SECS_PER_DAY)

/* Slurm's slurm_mktime(): mktime() deciding daylight saving itself. */
static time_t local_mktime(struct tm *tm)
{
	tm->tm_isdst = -1;
	return mktime(tm);
}

time_t ts_next_reset(enum ts_reset_period period, time_t last_reset, time_t now)
{
	struct tm tm;
	time_t t;

	if (!localtime_r(&last_reset, &tm))
		return 0;
	tm.tm_sec = 0;
	tm.tm_min = 0;
	tm.tm_hour = 0;

	switch (period) {
	case TS_RESET_DAILY:
		t = local_mktime(&tm) + SECS_PER_DAY;
		while (t + SECS_PER_DAY < now)
			t += SECS_PER_DAY;
		return t;
	case TS_RESET_WEEKLY:
		/* The next Sunday, 00:00. */
		t = local_mktime(&tm) + SECS_PER_DAY * (7 - tm.tm_wday);
		while (t + SECS_PER_WEEK < now)
			t += SECS_PER_WEEK;
		return t;
	case TS_RESET_MONTHLY:
		tm.tm_mday = 1;
		if (tm.tm_mon < 11) {
			tm.tm_mon++;
		} else {
			tm.tm_mon = 0;
			tm.tm_year++;
		}
		break;
	case TS_RESET_QUARTERLY:
		tm.tm_mday = 1;
		if (tm.tm_mon < 3) {
			tm.tm_mon = 3;
		} else if (tm.tm_mon < 6) {
			tm.tm_mon = 6;
		} else if (tm.tm_mon < 9) {
			tm.tm_mon = 9;
		} else {
			tm.tm_mon = 0;
			tm.tm_year++;
		}
		break;
	case TS_RESET_YEARLY:
		tm.tm_mday = 1;
		tm.tm_mon = 0;
		tm.tm_year++;
		break;
	default:
		return 0;
	}
	return local_mktime(&tm);
}
