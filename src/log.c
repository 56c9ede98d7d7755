/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

void ts_log(const struct ts_logger *lg, enum ts_log_level level,
	    const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!lg || !lg->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lg->fn(lg->arg, level, buf);
}
