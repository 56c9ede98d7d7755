/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * consumed.c - the span and amount of consumed usage (rules in
 * consumed.h).
 */
#include <math.h>

#include "consumed.h"

bool ts_consumed_span(time_t last_ran, time_t start, uint32_t lag,
		      struct ts_consumed_span *out)
{
	if (!last_ran || start <= last_ran)
		return false;
	out->after = last_ran - (time_t)lag;
	out->upto = start - (time_t)lag;
	return true;
}

bool ts_consumed_in_span(const struct ts_consumed_span *s, time_t end)
{
	return end && end > s->after && end <= s->upto;
}

double ts_consumed_cpu_seconds(uint64_t sec, uint64_t usec)
{
	return (double)sec + (double)usec / 1e6;
}

double ts_consumed_charge(double cpu_secs, double factor, double decay,
			  double age)
{
	double used = cpu_secs;

	if (factor >= 0)
		used *= factor;
	if (age > 0 && decay < 1)
		used *= pow(decay, age);
	return used;
}
