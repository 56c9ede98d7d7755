/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static const char *const code_names[TS_ECODE_COUNT] = {
	[TS_OK] = "success",
	[TS_EINVAL] = "invalid argument",
	[TS_ENOMEM] = "out of memory",
	[TS_ERANGE] = "value out of range",
	[TS_ESYNTAX] = "syntax error",
	[TS_EKEY] = "unknown key",
	[TS_EIO] = "input/output error",
	[TS_ECORRUPT] = "corrupt data",
	[TS_ENOENT] = "not found",
	[TS_EBUSY] = "busy",
	[TS_ETIMEDOUT] = "timed out",
};

int ts_error_set(struct ts_error *err, int code, long index, const char *fmt,
		 ...)
{
	va_list ap;
	int n;

	if (!err || err->code != TS_OK)
		return code;
	err->code = code;
	err->index = index;
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(err->msg))
		memcpy(err->msg + sizeof(err->msg) - 4, "...", 4);
	return code;
}

void ts_error_clear(struct ts_error *err)
{
	if (!err)
		return;
	err->code = TS_OK;
	err->index = -1;
	err->msg[0] = '\0';
}

const char *ts_strerror(int code)
{
	if (code < 0 || code >= TS_ECODE_COUNT || !code_names[code])
		return "unknown error";
	return code_names[code];
}
