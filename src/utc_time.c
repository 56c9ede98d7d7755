/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * utc_time.c - a Unix time as ISO 8601 UTC text (see utc_time.h).
 */
#include <stdio.h>
#include <time.h>

#include "utc_time.h"

char *ts_utc_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%lld", (long long)t);
	return buf;
}
