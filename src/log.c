/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/*
 * The message whole, however long (a host list can be thousands of
 * bytes); only when memory runs out, its first 511 bytes ending in "...".
 */
void ts_log(const struct ts_logger *lg, enum ts_log_level level,
	    const char *fmt, ...)
{
	char small[512], *msg = small;
	va_list ap;
	int n;

	if (!lg || !lg->fn)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small)) {
		msg = malloc((size_t)n + 1);
		if (msg) {
			va_start(ap, fmt);
			vsnprintf(msg, (size_t)n + 1, fmt, ap);
			va_end(ap);
		} else {
			msg = small;
			memcpy(small + sizeof(small) - 4, "...", 4);
		}
	}
	lg->fn(lg->arg, level, n < 0 ? fmt : msg);
	if (msg != small)
		free(msg);
}
