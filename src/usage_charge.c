/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usage_charge.c - decay and charge arithmetic (usage_charge.h). */
#include <float.h>
#include <math.h>

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
